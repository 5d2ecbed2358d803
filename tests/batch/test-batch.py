#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""test-batch.py: README's batch recipe over folders, tools/clfx-batch
(GNU parallel over the gegl command and clfx-bench), on two OpenCL
devices (meson runs it with POCL_DEVICES='cpu cpu').

    test-batch.py CLFX_BATCH CLFX_BENCH GEGL_MODULE_DIR GEGL_PLUGINS_DIR WORK_DIR

20 PNG files are tone-mapped by clfx:reinhard05 through gegl and resized
by clfx-bench, one job per device (parallel's job slot N gets device
N - 1, which its job log shows), each validated; every result is checked
against `clfx-bench --device reference` on the same file, within the
bound the device's validation states for it (the report's abs_tol +
rel_tol |v|) plus the PNG's rounding.  A rerun makes nothing; a file
that cannot be read fails alone, is listed at the end, and the run's
status says so."""
import json
import os
import re
import shutil
import subprocess
import sys

import cv2
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from taplib import ok, done  # noqa: E402

batch, bench, module_dir, plugins_dir, work = sys.argv[1:6]
env = dict(os.environ)
# clfx's module beside GEGL's own operations (GEGL_PATH alone would hide
# them, and gegl fails without gegl:nop).
env["GEGL_PATH"] = module_dir + ":" + plugins_dir
env["CLFX_BENCH"] = bench
N = 20
TONEMAP = ["clfx:reinhard05", "brightness=0.5"]
TONEMAP_BENCH = ["tonemap", "--operator", "reinhard05", "--brightness", "0.5"]
RESIZE = ["resize", "--width", "33", "--height", "25", "--filter", "lanczos3"]


def run(args, **kw):
    return subprocess.run(args, env=env, capture_output=True, text=True, **kw)


def read_pfm(path):
    with open(path, "rb") as f:
        kind = f.readline().strip()
        w, h = map(int, f.readline().split())
        scale = float(f.readline())
        c = 3 if kind == b"PF" else 1
        a = np.frombuffer(f.read(), dtype="<f4" if scale < 0 else ">f4")
    return a.reshape(h, w, c)[::-1].astype(np.float64)


def read_png(path):
    """RGB in 0..1 and the value of one code."""
    a = cv2.imread(path, cv2.IMREAD_UNCHANGED)
    top = float(np.iinfo(a.dtype).max)
    return a[:, :, 2::-1].astype(np.float64) / top, 1.0 / top


def bound(path, family_args):
    """The device's validation bound on this file (abs_tol, rel_tol)."""
    report = os.path.join(work, "bound.json")
    r = run([bench, "--device", "0", "--validate", "--report", report,
             "--input", path] + family_args)
    v = json.load(open(report))["validation"]
    return r.returncode, v["abs_tol"], v["rel_tol"]


def batch_run(src, dst, op, validate=True):
    args = ["sh", batch] + (["-v"] if validate else []) + [src, dst, "--"] + op
    return run(args, timeout=600)


shutil.rmtree(work, ignore_errors=True)
inputs = os.path.join(work, "in")
os.makedirs(inputs)
for i in range(N):
    # Sizes differ, and with them the synthetic images.
    w, h = 40 + 3 * i, 30 + 2 * i
    r = run([bench, "--synthetic", "%dx%d:u8" % (w, h), "--opaque",
             "--output", os.path.join(inputs, "img-%02d.png" % i), "copy"])
    if r.returncode:
        ok(False, "making input %d" % i, r.stderr)
names = sorted(os.listdir(inputs))
ok(len(names) == N, "%d PNG files to work on" % len(names))
devices = run([bench, "--list-devices"]).stdout
n_dev = len(re.findall(r"^\[\d+\]", devices, re.M))
ok(n_dev == 2, "two OpenCL devices (POCL_DEVICES='cpu cpu'): %d" % n_dev,
   devices)

# Tone mapping through gegl, one job per device.
tm = os.path.join(work, "tonemapped")
r = batch_run(inputs, tm, TONEMAP)
made = sorted(f for f in os.listdir(tm) if f.endswith(".png")) \
    if os.path.isdir(tm) else []
ok(r.returncode == 0 and len(made) == N
   and "%d made, 0 failed, 0 skipped" % N in r.stdout,
   "clfx-batch -v IN OUT -- clfx:reinhard05: %d results, status %d"
   % (len(made), r.returncode), r.stdout + r.stderr, 30)
log = open(os.path.join(tm, "clfx-batch-joblog.txt")).read() \
    if os.path.exists(os.path.join(tm, "clfx-batch-joblog.txt")) else ""
