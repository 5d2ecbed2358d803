/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-blocks.h: building blocks for variants to compose on the device,
 * each with its CPU reference (blocks.c, kernels/blocks.cl).
 *
 * Device images are float RGBA (clfx_graph_image), in linear light with
 * premultiplied alpha; host images for the references are ClfxImage of 4
 * float channels holding the same values. */
#ifndef CLFX_BLOCKS_H
#define CLFX_BLOCKS_H

#include "../clfx-graph.h"
#include "../clfx-sampler-ref.h"

/* ---- on the device ------------------------------------------------------- */

/* The source's rectangle rect (source coordinates, addressing applied)
 * into the float image `name` (rect's size), fetched as mixing kernels
 * fetch: decoded, premultiplied. */
cl_mem clfx_block_load (ClfxGraph *g, const char *name, const ClfxRect *rect,
                        ClfxError *error);
/* The graph's current result rectangle from float image `img`, whose
 * texel (0, 0) is result pixel (origin_x, origin_y). */
bool   clfx_block_store (ClfxGraph *g, cl_mem img, int origin_x, int origin_y,
                         ClfxError *error);
/* Separable correlation: `in` is (w + nx - 1) x (h + ny - 1), the result
 * `name` w x h: out(x, y) = sum_j ky[j] sum_i kx[i] in(x + i, y + j). */
cl_mem clfx_block_sepconv (ClfxGraph *g, const char *name, cl_mem in, int w,
                           int h, const float *kx, int nx, const float *ky,
                           int ny, ClfxError *error);
/* Per channel sum, min, max and sum of log (1e-6 + max (v, 0)) of a w x h
 * float image: a buffer of 4 float4 (sum, min, max, log sum). */
cl_mem clfx_block_reduce (ClfxGraph *g, const char *name, cl_mem in, int w,
                          int h, ClfxError *error);
/* Counts of channel c in `bins` bins over [lo, hi): a buffer of uint. */
cl_mem clfx_block_histogram (ClfxGraph *g, const char *name, cl_mem in,
                             int w, int h, int channel, float lo, float hi,
                             int bins, ClfxError *error);
/* Half the size (each 2 x 2 block's mean, clamp-to-edge) and twice the
 * size (bilinear), both one sampler fetch per result texel. */
cl_mem clfx_block_pyramid_down (ClfxGraph *g, const char *name, cl_mem in,
                                int w, int h, ClfxError *error);
cl_mem clfx_block_pyramid_up (ClfxGraph *g, const char *name, cl_mem in,
                              int w, int h, ClfxError *error);

/* ---- CPU references (double where the device uses float) ----------------- */

/* out: a float RGBA image of rect's size. */
bool clfx_ref_block_load (const ClfxImage *src, ClfxSamplerDesc s,
                          const ClfxRect *rect, ClfxImage *out,
                          ClfxError *error);
/* The whole of dst from `img` (origin as clfx_block_store). */
void clfx_ref_block_store (const ClfxImage *img, int origin_x, int origin_y,
                           ClfxImage *dst, bool premul, bool encode);
/* The direct 2-D sum of the separable kernel (not two passes). */
bool clfx_ref_sepconv (const ClfxImage *in, int w, int h, const float *kx,
                       int nx, const float *ky, int ny, ClfxImage *out,
                       ClfxError *error);
/* stats[4 * k + c]: k = sum, min, max, log sum; abs_sum[c] = sum |v|,
 * log_abs[c] = sum |log|. */
void clfx_ref_reduce (const ClfxImage *in, double stats[16],
                      double abs_sum[4], double log_abs[4]);
/* counts[bins]; *ambiguous: values whose bin moves when the value moves
 * by a few float ulp (the device's read conversion may). */
void clfx_ref_histogram (const ClfxImage *in, int channel, float lo,
                         float hi, int bins, double *counts,
                         double *ambiguous);
bool clfx_ref_pyramid_down (const ClfxImage *in, ClfxImage *out,
                            ClfxError *error);
bool clfx_ref_pyramid_up (const ClfxImage *in, int w, int h, ClfxImage *out,
                          ClfxError *error);

/* The internal family that runs each block on a source (clfx-bench
 * blocks, the tests). */
extern const ClfxFamily clfx_family_blocks;

#endif
