#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# resize-strip-bench.sh: the tiled, strip and sweep kernels in one build
# (CLFX_DEV resize-strip, docs/DEVELOPING.md), for the shrink by two:
# 8192x8192 to 4096x4096, cubic and lanczos3, every depth, images in
# pinned memory; each run prints clfx-bench's table (the kernel's median
# is the resize_filter_tile, _strip or _sweep row) and the copy kernel of
# the same run.  off: the tiled kernel; all: the strip kernel; sweep: the
# sweep kernel (auto picks it for 8-bit sRGB at this size).
# usage: tools/resize-strip-bench.sh CLFX_BENCH [DEVICE] [REPEAT]
set -eu
bench=$1 device=${2:-NVIDIA} repeat=${3:-10}
for depth in u8 u16 half float; do
  for filter in cubic lanczos3; do
    for strip in off all sweep; do
      echo "== $depth $filter resize-strip=$strip"
      CLFX_DEV=resize-strip=$strip "$bench" --device "$device" \
        --repeat "$repeat" --warmup 2 --pinned \
        --synthetic "8192x8192:$depth" resize --width 4096 --height 4096 \
        --filter "$filter" || echo "(failed: status $?)"
    done
  done
done
