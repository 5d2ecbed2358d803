#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""filter-compare.py: the filter and tonemap families on a CPU OpenCL
device against GEGL's operation (what GIMP runs) and OpenCV's CPU
equivalent, side by side in one run on the same machine and image.

usage: tools/filter-compare.py CLFX_BENCH [DEVICE] [SIZE] [REPEAT] [CASE...]
  DEVICE  clfx-bench's device request (default: pocl)
  SIZE    the square's side (default: 4096)
  REPEAT  runs per side and case; medians are compared (default: 3)
  CASE    only the cases whose name contains one of these words

Each case: an RGBA float image in linear light (random values, alpha 1;
clfx-bench's own synthetic image with --opaque).  clfx: the engine's wall
time with the image in host memory and the result back in host memory
(clfx-bench's "total (wall)" median: uploads, kernels, downloads).  GEGL: gegl_node_process of buffer-source -> op ->
write-buffer on a GeglBuffer in the op's own working format (so no babl
conversion is timed; the same pixels without alpha where that format has
none), with GEGL's default threads.  OpenCV: the call on a numpy array
(RGBA where OpenCV takes 4 channels, RGB for bilateralFilter, which takes
1 or 3), with its default threads.  Ratios above 1 mean clfx is slower.
Under each case: the system time and minor page faults of a GEGL and an
OpenCV call (medians), which tell where a peer's time is its memory's
first touch rather than its arithmetic; run the script under
GLIBC_TUNABLES=glibc.malloc.hugetlb=1 to give every side's large
allocations huge pages.
Needs python3-gi with gir1.2-gegl-0.4 and python3-opencv (the ci/env root
has both)."""
import os
import re
import resource
import statistics
import subprocess
import sys
import time

import cv2
import gi
import numpy as np

gi.require_version("Gegl", "0.4")
from gi.repository import Gegl  # noqa: E402


# What the peers' calls cost in the kernel, by name: (system ms, minor
# page faults) a call, medians.  On a virtual machine whose page faults are
# slow, memory a peer allocates afresh on every call (OpenCV's
# temporaries are new mmap'ed blocks) can take more time than its
# arithmetic: these say when it does.
KERNEL_SIDE = {}


def timed(fn, repeat, name=None):
    fn()  # warm-up
    times, sys_ms, faults = [], [], []
    for _ in range(repeat):
        r0 = resource.getrusage(resource.RUSAGE_SELF)
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1e3)
        r1 = resource.getrusage(resource.RUSAGE_SELF)
        sys_ms.append((r1.ru_stime - r0.ru_stime) * 1e3)
        faults.append(r1.ru_minflt - r0.ru_minflt)
    if name:
        KERNEL_SIDE[name] = (statistics.median(sys_ms),
                             statistics.median(faults))
    return statistics.median(times)


def clfx_ms(bench, device, side, args, repeat):
    cmd = [bench, "--device", device, "--repeat", str(repeat), "--warmup",
           "1", "--no-roofline", "--transfer", "linear", "--straight-alpha",
           # alpha 1, as GEGL's and OpenCV's images here (the median
           # orders straight colour weighted by alpha, in a slower form
           # where a window's alpha varies).
           "--opaque",
           "--synthetic", "%dx%d:float" % (side, side)]
    # A case names its family first where it is not the filter family.
    cmd += args if args[0] == "tonemap" else ["filter"] + args
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        return None, (run.stderr or run.stdout).strip().splitlines()[-1:]
    m = re.search(r"total \(wall\)\s+([0-9.]+)", run.stdout)
    return float(m.group(1)), None


def gegl_ms(side, data, op, props, fmt, repeat):
    buf = Gegl.Buffer.new(fmt, 0, 0, side, side)
    buf.set(Gegl.Rectangle.new(0, 0, side, side), fmt, data.tobytes())
    out = Gegl.Buffer.new(fmt, 0, 0, side, side)
    g = Gegl.Node()
    src = g.create_child("gegl:buffer-source")
    src.set_property("buffer", buf)
    node = g.create_child(op)
    for k, v in props.items():
        node.set_property(k, v)
    write = g.create_child("gegl:write-buffer")
    write.set_property("buffer", out)
    src.link(node)
    node.link(write)

    def run():
        # A property set anew makes GEGL recompute rather than reuse its
        # cache.
        node.set_property(next(iter(props)), props[next(iter(props))])
        write.process()
    return timed(run, repeat, "GEGL")


# name, clfx-bench options, GEGL op, its properties, its working format,
# OpenCV call (or None).
def cases(rgba, rgb):
    k5 = np.array([[1, 0, 0, 0, 0], [0, 2, 0, 0, 0], [0, 0, 1, 0, 0],
                   [0, 0, 0, -2, 0], [0, 0, 0, 0, -1]], np.float32)
    props5 = {"abcde"[c] + str(r + 1): float(k5[r][c])
              for r in range(5) for c in range(5)}
    return [
        ("gaussian 3 (IIR)",
         ["--filter", "gaussian", "--std-dev-x", "3", "--std-dev-y", "3"],
         "gegl:gaussian-blur", {"std-dev-x": 3.0, "std-dev-y": 3.0},
         "RaGaBaA float",
         lambda: cv2.GaussianBlur(rgba, (0, 0), 3.0,
                                  borderType=cv2.BORDER_REPLICATE)),
        ("gaussian 3 fir",
         ["--filter", "gaussian", "--std-dev-x", "3", "--std-dev-y", "3",
          "--method", "fir"],
         "gegl:gaussian-blur", {"std-dev-x": 3.0, "std-dev-y": 3.0,
                                "filter": "fir"},
         "RaGaBaA float",
         lambda: cv2.GaussianBlur(rgba, (21, 21), 3.0,
                                  borderType=cv2.BORDER_REPLICATE)),
        ("gaussian 50 (IIR)",
         ["--filter", "gaussian", "--std-dev-x", "50", "--std-dev-y", "50"],
         "gegl:gaussian-blur", {"std-dev-x": 50.0, "std-dev-y": 50.0},
         "RaGaBaA float", None),
        ("box 10", ["--filter", "box", "--radius", "10"],
         "gegl:box-blur", {"radius": 10}, "RaGaBaA float",
         lambda: cv2.boxFilter(rgba, -1, (21, 21),
                               borderType=cv2.BORDER_REPLICATE)),
        ("unsharp 3", ["--filter", "unsharp", "--std-dev", "3"],
         "gegl:unsharp-mask", {"std-dev": 3.0, "scale": 0.5},
         "RGBA float", None),
        ("median 5x5 square",
         ["--filter", "median", "--radius", "2", "--neighborhood", "square"],
         "gegl:median-blur", {"radius": 2, "neighborhood": "square",
                              "high-precision": True},
         "RGBA float", lambda: cv2.medianBlur(rgba, 5)),
        ("median 8 circle",
         ["--filter", "median", "--radius", "8", "--neighborhood", "circle"],
         "gegl:median-blur", {"radius": 8, "neighborhood": "circle",
                              "high-precision": True},
         "RGBA float", None),
        ("bilateral 4",
         ["--filter", "bilateral", "--blur-radius", "4",
          "--edge-preservation", "8"],
         "gegl:bilateral-filter", {"blur-radius": 4.0,
                                   "edge-preservation": 8.0},
         "RGBA float",
         lambda: cv2.bilateralFilter(rgb, 9, 0.25, 2.0,
                                     borderType=cv2.BORDER_REPLICATE)),
        ("sobel", ["--filter", "sobel"], "gegl:edge-sobel", {"horizontal":
                                                             True},
         "RGBA float",
         lambda: (cv2.Sobel(rgba, -1, 1, 0, borderType=cv2.BORDER_REPLICATE),
                  cv2.Sobel(rgba, -1, 0, 1,
                            borderType=cv2.BORDER_REPLICATE))),
        ("convolve 5x5",
         ["--filter", "convolve", "--matrix",
          " ".join(str(int(v)) for v in k5.flatten())],
         "gegl:convolution-matrix", dict(props5, normalize=True),
         "RGBA float",
         lambda: cv2.filter2D(rgba, -1, k5,
                              borderType=cv2.BORDER_REPLICATE)),
        # The motion blurs: GEGL's edge handling (transparent outside) is
        # clfx's clamp.
        ("motion-blur-linear 10",
         ["--filter", "motion-blur-linear", "--addressing", "clamp"],
         "gegl:motion-blur-linear", {"length": 10.0}, "RaGaBaA float",
         None),
        ("motion-blur-linear 30, 45",
         ["--filter", "motion-blur-linear", "--length", "30", "--angle",
          "45", "--addressing", "clamp"],
         "gegl:motion-blur-linear", {"length": 30.0, "angle": 45.0},
         "RaGaBaA float", None),
        ("motion-blur-circular 5",
         ["--filter", "motion-blur-circular", "--addressing", "clamp"],
         "gegl:motion-blur-circular", {"angle": 5.0}, "RaGaBaA float", None),
        ("motion-blur-zoom 0.1",
         ["--filter", "motion-blur-zoom", "--addressing", "clamp"],
         "gegl:motion-blur-zoom", {"factor": 0.1}, "RaGaBaA float", None),
        # The iterative filters, at their defaults, on GEGL's perceptual
        # float (no conversion on its side); GEGL's edge is clfx's clamp.
        ("noise-reduction 4",
         ["--filter", "noise-reduction", "--addressing", "clamp"],
         "gegl:noise-reduction", {"iterations": 4}, "R~G~B~A float", None),
        ("mean-curvature-blur 20", ["--filter", "mean-curvature-blur"],
         "gegl:mean-curvature-blur", {"iterations": 20}, "R'G'B'A float",
         None),
        # Graphs of gaussian-blur and point operations: the input in the
        # format GEGL's first blur takes (high-pass's over converts it too).
        ("highpass 4", ["--filter", "highpass"], "gegl:high-pass",
         {"std-dev": 4.0, "contrast": 1.0}, "RGBA float", None),
        ("highpass 0.7 (FIR)",
         ["--filter", "highpass", "--highpass-std-dev", "0.7"],
         "gegl:high-pass", {"std-dev": 0.7, "contrast": 1.0}, "RGBA float",
         None),
        ("dog 1 2", ["--filter", "dog"], "gegl:difference-of-gaussians",
         {"radius1": 1.0, "radius2": 2.0}, "RaGaBaA float", None),
        # GEGL's selective gaussian works on sRGB-encoded straight colour
        # (its own format here: no conversion timed); clfx takes the linear
        # image, encodes it as it loads it and decodes the result.  GEGL's
        # edge (abyss clamp) is clfx's clamp-to-edge, the default.
        ("gaussian-blur-selective 5",
         ["--filter", "gaussian-blur-selective"],
         "gegl:gaussian-blur-selective", {"blur-radius": 5.0,
                                          "max-delta": 0.2},
         "R'G'B'A float", None),
        # GEGL's symmetric nearest neighbour reads outside the image as
        # transparent black: clfx's clamp.
        ("snn-mean 8",
         ["--filter", "snn-mean", "--addressing", "clamp"],
         "gegl:snn-mean", {"radius": 8, "pairs": 2}, "RGBA float", None),
        # Tone mappers: OpenCV's operators take RGB and normalise; GEGL has
        # reinhard05 and fattal02 (which works in RGB float), OpenCV no
        # Fattal.
        ("tonemap reinhard05", ["tonemap", "--operator", "reinhard05"],
         "gegl:reinhard05", {"brightness": 0.0}, "RGBA float",
         lambda: cv2.createTonemapReinhard(1.0, 0.0, 1.0, 0.0).process(rgb)),
        ("tonemap fattal02", ["tonemap", "--operator", "fattal02"],
         "gegl:fattal02", {"alpha": 1.0}, "RGB float", None),
        ("tonemap drago03", ["tonemap", "--operator", "drago03"], None, None,
         None, lambda: cv2.createTonemapDrago(1.0, 1.0, 0.85).process(rgb)),
        ("tonemap reinhard02", ["tonemap", "--operator", "reinhard02"], None,
         None, None, None),
        ("tonemap aces", ["tonemap", "--operator", "aces"], None, None, None,
         None),
    ]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    bench = sys.argv[1]
    device = sys.argv[2] if len(sys.argv) > 2 else "pocl"
    side = int(sys.argv[3]) if len(sys.argv) > 3 else 4096
    repeat = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    only = sys.argv[5:]
    # GIMP's license: GEGL loads its GPL3 operations (the circular and
    # zoom motion blurs) only for an application that says so.
    Gegl.config().set_property("application-license", "GPL3")
    Gegl.init(None)
    rng = np.random.default_rng(1)
    rgba = rng.random((side, side, 4), dtype=np.float32)
    rgba[:, :, 3] = 1.0
    rgb = np.ascontiguousarray(rgba[:, :, :3])
    print("clfx-bench --device %s vs GEGL %s (%d threads) vs OpenCV %s (%d "
          "threads), %dx%d RGBA float, medians of %d, ms"
          % (device, ".".join(str(v) for v in Gegl.get_version()),
             Gegl.config().props.threads, cv2.__version__,
             cv2.getNumThreads(), side, side, repeat))
    # glibc.malloc.hugetlb=1 gives every side's large allocations
    # transparent huge pages (madvise): far fewer page faults.
    print("GLIBC_TUNABLES=%s" % os.environ.get("GLIBC_TUNABLES", ""))
    print("%-20s %10s %10s %10s %12s %12s" % ("case", "clfx", "GEGL",
                                              "OpenCV", "clfx/GEGL",
                                              "clfx/OpenCV"))
    for name, args, op, props, fmt, cv in cases(rgba, rgb):
        if only and not any(w in name for w in only):
            continue
        KERNEL_SIDE.clear()
        c, why = clfx_ms(bench, device, side, args, repeat)
        # The image in the op's format: RGB where it has no alpha.
        data = rgba if op and "A" in fmt.split()[0] else rgb
        g = gegl_ms(side, data, op, props, fmt, repeat) if op else None
        o = timed(cv, repeat, "OpenCV") if cv else None
        print("%-20s %10s %10s %10s %12s %12s"
              % (name, "%.1f" % c if c else "failed",
                 "%.1f" % g if g else "-", "%.1f" % o if o else "-",
                 "%.2fx" % (c / g) if c and g else "-",
                 "%.2fx" % (c / o) if c and o else "-"))
        if KERNEL_SIDE:
            print("  in the kernel, a call: %s"
                  % "; ".join("%s %.0f ms, %d page faults" % (k, v[0], v[1])
                              for k, v in KERNEL_SIDE.items()))
        if why:
            print("  clfx-bench: %s" % " ".join(why))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
