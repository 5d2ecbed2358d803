#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# device-all-bench.sh: device all against one device, engine wall time
# (host image in, host image out), for the cases of the notebook's
# "device=all on two H200s", RGBA float (SIZE x SIZE, default 8192).
# usage: [CASES="word ..."] [SIZE=N] tools/device-all-bench.sh CLFX_BENCH
#          [ONE_DEVICE] [REPEAT]
#   ONE_DEVICE  the single device to compare with (default: NVIDIA)
#   CASES       only the cases whose name contains one of these words
# Each case runs with the images in ordinary (pageable) memory and with
# --pinned (the plug-in's way), on ONE_DEVICE, then on all with every
# CLFX_DEV peer-pinned way (stage, direct, context: docs/DEVELOPING.md)
# for the pinned images; each run prints clfx-bench's table, the phases'
# medians.
set -eu
bench=$1 one=${2:-NVIDIA} repeat=${3:-10} half=$((${SIZE:-8192} / 2))
run () { # name device mem way args...
  name=$1 dev=$2 mem=$3 way=$4
  shift 4
  echo "== $name device=$dev ${mem:-pageable} peer-pinned=$way"
  CLFX_DEV=peer-pinned=$way "$bench" --device "$dev" --repeat "$repeat" \
    --warmup 2 --no-roofline $mem \
    --synthetic "${SIZE:-8192}x${SIZE:-8192}:float" "$@" ||
    echo "(failed: status $?)"
}
for c in \
  "resize-linear resize --width $half --height $half --filter linear" \
  "resize-lanczos3 resize --width $half --height $half --filter lanczos3" \
  "gaussian-fir-3 filter --filter gaussian --std-dev-x 3 --std-dev-y 3 --method fir" \
  "box-10 filter --filter box --radius 10" \
  "sobel filter --filter sobel"; do
  set -- $c
  name=$1
  shift
  if [ -n "${CASES:-}" ]; then
    hit=
    for w in $CASES; do case $name in *"$w"*) hit=1 ;; esac; done
    [ -n "$hit" ] || continue
  fi
  for mem in "" --pinned; do
    run "$name" "$one" "$mem" stage "$@"
    run "$name" all "$mem" stage "$@"
  done
  run "$name" all --pinned direct "$@"
  run "$name" all --pinned context "$@"
done
