#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# device-check.sh: on a GPU machine, from the repository root, this tree
# against an earlier one: builds both clfx-bench (engine only), then
#   1. cold first use with fresh caches, the two builds taking turns
#      (tools/cold-start.py), and the rest of the operators in this build;
#   2. --validate of every operator's kernel forms (the GPU forms the CPU
#      device runs only when forced);
#   3. the same bytes as the earlier build for a set of cases.
# usage: [PARTS="cold validate identity"] tools/device-check.sh BASE_TREE
#        [DEVICE] [OUTDIR]
# On an H100 the three parts take about 2, 6 and 2 minutes (each run a
# fresh process): more than one 10-minute call holds, so PARTS splits it.
#   BASE_TREE  the earlier tree's files (git archive REV | tar -x -C DIR)
#   DEVICE     clfx-bench's --device (default NVIDIA)
#   OUTDIR     where the tables go (default $OUT, else /tmp/out)
set -u
base=$1 dev=${2:-NVIDIA}
O=${3:-${OUT:-/tmp/out}}
parts=" ${PARTS:-cold validate identity} "
want () { case $parts in *" $1 "*) return 0 ;; esac; return 1; }
mkdir -p "$O"
export PYTHONUNBUFFERED=1
t0=$(date +%s)
stamp () { echo "== $* ($(( $(date +%s) - t0 )) s)"; }
stamp builds
[ -x /tmp/bb/tools/clfx-bench ] ||
(cd "$base" && meson setup /tmp/bb -Dtests=false -Dplugin=disabled \
   -Dgegl_module=disabled >/tmp/bb.log 2>&1 && ninja -C /tmp/bb tools/clfx-bench >>/tmp/bb.log 2>&1) &
[ -x /tmp/bn/tools/clfx-bench ] ||
(meson setup /tmp/bn -Dtests=false -Dplugin=disabled -Dgegl_module=disabled \
   >/tmp/bn.log 2>&1 && ninja -C /tmp/bn tools/clfx-bench >>/tmp/bn.log 2>&1) &
wait
B=/tmp/bb/tools/clfx-bench N=/tmp/bn/tools/clfx-bench
[ -x $B ] && [ -x $N ] || { tail -20 /tmp/bb.log /tmp/bn.log; exit 1; }
$N --list-devices | tee "$O/devices.txt"

if want cold; then
stamp cold before and after
python3 tools/cold-start.py --before $B $N $dev 2 copy gaussian \
  reinhard05 | tee "$O/cold.md"
stamp cold after, the rest
python3 tools/cold-start.py $N $dev 1 copy gaussian-fir box sobel unsharp \
  median durand02 fattal02 resize-lanczos3 | tee "$O/cold-rest.md"
fi

