#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# run-gimp-tests.sh: the plug-in inside a real gimp-console-3.0, in batch,
# with a throwaway profile.  TAP on stdout.
#
#   run-gimp-tests.sh PLUGIN CLFX_BENCH PNG_COMPARE SCM_DIR WORK_DIR SCRIPT_FU_CALL [GEGL_MODULE]
#
# One GIMP start runs every case (GIMP takes about 10 s to start): resizes
# whose exported pixels are compared with clfx-bench's CPU reference on the
# same input and parameters, calls that must fail and leave the image
# unchanged, and the self-test.  Device: $CLFX_TEST_DEVICE (default auto;
# the self-test defaults to pocl).  With GEGL_MODULE, the clfx: GEGL
# operations run inside GIMP's own process too (merged and appended as
# drawable filters, an XCF reopened in a second GIMP).  $CLFX_GIMP_CONSOLE names the GIMP
# binary (default gimp-console-3.0).  Without it the test is skipped, or
# fails when CLFX_REQUIRE_DEVICE=1.  The skip is TAP's "1..0 # SKIP" with
# exit 0: meson 1.7 reports any other exit status of a TAP test, 77
# included, as an error.
set -u

plugin=$1 bench=$2 compare=$3 scm_dir=$4 work=$5 sfcall=$6 gegl_module=${7:-}
gimp=${CLFX_GIMP_CONSOLE:-gimp-console-3.0}
device=${CLFX_TEST_DEVICE:-auto}
selftest_device=${CLFX_TEST_DEVICE:-pocl}
n=0 failed=0

ok () {       # ok CONDITION-STATUS DESCRIPTION
  n=$((n + 1))
  if [ "$1" -eq 0 ]; then
    echo "ok $n - $2"
  else
    echo "not ok $n - $2"
    failed=$((failed + 1))
  fi
}

diag () { sed 's/^/# /'; }

. "$(dirname "$0")/gimp-lib.sh"
need_gimp "$gimp"

# ---------------------------------------------------------------- set-up
rm -rf "$work"
mkdir -p "$work/profile/plug-ins/clfx" "$work/home" "$work/out" || exit 1
# GIMP only registers plug-ins that sit in a folder of their own name.
"$(dirname "$0")/../../tools/install-plugin.sh" "$plugin" \
  "$work/profile/plug-ins" || exit 1
# GEGL's user module folder under the throwaway HOME.
if [ -n "$gegl_module" ]; then
  "$(dirname "$0")/../../tools/install-plugin.sh" --gegl "$gegl_module" \
    "$work/home/.local/share/gegl-0.4/plug-ins" || exit 1
fi
export HOME="$work/home" GIMP3_DIRECTORY="$work/profile"
export XDG_CACHE_HOME="$work/home/.cache" XDG_CONFIG_HOME="$work/home/.config"
unset CLFX_CACHE_DIR
in=$work/in out=$work/out
hdr_exr=/usr/share/blender/datafiles/studiolights/world/courtyard.exr
mkdir -p "$in"

# Inputs from the engine's synthetic picture (never constant; every texel
# differs from its neighbours; alpha varies across it).  Both the plug-in
# and clfx-bench treat alpha as straight (GIMP's and PNG's), so cases with
# alpha compare with the reference as they are; "premultiplied" compares
# colour times alpha, where a division by a small alpha may tip a colour
# to the next code.  alpha-same-size: a nearest resize to the same size
# must give back every pixel exactly, colour under low alpha included,
# and goes through the shadow buffer (the layer keeps its buffer).
gen () { "$bench" --device reference --synthetic "$1" --channels "$2" \
           --output "$3" copy >/dev/null; }
gen 64x48:u8 4 "$in/alpha8.png" &&
"$compare" --opaque "$in/alpha8.png" "$in/rgba8.png" 4 &&
"$compare" --opaque "$in/alpha8.png" "$in/rgb8.png" 3 &&
gen 64x48:u16 4 "$in/alpha16.png" &&
"$compare" --opaque "$in/alpha16.png" "$in/rgb16.png" 3 &&
gen 64x48:u8 1 "$in/gray8.png" &&
"$compare" --checkerboard 64 48 "$in/checker.png"
ok $? "generate the input images"

# Real photographs from the root's packages: GIMP's splash, a stone
# texture among GIMP's patterns, ImageMagick's built-in rose.
gimp_data=$(pkg-config --variable=gimpdatadir gimp-3.0 2>/dev/null)
gimp_data=${gimp_data:-/usr/share/gimp/3.0}
magick=$(command -v magick || command -v convert)
cp "$gimp_data/images/gimp-splash.png" "$in/splash.png" &&
cp "$gimp_data/patterns/Stone/stone33.pat" "$in/stone33.pat" &&
"$magick" rose: "$in/rose.png"
ok $? "copy the photographs (splash, stone33.pat, rose)"

