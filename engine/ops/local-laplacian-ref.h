/* SPDX-License-Identifier: GPL-3.0-or-later */
/* local-laplacian-ref.h: local-laplacian (Paris, Hasinoff and Kautz 2011 in
 * the fast form of Aubry et al. 2014) in double on the CPU, written from
 * the operator's definition (docs/TONEMAP.md, "local-laplacian"), as the reference a
 * later device version is measured against; with the definition's direct
 * (slow) form, for agreement.  Needs only libc and libm. */
#ifndef CLFX_LOCAL_LAPLACIAN_REF_H
#define CLFX_LOCAL_LAPLACIAN_REF_H

#include <stdbool.h>

typedef struct
{
  double detail;             /* alpha, >= 0 (1: detail kept) */
  double range_compression;  /* c in [0, 1]; beta = 1 - c */
  double edge;               /* sigma, log10 units, > 0 */
  /* K, the remapped images, where L's range is not empty: >= 2; 0:
   * clfx_local_laplacian_samples (edge), the device's. */
  int    samples;
  /* The direct form (exact g per coefficient) instead of the fast one:
   * small images only (clfx_local_laplacian_ref). */
  bool   direct;
} ClfxLocalLaplacianRefParams;

typedef struct
{
  int    levels;   /* N: halvings down to 1 x 1 */
  int    samples;  /* K (0: the direct form, which takes none) */
  double l_min, l_max;
  double step;     /* between samples (0 when K = 1 or direct) */
} ClfxLocalLaplacianInfo;

/* Steps 2 to 6 on a log10 luminance image: L and out w*h, row-major (out
 * may be L); l_min <= l_max the samples' range (steps 1's Lmin and Lmax:
 * L's least and largest value).  False when out of memory or a parameter
 * is out of range (out then untouched).  info may be NULL.
 * The fast form keeps the input's Gaussian pyramid and the output
 * pyramid and makes the K remapped images' pyramids one at a time. */
bool clfx_local_laplacian_ref_log (int w, int h, const double *L, double *out,
                                   const ClfxLocalLaplacianRefParams *p,
                                   double l_min, double l_max,
                                   ClfxLocalLaplacianInfo *info);
/* The direct form: every coefficient of level l < N from the pyramid of
 * the image remapped with that coefficient's own g, made only on the
 * window of each level that the coefficient reads (exact: see the .c).
 * p->samples is ignored; l_min and l_max only go to info. */
bool clfx_local_laplacian_direct_log (int w, int h, const double *L,
                                      double *out,
                                      const ClfxLocalLaplacianRefParams *p,
                                      double l_min, double l_max,
                                      ClfxLocalLaplacianInfo *info);

/* Steps 1 to 7: in w*h RGBA in double, linear, cleaned and exposed (no
 * NaN, nothing negative), straight alpha; out w*h RGBA float.  p->direct
 * picks the form.  A black image (max Y 0) gives black, alpha kept.
 * Values above FLT_MAX saturate there.  False as the log forms (out then
 * untouched).  info may be NULL. */
bool clfx_local_laplacian_ref (int w, int h, const double *rgba_in,
                               float *out_rgba,
                               const ClfxLocalLaplacianRefParams *p,
                               ClfxLocalLaplacianInfo *info);

/* The pieces, for tests and the device's validation. */

/* K for an edge: a sample every edge over the LL_DECADES an image's log
 * luminance may span (kernels/local-laplacian-shapes.h), at most LL_KMAX
 * and at least 2. */
int clfx_local_laplacian_samples (double edge);

/* N of step 4 (0 for 1 x 1); the sides of level l in *lw, *lh. */
int  clfx_local_laplacian_levels (int w, int h);
void clfx_local_laplacian_level_size (int w, int h, int l, int *lw, int *lh);
/* Step 3's r_g(i), with beta = 1 - range_compression. */
double clfx_local_laplacian_remap (double i, double g, double alpha,
                                   double beta, double sigma);
/* down: in w x h -> out ceil(w/2) x ceil(h/2).  up: in ceil(w/2) x
 * ceil(h/2) -> out w x h.  Row-major; out must not be in. */
bool clfx_local_laplacian_down (int w, int h, const double *in, double *out);
void clfx_local_laplacian_up (int w, int h, const double *in, double *out);

#endif
