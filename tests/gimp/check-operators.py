# SPDX-License-Identifier: GPL-3.0-or-later
"""check-operators.py: the checks of run-operator-tests.sh on what one
gimp-console found (operators-pdb.py's JSON), against the family table
(operator-table's JSON) and GEGL's own operations.  TAP on stdout.

    check-operators.py TABLE.json PDB.json GIMP-STATUS GIMP-SECONDS

Every plug-in-clfx-* procedure that is no family's must be one variant's
of the table, and each variant must have one; each must sit in its menu
under its label with the table's arguments (names, ranges, defaults,
choices); where GEGL has the operation, each argument must be GEGL's
property of that name with GEGL's range and default, except for the
differences listed below, which are printed with their reason; and the
procedure run with the table's values must give the same bytes as the
family's procedure with the same values."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "gegl"))
import gegltap  # noqa: E402
from gegltap import ok  # noqa: E402

table_path, pdb_path, gimp_status, gimp_seconds = sys.argv[1:5]

FAMILY_PROCEDURES = {
    "plug-in-clfx-resize": ["<Image>/Filters/OpenCL", "<Image>/Image"],
    "plug-in-clfx-filter": ["<Image>/Filters/OpenCL"],
    "plug-in-clfx-tonemap": ["<Image>/Colors/Tone Mapping",
                             "<Image>/Filters/OpenCL"],
    "plug-in-clfx-selftest": ["<Image>/Filters/OpenCL"],
}
COMMON_FIRST = ["run-mode", "image", "drawables"]
COMMON_LAST = ["device", "validate", "report-file"]

# Where an argument and GEGL's property of the same name differ, and
# why the engine keeps its own (docs/FILTERS.md, docs/TONEMAP.md).
# (GEGL operation, name, what) -> reason.
DIFFERENCES = {
    ("convolution-matrix", "divisor", "range"):
        "clfx's hard range is GEGL's UI range (-1000..1000): a divisor "
        "beyond it is refused",
    ("median-blur", "radius", "range"):
        "the family's radius row (shared with box) takes 0..1000; the "
        "median refuses above 100 and has no negative radius (GEGL's "
        "inverts the percentiles)",
    ("median-blur", "radius", "default"):
        "the family's radius row is shared with box, whose default (4, "
        "GEGL's box-blur's) it keeps",
    ("motion-blur-circular", "center-x", "range"):
        "the centre rows are shared with the zoom, whose range (-10..10) "
        "they keep; GEGL's circular blur has none",
    ("motion-blur-circular", "center-y", "range"):
        "the centre rows are shared with the zoom, whose range (-10..10) "
        "they keep; GEGL's circular blur has none",
}
# GEGL's properties the procedure does not have, and why.
GEGL_ONLY = {
    ("gaussian-blur", "abyss-policy"):
        "addressing is the edge handling (clamp-to-edge is GEGL's clamp, "
        "clamp its none; repeat and mirrored-repeat are clfx's; no black "
        "or white)",
    ("gaussian-blur", "clip-extent"):
        "the result keeps the drawable's size, as GIMP's filters clip",
    ("median-blur", "alpha-percentile"):
        "alpha takes GEGL's default, 50",
    ("median-blur", "abyss-policy"):
        "addressing is the edge handling",
    ("median-blur", "high-precision"):
        "always GEGL's high precision (GEGL's default, off, quantizes to "
        "256 bins and clips HDR data)",
    ("convolution-matrix", "border"):
        "addressing is the edge handling",
}
for c in "abcde":
    for r in "12345":
        GEGL_ONLY[("convolution-matrix", c + r)] = (
            "the matrix is one argument, matrix (3x3, 5x5 or 7x7, row by "
            "row)")
for c in ("red", "green", "blue", "alpha"):
    GEGL_ONLY[("convolution-matrix", c)] = "every channel is convolved"
# The procedure's arguments GEGL's operation lacks, and why.
OURS_ONLY = {
    "addressing": "the edge handling, OpenCL's addressing modes",
    "sampler-filter": "how the kernels read (two taps a fetch, or the "
                      "bilateral grid's slicing)",
    "matrix": "GEGL's a1..e5 as one argument, up to 7x7",
    "exposure": "every tone mapper's exposure, applied first",
    "in-process": "the plug-in's: GIMP runs the module's operation",
    "non-destructive": "the plug-in's: keep an editable layer filter",
}

table = json.load(open(table_path))
Gegl = gegltap.gegl()
from gi.repository import GObject  # noqa: E402
print("1..%d" % (3 + 4 * len(table)))
status = int(gimp_status)
ok(status == 0 and os.path.exists(pdb_path),
   "one gimp-console ran every operator and its family (exit %d, %s s)"
   % (status, gimp_seconds))
if not os.path.exists(pdb_path):
    err = pdb_path + ".error"
    if os.path.exists(err):
        sys.stdout.write("".join("# " + l for l in open(err)))
    sys.exit(1)
pdb = json.load(open(pdb_path))
procs, runs = pdb["procedures"], pdb["runs"]

# ---- the set of procedures -----------------------------------------------
want = {op["procedure"] for op in table}
have = set(procs) - set(FAMILY_PROCEDURES)
fams = {(op["family"], op["variant"]) for op in table}
ok(have == want and len(want) == len(table) and len(fams) == len(table)
   and {f for f, v in fams} == {"filter", "tonemap"},
   "the PDB's per-operator procedures are the table's, one per filter and "
   "tone-map variant (%d: %s%s%s)"
   % (len(have), " ".join(sorted(have)),
      "; missing " + " ".join(sorted(want - have)) if want - have else "",
      "; extra " + " ".join(sorted(have - want)) if have - want else ""))
ok(all(procs.get(p, {}).get("menu_paths") == m
       for p, m in FAMILY_PROCEDURES.items()),
   "the family procedures and the self-test keep their menus (%s)"
   % "; ".join("%s %s" % (p, procs.get(p, {}).get("menu_paths"))
               for p in FAMILY_PROCEDURES))

# ---- GEGL ------------------------------------------------------------------
def gegl_props(op):
    """GEGL's properties of op: name -> dict like the table's args."""
    props = {}
    for p in Gegl.Operation.list_properties("gegl:" + op):
        info = {"name": p.name}
        if hasattr(p, "enum_class"):
            ec = p.enum_class
            values = [GObject.enum_get_value(ec, v)
                      for v in range(ec.minimum, ec.maximum + 1)]
            info["type"] = "choice"
            info["choices"] = [v.value_nick for v in values if v]
            info["default"] = GObject.enum_get_value(
                ec, p.default_value).value_nick
        elif p.value_type == GObject.TYPE_BOOLEAN:
            info["type"] = "bool"
            info["default"] = p.default_value
        elif p.value_type in (GObject.TYPE_INT, GObject.TYPE_DOUBLE):
            info["type"] = ("int" if p.value_type == GObject.TYPE_INT
                            else "double")
            info["min"], info["max"] = p.minimum, p.maximum
            info["default"] = p.default_value
        else:
            info["type"] = "string"
            info["default"] = p.default_value
        props[p.name] = info
    return props


def same_number(a, b):
    return abs(float(a) - float(b)) <= 1e-9 * max(1.0, abs(float(b)))


def compare(mine, theirs):
    """What differs between an argument and a property: a list of
    (what, ours, theirs)."""
    out = []
    if mine["type"] != theirs["type"]:
        return [("type", mine["type"], theirs["type"])]
    if mine["type"] in ("int", "double"):
        if not (same_number(mine["min"], theirs["min"])
                and same_number(mine["max"], theirs["max"])):
            out.append(("range", "%g..%g" % (mine["min"], mine["max"]),
                        "%g..%g" % (theirs["min"], theirs["max"])))
        if not same_number(mine["default"], theirs["default"]):
            out.append(("default", mine["default"], theirs["default"]))
    else:
        if mine["default"] != theirs["default"]:
            out.append(("default", mine["default"], theirs["default"]))
    if mine["type"] == "choice" and mine["choices"] != theirs["choices"]:
        out.append(("choices", mine["choices"], theirs["choices"]))
    return out


# ---- each operator -----------------------------------------------------------
for op in table:
    name = op["procedure"]
    p = procs.get(name)
    ok(p and p["menu_paths"] == [op["menu_path"]]
       and p["menu_label"] == op["label"] and p["blurb"] and p["help"]
       and p["values"] == ["report"],
       "%s: in %s as '%s', with its help and the report returned (%s, '%s')"
       % (name, op["menu_path"], op["label"],
          p and p["menu_paths"], p and p["menu_label"]))
    # The table's arguments, as declared.
    bad = []
    args = p["args"] if p else []
    names = [a["name"] for a in args]
    want_names = COMMON_FIRST + [a["name"] for a in op["args"]] + COMMON_LAST
    if names != want_names:
        bad.append("arguments %s, the table's %s" % (names, want_names))
    by_name = {a["name"]: a for a in args}
    for a in op["args"]:
        got = by_name.get(a["name"])
        if got:
            d = compare(got, a)
            bad += ["%s: %s %s, the table's %s" % (a["name"], w, x, y)
                    for w, x, y in d]
    ok(p and not bad, "%s: the table's %d arguments, names, ranges, "
       "defaults and choices (%s)%s"
       % (name, len(op["args"]), " ".join(a["name"] for a in op["args"]),
          "; " + "; ".join(bad) if bad else ""))
    # Against GEGL's own operation of the same name.
    if not op["gegl"]:
        ok(not any(o.startswith("gegl:" + op["variant"])
                   for o in Gegl.list_operations()),
           "%s: GEGL has no operation of the variant's name to compare "
           "with" % name)
    else:
        gp = gegl_props(op["gegl"])
        unknown, notes = [], []
        for a in op["args"]:
            theirs = gp.get(a["name"])
            if theirs is None:
                why = OURS_ONLY.get(a["name"])
                (notes if why else unknown).append(
                    "%s: not a property of gegl:%s%s"
                    % (a["name"], op["gegl"], " (%s)" % why if why else ""))
                continue
            for what, mine, their in compare(a, theirs):
                why = DIFFERENCES.get((op["gegl"], a["name"], what))
                (notes if why else unknown).append(
                    "%s: %s %s, gegl:%s's %s%s"
                    % (a["name"], what, mine, op["gegl"], their,
                       " (%s)" % why if why else ""))
        mine = {a["name"] for a in op["args"]}
        for prop in sorted(set(gp) - mine):
            why = GEGL_ONLY.get((op["gegl"], prop))
            (notes if why else unknown).append(
                "gegl:%s's %s: not an argument%s"
                % (op["gegl"], prop, " (%s)" % why if why else ""))
        for line in notes:
            print("# allowed: %s: %s" % (name, line))
        ok(not unknown, "%s: arguments as gegl:%s's properties of the same "
           "names, ranges and defaults (%d allowed differences, printed)%s"
           % (name, op["gegl"], len(notes),
              "; not allowed: " + "; ".join(unknown) if unknown else ""))
    r = runs.get(name, {})
    values = " ".join("%s=%s" % (a["name"], a["value"]) for a in op["args"]
                      if not a["plugin_only"])
    ok(r.get("same_bytes") and r.get("changed") and op["engine_takes_values"],
       "%s: run with %s, the same bytes as %s with %s=%s (%s s)%s"
       % (name, values or "its defaults", op["family_procedure"],
          op["variant_arg"], op["variant"], r.get("seconds"),
          "" if r.get("same_bytes") and r.get("changed")
          else "; same bytes %s, changed %s, status %s and %s %s"
          % (r.get("same_bytes"), r.get("changed"),
             r.get("operator", {}).get("status"),
             r.get("family", {}).get("status"),
             r.get("operator", {}).get("error") or
             r.get("family", {}).get("error") or "")))

sys.exit(1 if gegltap.failed else 0)
