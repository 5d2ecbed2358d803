#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# run-operators-ui-test.sh PLUGIN MODULE OUTDIR IMAGE TABLE COMPARE -- each
# operator's own dialog (plug-in-clfx-gaussian-blur, ...; the list is the
# family table's, from operator-table) in a real GIMP 3 under Xvfb with
# the GEGL module installed, as a user meets it: the dialog with GIMP's
# defaults, screenshot (OUTDIR/ui-op-VARIANT.png), OK pressed.  TAP on
# stdout.
#
# Fails when a dialog does not appear, is larger than a 1280x720 screen,
# shows a row its operator does not read or no "Merge filter", or a
# 1:1 preview smaller than 400x300; when OK did not leave exactly one
# non-destructive filter on the layer, named with the dialog's title and
# running the module's clfx: operation; when the filter, saved in an XCF,
# reopened and merged, differs by a code from the destructive result (the
# plug-in's engine on the same image); when the preview's whole image,
# zoomed out, is not the whole result scaled down; or when GIMP's output
# has a CRITICAL or a crash.  Logs open-to-first-preview times: gaussian first
# with cold caches, again at the end with warm ones.
set -u

PLUGIN=$1
MODULE=$2
OUTDIR=$3
IMAGE=$4
TABLE=$5
COMPARE=$6
HERE=$(dirname "$0")

. "$HERE/ui-lib.sh"
ui_start operators-ui python3
LOG=$OUTDIR/gimp-operators-ui.log
# What the previews showed (the whole drawable's, before it is scaled
# down: filter-gaussian-whole.pam).
ui_dialog_env
mkdir -p "$GIMP3_DIRECTORY/plug-ins" "$OUTDIR"
rm -f "$OUTDIR"/ui-op-*.png
"$HERE/../../tools/install-plugin.sh" "$PLUGIN" "$GIMP3_DIRECTORY/plug-ins"
"$HERE/../../tools/install-plugin.sh" --gegl "$MODULE"

# procedure|variant|title, gaussian first and last (cold, then warm).
"$TABLE" > "$WORK/table.json" || { echo "Bail out! operator-table failed"; exit 1; }
python3 - "$WORK/table.json" > "$WORK/ops" <<'PY'
import json, sys
ops = [(o["procedure"], o["variant"], o["label"].rstrip(".").rstrip("\u2026"))
       for o in json.load(open(sys.argv[1]))]
first = [o for o in ops if o[1] == "gaussian"]
ops = first + [o for o in ops if o[1] != "gaussian"] + first
for i, (proc, variant, title) in enumerate(ops):
    print("%s|%s|%s|%s" % (proc, variant if i < len(ops) - 1 else
                           variant + "-warm", title, i))
PY
N=$(wc -l < "$WORK/ops")

