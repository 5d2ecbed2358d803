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

/* The blur's float error on values up to max_abs, added to tol (FIR axes:
 * any taps, the box's too). */
void clfx_gauss_tolerance (ClfxTolerance *tol, const ClfxGaussAxis *x,
                           const ClfxGaussAxis *y, double max_abs);

#endif
