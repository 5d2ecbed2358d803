#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# perf-matrix.sh: the resize benchmark matrix of docs/PERFORMANCE.md.
# usage: tools/perf-matrix.sh CLFX_BENCH DEVICE OUTDIR [REPEAT] [SIZES]
#   SIZES: "8192:4096 4096:8192" (source:destination squares) by default;
#   DEPTHS (environment): "u8 float" by default.
# Every case runs with --validate (the GPU result against the CPU
# reference) and prints clfx-bench's table, which has the copy kernel and
# the pinned transfer rate of the same device and input beside it.
set -eu
bench=$1 device=$2 out=$3 repeat=${4:-10} sizes=${5:-"8192:4096 4096:8192"}
mkdir -p "$out"
status=0
for depth in ${DEPTHS:-u8 float}; do
  for size in $sizes; do
    s=${size%%:*} d=${size##*:}
    for filter in nearest linear cubic lanczos3; do
      name="resize-${s}-${d}-${filter}-${depth}"
      echo "== $name"
      "$bench" --device "$device" --repeat "$repeat" --warmup 2 --validate \
        --synthetic "${s}x${s}:${depth}" --report "$out/$name.json" \
        resize --width "$d" --height "$d" --filter "$filter" || status=1
    done
  done
done
exit $status
