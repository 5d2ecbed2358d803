#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""test-mipmap.py: the GEGL module's clfx: operations at GEGL's lower
mipmap levels, as GEGL renders a view zoomed out (docs/FILTERS.md,
"Zoomed out: GEGL's mipmap levels").

    test-mipmap.py MODULE_DIR HDR_PFM

Each operation is rendered with gegl_node_blit at scale 1, 1/2, 1/4 and
1/8 with GEGL's mipmap rendering on, over a 256x192 image made of
HDR_PFM (data/sample-hdr.pfm, area-halved): as linear float for the tone
mappers and fattal02, mapped to 8-bit sRGB (x / (1 + x)) for the
filters.  Level L's result is compared with the full-size result
downscaled the way GEGL downscales (the result in the operation's own
format, read through a GeglBuffer at 1/2^L):

- distances scaled (gaussian, box, median, unsharp): bit for bit what the
  operation gives at full size on the input downscaled by GEGL with the
  documented distances (std-dev / 2^L; a radius r as (2r + 1) >>
  (L + 1)), and the report says so; within the tolerance the level's
  grid allows, the RMS change (8-bit codes) of moving the level's
  distance by what its pixels resolve: half a pixel of the level for a
  continuous distance, one step for an integer radius.  The unscaled
  distance must fail that tolerance.