slots = sorted(set(re.findall(r" --one (\d+) ", log)))
ok(slots == ["1", "2"] and "%d job(s) at a time" % n_dev in r.stdout,
   "two jobs at a time, job slots %s (devices 0 and 1)" % slots, log)

def against_reference(results, family_args, ref_ext, read_ref):
    """Each result of `results` against `clfx-bench --device reference`
    on the same file, within the device's validation bound there plus
    half a code of the result's PNG and the reference's own rounding
    (read_ref gives it with the reference's values): (failures, the
    largest |d| / bound)."""
    worst, bad = 0.0, []
    for name in names:
        src = os.path.join(inputs, name)
        ref = os.path.join(work, "ref-%s-%s%s" % (os.path.basename(results),
                                                 name[:-4], ref_ext))
        rr = run([bench, "--device", "reference", "--input", src,
                  "--output", ref] + family_args)
        rc, abs_tol, rel_tol = bound(src, family_args)
        out = os.path.join(results, name)
        if rr.returncode or rc or not os.path.exists(out):
            bad.append("%s: reference %d, validation %d"
                       % (name, rr.returncode, rc))
            continue
        got, code = read_png(out)
        expect, ref_half_code = read_ref(ref)
        tol = abs_tol + rel_tol * np.abs(expect) + 0.5 * code \
            + ref_half_code + 1e-6
        d = np.abs(got - expect)
        if got.shape != expect.shape:
            bad.append("%s: %s against %s" % (name, got.shape, expect.shape))
            continue
        worst = max(worst, float((d / tol).max()))
        if (d > tol).any():
            bad.append("%s: %d values beyond the bound, max |d| %.3g"
                       % (name, int((d > tol).sum()), float(d.max())))
    return bad, worst


# The tone map's reference in PFM: its floats in the file's own encoding
# (sRGB), as the bound is stated for an 8-bit sRGB result.
bad, worst = against_reference(tm, TONEMAP_BENCH, ".pfm",
                               lambda path: (read_pfm(path), 0.0))
ok(not bad, "every gegl result within its bound of clfx-bench --device "
   "reference (largest |d| / bound %.3f)" % worst, "\n".join(bad))

# Resizing through clfx-bench.
rs = os.path.join(work, "resized")
r = batch_run(inputs, rs, RESIZE)
ok(r.returncode == 0 and "%d made, 0 failed" % N in r.stdout,
   "clfx-batch -v IN OUT -- resize ...: status %d" % r.returncode,
   r.stdout + r.stderr, 30)
# Both 8-bit: the reference's own rounding adds half a code.
bad, worst = against_reference(rs, RESIZE, ".png",
                               lambda path: (read_png(path)[0],
                                             0.5 * read_png(path)[1]))
ok(not bad, "every resize within its bound of clfx-bench --device "
   "reference (largest |d| / bound %.3f)" % worst, "\n".join(bad))

# A rerun makes nothing and changes nothing.
stamps = {f: os.stat(os.path.join(tm, f)).st_mtime_ns for f in made}
r = batch_run(inputs, tm, TONEMAP)
ok(r.returncode == 0 and "0 of %d files to make (%d done)" % (N, N)
   in r.stdout and all(os.stat(os.path.join(tm, f)).st_mtime_ns == t
                       for f, t in stamps.items()),
   "a rerun skips the %d results that exist, untouched" % N, r.stdout)

# A file that cannot be read fails alone and is listed at the end.
mixed = os.path.join(work, "mixed")
os.makedirs(mixed)
for name in names[:3]:
    shutil.copy(os.path.join(inputs, name), mixed)
with open(os.path.join(mixed, "broken.png"), "wb") as f:
    f.write(b"\x89PNG\r\n\x1a\n not an image")
out = os.path.join(work, "mixed-out")
r = batch_run(mixed, out, TONEMAP)
made = sorted(f for f in os.listdir(out) if f.endswith(".png"))
ok(r.returncode == 1 and made == names[:3]
   and "failed: broken.png" in r.stdout
   and "3 made, 1 failed" in r.stdout
   and not any(f.endswith(".part.png") for f in os.listdir(out)),
   "an unreadable file fails alone, is listed, the status is 1, no "
   "partial file is left (status %d, made %s)" % (r.returncode, made),
   r.stdout + r.stderr, 30)
r = batch_run(mixed, out, TONEMAP)
ok(r.returncode == 1 and "1 of 4 files to make (3 done)" in r.stdout,
   "a rerun tries only the failed file", r.stdout)
done()
