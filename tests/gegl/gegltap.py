"""gegltap.py: the TAP output and the GEGL import the tests against GEGL
share (test-gegl.py, test-tonemap.py)."""
import os
import sys

n = 0
failed = 0


def ok(cond, what):
    global n, failed
    n += 1
    print(("ok %d - %s" if cond else "not ok %d - %s") % (n, what))
    if not cond:
        failed += 1


def skip_all(why):
    """GEGL missing: a skip, or a failure with CLFX_REQUIRE_DEVICE=1 (CI's
    root has it)."""
    if os.environ.get("CLFX_REQUIRE_DEVICE") == "1":
        print("1..1\nnot ok 1 - %s (CLFX_REQUIRE_DEVICE=1)" % why)
        sys.exit(1)
    print("1..0 # SKIP %s" % why)
    sys.exit(0)


def gegl():
    """GEGL 0.4 through its Python bindings, initialised."""
    try:
        import gi
        gi.require_version("Gegl", "0.4")
        from gi.repository import Gegl
    except (ImportError, ValueError) as e:
        skip_all("GEGL's Python bindings: %s" % e)
    Gegl.init(None)
    return Gegl