# ---------------------------------------------------------------- cases
# name input prep target width height zoom filter addressing normalized maxdiff [premultiplied]
cat > "$work/resize-cases" <<'CASES'
layer-linear-up rgba8 none layer 100 70 1 linear clamp-to-edge #t 1
layer-nearest-rgb rgb8 none layer 91 67 1 nearest clamp-to-edge #t 1
image-lanczos3-down rgba8 none image 29 21 1 lanczos3 clamp-to-edge #t 1
u16-cubic rgb16 none layer 90 61 1 cubic clamp-to-edge #t 1
float-perceptual-linear rgba8 float-nonlinear layer 100 70 1 linear clamp-to-edge #t 1
float-linear-nearest rgba8 float-linear layer 77 53 1 nearest clamp-to-edge #t 1
gray-linear gray8 none layer 100 70 1 linear clamp-to-edge #t 1
selection-cubic rgba8 selection layer 80 60 1 cubic clamp-to-edge #t 1
zoom-clamp-to-edge rgb8 none layer 96 72 0.5 linear clamp-to-edge #t 1
zoom-clamp rgb8 none layer 96 72 0.5 linear clamp #t 1
zoom-repeat rgb8 none layer 96 72 0.5 linear repeat #t 1
zoom-mirrored-repeat rgb8 none layer 96 72 0.5 linear mirrored-repeat #t 1
zoom-none rgb8 none layer 96 72 0.5 linear none #t 1
zoom-none-unnormalized rgb8 none layer 96 72 0.5 nearest none #f 1
alpha-nearest alpha8 none layer 90 70 1 nearest clamp-to-edge #t 1 premultiplied
alpha-linear alpha8 none layer 100 70 1 linear clamp-to-edge #t 1 premultiplied
alpha-image-cubic alpha8 none image 29 21 1 cubic clamp-to-edge #t 1 premultiplied
alpha16-lanczos3 alpha16 none layer 50 40 1 lanczos3 mirrored-repeat #t 1 premultiplied
alpha-same-size alpha8 none layer 64 48 1 nearest clamp-to-edge #t 0
checker-half checker none layer 32 24 1 linear clamp-to-edge #t 1
CASES

# Linear light on photographs: clfx halves them with linear filtering and
# GIMP's own gimp-image-scale does with INTERPOLATION-LINEAR (GIMP scales
# in linear light too); the two must agree within one level.  rose-a98
# has Adobe RGB (1998) assigned, a gamma-2.2 space the kernels do not
# decode: its pixels cross as linear float that babl converts.
# name input prep width height
cat > "$work/photo-cases" <<'CASES'
photo-splash splash.png none 960 540
photo-stone stone33.pat none 78 78
photo-rose rose.png none 35 23
photo-rose-a98 rose.png a98 35 23
CASES

# The dialog's "Copy Script-Fu call" text for these values, generated
# from the family's rows; the batch runs it as it is.
sf_values="width=70 height=50 zoom-x=0.8 zoom-y=0.9 filter=cubic
           addressing=mirrored-repeat target=layer device=$device"
sf_call=$("$sfcall" resize "$out/script-fu-call.json" $sf_values)
ok $? "the Script-Fu call text for $(echo $sf_values)"
# The same from a variant's own dialog: its procedure, its arguments
# under GEGL's names (unsharp's amount is GEGL's scale).
sf_op_call=$("$sfcall" filter:unsharp "$out/script-fu-op.json" std-dev=2 \
             amount=1.5 device=$device)
echo "$sf_op_call" | grep -q '^(plug-in-clfx-unsharp-mask .*#:std-dev 2 #:scale 1.5 .*#:in-process #t' \
  && ! echo "$sf_op_call" | grep -q '#:filter\|#:amount\|#:radius'
ok $? "the Script-Fu call text of plug-in-clfx-unsharp-mask names it and its own arguments"

# name input prep expected-message call-arguments.  The unknown choice
# name goes positionally: with a #:addressing keyword, GIMP 3.0.4's
# Script-Fu only logs a GObject CRITICAL and calls with the default.
cat > "$work/bad-cases" <<'CASES'
bad-indexed|rgb8|indexed|indexed images are not supported: convert to RGB first|#:width 32 #:height 24
bad-width-0|rgb8|none|out of range|#:width 0 #:height 24
bad-addressing-name|rgb8|none|Invalid value for argument 8|POSITIONAL 32 24 1.0 1.0 "linear" "wrap" #t "layer" "auto" #f ""
bad-repeat-unnormalized|rgb8|none|needs normalized coordinates|#:width 32 #:height 24 #:addressing "repeat" #:normalized-coords #f
bad-device|rgb8|none|no OpenCL device matches 'nosuchdevice'|#:width 32 #:height 24 #:device "nosuchdevice"
bad-interactive-no-display|rgb8|none|interactive mode needs a display|#:run-mode RUN-INTERACTIVE #:width 32 #:height 24
bad-filter-edges-none|rgba8|none|is for the blurs|FILTER #:filter "sobel" #:addressing "none"
bad-filter-matrix|rgb8|selection|matrix: "x" (value 3) is not a number|FILTER #:filter "convolve" #:matrix "1 2 x"
bad-filter-linear|rgba8|none|takes sampler-filter nearest|FILTER #:filter "unsharp" #:std-dev 0.5 #:sampler-filter "linear"
bad-filter-iir-repeat|rgb8|selection|use method fir|FILTER #:filter "gaussian" #:std-dev-x 3.0 #:addressing "repeat"
bad-median-radius|rgb8|none|the median takes radius 0 to 100|FILTER #:filter "median" #:radius 101
CASES

