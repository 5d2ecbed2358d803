#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# run-ui-test.sh PLUGIN OUTDIR IMAGE CLFX_BENCH -- open the clfx dialog in
# a real GIMP 3 under Xvfb, screenshot both tabs and the sampler rule,
# press OK.  TAP on stdout.  Fails when the dialog never appears, when it
# does not take keys while its first kernels build (cold caches), when
# the filter's 1:1 preview differs from the CPU reference on the same
# pixels, when a 1:1 preview runs twice with nothing changed, or
# when GIMP's output has a CRITICAL or a plug-in crash.
set -u

PLUGIN=$1
OUTDIR=$2
IMAGE=$3
BENCH=$4

. "$(dirname "$0")/ui-lib.sh"
ui_start ui-test
LOG=$OUTDIR/gimp-ui.log
# Cold caches (ui_start's, under the fresh HOME): the first preview
# builds its kernels, seconds on PoCL, on the dialog's worker thread while
# the dialog goes on taking keys.
# The order of the dialog's debug lines shows what ran when.
# What the 1:1 previews showed (<family>.pam).
ui_dialog_env
mkdir -p "$GIMP3_DIRECTORY/plug-ins/clfx" "$OUTDIR"
"$(dirname "$0")/../../tools/install-plugin.sh" "$PLUGIN" \
  "$GIMP3_DIRECTORY/plug-ins"
rm -f "$OUTDIR"/ui-*.png

cat > "$WORK/ui.scm" <<SCM
(script-fu-use-v3)
(define (save text path)
  (let ((port (open-output-file path)))
    (display text port)
    (close-output-port port)))
