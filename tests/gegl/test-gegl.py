#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""test-gegl.py: the filter family against GEGL itself (0.4.62, through its
Python bindings) on real photographs.

    test-gegl.py CLFX_BENCH WORK_DIR PHOTO...

Each photograph is read by GEGL, and each case runs twice on the same
pixels: GEGL's operation (what GIMP's filter of the same name does) and
clfx-bench on the OpenCL device ($CLFX_TEST_DEVICE, default auto).

- Linear light, float: the photograph as GEGL's "RGB float" through a PFM
  file (clfx-bench reads PFM as linear light).  Bound: 1e-5 of the largest
  value.  The FIR sums the same float taps in the same order as GEGL; the
  IIR runs in double in both, clfx keeping its forward values as float
  (1e-7); GEGL's box blur is a running sum whose drift measured 1.3e-6 on
  [0, 1] data.  FIR against IIR differ by 1e-2 at sigma 1.5, a wrong tap
  count by 1e-3: the bound tells them apart.  The bilateral's bound is
  derived per radius from both sides' float arithmetic (bilateral_bound:
  3e-5 of the largest value at radius 4); with integer radii only, since
  GEGL shifts its window by a pixel for fractional ones.
- 8-bit sRGB with straight alpha, as GIMP stores a layer: the photograph
  as "R'G'B'A u8" through a PNG.  Bound: 1 code in alpha and in colour
  weighted by alpha (babl's and clfx's float to 8-bit rounding of the same
  value may differ by one; u8_difference says why the weighting).
- The median (gegl:median-blur, high-precision on) on both: bound 0.  An
  order statistic picks one of the window's values and stores it as it
  was read (GEGL keeps the source's curve: "RGB float" stays linear,
  "R'G'B'A u8" is ordered as its codes), so clfx and GEGL agree exactly or
  one of them picked the wrong texel.

TAP output; GEGL missing is a skip, or a failure with
CLFX_REQUIRE_DEVICE=1 (CI's root has it)."""
import array
import math
import os
import struct
import subprocess
import sys
import zlib

import gegltap
from gegltap import ok

Gegl = gegltap.gegl()

bench, work = sys.argv[1], sys.argv[2]
photos = sys.argv[3:]
device = os.environ.get("CLFX_TEST_DEVICE") or "auto"
os.makedirs(work, exist_ok=True)


gegl_load = gegltap.load


def gegl_apply(buf, w, h, fmt, op, props):
    g = Gegl.Node()
    src = g.create_child("gegl:buffer-source")
    src.set_property("buffer", buf)
    node = g.create_child(op)
    for k, v in props.items():
        node.set_property(k, v)
    out = Gegl.Buffer.new(fmt, 0, 0, w, h)
    write = g.create_child("gegl:write-buffer")
    write.set_property("buffer", out)
    src.link(node)
    node.link(write)
    write.process()
    return out.get(Gegl.Rectangle.new(0, 0, w, h), 1.0, fmt,
                   Gegl.AbyssPolicy.NONE)


def write_pfm(path, w, h, rgb):
    """rgb: top-to-bottom float rows; PFM stores them bottom-up."""
    a = array.array("f", rgb)
    with open(path, "wb") as f:
        f.write(b"PF\n%d %d\n-1.0\n" % (w, h))
        for y in range(h - 1, -1, -1):
            f.write(a[y * w * 3:(y + 1) * w * 3].tobytes())


def read_pfm(path):
    with open(path, "rb") as f:
        kind = f.readline().strip()
        w, h = map(int, f.readline().split())
        scale = float(f.readline())
        data = f.read()
    nc = 3 if kind == b"PF" else 1
    a = array.array("f")
    a.frombytes(data)
    if scale > 0:
        a.byteswap()
    rows = [a[y * w * nc:(y + 1) * w * nc] for y in range(h)]
    rows.reverse()
    return w, h, [v for r in rows for v in r]


def bench_run(inp, out, args):
    cmd = [bench, "--device", device, "--repeat", "1", "--warmup", "0",
           "--no-roofline", "--input", inp, "--output", out,
           "filter"] + args
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode == 0, (p.stderr or p.stdout).strip()[-300:]


def write_png8(path, w, h, data):
    """8-bit RGBA PNG, written here (no filter), so that the file holds
    exactly the bytes GEGL handed over."""
    def chunk(kind, body):
        c = kind + body
        return struct.pack(">I", len(body)) + c + struct.pack(
            ">I", zlib.crc32(c) & 0xffffffff)
    raw = b"".join(b"\0" + bytes(data[y * w * 4:(y + 1) * w * 4])
                   for y in range(h))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n"
                + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw))
                + chunk(b"IEND", b""))


def png_rgba8(path):
    """The RGBA bytes of an 8-bit RGBA PNG (what clfx-bench writes)."""
    with open(path, "rb") as f:
        blob = f.read()
    pos, idat, w = 8, b"", 0
    while pos < len(blob):
        size, kind = struct.unpack(">I4s", blob[pos:pos + 8])
        body = blob[pos + 8:pos + 8 + size]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            if (depth, ctype) != (8, 6):
                raise ValueError("%s: not 8-bit RGBA" % path)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + size
    raw, stride, out, prev = zlib.decompress(idat), w * 4, bytearray(), None
    for y in range(h):
        ft, line = raw[y * (stride + 1)], bytearray(
            raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        up = prev or bytearray(stride)
        for i in range(stride):
            a = line[i - 4] if i >= 4 else 0
            b, c = up[i], up[i - 4] if i >= 4 else 0
            if ft == 1:
                line[i] = (line[i] + a) & 255
            elif ft == 2:
                line[i] = (line[i] + b) & 255
            elif ft == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ft == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc
                                      else b if pb <= pc else c)) & 255
        out += line
        prev = line
    return bytes(out)


def u8_difference(got, ref):
    """The largest difference, in codes, that a pixel of one image makes
    against the other where it is composited: alpha as it is, colour
    weighted by alpha (colour under alpha 3/255 may differ by many codes
    and show by none, as GIMP's own filters' results do)."""
    worst, over = 0.0, 0
    for i in range(0, min(len(got), len(ref)), 4):
        ga, ra = got[i + 3], ref[i + 3]
        d = abs(ga - ra)
        for c in range(3):
            d = max(d, abs(got[i + c] * ga - ref[i + c] * ra) / 255.0)
        worst = max(worst, d)
        over += d > 1
    return worst, over


