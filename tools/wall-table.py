#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""wall-table.py: tools/engine-wall.sh's output as the Markdown table of
docs/PERFORMANCE.md (so the numbers there are copied by a program).

usage: tools/engine-wall.sh BENCH DEVICE 10 > wall.txt; tools/wall-table.py wall.txt
"""
import re
import sys


def main():
    text = open(sys.argv[1]).read()
    cases = re.split(r"^== ", text, flags=re.M)[1:]
    rows = {}
    for case in cases:
        head = case.splitlines()[0].strip()
        m = re.match(r"(\d+)x\d+ -> (\d+)x\d+ (\w+) (\w+) (pageable|--pinned)",
                     head)
        if not m:
            continue
        key = (m.group(1), m.group(2), m.group(3), m.group(4))
        mem = "pinned" if m.group(5) == "--pinned" else "pageable"

        def med(name):
            r = re.search(r"^  %s\s+([0-9.]+)" % re.escape(name), case, re.M)
            return float(r.group(1)) if r else 0.0

        kernels = sum(float(k) for k in re.findall(
            r"^  resize_\w+\s+([0-9.]+)", case, re.M))
        ratio = re.search(r"= ([0-9.]+) x the pinned upload \+ download of "
                          r"the same bytes \(([0-9.]+) ms\)", case)
        mode = re.search(r"^  (bands|tiles): (\d+) \w+ on \d+ devices?, "
                         r"(\S+) sampler", case, re.M)
        rows.setdefault(key, {})[mem] = {
            "upload": med("upload"), "download": med("download"),
            "staging": med("host staging copies"),
            "wall": med("total (wall)"), "kernels": kernels,
            "ratio": float(ratio.group(1)) if ratio else 0.0,
            "transfer": float(ratio.group(2)) if ratio else 0.0,
            "mode": "%s %s, %s" % (mode.group(2), mode.group(1),
                                   mode.group(3)) if mode else "?",
        }
    print("| case | kernels ms | pinned up + down ms | pageable: staging ms"
          " | pageable: wall ms (ratio) | pinned: wall ms (ratio) | ran as |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for (s, d, f, depth), r in rows.items():
        pg, pn = r.get("pageable"), r.get("pinned")
        if not pg or not pn:
            continue
        print("| %s² → %s² %s %s | %.2f | %.2f | %.1f | %.2f (%.2fx) | "
              "**%.2f (%.2fx)** | %s |"
              % (s, d, f, depth, pn["kernels"], pn["transfer"],
                 pg["staging"], pg["wall"], pg["ratio"], pn["wall"],
                 pn["ratio"], pn["mode"]))


if __name__ == "__main__":
    main()