export CLFX_CACHE_DIR=/tmp/cache-new
if want validate; then
stamp validate
v () { # v NAME SYNTHETIC [ENV] -- FAMILY ARGS
  name=$1 syn=$2 env=$3; shift 4
  r=$(env $env $N --device $dev --repeat 1 --warmup 0 --validate \
        --report /tmp/v.json --synthetic "$syn" "$@" 2>&1)
  st=$?
  k=$(python3 -c "import json;r=json.load(open('/tmp/v.json'));print(' '.join(sorted({x['name'] for x in r['timings_ms']['kernels']})), '| max_abs', r['validation']['max_abs'], 'fallback', r['fallback'])" 2>/dev/null)
  echo "$([ $st -eq 0 ] && echo PASS || echo "FAIL($st)") $name $syn: $k"
  [ $st -eq 0 ] || echo "$r" | tail -3
}
{
for s in 997x611:u8 640x480:float; do
  v "gaussian iir" $s "" -- filter --filter gaussian
  v "gaussian fir" $s "" -- filter --filter gaussian --method fir --std-dev-x 0.8 --std-dev-y 3
  v "gaussian mixed" $s "" -- filter --filter gaussian --std-dev-x 0.7 --std-dev-y 4
  v "gaussian iir 40" $s "" -- filter --filter gaussian --std-dev-x 40 --std-dev-y 40
  v "gaussian fir linear" $s "" -- filter --filter gaussian --method fir --std-dev-x 0.8 --std-dev-y 3 --sampler-filter linear
  v "box 3" $s "" -- filter --filter box --radius 3
  v "box 20 linear" $s "" -- filter --filter box --radius 20 --sampler-filter linear
  v "sobel" $s "" -- filter --filter sobel
  v "sobel h sign" $s "" -- filter --filter sobel --vertical false
  v "unsharp iir" $s "" -- filter --filter unsharp
  v "unsharp fir thr" $s "" -- filter --filter unsharp --std-dev 0.7 --threshold 0.05
  v "bilateral" $s "" -- filter --filter bilateral
  v "convolve" $s "" -- filter --filter convolve --matrix "0 -1 0 -1 5 -1 0 -1 0"
  for r in 1 2 3 4 8 16 32; do
    v "median $r" 320x240:u8 "" -- filter --filter median --radius $r
  done
  v "median 3 buffers" 320x240:u8 "CLFX_DEV=source=buffer" -- filter --filter median --radius 3
  v "median 32 buffers" 320x240:u8 "CLFX_DEV=source=buffer" -- filter --filter median --radius 32
done
for s in 640x480:float 640x480:half 997x611:u8; do
  for op in reinhard02 reinhard05 drago03 aces durand02 fattal02; do
    v "$op" $s "" -- tonemap --operator $op
  done
  v "durand02 linear" $s "" -- tonemap --operator durand02 --sampler-filter linear
done
v "resize lanczos3 2x" 2048x2048:u8 "" -- resize --width 1024 --height 1024 --filter lanczos3
v "resize cubic 3x" 3072x3072:u8 "" -- resize --width 1024 --height 1024 --filter cubic
v "resize cubic 4x" 4096x4096:u8 "" -- resize --width 1024 --height 1024 --filter cubic
v "resize lanczos3 8x" 4096x4096:u8 "" -- resize --width 512 --height 512 --filter lanczos3
v "resize cubic up float" 512x512:float "" -- resize --width 1111 --height 999 --filter cubic
} 2>&1 | tee "$O/validate.txt"
fi

want identity || { stamp done; exit 0; }
stamp identity
same=0 diff=0
id () { # id NAME SYNTHETIC -- FAMILY ARGS
  name=$1 syn=$2; shift 3
  CLFX_CACHE_DIR=/tmp/cache-base $B --device $dev --repeat 1 --warmup 0 \
    --synthetic "$syn" --output /tmp/a.pfm "$@" >/dev/null 2>&1
  CLFX_CACHE_DIR=/tmp/cache-new $N --device $dev --repeat 1 --warmup 0 \
    --synthetic "$syn" --output /tmp/b.pfm "$@" >/dev/null 2>&1
  if [ ! -s /tmp/a.pfm ] || [ ! -s /tmp/b.pfm ]; then
    diff=$((diff + 1)); echo "NO OUTPUT $name $syn"
  elif cmp -s /tmp/a.pfm /tmp/b.pfm; then same=$((same + 1)); echo "same $name $syn"
  else diff=$((diff + 1)); echo "DIFF $name $syn"; fi
  rm -f /tmp/a.pfm /tmp/b.pfm
}
{
for s in 997x611:u8 640x480:float; do
  id gaussian $s -- filter --filter gaussian
  id "gaussian fir" $s -- filter --filter gaussian --method fir --std-dev-x 0.8 --std-dev-y 3
  id sobel $s -- filter --filter sobel
  id unsharp $s -- filter --filter unsharp
  id box $s -- filter --filter box --radius 5
  id "median 3" $s -- filter --filter median --radius 3
  id "median 8" $s -- filter --filter median --radius 8
  id bilateral $s -- filter --filter bilateral
  id convolve $s -- filter --filter convolve
  for op in reinhard02 reinhard05 drago03 aces durand02 fattal02; do
    id $op $s -- tonemap --operator $op
  done
done
echo "identity: $same same, $diff different"
} 2>&1 | tee "$O/identity.txt"
stamp done