# (name, clfx-bench options, GEGL op, GEGL properties)
def gaussian(sx, sy, method, edge):
    gegl_edge = {"clamp-to-edge": "clamp", "clamp": "none"}[edge]
    return ("gaussian %s %g x %g %s" % (method, sx, sy, edge),
            ["--filter", "gaussian", "--std-dev-x", str(sx),
             "--std-dev-y", str(sy), "--method", method,
             "--addressing", edge],
            "gegl:gaussian-blur",
            {"std-dev-x": sx, "std-dev-y": sy, "filter": method,
             "abyss-policy": gegl_edge})


def bilateral(r, p, edge="clamp"):
    """Integer radii only: for a fractional one GEGL's window is one pixel
    up and left of the pixel (docs/FILTERS.md).  GEGL reads outside the
    image as transparent black (abyss none): clfx's clamp.  The float
    bound is derived from the arithmetic of both sides (bilateral_bound)."""
    return ("bilateral %g, %g %s" % (r, p, edge),
            ["--filter", "bilateral", "--blur-radius", str(r),
             "--edge-preservation", str(p), "--addressing", edge],
            "gegl:bilateral-filter",
            {"blur-radius": float(r), "edge-preservation": float(p)})


def bilateral_bound(r, max_abs):
    """|clfx - GEGL| for a bilateral case, relative to the largest value:
    each side's own error against the exact result (the tolerance of
    engine/ops/bilateral.c with float data): two float sums of n = (2R +
    1)^2 terms and the division ((2n + 1) u), the weights' relative
    error (8 u, GEGL's less) and the argument's absolute one (S 4u / e,
    S the sum of the spatial weights) on differences up to 2 max|v|;
    both sides, so twice that."""
    big_r = int(r)
    n = (2 * big_r + 1) ** 2
    s = sum(math.exp(-0.5 * k * k / r)
            for k in range(-big_r, big_r + 1)) ** 2
    u = 2.0 ** -24
    return 2 * ((2 * n + 1) + 2 * (8 + s * 4 / math.e)) * u * max_abs


def box(r):
    return ("box %d" % r, ["--filter", "box", "--radius", str(r)],
            "gegl:box-blur", {"radius": r})


def unsharp(sd, amount, threshold):
    return ("unsharp %g %g %g" % (sd, amount, threshold),
            ["--filter", "unsharp", "--std-dev", str(sd), "--amount",
             str(amount), "--threshold", str(threshold)],
            "gegl:unsharp-mask",
            {"std-dev": sd, "scale": amount, "threshold": threshold})


def highpass(sd, contrast):
    return ("highpass %g %g" % (sd, contrast),
            ["--filter", "highpass", "--highpass-std-dev", str(sd),
             "--contrast", str(contrast)],
            "gegl:high-pass", {"std-dev": sd, "contrast": contrast})


def dog(r1, r2):
    return ("dog %g %g" % (r1, r2),
            ["--filter", "dog", "--radius1", str(r1), "--radius2", str(r2)],
            "gegl:difference-of-gaussians", {"radius1": r1, "radius2": r2})