# Filters through the shadow buffer: name input prep clfx-bench options |
# the procedure's arguments.  The selection (10,8 20x16) cases must change
# nothing outside it and equal the whole-image filter inside it: the FIR
# reads its halo around the selection, the IIR whole rows and columns, as
# GEGL's gaussian-blur does in GIMP.
cat > "$work/filter-cases" <<'CASES'
filter-iir-alpha rgba8 none --filter gaussian --std-dev-x 2.5 --std-dev-y 1.5|#:filter "gaussian" #:std-dev-x 2.5 #:std-dev-y 1.5
filter-fir-selection rgb8 selection --filter gaussian --method fir --std-dev-x 1.5 --std-dev-y 2.0|#:filter "gaussian" #:method "fir" #:std-dev-x 1.5 #:std-dev-y 2.0
filter-iir-selection rgba8 selection --filter gaussian --std-dev-x 3 --std-dev-y 3 --addressing clamp|#:filter "gaussian" #:std-dev-x 3.0 #:std-dev-y 3.0 #:addressing "clamp"
filter-box-alpha alpha8 none --filter box --radius 2 --addressing mirrored-repeat|#:filter "box" #:radius 2 #:addressing "mirrored-repeat"
filter-sobel-alpha alpha8 none --filter sobel --keep-sign false --vertical false|#:filter "sobel" #:keep-sign #f #:vertical #f
filter-unsharp-selection rgba8 selection --filter unsharp --std-dev 2 --amount 1.5|#:filter "unsharp" #:std-dev 2.0 #:amount 1.5
filter-convolve-alpha alpha8 none --filter convolve --matrix 0,-1,0,-1,5,-1,0,-1,0 --addressing clamp|#:filter "convolve" #:matrix "0 -1 0  -1 5 -1  0 -1 0" #:addressing "clamp"
filter-bilateral-selection rgb8 selection --filter bilateral --blur-radius 3 --addressing none|#:filter "bilateral" #:blur-radius 3.0 #:addressing "none"
filter-gaussian-linear rgba8 none --filter gaussian --method fir --std-dev-x 0.8 --std-dev-y 2 --sampler-filter linear|#:filter "gaussian" #:method "fir" #:std-dev-x 0.8 #:std-dev-y 2.0 #:sampler-filter "linear"
filter-median-selection rgba8 selection --filter median --radius 2 --neighborhood square --percentile 40|#:filter "median" #:radius 2 #:neighborhood "square" #:percentile 40.0
filter-median-alpha alpha8 none --filter median --radius 3 --addressing clamp|#:filter "median" #:radius 3 #:addressing "clamp"
tonemap-r05-selection rgba8 selection --operator reinhard05 --brightness 1 --light 0.5|#:operator "reinhard05" #:brightness 1.0 #:light 0.5
tonemap-r02-alpha alpha8 none --operator reinhard02 --key 0.3|#:operator "reinhard02" #:key 0.3
tonemap-drago-rgb rgb8 none --operator drago03 --bias 0.7 --exposure 1|#:operator "drago03" #:bias 0.7 #:exposure 1.0
tonemap-aces-alpha rgba8 none --operator aces --exposure 2|#:operator "aces" #:exposure 2.0
tonemap-durand-selection rgb8 selection --operator durand02 --spatial-sigma 0.1 --sampler-filter linear|#:operator "durand02" #:spatial-sigma 0.1 #:sampler-filter "linear"
tonemap-fattal-alpha rgba8 none --operator fattal02 --alpha 0.8 --beta 0.85 --saturation 0.6|#:operator "fattal02" #:alpha 0.8 #:beta 0.85 #:saturation 0.6
CASES

# The GEGL module's operations inside GIMP's process, merged with
# gimp-drawable-merge-new-filter (no plug-in, no pixel wire): name input
# prep family clfx-bench options | operation | its properties.  Pixels
# must match clfx-bench's CPU reference as the plug-in's cases do.
# gegl-own-selection is GIMP's own gegl:gaussian-blur in the same place:
# under a selection it too sees only the selection's bounds.
: > "$work/gegl-cases"
[ -n "$gegl_module" ] && cat > "$work/gegl-cases" <<'CASES'
gegl-gaussian rgba8 none filter --filter gaussian --std-dev-x 2.5 --std-dev-y 1.5|clfx:gaussian|"std-dev-x" 2.5 "std-dev-y" 1.5
gegl-fir-selection rgb8 selection filter --filter gaussian --method fir --std-dev-x 1.5 --std-dev-y 2.0|clfx:gaussian|"method" "fir" "std-dev-x" 1.5 "std-dev-y" 2.0
gegl-own-selection rgb8 selection filter --filter gaussian --method fir --std-dev-x 1.5 --std-dev-y 2.0|gegl:gaussian-blur|"filter" "fir" "std-dev-x" 1.5 "std-dev-y" 2.0
gegl-box alpha8 none filter --filter box --radius 2 --addressing mirrored-repeat|clfx:box|"radius" 2 "addressing" "mirrored-repeat"
gegl-unsharp rgba8 none filter --filter unsharp --std-dev 2 --amount 1.5|clfx:unsharp|"std-dev" 2.0 "amount" 1.5
gegl-median alpha8 none filter --filter median --radius 3 --addressing clamp|clfx:median|"radius" 3 "addressing" "clamp"
gegl-bilateral rgb8 none filter --filter bilateral --blur-radius 3|clfx:bilateral|"blur-radius" 3.0
gegl-sobel alpha8 none filter --filter sobel --keep-sign false|clfx:sobel|"keep-sign" #f
gegl-convolve rgba8 none filter --filter convolve --matrix 0,-1,0,-1,5,-1,0,-1,0|clfx:convolve|"matrix" "0 -1 0  -1 5 -1  0 -1 0"
gegl-reinhard02 alpha8 none tonemap --operator reinhard02 --key 0.3|clfx:reinhard02|"key" 0.3
gegl-reinhard05 rgba8 selection tonemap --operator reinhard05 --brightness 1 --light 0.5|clfx:reinhard05|"brightness" 1.0 "light" 0.5
gegl-drago03 rgb8 none tonemap --operator drago03 --bias 0.7 --exposure 1|clfx:drago03|"bias" 0.7 "exposure" 1.0
gegl-aces rgba8 none tonemap --operator aces --exposure 2|clfx:aces|"exposure" 2.0
gegl-durand02 rgb8 none tonemap --operator durand02 --spatial-sigma 0.1|clfx:durand02|"spatial-sigma" 0.1
gegl-fattal02 rgba8 none tonemap --operator fattal02 --alpha 0.8 --saturation 0.6|clfx:fattal02|"alpha" 0.8 "saturation" 0.6
CASES

