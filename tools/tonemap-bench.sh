#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tonemap-bench.sh: the tonemap family's kernels beside the copy kernel in
# the same run (clfx-bench prints the copy roofline and the kernels' share
# of it), on an 8192x8192 RGBA float image and on a 3840x2160 RGBA half
# frame (the real-time case), as the tone mappers' targets name them.
# usage: tools/tonemap-bench.sh CLFX_BENCH DEVICE [REPEAT]
set -eu
bench=$1 device=$2 repeat=${3:-10}
for image in 8192x8192:float 3840x2160:half; do
  for op in reinhard02 reinhard05 drago03 aces durand02 fattal02 mantiuk06 \
            local-laplacian; do
    echo "== $op $image"
    "$bench" --device "$device" --repeat "$repeat" --warmup 2 \
      --synthetic "$image" tonemap --operator "$op"
  done
  echo "== durand02 $image, sampler-filter linear"
  "$bench" --device "$device" --repeat "$repeat" --warmup 2 \
    --synthetic "$image" tonemap --operator durand02 --sampler-filter linear
done