(let* ((img (gimp-file-load RUN-NONINTERACTIVE "$IMAGE"))
       (drw (vector-ref (gimp-image-get-selected-drawables img) 0)))
  (gimp-display-new img)
  ; The test drives this dialog and presses OK: the report must carry the
  ; dialog's values.
  (save (catch "cancelled or failed"
          (plug-in-clfx-resize #:run-mode RUN-INTERACTIVE #:image img
                               #:drawables (vector drw) #:width 640
                               #:height 360 #:zoom-x 0.6 #:zoom-y 0.6
                               #:addressing "mirrored-repeat"
                               #:filter "linear"))
        "$WORK/interactive.json")
  ; With last values the arguments passed here are overridden by the
  ; values of the dialog run above.
  (save (catch "failed"
          (plug-in-clfx-resize #:run-mode RUN-WITH-LAST-VALS #:image img
                               #:drawables (gimp-image-get-selected-drawables img)
                               #:width 10 #:height 10))
        "$WORK/last-vals.json")
  ; A shadow-kind family's dialog: the filter with sobel chosen by the
  ; call, OK pressed by the test.  The image it previews, for the check
  ; of its 1:1 preview.
  ; The drawable alone (the resize left it smaller than the canvas): its
  ; edges are the filter's.
  (let ((dup (gimp-image-duplicate img)))
    (gimp-image-resize-to-layers dup)
    (gimp-file-save RUN-NONINTERACTIVE dup "$WORK/before-filter.png" -1)
    (gimp-image-delete dup))
  (save (catch "cancelled or failed"
          (plug-in-clfx-filter #:run-mode RUN-INTERACTIVE #:image img
                               #:drawables (gimp-image-get-selected-drawables img)
                               #:filter "sobel" #:vertical #f))
        "$WORK/filter.json")
  ; The tonemap family's dialog: durand02 with the sampler's trilinear
  ; filter chosen by the call, OK pressed by the test.
  (save (catch "cancelled or failed"
          (plug-in-clfx-tonemap #:run-mode RUN-INTERACTIVE #:image img
                                #:drawables (gimp-image-get-selected-drawables img)
                                #:operator "durand02" #:detail 1.5
                                #:sampler-filter "linear"))
        "$WORK/tonemap.json")
  ; A variant's own procedure: the unsharp mask with GEGL's argument
  ; names, its dialog showing its own rows only, OK pressed by the test.
  (save (catch "cancelled or failed"
          (plug-in-clfx-unsharp-mask #:run-mode RUN-INTERACTIVE #:image img
                                     #:drawables (gimp-image-get-selected-drawables img)
                                     #:std-dev 2.0 #:scale 1.5))
        "$WORK/unsharp.json"))
SCM

gimp-3.0 -n --no-splash --batch-interpreter=plug-in-script-fu-eval \
  -b "(load \"$WORK/ui.scm\")" >"$LOG" 2>&1 &
GIMP_PID=$!

echo "1..21"
WIN=$(find_window '^Resize \(OpenCL\)$' 150)
if [ -z "$WIN" ]; then
  echo "not ok 1 - the dialog appeared"
  sed 's/^/# /' "$LOG"
  echo "Bail out! the dialog never appeared"
  exit 1
fi
echo "ok 1 - the dialog appeared (window $WIN)"

shot ()
{
  # Keep the pointer off the dialog: tooltips capture as black boxes.
  xdotool mousemove 1390 990
  sleep "$2"
  if import -window "$WIN" "$OUTDIR/$1" 2>>"$WORK/import.log"; then
    echo "ok $3 - screenshot $OUTDIR/$1"
  else
    echo "not ok $3 - screenshot $1"
    FAILED=1
  fi
}

FAILED=0
# Keys go to the focused window through XTEST (a synthetic event sent
# to a window with --window is not always honoured).  Diagnostics at
# once, while the first preview builds its kernels: the tab must open
# before that build is done.
xdotool windowactivate --sync "$WIN" 2>/dev/null
xdotool key alt+d
shot ui-diagnostics.png 10 2
# Back to Settings.
xdotool key alt+e
shot ui-settings.png 2 3
# Turn normalized coordinates off: the spec forbids mirrored-repeat then,
# so the note shows and OK goes insensitive.
xdotool key alt+n
shot ui-sampler-rule.png 1 4
# Normalized coordinates back on, then OK: the resize runs.
xdotool key alt+n
sleep 2
xdotool key alt+o
wait_for_file "$WORK/last-vals.json" 120
sleep 1

# The filter's dialog, then OK.
WIN=$(find_window '^Filter \(OpenCL\)$' 120)
if [ -n "$WIN" ]; then
  echo "ok 5 - the filter's dialog appeared (window $WIN)"
  xdotool windowactivate --sync "$WIN" 2>/dev/null
  shot ui-filter.png 5 6
  # The first preview builds its kernels (cold caches): on a busy machine
  # that can outlast the screenshot's wait; check 17 needs its picture.
  wait_for_file "$PREVIEWS/filter.pam" 120
  xdotool key alt+o
  wait_for_file "$WORK/filter.json" 120
else
  echo "not ok 5 - the filter's dialog appeared"
  echo "not ok 6 - screenshot ui-filter.png"
  FAILED=1
fi

# The tone mapper's dialog, then OK.
WIN=$(find_window '^Tone Map \(OpenCL\)$' 120)
if [ -n "$WIN" ]; then
  echo "ok 13 - the tone mapper's dialog appeared (window $WIN)"
  xdotool windowactivate --sync "$WIN" 2>/dev/null
  shot ui-tonemap.png 5 14
  # Its Diagnostics: the run's log-luminance histograms, before and after,
  # drawn under the timings (no CRITICAL on the way: test 10).
  xdotool key alt+d
  sleep 15
  # Scrolled down to the plot (the wheel over the page).
  xdotool mousemove --window "$WIN" 500 500 click --repeat 12 5
  shot ui-tonemap-diagnostics.png 2 16
  xdotool key alt+e
  sleep 1
  xdotool key alt+o
  wait_for_file "$WORK/tonemap.json" 120
else
  echo "not ok 13 - the tone mapper's dialog appeared"
  echo "not ok 14 - screenshot ui-tonemap.png"
  echo "not ok 16 - screenshot ui-tonemap-diagnostics.png"
  FAILED=1
fi

# A variant's own dialog, then OK.
WIN=$(find_window '^Sharpen \(Unsharp Mask\) \(OpenCL\)$' 120)
if [ -n "$WIN" ]; then
  echo "ok 19 - the unsharp mask's own dialog appeared (window $WIN)"
  xdotool windowactivate --sync "$WIN" 2>/dev/null
  shot ui-unsharp.png 5 20
  xdotool key alt+o
  wait_for_file "$WORK/unsharp.json" 120
else
  echo "not ok 19 - the unsharp mask's own dialog appeared"
  echo "not ok 20 - screenshot ui-unsharp.png"
  FAILED=1
fi

check_report ()  # check_report FILE NUMBER DESCRIPTION
{
  if python3 - "$1" <<'PY' 2>"$WORK/check.log"
import json, sys
p = json.load(open(sys.argv[1]))["parameters"]
assert (p["width"], p["height"], p["zoom-x"], p["addressing"],
        p["normalized-coords"]) == (640, 360, 0.6, "mirrored-repeat", True), p
PY
  then
    echo "ok $2 - $3"
  else
    echo "not ok $2 - $3"
    sed 's/^/# /' "$WORK/check.log" "$1" 2>/dev/null
    FAILED=1
  fi
}
check_report "$WORK/interactive.json" 7 \
  "OK ran the resize with the dialog's values (report)"
check_report "$WORK/last-vals.json" 8 \
  "RUN-WITH-LAST-VALS reused the dialog's values, not the arguments passed"

if python3 - "$WORK/filter.json" <<'PY' 2>"$WORK/check.log"
import json, sys
r = json.load(open(sys.argv[1]))
p = r["parameters"]
assert r["operation"] == "filter" and r["variant"] == "sobel", r["variant"]
assert (p["filter"], p["vertical"], p["horizontal"]) == ("sobel", False,
                                                         True), p
PY
then
  echo "ok 9 - OK ran the filter with the dialog's values (report)"
else
  echo "not ok 9 - OK ran the filter with the dialog's values (report)"
  sed 's/^/# /' "$WORK/check.log" "$WORK/filter.json" 2>/dev/null
  FAILED=1
fi

if python3 - "$WORK/tonemap.json" <<'PY' 2>"$WORK/check.log"
import json, sys
r = json.load(open(sys.argv[1]))
p = r["parameters"]
assert r["operation"] == "tonemap" and r["variant"] == "durand02", r
assert (p["operator"], p["detail"], p["sampler-filter"]) == (
    "durand02", 1.5, "linear"), p
assert r["validation"] is None or r["validation"]["passed"], r["validation"]
PY
then
  echo "ok 15 - OK ran the tone mapper with the dialog's values (report)"
else
  echo "not ok 15 - OK ran the tone mapper with the dialog's values (report)"
  sed 's/^/# /' "$WORK/check.log" "$WORK/tonemap.json" 2>/dev/null
  FAILED=1
fi

# The rows each dialog showed (its debug line): the family's dialogs only
# the chosen variant's (the others hidden, not greyed out), the unsharp
# mask's own dialog its own under GEGL's names; and the values OK ran.
if python3 - "$WORK/unsharp.json" "$LOG" <<'PY' 2>"$WORK/check.log"
import json, re, sys
r = json.load(open(sys.argv[1]))
p = r["parameters"]
assert r["operation"] == "filter" and r["variant"] == "unsharp", r
assert (p["std-dev"], p["amount"]) == (2.0, 1.5), p
# No module here: Merge filter was forced, the plug-in's engine applied it.
assert str(p["in-process"]).lower() == "false", p
assert str(p["non-destructive"]).lower() == "false", p
shown = {}
for line in open(sys.argv[2], errors="replace"):
    m = re.search(r"(plug-in-clfx-[a-z0-9-]+): rows shown: (.*)$", line)
    if m:
        shown[m.group(1)] = m.group(2).split()
gimp = ["in-process", "non-destructive"]
want = {
    "plug-in-clfx-filter": ["filter", "horizontal", "vertical",
                            "keep-sign", "addressing"] + gimp,
    "plug-in-clfx-tonemap": ["operator", "exposure", "contrast", "detail",
                             "spatial-sigma", "range-sigma",
                             "sampler-filter"] + gimp,
    # A variant's own dialog: GIMP's "Merge filter" in their place.
    "plug-in-clfx-unsharp-mask": ["std-dev", "scale", "threshold",
                                  "addressing", "merge-filter"],
}
for proc, rows in want.items():
    assert shown.get(proc) == rows, (proc, shown.get(proc), rows)
PY
then
  echo "ok 21 - each dialog showed only its variant's rows; the unsharp mask's own ran with its dialog's values, merged (no module)"
else
  echo "not ok 21 - each dialog showed only its variant's rows; the unsharp mask's own ran with its dialog's values"
  sed 's/^/# /' "$WORK/check.log" "$WORK/unsharp.json" 2>/dev/null
  FAILED=1
fi

# The filter's preview shows the drawable at 1:1: the picture it showed
# (sobel, horizontal only) equals the CPU reference's result on the same
# image at the same place, within one code (colour weighed by alpha).
"$BENCH" --device reference --input "$WORK/before-filter.png" \
  --output "$WORK/sobel-ref.png" \
  filter --filter sobel --vertical false >"$WORK/bench.log" 2>&1
if python3 - "$PREVIEWS/filter.pam" "$WORK/sobel-ref.png" \
     <<'PY' >"$WORK/check.log" 2>&1
import sys
from previewlib import read_pam, read_rgba, shown_difference
shown, (vx, vy) = read_pam(sys.argv[1])
h, w, d = shown.shape
full = read_rgba(sys.argv[2])
ref = full[vy:vy + h, vx:vx + w]
assert d == 4 and ref.shape == shown.shape, (d, ref.shape, shown.shape)
# The drawable is larger than the view: a 1:1 view of part of it.
assert (w < full.shape[1] or h < full.shape[0]) and w >= 400 and h >= 300, \
    (w, h, full.shape)
da, dc, where = shown_difference(shown, ref)
print("view %d,%d %dx%d: max alpha diff %d, colour x alpha %.2f at %s"
      % (vx, vy, w, h, da, dc, where))
assert da <= 1 and dc <= 1.01, (da, dc)
PY
then
  echo "ok 17 - the filter's preview is 1:1 and equals the reference there ($(tail -1 "$WORK/check.log"))"
else
  echo "not ok 17 - the filter's preview is 1:1 and equals the reference there"
  sed 's/^/# /' "$WORK/check.log" "$WORK/bench.log"
  # Kept for a look: what the preview showed, the reference, the input.
  cp "$PREVIEWS/filter.pam" "$WORK/sobel-ref.png" "$WORK/before-filter.png" \
    "$OUTDIR/" 2>/dev/null
  FAILED=1
fi

if grep -E "CRITICAL|Plug-in crashed" "$LOG" >/dev/null; then
  echo "not ok 10 - GIMP's output has no CRITICAL and no plug-in crash"
  FAILED=1
else
  echo "ok 10 - GIMP's output has no CRITICAL and no plug-in crash"
fi

# Line numbers of the dialog's first debug lines of each kind.
first () { grep -an "$1" "$LOG" | head -1 | cut -d: -f1; }
shown=$(first 'preview: shown')
tab=$(first 'the Diagnostics tab is shown')
# A dialog whose Diagnostics run built the kernels first shows its preview
# without building: the check is that some dialog's preview said it was
# building and then, in the same process, showed.
built_then_shown=$(awk '/preview: building OpenCL kernels/ { b[$1] = 1 }
                        /preview: shown/ && b[$1] { print "yes"; exit }' "$LOG")
if [ "$built_then_shown" = yes ]; then
  echo "ok 11 - the preview said it was building OpenCL kernels, then showed"
else
  echo "not ok 11 - the preview said it was building OpenCL kernels, then showed"
  FAILED=1
fi
if [ -n "$tab" ] && [ -n "$shown" ] && [ "$tab" -lt "$shown" ]; then
  echo "ok 12 - the dialog took keys (Diagnostics opened) while the kernels built"
else
  echo "not ok 12 - the dialog took keys (Diagnostics opened) while the kernels built"
  FAILED=1
fi
# The 1:1 previews (filter, tone map): no value changes here, so a dialog
# asks for a run only when its view changes (GimpDrawablePreview may
# settle its size after the first request).  Its repeated "invalidated"
# while a dialog opens must not run the same view again (it ran 4 times).
runs=$(awk 'match ($0, /preview: run [0-9]+ asked for \(view [^)]*\)/) {
              key = $1 " " substr ($0, index ($0, "(view"))
              n++; if (seen[key]++) dup = dup " " key }
            END { printf "%d|%s", n, dup }' "$LOG")
if [ "${runs%%|*}" -gt 0 ] && [ -z "${runs#*|}" ]; then
  echo "ok 18 - no 1:1 preview ran twice for the same view (${runs%%|*} runs)"
else
  echo "not ok 18 - no 1:1 preview ran twice for the same view (${runs%%|*} runs; again:${runs#*|})"
  FAILED=1
fi
sed 's/^/# /' "$LOG"
exit $FAILED
