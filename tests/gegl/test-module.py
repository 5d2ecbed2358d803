#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""test-module.py: the GEGL module's clfx: operations, run through GEGL
(its Python bindings), against clfx-bench.

    test-module.py CLFX_BENCH MODULE_DIR WORK_DIR PHOTO

- Every variant of the filter and tone-map families is an operation
  clfx:<variant> with GEGL's keys, and its properties are the variant's
  arguments: the report each writes lists the same parameters, with the
  same defaults, as clfx-bench's report for the same variant.
- Same pixels as clfx-bench for the same variant, arguments and device
  ($CLFX_TEST_DEVICE): bit for bit, on a crop of a real photograph as GIMP
  holds an 8-bit layer ("R'G'B'A u8", through PNG files) and as linear
  float ("RGB float", through PFM files).  Both run the same engine on the
  same bytes, so any difference is the module's (a halo, a format, a
  parameter that did not arrive).
- Chunks: the output rendered in small rectangles (fresh graph, so
  nothing comes from a cache) equals the whole output, for variants with
  a halo and for those that read the whole input.
- Threads: two graphs processed at once from two threads (the engine's
  context is shared and taken by one run at a time) equal their runs one
  after the other.
- The gegl command runs them from GEGL's user folder, where
  tools/install-plugin.sh --gegl puts the module: the same bytes.
- Failures never fail the graph: with an OpenCL call made to fail
  (CLFX_DEV fault=...) the operation warns and gives the CPU reference's result;
  with arguments the engine refuses (a matrix that does not parse) it
  warns and passes the input through unchanged.

