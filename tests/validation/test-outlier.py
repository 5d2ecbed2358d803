#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""test-outlier.py: validation cannot be made vacuous by one outlier.

    test-outlier.py CLFX_BENCH WORK_DIR

The kernels are built from a copy of the sources ($CLFX_KERNEL_SRC) in
which every result store adds 0.25 to channel 0 (CLFX_KERNEL_DIR), and
run on a 16x12 float image (64x12 for the box's running sums, so that
its right half does not read back to the outlier) whose one texel is
1e30.  A bound built from
the image's largest value (4 u x 1e30 = 2.4e23) would let that kernel
pass; the per-pixel bound widens only where the outlier is read, so every
case must fail validation.  The same cases with the unbroken copy must
pass (the bound is not just tight everywhere), and the report says the
bound was per pixel and how small it got, or that it is small everywhere
(the iterated stencils' bound is the store's rounding alone: nothing of
it scales with the values).  Device: $CLFX_TEST_DEVICE
(default auto); without an OpenCL device the test is skipped, or fails
when CLFX_REQUIRE_DEVICE=1.  TAP output."""
import json
import os
import shutil
import struct
import subprocess
import sys

# tests/taplib.py
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
import taplib  # noqa: E402

bench, work = sys.argv[1], sys.argv[2]
src_dir = os.environ["CLFX_KERNEL_SRC"]
device = os.environ.get("CLFX_TEST_DEVICE", "auto")

OUTLIER = (5, 4)


def ok(cond, what, detail=""):
    return taplib.ok(cond, what, detail, last_lines=8)


def write_pfm(path, outlier, W, H):
    """Smooth values in [0.1, 0.9] (no texel equal to a neighbour), and
    1e30 in channel 0 at OUTLIER when outlier is set.  PFM rows run
    bottom to top; the texel's place does not matter here."""
    data = bytearray()
    for y in range(H):
        for x in range(W):
            for c in range(3):
                v = 0.1 + 0.8 * ((x * 7 + y * 13 + c * 5) % 29) / 28.0
                if outlier and (x, y) == OUTLIER and c == 0:
                    v = 1e30
                data += struct.pack("<f", v)
    with open(path, "wb") as f:
        f.write(b"PF\n%d %d\n-1.0\n" % (W, H) + bytes(data))


def kernel_copy(name, broken):
    d = os.path.join(work, name)
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(src_dir, d)
    if broken:
        path = os.path.join(d, "clfx-io.h")
        text = open(path).read()
        old = "  v = clfx_unpremul (v);\n"
        assert text.count(old) == 1, "clfx_store changed: update the test"
        open(path, "w").write(text.replace(old, old + "  v.x += 0.25f;\n"))
    return d


def run(kernels, image, args, report):
    env = dict(os.environ, CLFX_KERNEL_DIR=kernels, CLFX_CACHE_DIR="off")
    p = subprocess.run([bench, "--device", device, "--validate", "--input",
                        image, "--report", report] + args,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       env=env, timeout=300)
    try:
        r = json.load(open(report))
    except (OSError, ValueError):
        r = None
    return p.returncode, p.stdout.decode("utf-8", "replace"), r


CASES = [
    ("resize nearest", ["resize", "--width", "24", "--height", "18",
                        "--filter", "nearest"]),
    ("resize linear", ["resize", "--width", "24", "--height", "18",
                       "--filter", "linear"]),
    ("resize lanczos3", ["resize", "--width", "11", "--height", "9",
                         "--filter", "lanczos3"]),
    ("resize cubic, repeat", ["resize", "--width", "20", "--height", "10",
                              "--filter", "cubic", "--addressing", "repeat"]),
    ("box", ["filter", "--filter", "box", "--radius", "1"]),
    # From radius 8 CPU devices run the box as sums restarted every 32
    # texels, a result reading back to its run's start: the wide image.
    ("box 9, running sums", ["filter", "--filter", "box", "--radius", "9"],
     "wide"),
    ("gaussian fir", ["filter", "--filter", "gaussian", "--method", "fir",
                      "--std-dev-x", "1", "--std-dev-y", "0.7"]),
    ("sobel", ["filter", "--filter", "sobel"]),
    ("convolve", ["filter", "--filter", "convolve", "--matrix",
                  "0,1,0,1,4,1,0,1,0"]),
    ("bilateral", ["filter", "--filter", "bilateral", "--blur-radius", "2"]),
    ("unsharp fir", ["filter", "--filter", "unsharp", "--std-dev", "0.8"]),
    ("motion-blur-linear", ["filter", "--filter", "motion-blur-linear",
                            "--length", "4", "--angle", "30"]),
    ("motion-blur-zoom", ["filter", "--filter", "motion-blur-zoom",
                          "--factor", "0.3"]),
    ("motion-blur-circular", ["filter", "--filter", "motion-blur-circular",
                              "--circular-angle", "30"]),
    ("noise-reduction", ["filter", "--filter", "noise-reduction",
                         "--noise-reduction-iterations", "2"]),
    ("mean-curvature-blur", ["filter", "--filter", "mean-curvature-blur",
                             "--mean-curvature-iterations", "3"]),
    ("gaussian-blur-selective", ["filter", "--filter",
                                 "gaussian-blur-selective",
                                 "--selective-blur-radius", "2",
                                 "--max-delta", "1"]),
    ("snn-mean", ["filter", "--filter", "snn-mean", "--snn-radius", "2"]),
]

