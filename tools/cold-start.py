#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""cold-start.py: each operator's first use in a fresh process with empty
kernel caches (clfx's and the driver's), beside the copy operator's in the
same run: the whole process's wall time and each program's build time.
The cases take turns, each ROUNDS times; the table gives medians.

usage: tools/cold-start.py [--before OLD_BENCH] CLFX_BENCH DEVICE [ROUNDS]
                           [CASE ...]
  DEVICE  pocl, NVIDIA, ...: clfx-bench's --device
  CASE    a case's name (copy, gaussian, reinhard05, ...); default: all
  --before  another build (an earlier commit's clfx-bench): each case runs
            with it too, the two taking turns, in a table of its own

Each run gets new folders for XDG_CACHE_HOME (clfx's default cache
folder) and POCL_CACHE_DIR, and CUDA_CACHE_DISABLE=1 (NVIDIA's JIT
cache), so nothing is reused from an earlier run: this is what a user's
first preview costs.  The image is small (512x512) so that the kernels'
own time is negligible next to the builds.
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

SIZE = "512x512"
# name: (synthetic depth, family and options)
CASES = {
    "copy": ("u8", ["copy"]),
    "resize-linear": ("u8", ["resize", "--width", "256", "--height", "256",
                             "--filter", "linear"]),
    "resize-lanczos3": ("u8", ["resize", "--width", "256", "--height", "256",
                               "--filter", "lanczos3"]),
    "gaussian": ("u8", ["filter", "--filter", "gaussian"]),
    "gaussian-fir": ("u8", ["filter", "--filter", "gaussian", "--method",
                            "fir", "--std-dev-x", "0.8", "--std-dev-y",
                            "0.8"]),
    "box": ("u8", ["filter", "--filter", "box"]),
    "unsharp": ("u8", ["filter", "--filter", "unsharp"]),
    "median": ("u8", ["filter", "--filter", "median"]),
    "bilateral": ("u8", ["filter", "--filter", "bilateral"]),
    "sobel": ("u8", ["filter", "--filter", "sobel"]),
    "convolve": ("u8", ["filter", "--filter", "convolve"]),
    "reinhard02": ("float", ["tonemap", "--operator", "reinhard02"]),
    "reinhard05": ("float", ["tonemap", "--operator", "reinhard05"]),
    "drago03": ("float", ["tonemap", "--operator", "drago03"]),
    "aces": ("float", ["tonemap", "--operator", "aces"]),
    "durand02": ("float", ["tonemap", "--operator", "durand02"]),
    "fattal02": ("float", ["tonemap", "--operator", "fattal02"]),
}


def run(bench, device, name):
    depth, args = CASES[name]
    tmp = tempfile.mkdtemp(prefix="clfx-cold-")
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cache"),
               POCL_CACHE_DIR=os.path.join(tmp, "pocl"),
               CUDA_CACHE_DISABLE="1")
    env.pop("CLFX_CACHE_DIR", None)
    report = os.path.join(tmp, "report.json")
    t0 = time.monotonic()
    p = subprocess.run([bench, "--device", device, "--repeat", "1",
                        "--warmup", "0", "--no-roofline", "--report", report,
                        "--synthetic", "%s:%s" % (SIZE, depth)] + args,
                       env=env, capture_output=True, text=True)
    wall = (time.monotonic() - t0) * 1000.0
    builds = {}
    if p.returncode == 0:
        r = json.load(open(report))
        for b in r.get("build", []):
            key = "%s (%s)" % (b["program"], b["cache"])
            builds[key] = builds.get(key, 0.0) + b["ms"]
    shutil.rmtree(tmp, ignore_errors=True)
    if p.returncode != 0:
        sys.exit("%s failed (%d): %s" % (name, p.returncode, p.stderr[-400:]))
    return wall, builds


def table(title, names, walls, builds):
    copy = statistics.median(walls["copy"])
    print(title)
    print("| operator | process wall (ms) | x copy | programs built (median ms) |")
    print("|---|---:|---:|---|")
    for n in names:
        w = statistics.median(walls[n])
        progs = ", ".join("%s %.0f" % (k, statistics.median(v))
                          for k, v in sorted(builds[n].items()))
        print("| %s | %.0f (%.0f-%.0f) | %.2f | %s |"
              % (n, w, min(walls[n]), max(walls[n]), w / copy, progs))


def main():
    args = sys.argv[1:]
    benches = []
    if args[:1] == ["--before"] and len(args) > 1:
        benches.append(("before", args[1]))
        args = args[2:]
    if len(args) < 2:
        sys.exit(__doc__)
    benches.append(("this build", args[0]))
    device = args[1]
    rounds = int(args[2]) if len(args) > 2 else 3
    names = args[3:] or list(CASES)
    if "copy" not in names:
        names.insert(0, "copy")
    walls = {b: {n: [] for n in names} for b, _ in benches}
    builds = {b: {n: {} for n in names} for b, _ in benches}
    for _ in range(rounds):
        for n in names:
            for b, bench in benches:
                w, made = run(bench, device, n)
                walls[b][n].append(w)
                for k, ms in made.items():
                    builds[b][n].setdefault(k, []).append(ms)
    for b, bench in benches:
        table("cold first use on %s, %s, %d rounds (median; min-max), fresh "
              "caches each run: %s (%s)" % (device, SIZE, rounds, b, bench),
              names, walls[b], builds[b])


if __name__ == "__main__":
    main()