- full-size statistics (reinhard02, reinhard05, drago03, aces, durand02):
  the report's statistics at every level are the full-size run's
  ("given"), validated against the CPU reference given the same, and a
  run on the downscaled input with its own statistics has others.  The
  global maps are pointwise and monotone in each pixel's values: each
  level pixel, the map of its block's mean, lies within the block's
  full-size results (slack 2^-14: the maps' float evaluation and the
  colour maps' small departure from monotonicity per channel), which
  the level's own statistics break.  durand02's local base is a grid of
  the smaller image, for which no bound follows: its RMS is held to a
  measured 4 codes, and a base of unscaled extent must exceed that.
- full size, downscaled (sobel, convolve, bilateral, fattal02): bit for
  bit the full-size result downscaled, while running them on the
  downscaled input gives something else.
- Behind a level-aware operation (whose full-size tiles are never made
  when GEGL renders at a level) the statistics and the full-size results
  are still the full-size input's; a change of the input or of a
  parameter gives new statistics, not kept ones.

TAP output; GEGL or the module missing is a skip, or a failure with
CLFX_REQUIRE_DEVICE=1."""
import json
import os
import sys
import tempfile

import numpy as np

import gegltap
from gegltap import ok

U8 = "R'G'B'A u8"
FLOAT = "RGBA float"
W, H = 256, 192
LEVELS = (1, 2, 3)

# (operation, properties, image, distances: {name: "continuous" or
# "integer"}); the image is "photo" (8-bit) or "hdr" (float).
SCALED = [
    ("clfx:gaussian", {"std-dev-x": 4.0, "std-dev-y": 4.0}, "photo"),
    ("clfx:gaussian", {"std-dev-x": 6.0, "std-dev-y": 1.5}, "photo"),
    ("clfx:box", {"radius": 4}, "photo"),
    ("clfx:box", {"radius": 7}, "photo"),
    ("clfx:median", {"radius": 4}, "photo"),
    ("clfx:unsharp", {"std-dev": 3.0, "amount": 1.5}, "photo"),
    ("clfx:unsharp", {"std-dev": 8.0, "amount": 1.0}, "photo"),
]
DISTANCES = ("std-dev-x", "std-dev-y", "std-dev", "radius")
STATS = [("clfx:reinhard02", {}), ("clfx:reinhard05", {"chromatic": 0.4}),
         ("clfx:drago03", {}), ("clfx:aces", {}), ("clfx:durand02", {})]
FULL = [
    ("clfx:sobel", {}, "photo"),
    ("clfx:convolve", {"matrix": "0 -1 0  -1 5 -1  0 -1 0"}, "photo"),
    ("clfx:bilateral", {"blur-radius": 4.0}, "photo"),
    ("clfx:fattal02", {}, "hdr"),
]
ENVELOPE_SLACK = 2.0 ** -14
DURAND_RMS = 4.0


def blit_fn():
    """The pixels of node at level (0, 0, w, h), as an array."""
    blit = gegltap.node_blit()

    def level_blit(node, level, w, h, fmt):
        bpp = 16 if fmt == FLOAT else 4
        return array(blit(node, 1.0 / (1 << level), (0, 0, w, h), fmt, bpp),
                     w, h, fmt)
    return level_blit


def array(data, w, h, fmt):
    """Pixels as an (h, w, 4) float64 array (8-bit as codes)."""
    return np.frombuffer(data, np.float32 if fmt == FLOAT else np.uint8) \
        .reshape(h, w, 4).astype(np.float64)


def buffer_of(a, fmt):
    h, w = a.shape[:2]
    buf = Gegl.Buffer.new(fmt, 0, 0, w, h)
    buf.set(Gegl.Rectangle.new(0, 0, w, h), fmt,
            a.astype(np.float32 if fmt == FLOAT else np.uint8).tobytes())
    return buf


def downscale(a, level, fmt):
    """a at level `level` the way GEGL makes a buffer's mipmap."""
    h, w = a.shape[:2]
    return array(buffer_of(a, fmt).get(
        Gegl.Rectangle.new(0, 0, w >> level, h >> level), 1.0 / (1 << level),
        fmt, Gegl.AbyssPolicy.NONE), w >> level, h >> level, fmt)


def render(op, props, a, fmt, level=0, report=None, before=None):
    """op over a at `level` (blit at 1/2^level); with the report's JSON
    when report is a path.  before: a level-aware operation (and its
    properties) between the source and op."""
    h, w = a.shape[:2]
    g = Gegl.Node()
    src = g.create_child("gegl:buffer-source")
    src.set_property("buffer", buffer_of(a, fmt))
    last = src
    if before:
        pre = g.create_child(before[0])
        for k, v in before[1].items():
            pre.set_property(k, v)
        src.link(pre)
        last = pre
    node = g.create_child(op)
    node.set_property("device", device)
    for k, v in props.items():
        node.set_property(k, v)
    if report:
        node.set_property("report-file", report)
    last.link(node)
    out = blit(node, level, w >> level, h >> level, fmt)
    return out, (json.load(open(report)) if report else None)


def rms(d):
    return float(np.sqrt((d[..., :3] ** 2).mean()))


def scaled(props, level, shift=0.0):
    """props at `level`: distances as the module scales them, moved by
    shift (half a pixel of the level, or one step of a radius)."""
    out = dict(props)
    for k, v in props.items():
        if k not in DISTANCES:
            continue
        if isinstance(v, int):
            out[k] = max(((2 * v + 1) >> (level + 1)) + int(shift), 0)
        else:
            out[k] = max(v / (1 << level) + shift, 0.0)
    return out


def stats_of(report):
    s = dict(report["statistics"] or {})
    given = s.pop("given", None)
    return s, given


def envelope_breaks(level_result, full, level):
    """The share of level pixels (colour values) outside their block's
    full-size results by more than the slack."""
    n = 1 << level
    h, w = level_result.shape[:2]
    blocks = full[:h * n, :w * n, :3].reshape(h, n, w, n, 3)
    out = np.maximum(level_result[..., :3] - blocks.max(axis=(1, 3)),
                     blocks.min(axis=(1, 3)) - level_result[..., :3])
    return float((out > ENVELOPE_SLACK).mean())


def srgb_codes(x):
    x = np.clip(x, 0.0, 1.0)
    return np.where(x <= 0.0031308, 12.92 * x,
                    1.055 * x ** (1 / 2.4) - 0.055) * 255


module_dir, hdr_path = sys.argv[1:3]
device = os.environ.get("CLFX_TEST_DEVICE") or "auto"
Gegl = gegltap.gegl()
Gegl.load_module_directory(module_dir)
if "clfx:gaussian" not in Gegl.list_operations():
    gegltap.skip_all("the module %s has no clfx: operations" % module_dir)
# A scale below 1 renders the graph at the level (gegl_node_blit), with
# GEGL's mipmap rendering on.
Gegl.config().set_property("mipmap-rendering", True)
blit = blit_fn()
work = tempfile.mkdtemp(prefix="clfx-mipmap-")
rep0, repl = os.path.join(work, "level0.json"), os.path.join(work, "l.json")

pfm = gegltap.read_pfm(hdr_path)
pfm = pfm[:2 * H, :2 * W].reshape(H, 2, W, 2, 3).mean(axis=(1, 3))
IMAGES = {
    "hdr": (np.dstack([pfm, np.ones((H, W))]), FLOAT),
    "photo": (np.dstack([np.clip((pfm / (1 + pfm)) ** (1 / 2.2) * 255 + 0.5,
                                 0, 255), np.full((H, W), 255)]), U8),
}

print("1..%d" % (len(LEVELS) * (3 * len(SCALED) + 3 * len(STATS)
                                  + 2 * len(FULL)) + 4))

# ---- distances scaled -------------------------------------------------------
for op, props, image in SCALED:
    a, fmt = IMAGES[image]
    full, _ = render(op, props, a, fmt)
    step = 1.0 if isinstance(props.get("radius"), int) else 0.5
    for level in LEVELS:
        got, report = render(op, props, a, fmt, level, repl)
        ref = downscale(full, level, fmt)
        small = downscale(a, level, fmt)
        same, _ = render(op, scaled(props, level), small, fmt)
        params = report["parameters"]
        ok(np.array_equal(got, same)
           and report["parameters"]["mipmap-level"] == str(level)
           and all(abs(params[k] - v) < 1e-9
                   for k, v in scaled(props, level).items()
                   if k in DISTANCES),
           "%s %s level %d: the full-size operation on the downscaled input "
           "with distances %s, bit for bit" % (op, props, level,
                                               scaled(props, level)))
        up, _ = render(op, scaled(props, level, step), small, fmt)
        down, _ = render(op, scaled(props, level, -step), small, fmt)
        tol = max(rms(up - same), rms(same - down))
        err = rms(got - ref)
        ok(err <= tol,
           "%s %s level %d: RMS %.2f codes from the downscaled full-size "
           "result, within %.2f (the distance moved by %g pixel of the "
           "level)" % (op, props, level, err, tol, step))
        wrong, _ = render(op, props, small, fmt)
        ok(rms(wrong - ref) > tol,
           "%s %s level %d: the distance unscaled would fail it (RMS %.2f)"
           % (op, props, level, rms(wrong - ref)))

# ---- full-size statistics ---------------------------------------------------
a, fmt = IMAGES["hdr"]
for op, props in STATS:
    props = dict(props, validate=True)
    full, report = render(op, props, a, fmt, 0, rep0)
    stats0, _ = stats_of(report)
    for level in LEVELS:
        got, report = render(op, props, a, fmt, level, repl)
        stats, given = stats_of(report)
        small = downscale(a, level, fmt)
        own, own_report = render(op, props, small, fmt, 0, repl)
        ok(stats == stats0 and given is True
           and report["validation"]["passed"]
           and stats_of(own_report)[0] != stats0,
           "%s level %d: the full-size statistics (%s), given and validated; "
           "the downscaled input's own differ" % (op, level,
                                                  ", ".join(sorted(stats0))))
        if op == "clfx:durand02":
            ref = downscale(full, level, fmt)
            err = rms(srgb_codes(got) - srgb_codes(ref))
            wide, _ = render(op, {"spatial-sigma": min(0.02 * (1 << level),
                                                        1.0)}, small, fmt)
            wrong = rms(srgb_codes(wide) - srgb_codes(ref))
            ok(err <= DURAND_RMS,
               "%s level %d: RMS %.2f codes from the downscaled full-size "
               "result, within the measured %g" % (op, level, err,
                                                   DURAND_RMS))
            ok(wrong > DURAND_RMS,
               "%s level %d: a base of unscaled extent would exceed it (RMS "
               "%.2f)" % (op, level, wrong))
        else:
            breaks = envelope_breaks(got, full, level)
            ok(breaks == 0.0,
               "%s level %d: every pixel within its block's full-size "
               "results (%.4f outside)" % (op, level, breaks))
            # aces has no statistics on finite data but the largest value:
            # its map alone, the same either way.
            own_breaks = envelope_breaks(own, full, level)
            ok(op == "clfx:aces" or own_breaks > 0.01,
               "%s level %d: with the level's own statistics %.3f would be "
               "outside" % (op, level, own_breaks))

# ---- full size, downscaled --------------------------------------------------
for op, props, image in FULL:
    a, fmt = IMAGES[image]
    full, _ = render(op, props, a, fmt)
    for level in LEVELS:
        got, report = render(op, props, a, fmt, level, repl)
        ref = downscale(full, level, fmt)
        ok(np.array_equal(got, ref)
           and report["parameters"]["mipmap"] == "full size, downscaled",
           "%s %s level %d: the full-size result downscaled, bit for bit"
           % (op, props, level))
        at_level, _ = render(op, props, downscale(a, level, fmt), fmt)
        ok(not np.array_equal(at_level, ref),
           "%s level %d: run on the downscaled input instead, it differs "
           "(RMS %.2f)" % (op, level, rms(at_level - ref)))

# ---- behind a level-aware operation, and after changes ----------------------
a, fmt = IMAGES["hdr"]
before = ("gegl:exposure", {"exposure": 1.0})
full, report = render("clfx:reinhard05", {}, a, fmt, 0, rep0, before)
got, report_l = render("clfx:reinhard05", {}, a, fmt, 2, repl, before)
ok(stats_of(report_l)[0] == stats_of(report)[0],
   "reinhard05 behind gegl:exposure, level 2: the full-size statistics of "
   "the exposed input (its full-size tiles rendered for them)")
full, _ = render("clfx:sobel", {}, a, fmt, 0, None, before)
got, _ = render("clfx:sobel", {}, a, fmt, 2, None, before)
ok(np.array_equal(got, downscale(full, 2, fmt)),
   "sobel behind gegl:exposure, level 2: the full-size result downscaled")

# One node rendered at level 1, then its input and a parameter changed.
g = Gegl.Node()
src = g.create_child("gegl:buffer-source")
buf = buffer_of(a, fmt)
src.set_property("buffer", buf)
node = g.create_child("clfx:drago03")
node.set_property("device", device)
node.set_property("report-file", repl)
src.link(node)
blit(node, 1, W >> 1, H >> 1, fmt)
first = stats_of(json.load(open(repl)))[0]
buf.set(Gegl.Rectangle.new(0, 0, W, H // 2), fmt,
        (a[:H // 2] * 3.0).astype(np.float32).tobytes())
blit(node, 1, W >> 1, H >> 1, fmt)
changed = stats_of(json.load(open(repl)))[0]
brighter = np.concatenate([a[:H // 2] * 3.0, a[H // 2:]])
_, expect = render("clfx:drago03", {}, brighter, fmt, 0, rep0)
ok(changed != first and changed == stats_of(expect)[0],
   "drago03, the input changed between two level-1 renders: the new "
   "input's full-size statistics")
node.set_property("exposure", -1.0)
blit(node, 1, W >> 1, H >> 1, fmt)
exposed = stats_of(json.load(open(repl)))[0]
_, expect = render("clfx:drago03", {"exposure": -1.0}, brighter, fmt, 0,
                   rep0)
ok(exposed == stats_of(expect)[0],
   "drago03, the exposure changed: the statistics under the new exposure")

sys.exit(1 if gegltap.failed else 0)
