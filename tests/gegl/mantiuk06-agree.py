#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""mantiuk06-agree.py: engine/ops/mantiuk06-ref.c (through the
mantiuk06-ref tool) against gegl:mantiuk06 itself (GEGL's Python
bindings), on crops of an HDR image; prints the differences, checks
nothing (docs/TONEMAP.md, "mantiuk06", holds what it measured).

    ci/env python3 tests/gegl/mantiuk06-agree.py BUILD/tools/mantiuk06-ref \\
        WORK_DIR [IMAGE.pfm]

GEGL reads "RGBA float" with alpha 1 from the PFM's RGB; both results
are compared on RGB."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402

import gegltap  # noqa: E402
from gegltap import gegl_op, read_pfm, write_pfm  # noqa: E402

gegltap.gegl()
tool, work = sys.argv[1], sys.argv[2]
image = sys.argv[3] if len(sys.argv) > 3 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "data",
    "sample-hdr.pfm")
os.makedirs(work, exist_ok=True)
YROW = np.array([0.2224879400, 0.7169038389, 0.0606082572])


def gegl_mantiuk(rgb, contrast, saturation):
    return gegl_op("gegl:mantiuk06", rgb,
                   {"contrast": contrast, "saturation": saturation})


def ours(rgb, contrast, saturation, tag):
    src = os.path.join(work, tag + "-in.pfm")
    dst = os.path.join(work, tag + "-out.pfm")
    write_pfm(src, rgb)
    run = subprocess.run([tool, src, dst, repr(contrast), repr(saturation)],
                         check=True, capture_output=True, text=True)
    return read_pfm(dst), run.stdout.strip()


full = np.maximum(read_pfm(image), 0.0)
H, W, _ = full.shape
print("# %s (%dx%d), crops at the centre, then the whole" % (image, W, H))
print("# crop      contrast sat  | max|d|    rms       p99|d|   "
      "max|dlog10Y| | ours: iterations residual   GEGL max")
for w, h in ((128, 96), (256, 192), (131, 97), (W, H)):
    x0, y0 = (W - w) // 2, (H - h) // 2
    rgb = np.ascontiguousarray(full[y0:y0 + h, x0:x0 + w])
    for contrast, sat in ((0.1, 0.8), (0.3, 1.0), (0.05, 0.5)):
        ref = gegl_mantiuk(rgb, contrast, sat).astype(np.float64)
        mine, info = ours(rgb, contrast, sat, "%dx%d" % (w, h))
        mine = mine.astype(np.float64)
        d = np.abs(mine - ref)
        ly = np.log10(np.maximum(ref @ YROW, 1e-30))
        lm = np.log10(np.maximum(mine @ YROW, 1e-30))
        fields = dict(kv.split(" ", 1) for kv in
                      (" ".join(p) for p in zip(*[iter(info.split())] * 2)))
        print("%4dx%-4d  %5.2f  %4.2f  | %.3e  %.3e  %.3e  %.3e    | "
              "%4s  %9s   %.3f" % (
                  w, h, contrast, sat, d.max(), np.sqrt((d * d).mean()),
                  np.percentile(d, 99), np.abs(lm - ly).max(),
                  fields["iterations"], fields["residual"], ref.max()))
        sys.stdout.flush()