TAP output; GEGL missing is a skip, or a failure with
CLFX_REQUIRE_DEVICE=1 (CI's root has it)."""
import json
import os
import shutil
import subprocess
import sys
import threading

import numpy as np

import gegltap
from gegltap import ok

U8 = "R'G'B'A u8"

# (variant, family, {argument: value}); values as clfx-bench takes them.
CASES = [
    ("gaussian", "filter", {}),
    ("gaussian", "filter", {"std-dev-x": "4", "std-dev-y": "2.5"}),
    ("gaussian", "filter", {"std-dev-x": "3", "method": "fir",
                            "addressing": "mirrored-repeat"}),
    ("box", "filter", {"radius": "5", "addressing": "clamp"}),
    ("unsharp", "filter", {"std-dev": "2", "amount": "1.5"}),
    ("median", "filter", {"radius": "4", "neighborhood": "square"}),
    ("bilateral", "filter", {}),
    ("sobel", "filter", {"keep-sign": "false"}),
    ("convolve", "filter", {"matrix": "1 2 1  2 4 2  1 2 1",
                            "normalize": "true"}),
    ("motion-blur-linear", "filter", {"length": "9.5", "angle": "-30",
                                      "addressing": "clamp"}),
    ("motion-blur-zoom", "filter", {"factor": "0.3", "center-x": "0.7",
                                    "center-y": "0.2"}),
    ("highpass", "filter", {"highpass-std-dev": "0.8", "contrast": "2"}),
    ("dog", "filter", {"radius1": "1", "radius2": "2"}),
    ("motion-blur-circular", "filter", {"circular-angle": "25",
                                        "center-x": "0.4"}),
    ("noise-reduction", "filter", {"noise-reduction-iterations": "3",
                                   "addressing": "clamp"}),
    ("mean-curvature-blur", "filter", {"mean-curvature-iterations": "5"}),
    ("gaussian-blur-selective", "filter", {"selective-blur-radius": "2",
                                           "max-delta": "0.15"}),
    ("snn-mean", "filter", {"snn-radius": "3", "pairs": "1"}),
    ("reinhard02", "tonemap", {}),
    ("reinhard05", "tonemap", {"brightness": "0.5"}),
    ("drago03", "tonemap", {}),
    ("aces", "tonemap", {"exposure": "1"}),
    ("durand02", "tonemap", {}),
    ("fattal02", "tonemap", {}),
    ("mantiuk06", "tonemap", {}),
    ("local-laplacian", "tonemap", {}),
]
VARIANTS = sorted({c[0] for c in CASES})
TONEMAP = {c[0] for c in CASES if c[1] == "tonemap"}


def set_props(node, args):
    """Sets clfx-bench style text arguments as typed properties."""
    for name, text in args.items():
        cur = node.get_property(name)
        if isinstance(cur, bool):
            node.set_property(name, text == "true")
        elif isinstance(cur, int) and hasattr(type(cur), "__enum_values__"):
            nicks = {e.value_nick: v
                     for v, e in type(cur).__enum_values__.items()}
            node.set_property(name, nicks[text])
        elif isinstance(cur, int):
            node.set_property(name, int(text))
        elif isinstance(cur, float):
            node.set_property(name, float(text))
        else:
            node.set_property(name, text)


def buffer_of(fmt, w, h, data):
    buf = Gegl.Buffer.new(fmt, 0, 0, w, h)
    buf.set(Gegl.Rectangle.new(0, 0, w, h), fmt, data)
    return buf


def run_op(op, src_buf, w, h, fmt, out_fmt, args, device, report=None,
           chunk=None):
    """op on src_buf, read back as out_fmt bytes; chunk=(cw, ch) renders
    the output rectangle by rectangle."""
    g = Gegl.Node()
    src = g.create_child("gegl:buffer-source")
    src.set_property("buffer", src_buf)
    node = g.create_child(op)
    set_props(node, args)
    node.set_property("device", device)
    if report:
        node.set_property("report-file", report)
    src.link(node)
    out = Gegl.Buffer.new(fmt, 0, 0, w, h)
    if chunk:
        for y in range(0, h, chunk[1]):
            for x in range(0, w, chunk[0]):
                node.blit_buffer(out, Gegl.Rectangle.new(
                    x, y, min(chunk[0], w - x), min(chunk[1], h - y)),
                    0, Gegl.AbyssPolicy.NONE)
    else:
        write = g.create_child("gegl:write-buffer")
        write.set_property("buffer", out)
        node.link(write)
        write.process()
    return out.get(Gegl.Rectangle.new(0, 0, w, h), 1.0, out_fmt,
                   Gegl.AbyssPolicy.NONE)


def gegl_file(path, fmt):
    """A file GEGL reads (PNG), as fmt bytes, width, height."""
    buf, w, h = gegltap.load(path, fmt)
    return buf.get(Gegl.Rectangle.new(0, 0, w, h), 1.0, fmt,
                   Gegl.AbyssPolicy.NONE), w, h


def save_png(buf, path):
    g = Gegl.Node()
    src = g.create_child("gegl:buffer-source")
    src.set_property("buffer", buf)
    save = g.create_child("gegl:png-save")
    save.set_property("path", path)
    save.set_property("bitdepth", 8)
    src.link(save)
    save.process()


def bench(family, variant, args, inp, out, report):
    cmd = [bench_path, "--device", device, "--repeat", "1", "--warmup", "0",
           "--no-roofline", "--report", report, "--input", inp, "--output",
           out, family, "--" + ("filter" if family == "filter"
                                 else "operator"), variant]
    for k, v in args.items():
        cmd += ["--" + k, v]
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode == 0, (p.stderr or p.stdout).strip()[-300:]


def params_of(path):
    with open(path) as f:
        p = json.load(f)["parameters"]
    for k in ("device", "validate", "in-process"):
        p.pop(k, None)
    return p


def child(args):
    """One run in a process of its own (the fault switch is read once per
    process): op, input PNG, device, output raw bytes[, "validate"]."""
    op, inp, dev, out = args[:4]
    data, w, h = gegl_file(inp, U8)
    props = {"validate": "true"} if args[4:] == ["validate"] else {}
    with open(out, "wb") as f:
        f.write(run_op(op, buffer_of(U8, w, h, data), w, h, U8, U8, props,
                       dev))


if len(sys.argv) > 1 and sys.argv[1] == "--child":
    Gegl = gegltap.gegl()
    Gegl.load_module_directory(sys.argv[2])
    child(sys.argv[3:])
    sys.exit(0)

bench_path, module_dir, work, photo = sys.argv[1:5]
device = os.environ.get("CLFX_TEST_DEVICE") or "auto"
os.makedirs(work, exist_ok=True)
Gegl = gegltap.gegl()
Gegl.load_module_directory(module_dir)

CHUNKS = (("median", {"radius": "3"}),
          ("gaussian", {"std-dev-x": "3", "method": "fir"}),
          ("gaussian", {"std-dev-x": "5"}),
          # Runs of sums on CPU devices: a chunk restarts them where the
          # whole image does.
          ("box", {"radius": "9"}))
print("1..%d" % (2 + len(VARIANTS) + 3 * len(CASES) + len(CHUNKS) + 7))

# ---- registration ------------------------------------------------------------
names = [o for o in Gegl.list_operations() if o.startswith("clfx:")]
ok(sorted(names) == sorted("clfx:" + v for v in VARIANTS),
   "one clfx: operation per filter and tone-map variant (%s)"
   % " ".join(sorted(names)))
ok(Gegl.Operation.get_key("clfx:gaussian", "categories") == "blur"
   and Gegl.Operation.get_key("clfx:reinhard05", "categories")
   == "tonemapping"
   and Gegl.Operation.get_property_key("clfx:gaussian", "std-dev-x", "unit")
   == "pixel-distance",
   "GEGL's keys: categories beside GEGL's own, units of distances")
for v in VARIANTS:
    op = "clfx:" + v
    title = Gegl.Operation.get_key(op, "title") or ""
    props = [p.name for p in Gegl.Operation.list_properties(op)]
    # No "gimp:menu-path" (GIMP would add a menu entry of its own): the
    # menu entry is the plug-in's procedure of the operator, whose dialog
    # adds this operation as a layer filter.
    menu = Gegl.Operation.get_key(op, "gimp:menu-path")
    ok(title.endswith("(OpenCL)") and Gegl.Operation.get_key(op, "description")
       and props[-3:] == ["device", "validate", "report-file"]
       and not menu and not Gegl.Operation.get_key(op, "gimp:menu-label"),
       "%s: title '%s', %d properties, no menu entry of its own"
       % (op, title, len(props)))

# ---- the inputs: a crop of a real photograph, odd sizes ------------------------
full, fw, fh = gegl_file(photo, U8)
W, H = min(fw, 173), min(fh, 131)
x0, y0 = (fw - W) // 3, (fh - H) // 2
img = np.frombuffer(full, np.uint8).reshape(fh, fw, 4)[y0:y0 + H,
                                                        x0:x0 + W].copy()
u8_buf = buffer_of(U8, W, H, img.tobytes())
u8_png = os.path.join(work, "in.png")
save_png(u8_buf, u8_png)
u8_in, _, _ = gegl_file(u8_png, U8)
rgb = np.frombuffer(
    u8_buf.get(Gegl.Rectangle.new(0, 0, W, H), 1.0, "RGB float",
               Gegl.AbyssPolicy.NONE), np.float32).reshape(H, W, 3) * 1.5
f_pfm = os.path.join(work, "in.pfm")
gegltap.write_pfm(f_pfm, rgb)
f_buf = buffer_of("RGB float", W, H, rgb.tobytes())

# ---- each case: parameters, u8 pixels, float pixels ------------------------------
for k, (variant, family, args) in enumerate(CASES):
    op = "clfx:" + variant
    tag = "%02d-%s" % (k, variant)
    rep_b, rep_m = (os.path.join(work, tag + s) for s in ("-b.json",
                                                          "-m.json"))
    out_png = os.path.join(work, tag + ".png")
    good, msg = bench(family, variant, args, u8_png, out_png, rep_b)
    mine = run_op(op, buffer_of(U8, W, H, u8_in), W, H, U8, U8, args, device,
                  report=rep_m)
    ok(good and os.path.exists(rep_m) and params_of(rep_b) == params_of(rep_m),
       "%s %s: the module's report lists clfx-bench's parameters %s"
       % (op, args, "" if good else msg))
    theirs = gegl_file(out_png, U8)[0] if good else b""
    a = np.frombuffer(mine, np.uint8).astype(int)
    b = np.frombuffer(theirs, np.uint8).astype(int)
    ok(a.shape == b.shape and (a == b).all(),
       "%s %s: 8-bit sRGB, the same bytes as clfx-bench (%s)"
       % (op, args, "max diff %d" % abs(a - b).max()
          if a.shape == b.shape else "sizes differ"))

    out_pfm = os.path.join(work, tag + ".pfm")
    good, msg = bench(family, variant, args, f_pfm, out_pfm, rep_b)
    mine = np.frombuffer(run_op(op, f_buf, W, H, "RGB float", "RGBA float",
                                args, device), np.float32).reshape(H, W, 4)
    theirs = gegltap.read_pfm(out_pfm) if good else None
    same = theirs is not None and np.array_equal(mine[:, :, :3], theirs,
                                                 equal_nan=True)
    ok(same, "%s %s: linear float, the same values as clfx-bench %s"
       % (op, args, msg if not good else
          "" if same else "(max diff %g)"
          % np.nanmax(np.abs(mine[:, :, :3] - theirs))))

# ---- chunks ----------------------------------------------------------------------
for variant, args in CHUNKS:
    whole = run_op("clfx:" + variant, u8_buf, W, H, U8, U8, args, device)
    parts = run_op("clfx:" + variant, u8_buf, W, H, U8, U8, args, device,
                   chunk=(37, 29))
    ok(whole == parts, "clfx:%s %s: 37x29 chunks give the whole run's bytes"
       % (variant, args))

# ---- threads ---------------------------------------------------------------------
jobs = [("clfx:median", {"radius": "3"}), ("clfx:reinhard05", {}),
        ("clfx:gaussian", {"std-dev-x": "3", "method": "fir"})]
alone = [run_op(op, u8_buf, W, H, U8, U8, a, device) for op, a in jobs]
together = [None] * len(jobs)


def work_on(i):
    together[i] = run_op(jobs[i][0], u8_buf, W, H, U8, U8, jobs[i][1], device,
                         chunk=(64, 64))


threads = [threading.Thread(target=work_on, args=(i,))
           for i in range(len(jobs))]
for t in threads:
    t.start()
for t in threads:
    t.join()
ok(together == alone, "three operations from three threads at once give "
   "their results one at a time")

# ---- the gegl command ------------------------------------------------------------
gegl_cli = shutil.which("gegl")
if gegl_cli:
    data_home = os.path.join(work, "xdg-data")
    tool = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                        "..", "tools", "install-plugin.sh")
    cli_out, ref_out = (os.path.join(work, n)
                        for n in ("cli.png", "cli-ref.png"))
    inst = subprocess.run(
        ["sh", tool, "--gegl", os.path.join(module_dir, "clfx-gegl.so")],
        env=dict(os.environ, XDG_DATA_HOME=data_home),
        capture_output=True, text=True)
    run = subprocess.run(
        [gegl_cli, u8_png, "-o", cli_out, "--", "clfx:unsharp",
         "std-dev=2", "amount=1.5", "device=" + device],
        env=dict(os.environ, XDG_DATA_HOME=data_home),
        capture_output=True, text=True, timeout=300)
    good, msg = bench("filter", "unsharp", {"std-dev": "2", "amount": "1.5"},
                      u8_png, ref_out, os.path.join(work, "cli.json"))
    same = (inst.returncode == 0 and run.returncode == 0 and good
            and gegl_file(cli_out, U8)[0] == gegl_file(ref_out, U8)[0])
    ok(same, "gegl in.png -o out.png -- clfx:unsharp std-dev=2 amount=1.5, "
       "the module in GEGL's user folder: clfx-bench's bytes %s"
       % (inst.stderr + run.stderr + msg)[-300:] if not same else
       "gegl in.png -o out.png -- clfx:unsharp std-dev=2 amount=1.5, the "
       "module in GEGL's user folder: clfx-bench's bytes")
