# SPDX-License-Identifier: GPL-3.0-or-later
# gimp-batch.sh: what tools/gimp-speed.sh and tools/gimp-module-ab.sh
# share, sourced by both: one timed gimp-console run, the Script-Fu that
# loads the test image and merges a GEGL operation, and a median.

# gimp_run SCHEME LOG: runs GIMP's batch on SCHEME (its output into LOG)
# and prints the seconds it took, start to quit.
gimp_run () {
  local t0 t1
  t0=$(date +%s.%N)
  timeout 600 gimp-console-3.0 -i -n --quit \
    --batch-interpreter=plug-in-script-fu-eval -b "$1" \
    >"$2" 2>&1 || { cat "$2" >&2; return 1; }
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'
}

# gimp_load PNG DEPTH: Script-Fu that loads PNG as `img` (converted to
# float linear for DEPTH float).
gimp_load () {
  local conv=""
  [ "$2" = float ] && conv=" (gimp-image-convert-precision img PRECISION-FLOAT-LINEAR)"
  echo "(define img (gimp-file-load RUN-NONINTERACTIVE \"$1\"))$conv"
}

# gimp_merge OP [PROPS]: Script-Fu that merges GEGL operation OP (with
# PROPS, Script-Fu name-value pairs) into img's selected drawable, as
# GIMP's own filters apply.
gimp_merge () {
  echo "(gimp-drawable-merge-new-filter (vector-ref (gimp-image-get-selected-drawables img) 0) \"$1\" 0 LAYER-MODE-REPLACE 1.0${2:+ $2})"
}

# The median of the numbers on stdin, one a line.
median () { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