# The procedures' in-process path (the module's operation applied by the
# procedure inside GIMP): name input wire-case | arguments.  The pixels
# must be the wire path's (the filter case of that name) exactly.
: > "$work/inproc-cases"
[ -n "$gegl_module" ] && cat > "$work/inproc-cases" <<'CASES'
inproc-iir-alpha rgba8 filter-iir-alpha|#:filter "gaussian" #:std-dev-x 2.5 #:std-dev-y 1.5
inproc-median-alpha alpha8 filter-median-alpha|#:filter "median" #:radius 3 #:addressing "clamp"
inproc-r02-alpha alpha8 tonemap-r02-alpha|#:operator "reinhard02" #:key 0.3
inproc-nd-sobel alpha8 filter-sobel-alpha|#:filter "sobel" #:keep-sign #f #:vertical #f #:non-destructive #t
CASES

{
  while read -r name input prep target w h zoom filter addr norm rest; do
    printf '(clfx-resize-case "%s" "%s/%s.png" "%s" "%s" %s %s %s "%s" "%s" %s)\n' \
      "$name" "$in" "$input" "$prep" "$target" "$w" "$h" "$zoom" "$filter" \
      "$addr" "$norm"
  done < "$work/resize-cases"
  while IFS='|' read -r name input prep msg args; do
    proc=plug-in-clfx-resize
    case $args in
      FILTER*) proc=plug-in-clfx-filter
               call="#:run-mode RUN-NONINTERACTIVE #:image img #:drawables (vector drw) ${args#FILTER }" ;;
      POSITIONAL*) call="RUN-NONINTERACTIVE img (vector drw) ${args#POSITIONAL }" ;;
      *run-mode*) call="#:image img #:drawables (vector drw) $args" ;;
      *) call="#:run-mode RUN-NONINTERACTIVE #:image img #:drawables (vector drw) $args" ;;
    esac
    printf '(clfx-bad-case "%s" "%s/%s.png" "%s" (lambda (img drw) (%s %s)))\n' \
      "$name" "$in" "$input" "$prep" "$proc" "$call"
  done < "$work/bad-cases"
  while IFS='|' read -r head args; do
    set -- $head
    # tonemap-* cases call the tonemap family's procedure.
    printf '(clfx-filter-case "%s" "%s/%s.png" "%s" (lambda (img drw) (plug-in-clfx-%s #:run-mode RUN-NONINTERACTIVE #:image img #:drawables (vector drw) %s #:in-process #f #:device clfx-device #:validate #t #:report-file (clfx-path "%s" ".json"))))\n' \
      "$1" "$in" "$2" "$3" "${1%%-*}" "$args" "$1"
  done < "$work/filter-cases"
  while read -r name input prep w h; do
    printf '(clfx-resize-case "%s" "%s/%s" "%s" "image" %s %s 1 "linear" "clamp-to-edge" #t)\n' \
      "$name" "$in" "$input" "$prep" "$w" "$h"
    printf '(clfx-gimp-scale-case "%s-gimp" "%s/%s" "%s" %s %s)\n' \
      "$name" "$in" "$input" "$prep" "$w" "$h"
  done < "$work/photo-cases"
  while IFS='|' read -r head op props; do
    set -- $head
    case $op in clfx:*) props="$props \"device\" clfx-device" ;; esac
    printf '(clfx-gegl-case "%s" "%s/%s.png" "%s" #f (lambda (img drw) (gimp-drawable-merge-new-filter drw "%s" 0 LAYER-MODE-REPLACE 1.0 %s)))\n' \
      "$1" "$in" "$2" "$3" "$op" "$props"
  done < "$work/gegl-cases"
  while IFS='|' read -r head args; do
    set -- $head
    printf '(clfx-filter-case "%s" "%s/%s.png" "none" (lambda (img drw) (plug-in-clfx-%s #:run-mode RUN-NONINTERACTIVE #:image img #:drawables (vector drw) %s #:in-process #t #:device clfx-device #:validate #t #:report-file (clfx-path "%s" ".json"))))\n' \
      "$1" "$in" "$2" "${3%%-*}" "$args" "$1"
  done < "$work/inproc-cases"
  # Non-destructive: appended, kept in an XCF that a second GIMP opens
  # (gegl-reopen.scm); its report-file says which parameters it ran with.
  if [ -n "$gegl_module" ]; then
    printf '(clfx-gegl-case "gegl-append" "%s/rgba8.png" "none" #t (lambda (img drw) (let ((f (gimp-drawable-filter-new drw "clfx:box" ""))) (gimp-drawable-filter-configure f LAYER-MODE-REPLACE 1.0 "radius" 3 "addressing" "clamp" "device" clfx-device "report-file" (clfx-path "gegl-append-reopen" ".json")) (gimp-drawable-append-filter drw f))))\n' \
      "$in"
  fi
  if [ -f "$hdr_exr" ]; then
    printf '(clfx-hdr-case "tonemap-exr" "%s" (lambda (img drw) (plug-in-clfx-tonemap #:run-mode RUN-NONINTERACTIVE #:image img #:drawables (vector drw) #:operator "reinhard05" #:brightness 0.5 #:in-process #f #:device clfx-device #:validate #t #:report-file (clfx-path "tonemap-exr" ".json"))))\n' \
      "$hdr_exr"
  fi
  printf '(clfx-fault-case "fault-apply" "%s/rgba8.png" "%s/alpha8.png" 32 24)\n' \
    "$in" "$in"
  # The in-process path's all or nothing: a box on both layers, the
  # second layer's step failing.
  [ -z "$gegl_module" ] ||
    printf '(clfx-fault-call-case "fault-inproc" "%s/rgba8.png" "%s/alpha8.png" (lambda (img drawables) (plug-in-clfx-filter #:run-mode RUN-NONINTERACTIVE #:image img #:drawables (gimp-image-get-layers img) #:filter "box" #:radius 2 #:in-process #t #:device clfx-device)))\n' \
      "$in" "$in"
  printf '(clfx-call-case "script-fu-call" "%s/rgb8.png" (lambda (img drw) %s))\n' \
    "$in" "$sf_call"
  printf '(clfx-call-case "script-fu-op" "%s/rgba8.png" (lambda (img drw) %s))\n' \
    "$in" "$sf_op_call"
  # On the CPU reference there is nothing to compare, and a report-file
  # that cannot be written is said too, not hidden behind that.
  printf '(clfx-selftest-bad-case "selftest-reference" "reference" "%s/no-such-folder/selftest-reference.json")\n' \
    "$out"
} > "$work/cases.scm"
# The self-test (every variant, each built cold: the kernel cache and
# PoCL's start empty) is most of the time: a GIMP start of its own, so a
# slow machine cannot starve the cases above of theirs.
printf '(clfx-selftest-case "selftest" "%s")\n' "$selftest_device" \
  > "$work/selftest.scm"

