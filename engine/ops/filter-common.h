/* SPDX-License-Identifier: GPL-3.0-or-later */
/* filter-common.h: what the filter family's variants share
 * (filter-common.c): the checks of the edge handling and the sampler
 * filter, the report's name, the source's largest value; and what the
 * separable blurs (gaussian, box) share: their plan's edge handling and
 * tap pairs, both axes FIR from the source to the result
 * (kernels/filter-fir.cl, filter-fir-linear.cl), the reference's source
 * with its halo and its store, and their error bound. */
#ifndef CLFX_FILTER_COMMON_H
#define CLFX_FILTER_COMMON_H

#include "../blocks/gauss.h"

/* Every edge handling but none (taps left out); the refusal names the
 * variant. */
bool   clfx_filter_edges_ok (int addressing, const char *variant,
                             ClfxError *error);
/* The report's name of the variant (the filter choice's nick). */
const char *clfx_filter_describe (const ClfxParams *p);
/* sampler-filter linear is for the FIR blurs (two taps a fetch): other
 * variants refuse it, naming themselves. */
bool   clfx_filter_nearest_ok (int sampler_filter, const char *variant,
                               ClfxError *error);
/* The state of a variant that blurs with the gaussian block and mixes
 * (unsharp, highpass, dog): edge handling none and sampler-filter linear
 * refused, naming the variant; then `size` zeroed bytes, the plan's
 * state, freed by free_state.  NULL with error set on refusal or out of
 * memory. */
void  *clfx_filter_mix_state (ClfxPlan *plan, size_t size,
                              void (*free_state) (void *), int addressing,
                              int sampler_filter, const char *variant,
                              ClfxError *error);
/* The largest finite |value| of the source in linear light (alpha
 * included) and, when min_alpha is not NULL, its smallest alpha (1
 * without alpha). */
double clfx_filter_max_abs (const ClfxImage *src, double *min_alpha);
/* A reference's result in double rounded to float, the family's rule for
 * results of finite texels whose true value lies past float's range:
 * clamped to +-FLT_MAX, as the kernels clamp them.  NaN and infinities
 * (from texels that are not finite) stay as they are. */
float  clfx_filter_ref_float (double v);

/* ---- windows wider than the image ----------------------------------------- */

/* A window of n taps (n odd, offsets -n/2 .. n/2) folded along one axis
 * of `side` texels: every tap reads a texel, so the taps that read one
 * texel can be taken as one, weighted by the sum of their weights.  For
 * each position of the axis, the first and last offset its window visits
 * (range) and the weights of those two, of the taps inside the image and
 * of those outside (edge: x, y, z, w); the offsets between weigh
 * tab[offset + n/2].  By addressing:
 *   clamp-to-edge: the offsets inside, the first and last carrying the
 *     taps past their edge;
 *   clamp, none: the offsets inside (outside: clamp's transparent texel,
 *     none's taps left out);
 *   repeat: one period of offsets, each weighing the taps a whole number
 *     of periods away, where the window is wider than the side, else the
 *     window;
 *   mirrored-repeat: the same with two sides (a period of the mirror),
 *     where the window is wider than that.
 * Sums in double of the float taps, rounded once.  Windows that read the
 * image many times over then cost the image's side, not n
 * (kernels/bilateral.cl bilateral_f, filter-fir.cl filter_fold_*). */
typedef struct
{
  float     *tab;   /* n */
  cl_int2   *range; /* side */
  cl_float4 *edge;  /* side */
  int        side, half;
} ClfxFold;

bool clfx_filter_fold (ClfxFold *f, const float *taps, int n, int side,
                       int addressing, ClfxError *error);
void clfx_filter_fold_clear (ClfxFold *f);
/* The most offsets the fold visits from one position. */
int  clfx_filter_fold_terms (const ClfxFold *f);
/* The texels a folded axis reads on each side of a position: at most
 * the side (a mirror's period is two sides, -side .. side - 1). */
int  clfx_filter_fold_halo (int n, int side);

/* ---- the separable blurs ---------------------------------------------------- */

/* A separable blur: its axes (the gaussian's FIR or IIR, the box's equal
 * taps) and how it reads the source. */
typedef struct
{
  ClfxGaussAxis x, y;
  bool          renorm;  /* edge handling none: outside taps left out (read
                          * as 0 and the weights of those inside
                          * renormalised) */
  bool          linear;  /* sampler-filter linear: tap pairs through the
                          * sampler */
  cl_float2    *px, *py; /* linear: each axis's (offset, weight) pairs */
  int           mx, my;
  /* Both axes FIR and the window wider than the image along one: the
   * taps folded (ClfxFold) along the axes wider than their side (fold_x,
   * fold_y), through nearest reads whatever sampler-filter says. */
  bool          folded, fold_x, fold_y;
  ClfxFold      fx, fy;
} ClfxFilterBlur;

