# SPDX-License-Identifier: GPL-3.0-or-later
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
    # GIMP's license: GEGL loads its GPL3 operations (the circular and
    # zoom motion blurs) only for an application that says so, before
    # init.
    Gegl.config().set_property("application-license", "GPL3")
    Gegl.init(None)
    global _gegl
    _gegl = Gegl
    return Gegl


_gegl = None


def gegl_op(op, rgb, props, fmt="RGBA float"):
    """GEGL's operation op (after gegl()) on rgb, an (h, w, 3) array
    handed over as "RGB float", its result read back as fmt: the RGB of
    an (h, w, 3) float32 array."""
    import numpy as np
    Gegl = _gegl
    h, w, _ = rgb.shape
    buf = Gegl.Buffer.new("RGB float", 0, 0, w, h)
    buf.set(Gegl.Rectangle.new(0, 0, w, h), "RGB float",
            np.ascontiguousarray(rgb, dtype=np.float32).tobytes())
    g = Gegl.Node()
    src = g.create_child("gegl:buffer-source")
    src.set_property("buffer", buf)
    node = g.create_child(op)
    for k, v in props.items():
        node.set_property(k, v)
    out = Gegl.Buffer.new(fmt, 0, 0, w, h)
    write = g.create_child("gegl:write-buffer")
    write.set_property("buffer", out)
    src.link(node)
    node.link(write)
    write.process()
    data = out.get(Gegl.Rectangle.new(0, 0, w, h), 1.0, fmt,
                   Gegl.AbyssPolicy.NONE)
    nc = 4 if fmt.startswith("RGBA") else 3
    return np.frombuffer(data, dtype=np.float32).reshape(h, w, nc)[:, :, :3]


def load(path, fmt):
    """A file GEGL reads, into a new buffer of fmt: (buffer, w, h)."""
    g = _gegl.Node()
    node = g.create_child("gegl:load")
    node.set_property("path", path)
    r = node.get_bounding_box()
    buf = _gegl.Buffer.new(fmt, 0, 0, r.width, r.height)
    write = g.create_child("gegl:write-buffer")
    write.set_property("buffer", buf)
    node.link(write)
    write.process()
    return buf, r.width, r.height


def read_pfm(path):
    """A PFM file as top-to-bottom float32 rows of RGB (gray repeated)."""
    import numpy as np

    with open(path, "rb") as f:
        kind = f.readline().strip()
        w, h = map(int, f.readline().split())
        scale = float(f.readline())
        data = np.frombuffer(f.read(), dtype="<f4" if scale < 0 else ">f4")
    nc = 3 if kind == b"PF" else 1
    a = data[:w * h * nc].reshape(h, w, nc)[::-1].astype(np.float32)
    return a if nc == 3 else np.repeat(a, 3, axis=2)


def write_pfm(path, rgb):
    """rgb: an (h, w, 3) array, top row first; PFM stores rows bottom-up."""
    import numpy as np

    h, w, _ = rgb.shape
    with open(path, "wb") as f:
        f.write(b"PF\n%d %d\n-1.0\n" % (w, h))
        f.write(np.ascontiguousarray(rgb[::-1], dtype="<f4").tobytes())


def node_blit():
    """gegl_node_blit through ctypes: the bindings skip it, and it is how
    a scale below 1 renders a mipmap level (gegl_node_blit_buffer's copy
    takes a buffer's full-size tiles only).  Returns
    blit(node, scale, (x, y, w, h), fmt, bpp) -> the pixels' bytes."""
    import ctypes
    import ctypes.util
    gegl_lib = ctypes.CDLL(ctypes.util.find_library("gegl-0.4"))
    babl = ctypes.CDLL(ctypes.util.find_library("babl-0.1"))
    capsule = ctypes.pythonapi.PyCapsule_GetPointer
    capsule.restype = ctypes.c_void_p
    capsule.argtypes = [ctypes.py_object, ctypes.c_char_p]
    babl.babl_format.argtypes = [ctypes.c_char_p]
    babl.babl_format.restype = ctypes.c_void_p
    rect = ctypes.c_int * 4
    gegl_lib.gegl_node_blit.argtypes = [
        ctypes.c_void_p, ctypes.c_double, ctypes.c_void_p, ctypes.c_void_p,
        ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
    gegl_lib.gegl_node_blit.restype = None

    def blit(node, scale, r, fmt, bpp):
        out = ctypes.create_string_buffer(r[2] * r[3] * bpp)
        gegl_lib.gegl_node_blit(capsule(node.__gpointer__, None), scale,
                                ctypes.byref(rect(*r)),
                                babl.babl_format(fmt.encode()), out,
                                r[2] * bpp, 0)
        return out.raw
    return blit
