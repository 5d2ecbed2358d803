#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tonemap-vs-gegl.py: a tone mapper of clfx on an OpenCL device against
GEGL's operation of the same name, taking turns on one image in one run.

usage: tools/tonemap-vs-gegl.py CLFX_BENCH [OPERATOR] [SIZE] [ROUNDS]
                                [DEVICE] [WORK_DIR]
  OPERATOR  mantiuk06 (default), fattal02 or reinhard05, default
            parameters on both sides
  SIZE      the square's side (default 4096)
  ROUNDS    turns of each side (default 3); medians are compared
  DEVICE    clfx-bench's device request (default: auto, the default device)
  WORK_DIR  where the image is written (default: build/tonemap-vs-gegl)

The image: data/sample-hdr.pfm (512x384 HDR, linear float RGB) mirrored
and tiled to SIZE x SIZE, alpha 1, the same floats on both sides.
clfx: clfx-bench --input IMAGE --repeat 1 --warmup 1, its engine wall
time ("total (wall)": the image in host memory, the result back in host
memory, the kernels' builds cached and not timed).  GEGL:
gegl_node_process of buffer-source -> gegl:OPERATOR -> write-buffer on an
"RGBA float" GeglBuffer (the operation's own format, so no conversion is
timed), GEGL's default threads, one call warm before the turns, and each
turn a new graph so that nothing is cached.  Each round runs
clfx once, then GEGL once.  Prints every turn, the medians and GEGL's
median over clfx's (above 1: clfx is faster).
Needs python3-gi with gir1.2-gegl-0.4 and numpy (the ci/env root has
both)."""
import os
import platform
import re
import statistics
import subprocess
import sys
import time

import gi
import numpy as np

gi.require_version("Gegl", "0.4")
from gi.repository import Gegl  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "tests", "gegl"))
from gegltap import read_pfm, write_pfm  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "..", "data", "sample-hdr.pfm")

OPERATORS = ("mantiuk06", "fattal02", "reinhard05")


def image(side):
    """The sample mirrored (no seams) and tiled to side x side, RGB."""
    a = np.maximum(read_pfm(SAMPLE), 0.0)
    m = np.concatenate([a, a[:, ::-1]], 1)
    m = np.concatenate([m, m[::-1]], 0)
    reps = (side // m.shape[0] + 1, side // m.shape[1] + 1, 1)
    return np.ascontiguousarray(np.tile(m, reps)[:side, :side])


def clfx_ms(bench, device, path, op):
    cmd = [bench, "--device", device, "--repeat", "1", "--warmup", "1",
           "--no-roofline", "--input", path, "tonemap", "--operator", op]
    run = subprocess.run(cmd, capture_output=True, text=True)
    m = re.search(r"total \(wall\)\s+([0-9.]+)", run.stdout)
    if run.returncode != 0 or not m:
        sys.exit("clfx-bench failed: %s"
                 % (run.stderr or run.stdout).strip().splitlines()[-1:])
    dev = re.search(r"^device: (.*)$", run.stdout, re.M)
    return float(m.group(1)), dev.group(1) if dev else "?"


def gegl_runner(rgb, op):
    h, w, _ = rgb.shape
    rgba = np.ones((h, w, 4), np.float32)
    rgba[:, :, :3] = rgb
    fmt = "RGBA float"
    buf = Gegl.Buffer.new(fmt, 0, 0, w, h)
    buf.set(Gegl.Rectangle.new(0, 0, w, h), fmt, rgba.tobytes())
    out = Gegl.Buffer.new(fmt, 0, 0, w, h)

    def run():
        # A new graph each turn: nothing of the last turn's is cached.
        g = Gegl.Node()
        src = g.create_child("gegl:buffer-source")
        src.set_property("buffer", buf)
        node = g.create_child("gegl:" + op)
        write = g.create_child("gegl:write-buffer")
        write.set_property("buffer", out)
        src.link(node)
        node.link(write)
        t0 = time.perf_counter()
        write.process()
        return (time.perf_counter() - t0) * 1e3
    return run


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "?"


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    bench = sys.argv[1]
    op = sys.argv[2] if len(sys.argv) > 2 else "mantiuk06"
    side = int(sys.argv[3]) if len(sys.argv) > 3 else 4096
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    device = sys.argv[5] if len(sys.argv) > 5 else "auto"
    work = sys.argv[6] if len(sys.argv) > 6 else os.path.join(
        "build", "tonemap-vs-gegl")
    if op not in OPERATORS:
        sys.exit("operator: one of %s" % ", ".join(OPERATORS))
    os.makedirs(work, exist_ok=True)
    rgb = image(side)
    path = os.path.join(work, "image-%d.pfm" % side)
    write_pfm(path, rgb)
    Gegl.init(None)
    gegl = gegl_runner(rgb, op)
    print("%s, %dx%d RGBA float (data/sample-hdr.pfm tiled), default "
          "parameters, %d rounds" % (op, side, side, rounds))
    print("machine: %s, %d CPUs; GEGL %s (%d threads)"
          % (cpu_name(), os.cpu_count(),
             ".".join(str(v) for v in Gegl.get_version()),
             Gegl.config().props.threads))
    gegl()  # warm: GEGL's first call
    c_ms, g_ms = [], []
    for r in range(rounds):
        c, dev = clfx_ms(bench, device, path, op)
        c_ms.append(c)
        if r == 0:
            print("clfx device: %s" % dev)
        g_ms.append(gegl())
        print("round %d: clfx %.1f ms, GEGL %.1f ms" % (r + 1, c_ms[-1],
                                                        g_ms[-1]))
        sys.stdout.flush()
    c, g = statistics.median(c_ms), statistics.median(g_ms)
    print("medians: clfx %.1f ms, GEGL %.1f ms; GEGL / clfx %.2fx"
          % (c, g, g / c))


if __name__ == "__main__":
    main()