# ---------------------------------------------------------------- GIMP
# The all-or-nothing case makes the second apply step of a call fail.
# The fault counts per plug-in process, and every other case resizes a
# one-layer image (one apply step per call), so only that case meets it.
log=$work/gimp.log
# CLFX_DEV=zero-copy=off: the CPU device copies like a discrete GPU, so the
# plug-in reads pixels into the context's pinned memory and writes the
# results from there (check_report asserts data_path "pinned"); the demo
# runs GIMP the default way (zero-copy).
# The time limits only catch a hang: they are far above a run's time on
# a slow machine (each run's time is printed).
batch () {    # batch CASES LOG [VAR=VALUE...]: one gimp-console run
  cases=$1 blog=$2
  shift 2
  start=$(date +%s)
  (cd "$work" && env CLFX_DEV=zero-copy=off "$@" timeout 900 "$gimp" -i -n --quit \
     --batch-interpreter plug-in-script-fu-eval \
     -b "(begin (define clfx-work \"$out\") (define clfx-device \"$device\") (load \"$scm_dir/clfx-tests.scm\") (load \"$cases\"))" \
     >"$blog" 2>&1)
  status=$?
  ok $status "gimp-console batch ran every case of $(basename "$cases") (exit $status, $(( $(date +%s) - start )) s)"
  [ $status -eq 0 ] || tail -20 "$blog" | diag
}
batch "$work/cases.scm" "$log" \
  CLFX_DEV=zero-copy=off,fault=clfx_apply_job=CL_OUT_OF_RESOURCES@2
batch "$work/selftest.scm" "$work/gimp-selftest.log" \
  POCL_CACHE_DIR="$work/home/.cache/pocl-selftest"
cat "$work/gimp-selftest.log" >> "$log"
if [ -n "$gegl_module" ]; then
  rm -f "$out/gegl-append-reopen.json"
  printf '(clfx-gegl-reopen-case "gegl-append-reopen" "%s/gegl-append.xcf")\n' \
    "$out" > "$work/gegl-reopen.scm"
  batch "$work/gegl-reopen.scm" "$work/gimp-gegl.log"
  cat "$work/gimp-gegl.log" >> "$log"
fi

marked () { grep -q "^CLFX-CASE $1 $2\$" "$log"; }

# The report: parses, names the device, validation passed, timings and
# build records with their logs present.
check_report () {  # check_report REPORT DRAWABLES [OPERATION]
  python3 - "$1" "$2" "${3:-resize}" <<'PY'
import json, sys
path, drawables, operation = sys.argv[1], sys.argv[2], sys.argv[3]
r = json.load(open(path))
assert r["operation"] == operation, "operation %r" % r["operation"]
v = r["validation"]
assert v is not None and v["passed"] is True, "validation %r" % v
t = r["timings_ms"]
assert t["total"] > 0 and len(t["kernels"]) > 0, "timings %r" % t
assert len(r["build"]) > 0 and all("log" in b for b in r["build"]), "build"
assert r["parameters"]["drawables"] == drawables, "drawables"
assert operation != "resize" or r["parameters"]["target"] in ("layer", "image"), "target"
assert r["data_path"] == "pinned", "data_path %r" % r["data_path"]
PY
}

