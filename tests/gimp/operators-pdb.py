# SPDX-License-Identifier: GPL-3.0-or-later
# operators-pdb.py: run by GIMP's Python-Fu (python-fu-eval) for
# run-operator-tests.sh, inside one gimp-console.  The driver defines
# clfx_table (operator-table's JSON), clfx_input (a small PNG) and
# clfx_out (where to write what was found) before exec'ing this file.
#
# Writes clfx_out as JSON: every plug-in-clfx-* procedure of the PDB with
# its menu paths, menu label and arguments (name, type, range, default,
# choices); and for each operator of the table, its procedure run once
# non-interactively with the table's values and the family's procedure
# with the same values, with whether the two results are the same bytes.
import json
import time
import traceback


def arg_info(pspec):
    """The PDB argument as plain data."""
    t = pspec.value_type
    info = {"name": pspec.name}
    if "Choice" in GObject.type_name(pspec.__gtype__):
        # GimpParamSpecChoice: a string holding one of its nicks.
        choice = Gimp.param_spec_choice_get_choice(pspec)
        info["type"] = "choice"
        info["choices"] = list(choice.list_nicks())
        info["default"] = Gimp.param_spec_choice_get_default(pspec)
    elif t == GObject.TYPE_INT or t == GObject.TYPE_DOUBLE:
        info["type"] = "int" if t == GObject.TYPE_INT else "double"
        info["min"] = pspec.minimum
        info["max"] = pspec.maximum
        info["default"] = pspec.default_value
    elif t == GObject.TYPE_BOOLEAN:
        info["type"] = "bool"
        info["default"] = pspec.default_value
    elif t == GObject.TYPE_STRING:
        info["type"] = "string"
        info["default"] = pspec.default_value
    else:
        info["type"] = GObject.type_name(t)
    return info


def describe(pdb, name):
    proc = pdb.lookup_procedure(name)
    return {"name": name,
            "menu_paths": list(proc.get_menu_paths()),
            "menu_label": proc.get_menu_label(),
            "blurb": proc.get_blurb(),
            "help": proc.get_help(),
            "args": [arg_info(p) for p in proc.get_arguments()],
            "values": [arg_info(p)["name"]
                       for p in proc.get_return_values()]}


def typed(arg, text):
    if arg["type"] == "int":
        return int(text)
    if arg["type"] == "double":
        return float(text)
    if arg["type"] == "bool":
        return text in ("true", "1", "yes")
    return text


def pixels(img):
    drw = img.get_selected_drawables()[0]
    w, h = drw.get_width(), drw.get_height()
    buf = drw.get_buffer()
    data = buf.get(Gegl.Rectangle.new(0, 0, w, h), 1.0, "R'G'B'A u8",
                   Gegl.AbyssPolicy.NONE)
    return bytes(data), w, h


def run(pdb, name, base, values, device):
    """name on a copy of base with values (argument name -> text); the
    result's pixels, or the error."""
    proc = pdb.lookup_procedure(name)
    specs = {a["name"]: a for a in
             (arg_info(p) for p in proc.get_arguments())}
    img = base.duplicate()
    config = proc.create_config()
    config.set_property("run-mode", Gimp.RunMode.NONINTERACTIVE)
    config.set_property("image", img)
    config.set_core_object_array("drawables", img.get_selected_drawables())
    for arg, text in values.items():
        config.set_property(arg, typed(specs[arg], text))
    config.set_property("device", device)
    result = proc.run(config)
    status = result.index(0)
    out = {"status": int(status)}
    if status == Gimp.PDBStatusType.SUCCESS:
        out["pixels"], out["w"], out["h"] = pixels(img)
        out["report"] = result.index(1)
    else:
        out["error"] = pdb.get_last_error()
    img.delete()
    return out


def main():
    pdb = Gimp.get_pdb()
    table = json.load(open(clfx_table))
    found = {}
    names = pdb.query_procedures("^plug-in-clfx-", "", "", "", "", "", "",
                                 "")
    for name in sorted(names):
        found[name] = describe(pdb, name)
    base = Gimp.file_load(Gimp.RunMode.NONINTERACTIVE,
                          Gio.File.new_for_path(clfx_input))
    runs = {}
    for op in table:
        if op["procedure"] not in found:
            continue
        mine = {a["name"]: a["value"] for a in op["args"]}
        family = {a["row"]: a["value"] for a in op["args"]}
        family[op["variant_arg"]] = op["variant"]
        t0 = time.time()
        a = run(pdb, op["procedure"], base, mine, clfx_device)
        t1 = time.time()
        b = run(pdb, op["family_procedure"], base, family, clfx_device)
        runs[op["procedure"]] = {
            "operator": {k: v for k, v in a.items() if k != "pixels"},
            "family": {k: v for k, v in b.items() if k != "pixels"},
            "same_bytes": "pixels" in a and a.get("pixels") == b.get("pixels"),
            "changed": "pixels" in a and a["pixels"] != pixels(base)[0],
            "seconds": round(t1 - t0, 3)}
    base.delete()
    json.dump({"procedures": found, "runs": runs}, open(clfx_out, "w"),
              indent=1)


try:
    main()
except Exception:
    with open(clfx_out + ".error", "w") as f:
        f.write(traceback.format_exc())
    raise
