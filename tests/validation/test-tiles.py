#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""test-tiles.py: the local tone mappers in tiles give the one-piece
result, bit for bit, on photographs (docs/TONEMAP.md, "Past the device's
size").

    test-tiles.py CLFX_BENCH WORK_DIR IMAGE...

For each operator that tiles and each image, clfx-bench runs once in one
piece and once with tiles forced (CLFX_DEV=tile=200x100, grown to the
statistics' blocks: 6 tiles on a 512x384 image), both with --output;
the two files must be identical, and the second run must have tiled.
Device: $CLFX_TEST_DEVICE (default auto).  TAP output."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
import taplib  # noqa: E402

bench, work = sys.argv[1], sys.argv[2]
images = [a for a in sys.argv[3:] if os.path.exists(a)]
device = os.environ.get("CLFX_TEST_DEVICE", "auto")
OPERATORS = ["durand02", "fattal02", "mantiuk06", "local-laplacian"]
os.makedirs(work, exist_ok=True)


def run(image, op, out, tiles):
    env = dict(os.environ)
    if tiles:
        env["CLFX_DEV"] = ",".join(
            v for v in (env.get("CLFX_DEV"), "tile=200x100") if v)
    p = subprocess.run([bench, "--device", device, "--repeat", "1",
                        "--warmup", "0", "--input", image, "--output", out,
                        "tonemap", "--operator", op],
                       capture_output=True, text=True, env=env)
    return p.returncode, p.stdout + p.stderr


for image in images:
    name = os.path.splitext(os.path.basename(image))[0]
    for op in OPERATORS:
        a = os.path.join(work, "%s-%s-whole.pfm" % (name, op))
        b = os.path.join(work, "%s-%s-tiles.pfm" % (name, op))
        ra, oa = run(image, op, a, False)
        rb, ob = run(image, op, b, True)
        pieces = [line for line in ob.splitlines() if "tiles on" in line]
        same = (ra == 0 and rb == 0 and os.path.exists(a)
                and os.path.exists(b)
                and open(a, "rb").read() == open(b, "rb").read())
        taplib.ok(same and bool(pieces),
                  "%s on %s: in tiles (%s) the one-piece result, bit for bit"
                  % (op, name, pieces[0].strip() if pieces else "no tiles"),
                  oa + ob, last_lines=20)
taplib.ok(len(images) > 0, "%d images found" % len(images))
taplib.done()