# ---------------------------------------------------------------- checks
# The pixels a filter case left in <name>.png against clfx-bench's CPU
# reference for the same options: within one level (premultiplied), or
# for a selection, inside it the whole-image filter and outside it
# untouched.  With sel_ref=crop, inside the selection the filter of the
# selection's rectangle alone: GIMP hands a drawable filter (its own
# gegl:gaussian-blur too) only the selection's bounds as its input.
check_pixels () {  # check_pixels NAME INPUT PREP FAMILY BENCH-OPTIONS...
  name=$1 input=$2 prep=$3 family=$4
  shift 4
  src=$in/$input.png what="the whole-image filter"
  if [ "$prep" = selection ] && [ "${sel_ref:-whole}" = crop ]; then
    src=$out/$name.crop.png what="the filter of the selection's rectangle alone"
    "$compare" --crop "$in/$input.png" 10,8,20,16 "$src"
  fi
  "$bench" --device reference --input "$src" \
    --output "$out/$name.ref.png" "$family" "$@" >/dev/null 2>"$out/$name.bench.err"
  if [ "$prep" = selection ]; then
    result=$("$compare" "$out/$name.png" "$out/$name.ref.png" 1 \
             --inside 10,8,20,16 --premultiplied 2>&1)
    ok $? "$name: inside the selection, $what ($result)"
    result=$("$compare" "$out/$name.png" "$in/$input.png" 0 \
             --outside 10,8,20,16 2>&1)
    ok $? "$name: outside the selection, untouched ($result)"
  else
    result=$("$compare" "$out/$name.png" "$out/$name.ref.png" 1 \
             --premultiplied 2>&1)
    ok $? "$name: pixels match the CPU reference ($result)"
  fi
}

while read -r name input prep target w h zoom filter addr norm maxdiff pm; do
  marked "$name" ok
  ok $? "$name: the plug-in succeeded"
  unnorm=
  [ "$norm" = "#f" ] && unnorm=--unnormalized
  "$bench" --device reference --input "$in/$input.png" \
    --output "$out/$name.ref.png" resize --width "$w" --height "$h" \
    --zoom-x "$zoom" --zoom-y "$zoom" --filter "$filter" \
    --addressing "$addr" $unnorm >/dev/null 2>"$out/$name.bench.err"
  result=$("$compare" "$out/$name.png" "$out/$name.ref.png" "$maxdiff" \
           ${pm:+--premultiplied} 2>&1)
  ok $? "$name: pixels match the CPU reference ($result)"
  err=$(check_report "$out/$name.json" 1 2>&1)
  ok $? "$name: report-file parses, validation passed, timings, build logs"
  [ -z "$err" ] || echo "$err" | tail -3 | diag
  cmp -s "$out/$name.json" "$out/$name.ret.json"
  ok $? "$name: the returned report is the report-file's"
  if [ "$prep" = selection ]; then
    marked "$name-selection" kept
    ok $? "$name: the selection is still there afterwards"
  fi
done < "$work/resize-cases"

while IFS='|' read -r head args; do
  set -- $head
  name=$1 input=$2 prep=$3 family=${1%%-*}
  shift 3
  marked "$name" ok
  ok $? "$name: the plug-in succeeded"
  check_pixels "$name" "$input" "$prep" "$family" "$@"
  err=$(check_report "$out/$name.json" 1 "$family" 2>&1)
  ok $? "$name: report-file parses, validation passed, timings, build logs"
  [ -z "$err" ] || echo "$err" | tail -3 | diag
  cmp -s "$out/$name.json" "$out/$name.ret.json"
  ok $? "$name: the returned report is the report-file's"
done < "$work/filter-cases"

# The procedures' in-process path: the wire path's pixels; the report is
# the operation's own, from GIMP's process, validated (a non-destructive
# filter renders only on export: its report says so).
while IFS='|' read -r head args; do
  set -- $head
  name=$1 wire=$3
  marked "$name" ok
  ok $? "$name: the procedure ran the module's operation inside GIMP"
  result=$("$compare" "$out/$name.png" "$out/$wire.png" 0 2>&1)
  ok $? "$name: the wire path's pixels ($wire: $result)"
  python3 - "$out/$name.json" "$out/$name.ret.json" "$args" <<'PY'
import json, sys
ret = open(sys.argv[2]).read()
if "non-destructive" in sys.argv[3]:
    assert "appended as a non-destructive filter" in ret, ret
else:
    r = json.load(open(sys.argv[1]))
    assert r["parameters"]["in-process"] == "gegl", r["parameters"]
    assert r["validation"]["passed"] is True, r["validation"]
    assert ret == open(sys.argv[1]).read(), "returned report differs"
PY
  ok $? "$name: the report is the operation's (in-process, validated)"
done < "$work/inproc-cases"

# The clfx: operations inside GIMP's process: the same pixels as the
# plug-in's cases (under a selection, GIMP's input: see check_pixels).
sel_ref=crop
while IFS='|' read -r head op props; do
  set -- $head
  name=$1
  marked "$name" ok
  ok $? "$name: $op merged as a drawable filter inside GIMP's process"
  check_pixels "$@"
done < "$work/gegl-cases"
if [ -n "$gegl_module" ]; then
  marked gegl-append ok
  ok $? "gegl-append: clfx:box appended as a non-destructive filter, XCF saved"
  check_pixels gegl-append rgba8 none filter --filter box --radius 3 \
    --addressing clamp
  marked gegl-append-reopen-filter clfx:box
  ok $? "gegl-append-reopen: a new GIMP finds the filter clfx:box in the XCF"
  python3 - "$out/gegl-append-reopen.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["parameters"]
