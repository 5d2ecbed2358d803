#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""test-limits.py: every filter variant at its largest parameters on tiny
images finishes quickly and agrees with the CPU reference.

    test-limits.py CLFX_BENCH WORK_DIR

A window far wider than the image (bilateral's blur-radius 1000 on 40x30,
a gaussian of sigma 1500) must cost what the image holds, not what the
parameter asks: each case runs clfx-bench with --validate (the device,
then the reference) under a time limit of a few seconds, where summing
every tap took minutes.  Each case must pass validation with no NaN or
infinity in the result.  The sizes: 40x30 (the window wider than both
sides), 1x1, 5x70 in 8-bit sRGB, and a strip that some windows outgrow
along one side only.  Every edge handling the variant takes.  Device: $CLFX_TEST_DEVICE (default auto);
without an OpenCL device the test is skipped, or fails when
CLFX_REQUIRE_DEVICE=1.  TAP output."""
import json
import os
import subprocess
import sys

# tests/taplib.py
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
import taplib  # noqa: E402

bench, work = sys.argv[1], sys.argv[2]
device = os.environ.get("CLFX_TEST_DEVICE", "auto")
# The limit of one case (a run takes well under a second once its kernels
# are built; the first of a kind builds them): not hanging is the point.
LIMIT_S = 20

ALL = ["clamp-to-edge", "clamp", "repeat", "mirrored-repeat", "none"]
NO_NONE = ALL[:4]
IIR_EDGES = ["clamp-to-edge", "clamp"]
MATRIX_7X7 = " ".join(str(i % 5 - 2) for i in range(49))

# (name, options, edge handlings it takes)
CASES = [
    ("gaussian fir 1500", ["--filter", "gaussian", "--method", "fir",
                           "--std-dev-x", "1500", "--std-dev-y", "1500"],
     ALL),
    ("gaussian fir 0.5 x 1500", ["--filter", "gaussian", "--method", "fir",
                                 "--std-dev-x", "0.5", "--std-dev-y",
                                 "1500"], ALL),
    ("gaussian iir 1500", ["--filter", "gaussian", "--method", "iir",
                           "--std-dev-x", "1500", "--std-dev-y", "1500"],
     IIR_EDGES),
    ("box 1000", ["--filter", "box", "--radius", "1000"], ALL),
    ("box 1000, linear sampler", ["--filter", "box", "--radius", "1000",
                                  "--sampler-filter", "linear"], ALL),
    ("unsharp 1500, amount 300, threshold 1",
     ["--filter", "unsharp", "--std-dev", "1500", "--amount", "300",
      "--threshold", "1"], IIR_EDGES),
    ("unsharp 0.99 (FIR), amount 300",
     ["--filter", "unsharp", "--std-dev", "0.99", "--amount", "300"],
     NO_NONE),
    ("median square 100, percentile 100",
     ["--filter", "median", "--radius", "100", "--neighborhood", "square",
      "--percentile", "100"], NO_NONE),
    ("median circle 100", ["--filter", "median", "--radius", "100"],
     NO_NONE),
    ("median diamond 100, percentile 0",
     ["--filter", "median", "--radius", "100", "--neighborhood", "diamond",
      "--percentile", "0"], NO_NONE),
    ("bilateral 1000, 100", ["--filter", "bilateral", "--blur-radius",
                             "1000", "--edge-preservation", "100"], ALL),
    ("bilateral 1000, 0", ["--filter", "bilateral", "--blur-radius", "1000",
                           "--edge-preservation", "0"], ALL),
    ("sobel", ["--filter", "sobel"], NO_NONE),
    ("convolve 7x7", ["--filter", "convolve", "--matrix", MATRIX_7X7,
                      "--normalize", "false", "--divisor", "0.001",
                      "--offset", "-1"], NO_NONE),
    ("highpass 10000, contrast 5",
     ["--filter", "highpass", "--highpass-std-dev", "10000", "--contrast",
      "5"], IIR_EDGES),
    ("highpass 0.99 (FIR), contrast 5",
     ["--filter", "highpass", "--highpass-std-dev", "0.99", "--contrast",
      "5"], NO_NONE),
    ("dog 1000, 0.99", ["--filter", "dog", "--radius1", "1000", "--radius2",
                        "0.99"], IIR_EDGES),
    ("dog 0.99, 0.5 (FIR)", ["--filter", "dog", "--radius1", "0.99",
                             "--radius2", "0.5"], NO_NONE),
    ("noise-reduction 32", ["--filter", "noise-reduction",
                            "--noise-reduction-iterations", "32"], NO_NONE),
    # The iterations' halo is read and iterated on whatever the image
    # (GEGL's definition): the work grows as the cube of the count (500
    # on 40x30: some 4 s, device and reference), so GEGL's largest with
    # GEGL's edge handling only, the dialog's largest, 60, with the rest.
    ("mean-curvature-blur 500", ["--filter", "mean-curvature-blur",
                                 "--mean-curvature-iterations", "500"],
     ["clamp-to-edge"]),
    ("mean-curvature-blur 60", ["--filter", "mean-curvature-blur",
                                "--mean-curvature-iterations", "60"],
     NO_NONE[1:]),
]

# Windows wider than one side of the image only (the other side's taps
# as they are), on a strip.
STRIP_CASES = [
    ("bilateral 20", ["--filter", "bilateral", "--blur-radius", "20"], ALL),
    ("box 30", ["--filter", "box", "--radius", "30"], ALL),
    ("gaussian fir 0.5 x 8", ["--filter", "gaussian", "--method", "fir",
                              "--std-dev-x", "0.5", "--std-dev-y", "8"],
     ALL),
]

# (image, cases, which of them): the window wider than both sides (8-bit
# sRGB too), a single pixel, and a strip.
SIZES = [
    ("40x30:float", CASES, None),
    ("1x1:float", CASES, None),
    ("5x70:u8", CASES, ["gaussian fir 1500", "bilateral 1000, 0",
                        "box 1000"]),
    ("45x10:float", STRIP_CASES, None),
]


def run(size, name, opts, edge):
    report = os.path.join(work, "report.json")
    if os.path.exists(report):
        os.remove(report)
    cmd = [bench, "--device", device, "--validate", "--repeat", "1",
           "--warmup", "0", "--synthetic", size, "--straight-alpha",
           "--report", report, "filter"] + opts + ["--addressing", edge]
    what = "%s, %s, %s" % (name, edge, size)
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=LIMIT_S)
    except subprocess.TimeoutExpired:
        return taplib.ok(False, what + ": finished within %d s" % LIMIT_S)
    out = p.stdout.decode("utf-8", "replace")
    try:
        r = json.load(open(report))
        v = r["validation"]
    except (OSError, ValueError, KeyError, TypeError):
        r = v = None
    good = (p.returncode == 0 and v is not None and r.get("fallback") is None
            and v["passed"] and v["nan"] == 0 and v["inf"] == 0)
    return taplib.ok(good, what + ": within %d s, on the device, validated, "
                     "finite (%s)" % (LIMIT_S, "max abs %g" % v["max_abs"]
                                      if v else "no report"),
                     out, last_lines=8)


def main():
    os.makedirs(work, exist_ok=True)
    report = os.path.join(work, "probe.json")
    probe = subprocess.run([bench, "--device", device, "--repeat", "1",
                            "--warmup", "0", "--synthetic", "4x4",
                            "--report", report, "filter", "--filter",
                            "sobel"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=300)
    try:
        fallback = json.load(open(report)).get("fallback")
    except (OSError, ValueError):
        fallback = "no report"
    if probe.returncode != 0 or fallback is not None:
        if os.environ.get("CLFX_REQUIRE_DEVICE") == "1":
            taplib.ok(False, "an OpenCL device '%s' runs "
                      "(CLFX_REQUIRE_DEVICE=1)" % device,
                      probe.stdout.decode("utf-8", "replace"), last_lines=8)
            taplib.done()
        print("1..0 # SKIP no OpenCL device '%s'" % device)
        sys.exit(0)
    for size, cases, only in SIZES:
        for name, opts, edges in cases:
            if only is not None and name not in only:
                continue
            for edge in edges:
                run(size, name, opts, edge)
    taplib.done()


main()