def convolve(tag, rows, normalize=True, alpha_weight=True, divisor=1.0,
             offset=0.0):
    """rows: a 3x3 or 5x5 matrix, row by row; GEGL's property of row r,
    column c is letter a-e for the column, digit 1-5 for the row (a 3x3
    sits in b2-d4)."""
    n = len(rows)
    props = {"normalize": normalize, "alpha-weight": alpha_weight,
             "divisor": divisor, "offset": offset}
    for r in range(n):
        for c in range(n):
            props["abcde"[c + (5 - n) // 2] + str(r + 1 + (5 - n) // 2)] = \
                float(rows[r][c])
    text = " ".join(str(v) for row in rows for v in row)
    return ("convolve %s" % tag,
            ["--filter", "convolve", "--matrix", text, "--normalize",
             str(normalize).lower(), "--alpha-weight",
             str(alpha_weight).lower(), "--divisor", str(divisor),
             "--offset", str(offset)],
            "gegl:convolution-matrix", props)


SHARPEN = [[0, -1, 0], [-1, 5, -1], [0, -1, 0]]
EMBOSS5 = [[1, 0, 0, 0, 0], [0, 2, 0, 0, 0], [0, 0, 1, 0, 0],
           [0, 0, 0, -2, 0], [0, 0, 0, 0, -1]]
SHIFT = [[0, 0, 0], [1, 0, 0], [0, 0, 0]]
LAPLACE = [[0, 1, 0], [1, -4, 1], [0, 1, 0]]

def median(r, shape, percentile, edge):
    return ("median %s %d p%g %s" % (shape, r, percentile, edge),
            ["--filter", "median", "--radius", str(r), "--neighborhood", shape,
             "--percentile", str(percentile), "--addressing", edge],
            "gegl:median-blur",
            {"radius": r, "neighborhood": shape, "percentile": percentile,
             "high-precision": True,
             "abyss-policy": {"clamp-to-edge": "clamp", "clamp": "none"}[edge]})


float_cases = [
    gaussian(1.5, 1.5, "auto", "clamp-to-edge"),
    gaussian(0.7, 0.7, "auto", "clamp-to-edge"),
    gaussian(3, 3, "fir", "clamp-to-edge"),
    gaussian(3, 3, "iir", "clamp-to-edge"),
    gaussian(10, 0.5, "auto", "clamp"),
    gaussian(30, 30, "auto", "clamp"),
    box(1),
    box(4),
    box(10),
    unsharp(3, 0.5, 0),
    unsharp(0.7, 2, 0),
    convolve("sharpen", SHARPEN),
    convolve("5x5 zero sum", EMBOSS5),
    convolve("shift left", SHIFT),
    convolve("laplace, divisor 2, offset 0.25", LAPLACE, normalize=False,
             divisor=2.0, offset=0.25),
    bilateral(4, 8),
    bilateral(1, 8),
    bilateral(3, 0),
    bilateral(2, 50),
]
u8_cases = [
    gaussian(1.5, 1.5, "auto", "clamp-to-edge"),
    gaussian(0.6, 4, "auto", "clamp"),
    gaussian(2, 2, "fir", "clamp-to-edge"),
    box(3),
    unsharp(3, 0.5, 0),
    convolve("sharpen", SHARPEN),
    convolve("5x5 zero sum, no alpha weight", EMBOSS5, alpha_weight=False),
    bilateral(4, 8),
    bilateral(2, 30),
]
# Graphs of GEGL's gaussian-blur and point operations, on a 256 x 192 crop
# of each photograph (crop_cases): the blur's arithmetic is the gaussian's
# above, so a crop holds all the graph adds, at a sixteenth of the cost.
crop_float_cases = [highpass(4, 1), highpass(0.7, 2), dog(1, 2), dog(0.5, 3)]
crop_u8_cases = [highpass(4, 1), dog(1, 2)]

median_float_cases = [
    median(3, "circle", 50, "clamp-to-edge"),
    median(2, "square", 25, "clamp"),
    median(6, "diamond", 80, "clamp-to-edge"),
]
median_u8_cases = [
    median(3, "circle", 50, "clamp-to-edge"),
    median(1, "square", 10, "clamp"),
]

# The motion blurs on a crop (motion_cases): (name, clfx-bench options,
# GEGL op, its properties, GEGL's step count n).
def motion_linear(length, angle):
    return ("motion-blur-linear %g, %g" % (length, angle),
            ["--filter", "motion-blur-linear", "--length", str(length),
             "--angle", str(angle)],
            "gegl:motion-blur-linear", {"length": length, "angle": angle},
            math.ceil(length) + 1)


motion_float_cases = [
    motion_linear(10, 0),
    motion_linear(23.7, 31),
    motion_linear(6.5, -120),
]
motion_u8_cases = [
    motion_linear(15, 45),
]

# (angle, center-x, center-y): circular_cases.
CIRCULAR_CASES = [(5, 0.5, 0.5), (15, 0.3, 0.6), (60, 0.5, 0.5),
                  (200, 1.2, -0.3)]
# (factor, center-x, center-y): zoom_cases.
ZOOM_CASES = [(0.1, 0.5, 0.5), (0.35, 0.3, 0.75), (-0.2, 0.5, 0.5),
              (0.8, 1.2, 0.25)]

THRESHOLD_CASES = [(2.0, 1.5, 0.1), (1.5, 3.0, 0.02)]
# mean_curvature_cases: a few iterations and the default.
MEAN_CURVATURE_ITERATIONS = [3, 20]
# (blur-radius, max-delta): selective_cases, 8-bit and float each.
SELECTIVE_CASES = [(5, 0.15), (1.5, 0.3)]
# (radius, pairs): snn_cases, 8-bit and float each.
SNN_CASES = [(8, 2), (3, 1)]
print("1..%d" % (len(photos) * (len(float_cases) + len(u8_cases) + 4
                                + len(THRESHOLD_CASES)
                                + len(median_float_cases)
                                + len(median_u8_cases)
                                + len(motion_float_cases)
                                + len(motion_u8_cases)
                                + len(ZOOM_CASES) + 1
                                + len(crop_float_cases)
                                + len(crop_u8_cases)
                                + len(CIRCULAR_CASES)
                                + 2 + len(MEAN_CURVATURE_ITERATIONS)
                                + 2 * len(SELECTIVE_CASES)
                                + 2 * len(SNN_CASES))))


def noise_reduction_cases(tag, photo):
    """gegl:noise-reduction works on "R~G~B~A float": on a 160 x 120 crop
    of the photograph's 8-bit codes as code / 255 handed to GEGL in that
    format (no conversion: babl's own from 8-bit goes through linear
    light, up to 47 ulp off, and the decisions' ties follow it) and to
    clfx as a float PFM (worked on as stored), GEGL's edge (transparent)
    as clfx's clamp.  GEGL's CPU code updates its buffer in place in
    raster order; clfx iterates between two buffers.  One iteration of a
    chunk of one pixel reads no updated value: GEGL rendering each pixel
    of a grid (every fourth) alone must give clfx's result bit for bit.
    At the default, 4 iterations of the whole crop, the order's effect is
    measured and said; every value must lie within the range of the
    source's 9 x 9 window (each iteration takes means of its 3 x 3), give
    or take the float sums' and quotients' rounding (9 of half an ulp of
    values up to 1 an iteration)."""
    import numpy as np
    fmt = "R~G~B~A float"
    full, fw, fh = gegl_load(photo, "R'G'B'A u8")
    w, h = min(fw, 160), min(fh, 120)
    codes = np.frombuffer(full.get(Gegl.Rectangle.new(0, 0, w, h), 1.0,
                                   "R'G'B'A u8", Gegl.AbyssPolicy.NONE),
                          dtype=np.uint8).reshape(h, w, 4)
    v = codes.astype(np.float32) / np.float32(255)
    buf = Gegl.Buffer.new(fmt, 0, 0, w, h)
    buf.set(Gegl.Rectangle.new(0, 0, w, h), fmt, v.tobytes())
    src = os.path.join(work, tag + "-nr.pfm")
    write_pfm(src, w, h, v[:, :, :3].ravel().tolist())

    def clfx(n):
        out = os.path.join(work, "%s-nr-%d.pfm" % (tag, n))
        good, msg = bench_run(src, out, ["--filter", "noise-reduction",
                                         "--noise-reduction-iterations",
                                         str(n), "--addressing", "clamp"])
        if not good:
            ok(False, "%s noise-reduction %d: clfx-bench failed: %s"
               % (tag, n, msg))
            return None
        return np.array(read_pfm(out)[2], dtype=np.float32).reshape(h, w, 3)

    def gegl(n, x, y, cw, ch):
        g = Gegl.Node()
        s = g.create_child("gegl:buffer-source")
        s.set_property("buffer", buf)
        node = g.create_child("gegl:noise-reduction")
        node.set_property("iterations", n)
        c = g.create_child("gegl:crop")
        for k, val in (("x", x), ("y", y), ("width", cw), ("height", ch)):
            c.set_property(k, float(val))
        out = Gegl.Buffer.new(fmt, x, y, cw, ch)
        write = g.create_child("gegl:write-buffer")
        write.set_property("buffer", out)
        s.link(node)
        node.link(c)
        c.link(write)
        write.process()
        return np.frombuffer(out.get(Gegl.Rectangle.new(x, y, cw, ch), 1.0,
                                     fmt, Gegl.AbyssPolicy.NONE),
                             dtype=np.float32).reshape(ch, cw, 4)[:, :, :3]

    got = clfx(1)
    if got is not None:
        pts = [(x, y) for y in range(0, h, 4) for x in range(0, w, 4)]
        differ = sum(bool((gegl(1, x, y, 1, 1)[0, 0] != got[y, x]).any())
                     for x, y in pts)
        ok(differ == 0, "%s %dx%d crop noise-reduction 1, R~G~B~A float, "
           "clamp: GEGL's pixels rendered alone, %d of %d differ (bound 0)"
           % (tag, w, h, differ, len(pts)))
    got = clfx(4)
    if got is not None:
        ref = gegl(4, 0, 0, w, h)
        d = np.abs(got - ref)
        pad = np.pad(v[:, :, :3], ((4, 4), (4, 4), (0, 0)),
                     constant_values=0.0)
        win = np.lib.stride_tricks.sliding_window_view(pad, (9, 9),
                                                       axis=(0, 1))
        slack = 4 * 9 * 2.0 ** -24
        inside = ((got >= win.min(axis=(3, 4)) - slack)
                  & (got <= win.max(axis=(3, 4)) + slack)).all()
        ok(bool(inside), "%s %dx%d crop noise-reduction 4, R~G~B~A float, "
           "clamp: within each 9 x 9 window's range; against GEGL's in-place "
           "order %.1f %% of values the same, max |d| %.3g, mean %.2g"
           % (tag, w, h, 100.0 * (d == 0).mean(), d.max(), d.mean()))


def mean_curvature_cases(tag, photo):
    """gegl:mean-curvature-blur works on "R'G'B'A float", reading outside
    the image as its edge (abyss clamp: clfx's clamp-to-edge): on a 160 x
    120 crop of the photograph's 8-bit codes as code / 255 handed to GEGL
    in that format and to clfx as a float PFM (worked on as stored),
    iterations 3 and 20 (the default).  GEGL iterates from one buffer
    into another, as clfx does, in float and double, which clfx repeats
    operation by operation: bound 0."""
    import numpy as np
    fmt = "R'G'B'A float"
    full, fw, fh = gegl_load(photo, "R'G'B'A u8")
    w, h = min(fw, 160), min(fh, 120)
    codes = np.frombuffer(full.get(Gegl.Rectangle.new(0, 0, w, h), 1.0,
                                   "R'G'B'A u8", Gegl.AbyssPolicy.NONE),
                          dtype=np.uint8).reshape(h, w, 4)
    v = codes.astype(np.float32) / np.float32(255)
    buf = Gegl.Buffer.new(fmt, 0, 0, w, h)
    buf.set(Gegl.Rectangle.new(0, 0, w, h), fmt, v.tobytes())
    src = os.path.join(work, tag + "-mcb.pfm")
    write_pfm(src, w, h, v[:, :, :3].ravel().tolist())
    for n in MEAN_CURVATURE_ITERATIONS:
        out = os.path.join(work, "%s-mcb-%d.pfm" % (tag, n))
        good, msg = bench_run(src, out, ["--filter", "mean-curvature-blur",
                                         "--mean-curvature-iterations",
                                         str(n)])
        if not good:
            ok(False, "%s mean-curvature-blur %d: clfx-bench failed: %s"
               % (tag, n, msg))
            continue
        got = np.array(read_pfm(out)[2], dtype=np.float32).reshape(h, w, 3)
        ref = np.frombuffer(gegl_apply(buf, w, h, fmt,
                                       "gegl:mean-curvature-blur",
                                       {"iterations": n}),
                            dtype=np.float32).reshape(h, w, 4)[:, :, :3]
        d = np.abs(got - ref)
        ok(d.max() == 0, "%s %dx%d crop mean-curvature-blur %d, R'G'B'A "
           "float, clamp-to-edge: max |clfx - GEGL| %.3g, %d of %d values "
           "differ (bound 0)" % (tag, w, h, n, d.max(), int((d != 0).sum()),
                                 d.size))


def srgb_encode(v):
    return v * 12.92 if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055


def unsharp_threshold_cases(tag, buf, w, h, rgb, src, bound):
    """The threshold mask is a 0/1 decision, threshold <= Y'(2 |d|) <= 1,
    blurred with sigma 1: where Y' lands within rounding of either end,
    clfx and GEGL (babl's luminance and curve) may decide differently, and
    the flip shows within the blur's reach (the recursive blur's tails
    are longer than a Gaussian's).  So: every value beyond the bound must
    lie within 8 pixels of such a tie (found from clfx's own d, through a
    run with threshold 0; on the bundled sample's synthetic 0/1 patterns
    Y'(2 |d|) is 1 within 1e-7 in whole regions), and at most 1% of the
    pixels may differ.  A wrong mask (its luminance, its curve, its blur)
    fails far from any tie."""
    for sd, amount, thr in THRESHOLD_CASES:
        name = "unsharp %g %g threshold %g" % (sd, amount, thr)
        base = ["--filter", "unsharp", "--std-dev", str(sd), "--amount",
                str(amount)]
        out = os.path.join(work, "%s-unsharp-t.pfm" % tag)
        out0 = os.path.join(work, "%s-unsharp-t0.pfm" % tag)
        good, msg = bench_run(src, out, base + ["--threshold", str(thr)])
        good0, msg0 = bench_run(src, out0, base + ["--threshold", "0"])
        if not (good and good0):
            ok(False, "%s %s: clfx-bench failed: %s" % (tag, name,
                                                        msg or msg0))
            continue
        ref = array.array("f")
        ref.frombytes(gegl_apply(buf, w, h, "RGB float", "gegl:unsharp-mask",
                                 {"std-dev": sd, "scale": amount,
                                  "threshold": thr}))
        got, got0 = read_pfm(out)[2], read_pfm(out0)[2]
        ties = set()
        for i in range(w * h):
            lum = sum(k * 2 * abs(got0[i * 3 + c] - rgb[i * 3 + c]) / amount
                      for c, k in enumerate((0.2224879400, 0.7169038389,
                                             0.0606082572)))
            if abs(srgb_encode(lum) - thr) < 1e-5 or abs(lum - 1) < 1e-5:
                ties.add((i % w, i // w))
        far = over = 0
        for i in range(w * h):
            if max(abs(got[i * 3 + c] - ref[i * 3 + c])
                   for c in range(3)) <= bound:
                continue
            over += 1
            x, y = i % w, i // w
            if not any((x + dx, y + dy) in ties for dx in range(-8, 9)
                       for dy in range(-8, 9)):
                far += 1
        ok(far == 0 and over <= w * h // 100,
           "%s %dx%d %s, linear float: %d pixels beyond %.3g, %d of them "
           "away from the %d ties of the mask's decision"
           % (tag, w, h, name, over, bound, far, len(ties)))


def bilateral_shifted(tag, buf, w, h, src, peak):
    """A fractional radius: GEGL's window starts ceil (r) before the pixel
    and its centre floor (r) after that start, so GEGL(x, y) is clfx's
    centred bilateral at (x - 1, y - 1); compared on x, y >= 1."""
    r, p = 2.5, 8
    out = os.path.join(work, tag + "-bilateral_shifted.pfm")
    good, msg = bench_run(src, out, ["--filter", "bilateral", "--blur-radius",
                                     str(r), "--edge-preservation", str(p),
                                     "--addressing", "clamp"])
    if not good:
        ok(False, "%s bilateral %g: clfx-bench failed: %s" % (tag, r, msg))
        return
    ref = array.array("f")
    ref.frombytes(gegl_apply(buf, w, h, "RGB float", "gegl:bilateral-filter",
                             {"blur-radius": r, "edge-preservation": p}))
    got = read_pfm(out)[2]
    d = max(abs(got[((y - 1) * w + x - 1) * 3 + c] - ref[(y * w + x) * 3 + c])
            for y in range(1, h) for x in range(1, w) for c in range(3))
    b = bilateral_bound(r, peak)
    ok(d <= b, "%s %dx%d bilateral %g, %g clamp, linear float, GEGL's "
       "one-pixel shift undone: max |clfx - GEGL| %.3g (bound %.3g)"
       % (tag, w, h, r, p, d, b))


def sobel_cases(tag, photo):
    """GEGL's edge-sobel reads its centre one pixel up and left, and at the
    first row and column of each chunk it processes reads transparent
    black (docs/FILTERS.md): on a crop small enough to be one chunk,
    GEGL(x, y) is clfx's centred Sobel at (x - 1, y - 1) away from the
    first two rows and columns and the last one."""
    full, fw, fh = gegl_load(photo, "RGB float")
    w, h = min(fw, 96), min(fh, 64)
    rgb = array.array("f")
    rgb.frombytes(full.get(Gegl.Rectangle.new(0, 0, w, h), 1.0, "RGB float",
                           Gegl.AbyssPolicy.NONE))
    buf = Gegl.Buffer.new("RGB float", 0, 0, w, h)
    buf.set(Gegl.Rectangle.new(0, 0, w, h), "RGB float", rgb.tobytes())
    src = os.path.join(work, tag + "-crop.pfm")
    write_pfm(src, w, h, rgb)
    bound = 1e-5 * max(abs(v) for v in rgb)
    for name, args, props in (
            ("sobel", [], {}),
            ("sobel horizontal, sign", ["--vertical", "false"],
             {"vertical": False}),
            ("sobel vertical, magnitude",
             ["--horizontal", "false", "--keep-sign", "false"],
             {"horizontal": False, "keep-sign": False})):
        out = os.path.join(work, "%s-%s.pfm" % (tag, name.replace(" ", "_")
                                                .replace(",", "")))
        good, msg = bench_run(src, out, ["--filter", "sobel"] + args)
        if not good:
            ok(False, "%s %s: clfx-bench failed: %s" % (tag, name, msg))
            continue
        ref = array.array("f")
        ref.frombytes(gegl_apply(buf, w, h, "RGBA float", "gegl:edge-sobel",
                                 props))
        got = read_pfm(out)[2]
        d = max(abs(got[((y - 1) * w + x - 1) * 3 + c]
                    - ref[(y * w + x) * 4 + c])
                for y in range(2, h - 1) for x in range(2, w - 1)
                for c in range(3))
        ok(d <= bound, "%s %dx%d crop %s, linear float, GEGL's one-pixel "
           "shift undone: max |clfx - GEGL| %.3g (bound %.3g)"
           % (tag, w, h, name, d, bound))


def crop(photo, fmt, cw, ch):
    """The photograph's top left cw x ch pixels as a buffer of their own
    and their bytes: GEGL's result then has the crop's edges, not the
    photograph's."""
    full, fw, fh = gegl_load(photo, fmt)
    w, h = min(fw, cw), min(fh, ch)
    data = full.get(Gegl.Rectangle.new(0, 0, w, h), 1.0, fmt,
                    Gegl.AbyssPolicy.NONE)
    buf = Gegl.Buffer.new(fmt, 0, 0, w, h)
    buf.set(Gegl.Rectangle.new(0, 0, w, h), fmt, data)
    return buf, w, h, data


def selective_cases(tag, photo):
    """gegl:gaussian-blur-selective on 160 x 120 crops, clamp-to-edge (GEGL's
    abyss clamp).  8-bit sRGB with alpha (GEGL's "R'G'B'A float" is the
    codes as floats, k / 255, which clfx takes): bound 1 code, the number
    of values that differ said.  Linear float: both encode to sRGB, babl
    and clfx each with its own float curve, so the results differ by float
    roundings (bound 1e-5 of the largest value) wherever no neighbour's
    encoded difference lies within those roundings of max-delta.  The
    photographs are 8-bit codes, whose differences are exactly k / 255:
    at such a max-delta (the default 0.2 = 51 / 255) ulps decide, and
    babl's choice of conversion path, made per process by speed, moves
    them (docs/FILTERS.md); the cases take max-deltas no code difference
    reaches exactly (0.15, 0.3)."""
    for fmt, ext in (("R'G'B'A u8", "-8.png"), ("RGB float", ".pfm")):
        buf, w, h, data = crop(photo, fmt, 160, 120)
        src = os.path.join(work, tag + "-selective" + ext)
        if ext == ".pfm":
            rgb = array.array("f", data)
            write_pfm(src, w, h, rgb)
            bound = 1e-5 * max(abs(v) for v in rgb)
        else:
            write_png8(src, w, h, data)
        for r, md in SELECTIVE_CASES:
            name = "gaussian-blur-selective %g, %g" % (r, md)
            out = os.path.join(work, "%s-selective-%g-%g%s" % (tag, r, md,
                                                               ext))
            good, msg = bench_run(src, out,
                                  ["--filter", "gaussian-blur-selective",
                                   "--selective-blur-radius", str(r),
                                   "--max-delta", str(md)])
            if not good:
                ok(False, "%s %s: clfx-bench failed: %s" % (tag, name, msg))
                continue
            gegl = gegl_apply(buf, w, h, fmt, "gegl:gaussian-blur-selective",
                              {"blur-radius": float(r), "max-delta": md})
            if ext == ".pfm":
                ref = array.array("f")
                ref.frombytes(gegl)
                diffs = [abs(a - b) for a, b in zip(read_pfm(out)[2], ref)]
                d = max(diffs)
                ok(d <= bound, "%s %dx%d crop %s, linear float: %d of %d "
                   "values the same, max |clfx - GEGL| %.3g (bound %.3g)"
                   % (tag, w, h, name, sum(x == 0 for x in diffs),
                      len(diffs), d, bound))
            else:
                got = png_rgba8(out)
                diffs = [abs(a - b) for a, b in zip(got, gegl)]
                ok(len(got) == len(gegl) and max(diffs) <= 1,
                   "%s %dx%d crop %s, 8-bit sRGB RGBA: %d of %d values "
                   "differ, by at most %d codes (bound 1)"
                   % (tag, w, h, name, sum(x != 0 for x in diffs),
                      len(diffs), max(diffs)))


def snn_cases(tag, photo):
    """gegl:snn-mean on 160 x 120 crops, clamp (GEGL reads outside the image
    as transparent black, abyss none), radius 8 with 2 pairs (the
    defaults), 3 with 1.  Linear float ("RGBA float" from the "RGB float"
    crop, alpha 1): bound 0, the same float distances, picks and sums as
    GEGL's.  8-bit sRGB with alpha: bound 1 code (GEGL decodes and encodes
    with babl, clfx with its own tables)."""
    for fmt, ext in (("R'G'B'A u8", "-8.png"), ("RGB float", ".pfm")):
        buf, w, h, data = crop(photo, fmt, 160, 120)
        src = os.path.join(work, tag + "-snn" + ext)
        if ext == ".pfm":
            write_pfm(src, w, h, array.array("f", data))
        else:
            write_png8(src, w, h, data)
        for r, pairs in SNN_CASES:
            name = "snn-mean %d, %d pairs, clamp" % (r, pairs)
            out = os.path.join(work, "%s-snn-%d-%d%s" % (tag, r, pairs, ext))
            good, msg = bench_run(src, out,
                                  ["--filter", "snn-mean", "--snn-radius",
                                   str(r), "--pairs", str(pairs),
                                   "--addressing", "clamp"])
            if not good:
                ok(False, "%s %s: clfx-bench failed: %s" % (tag, name, msg))
                continue
            gegl = gegl_apply(buf, w, h, fmt, "gegl:snn-mean",
                              {"radius": r, "pairs": pairs})
            if ext == ".pfm":
                ref = array.array("f")
                ref.frombytes(gegl)
                got = read_pfm(out)[2]
                d = max(abs(a - b) for a, b in zip(got, ref))
                ok(len(got) == len(ref) and d == 0,
                   "%s %dx%d crop %s, linear float: max |clfx - GEGL| %.3g "
                   "(bound 0)" % (tag, w, h, name, d))
            else:
                got = png_rgba8(out)
                diffs = [abs(a - b) for a, b in zip(got, gegl)]
                ok(len(got) == len(gegl) and max(diffs) <= 1,
                   "%s %dx%d crop %s, 8-bit sRGB RGBA: %d of %d values "
                   "differ, by at most %d codes (bound 1)"
                   % (tag, w, h, name, sum(x != 0 for x in diffs),
                      len(diffs), max(diffs)))


def motion_cases(tag, photo):
    """GEGL's motion blurs read outside the image as transparent black
    (abyss none) in RaGaBaA float: with alpha that is clfx's clamp; an
    image without alpha ("RGB float") leaves GEGL's result divided by its
    alpha, the weight of the taps inside, which is clfx's none.  On a 160
    x 120 crop (the blurs' cost is per pixel and step; a crop keeps the
    suite quick), linear float: both sides add up to n steps' (GEGL, its
    bilinear mixes in double rounded to float per step) or about 2n + 2
    taps' (clfx's stencil) float roundings of values up to the largest,
    and none's division, so the bound is (3n + 6) u of that; 8-bit sRGB
    with alpha: 1 code, as the other filters."""
    def run(src, name, args, edge, ext):
        """clfx-bench's result file, or None (said)."""
        out = os.path.join(work, "%s-%s%s" % (tag, name.replace(" ", "_")
                                              .replace(",", ""), ext))
        good, msg = bench_run(src, out, args + ["--addressing", edge])
        if not good:
            ok(False, "%s %s: clfx-bench failed: %s" % (tag, name, msg))
        return out if good else None

    buf, w, h, data = crop(photo, "RGB float", 160, 120)
    rgb = array.array("f")
    rgb.frombytes(data)
    src = os.path.join(work, tag + "-motion.pfm")
    write_pfm(src, w, h, rgb)
    peak = max(abs(v) for v in rgb)
    for name, args, op, props, n in motion_float_cases:
        out = run(src, name, args, "none", ".pfm")
        if not out:
            continue
        ref = array.array("f")
        ref.frombytes(gegl_apply(buf, w, h, "RGB float", op, props))
        d = max(abs(a - b) for a, b in zip(read_pfm(out)[2], ref))
        b = (3 * n + 6) * 2.0 ** -24 * peak
        ok(d <= b, "%s %dx%d crop %s none, linear float: max |clfx - "
           "GEGL| %.3g (bound %.3g, %.2g of the largest value)"
           % (tag, w, h, name, d, b, d / peak))
    buf, w, h, data = crop(photo, "R'G'B'A u8", 160, 120)
    src = os.path.join(work, tag + "-motion-8.png")
    write_png8(src, w, h, data)
    for name, args, op, props, n in motion_u8_cases:
        out = run(src, name, args, "clamp", "-8.png")
        if not out:
            continue
        gegl = gegl_apply(buf, w, h, "R'G'B'A u8", op, props)
        got = png_rgba8(out)
        d, over = u8_difference(got, gegl)
        ok(len(got) == len(gegl) and d <= 1,
           "%s %dx%d crop %s clamp, 8-bit sRGB RGBA: max difference %.2f "
           "codes (bound 1; %d values over)" % (tag, w, h, name, d, over))


def centred_run(tag, name, src, buf, w, h, args, op, props):
    """clfx-bench on src with args and clamp, and GEGL's op on buf with
    props, its centre given as center-x - 1/2w and center-y - 1/2h (GEGL's
    is half a pixel right of and below clfx's): clfx's values and GEGL's
    premultiplied ones ("RaGaBaA float"), or None (said)."""
    out = os.path.join(work, "%s-%s.pfm" % (tag, name.replace(" ", "_")
                                            .replace(",", "")))
    good, msg = bench_run(src, out, args + [
        "--center-x", str(props["center-x"]), "--center-y",
        str(props["center-y"]), "--addressing", "clamp"])
    if not good:
        ok(False, "%s %s: clfx-bench failed: %s" % (tag, name, msg))
        return None
    ref = array.array("f")
    ref.frombytes(gegl_apply(buf, w, h, "RaGaBaA float", op, dict(
        props, **{"center-x": props["center-x"] - 0.5 / w,
                  "center-y": props["center-y"] - 0.5 / h})))
    return read_pfm(out)[2], ref


def zoom_cases(tag, photo):
    """gegl:motion-blur-zoom with its arithmetic kept: the same bytes
    where both read the same texels.  GEGL samples pixel x at x and puts
    the centre at center-x times the width, half a pixel right of (and
    below) where clfx puts it: GEGL is given center-x - 1/2w (exact on a
    128 x 64 crop).  Its premultiplied result ("RaGaBaA float": no
    conversion after the blur) against clfx's clamp (GEGL's transparent
    outside, colour 0 either way) on the crop without alpha; pixels whose
    path reaches left of or above the image are left out (GEGL truncates
    negative positions towards 0, one texel off; the count is said).
    8-bit sRGB with alpha: 1 code."""
    buf, w, h, data = crop(photo, "RGB float", 128, 64)
    src = os.path.join(work, tag + "-zoom.pfm")
    write_pfm(src, w, h, array.array("f", data))
    for f, cx, cy in ZOOM_CASES:
        name = "motion-blur-zoom %g (%g, %g)" % (f, cx, cy)
        run = centred_run(tag, name, src, buf, w, h,
                          ["--filter", "motion-blur-zoom", "--factor",
                           str(f)], "gegl:motion-blur-zoom",
                          {"factor": f, "center-x": cx, "center-y": cy})
        if not run:
            continue
        got, ref = run
        gx, gy = (cx - 0.5 / w) * w, (cy - 0.5 / h) * h
        same = differ = left = left_differ = 0
        for y in range(h):
            for x in range(w):
                out_left = x + (gx - x) * f < 0 or y + (gy - y) * f < 0
                d = sum(got[(y * w + x) * 3 + c] != ref[(y * w + x) * 4 + c]
                        for c in range(3))
                left += out_left
                left_differ += out_left and d > 0
                same += 0 if out_left else 3 - d
                differ += 0 if out_left else d
        ok(differ == 0 and same > 0,
           "%s %dx%d crop %s clamp, linear float: %d values the same, %d "
           "differ (bound 0); %d pixels whose path reaches left of or "
           "above the image left out (%d of them differ)"
           % (tag, w, h, name, same, differ, left, left_differ))
    buf, w, h, data = crop(photo, "R'G'B'A u8", 128, 64)
    src = os.path.join(work, tag + "-zoom-8.png")
    write_png8(src, w, h, data)
    out = os.path.join(work, tag + "-zoom-8-out.png")
    good, msg = bench_run(src, out, ["--filter", "motion-blur-zoom",
                                     "--factor", "0.3", "--addressing",
                                     "clamp"])
    if not good:
        ok(False, "%s motion-blur-zoom 8-bit: clfx-bench failed: %s"
           % (tag, msg))
        return
    gegl = gegl_apply(buf, w, h, "R'G'B'A u8", "gegl:motion-blur-zoom",
                      {"factor": 0.3, "center-x": 0.5 - 0.5 / w,
                       "center-y": 0.5 - 0.5 / h})
    got = png_rgba8(out)
    d, over = u8_difference(got, gegl)
    ok(len(got) == len(gegl) and d <= 1,
       "%s %dx%d crop motion-blur-zoom 0.3 clamp, 8-bit sRGB RGBA: max "
       "difference %.2f codes (bound 1; %d values over)" % (tag, w, h, d,
                                                            over))


def crop_cases(tag, full, fw, fh, fmt):
    """crop_float_cases ("RGB float") or crop_u8_cases on the top left 256
    x 192 pixels of photograph `full`: linear float within 1e-5 of the
    largest value, 8-bit sRGB within one code, as the full-size cases."""
    ext, cases = ((".pfm", crop_float_cases) if fmt == "RGB float"
                  else ("-8.png", crop_u8_cases))
    w, h = min(fw, 256), min(fh, 192)
    data = pixels(full, w, h, fmt)
    buf = Gegl.Buffer.new(fmt, 0, 0, w, h)
    buf.set(Gegl.Rectangle.new(0, 0, w, h), fmt, data)
    src = os.path.join(work, tag + "-crop" + ext)
    if ext == ".pfm":
        rgb = array.array("f")
        rgb.frombytes(data)
        write_pfm(src, w, h, rgb)
        bound = 1e-5 * max(abs(v) for v in rgb)
    else:
        write_png8(src, w, h, data)

    def judge(out, gegl, op, props):
        if ext == ".pfm":
            ref = array.array("f")
            ref.frombytes(gegl)
            d = max(abs(a - b) for a, b in zip(read_pfm(out)[2], ref))
            return d <= bound, "max |clfx - GEGL| %.3g (bound %.3g)" % (
                d, bound)
        got = png_rgba8(out)
        d, over = u8_difference(got, gegl)
        return (len(got) == len(gegl) and d <= 1,
                "max difference %.2f codes (bound 1; %d values over)"
                % (d, over))

    run_cases(tag + " crop", "linear float" if ext == ".pfm"
              else "8-bit sRGB RGBA", buf, w, h, fmt, src,
              "-crop" + ext, cases, judge)


def circular_cases(tag, photo):
    """gegl:motion-blur-circular on a 128 x 64 crop, GEGL given center-x
    - 1/2w as for the zoom (exact there), its premultiplied result against
    clfx's clamp (colour 0 outside either way).  GEGL's halo is too small
    for large angles: a chunk reads a clamped texel where an arc leaves
    it, so GEGL runs here in one thread, the crop one chunk.  GEGL takes
    each step's cosine and sine from libm, clfx turns the direction step
    by step in double: a float position can round the other way where the
    two land within 1e-14 of a rounding boundary, moving a step by one
    float ulp (2^-17 of a pixel on the crop); the bound is that times the
    largest difference between neighbours, plus the division's 2.5 ulp."""
    buf, w, h, data = crop(photo, "RGB float", 128, 64)
    rgb = array.array("f", data)
    src = os.path.join(work, tag + "-circular.pfm")
    write_pfm(src, w, h, rgb)
    peak = max(abs(v) for v in rgb)
    threads = Gegl.config().props.threads
    Gegl.config().props.threads = 1
    for a, cx, cy in CIRCULAR_CASES:
        name = "motion-blur-circular %g (%g, %g)" % (a, cx, cy)
        run = centred_run(tag, name, src, buf, w, h,
                          ["--filter", "motion-blur-circular",
                           "--circular-angle", str(a)],
                          "gegl:motion-blur-circular",
                          {"angle": float(a), "center-x": cx,
                           "center-y": cy})
        if not run:
            continue
        got, ref = run
        diffs = [abs(got[i * 3 + c] - ref[i * 4 + c])
                 for i in range(w * h) for c in range(3)]
        d = max(diffs)
        b = (2.0 ** -17 * 2 + 3 * 2.0 ** -24) * peak
        ok(d <= b, "%s %dx%d crop %s clamp, linear float: %d of %d values "
           "the same, max |clfx - GEGL| %.3g (bound %.3g)"
           % (tag, w, h, name, sum(x == 0 for x in diffs), len(diffs), d, b))
    Gegl.config().props.threads = threads


def pixels(buf, w, h, fmt):
    return buf.get(Gegl.Rectangle.new(0, 0, w, h), 1.0, fmt,
                   Gegl.AbyssPolicy.NONE)


def run_cases(tag, what, buf, w, h, fmt, src, ext, cases, judge):
    """Each case on clfx (src file in, a file of extension ext out) and on
    GEGL (buf in format fmt); judge (clfx file, GEGL bytes, GEGL op, its
    properties) gives (passed, text)."""
    for name, args, op, props in cases:
        out = os.path.join(work, "%s-%s%s" % (tag, name.replace(" ", "_"),
                                              ext))
        good, msg = bench_run(src, out, args)
        if not good:
            ok(False, "%s %s %s: clfx-bench failed: %s" % (tag, name, what,
                                                          msg))
            continue
        passed, text = judge(out, gegl_apply(buf, w, h, fmt, op, props), op,
                             props)
        ok(passed, "%s %dx%d %s, %s: %s" % (tag, w, h, name, what, text))


for photo in photos:
    tag = os.path.splitext(os.path.basename(photo))[0]
    # Linear light, float, through PFM.
    buf, w, h = gegl_load(photo, "RGB float")
    rgb = array.array("f")
    rgb.frombytes(pixels(buf, w, h, "RGB float"))
    src = os.path.join(work, tag + ".pfm")
    write_pfm(src, w, h, rgb)
    peak = max(abs(v) for v in rgb)
    bound = 1e-5 * peak

    def judge_float(out, gegl, op, props):
        ref = array.array("f")
        ref.frombytes(gegl)
        d = max(abs(a - b) for a, b in zip(read_pfm(out)[2], ref))
        b = bound
        if op == "gegl:bilateral-filter":
            b = bilateral_bound(props["blur-radius"], peak)
        return d <= b, "max |clfx - GEGL| %.3g (bound %.3g)" % (d, b)

    run_cases(tag, "linear float", buf, w, h, "RGB float", src, ".pfm",
              float_cases, judge_float)
    unsharp_threshold_cases(tag, buf, w, h, rgb, src, bound)
    bilateral_shifted(tag, buf, w, h, src, peak)
    crop_cases(tag, buf, w, h, "RGB float")

    def judge_exact_float(out, gegl, op, props):
        ref = array.array("f")
        ref.frombytes(gegl)
        got = read_pfm(out)[2]
        d = max(abs(a - b) for a, b in zip(got, ref))
        return (len(got) == len(ref) and d == 0,
                "max |clfx - GEGL| %.3g (bound 0)" % d)

    run_cases(tag, "linear float", buf, w, h, "RGB float", src, ".pfm",
              median_float_cases, judge_exact_float)
    # 8-bit sRGB, straight alpha, through PNG.
    buf, w, h = gegl_load(photo, "R'G'B'A u8")
    src = os.path.join(work, tag + "-8.png")
    write_png8(src, w, h, pixels(buf, w, h, "R'G'B'A u8"))

    def judge_u8(out, gegl, op, props):
        got = png_rgba8(out)
        d, over = u8_difference(got, gegl)
        return (len(got) == len(gegl) and d <= 1,
                "max difference %.2f codes (bound 1; %d values over)"
                % (d, over))

    run_cases(tag, "8-bit sRGB RGBA", buf, w, h, "R'G'B'A u8", src, "-8.png",
              u8_cases, judge_u8)

    def judge_exact_u8(out, gegl, op, props):
        got = png_rgba8(out)
        d, over = u8_difference(got, gegl)
        same = sum(a != b for a, b in zip(got, gegl))
        return (len(got) == len(gegl) and d == 0,
                "max difference %.2f codes (bound 0; %d bytes differ)"
                % (d, same))

    run_cases(tag, "8-bit sRGB RGBA", buf, w, h, "R'G'B'A u8", src, "-8.png",
              median_u8_cases, judge_exact_u8)
    crop_cases(tag, buf, w, h, "R'G'B'A u8")
    sobel_cases(tag, photo)
    motion_cases(tag, photo)
    zoom_cases(tag, photo)
    circular_cases(tag, photo)
    noise_reduction_cases(tag, photo)
    mean_curvature_cases(tag, photo)
    selective_cases(tag, photo)
    snn_cases(tag, photo)
sys.exit(1 if gegltap.failed else 0)
