#!/bin/sh
# filter-bench.sh: the filter family's kernels beside the copy kernel in
# the same run (clfx-bench prints the copy roofline and the kernels' share
# of it), for the cases the filters' targets name, on an 8192x8192 RGBA
# float image by default.
# usage: tools/filter-bench.sh CLFX_BENCH DEVICE [REPEAT] [SIZE]
set -eu
bench=$1 device=$2 repeat=${3:-10} size=${4:-8192}
while read -r name args; do
  echo "== $name"
  # shellcheck disable=SC2086
  "$bench" --device "$device" --repeat "$repeat" --warmup 2 \
    --synthetic "${size}x${size}:float" filter $args
done <<'CASES'
gaussian-fir-3 --filter gaussian --method fir --std-dev-x 3 --std-dev-y 3
gaussian-iir-5 --filter gaussian --method iir --std-dev-x 5 --std-dev-y 5
gaussian-iir-50 --filter gaussian --method iir --std-dev-x 50 --std-dev-y 50
box-10 --filter box --radius 10
CASES