{
  cat <<SCM
(script-fu-use-v3)
(define (save text path)
  (let ((port (open-output-file path)))
    (display text port)
    (close-output-port port)))
(define (path name ext) (string-append "$WORK/" name ext))
(define (first-drawable img) (vector-ref (gimp-image-get-selected-drawables img) 0))
; After the dialog: what is on the layer (count, or name|operation), the
; XCF, reopened and merged; then the destructive result on a fresh copy.
(define (after-dialog name img drw run-destructive)
  (let* ((filters (gimp-drawable-get-filters drw))
         (n (vector-length filters)))
    (save (if (= n 1)
              (string-append (gimp-drawable-filter-get-name (vector-ref filters 0))
                             "|" (gimp-drawable-filter-get-operation-name
                                  (vector-ref filters 0)))
              (number->string n))
          (path name ".filters")))
  (gimp-file-save RUN-NONINTERACTIVE img (path name ".xcf") -1)
  (let* ((img2 (gimp-file-load RUN-NONINTERACTIVE (path name ".xcf")))
         (drw2 (first-drawable img2)))
    (gimp-drawable-merge-filters drw2)
    (save (number->string (vector-length (gimp-drawable-get-filters drw2)))
          (path name ".left"))
    (gimp-file-save RUN-NONINTERACTIVE img2 (path name "-merged.png") -1)
    (gimp-image-delete img2))
  (let* ((img3 (gimp-file-load RUN-NONINTERACTIVE "$IMAGE"))
         (drw3 (first-drawable img3)))
    (run-destructive img3 drw3)
    (gimp-file-save RUN-NONINTERACTIVE img3 (path name "-destructive.png") -1)
    (gimp-image-delete img3))
  (save "done" (path name ".done")))
SCM
  while IFS='|' read -r proc variant title i; do
    cat <<SCM
(let* ((img (gimp-file-load RUN-NONINTERACTIVE "$IMAGE"))
       (drw (first-drawable img))
       (disp (gimp-display-new img)))
  (save (catch "cancelled or failed"
          ($proc #:run-mode RUN-INTERACTIVE #:image img #:drawables (vector drw)))
        (path "$variant" ".json"))
  (after-dialog "$variant" img drw
                (lambda (img3 drw3)
                  ($proc #:run-mode RUN-NONINTERACTIVE #:image img3
                         #:drawables (vector drw3) #:in-process #f)))
  (gimp-display-delete disp))
SCM
  done < "$WORK/ops"
} > "$WORK/ops.scm"

gimp-3.0 -n --no-splash --batch-interpreter=plug-in-script-fu-eval \
  -b "(load \"$WORK/ops.scm\")" >"$LOG" 2>&1 &
GIMP_PID=$!

echo "1..$((N * 4 + 4))"
FAILED=0
say ()  # say STATUS NUMBER DESCRIPTION
{
  if [ "$1" = 0 ]; then
    echo "ok $2 - $3"
  else
    echo "not ok $2 - $3"
    FAILED=1
  fi
}
shown () { grep -ac 'preview: shown' "$LOG"; }

t=0
while IFS='|' read -r proc variant title i; do
  # Window titles are regular expressions for xdotool: escape the
  # parentheses.
  re=$(printf '%s' "$title" | sed 's/[()]/\\&/g')
  before=$(shown)
  WIN=$(find_window "^$re\$" 240)
  t=$((t + 1))
  if [ -z "$WIN" ]; then
    say 1 $t "$variant: the dialog '$title' appeared"
    t=$((t + 3))
    continue
  fi
  # The first preview (kernels built on the worker thread when cold).
  for k in $(seq 240); do
    [ "$(shown)" -gt "$before" ] && break
    sleep 0.5
  done
  [ "$(shown)" -gt "$before" ]
  say $? $t "$variant: the dialog '$title' appeared and showed its preview"
  xdotool mousemove 1390 990
  sleep 1
  t=$((t + 1))
  import -window "$WIN" "$OUTDIR/ui-op-$variant.png" 2>>"$WORK/import.log"
  size=$("$COMPARE" --size "$OUTDIR/ui-op-$variant.png" 2>&1)
  w=${size%x*} h=${size#*x}
  # The window's inside: 30 pixels left for the window manager's title.
  [ -n "$w" ] && [ "$w" -le 1280 ] 2>/dev/null && [ "$h" -le 690 ]
  say $? $t "$variant: screenshot ui-op-$variant.png, ${size} fits 1280x720 with its title bar"
  xdotool windowactivate --sync "$WIN" 2>/dev/null
  if [ "$variant" = gaussian-warm ]; then
    # Zoomed out: the whole drawable in the preview's place.
    xdotool key alt+w
    for k in $(seq 120); do
      grep -aq 'preview: the whole drawable' "$LOG" && break
      sleep 0.5
    done
    sleep 1
    import -window "$WIN" "$OUTDIR/ui-op-gaussian-whole.png" \
      2>>"$WORK/import.log"
    grep -aq 'preview: the whole drawable, 1024 x 768, shown at 480 x 360' \
      "$LOG"
    WHOLE_SHOWN=$?
    xdotool key alt+w
    sleep 1
  fi
  xdotool key alt+o
  wait_for_file "$WORK/$variant.done" 240
  t=$((t + 1))
  filters=$(cat "$WORK/$variant.filters" 2>/dev/null)
  [ "$filters" = "$title|clfx:${variant%-warm}" ] &&
    [ "$(cat "$WORK/$variant.left" 2>/dev/null)" = 0 ]
  say $? $t "$variant: OK left one non-destructive filter, '$filters'; saved, reopened, merged"
  t=$((t + 1))
  result=$("$COMPARE" "$WORK/$variant-merged.png" \
                      "$WORK/$variant-destructive.png" 0 2>&1)
  say $? $t "$variant: merged from the XCF = the destructive result ($result)"
done < "$WORK/ops"

# The rows each operator's dialog showed: its own and Merge filter, never
# the plug-in's in-process and non-destructive; and its 1:1 preview at
# least 400x300.
t=$((t + 1))
python3 - "$LOG" "$WORK/table.json" > "$WORK/check.log" 2>&1 <<'PY'
import json, re, sys
shown = {}
for line in open(sys.argv[1], errors="replace"):
    m = re.search(r"(plug-in-clfx-[a-z0-9-]+): rows shown: (.*)$", line)
    if m:
        shown[m.group(1)] = m.group(2).split()
for o in json.load(open(sys.argv[2])):
    rows = shown.get(o["procedure"])
    assert rows and rows[-1] == "merge-filter", (o["procedure"], rows)
    assert "in-process" not in rows and "non-destructive" not in rows, rows
views = [tuple(map(int, m.groups())) for m in
         re.finditer(r"preview: 1:1 at \d+,\d+, (\d+) x (\d+)",
                     open(sys.argv[1], errors="replace").read())]
assert views and min(w for w, h in views) >= 400 \
    and min(h for w, h in views) >= 300, views
print("%d dialogs, previews %dx%d" % ((len(shown),) + min(views)))
PY
say $? $t "each dialog showed its rows and Merge filter only, previews of 400x300 or more ($(tail -1 "$WORK/check.log"))"
sed 's/^/# /' "$WORK/check.log"

! grep -aE "CRITICAL|Plug-in crashed|GIMP crashed|clfx-WARNING" "$LOG" >/dev/null
say $? $((N * 4 + 2)) "GIMP's output has no CRITICAL, no warning from clfx and no crash"

say "${WHOLE_SHOWN:-1}" $((N * 4 + 3)) "gaussian: the whole image, zoomed out, in the preview (ui-op-gaussian-whole.png)"
# The zoomed-out picture was made from the whole result at full size,
# which is the destructive result (premultiplied, within a code).
python3 - "$PREVIEWS/filter-gaussian-whole.pam" \
  "$WORK/gaussian-warm-destructive.png" > "$WORK/check.log" 2>&1 <<'PY'
import sys
from previewlib import read_pam, read_rgba, shown_difference
shown, _ = read_pam(sys.argv[1])
ref = read_rgba(sys.argv[2])
assert ref.shape == shown.shape, (ref.shape, shown.shape)
da, dc, _ = shown_difference(shown, ref)
print("%dx%d: colour x alpha within %.2f" % (shown.shape[1], shown.shape[0],
                                             dc))
assert da <= 1 and dc <= 1.01, (da, dc)
PY
say $? $((N * 4 + 4)) "gaussian: the zoomed-out picture is the whole result scaled down ($(tail -1 "$WORK/check.log"))"

# Open to first preview: the plug-in's "opening" line to its first
# "preview: shown" (GLib's debug lines carry the time).
python3 - "$LOG" > "$OUTDIR/first-preview.txt" <<'PY'
import re, sys
def ms(stamp):
    h, m, s = stamp.split(":")
    return (int(h) * 3600 + int(m) * 60 + float(s)) * 1000
opened = None
n = {}
for line in open(sys.argv[1], errors="replace"):
    m = re.search(r"(\d\d:\d\d:\d\d\.\d+): dialog: (\S+) opening", line)
    if m:
        opened = (m.group(2), ms(m.group(1)))
        continue
    m = re.search(r"(\d\d:\d\d:\d\d\.\d+): preview: shown", line)
    if m and opened:
        k = n[opened[0]] = n.get(opened[0], 0) + 1
        print("%s %s %.0f ms" % (opened[0], "cold" if k == 1 else "warm",
                                 ms(m.group(1)) - opened[1]))
        opened = None
PY
sed 's/^/# open to first preview: /' "$OUTDIR/first-preview.txt"

[ $FAILED = 0 ] || sed 's/^/# /' "$LOG"
exit $FAILED
