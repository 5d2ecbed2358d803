#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""spdx.py: the licence line of every source file (GPL-3.0-or-later, as
meson.build and debian/copyright declare; COPYING holds the text).

    spdx.py --check ROOT   TAP: every source file under ROOT has the line
    spdx.py --add ROOT     adds it where missing (after a #! line)

Sources: C, headers and OpenCL C, Python, shell, Script-Fu, meson files,
manual pages, the scripts under ci/ and .ci/, tools/clfx-batch and
debian/rules.  Documents, data, catalogs and measurements are not
sources."""
import os
import sys

TAG = "SPDX-License-Identifier: GPL-3.0-or-later"
COMMENT = {".c": "/* %s */", ".h": "/* %s */", ".cl": "/* %s */",
           ".py": "# %s", ".sh": "# %s", ".scm": ";; %s",
           ".build": "# %s", ".1": '.\\" %s'}
SCRIPTS = {"ci/env", "ci/test", "ci/demo", "ci/package", ".ci/run",
           "tools/clfx-batch"}


SOURCE_DIRS = ["engine", "kernels", "plugin", "ui", "gegl-module", "tests",
               "tools", "ci", ".ci"]


def sources(root):
    """The source files: the top folder's meson files, the source folders'
    files by their kind, debian/rules (no build or local folders)."""
    for f in ("meson.build", "meson_options.txt"):
        if os.path.exists(os.path.join(root, f)):
            yield f, "# %s"
    for top in SOURCE_DIRS:
        for d, dirs, files in os.walk(os.path.join(root, top)):
            dirs[:] = sorted(x for x in dirs if x != "__pycache__")
            for f in sorted(files):
                rel = os.path.relpath(os.path.join(d, f), root)
                ext = os.path.splitext(f)[1]
                if rel in SCRIPTS:
                    yield rel, "# %s"
                elif ext in COMMENT:
                    yield rel, COMMENT[ext]
    if os.path.exists(os.path.join(root, "debian", "rules")):
        yield "debian/rules", "# %s"


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("--check", "--add"):
        print(__doc__, file=sys.stderr)
        return 2
    mode, root = sys.argv[1], sys.argv[2]
    n = missing = total = 0
    for rel, style in sources(root):
        total += 1
        path = os.path.join(root, rel)
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        head = lines[:3]
        if any(TAG in line for line in head):
            continue
        if mode == "--check":
            missing += 1
            n += 1
            print("not ok %d - %s has no %s line" % (n, rel, TAG))
            continue
        at = 1 if lines and lines[0].startswith("#!") else 0
        lines.insert(at, style % TAG)
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
        print("added: %s" % rel)
    if mode == "--check":
        n += 1
        print("ok %d - %d source files carry the %s line"
              % (n, total - missing, TAG) if not missing else
              "not ok %d - %d of %d source files lack it"
              % (n, missing, total))
        print("1..%d" % n)
        return 1 if missing else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
