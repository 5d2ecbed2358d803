#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""gegl-levels-bench.py: what the module's tone mappers cost at GEGL's
mipmap levels (docs/notebook/performance-2026.md, "The module at GEGL's
mipmap levels").

    gegl-levels-bench.py MODULE_DIR FORMAT SIZE OPERATION...

FORMAT is a babl format ("RGBA float", "R'G'B'A u8"); the image is a
SIZE x SIZE ramp of 2^-6 to 2^6 (mapped x / (1 + x) for 8 bits).  Each
operation is rendered with gegl_node_blit (mipmap rendering on, the
node's cache off, so that every blit runs the operation): at full size,
then at levels 2 and 1 with the full-size statistics it keeps, and after
a change of exposure, which makes it gather them again from the
full-size input; first, the input read at full size alone.  Run in
ci/env; wall milliseconds per blit."""
import os
import sys
import time

import gi
import numpy as np

gi.require_version("Gegl", "0.4")
from gi.repository import Gegl  # noqa: E402

# The tests' GEGL helpers (gegl_node_blit through ctypes).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "tests", "gegl"))
import gegltap  # noqa: E402


def blitter():
    """The pixels of node at level, a square of side size >> level."""
    node_blit = gegltap.node_blit()

    def blit(node, level, size, fmt, bpp):
        side = size >> level
        node_blit(node, 1.0 / (1 << level), (0, 0, side, side), fmt, bpp)
    return blit


module_dir, fmt, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
Gegl.init(None)
Gegl.config().set_property("mipmap-rendering", True)
Gegl.load_module_directory(module_dir)
blit = blitter()
bpp = 16 if "float" in fmt else 4
y, x = np.mgrid[0:size, 0:size].astype(np.float32) / size
ramp = np.exp2(12.0 * x * y - 6.0)
if bpp == 4:
    ramp = ramp / (1.0 + ramp)
pixels = np.dstack([ramp, 0.8 * ramp, 0.6 * ramp, np.ones_like(ramp)])
if bpp == 4:
    pixels = pixels * 255.0
buf = Gegl.Buffer.new(fmt, 0, 0, size, size)
buf.set(Gegl.Rectangle.new(0, 0, size, size), fmt,
        pixels.astype(np.float32 if bpp == 16 else np.uint8).tobytes())
del pixels, ramp, x, y

# What reading the input at full size costs alone: the source blitted at
# scale 1 (into a zero-filled buffer of this process).
reader = Gegl.Node().create_child("gegl:buffer-source")
reader.set_property("buffer", buf)
for _ in range(2):
    t0 = time.monotonic()
    blit(reader, 0, size, fmt, bpp)
    print("%-16s %-11s level 0  %-46s %7.0f ms"
          % ("(the input)", fmt, "read at full size",
             (time.monotonic() - t0) * 1000), flush=True)

for op in sys.argv[4:]:
    g = Gegl.Node()
    src = g.create_child("gegl:buffer-source")
    src.set_property("buffer", buf)
    node = g.create_child(op)
    node.set_property("cache-policy", Gegl.CachePolicy.NEVER)
    src.link(node)

    def timed(level, what):
        t0 = time.monotonic()
        blit(node, level, size, fmt, bpp)
        print("%-16s %-11s level %d  %-46s %7.0f ms"
              % (op, fmt, level, what, (time.monotonic() - t0) * 1000),
              flush=True)

    timed(0, "full size (first: kernel builds)")
    timed(0, "full size")
    timed(2, "statistics kept (GEGL makes the input's level)")
    timed(2, "statistics kept")
    node.set_property("exposure", 0.5)
    timed(2, "exposure changed: gathered at full size")
    timed(2, "statistics kept")
    timed(1, "statistics kept (GEGL makes the input's level)")
    timed(1, "statistics kept")
    node.set_property("exposure", 0.25)
    timed(1, "exposure changed: gathered at full size")
