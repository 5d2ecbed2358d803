/* SPDX-License-Identifier: GPL-3.0-or-later */
/* durand02-shapes.h: durand02's shapes, read by kernels/durand02.cl and
 * engine/ops/durand02.c: only #defines, valid as C and as OpenCL C. */
#ifndef DURAND02_SHAPES_H
#define DURAND02_SHAPES_H

/* The splat's rows of a grid cell a work-item (durand_splat): a large
 * cell's pixels go to many work-items, their partials added after
 * (durand_splat_sum). */
#define TM_CHUNK 8

/* durand_splat_v's z cells per work-item, at most: durand02's gz is at
 * most 122 (range-sigma >= 0.05). */
#define TM_SPLAT_Z 128

/* The base is flat, and its contrast scale c 0, where max B - min B is
 * at most this (log10 units, 0.23 % in luminance): such a range is at
 * most a few hundred ulps of the grid's float at the largest |L| (45),
 * and c = contrast / range would stretch the grid's rounding (a constant
 * image's) into the whole contrast. */
#define TM_FLAT_BASE 0x1p-10f

#endif
