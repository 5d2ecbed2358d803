/* SPDX-License-Identifier: GPL-3.0-or-later */
/* motion-blur-common.h: what the motion blurs' CPU references and
 * tolerances share (motion-blur-common.c; the variants:
 * motion-blur-linear.c, motion-blur-zoom.c, motion-blur-circular.c). */
#ifndef CLFX_MOTION_BLUR_COMMON_H
#define CLFX_MOTION_BLUR_COMMON_H

#include "../clfx-sampler-ref.h"
#include "../clfx-tolerance.h"

/* One step's bilinear read in double: the texels at columns i[0], i[1]
 * and rows j[0], j[1] (source coordinates) weighed by dx and dy, added to
 * sum and their weights to *in.  none: texels outside src are left out;
 * skip_zero: texels of weight 0 are not read. */
void clfx_motion_ref_step (const ClfxImage *src, ClfxSamplerDesc s,
                           const int i[2], const int j[2], double dx,
                           double dy, bool none, bool skip_zero,
                           double sum[4], double *in);
/* A result of the reference: sum / divisor, stored as the kernels store. */
void clfx_motion_ref_store (const ClfxPlan *plan, ClfxImage *dst, int x,
                            int y, const double sum[4], double divisor);
/* The tolerance: a result reads its path's texels (a bounded footprint);
 * terms float roundings of weighted sums of the values (weights summing to
 * 1), what says of which; none adds none_terms for the inside weights'
 * sum and the division. */
void clfx_motion_tolerance (const ClfxPlan *plan, const ClfxImage *src,
                            const ClfxImage *dst, const char *what,
                            int terms, int none_terms, ClfxTolerance *tol);

#endif
