#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""opencv-compare.py: clfx's engine against OpenCV's cv2.resize on the CPU,
side by side in one run, on the same machine and image size.

usage: tools/opencv-compare.py CLFX_BENCH [DEVICE] [SIZE] [REPEAT]
  DEVICE  clfx-bench's device request (default: pocl)
  SIZE    the source square's side (default: 4096)
  REPEAT  runs per case; medians are compared (default: 5)

Cases: RGBA float32, linear and cubic, to half and to double the size.
clfx's number is the engine's wall time with the image in host memory and
the result back in host memory (clfx-bench's "total (wall)" median, which
includes uploads, kernels and downloads); OpenCV's is the median wall time
of cv2.resize on a numpy array of the same size, with its default threads.
Both sides read a linear-light float image: clfx-bench --transfer linear.
"""
import re
import statistics
import subprocess
import sys
import time

import cv2
import numpy as np


def opencv_ms(src, size, interp, repeat):
    times = []
    cv2.resize(src, size, interpolation=interp)  # warm-up
    for _ in range(repeat):
        t0 = time.perf_counter()
        cv2.resize(src, size, interpolation=interp)
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def clfx_ms(bench, device, side, out, filt, repeat):
    cmd = [bench, "--device", device, "--repeat", str(repeat), "--warmup",
           "1", "--no-roofline", "--transfer", "linear",
           "--synthetic", "%dx%d:float" % (side, side), "resize",
           "--width", str(out), "--height", str(out), "--filter", filt]
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit("clfx-bench failed: %s\n%s" % (" ".join(cmd), run.stderr))
    m = re.search(r"total \(wall\)\s+([0-9.]+)", run.stdout)
    mode = re.search(r"^  (bands|tiles): .*$", run.stdout, re.M)
    return float(m.group(1)), mode.group(0).strip() if mode else "?"


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    bench = sys.argv[1]
    device = sys.argv[2] if len(sys.argv) > 2 else "pocl"
    side = int(sys.argv[3]) if len(sys.argv) > 3 else 4096
    repeat = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    rng = np.random.default_rng(1)
    src = rng.random((side, side, 4), dtype=np.float32)
    print("OpenCV %s (%d threads) vs clfx-bench --device %s, %dx%d RGBA "
          "float, medians of %d" % (cv2.__version__, cv2.getNumThreads(),
                                    device, side, side, repeat))
    print("%-22s %12s %12s %8s  %s" % ("case", "OpenCV ms", "clfx ms",
                                       "ratio", "clfx ran as"))
    worst = 0.0
    for filt, interp in (("linear", cv2.INTER_LINEAR),
                         ("cubic", cv2.INTER_CUBIC)):
        for out in (side // 2, side * 2):
            cv = opencv_ms(src, (out, out), interp, repeat)
            cl, mode = clfx_ms(bench, device, side, out, filt, repeat)
            worst = max(worst, cl / cv)
            print("%-22s %12.1f %12.1f %7.2fx  %s"
                  % ("%s %d->%d" % (filt, side, out), cv, cl, cl / cv, mode))
    print("worst ratio: %.2fx" % worst)


if __name__ == "__main__":
    main()
