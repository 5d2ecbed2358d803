# SPDX-License-Identifier: GPL-3.0-or-later
"""previewlib.py: what the dialog tests read back: a preview the plug-in
dumped (CLFX_DEV=preview-dump, 8-bit PAM with its place on the drawable)
and its difference from a reference image as the screen shows it."""
import cv2
import numpy as np


def read_pam(path):
    """(pixels as an (h, w, depth) uint8 array, (x, y) of the view)."""
    view = (0, 0)
    head = {}
    with open(path, "rb") as f:
        while True:
            line = f.readline().decode().strip()
            if line == "ENDHDR":
                break
            if line.startswith("# view"):
                view = tuple(map(int, line.split()[2:4]))
            elif line and not line.startswith(("#", "P7")):
                k, v = line.split(None, 1)
                head[k] = v
        w, h, d = (int(head[k]) for k in ("WIDTH", "HEIGHT", "DEPTH"))
        return np.frombuffer(f.read(), np.uint8).reshape(h, w, d), view


def read_rgba(path):
    """An RGBA PNG as an (h, w, 4) uint8 array."""
    return cv2.cvtColor(cv2.imread(path, cv2.IMREAD_UNCHANGED),
                        cv2.COLOR_BGRA2RGBA)


def shown_difference(a, b):
    """The largest alpha difference and colour x alpha difference (what
    the pixel shows: colour under a small alpha may tip a code), and
    where the latter is."""
    a = a.astype(np.int32)
    b = b.astype(np.int32)
    pa = a[..., :3] * a[..., 3:] / 255.0
    pb = b[..., :3] * b[..., 3:] / 255.0
    d = np.abs(pa - pb)
    return (int(np.abs(a[..., 3] - b[..., 3]).max()), float(d.max()),
            np.unravel_index(d.argmax(), d.shape))
