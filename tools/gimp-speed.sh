#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# gimp-speed.sh: the full cost of a GIMP batch resize or blur with clfx
# next to GIMP's own gimp-image-scale or gegl:gaussian-blur, for
# docs/PERFORMANCE.md.
#
#   tools/gimp-speed.sh PLUGIN CLFX_BENCH OUTDIR [SIZE] [REPEAT] [DEVICE] [OPS] [GEGL_MODULE]
#
# Each configuration is its own gimp-console-3.0 run, timed from outside
# (median of REPEAT, default 3; the configurations take turns, so that a
# slow spell of a shared machine does not land on one of them), so the
# differences give each part:
#   empty   GIMP start and quit
#   load    + load the SIZE x SIZE RGBA PNG (and convert to float linear)
#   scale   + gimp-image-scale to half size, linear interpolation
#   clfx    + plug-in-clfx-resize to half size, linear, target image
# or with OPS blur (default: resize):
#   gegl    + gegl:gaussian-blur, std-dev 10, through
#             gimp-drawable-merge-new-filter (what Filters > Blur >
#             Gaussian Blur applies)
#   clfx    + plug-in-clfx-filter, gaussian, std-dev 10 (in-process off:
#             the plug-in's wire path)
# or with OPS tonemap:
#   gegl    + gegl:reinhard05 (its defaults), merged the same way
#   clfx    + plug-in-clfx-tonemap, reinhard05 (the same defaults)
# and for blur and tonemap with GEGL_MODULE (the clfx: operations):
#   inproc  + clfx:gaussian std-dev 10 or clfx:reinhard05, merged the way
#             GEGL's are, inside GIMP's process (no pixel wire; what the
#             procedures do with in-process on)
# The plug-in's report (engine timings) is kept in OUTDIR, with every
# run's time (gimp-speed-runs.txt) and the plug-in's own account of each
# resize (gimp-speed-clfx.txt: GIMP's transfers, the engine, the copies
# that make the apply step all or nothing and the apply step itself, from
# G_MESSAGES_DEBUG=clfx).  One untimed resize per depth first fills the
# OpenCL driver's kernel cache, as any earlier use would have.
set -euo pipefail
plugin=$1 bench=$2 out=$3 size=${4:-4096} repeat=${5:-3} device=${6:-auto}
ops=${7:-resize} module=${8:-}
case $ops in
  resize) configs="empty load scale clfx" ;;
  blur|tonemap) configs="empty load gegl clfx${module:+ inproc}" ;;
  *) echo "gimp-speed.sh: OPS is resize, blur or tonemap" >&2; exit 2 ;;
esac
half=$((size / 2))
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/profile/plug-ins/clfx" "$work/home"
"$(dirname "$0")/install-plugin.sh" "$plugin" "$work/profile/plug-ins"
[ -z "$module" ] || "$(dirname "$0")/install-plugin.sh" --gegl "$module" \
  "$work/home/.local/share/gegl-0.4/plug-ins"
export HOME="$work/home" GIMP3_DIRECTORY="$work/profile"
export CLFX_CACHE_DIR="$work/kernel-cache" G_MESSAGES_DEBUG=clfx
"$bench" --device reference --synthetic "${size}x${size}:u8" --channels 4 \
  --output "$work/in.png" copy >/dev/null

. "$(dirname "$0")/gimp-batch.sh"
run_gimp () { gimp_run "$1" "$work/gimp.log"; }  # SCHEME -> seconds

# The plug-in registers on GIMP's first start with a new profile; do it
# before timing anything.
run_gimp '(+ 1 1)' >/dev/null

# The Script-Fu of one configuration (see the header).
scheme () {  # scheme CONFIG DEPTH
  local load drw
  load=$(gimp_load "$work/in.png" "$2")
  drw="(gimp-image-get-selected-drawables img)"
  case $1 in
    empty) echo '(+ 1 1)' ;;
    load) echo "(begin (script-fu-use-v3) $load (gimp-image-delete img))" ;;
    scale) echo "(begin (script-fu-use-v3) $load (gimp-context-set-interpolation INTERPOLATION-LINEAR) (gimp-image-scale img $half $half) (gimp-image-delete img))" ;;
    gegl|inproc)
      local op=gegl:gaussian-blur props='"std-dev-x" 10.0 "std-dev-y" 10.0'
      [ "$ops" = tonemap ] && op=gegl:reinhard05 props=
      if [ "$1" = inproc ]; then
        op=clfx:${op#gegl:} props="$props \"device\" \"$device\""
        op=${op/gaussian-blur/gaussian}
      fi
      echo "(begin (script-fu-use-v3) $load $(gimp_merge "$op" "$props") (gimp-image-delete img))" ;;
    clfx) [ "$ops" = tonemap ] && echo "(begin (script-fu-use-v3) $load (plug-in-clfx-tonemap #:run-mode RUN-NONINTERACTIVE #:image img #:drawables $drw #:operator \"reinhard05\" #:in-process #f #:device \"$device\" #:report-file \"$out/report-$2.json\") (gimp-image-delete img))" && return
          [ "$ops" = blur ] && echo "(begin (script-fu-use-v3) $load (plug-in-clfx-filter #:run-mode RUN-NONINTERACTIVE #:image img #:drawables $drw #:filter \"gaussian\" #:std-dev-x 10.0 #:std-dev-y 10.0 #:in-process #f #:device \"$device\" #:report-file \"$out/report-$2.json\") (gimp-image-delete img))" && return
          echo "(begin (script-fu-use-v3) $load (plug-in-clfx-resize #:run-mode RUN-NONINTERACTIVE #:image img #:drawables (gimp-image-get-selected-drawables img) #:width $half #:height $half #:filter \"linear\" #:target \"image\" #:device \"$device\" #:report-file \"$out/report-$2.json\") (gimp-image-delete img))" ;;
  esac
}

for depth in u8 float; do
  run_gimp "$(scheme clfx "$depth")" >/dev/null
  [ -z "$module" ] || run_gimp "$(scheme inproc "$depth")" >/dev/null
done

: >"$out/gimp-speed-runs.txt"
: >"$out/gimp-speed-clfx.txt"
for i in $(seq "$repeat"); do
  for depth in u8 float; do
    for config in $configs; do
      t=$(run_gimp "$(scheme "$config" "$depth")")
      echo "$depth $config $i $t" >>"$out/gimp-speed-runs.txt"
      if [ "$config" = clfx ] || [ "$config" = inproc ]; then
        grep -a 'clfx-DEBUG' "$work/gimp.log" | sed "s/^/$depth $config run $i: /" \
          >>"$out/gimp-speed-clfx.txt" || true
      fi
    done
  done
done

printf '%-6s %-8s %10s\n' depth config seconds | tee "$out/gimp-speed.txt"
for depth in u8 float; do
  for config in $configs; do
    awk -v d="$depth" -v c="$config" '$1 == d && $2 == c { print $4 }' \
        "$out/gimp-speed-runs.txt" | median \
      | xargs printf '%-6s %-8s %10.2f\n' "$depth" "$config" \
      | tee -a "$out/gimp-speed.txt"
  done
done