assert p["radius"] == 3 and p["addressing"] == "clamp", p
assert p["in-process"] == "gegl", p
PY
  ok $? "gegl-append-reopen: the reopened filter ran with radius 3, clamp, in GIMP's process"
  for f in gegl-append-reopen gegl-append-reopen-merged; do
    result=$("$compare" "$out/$f.png" "$out/gegl-append.png" 0 2>&1)
    ok $? "$f: the same pixels as before saving ($result)"
  done
  marked gegl-append-reopen ok
  ok $? "gegl-append-reopen: merged, no filter left"
fi

# An OpenEXR photograph (Blender's studio lights, CC0, in the root's
# blender-data) loaded by GIMP itself, tone-mapped through the procedure:
# the float result GIMP exports equals clfx-bench's CPU reference on the
# same file (clfx-bench reads OpenEXR through the OpenEXR library) within
# reinhard05's float tolerance.
if [ -f "$hdr_exr" ]; then
  marked tonemap-exr ok
  ok $? "tonemap-exr: GIMP loaded $(basename "$hdr_exr") and the plug-in succeeded"
  "$bench" --device reference --input "$hdr_exr" --output "$out/tonemap-exr.ref.pfm" \
    tonemap --operator reinhard05 --brightness 0.5 >/dev/null 2>"$out/tonemap-exr.bench.err"
  result=$(python3 - "$out/tonemap-exr.pfm" "$out/tonemap-exr.ref.pfm" <<'PY' 2>&1
import sys
import numpy as np
def pfm(path):
    with open(path, "rb") as f:
        kind = f.readline().strip()
        w, h = map(int, f.readline().split())
        scale = float(f.readline())
        a = np.frombuffer(f.read(), dtype="<f4" if scale < 0 else ">f4")
    return a.reshape(h, w, 3 if kind == b"PF" else 1)
a, b = pfm(sys.argv[1]), pfm(sys.argv[2])
assert a.shape == b.shape, (a.shape, b.shape)
d = float(np.abs(a - b).max())
# reinhard05's float bound on these data is about 5e-6 (the report's
# tolerance); 1e-5 leaves room for GIMP's float round trip.
assert d <= 1e-5, "max |GIMP - reference| %g" % d
print("%dx%d, max |GIMP - reference| %.3g" % (a.shape[1], a.shape[0], d))
PY
)
  ok $? "tonemap-exr: GIMP's result is clfx-bench's CPU reference ($result)"
  err=$(check_report "$out/tonemap-exr.json" 1 tonemap 2>&1)
  ok $? "tonemap-exr: report-file parses, validation passed, timings, build logs"
  [ -z "$err" ] || echo "$err" | tail -3 | diag
fi

while IFS='|' read -r name input prep msg args; do
  marked "$name" refused
  ok $? "$name: the call failed with a PDB error"
  grep -a "^CLFX-ERROR $name: " "$log" | grep -qF "$msg"
  ok $? "$name: the error says '$msg'"
  result=$("$compare" "$out/$name.before.png" "$out/$name.after.png" 0 2>&1)
  ok $? "$name: the image is unchanged ($result)"
done < "$work/bad-cases"

# A checkerboard of single black and white pixels halved in linear light
# is mid-grey in light: sRGB 188 everywhere (the codes' average is 128).
range=$("$compare" --range "$out/checker-half.png" 2>&1)
[ "$range" = "188 188" ]
ok $? "checker-half: linear light gives sRGB 188 everywhere (colour range $range)"

check_transfer () {  # check_transfer REPORT TRANSFER FORMAT
  python3 - "$@" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
i = r["image"]
assert (i["transfer"], i["format"]) == (sys.argv[2], sys.argv[3]), i
PY
}

while read -r name input prep w h; do
  marked "$name" ok && marked "$name-gimp" ok
  ok $? "$name: the plug-in and gimp-image-scale succeeded"
  result=$("$compare" "$out/$name.png" "$out/$name-gimp.png" 1 2>&1)
  ok $? "$name: clfx linear and GIMP's linear scale agree within 1 ($result)"
  err=$(check_report "$out/$name.json" 1 2>&1)
  ok $? "$name: report-file parses, validation passed"
  [ -z "$err" ] || echo "$err" | tail -3 | diag
  if [ "$prep" = a98 ]; then
    err=$(check_transfer "$out/$name.json" linear "RGBA float" 2>&1)
    ok $? "$name: a gamma-2.2 space crosses as linear float (babl converts)"
  else
    err=$(check_transfer "$out/$name.json" srgb "RGBA u8" 2>&1)
    ok $? "$name: sRGB data crosses as it is, decoded in the kernels"
  fi
  [ -z "$err" ] || echo "$err" | tail -3 | diag
done < "$work/photo-cases"

# The copied Script-Fu call did the resize its values say.
marked script-fu-call ok
ok $? "script-fu-call: the copied call ran"
"$bench" --device reference --input "$in/rgb8.png" \
  --output "$out/script-fu-call.ref.png" resize --width 70 --height 50 \
  --zoom-x 0.8 --zoom-y 0.9 --filter cubic --addressing mirrored-repeat \
  >/dev/null 2>"$out/script-fu-call.bench.err"
