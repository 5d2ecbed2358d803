#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# run-gegl-tool-test.sh MODULE OUTDIR IMAGE PLUGIN TABLE -- the GEGL module's clfx:
# operations in GIMP's own interactive filter tool: a real GIMP 3 under
# Xvfb, the module in the user's GEGL folder, Tools > GEGL Operation
# opened on the image, clfx:gaussian picked in its list, the on-canvas
# preview screenshot (OUTDIR/gegl-tool-preview.png), OK pressed; then the
# plug-in's entry for the operator in GIMP's Filters > Blur menu
# (gegl-tool-menu.png), whose OK adds the operation as a layer filter; and
# every operator's entry (TABLE: operator-table) opens its dialog.  TAP on
# stdout.  GIMP's widgets are driven through AT-SPI (gegl-tool.py): the
# tool's list of operations can only be searched by name that way.
#
# Fails when the tool's dialog or the operation is not there, when the
# preview did not run the operation inside GIMP's process or its result
# differs from the CPU reference (the operation's own validation,
# reported in its JSON report), when the canvas does not change to the
# blurred image, when OK does not apply it, or when the module warned or
# GIMP went down.
set -u

MODULE=$1
OUTDIR=$2
IMAGE=$3
PLUGIN=$4
TABLE=$5
HERE=$(dirname "$0")

. "$HERE/ui-lib.sh"
ui_start gegl-tool dbus-launch python3
python3 -c 'import gi; gi.require_version("Atspi", "2.0")' 2>/dev/null ||
  skip_or_fail "AT-SPI's Python bindings (gir1.2-atspi-2.0) are missing"
[ -x /usr/libexec/at-spi-bus-launcher ] ||
  skip_or_fail "at-spi2-core (the accessibility bus) is missing"

LOG=$OUTDIR/gimp-gegl-tool.log
# The module's account of each run it makes.
export G_MESSAGES_DEBUG=clfx
mkdir -p "$OUTDIR"
rm -f "$OUTDIR"/gegl-tool-*.png
# The user's GEGL folder under the private HOME, where GIMP finds it.
"$HERE/../../tools/install-plugin.sh" --gegl "$MODULE"
mkdir -p "$GIMP3_DIRECTORY/plug-ins"
"$HERE/../../tools/install-plugin.sh" "$PLUGIN" "$GIMP3_DIRECTORY/plug-ins"
# A session bus of our own: GTK's accessibility bridge in GIMP finds the
# accessibility bus through it (the bus launcher starts on demand).
eval "$(dbus-launch --sh-syntax 2>>"$WORK/dbus.log")"
BUS_PID=${DBUS_SESSION_BUS_PID:-}
[ -n "$BUS_PID" ] || skip_or_fail "dbus-launch gave no session bus"
unset NO_AT_BRIDGE

cat > "$WORK/load.scm" <<SCM
(script-fu-use-v3)
(gimp-display-new (gimp-file-load RUN-NONINTERACTIVE "$IMAGE"))
SCM
gimp-3.0 -n --no-splash --batch-interpreter=plug-in-script-fu-eval \
  -b "(load \"$WORK/load.scm\")" >"$LOG" 2>&1 &
GIMP_PID=$!

echo "1..10"
FAILED=0
say ()  # say OK? NUMBER DESCRIPTION
{
  if [ "$1" = 0 ]; then
    echo "ok $2 - $3"
  else
    echo "not ok $2 - $3"
    FAILED=1
  fi
}
driver ()  # driver ARGS...: gegl-tool.py, its output in the TAP stream
{
  python3 "$HERE/gegl-tool.py" "$@" >"$WORK/driver.log" 2>&1
  rc=$?
  sed 's/^/# /' "$WORK/driver.log"
  return $rc
}
runs ()  # how many runs of clfx:gaussian the module has made
{
  grep -ac 'clfx:gaussian: read' "$LOG"
}
wait_runs_past ()  # wait_runs_past N: until the module has made more than
{                  # N runs (30 s at most); status 0 if it has
  for i in $(seq 60); do
    [ "$(runs)" -gt "$1" ] && return 0
    sleep 0.5
  done
  return 1
}