elif os.environ.get("CLFX_REQUIRE_DEVICE") == "1":
    ok(False, "the gegl command is not installed (CLFX_REQUIRE_DEVICE=1)")
else:
    gegltap.n += 1
    print("ok %d - the gegl command # SKIP not installed" % gegltap.n)

# ---- translations ----------------------------------------------------------------
def po_strings(path):
    """msgid -> msgstr of a catalog's translated entries."""
    out, mid, mstr, cur = {}, None, None, None
    for line in open(path, encoding="utf-8").read().splitlines() + [""]:
        if line.startswith("msgid "):
            mid, cur = eval(line[6:]), "id"
        elif line.startswith("msgstr "):
            mstr, cur = eval(line[7:]), "str"
        elif line.startswith('"') and cur == "id":
            mid += eval(line)
        elif line.startswith('"') and cur == "str":
            mstr += eval(line)
        else:
            if mid and mstr:
                out[mid] = mstr
            mid = mstr = cur = None
    return out


po_dir = os.path.join(os.path.dirname(module_dir.rstrip("/")), "po")
zh_po = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                     "po", "zh_CN.po")
has_zh = any(l in (b"zh_cn.utf8", b"zh_cn.utf-8") for l in subprocess.run(
    ["locale", "-a"], capture_output=True).stdout.lower().split())
