#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""gegl-tool.py: drive GIMP's filter tools through AT-SPI.

  gegl-tool.py [--dialog TITLE] COMMAND
    menu MENU... ITEM       activate a menu item of the image window, e.g.
                            menu Tools "GEGL Operation...", and wait for
                            GIMP's dialog of that name
    open MENU... ITEM       the same, without waiting (a plug-in's dialog)
    pick OPERATION          pick OPERATION (e.g. clfx:gaussian) in the
                            GEGL Operation tool's list of operations
    check LABEL             tick the check box LABEL
    entry LABEL TEXT        type TEXT into the entry after LABEL
    press BUTTON            press the button BUTTON (OK, Cancel)
    dump                    print the dialog's accessible tree
  The dialog is the filter tool's whose title starts with TITLE
  (default "GEGL Operation").

The operation list is a plain GtkComboBox of about a hundred entries
sorted by title: keys or clicks could only pick one by its place in the
list, which changes with every GEGL and GIMP release.  GTK names each
entry of the combo box's menu by its text, "Title (name)", so the entry
is found by the operation's name and chosen through the combo box's
AT-SPI selection (which sets it active, as a click would).  Exit status
0 on success, 1 with a message on stderr otherwise.
"""
import sys
import time

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi, GLib  # noqa: E402


def children(acc):
    try:
        n = acc.get_child_count()
    except GLib.Error:
        return []
    out = []
    for i in range(n):
        try:
            c = acc.get_child_at_index(i)
        except GLib.Error:
            continue
        if c is not None:
            out.append(c)
    return out


def find(acc, pred, depth=12):
    """The first descendant (breadth first) for which pred holds."""
    level = [acc]
    for _ in range(depth):
        nxt = []
        for a in level:
            for c in children(a):
                try:
                    if pred(c):
                        return c
                except GLib.Error:
                    pass
                nxt.append(c)
        level = nxt
    return None


def wait_for(what, fn, timeout=60.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        r = fn()
        if r is not None:
            return r
        time.sleep(0.5)
    sys.exit("gegl-tool.py: %s: not found in %.0f s" % (what, timeout))


def gimp():
    desktop = Atspi.get_desktop(0)
    for app in children(desktop):
        if (app.get_name() or "").startswith("gimp"):
            return app
    return None


def role_name(role, name):
    return lambda a: a.get_role() == role and a.get_name() == name


DIALOG = "GEGL Operation"


def tool_dialog(app):
    """The filter tool's dialog (its title: the tool's or filter's)."""
    return find(app, lambda a: a.get_role() in (Atspi.Role.DIALOG,
                                                Atspi.Role.FRAME)
                and (a.get_name() or "").startswith(DIALOG), depth=1)


def the_dialog():
    return wait_for("the %s dialog" % DIALOG,
                    lambda: tool_dialog(wait_for("GIMP", gimp)))


def menu(path):
    """Activates MENU > ... > ITEM, as a user picks it in the menu bar."""
    app = wait_for("GIMP on the accessibility bus", gimp)
    m = wait_for("the %s menu" % path[0],
                 lambda: find(app, role_name(Atspi.Role.MENU, path[0])))
    for sub in path[1:-1]:
        m = wait_for("the %s menu" % sub,
                     lambda: find(m, role_name(Atspi.Role.MENU, sub), 2))
    item = wait_for(" > ".join(path), lambda: find(
        m, role_name(Atspi.Role.MENU_ITEM, path[-1]), depth=2))
    item.do_action(0)
    print("activated %s" % " > ".join(path))


def pick(op):
    dialog = the_dialog()
    combo = wait_for("the operation list", lambda: find(
        dialog, lambda a: a.get_role() == Atspi.Role.COMBO_BOX))
    menu = wait_for("the operation list's entries", lambda: find(
        combo, lambda a: a.get_role() == Atspi.Role.MENU, depth=1))
    # Each entry reads "Title (name)".
    names = [c.get_name() or "" for c in children(menu)]
    hits = [i for i, n in enumerate(names) if n.endswith("(%s)" % op)]
    if len(hits) != 1:
        sys.exit("gegl-tool.py: %s is %d times in GIMP's list of %d "
                 "operations (first: %s)"
                 % (op, len(hits), len(names), ", ".join(names[:5])))
    combo.select_child(hits[0])
    print("picked %s, entry %d of %d" % (names[hits[0]], hits[0] + 1,
                                         len(names)))


def check(label):
    """Ticks the operation's check box LABEL (a boolean property)."""
    box = wait_for("the check box %s" % label, lambda: find(
        the_dialog(), role_name(Atspi.Role.CHECK_BOX, label)))
    if not box.get_state_set().contains(Atspi.StateType.CHECKED):
        box.do_action(0)
    print("ticked %s" % label)


def entry(label, text):
    """Types TEXT into the text entry that follows the label LABEL."""
    def after_label():
        lab = find(the_dialog(), role_name(Atspi.Role.LABEL, label))
        if lab is None:
            return None
        sib = children(lab.get_parent())
        for c in sib[sib.index(lab) + 1:] if lab in sib else []:
            if c.get_role() in (Atspi.Role.TEXT, Atspi.Role.ENTRY):
                return c
        return None
    e = wait_for("the entry after %s" % label, after_label)
    Atspi.EditableText.set_text_contents(e, text)
    print("%s = %s" % (label, Atspi.Text.get_text(e, 0, -1)))


def dump(acc, indent=0, depth=8):
    """The dialog's accessible tree, for a failure's log."""
    try:
        text = ""
        if acc.get_role() in (Atspi.Role.TEXT, Atspi.Role.ENTRY):
            text = " = %r" % Atspi.Text.get_text(acc, 0, -1)
        print("%s%s %r%s" % ("  " * indent, acc.get_role_name(),
                             acc.get_name(), text))
    except GLib.Error:
        return
    if depth:
        for c in children(acc):
            dump(c, indent + 1, depth - 1)


def press(label):
    button = wait_for("its %s button" % label, lambda: find(
        the_dialog(), role_name(Atspi.Role.PUSH_BUTTON, label)))
    button.do_action(0)
    print("pressed %s" % label)


if __name__ == "__main__":
    cmd = sys.argv[1:]
    if len(cmd) >= 2 and cmd[0] == "--dialog":
        DIALOG = cmd[1]
        cmd = cmd[2:]
    if len(cmd) >= 3 and cmd[0] == "menu":
        menu(cmd[1:])
        the_dialog()
    elif len(cmd) >= 3 and cmd[0] == "open":
        # A plug-in's entry: its dialog is another process's window.
        menu(cmd[1:])
    elif len(cmd) == 2 and cmd[0] == "pick":
        pick(cmd[1])
    elif len(cmd) == 2 and cmd[0] == "check":
        check(cmd[1])
    elif len(cmd) == 3 and cmd[0] == "entry":
        entry(cmd[1], cmd[2])
    elif len(cmd) == 2 and cmd[0] == "press":
        press(cmd[1])
    elif cmd == ["dump"]:
        dump(the_dialog())
    else:
        sys.exit(__doc__)