# The image window's title ends with its size and "GIMP".
IMGWIN=$(find_window '[0-9]+x[0-9]+ .+ GIMP$' 150)
if [ -z "$IMGWIN" ]; then
  say 1 1 "the image window appeared"
  sed 's/^/# /' "$LOG"
  echo "Bail out! no image window"
  exit 1
fi
say 0 1 "the image window appeared (window $IMGWIN)"
# A fresh profile still shows the welcome dialog over the canvas.
W=$(find_window '^Welcome to GIMP' 10)
[ -n "$W" ] && xdotool windowactivate --sync "$W" key Escape 2>/dev/null
xdotool windowactivate --sync "$IMGWIN" 2>/dev/null
xdotool mousemove 1390 990

driver menu Tools "GEGL Operation..."
say $? 2 "Tools > GEGL Operation opened its dialog on the image"
# The dialog to the right, off the canvas.
DLG=$(find_window '^GEGL Operation$' 20)
[ -n "$DLG" ] && xdotool windowmove "$DLG" 960 0
sleep 2
import -window root "$WORK/before.png" 2>>"$WORK/import.log"

driver pick clfx:gaussian &&
  driver check Validate &&
  driver entry "Report file" "$WORK/gaussian.json"
say $? 3 "clfx:gaussian picked in the tool's list; Validate on, a report file set"

# The preview's run with validation on writes the report: the operation
# ran in GIMP's process and matched its CPU reference.
for i in $(seq 120); do
  grep -q '"passed"' "$WORK/gaussian.json" 2>/dev/null && break
  sleep 0.5
done
sleep 2
if python3 - "$WORK/gaussian.json" <<'PY' >"$WORK/check.log" 2>&1
import json, sys
r = json.load(open(sys.argv[1]))
p = r["parameters"]
assert p["in-process"] == "gegl", p
# The tool's defaults are the operation's: GEGL's std-dev 1.5.
assert (r["operation"], r["variant"], p["std-dev-x"], p["validate"]) == (
    "filter", "gaussian", 1.5, True), (r["variant"], p)
v = r["validation"]
im = r["image"]
assert v and v["passed"] and v["pixels"] == im["width"] * im["height"], v
print("%s: %d pixels, max error %.3g" % (r["device"]["name"], v["pixels"],
                                         v["max_abs"]))
PY
then
  say 0 4 "the on-canvas preview ran clfx:gaussian in GIMP's process, validated ($(head -c 160 "$WORK/check.log"))"
else
  say 1 4 "the on-canvas preview ran clfx:gaussian in GIMP's process, validated"
  sed 's/^/# /' "$WORK/check.log"
fi

if import -window root "$OUTDIR/gegl-tool-preview.png" 2>>"$WORK/import.log"; then
  say 0 5 "screenshot $OUTDIR/gegl-tool-preview.png"
else
  say 1 5 "screenshot gegl-tool-preview.png"
fi

# The canvas shows the blur: where the screen changed inside the image
# window (left of the moved dialog), the picture lost detail.
GEOM=$(xdotool getwindowgeometry --shell "$IMGWIN" 2>/dev/null)
if python3 - "$WORK/before.png" "$OUTDIR/gegl-tool-preview.png" \
     "$GEOM" <<'PY' >"$WORK/check.log" 2>&1
import sys
import cv2
import numpy as np
g = dict(l.split("=") for l in sys.argv[3].split())
x, y, w, h = (int(g[k]) for k in ("X", "Y", "WIDTH", "HEIGHT"))
a = cv2.imread(sys.argv[1], cv2.IMREAD_GRAYSCALE).astype(np.float32)
b = cv2.imread(sys.argv[2], cv2.IMREAD_GRAYSCALE).astype(np.float32)
x1 = min(x + w, 960)
a, b = a[y:y + h, x:x1], b[y:y + h, x:x1]
changed = np.abs(a - b) > 8
n = int(changed.sum())
ys, xs = np.nonzero(changed)
assert n >= 20000, "only %d pixels of the canvas changed" % n
box = (slice(ys.min(), ys.max() + 1), slice(xs.min(), xs.max() + 1))
da = np.abs(cv2.Laplacian(a[box], cv2.CV_32F)).mean()
db = np.abs(cv2.Laplacian(b[box], cv2.CV_32F)).mean()
print("%d pixels changed; detail (mean |Laplacian|) %.2f -> %.2f"
      % (n, da, db))
