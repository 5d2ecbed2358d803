# SPDX-License-Identifier: GPL-3.0-or-later
"""taplib.py: TAP output for the Python tests (meson's 'tap' protocol):
each check prints "ok N - what" or "not ok N - what" and, when it
failed, its detail as diagnostics; done() prints the plan and exits with
the overall status."""
import sys

n = 0
failed = 0


def ok(cond, what, detail="", last_lines=None):
    """One check; on failure the detail's lines (its last last_lines of
    them, when given) follow as diagnostics.  Returns cond."""
    global n, failed
    n += 1
    print(("ok %d - %s" if cond else "not ok %d - %s") % (n, what))
    if not cond:
        failed += 1
        lines = detail.splitlines()
        for line in lines[-last_lines:] if last_lines else lines:
            print("# " + line)
    return cond


def done():
    print("1..%d" % n)
    sys.exit(1 if failed else 0)