/* Once the axes are made: the plan's part the blurs share (the result's
 * size, the edge handling, linear light on premultiplied alpha, the
 * axes' halos, the memory) and the tap pairs of sampler-filter linear. */
bool clfx_filter_blur_plan (ClfxFilterBlur *b, int addressing,
                            int sampler_filter, const ClfxImage *src,
                            ClfxPlan *plan, ClfxError *error);
void clfx_filter_blur_clear (ClfxFilterBlur *b);

/* Both axes FIR, from the source to the result: tap pairs through the
 * sampler (b->linear), else two passes through a float4 buffer. */
bool clfx_filter_fir (ClfxGraph *g, const ClfxFilterBlur *b,
                      ClfxError *error);
/* Whether clfx_filter_fir's passes take the GPUs' form on this graph
 * (the taps' texels through local memory). */
bool clfx_filter_fir_local (ClfxGraph *g, const ClfxFilterBlur *b);

/* The reference's source with the axes' halos, as a float RGBA image,
 * fetched as the device fetches it; and the same as doubles (*dw x *dh
 * RGBA, NULL with *error set when out of memory). */
bool    clfx_filter_ref_source (const ClfxPlan *plan,
                                const ClfxFilterBlur *b,
                                const ClfxImage *src, ClfxImage *img,
                                ClfxError *error);
double *clfx_filter_ref_doubles (const ClfxImage *img, int *dw, int *dh,
                                 ClfxError *error);
/* The reference of a folded blur (b->folded): each axis's taps grouped
 * by the texel they read (an independent grouping, tap by tap through
 * the addressing), the rows then the columns in double, stored as
 * clfx_filter_ref_store does. */
bool    clfx_filter_ref_folded (const ClfxPlan *plan, const ClfxFilterBlur *b,
                                const ClfxImage *src, ClfxImage *dst,
                                ClfxError *error);
/* The reference's float RGBA result `out` (the doubles d of dw x dh
 * first, where d is not NULL) into dst: edge handling none's
 * renormalisation, then the store. */
bool    clfx_filter_ref_store (const ClfxPlan *plan, const ClfxFilterBlur *b,
                               const double *d, int dw, int dh,
                               ClfxImage *out, ClfxImage *dst,
                               ClfxError *error);

/* ---- iterated 3 x 3 stencils ---------------------------------------------- */

/* n iterations of a 3 x 3 stencil on the graph's current piece, as GEGL
 * runs its iterated area filters: the source loaded once over the piece
 * grown by n a side (the plan's halo; the addressing beyond the image)
 * into a float RGBA device buffer (kernel `<prefix>_load`, its arguments
 * source, buffer, width, height, x0, y0), then each iteration one pixel
 * in from the previous one's square into a second buffer and back
 * (`<prefix>_iterate`: in, out, width, first, columns, rows), the last
 * made where it is stored (`<prefix>_store`: in, width, n, whether to
 * iterate, result).  `extra`, when not NULL, is one more argument last
 * to the iterate and store kernels. */
bool clfx_filter_iterate (ClfxGraph *g, const char *prefix, int n,
                          const ClfxArg *extra, ClfxError *error);

/* One iteration's value at (x, y) of a plane v of row stride s (the
 * reference's stencil, its eight neighbours inside v). */
typedef float (*ClfxIterateStep) (const float *v, int s, int x, int y);

/* The CPU reference of such a filter: per colour channel, the plane of
 * the source over the image grown by n a side (the plan's addressing
 * outside), n iterations of step from one plane into another, each over
 * the square one pixel in from the last; alpha kept; stored unrounded
 * and straight. */
bool clfx_filter_iterate_cpu (const ClfxPlan *plan, const ClfxImage *src,
                              ClfxImage *dst, int n, ClfxIterateStep step,
                              ClfxError *error);

/* The blurs' tolerance: the axes' float error (clfx_gauss_tolerance),
 * over the smallest weight inside with edge handling none, and the
 * sampler's weights with linear. */
void clfx_filter_blur_tolerance (const ClfxPlan *plan,
                                 const ClfxFilterBlur *b,
                                 const ClfxImage *src, const ClfxImage *dst,
                                 ClfxTolerance *tol);

#endif