if not os.path.exists(os.path.join(po_dir, "zh_CN", "LC_MESSAGES",
                                   "clfx.mo")):
    gegltap.n += 1
    print("ok %d - the module under zh_CN # SKIP this build has no catalogs "
          "(they are built with the plug-in)" % gegltap.n)
elif not has_zh:
    if os.environ.get("CLFX_REQUIRE_DEVICE") == "1":
        ok(False, "the zh_CN.UTF-8 locale is missing (CLFX_REQUIRE_DEVICE=1)")
    else:
        gegltap.n += 1
        print("ok %d - the module under zh_CN # SKIP no zh_CN.UTF-8 locale"
              % gegltap.n)
else:
    # Installed as a user installs it (the catalogs beside the module),
    # then read back by a GEGL under zh_CN: titles, descriptions and the
    # properties' names come from the catalog, mnemonics stripped.
    zh_dir = os.path.join(work, "zh-plug-ins")
    shutil.rmtree(zh_dir, ignore_errors=True)
    tool = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                        "..", "tools", "install-plugin.sh")
    inst = subprocess.run(
        ["sh", tool, "--gegl", os.path.join(module_dir, "clfx-gegl.so"),
         zh_dir], capture_output=True, text=True)
    probe = ("import locale, gi, json; locale.setlocale(locale.LC_ALL, '');"
             "gi.require_version('Gegl', '0.4');"
             "from gi.repository import Gegl; Gegl.init(None);"
             "Gegl.load_module_directory(%r);"
             "P = lambda o, n: Gegl.Operation.find_property(o, n);"
             "print(json.dumps([Gegl.Operation.get_key('clfx:gaussian', "
             "'title'), Gegl.Operation.get_key('clfx:median', "
             "'description'), P('clfx:gaussian', 'std-dev-x').get_nick(), "
             "P('clfx:gaussian', 'device').get_nick(), "
             "Gegl.Operation.get_key('clfx:reinhard05', 'title')]))"
             % zh_dir)
    env = dict(os.environ, LANGUAGE="zh_CN", LANG="zh_CN.UTF-8",
               LC_ALL="zh_CN.UTF-8")
    run = subprocess.run([sys.executable, "-c", probe], env=env,
                         capture_output=True, text=True, timeout=120)
    zh = po_strings(zh_po)
    want = [zh["%s (OpenCL)"] % zh["Gaussian Blur"],
            zh["Median blur (GEGL's median-blur, high precision: the exact "
               "percentile per channel, colour weighted by alpha)"],
            zh["Size _X"].replace("(_X)", "").strip(),
            zh["Device"],
            zh["%s (OpenCL)"] % zh["Reinhard 2005"]]
    got = (json.loads(run.stdout.strip().splitlines()[-1])
           if run.returncode == 0 and run.stdout.strip() else None)
    ok(inst.returncode == 0 and got == want
       and got[0] != "Gaussian Blur (OpenCL)",
       "under zh_CN the module's title, description and property names are "
       "the catalog's (%s)" % (got if got == want else
                               "got %s, want %s; %s" % (got, want,
                                                        (inst.stderr
                                                         + run.stderr)[-300:])))

