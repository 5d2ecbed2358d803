/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gauss.h: gegl:gaussian-blur as a block other variants compose (the
 * gaussian variant; unsharp blurs its source and its threshold mask with
 * it): one axis's definition, the blur of a float image on the device,
 * both axes IIR from the source to the result, the same blur in double
 * for the references, and its error bound.  gauss.c; its kernels are
 * kernels/gauss-iir.cl and gauss-iir-image.cl (the FIR axes of a float
 * image go through the blocks' separable convolution). */
#ifndef CLFX_GAUSS_H
#define CLFX_GAUSS_H

#include "clfx-blocks.h"

/* One axis: FIR taps or the IIR's constants. */
typedef struct
{
  bool   iir;
  int    n;       /* FIR taps (odd; 1: identity) */
  float *k;       /* FIR taps, GEGL's: float, normalized by their double sum */
  double coef[4]; /* IIR: B, a1, a2, a3 */
  double m[9];    /* IIR: Triggs and Sdika's boundary matrix, row-major */
} ClfxGaussAxis;

/* GEGL's choice and formulas for std_dev with `method` (the gaussian's
 * CLFX_GAUSS_*: auto takes FIR below sigma 1 and IIR from 1). */
bool clfx_gauss_axis (ClfxGaussAxis *a, double std_dev, int method,
                      ClfxError *error);
void clfx_gauss_axis_clear (ClfxGaussAxis *a);
/* Source pixels the axis reads on each side (the IIR: none; it reads
 * whole lines, so a plan with an IIR axis runs in one piece). */
int  clfx_gauss_half (const ClfxGaussAxis *a);

/* On the device: the w x h blur `name` of float image `in`, which has the
 * axes' halos around it ((w + 2 half x) x (h + 2 half y)); edge_zero: the
 * IIR's outside is 0 (clamp), else the line's end texels. */
cl_mem clfx_gauss_blur (ClfxGraph *g, const char *name,
                        const ClfxGaussAxis *x, const ClfxGaussAxis *y,
                        cl_mem in, int w, int h, bool edge_zero,
                        ClfxError *error);

/* Both axes IIR from the source (CLFX_SRC, the graph's tile, one piece)
 * to the result (CLFX_DST), in the form the device runs well (rows then
 * columns; on CPU devices whose result cannot hold the rows, the columns
 * in bands; on GPUs, segments of lines side by side: gauss-iir.cl).
 * program NULL: the block's kernels (gauss-iir.cl), storing the blur;
 * else a program that builds them with its own GAUSS_IIR_STORE, which
 * may read the source and `amount` (unsharp-iir.cl). */
bool clfx_gauss_iir_both (ClfxGraph *g, const ClfxGaussAxis *x,
                          const ClfxGaussAxis *y, bool edge_zero,
                          const char *program, float amount,
                          ClfxError *error);

/* The reference: *d (*dw x *dh RGBA doubles, with the halos) blurred in
 * place, shrinking by the halos. */
bool clfx_gauss_ref (double **d, int *dw, int *dh, const ClfxGaussAxis *x,
                     const ClfxGaussAxis *y, bool edge_zero,
                     ClfxError *error);

/* ---- variants that compose the blur (unsharp, highpass, dog) ------------- */

/* Both axes of gegl:gaussian-blur at std_dev, method auto, for `variant`:
 * refuses what the IIR (std_dev from 1) does not take, edges other than
 * clamp-to-edge and clamp, as unsharp's. */
bool clfx_gauss_axes_auto (ClfxGaussAxis *x, ClfxGaussAxis *y,
                           double std_dev, int addressing,
                           const char *variant, ClfxError *error);

/* The reference's source: the w x h result with halos hx, hy around it,
 * fetched as the kernels fetch (sampler s: decoded, premultiplied), as
 * RGBA doubles in the canonical layout; free() it. */
double *clfx_gauss_ref_load (const ClfxImage *src, ClfxSamplerDesc s,
                             int hx, int hy, ClfxError *error);
/* Canonical premultiplied texel v as straight RGBA (gray in R, G and B);
 * ai: the layout's alpha channel, -1 for none.  Alpha 0: colour 0. */
void    clfx_gauss_ref_straight (const double *v, int ai, double out[4]);
/* Straight RGBA sv into float image `out` at (x, y), premultiplied, in
 * the canonical layout; finite values past float's range clamped. */
void    clfx_gauss_ref_put (ClfxImage *out, int x, int y, const double sv[4],
                            int ai);

/* The plan of a variant that blurs its source with the block and mixes
 * it: the source's size, premultiplied and decoded as a blur, halos hx
 * and hy, one piece where `whole` (an IIR). */
void    clfx_gauss_plan_mix (ClfxPlan *plan, const ClfxImage *src,
                             int addressing, int hx, int hy, bool whole,
                             size_t bytes_per_pixel);
/* The start of such a variant's tolerance: tol made afresh with the
 * read's bound, the values' magnitude declared where every blur is FIR;
 * the largest value in *max_abs.  Returns what straight colour's errors
 * are multiplied by: 1 / the source's smallest alpha. */
double  clfx_gauss_tol_straight (ClfxTolerance *tol, const ClfxImage *src,
                                 bool fir, double *max_abs);

/* The blur's float error on values up to max_abs, added to tol (FIR axes:
 * any taps, the box's too). */
void clfx_gauss_tolerance (ClfxTolerance *tol, const ClfxGaussAxis *x,
                           const ClfxGaussAxis *y, double max_abs);

#endif
