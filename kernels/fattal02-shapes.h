/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fattal02-shapes.h: fattal02's shapes, read by kernels/fattal02.cl and
 * engine/ops/fattal02.c: only #defines, valid as C and as OpenCL C. */
#ifndef FATTAL02_SHAPES_H
#define FATTAL02_SHAPES_H

/* fattal02's own parameter buffer f (FAT_F_N floats): the mean of U, L at
 * the two percentiles, and from FAT_AVG each pyramid level's average
 * gradient. */
#define FAT_F_N  64
#define FAT_MEAN 0
#define FAT_LO   1
#define FAT_HI   2
#define FAT_AVG  8

/* The deterministic sums' work-groups (fat_sum, fat_sum_final). */
#define FAT_SUM TM_SEL_GROUP
/* The radix selection: 11 + 11 + 10 bits of the order-preserving key. */
#define FAT_BINS TM_SEL_BINS
/* The coarsest grid's cells, at most (8 x 8): fat_coarse's work-group. */
#define FAT_COARSE 64
/* The multigrid's CPU form (fat_sweep_v, fat_restrict_v, fat_prolong_v):
 * FAT_SWEEP_V cells of a colour, coarse cells or pairs of fine ones a
 * work-item. */
#define FAT_SWEEP_V 8

#endif