# ---- failures --------------------------------------------------------------------
ref_out, dev_out = (os.path.join(work, n) for n in ("ref.raw", "fault.raw"))
env = dict(os.environ, CLFX_DEV="fault=clEnqueueNDRangeKernel=CL_OUT_OF_RESOURCES")
p = subprocess.run([sys.executable, __file__, "--child", module_dir,
                    "clfx:box", u8_png, "reference", ref_out],
                   capture_output=True, text=True)
q = subprocess.run([sys.executable, __file__, "--child", module_dir,
                    "clfx:box", u8_png, device if device != "auto" else "pocl",
                    dev_out], env=env, capture_output=True, text=True)
same = (p.returncode == 0 and q.returncode == 0
        and open(ref_out, "rb").read() == open(dev_out, "rb").read())
ok(same and "CL_OUT_OF_RESOURCES" in q.stderr
   and "CPU reference" in q.stderr,
   "a failing OpenCL call: a warning naming it, the CPU reference's "
   "result (%s)" % (q.stderr.strip().splitlines() or ["no warning"])[-1])

# The gaussian's IIR makes its result over the module's copy of the input
# on CPU devices: failing at the fifth kernel (the second band's rows, the
# first band's already stored there), the fallback reads the input again.
ref_out, dev_out = (os.path.join(work, n) for n in ("gref.raw", "gfault.raw"))
env = dict(os.environ,
           CLFX_DEV="fault=clEnqueueNDRangeKernel=CL_OUT_OF_RESOURCES@5")
