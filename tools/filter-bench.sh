#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# filter-bench.sh: the filter family's kernels beside the copy kernel in
# the same run (clfx-bench prints the copy roofline and the kernels' share
# of it), for the cases the filters' targets name, on an 8192x8192 RGBA
# float image by default.
# usage: tools/filter-bench.sh CLFX_BENCH DEVICE [REPEAT] [SIZE]
# CASES_ONLY="name ..." runs only those cases.
set -eu
bench=$1 device=$2 repeat=${3:-10} size=${4:-8192}
while read -r name args; do
  case " ${CASES_ONLY:-$name} " in *" $name "*) ;; *) continue ;; esac
  echo "== $name"
  # shellcheck disable=SC2086
  "$bench" --device "$device" --repeat "$repeat" --warmup 2 \
    --synthetic "${size}x${size}:float" filter $args
done <<'CASES'
gaussian-fir-3 --filter gaussian --method fir --std-dev-x 3 --std-dev-y 3
gaussian-iir-5 --filter gaussian --method iir --std-dev-x 5 --std-dev-y 5
gaussian-iir-50 --filter gaussian --method iir --std-dev-x 50 --std-dev-y 50
box-10 --filter box --radius 10
unsharp-3 --filter unsharp --std-dev 3
unsharp-0.8-fir --filter unsharp --std-dev 0.8
median-5x5-square --filter median --radius 2 --neighborhood square
median-8-circle --filter median --radius 8 --neighborhood circle
bilateral-4 --filter bilateral --blur-radius 4
sobel --filter sobel
convolve-5x5 --filter convolve --matrix 1,0,0,0,0,0,2,0,0,0,0,0,1,0,0,0,0,0,-2,0,0,0,0,0,-1
convolve-3x3 --filter convolve --matrix 0,-1,0,-1,5,-1,0,-1,0
motion-linear-20 --filter motion-blur-linear --length 20
motion-circular-10 --filter motion-blur-circular --circular-angle 10
motion-zoom-0.1 --filter motion-blur-zoom --factor 0.1
highpass-4 --filter highpass
dog-1-2 --filter dog
noise-reduction-4 --filter noise-reduction
mean-curvature-blur-20 --filter mean-curvature-blur
selective-5 --filter gaussian-blur-selective
snn-mean-8 --filter snn-mean
CASES
