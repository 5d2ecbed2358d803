/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-parallel.h: split rows over threads for the CPU reference paths. */
#ifndef CLFX_PARALLEL_H
#define CLFX_PARALLEL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Calls fn (data, y0, y1) for disjoint row ranges covering [0, rows), on
 * up to the number of online CPUs (or $CLFX_THREADS) threads, and waits. */
void clfx_parallel_rows (int rows, void (*fn) (void *data, int y0, int y1),
                         void *data);

/* memcpy of `rows` rows of `row_bytes` between two strided layouts, the
 * rows split over threads: copies into and out of pinned staging memory
 * are the largest host cost of an op (docs/notebook/performance-2026.md,
 * "What limits each number"). */
void clfx_parallel_copy_rows (void *dst, size_t dst_stride, const void *src,
                              size_t src_stride, size_t row_bytes, int rows);

#ifdef __cplusplus
}
#endif

#endif
