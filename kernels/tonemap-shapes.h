/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tonemap-shapes.h: the tonemap family's shapes, read by its kernels
 * (tonemap-common.h, tonemap-stats.h) and its engine files
 * (engine/ops/tonemap-common.c and each operator's): only #defines, valid
 * as C and as OpenCL C. */
#ifndef TONEMAP_SHAPES_H
#define TONEMAP_SHAPES_H

/* The reductions' blocks: a work-group of TM_BW work-items owns TM_BW x
 * TM_BH pixels at fixed image positions; one group of TM_FINAL reduces the
 * blocks' partials. */
#define TM_BW    64
#define TM_BH    32
#define TM_FINAL 256

/* The log-luminance histograms (probes): half octaves from 2^lo, under and
 * over bins first and last (tm_hist_bin).  Before the map: 2^-20 to 2^20;
 * after: 2^-16 to 2^4. */
#define TM_HB_LO (-20)
#define TM_HB_N  82
#define TM_HA_LO (-16)
#define TM_HA_N  42

/* The CPU devices' form (sources in buffers): TM_V neighbouring pixels of
 * a row a work-item (a float8 per channel), and the maps' TM_MAP_ROWS
 * rows a work-item. */
#define TM_V        8
#define TM_MAP_ROWS 16

/* What the read makes of colour (tonemap-common.h's tm_read, the
 * reference's tm_ref_read): stored values below TM_TINY (subnormals
 * included) are 0, and so are values the exposure leaves below it, so
 * that every term of a luminance is 0 or a normal float: devices that
 * flush subnormals to zero and those that keep them (the reference) then
 * compute the same thing.  After the exposure colour is capped at TM_CAP,
 * so that no sum over an image (whose pixels an int width by an int
 * height count, fewer than 2^62) nor any product the operators form
 * overflows.  TM_TINY_BITS: TM_TINY's bits, for the scan's integer
 * tests. */
#define TM_TINY      0x1p-121f
#define TM_TINY_BITS 0x03000000u
#define TM_CAP       0x1p64f

/* A half result's largest colour value, in linear light (tonemap-common.h's
 * TM_OUT): half's largest finite value, or for sRGB-encoded half a value
 * whose encoding is below it (2^38 encodes to 61600).  Larger results are
 * stored as this, not as +Inf; float results stay finite (each operator's
 * constants are made so: docs/TONEMAP.md, "Finite results"), 8- and
 * 16-bit ones saturate at the store. */
#define TM_HALF_MAX      65504.0f
#define TM_HALF_SRGB_MAX 0x1p38f

/* The scan's result (and each block's partial): 8 uints, the counts of
 * NaN, negative, +Inf and tiny colour values (TM_SCAN_COUNTS), then the
 * largest finite colour value's bits (tiny values left out). */
#define TM_SCAN_N       8
#define TM_SCAN_COUNTS  4
#define TM_SCAN_LARGEST 4

/* The parameter buffer every operator's constants kernel writes (16
 * floats).  Slots 0-7 hold the operator's own constants (see its
 * kernel); these are the family's: */
#define TM_P_N           16
#define TM_P_LAVG        8  /* the log-average of Y */
#define TM_P_MEAN        9  /* the mean of Y */
/* reinhard05's range of its mapped colour, durand02's of its base: */
#define TM_P_RANGE_LO    12
#define TM_P_RANGE_HI    13
#define TM_P_RANGE_SCALE 14 /* 1 / (hi - lo); 0: an empty or flat range */
#define TM_P_BLACK       15 /* 1 when the image is black (max Y = 0) */

/* tonemap-select.h: the sums' and the selection's work-group size, and
 * the selection's bins per pass (2^11: passes of 11, 11 and 10 bits). */
#define TM_SEL_GROUP 256
#define TM_SEL_BINS  2048

/* The global operators' maps (tonemap-global.cl's tm_params and tm_mapc;
 * engine/ops/tonemap-global.c's descriptors). */
#define TM_REINHARD02 0
#define TM_REINHARD05 1
#define TM_DRAGO03    2
#define TM_ACES       3

#endif
