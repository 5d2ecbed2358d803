/* SPDX-License-Identifier: GPL-3.0-or-later */
/* local-laplacian-shapes.h: what local-laplacian.cl and
 * engine/ops/local-laplacian.c agree on. */
#ifndef LOCAL_LAPLACIAN_SHAPES_H
#define LOCAL_LAPLACIAN_SHAPES_H

/* The log10 luminance's range: the floor is 6 decades below the largest
 * Y, so no image spans more. */
#define LL_DECADES 6
/* The most remapped images (samples of the range). */
#define LL_KMAX    32
/* ll_down_remap's work-group: LL_TILE x LL_TILE outputs from LL_SPAN x
 * LL_SPAN values of L. */
#define LL_TILE    16
#define LL_SPAN    (2 * LL_TILE + 3)
/* The parameter buffer's slots (the family's first 8 are the
 * operator's): the least log10 Y, the floor of Y, the largest log10 Y,
 * the samples' step and its inverse (both 0 where the range is empty). */
#define LL_P_LMIN  0
#define LL_P_FLOOR 1
#define LL_P_LMAX  2
#define LL_P_STEP  3
#define LL_P_ISTEP 4

#endif
