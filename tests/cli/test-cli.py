#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""test-cli.py: clfx-bench against hostile input files and malformed
options.

    test-cli.py CLFX_BENCH

Every bad input must end in a non-zero exit and a message that names what
was wrong (the file, or the option and the text typed), quickly and
without a large allocation: each run has 1 GiB of address space
(RLIMIT_AS) and a time limit, so a header that declares gigabytes fails
the test rather than the machine.  The runs use the CPU reference path,
so no OpenCL device is needed.  TAP output."""
import os
import resource
import struct
import subprocess
import sys
import tempfile
import time
import zlib

# tests/taplib.py
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
import taplib  # noqa: E402

bench = sys.argv[1]

MEMORY = 1 << 30
TIME_LIMIT = 20.0   # the subprocess is killed after this
FAST = 5.0          # what a refused input may take


ok = taplib.ok


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def bench_run(args, env=None, data=None):
    """Runs clfx-bench, data (if any) through a pipe on its standard
    input; returns (exit status, stderr text, seconds)."""
    t0 = time.monotonic()
    try:
        p = subprocess.run([bench] + args, input=data,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           preexec_fn=limit_memory, timeout=TIME_LIMIT,
                           env=env)
        rc, err = p.returncode, p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        rc, err = "timeout", "(killed after %g s)" % TIME_LIMIT
    return rc, err, time.monotonic() - t0


RESIZE = ["resize", "--width", "8", "--height", "8"]
BASE = ["--device", "reference", "--repeat", "1", "--warmup", "0"]


def expect_refused(args, needles, what, data=None, env=None):
    """A non-zero exit (not a crash: a signal is a negative status), each
    of needles in the message, within FAST seconds."""
    rc, err, secs = bench_run(args, env=env, data=data)
    missing = [s for s in needles if s not in err]
    ok(isinstance(rc, int) and rc > 0 and not missing and secs < FAST,
       "%s: refused (exit %s, %.2f s)" % (what, rc, secs),
       "args: %r\nstderr: %s\nmissing: %r" % (args, err, missing))


def expect_read(path, what):
    rc, err, secs = bench_run(BASE + ["--input", path] + RESIZE)
    ok(rc == 0, "%s: read (exit %s)" % (what, rc), err)


# ---- files --------------------------------------------------------------

def chunk(kind, data, good_crc=True):
    crc = zlib.crc32(kind + data) & 0xffffffff
    if not good_crc:
        crc ^= 0x5a5a5a5a
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def png(width, height, bit_depth=8, color_type=0, rows=None, before=b"",
        after=b"", iend_crc=True):
    """A PNG: IHDR (its CRC right, so libpng gets to the size), the
    chunks in before, IDAT of rows (raw filtered bytes), the chunks in
    after, IEND."""
    ihdr = struct.pack(">IIBBBBB", width, height, bit_depth, color_type,
                       0, 0, 0)
    idat = zlib.compress(rows if rows is not None else b"\0" * 16)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + before
            + chunk(b"IDAT", idat) + after + chunk(b"IEND", b"", iend_crc))


def gray8(width, height):
    """The filtered rows of a gray 8-bit image: filter 0, a ramp."""
    return b"".join(b"\0" + bytes((x + y) & 255 for x in range(width))
                    for y in range(height))


def pfm_rgb(width, height, header=None):
    header = header or b"PF\n%d %d\n-1.0\n" % (width, height)
    return header + struct.pack("<%df" % (width * height * 3),
                                *[0.5] * (width * height * 3))


work = tempfile.mkdtemp(prefix="clfx-cli-")


def put(name, data):
    path = os.path.join(work, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


text = chunk(b"tEXt", b"Comment\0clfx")
bad_text = chunk(b"tEXt", b"Comment\0clfx", good_crc=False)

# Positive controls: the same shapes, sound, are read.
expect_read(put("good.png", png(8, 8, rows=gray8(8, 8), before=text,
                                after=text)), "a sound PNG with tEXt")
expect_read(put("good.pfm", pfm_rgb(4, 3)), "a sound PFM")
for name in ["good.png", "good.pfm"]:
    with open(os.path.join(work, name), "rb") as f:
        rc, err, secs = bench_run(BASE + ["--input", "/dev/stdin"] + RESIZE,
                                  data=f.read())
    ok(rc == 0, "%s through a pipe: read (exit %s)" % (name, rc), err)

# The allocation bombs: a header declaring 65536x65536 and no data.
for depth, ctype, what in [(8, 0, "gray 8-bit"), (8, 6, "RGBA 8-bit"),
                           (16, 6, "RGBA 16-bit")]:
    path = put("bomb-%d-%d.png" % (depth, ctype), png(65536, 65536, depth,
                                                      ctype))
    expect_refused(BASE + ["--input", path] + RESIZE,
                   [path, "65536x65536", "truncated or corrupt"],
                   "a %d-byte PNG declaring 65536x65536 %s"
                   % (os.path.getsize(path), what))
path = put("bomb.pfm", b"Pf\n65536 65536\n-1.0\n" + b"\0" * 16)
expect_refused(BASE + ["--input", path] + RESIZE,
               [path, "truncated", "17179869184 bytes"],
               "a PFM declaring 65536x65536 gray with 16 bytes of data")
with open(path, "rb") as f:
    expect_refused(BASE + ["--input", "/dev/stdin"] + RESIZE,
                   ["/dev/stdin", "truncated"],
                   "the same PFM through a pipe", data=f.read())


def exr_header(width, height, size):
    """An OpenEXR header by hand, float A, B, G, R, uncompressed, a data
    window of width x height, then zeros up to size bytes: no offset
    table, no chunks."""
    def attr(name, kind, data):
        return (name + b"\0" + kind + b"\0" + struct.pack("<i", len(data))
                + data)
    chlist = b"".join(c + b"\0" + struct.pack("<iB3xii", 2, 0, 1, 1)
                      for c in [b"A", b"B", b"G", b"R"]) + b"\0"
    box = struct.pack("<4i", 0, 0, width - 1, height - 1)
    head = (b"\x76\x2f\x31\x01" + struct.pack("<i", 2)
            + attr(b"channels", b"chlist", chlist)
            + attr(b"compression", b"compression", b"\0")
            + attr(b"dataWindow", b"box2i", box)
            + attr(b"displayWindow", b"box2i", box)
            + attr(b"lineOrder", b"lineOrder", b"\0")
            + attr(b"pixelAspectRatio", b"float", struct.pack("<f", 1))
            + attr(b"screenWindowCenter", b"v2f", struct.pack("<2f", 0, 0))
            + attr(b"screenWindowWidth", b"float", struct.pack("<f", 1))
            + b"\0")
    return head + b"\0" * (size - len(head))


# OpenEXR: 4 GiB of float RGBA declared in 1181 bytes (where the build
# reads OpenEXR), from a file and through a pipe; a sound file through a
# pipe (Blender's, where it is installed).
path = put("bomb.exr", exr_header(16384, 16384, 1181))
rc, err, secs = bench_run(BASE + ["--input", path] + RESIZE)
if "no OpenEXR library" in err:
    ok(isinstance(rc, int) and rc > 0,
       "an OpenEXR file in a build without OpenEXR: refused, saying so", err)
else:
    expect_refused(BASE + ["--input", path] + RESIZE,
                   [path, "16384x16384", "1181 bytes", "truncated or corrupt"],
                   "a 1181-byte OpenEXR header declaring 16384x16384 float "
                   "RGBA")
    with open(path, "rb") as f:
        expect_refused(BASE + ["--input", "/dev/stdin"] + RESIZE,
                       ["/dev/stdin", "16384x16384", "1181 bytes"],
                       "the same OpenEXR header through a pipe",
                       data=f.read())
    sound = "/usr/share/blender/datafiles/studiolights/world/courtyard.exr"
    if os.path.exists(sound):
        with open(sound, "rb") as f:
            rc, err, secs = bench_run(BASE + ["--input", "/dev/stdin"]
                                      + RESIZE, data=f.read())
        ok(rc == 0, "courtyard.exr through a pipe: read (exit %s)" % rc, err)

path = put("bomb-pipe.png", png(65536, 65536, 16, 6))
with open(path, "rb") as f:
    expect_refused(BASE + ["--input", "/dev/stdin"] + RESIZE,
                   ["/dev/stdin", "65536x65536", "truncated or corrupt"],
                   "the RGBA 16-bit PNG bomb through a pipe", data=f.read())

# Loose parsing of PFM: the scale on the size line, data after the pixels.
path = put("scale-line.pfm", pfm_rgb(2, 2, b"PF\n2 2 3\n-1.0\n"))
expect_refused(BASE + ["--input", path] + RESIZE,
               [path, "'2 2'", "scale goes on a line of its own"],
               "a PFM with the scale on the size line ('2 2 3')")
path = put("trailing.pfm", pfm_rgb(4, 3) + b"extra")
expect_refused(BASE + ["--input", path] + RESIZE,
               [path, "data after its pixels"],
               "a PFM with 5 bytes after its pixels")
with open(path, "rb") as f:
    expect_refused(BASE + ["--input", "/dev/stdin"] + RESIZE,
                   ["/dev/stdin", "data after its pixels"],
                   "the same PFM through a pipe", data=f.read())

# Bad CRCs: an ancillary chunk before and after the pixels, and IEND.
for name, data, what in [
        ("text-before.png", png(8, 8, rows=gray8(8, 8), before=bad_text),
         "a bad tEXt CRC before IDAT"),
        ("text-after.png", png(8, 8, rows=gray8(8, 8), after=bad_text),
         "a bad tEXt CRC after IDAT"),
        ("iend.png", png(8, 8, rows=gray8(8, 8), iend_crc=False),
         "a bad IEND CRC")]:
    path = put(name, data)
    expect_refused(BASE + ["--input", path] + RESIZE, [path, "CRC"],
                   "a PNG with %s" % what)

# ---- options -------------------------------------------------------------

for text_ in ["99999999999x1", "65537x8", "10x10:", "0x10", " 10x10",
              "10x10 ", "+10x10", "10x-1", "10 x10", "10x10:u8:u8", "x10",
              "10x"]:
    expect_refused(BASE + ["--synthetic", text_] + RESIZE,
                   ["--synthetic", "'%s'" % text_],
                   "--synthetic '%s'" % text_)

for text_ in ["2147483648", "4294967296", "1e308", "-1e308", " 5", "5 ",
              "0x10", "", "1e-5", "nan", "inf", "1e999", "0x1p3", "5e", "."]:
    rc, err, secs = bench_run(BASE + ["--synthetic", "16x16", "resize",
                                      "--width", text_, "--height", "8"])
    ok(isinstance(rc, int) and rc > 0 and "'%s'" % text_ in err
       and "e+09" not in err and secs < FAST,
       "--width '%s': refused, quoting the text (exit %s)" % (text_, rc),
       err)

for opt, text_ in [("--repeat", " 5"), ("--repeat", "0x10"),
                   ("--repeat", "1001"), ("--warmup", "-1"),
                   ("--guard", "99999999999999999999")]:
    expect_refused(["--device", "reference", opt, text_, "--synthetic",
                    "16x16"] + RESIZE, [opt, "'%s'" % text_],
                   "%s '%s'" % (opt, text_))

out = os.path.join(work, "same.png")
expect_refused(BASE + ["--synthetic", "16x16", "--output", out, "--report",
                       out] + RESIZE, ["--output", "--report", out],
               "--output and --report naming one file")
ok(not os.path.exists(out), "nothing written when both name one file")
expect_refused(BASE + ["--synthetic", "16x16", "--output", out, "--report",
                       os.path.join(work, ".", "same.png")] + RESIZE,
               ["--output", "--report"],
               "--output and --report naming one file by two paths")

# Valid options still work, the output and the report both written.
report = os.path.join(work, "report.json")
rc, err, secs = bench_run(BASE + ["--synthetic", "16x16:float", "--output",
                                  out, "--report", report, "resize",
                                  "--width", "+8", "--height", "8.0"])
ok(rc == 0 and os.path.getsize(out) > 0 and os.path.getsize(report) > 0,
   "valid options: output and report written (exit %s)" % rc, err)

for name in os.listdir(work):
    os.unlink(os.path.join(work, name))
os.rmdir(work)
taplib.done()
