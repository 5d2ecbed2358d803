/* SPDX-License-Identifier: GPL-3.0-or-later */
/* mantiuk06-shapes.h: mantiuk06's shapes, read by kernels/mantiuk06.cl and
 * engine/ops/mantiuk06.c: only #defines, valid as C and as OpenCL C. */
#ifndef MANTIUK06_SHAPES_H
#define MANTIUK06_SHAPES_H

/* The solver's state (M06_S_N floats on the device; counters are exact
 * in float up to 2^24): written by the one-group kernels m06_final,
 * and m06_range, read by the vector kernels. */
#define M06_S_N       32
#define M06_RR        0  /* r.r of the current x */
#define M06_BB        1  /* b.b */
#define M06_ALPHA     2
#define M06_BETA      3
#define M06_SAVED_RR  4  /* r.r of the best x seen (saved) */
#define M06_ITER      5  /* iterations made */
#define M06_BACK      6  /* iterations running whose r.r grew */
#define M06_DONE      7  /* converged, or itmax made */
#define M06_PAUSE     8  /* a restart is due: the host makes it */
#define M06_SAVE      9  /* this iteration saves x before its update */
#define M06_LAST      11 /* the iteration whose update is due */
#define M06_Q         16 /* four order statistics of x: the ranks below
                          * and above the 0.1 % point, then the 99.9 % */
#define M06_LMIN      20
#define M06_LMAX      21

/* m06_final's modes: what the reduced value is. */
#define M06_FIN_BB      0
#define M06_FIN_START   1 /* r.r of the first residual */
#define M06_FIN_PAP     2
#define M06_FIN_RR      3 /* r.r after an update: the iteration's step */
#define M06_FIN_RESTART 4

/* A GPU's A v: the levels of at most M06_COARSE_PIXELS pixels in one
 * group of M06_COARSE_GROUP work-items (m06_coarse), at most
 * M06_COARSE_LEVELS of them (a launch each cost more than their work). */
#define M06_COARSE_PIXELS 4096
#define M06_COARSE_GROUP  256
#define M06_COARSE_LEVELS 16

/* The result is flat (the top of the display range) where the solved
 * log10 Y's range (0.1 % to 99.9 %) is at most M06_FLAT (1 + max |x|)
 * decades: a constant image's solve in float spreads its x by rounding,
 * relative to |x|, which a smaller threshold would stretch over the
 * display range (1e-4 decades: 0.023 % in luminance). */
#define M06_FLAT 1e-4f
/* In double, the reference's (m06_map computes it in float). */
#define M06_IS_FLAT(lo, hi)                                                  \
  ((hi) - (lo) <= M06_FLAT * (1.0 + fmax (fabs (lo), fabs (hi))))

#endif