result=$("$compare" "$out/script-fu-call.png" "$out/script-fu-call.ref.png" 1 2>&1)
ok $? "script-fu-call: pixels match the CPU reference ($result)"
err=$(python3 - "$out/script-fu-call.json" <<'PY' 2>&1
import json, sys
p = json.load(open(sys.argv[1]))["parameters"]
want = {"width": 70, "height": 50, "zoom-x": 0.8, "zoom-y": 0.9,
        "filter": "cubic", "addressing": "mirrored-repeat",
        "normalized-coords": True, "target": "layer", "validate": True}
assert all(p[k] == v for k, v in want.items()), p
PY
)
ok $? "script-fu-call: the report has the values the text was made from"
[ -z "$err" ] || echo "$err" | tail -3 | diag
marked script-fu-op ok
ok $? "script-fu-op: the copied call of plug-in-clfx-unsharp-mask ran"
check_pixels script-fu-op rgba8 none filter --filter unsharp --std-dev 2 \
  --amount 1.5
err=$(python3 - "$out/script-fu-op.json" <<'PY' 2>&1
import json, sys
r = json.load(open(sys.argv[1]))
p = r["parameters"]
assert r["variant"] == "unsharp" and p["std-dev"] == 2 and p["amount"] == 1.5, r
PY
)
ok $? "script-fu-op: the report has the values the text was made from"
[ -z "$err" ] || echo "$err" | tail -3 | diag

# All or nothing: the second layer's apply step fails; the first layer
# was already resized and written, and must be back as it was.
marked fault-apply refused
ok $? "fault-apply: the call failed with a PDB error"
grep -a "^CLFX-ERROR fault-apply: " "$log" \
  | grep -F "injected by CLFX_DEV's fault" | grep -qF "put back as it was"
ok $? "fault-apply: the error names the fault and says the image was put back"
before=$(grep -a "^CLFX-GEOMETRY fault-apply before " "$log" | cut -d' ' -f4-)
after=$(grep -a "^CLFX-GEOMETRY fault-apply after " "$log" | cut -d' ' -f4-)
[ -n "$before" ] && [ "$before" = "$after" ]
ok $? "fault-apply: canvas and layer sizes and offsets unchanged ($before / $after)"
for layer in L0 L1; do
  result=$("$compare" "$out/fault-apply.before-$layer.png" \
           "$out/fault-apply.after-$layer.png" 0 2>&1)
  ok $? "fault-apply: layer $layer's pixels unchanged ($result)"
done
if [ -n "$gegl_module" ]; then
  marked fault-inproc refused
  ok $? "fault-inproc: the in-process call failed with a PDB error"
  grep -a "^CLFX-ERROR fault-inproc: " "$log" \
    | grep -q "CL_OUT_OF_RESOURCES.*put back as it was"
  ok $? "fault-inproc: the error names the fault and says the image was put back"
  for layer in L0 L1; do
    result=$("$compare" "$out/fault-inproc.before-$layer.png" \
             "$out/fault-inproc.after-$layer.png" 0 2>&1)
    ok $? "fault-inproc: layer $layer's pixels unchanged ($result)"
  done
fi

marked selftest-reference refused
ok $? "selftest-reference: the call failed with a PDB error"
err=$(grep -a "^CLFX-ERROR selftest-reference: " "$log")
echo "$err" | grep -qF "needs an OpenCL device" \
  && echo "$err" | grep -qF "no-such-folder/selftest-reference.json"
ok $? "selftest-reference: the error says an OpenCL device is needed and that the report could not be written"
[ -n "$err" ] || echo "no CLFX-ERROR line for selftest-reference" | diag

# Every case of the self-test must validate and pass, gray half included
# (PoCL misreads CL_R + CL_HALF_FLOAT; the engine carries it as RGBA).
result=$(python3 - "$out/selftest.json" <<'PY' 2>&1
import json, sys
r = json.load(open(sys.argv[1]))
fams = [c["family"] for c in r["results"]]
# resize: 4 filters x 5 addressing modes x normalized or not, less the
# spec's forbidden pairs; filter: every variant, and every edge handling
# (each variant with those it takes); tonemap: every operator.
assert fams.count("resize") == 32, fams
cases = [c["case"].split("/") for c in r["results"] if c["family"] == "filter"]
variants = sorted({v for v, e in cases})
assert variants == ["bilateral", "box", "convolve", "dog", "gaussian",
                    "gaussian-blur-selective", "highpass",
                    "mean-curvature-blur", "median",
                    "motion-blur-circular", "motion-blur-linear",
                    "motion-blur-zoom", "noise-reduction", "snn-mean",
                    "sobel", "unsharp"], variants
assert sorted({e for v, e in cases}) == ["clamp", "clamp-to-edge",
                                         "mirrored-repeat", "none",
                                         "repeat"], cases
ops = sorted(c["case"].split("/")[0] for c in r["results"]
             if c["family"] == "tonemap")
assert ops == ["aces", "drago03", "durand02", "fattal02", "local-laplacian",
               "mantiuk06", "reinhard02", "reinhard05"], ops
assert r["cases"] == len(fams) and r["fallback"] is None, r
assert r["failed"] == 0 and r["passed"] == r["cases"], r
bad = [c for c in r["results"] if not (c["passed"] and "max_abs" in c)]
assert not bad, bad
print("%d cases, %s" % (r["cases"], r["device"]))
PY
)
status=$?
marked selftest ok || status=1
ok $status "selftest on $selftest_device: every case validated and passed ($result)"

echo "1..$n"
[ $failed -eq 0 ]