assert db < 0.8 * da, (da, db)
PY
then
  say 0 6 "the canvas shows the blurred preview ($(cat "$WORK/check.log"))"
else
  say 1 6 "the canvas shows the blurred preview"
  sed 's/^/# /' "$WORK/check.log"
fi

before=$(runs)
driver press OK
wait_runs_past "$before"
sleep 1
if [ "$(runs)" -gt "$before" ] && [ -z "$(xdotool search --name '^GEGL Operation$' 2>/dev/null)" ]; then
  say 0 7 "OK applied clfx:gaussian to the layer and closed the tool's dialog"
else
  say 1 7 "OK applied clfx:gaussian to the layer and closed the tool's dialog ($before runs before, $(runs) after)"
fi

# The operator's menu entry beside GEGL's Gaussian Blur is the plug-in's
# procedure (the module has none of its own): its dialog opens there
# with its preview, and OK adds the module's operation to the layer as a
# non-destructive filter, which GIMP renders in its own process.
before=$(runs)
driver open Filters Blur "Gaussian Blur (OpenCL)..."
PDLG=$(find_window '^Gaussian Blur \(OpenCL\)$' 120)
if [ -n "$PDLG" ]; then
  # Its first preview (the plug-in's own run), then OK.
  for i in $(seq 120); do
    grep -aq 'preview: shown' "$LOG" && break
    sleep 0.5
  done
  import -window root "$OUTDIR/gegl-tool-menu.png" 2>>"$WORK/import.log"
  xdotool windowactivate --sync "$PDLG" 2>/dev/null
  xdotool key alt+o
  wait_runs_past "$before"
else
  false
fi
say $? 9 "Filters > Blur > Gaussian Blur (OpenCL)... opens the plug-in's dialog; OK adds clfx:gaussian, rendered in GIMP's process ($(runs) runs)"

# Every operator's entry, from the family table, where a user finds it:
# its menu item opens its dialog (Escape cancels it).
"$TABLE" | python3 -c '
import json, sys
for o in json.load(sys.stdin):
    print("|".join(o["menu_path"].split("/")[1:] + [o["label"]]))
' > "$WORK/menus"
opened=0 total=0 missed=
while IFS= read -r line; do
  total=$((total + 1))
  label=${line##*|}
  title=$(printf '%s' "${label%...}" | sed 's/[()]/\\&/g')
  old_ifs=$IFS; IFS='|'; set -- $line; IFS=$old_ifs
  driver open "$@" </dev/null
  W=$(find_window "^$title\$" 60)
  if [ -n "$W" ]; then
    opened=$((opened + 1))
    xdotool windowactivate --sync "$W" key Escape 2>/dev/null
    for i in $(seq 60); do
      [ -z "$(xdotool search --name "^$title\$" 2>/dev/null)" ] && break
      sleep 0.5
    done
  else
    missed="$missed '$label'"
  fi
done < "$WORK/menus"
[ "$opened" = "$total" ] && [ "$total" -ge 13 ]
say $? 10 "every operator's menu entry opens its dialog ($opened of $total${missed:+; not:$missed})"

# GTK's accessibility bridge prints CRITICALs of its own (Gdk, Gtk, Atk)
# when dialogs go away under it: not ours, so only the module's domain
# and crashes count.
if kill -0 "$GIMP_PID" 2>/dev/null &&
   ! grep -aE "clfx-(WARNING|CRITICAL)|Plug-in crashed|GIMP crashed" "$LOG" >/dev/null; then
  say 0 8 "GIMP still runs; no warning from the module, no crash"
else
  say 1 8 "GIMP still runs; no warning from the module, no crash"
fi
sed 's/^/# /' "$LOG"
exit $FAILED
