#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# gimp-module-ab.sh: two builds of the GEGL module side by side in GIMP's
# process, for docs/PERFORMANCE.md.
#
#   tools/gimp-module-ab.sh CLFX_BENCH MODULE_A MODULE_B OUTDIR [ROUNDS] [SIZE]
#
# Each run is a gimp-console-3.0 of its own, timed from outside, that
# loads a SIZE x SIZE RGBA PNG (default 4096; converted to float linear
# for float) and merges clfx:gaussian (std-dev 10) or clfx:reinhard05
# (its defaults) with gimp-drawable-merge-new-filter, as
# tools/gimp-speed.sh's inproc configuration; "load" loads only.  ROUNDS
# rounds (default 4) of: per depth, load, then each module's two ops, the
# modules taking turns (a first in odd rounds, b first in even ones).  Every run's seconds and the module's own account
# (G_MESSAGES_DEBUG=clfx) go to OUTDIR/gimp-module-ab.txt; the medians
# over rounds 2 on (round 1 may build kernels) to OUTDIR/medians.txt.
set -euo pipefail
bench=$1 mod_a=$2 mod_b=$3 out=$4 rounds=${5:-4} size=${6:-4096}
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/profile" "$work/a" "$work/b"
for m in a b; do
  src=$mod_a
  [ $m = b ] && src=$mod_b
  "$(dirname "$0")/install-plugin.sh" --gegl "$src" \
    "$work/$m/.local/share/gegl-0.4/plug-ins" >/dev/null
done
export GIMP3_DIRECTORY="$work/profile" CLFX_CACHE_DIR="$work/kernel-cache"
export G_MESSAGES_DEBUG=clfx
"$bench" --device reference --synthetic "${size}x${size}:u8" --channels 4 \
  --output "$work/in.png" copy >/dev/null
. "$(dirname "$0")/gimp-batch.sh"
run () {  # run MODULE(a|b|-) DEPTH OP -> "depth op module seconds" + account
  local props="" s t
  [ "$3" = clfx:gaussian ] && props='"std-dev-x" 10.0 "std-dev-y" 10.0'
  s="(begin (script-fu-use-v3) $(gimp_load "$work/in.png" "$2")"
  [ "$3" = load ] || s="$s $(gimp_merge "$3" "$props")"
  t=$(HOME="$work/${1/-/a}" gimp_run "$s (gimp-image-delete img))" \
        "$work/log")
  echo "$2 $3 $1 $t"
  grep -a 'clfx-DEBUG' "$work/log" | sed 's/^.*clfx-DEBUG: [0-9:.]*: /  /' \
    || true
}
# The profile registers GIMP's plug-ins on its first start: not timed.
run a u8 load >/dev/null
: >"$out/gimp-module-ab.txt"
for r in $(seq "$rounds"); do
  for d in u8 float; do
    run - "$d" load | sed "s/^/$r /" >>"$out/gimp-module-ab.txt"
    # The order turns each round: on this machine a run is faster or
    # slower by what the run before it left (memory just freed).
    order="a b"
    [ $((r % 2)) = 0 ] && order="b a"
    for m in $order; do
      for op in clfx:gaussian clfx:reinhard05; do
        run "$m" "$d" "$op" | sed "s/^\([^ ]\)/$r \1/" \
          >>"$out/gimp-module-ab.txt"
      done
    done
  done
done
# Medians over rounds 2.. (all rounds when there is one), seconds over
# the load's median.
awk -v n="$rounds" '
  $1 ~ /^[0-9]+$/ && ($1 > 1 || n == 1) { v[$2 " " $3 " " $4] = v[$2 " " $3 " " $4] " " $5 }
  END { for (k in v) print k v[k] }' "$out/gimp-module-ab.txt" | sort |
while read -r d op m vals; do
  echo "$d $op $m $(printf '%s\n' $vals | median)"
done >"$work/med"
awk '$2 == "load" { load[$1] = $4 } { row[NR] = $0 }
  END { for (i = 1; i <= NR; i++) { split(row[i], f, " ");
          printf "%-6s %-16s %s %7.3f s  over the load %6.3f s\n", f[1], f[2], f[3], f[4], f[4] - load[f[1]] } }' \
  "$work/med" | tee "$out/medians.txt"