os.makedirs(work, exist_ok=True)
images = {}
for size, (w, h) in (("small", (16, 12)), ("wide", (64, 12))):
    images[size] = (os.path.join(work, "outlier-%s.pfm" % size),
                    os.path.join(work, "plain-%s.pfm" % size))
    write_pfm(images[size][0], True, w, h)
    write_pfm(images[size][1], False, w, h)
good = kernel_copy("kernels-good", False)
bad = kernel_copy("kernels-broken", True)

rc, out, r = run(good, images["small"][1], CASES[0][1],
                 os.path.join(work, "probe.json"))
if r is None or r.get("fallback") is not None or rc != 0:
    if os.environ.get("CLFX_REQUIRE_DEVICE") == "1":
        print("1..1")
        print("not ok 1 - an OpenCL device '%s' runs (CLFX_REQUIRE_DEVICE=1)"
              % device)
        for line in out.splitlines()[-8:]:
            print("# " + line)
        sys.exit(1)
    print("1..0 # SKIP no OpenCL device '%s'" % device)
    sys.exit(0)

for i, (name, args, *size) in enumerate(CASES):
    outlier, plain = images[size[0] if size else "small"]
    rep = os.path.join(work, "case%d" % i)
    rc, out, r = run(good, outlier, args, rep + "-good.json")
    v = r and r.get("validation")
    ok(rc == 0 and v and v["passed"],
       "%s: the kernels as they are pass on the outlier image" % name, out)
    if v:
        # Far from the outlier the bound is that of an ordinary image
        # (the sampler's linear filter: 4 x 2^-8 of values up to 1),
        # far below the 0.25 the broken kernel adds.
        ok((v.get("per_pixel") is True and v["abs_tol"] > 1e20
            and v["abs_tol_min"] < 0.05)
           or (v["abs_tol"] < 0.05 and v["rel_tol"] < 0.05),
           "%s: the bound is per pixel, %.3g where the outlier is read, "
           "%.3g elsewhere" % (name, v["abs_tol"], v["abs_tol_min"]),
           json.dumps(v)[:600])
    rc, out, r = run(bad, outlier, args, rep + "-bad.json")
    v = r and r.get("validation")
    ok(rc == 2 and v and not v["passed"] and v["mismatches"] > 0,
       "%s: a kernel that adds 0.25 fails on the outlier image (%s "
       "mismatches)" % (name, v and v["mismatches"]), out)
    rc, out, r = run(bad, plain, args, rep + "-plain.json")
    v = r and r.get("validation")
    ok(rc == 2 and v and not v["passed"],
       "%s: ... and on the image without it" % name, out)

# --keep-reference (what GIMP applies): the failed device result is
# replaced by the CPU reference's, byte for byte, and the report says so;
# a result that passes stays the device's.
for name, args in (CASES[1], CASES[6]):
    outlier, plain = images["small"]
    kept, want = (os.path.join(work, n) for n in ("kept.pfm", "want.pfm"))
    rc, out, r = run(bad, plain, ["--keep-reference", "--output", kept]
                     + args, os.path.join(work, "kept.json"))
    v = r and r.get("validation")
    p = subprocess.run([bench, "--device", "reference", "--input", plain,
                        "--output", want] + args, capture_output=True)
    same = (p.returncode == 0 and os.path.exists(kept)
            and open(kept, "rb").read() == open(want, "rb").read())
    ok(rc == 2 and same and v and v.get("result") == "reference"
       and "reference's result was kept" in (r.get("fallback") or ""),
       "%s: --keep-reference writes the reference's result after a failed "
       "validation" % name, out)
    rc, out, r = run(good, plain, ["--keep-reference"] + args,
                     os.path.join(work, "kept-good.json"))
    v = r and r.get("validation")
    ok(rc == 0 and v and v.get("result") == "device"
       and r.get("fallback") is None,
       "%s: ... and keeps the device's result when it passes" % name, out)

taplib.done()
