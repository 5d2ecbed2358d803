#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# engine-wall.sh: the engine's wall time, host image in and host image out,
# against the pinned upload + download time of the same bytes (clfx-bench
# prints the ratio), for the cases of docs/PERFORMANCE.md.
# usage: tools/engine-wall.sh CLFX_BENCH DEVICE [REPEAT]
# Each case runs twice: with the images in ordinary (pageable) memory,
# which the engine stages through pinned buffers with the copies
# overlapping the transfers, and with --pinned, where the images live in
# the device's pinned memory as the plug-in's do.
set -eu
bench=$1 device=$2 repeat=${3:-10}
for depth in u8 float; do
  for case in "8192 4096 linear" "4096 8192 linear" "8192 4096 lanczos3"; do
    set -- $case
    for mem in "" --pinned; do
      echo "== ${1}x${1} -> ${2}x${2} $3 $depth ${mem:-pageable}"
      "$bench" --device "$device" --repeat "$repeat" --warmup 2 $mem \
        --synthetic "${1}x${1}:$depth" resize --width "$2" --height "$2" \
        --filter "$3"
    done
  done
done
