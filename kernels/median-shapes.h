/* SPDX-License-Identifier: GPL-3.0-or-later */
/* median-shapes.h: the median's shapes, for engine/ops/median.c and the
 * median's kernels alike (#defines only, valid C and OpenCL C). */
#ifndef CLFX_MEDIAN_SHAPES_H
#define CLFX_MEDIAN_SHAPES_H

/* The tile forms' work-groups (median-windows.h, median-rank.cl):
 * MEDIAN_T x MEDIAN_T results. */
#define MEDIAN_T 16

/* median_network_cpu: MEDIAN_V results of a row per work-item. */
#define MEDIAN_V 4

/* median_rank_tile's groups: MEDIAN_T x MEDIAN_RANK_GY work-items for
 * MEDIAN_T x MEDIAN_T results (8: its 64 walkers and 128 sorters; 16
 * rows fitted fewer groups on each multiprocessor, 4 left fewer
 * work-items to sort, both slower). */
#define MEDIAN_RANK_GY 8

/* median_rank_cpu: a work-item makes MEDIAN_CPU_W x MEDIAN_CPU_H results
 * from a tile of (W + 2r) x (H + 2r) texels, 30 bytes a texel of local
 * memory and 16 a result (radius 8: 148 KiB; radius 100: 1.8 MiB, the
 * ranks still 16-bit). */
#define MEDIAN_CPU_W 32
#define MEDIAN_CPU_H 64

#endif
