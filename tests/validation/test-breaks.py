#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""test-breaks.py: validation catches broken results of every operator,
at photograph sizes as at small sizes, on synthetic and real images (the
inputs are meson's: tests/meson.build says which each group takes).

    test-breaks.py BREAK_CHECK WORK_DIR GROUP [--structural] [INPUT]...

GROUP is "filters" (resize, the filters, copy), "tonemap" (the tone
mappers) or "all" (both): meson runs the first two as tests of their own,
side by side.  Each INPUT is WxH:DEPTH (the synthetic image clfx-bench
makes) or a file.  --structural checks only the kernels as they are and
the structural breaks: breaks-forms runs them so, on small inputs, with
the GPUs' kernel forms that CLFX_DEV selects on a CPU device.

For every operator of the group and every input, break-check
(tests/validation/break-check.c) validates the device's result as
clfx-bench --validate does, which must pass, then against the same CPU
reference and tolerance:
  - that result with its colour 30 % and 5 % too large (in linear light):
    validation must find values beyond the bound;
  - the result of kernels with one step of the operator left out (below,
    STRUCTURAL: a tap, a pass, a weight, a layer, a level, a channel):
    validation must find values beyond the bound.  The break is made in
    every kernel form the case may launch, a CPU device's and a GPU's,
    so that it holds whichever form the device picks.  Its result must
    also differ from the unbroken kernels' somewhere: where it does not,
    the break never reached the kernels that ran (the line names those
    the device launched), and the case fails for that, whatever
    validation says.
A bound that grows with the image, or is loose for one operator, lets one
of these pass.  Each line's diagnostics give the bound and the largest
difference, so that a margin shrinking shows before it fails.

The operators' arguments keep the CPU reference at 2048 x 2048 within a
few seconds where the defaults take a minute (median radius 4: 55 s;
radius 1 takes the same network kernels as every window up to 7 x 7).
Device: $CLFX_TEST_DEVICE (default auto); without an OpenCL device the
test is skipped, or fails when CLFX_REQUIRE_DEVICE=1.  TAP output."""
import json
import os
import shutil
import struct
import subprocess
import sys
import time

# tests/taplib.py
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
import taplib  # noqa: E402

check, work, group = sys.argv[1], sys.argv[2], sys.argv[3]
inputs = [a for a in sys.argv[4:] if a != "--structural"]
# A photograph the build names but this machine lacks is left out, said.
missing = [a for a in inputs if ":" not in a and not os.path.exists(a)]
inputs = [a for a in inputs if a not in missing]
structural_only = "--structural" in sys.argv[4:]
src_dir = os.environ["CLFX_KERNEL_SRC"]
device = os.environ.get("CLFX_TEST_DEVICE", "auto")


def resize(filt):
    """Shrinks to 7/10 of each side: no tap lands on a texel centre."""
    return lambda w, h: ["resize", "--width", str(w * 7 // 10),
                         "--height", str(h * 7 // 10), "--filter", filt]


def fixed(*args):
    return lambda w, h: list(args)


# The break of each operator: what is left out, and the kernel text that
# does it (file, text, replacement; every occurrence of the text, which
# must occur `count` times).  A break leaves the same step out of every
# kernel form the operator's case may launch, a CPU device's (sources
# from buffers) and a GPU's (sources as images, local-memory tiles, the
# hardware sampler): whichever form the device picks is broken alike.
# The comments name the kernels each patch reaches.
# Resize: every form leaves out the last row a result pixel takes (linear:
# the lower of its two; cubic, lanczos3: the last tap of its table).  The
# strip and sweep kernels take only shrinks by whole factors, never 7/10.
RESIZE_TAP = ("the vertical pass's last tap",
              [# resize_filter_vb (CPU devices, every filter): its two loops.
               ("resize.cl", "for (int k = 0; k < ntaps; k++)\n"
                "      acc += weights[(long) k * dst_h + y]\n"
                "             * vload16",
                "for (int k = 0; k < ntaps - 1; k++)\n"
                "      acc += weights[(long) k * dst_h + y]\n"
                "             * vload16", 1),
               ("resize.cl", "for (int k = 0; k < ntaps; k++)\n      {\n"
                "        float                   w",
                "for (int k = 0; k < ntaps - 1; k++)\n      {\n"
                "        float                   w", 1),
               # resize_filter_tile (images: cubic, lanczos3 where a tile's
               # footprint fits local memory), its columns pass.
               ("resize.cl", "wy + y, dst_h,\n                         "
                "TILE_NTY);",
                "wy + y, dst_h,\n                         TILE_NTY - 1);", 1),
               # resize_filter_v (images: the two-pass form elsewhere).
               ("resize.cl", "for (int k = 0; k < ntaps; k++)\n"
                "      acc += weights[(long) k * dst_h + y]\n"
                "             * read_imagef",
                "for (int k = 0; k < ntaps - 1; k++)\n"
                "      acc += weights[(long) k * dst_h + y]\n"
                "             * read_imagef", 1),
               # resize_sample (images: linear), in the kernel: the lower
               # row's two texels, weight b, left out of the bilinear sum.
               ("resize.cl", "t01 = clfx_fetch (CLFX_SRC (src), i0, j0 + 1);",
                "t01 = (float4) (0.0f);", 1),
               ("resize.cl",
                "t11 = clfx_fetch (CLFX_SRC (src), i0 + 1, j0 + 1);",
                "t11 = (float4) (0.0f);", 1),
               # resize_sample through the hardware sampler: the upper row
               # alone (sampled at its centre, filtered along the row) at
               # its weight 1 - b.
               ("resize.cl",
                "acc += clfx_canonical (read_imagef (src, smp,\n"
                "                                                  "
                "(float2) (cx, cy)));",
                "{\n"
                "                float ty = normalized ? cy * size.y : cy;\n"
                "                float iv = floor (ty - 0.5f), "
                "ry = iv + 0.5f;\n"
                "                acc += (1.0f - (ty - 0.5f - iv))\n"
                "                       * clfx_canonical (read_imagef (\n"
                "                           src, smp, (float2) (cx, "
                "normalized ? ry / size.y : ry)));\n"
                "              }", 1)])
OPERATORS = {
    "filters": [
        ("nearest", resize("nearest"),
         ("the pixel centre's half texel in the sampling position",
          [("clfx-common.h", "return ((float) d + 0.5f) * scale + offset;",
            "return (float) d * scale + offset;", 1)])),
        ("linear", resize("linear"), RESIZE_TAP),
        ("cubic", resize("cubic"), RESIZE_TAP),
        ("lanczos3", resize("lanczos3"), RESIZE_TAP),
        ("gaussian", fixed("filter", "--filter", "gaussian"),
         ("the backward recursion's third term",
          [("iir.h", "coef.s2 * n2        \\\n                 + coef.s3 * n3;",
            "coef.s2 * n2;", 1)])),
        ("box", fixed("filter", "--filter", "box"),
         ("the vertical pass's last tap",
          [# filter_conv_vv (CPU devices): its two loops.
           ("filter-fir.cl", "for (int j = 0; j < n; j++)",
            "for (int j = 0; j < n - 1; j++)", 2),
           # filter_conv_v (images, its tile in local memory).
           ("filter-fir.cl", "FIR_RUN (acc, k, n, j, tile[",
            "FIR_RUN (acc, k, n - 1, j, tile[", 1)])),
        ("unsharp", fixed("filter", "--filter", "unsharp"),
         ("the sharpening (the difference from the blur)",
          [("unsharp-mix.h", "  o = amount * d + s;\n", "  o = s;\n",
            1)])),
        ("median", fixed("filter", "--filter", "median", "--radius", "1",
                         "--neighborhood", "square"),
         ("the window's rows (every texel from the centre's row)",
          [# median_network_cpu (CPU devices), four results at a time.
           ("median-network-cpu.cl", "long at = o0 + di * stride + dj;",
            "long at = o0 + dj;", 1),
           # MEDIAN_NET: median_network_tile (images, local memory),
           # median_network_buffers, median_network_cpu's single results.
           ("median-network.h", "(o) + di * (stride) + dj", "(o) + dj", 2),
           # The radix selection's reads (MEDIAN_NET's windows of unequal
           # weights on GPUs): KW_B from buffers, KW_L from a tile.
           ("median-windows.h", "o + (long) (di) * rect.z + (dj)",
            "o + (dj)", 2),
           ("median-windows.h", "o + (di) * span + (dj)", "o + (dj)", 2)])),
        ("bilateral", fixed("filter", "--filter", "bilateral",
                            "--blur-radius", "2"),
         ("the colour weight",
          [# bilateral_v (CPU devices), eight results at a time.
           ("bilateral.cl", "float8 w = wy * ws[u] * exp (-e);",
            "float8 w = wy * ws[u];", 1),
           # BIL_TAP: bilateral_l (images, local memory), bilateral_d,
           # bilateral_f (folded) and bilateral_v's results made again.
           ("bilateral.cl", "float  w_ = (s) * exp (-e_);",
            "float  w_ = (s);", 1)])),
        ("sobel", fixed("filter", "--filter", "sobel"),
         ("the vertical gradient's lower row",
          [("sobel.cl",
            "v += (-1.0f * (bl)) + (-2.0f * (b)) + (-1.0f * (br));",
            "v += 0.0f;", 1)])),
        ("convolve", fixed("filter", "--filter", "convolve", "--matrix",
                           "0,-1,0,-1,5,-1,0,-1,0"),
         ("the matrix's odd rows",
          [# convolve_v (CPU devices), eight results at a time.
           ("convolve.cl", "sl0 + sl1", "sl0", 2),
           ("convolve.cl", "sh0 + sh1", "sh0", 2),
           # CONV_PIXEL: convolve_l (images, local memory) and
           # convolve_v's results one at a time.
           ("convolve.cl", "t_ = s0_ + s1_;", "t_ = s0_;", 1)])),
        # The motion blurs' references walk every step of every path in
        # double: short paths keep them to seconds at 2048 x 2048.
        ("motion-blur-linear", fixed("filter", "--filter",
                                     "motion-blur-linear", "--length", "5",
                                     "--angle", "30"),
         ("the stencil's last tap (the path's far end)",
          [("motion-blur-linear.cl", "sum += t.z *",
            "sum += (k + 1 < n ? t.z : 0.0f) *", 2)])),
        ("motion-blur-zoom", fixed("filter", "--filter",
                                   "motion-blur-zoom", "--factor", "0.01"),
         ("each step's lower left texel",
          [("motion-blur.h", "float4 m0 = dy * (p2 - p0) + p0;",
            "float4 m0 = p0;", 1)])),
        ("highpass", fixed("filter", "--filter", "highpass"),
         ("the blur (the inverted input over the input)",
          [("highpass-mix.h", "(1.0f - highpass_encode (bl.xyz)) * ab",
            "(1.0f - highpass_encode (s.xyz)) * ab", 1)])),
        ("dog", fixed("filter", "--filter", "dog"),
         ("the second blur (radius2's)",
          [("dog.cl", "float3 d = s1.xyz - s2.xyz;", "float3 d = s1.xyz;",
            1)])),
        ("motion-blur-circular", fixed("filter", "--filter",
                                       "motion-blur-circular",
                                       "--circular-angle", "0.5"),
         ("the arc's turn (the sine turns the other way)",
          [("motion-blur-circular.cl", "s = s * cs - c * sn;",
            "s = s * cs + c * sn;", 1)])),
        # One iteration keeps the reference at 2048 x 2048 near a second.
        ("noise-reduction", fixed("filter", "--filter", "noise-reduction",
                                  "--noise-reduction-iterations", "1"),
         ("the last neighbour (lower right): its offer is its left one's",
          [("noise-reduction.cl", "NR_OFFER (p7);", "NR_OFFER (p6);", 1)])),
        # Two iterations: the break leaves the first one out.
        ("mean-curvature-blur", fixed("filter", "--filter",
                                      "mean-curvature-blur",
                                      "--mean-curvature-iterations", "2"),
         ("the first iteration (its result the source's)",
          [("mean-curvature-blur.cl",
            "out[(size_t) (lo + gy) * sw + lo + gx] = mcb_step (in, sw, "
            "lo + gx,",
            "out[(size_t) (lo + gy) * sw + lo + gx] = lo == 1 ? in[(size_t) "
            "(lo + gy) * sw + lo + gx] : mcb_step (in, sw, lo + gx,", 1)])),
        ("gaussian-blur-selective",
         fixed("filter", "--filter", "gaussian-blur-selective",
               "--selective-blur-radius", "1"),
         ("the max-delta test (every neighbour counted)",
          [("gaussian-blur-selective.cl",
            "int4   out = d > (float4) (thr) || d < (float4) (-thr);",
            "int4   out = (int4) (0);", 1)])),
        ("snn-mean", fixed("filter", "--filter", "snn-mean", "--snn-radius",
                           "1"),
         ("the choice (the first candidate of each four)",
          [("snn-mean.cl", "int8   m = d < best;",
            "int8   m = best == (float8) (1000.0f);", 1)])),
        ("copy", fixed("copy"),
         ("the blue channel",
          [("copy.cl",
            "CLFX_STORE (x, y, clfx_load_inside (CLFX_SRC (src), x, y));",
            "CLFX_STORE (x, y, clfx_load_inside (CLFX_SRC (src), x, y)\n"
            "                      * (float4) (1.0f, 1.0f, 0.0f, 1.0f));",
            1)])),
    ],
    "tonemap": [
        ("reinhard02", fixed("tonemap", "--operator", "reinhard02"),
         ("the white point's term",
          [("tonemap-global.cl",
            "f = p[0] * (1.0f + t) / (1.0f + L);",
            "f = p[0] / (1.0f + L);", 1)])),
        ("reinhard05", fixed("tonemap", "--operator", "reinhard05"),
         ("the normalisation by the range",
          [("tonemap-global.cl", "if (p[TM_P_RANGE_SCALE] > 0.0f)",
            "if (0)", 1)])),
        ("drago03", fixed("tonemap", "--operator", "drago03"),
         ("the bias's logarithmic base",
          [("tonemap-global.cl",
            "/ log (2.0f + 8.0f * exp2 (p[3] * log2 (Y * p[1]))) * p[2];",
            "* p[2];", 1)])),
        ("aces", fixed("tonemap", "--operator", "aces"),
         ("the input matrix",
          [("tonemap-global.cl",
            "T x = 0.59719f * *r + 0.35458f * *g + 0.04823f * *b;",
            "T x = *r;", 1),
           ("tonemap-global.cl",
            "T y = 0.07600f * *r + 0.90834f * *g + 0.01566f * *b;",
            "T y = *g;", 1),
           ("tonemap-global.cl",
            "T z = 0.02840f * *r + 0.13383f * *g + 0.83777f * *b;",
            "T z = *b;", 1)])),
        ("durand02", fixed("tonemap", "--operator", "durand02"),
         ("the detail layer",
          [("durand02.cl", "p[4] = detail;", "p[4] = 0.0f;", 1)])),
        ("fattal02", fixed("tonemap", "--operator", "fattal02"),
         ("the coarsest level's attenuation",
          [# fat_phi_v (CPU devices).
           ("fattal02.cl", "phi = g > 1e-4f ? exp2",
            "phi = g > 1e-4f && ! coarsest ? exp2", 1),
           # fat_phi (images).
           ("fattal02.cl", "if (g > 1e-4f)\n    phi = exp2",
            "if (g > 1e-4f && ! coarsest)\n    phi = exp2", 1)])),
        ("mantiuk06", fixed("tonemap", "--operator", "mantiuk06"),
         ("the transducer (gradients not mapped)",
          [# m06_transduce (m06_target, m06_target_v's last pixels).
           ("mantiuk06.cl",
            "(m06_r, m06_w, R)) / (ln10 * detail);\n\n"
            "  return g < 0.0f ? -G : G;",
            "(m06_r, m06_w, R)) / (ln10 * detail);\n\n  return g;", 1),
           # m06_transduce8 (m06_target_v, CPU devices).
           ("mantiuk06.cl",
            "(m06_lookup8_r (R)) / (ln10 * detail);\n\n"
            "  return g < 0.0f ? -G : G;",
            "(m06_lookup8_r (R)) / (ln10 * detail);\n\n  return g;", 1)])),
        ("local-laplacian", fixed("tonemap", "--operator", "local-laplacian"),
         ("the remapping (each remapped image is L itself)",
          [# ll_remap, in ll_down_remap and ll_map (every device).
           ("local-laplacian.cl",
            "  return g + e + r.am1 * d * exp (-d * d * r.k2);",
            "  return i;", 1)])),
        # A second structural break: one pyramid level, the finest, left
        # out of the collapse.
        ("local-laplacian-L0",
         fixed("tonemap", "--operator", "local-laplacian"),
         ("level 0's coefficients (the finest pyramid level skipped)",
          [# ll_map (every device).
           ("local-laplacian.cl",
            "v.xyz *= exp10 (O0[at] + ll_up (R1, w1, h1, px, py) - L[at]);",
            "v.xyz *= exp10 (ll_up (R1, w1, h1, px, py) - L[at]);", 1)])),
    ],
}


def image_size(spec):
    if ":" in spec and not os.path.exists(spec):
        w, h = spec.split(":")[0].split("x")
        return int(w), int(h)
    with open(spec, "rb") as f:
        head = f.read(64)
    if head[:8] == b"\x89PNG\r\n\x1a\n":
        return struct.unpack(">II", head[16:24])
    if head[:4] == b"\x76\x2f\x31\x01":
        # OpenEXR, the tone mappers' photograph: only the resizes read
        # the size, and none is given one.
        return 0, 0
    w, h = head.split(b"\n")[1].split()
    return int(w), int(h)


def broken_kernels(name, patches):
    """A copy of the kernel sources with the break applied."""
    d = os.path.join(work, "kernels-" + name)
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(src_dir, d)
    for fname, old, new, count in patches:
        path = os.path.join(d, fname)
        text = open(path).read()
        if text.count(old) != count:
            return None, "%s: %r occurs %d times, not %d: update the test" % (
                fname, old, text.count(old), count)
        open(path, "w").write(text.replace(old, new))
    return d, ""


def short(spec):
    return os.path.basename(spec)


def run(kernels, spec, args):
    """break-check's results by break, and its exit status and seconds."""
    start = time.monotonic()
    p = subprocess.run([check, device, spec, kernels] + args,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=600)
    lines = {}
    for line in p.stdout.decode("utf-8", "replace").splitlines():
        if line.startswith("{"):
            r = json.loads(line)
            lines[r["break"]] = r
        else:
            print("# " + line)
    return p.returncode, lines, time.monotonic() - start


def describe(r):
    w = r["worst"]
    return ("%d of %d values beyond the bound (%d ambiguous); largest "
            "difference %.3g at (%d,%d) ch%d, expected %.6g, bound there "
            "%.3g; bound %.3g + %.3g|e|" % (
                r["mismatches"], r["samples"], r["ambiguous"], r["max_abs"],
                w[0], w[1], w[2], w[3], w[5], r["abs_tol"], r["rel_tol"]))


def kernels_of(r):
    """The kernels a run launched, as the line says them."""
    return ", ".join(r.get("kernels", [])) or "none reported"


os.makedirs(work, exist_ok=True)
for a in missing:
    print("# %s: not on this machine, left out" % a)
ops = (OPERATORS["filters"] + OPERATORS["tonemap"] if group == "all"
       else OPERATORS[group])

# A device first, or skip (test-outlier.py's rule).
probe_dir, _ = broken_kernels("probe", [])
rc, lines, _ = run(probe_dir, "16x16:float", ["copy"])
if rc != 0 or "none" not in lines:
    if os.environ.get("CLFX_REQUIRE_DEVICE") == "1":
        print("1..1")
        print("not ok 1 - an OpenCL device '%s' runs (CLFX_REQUIRE_DEVICE=1)"
              % device)
        sys.exit(1)
    print("1..0 # SKIP no OpenCL device '%s'" % device)
    sys.exit(0)

for name, make_args, (omitted, patches) in ops:
    kernels, why = broken_kernels(name, patches)
    if not taplib.ok(kernels is not None,
                     "%s: kernels without %s" % (name, omitted), why):
        continue
    for spec in inputs:
        w, h = image_size(spec)
        rc, lines, secs = run(kernels, spec, make_args(w, h))
        what = "%s on %s" % (name, short(spec))
        good = lines.get("none")
        if not taplib.ok(good is not None and good["passed"],
                         "%s: the kernels as they are pass validation" % what,
                         describe(good) if good else "no result"):
            continue
        print("# %s: %s; CPU reference %.0f ms, all four %.1f s; "
              "kernels: %s" % (what, describe(good), good["reference_ms"],
                               secs, kernels_of(good)))
        checks = [] if structural_only else [
            ("x1.3", "colour 30 % too large"),
            ("x1.05", "colour 5 % too large")]
        for brk, label in checks + [("structural", "without " + omitted)]:
            r = lines.get(brk)
            if brk == "structural" and r is not None:
                print("# %s, %s: %d of %d values differ from the unbroken "
                      "result; kernels: %s" % (what, label, r["differs"],
                                               r["samples"], kernels_of(r)))
                if r["differs"] == 0:
                    # Validation cannot judge a break that never ran.
                    taplib.ok(False,
                              "%s, %s: the break did not reach the kernels "
                              "that ran (%s)" % (what, label, kernels_of(r)),
                              "the broken kernels' result is the unbroken "
                              "one's, bit for bit: the device ran a kernel "
                              "form the break does not patch; break it "
                              "there too (OPERATORS)")
                    continue
            taplib.ok(r is not None and not r["passed"]
                      and r["mismatches"] > 0,
                      "%s, %s: fails validation (%s values beyond the "
                      "bound)" % (what, label, r and r["mismatches"]),
                      describe(r) if r else "no result")

taplib.done()