p = subprocess.run([sys.executable, __file__, "--child", module_dir,
                    "clfx:gaussian", u8_png, "reference", ref_out],
                   capture_output=True, text=True)
q = subprocess.run([sys.executable, __file__, "--child", module_dir,
                    "clfx:gaussian", u8_png,
                    device if device != "auto" else "pocl", dev_out],
                   env=env, capture_output=True, text=True)
same = (p.returncode == 0 and q.returncode == 0
        and open(ref_out, "rb").read() == open(dev_out, "rb").read())
ok(same and "CL_OUT_OF_RESOURCES" in q.stderr
   and "CPU reference" in q.stderr,
   "a call failing midway through a run over the module's copy of the "
   "input: the CPU reference's result from the input read again (%s)"
   % (q.stderr.strip().splitlines() or ["no warning"])[-1])

# A kernel whose every store adds 0.25 to red (kernels copied and changed,
# CLFX_KERNEL_DIR): with validate on, the module warns which check failed
# and applies the CPU reference's result, not the device's.
broken = os.path.join(work, "kernels-broken")
shutil.rmtree(broken, ignore_errors=True)
shutil.copytree(os.environ["CLFX_KERNEL_SRC"], broken)
io_h = os.path.join(broken, "clfx-io.h")
text = open(io_h).read()
store = "  v = clfx_unpremul (v);\n"
assert text.count(store) == 1, "clfx_store changed: update the test"
open(io_h, "w").write(text.replace(store, store + "  v.x += 0.25f;\n"))
ref_out, dev_out = (os.path.join(work, n) for n in ("vref.raw", "vbad.raw"))
p = subprocess.run([sys.executable, __file__, "--child", module_dir,
                    "clfx:box", u8_png, "reference", ref_out],
                   capture_output=True, text=True)
q = subprocess.run([sys.executable, __file__, "--child", module_dir,
                    "clfx:box", u8_png, device if device != "auto" else "pocl",
                    dev_out, "validate"],
                   env=dict(os.environ, CLFX_KERNEL_DIR=broken,
                            CLFX_CACHE_DIR="off"),
                   capture_output=True, text=True)
same = (p.returncode == 0 and q.returncode == 0
        and open(ref_out, "rb").read() == open(dev_out, "rb").read())
ok(same and "values beyond the tolerance" in q.stderr
   and "the CPU reference's result is used" in q.stderr,
   "a device result that fails validation: a warning saying what failed, "
   "the CPU reference's result applied (%s)"
   % (q.stderr.strip().splitlines() or ["no warning"])[-1][:300])

bad = run_op("clfx:convolve", u8_buf, W, H, U8, U8,
             {"matrix": "1 2 three"}, device)
ok(bad == u8_buf.get(Gegl.Rectangle.new(0, 0, W, H), 1.0, U8,
                     Gegl.AbyssPolicy.NONE),
   "a matrix that does not parse: the input passes through unchanged")

sys.exit(1 if gegltap.failed else 0)
