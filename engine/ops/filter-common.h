/* filter-common.h: gegl:gaussian-blur as a piece other filter variants
 * compose (unsharp blurs its source and its threshold mask with it):
 * one axis's definition, the blur of a float image on the device, the
 * same blur in double for the references, and its error bound.  Defined
 * in filter.c. */
#ifndef CLFX_FILTER_GAUSS_H
#define CLFX_FILTER_GAUSS_H

#include "../blocks/clfx-blocks.h"

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
/* The largest finite |value| of the source in linear light (alpha
 * included) and, when min_alpha is not NULL, its smallest alpha (1
 * without alpha). */
double clfx_filter_max_abs (const ClfxImage *src, double *min_alpha);

/* One axis: FIR taps or the IIR's constants. */
typedef struct
{
  bool   iir;
  int    n;       /* FIR taps (odd; 1: identity) */
  float *k;       /* FIR taps, GEGL's: float, normalized by their double sum */
  double coef[4]; /* IIR: B, a1, a2, a3 */
  double m[9];    /* IIR: Triggs and Sdika's boundary matrix, row-major */
} ClfxGaussAxis;

/* GEGL's choice and formulas for std_dev with method CLFX_GAUSS_*. */
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

/* Where an IIR's forward values live on the graph's device, for a
 * w x h run in one piece. */
typedef struct
{
  int interleaved; /* GPUs: interleaved across lines in a buffer, the rows
                    * a work-item per channel */
  int local;       /* CPU devices: a line's in local memory, a work-group
                    * per line */
  int four;        /* CPU devices: the columns four a work-item (their
                    * forward values fit in local memory too) */
  const char *options; /* build options of the kernels that run it */
} ClfxIirForm;

void clfx_iir_form (ClfxGraph *g, int w, int h, ClfxIirForm *f);

/* Both axes IIR on CPU devices (f->local) whose result cannot hold the
 * rows: the columns first, straight from the source, in bands of rows
 * from the bottom up (filter.cl, filter_iir_cols4_state says why), and
 * after each band band_rows (g, data, rows, y0, n, error), which runs the
 * rows of the band (n float RGBA rows of w texels in `rows`, result rows
 * y0 .. y0 + n - 1) into the result. */
typedef bool (*ClfxIirBandRows) (ClfxGraph *g, const void *data,
                                 cl_mem rows, int y0, int n,
                                 ClfxError *error);
/* How many rows of w texels band_rows takes a work-item: 4 where their
 * forward values fit in local memory, 1 KiB left for the kernel's own
 * (filter_iir_rows4_band, unsharp_iir_rows4_band), else 1; the launch
 * then has (n + lines - 1) / lines work-items and w * 16 * lines bytes
 * of local memory. */
int clfx_iir_band_lines (ClfxGraph *g, int w);
bool clfx_gauss_iir_bands (ClfxGraph *g, const ClfxGaussAxis *y,
                           bool edge_zero, const ClfxIirForm *f, int w,
                           int h, ClfxIirBandRows band_rows,
                           const void *data, ClfxError *error);

/* The rows pass of both-axes IIR from the source (CLFX_SRC, w x h, one
 * piece) into *rows (w x h float4: `into` where not NULL, else a buffer
 * of the graph's); *forward: where the columns keep their forward values
 * unless they are local (then `rows`, unused). */
bool clfx_gauss_iir_rows (ClfxGraph *g, const ClfxGaussAxis *x,
                          bool edge_zero, const ClfxIirForm *f, int w,
                          int h, cl_mem into, cl_mem *rows, cl_mem *forward,
                          ClfxError *error);

/* The columns of both-axes IIR on GPUs (the interleaved form), in
 * segments of rows side by side (filter.cl, filter_iir_seg_stats says
 * how): `rows` (w x h float RGBA, the rows pass's) into the result
 * through `kernel` of `program` (NULL: the variant's), which takes
 * filter_iir_seg_cols' arguments; amount is unsharp's. */
bool clfx_gauss_iir_seg_cols (ClfxGraph *g, const ClfxGaussAxis *y,
                              bool edge_zero, int w, int h, cl_mem rows,
                              const char *kernel, const char *program,
                              float amount, ClfxError *error);

/* The reference: *d (*dw x *dh RGBA doubles, with the halos) blurred in
 * place, shrinking by the halos. */
bool clfx_gauss_ref (double **d, int *dw, int *dh, const ClfxGaussAxis *x,
                     const ClfxGaussAxis *y, bool edge_zero,
                     ClfxError *error);

/* The blur's float error on values up to max_abs, added to tol. */
void clfx_gauss_tolerance (ClfxTolerance *tol, const ClfxGaussAxis *x,
                           const ClfxGaussAxis *y, double max_abs);

#endif
