/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gauss.c: the gaussian blur block (gauss.h), GEGL 0.4.62's
 * gaussian-blur per axis (docs/FILTERS.md): FIR, the sampled Gaussian
 * (ceil (6.5 sigma) taps made odd), or IIR, Young and van Vliet's
 * recursion with Triggs and Sdika's boundary, in double as GEGL's.
 *
 * On the device: a float image's blur (FIR axes through the blocks'
 * separable convolution, IIR axes through gauss-iir-image.cl), and both
 * axes IIR from the source to the result (gauss-iir.cl): the rows, then
 * the columns (four a work-item where their forward values fit in local
 * memory), or on CPU devices whose result cannot hold the rows the
 * columns in bands, each band's rows right after it; GPUs run the lines
 * in segments side by side.
 *
 * The reference runs each axis in double: FIR taps as a correlation, the
 * IIR line by line. */
#include "gauss.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/clfx-common.h"
#include "../../kernels/gauss-shapes.h"
#include "../clfx-tolerance.h"
#include "../ops/filter-common.h"
#include "../ops/gaussian.h"

/* The block's programs: both axes IIR, and the IIR along one axis of a
 * float image. */
#define GAUSS_IIR "gauss-iir"
#define GAUSS_IIR_IMAGE "gauss-iir-image"

typedef ClfxGaussAxis Axis;

/* ---- one axis -------------------------------------------------------------- */

void
clfx_gauss_axis_clear (ClfxGaussAxis *a)
{
  free (a->k);
  a->k = NULL;
}

/* GEGL's FIR: clen = ceil (6.5 sigma) (sigma as float), made odd; sigma
 * up to 1e-5 is the identity. */
static bool
axis_fir (Axis *a, float sigma, ClfxError *error)
{
  double sum = 0.0;
  int    half;

  a->n = sigma <= 1e-5f ? 1 : (int) ceil ((double) sigma * 6.5);
  a->n += (a->n + 1) % 2;
  half = a->n / 2;
  if (! (a->k = malloc ((size_t) a->n * sizeof *a->k)))
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory for taps");
  if (a->n == 1)
    {
      a->k[0] = 1.0f;
      return true;
    }
  for (int i = 0; i < a->n; i++)
    {
      double d = (double) (i - half);
      a->k[i] = (float) (exp (-d * d / (2.0 * (double) sigma * sigma))
                         / ((double) sigma * sqrt (2.0 * 3.14159265358979323846)));
      sum += (double) a->k[i];
    }
  for (int i = 0; i < a->n; i++)
    a->k[i] = (float) ((double) a->k[i] / sum);
  return true;
}

/* Young and van Vliet's constants for sigma (GEGL computes q from the
 * float sigma) and Triggs and Sdika's matrix for the right boundary. */
static void
axis_iir (Axis *a, float sigma)
{
  const double K1 = 2.44413, K2 = 1.4281, K3 = 0.422205;
  double       s = (double) sigma;
  double q = s >= 2.5 ? 0.98711 * s - 0.96330
                      : 3.97156 - 4.14554 * sqrt (1.0 - 0.26891 * s);
  double b0 = 1.57825 + q * (K1 + q * (K2 + q * K3));
  double b1 = q * (K1 + q * (2.0 * K2 + q * 3.0 * K3));
  double b2 = -K2 * q * q - 3.0 * K3 * q * q * q;
  double b3 = K3 * q * q * q;
  double a1 = b1 / b0, a2 = b2 / b0, a3 = b3 / b0;
  double c = 1.0 / ((1.0 + a1 - a2 + a3) * (1.0 + a2 + (a1 - a3) * a3));

  a->iir = true;
  a->coef[0] = 1.0 - (b1 + b2 + b3) / b0;
  a->coef[1] = a1;
  a->coef[2] = a2;
  a->coef[3] = a3;
  a->m[0] = c * (-a3 * (a1 + a3) - a2 + 1.0);
  a->m[1] = c * (a3 + a1) * (a2 + a3 * a1);
  a->m[2] = c * a3 * (a1 + a3 * a2);
  a->m[3] = c * (a1 + a3 * a2);
  a->m[4] = c * (1.0 - a2) * (a2 + a3 * a1);
  a->m[5] = c * a3 * (1.0 - a3 * a1 - a3 * a3 - a2);
  a->m[6] = c * (a3 * a1 + a2 + a1 * a1 - a2 * a2);
  a->m[7] = c * (a1 * a2 + a3 * a2 * a2 - a1 * a3 * a3 - a3 * a3 * a3
                 - a3 * a2 + a3);
  a->m[8] = c * a3 * (a1 + a3 * a2);
}

bool
clfx_gauss_axis (ClfxGaussAxis *a, double std_dev, int method,
                 ClfxError *error)
{
  float sigma = (float) std_dev;
  bool  iir = method == CLFX_GAUSS_IIR
              || (method == CLFX_GAUSS_AUTO && sigma >= 1.0f);

  if (iir && sigma > 1e-5f)
    {
      axis_iir (a, sigma);
      return true;
    }
  return axis_fir (a, sigma, error);
}

int
clfx_gauss_half (const ClfxGaussAxis *a)
{
  return a->iir ? 0 : a->n / 2;
}

/* ---- the IIR on the device ------------------------------------------------- */

static bool
need_fp64 (ClfxGraph *g, ClfxError *error)
{
  if (clfx_graph_device (g)->fp64)
    return true;
  return clfx_error_set (error, CLFX_ERR_UNSUPPORTED,
                         "the IIR gaussian keeps its recursion in double, "
                         "as GEGL does, and this device has no "
                         "cl_khr_fp64: use method fir");
}

/* The IIR's forward values interleaved across lines (GPUs) or line by
 * line (CPU devices): iir.h's IIR_FWD.  Chosen with the source's form,
 * as the filters choose their GPU kernels, so that a CPU device told
 * CLFX_SOURCE=image runs (and tests) the GPU form too; gauss-iir.cl
 * builds the form of its source's. */
static int
iir_interleaved (ClfxGraph *g)
{
  return ! clfx_graph_source_is_buffer (g);
}

/* Texels a work-item reads ahead of its recursion (iir.h's IIR_CHUNK):
 * 16 on GPUs, 8 on CPU devices, each the faster there
 * (docs/PERFORMANCE.md). */
static const char *
iir_options (ClfxGraph *g)
{
  return clfx_graph_device (g)->host_unified ? NULL : "-DIIR_CHUNK=16";
}

/* Where an IIR's forward values live on the graph's device, for a w x h
 * run in one piece. */
typedef struct
{
  int interleaved; /* GPUs: interleaved across lines in a buffer, the rows
                    * a work-item per channel */
  int local;       /* CPU devices: a line's in local memory, a work-group
                    * per line */
  int four;        /* CPU devices: the columns four a work-item (their
                    * forward values fit in local memory too) */
} IirForm;

static void
iir_form (ClfxGraph *g, int w, int h, IirForm *f)
{
  const ClfxDeviceInfo *dev = clfx_graph_device (g);
  size_t                line = (size_t) (w > h ? w : h) * 16;

  f->interleaved = iir_interleaved (g);
  /* 1 KiB left for the kernel's own, as the FIR's check. */
  f->local = ! f->interleaved && dev->host_unified
             && line + 1024 <= dev->local_mem;
  f->four = f->local && (size_t) h * 64 + 1024 <= dev->local_mem;
}

/* Both axes IIR: the graph, where its kernels come from and what their
 * store takes. */
typedef struct
{
  const Axis *x, *y;
  bool        edge_zero;
  const char *program;
  const char *options;
  float       amount;
  int         w, h;
} Both;

/* Texels a segment of the GPUs' lines (gauss-iir.cl's gauss_iir_seg_*):
 * about 128 segments a line, a power of two from 16 to 64 texels.  More
 * left fewer groups on each multiprocessor (a group's forward values
 * fill local memory), fewer made the scans longer (docs/PERFORMANCE.md,
 * "The IIR in segments on GPUs").  `aux` (six doubles a lane and
 * segment) is then 3 bytes a pixel. */
#define IIR_SEG_MAX 64

static int
iir_seg_len (int len)
{
  int seg = 16;

  while (seg < IIR_SEG_MAX && seg * 128 < len)
    seg *= 2;
  return seg;
}

/* gauss-iir.cl's `tab` for segments of seg texels, the last one `last`:
 * P = A^seg and A^last, A the companion matrix of the recursion (state
 * (w1, w2, w3) -> (B x + a1 w1 + a2 w2 + a3 w3, w1, w2)); R_p = B A^p e1,
 * what forward value p of a segment adds to the backward state at its
 * start; M = sum_p R_p (row 0 of A^(p + 1)), what the segment's start
 * state adds to that through the forward values, for seg and for last
 * texels.  All row-major. */
static void
iir_seg_tables (const ClfxGaussAxis *a, int seg, int last, double *tab)
{
  double c[9] = { a->coef[1], a->coef[2], a->coef[3], 1, 0, 0, 0, 1, 0 };
  double ap[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 }, next[9], m[9] = { 0 };

  for (int p = 0; p < seg; p++)
    {
      double *r = tab + IIR_SEG_TAB_R + 3 * p;
      for (int j = 0; j < 3; j++)
        r[j] = a->coef[0] * ap[j * 3];
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
          next[i * 3 + j] = c[i * 3] * ap[j] + c[i * 3 + 1] * ap[3 + j]
                            + c[i * 3 + 2] * ap[6 + j];
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
          m[i * 3 + j] += r[i] * next[j];
      memcpy (ap, next, sizeof ap);
      if (p + 1 == last)
        {
          memcpy (tab + 9, ap, sizeof ap);
          memcpy (tab + 27, m, sizeof m);
        }
    }
  memcpy (tab, ap, sizeof ap);
  memcpy (tab + 18, m, sizeof m);
}

/* One axis in segments: its tables and `aux` (names end in the axis:
 * 'x' rows, 'y' columns), `lanes` lines of len texels. */
typedef struct
{
  int        seg, nseg;
  size_t     lanes;
  cl_double4 coef;
  cl_mem     aux, tab, m;
} IirSeg;

static bool
iir_seg_prepare (ClfxGraph *g, const ClfxGaussAxis *a, char axis, int len,
                 size_t lanes, IirSeg *s, ClfxError *error)
{
  double tab[IIR_SEG_TAB_R + 3 * IIR_SEG_MAX];
  char   n_aux[32], n_tab[32], n_m[32];

  s->seg = iir_seg_len (len);
  s->nseg = (len + s->seg - 1) / s->seg;
  s->lanes = lanes;
  for (int i = 0; i < 4; i++)
    s->coef.s[i] = a->coef[i];
  iir_seg_tables (a, s->seg, len - (s->nseg - 1) * s->seg, tab);
  snprintf (n_aux, sizeof n_aux, "iir segments %c", axis);
  snprintf (n_tab, sizeof n_tab, "iir segment tables %c", axis);
  snprintf (n_m, sizeof n_m, "iir matrix %c", axis);
  return (s->aux = clfx_graph_buffer (g, n_aux,
                                      ((size_t) s->nseg * 6 + 2) * lanes
                                        * sizeof (cl_double),
                                      error))
         && (s->tab = clfx_graph_upload (g, n_tab, tab,
                                         (size_t) (IIR_SEG_TAB_R
                                                   + 3 * s->seg)
                                           * sizeof *tab,
                                         error))
         && (s->m = clfx_graph_table (g, n_m, a->m, sizeof a->m, error));
}

static bool
iir_seg_scan (ClfxGraph *g, const Both *b, const IirSeg *s, ClfxError *error)
{
  ClfxLaunch l = { "gauss_iir_seg_scan", b->options, b->program, 1,
                   { s->lanes, 0 }, { 0, 0 } };

  return CLFX_LAUNCH (g, &l, error, CLFX_ARG (s->aux),
                      CLFX_INT ((int) s->lanes), CLFX_INT (s->nseg),
                      CLFX_ARG (s->tab), CLFX_ARG (s->m),
                      CLFX_INT (b->edge_zero));
}

/* The rows on GPUs, in segments: the source into `rows` (w x h float
 * RGBA). */
static bool
iir_seg_rows (ClfxGraph *g, const Both *b, cl_mem rows, ClfxError *error)
{
  IirSeg     s;
  ClfxLaunch ls = { "gauss_iir_seg_rows_stats", b->options, b->program, 2,
                    { 0, 0 }, { 0, 0 } };
  ClfxLaunch lr = { "gauss_iir_seg_rows", b->options, b->program, 2,
                    { 0, 0 }, { IIR_SEG_LANES, 1 } };

  if (! iir_seg_prepare (g, b->x, 'x', b->w, (size_t) b->h * 4, &s, error))
    return false;
  ls.global[0] = lr.global[0] = s.lanes;
  ls.global[1] = lr.global[1] = (size_t) s.nseg;
  return CLFX_LAUNCH (g, &ls, error, CLFX_SRC, CLFX_INT (b->w),
                      CLFX_INT (b->h), CLFX_INT (s.seg), CLFX_ARG (s.aux),
                      CLFX_ARG (s.coef), CLFX_ARG (s.tab))
         && iir_seg_scan (g, b, &s, error)
         && CLFX_LAUNCH (g, &lr, error, CLFX_SRC, CLFX_INT (b->w),
                         CLFX_INT (b->h), CLFX_INT (s.seg), CLFX_ARG (s.aux),
                         CLFX_ARG (s.coef), CLFX_ARG (rows),
                         CLFX_LOCAL ((size_t) s.seg * IIR_SEG_LANES
                                     * sizeof (cl_float)));
}

/* The columns on GPUs, in segments: `rows` (the rows pass's) into the
 * result. */
static bool
iir_seg_cols (ClfxGraph *g, const Both *b, cl_mem rows, ClfxError *error)
{
  IirSeg     s;
  ClfxLaunch ls = { "gauss_iir_seg_stats", b->options, b->program, 2,
                    { 0, 0 }, { 0, 0 } };
  ClfxLaunch lf = { "gauss_iir_seg_cols", b->options, b->program, 2,
                    { 0, 0 }, { IIR_SEG_LANES, 1 } };

  if (! iir_seg_prepare (g, b->y, 'y', b->h, (size_t) b->w * 4, &s, error))
    return false;
  ls.global[0] = lf.global[0] = s.lanes;
  ls.global[1] = lf.global[1] = (size_t) s.nseg;
  return CLFX_LAUNCH (g, &ls, error, CLFX_ARG (rows), CLFX_INT (b->w),
                      CLFX_INT (b->h), CLFX_INT (s.seg), CLFX_ARG (s.aux),
                      CLFX_ARG (s.coef), CLFX_ARG (s.tab))
         && iir_seg_scan (g, b, &s, error)
         && CLFX_LAUNCH (g, &lf, error, CLFX_ARG (rows), CLFX_INT (b->w),
                         CLFX_INT (b->h), CLFX_INT (s.seg), CLFX_ARG (s.aux),
                         CLFX_ARG (s.coef), CLFX_SRC, CLFX_DST,
                         CLFX_LOCAL ((size_t) s.seg * IIR_SEG_LANES
                                     * sizeof (cl_float)),
                         CLFX_FLOAT (b->amount));
}

/* The rows pass from the source into *rows (w x h float4: `into` where
 * not NULL, else a buffer of the graph's); *forward: where the columns
 * keep their forward values unless they are local (then `rows`,
 * unused). */
static bool
iir_rows (ClfxGraph *g, const Both *b, const IirForm *f, cl_mem into,
          cl_mem *rows, cl_mem *forward, ClfxError *error)
{
  size_t     bytes = (size_t) b->w * (size_t) b->h * 16;
  cl_double4 cx = { { b->x->coef[0], b->x->coef[1], b->x->coef[2],
                      b->x->coef[3] } };
  cl_mem     mx;
  ClfxLaunch lr = { "gauss_iir_rows", b->options, b->program, 1,
                    { (size_t) b->h, 0 }, { f->local ? 1 : 0, 0 } };

  if (! need_fp64 (g, error)
      || ! (*rows = into ? into
                         : clfx_graph_buffer (g, "iir rows", bytes, error)))
    return false;
  /* GPUs (the interleaved form): in segments, with no forward values of
   * the image's size; their columns run in segments too, and `rows`
   * stands in for the forward values, never touched. */
  if (f->interleaved)
    return iir_seg_rows (g, b, *rows, error) && (*forward = *rows);
  /* With local forward values `rows` stands in, never touched. */
  return (*forward = f->local ? *rows
                              : clfx_graph_buffer (g, "iir forward", bytes,
                                                   error))
         && (mx = clfx_graph_table (g, "iir matrix x", b->x->m,
                                    sizeof b->x->m, error))
         && CLFX_LAUNCH (g, &lr, error, CLFX_SRC, CLFX_ARG (*rows),
                         CLFX_ARG (*forward), CLFX_INT (b->w),
                         CLFX_INT (b->h), CLFX_ARG (cx), CLFX_ARG (mx),
                         CLFX_INT (b->edge_zero), CLFX_INT (f->interleaved),
                         CLFX_LOCAL (f->local ? (size_t) b->w * 16 : 16),
                         CLFX_INT (f->local));
}

/* Rows a band of gauss_iir_cols4_band: about 16 bands of 32 to 256 rows
 * (4096 rows: 16 of 256, whose float rows take 16 MiB where the whole
 * rows pass took 256). */
static int
iir_band_rows (int h)
{
  int b = (h + 15) / 16;

  return b < 32 ? 32 : b > 256 ? 256 : b;
}

/* The rows of one band of n rows (`rows`, result rows y0 .. y0 + n - 1)
 * into the result (gauss_iir_rows_band), four rows a work-item where
 * their forward values fit in local memory, 1 KiB left for the kernel's
 * own (gauss_iir_rows4_band). */
static bool
iir_band_rows_pass (ClfxGraph *g, const Both *b, cl_mem rows, int y0, int n,
                    ClfxError *error)
{
  int        lines = (size_t) b->w * 64 + 1024
                         <= clfx_graph_device (g)->local_mem
                       ? 4
                       : 1;
  cl_double4 cx = { { b->x->coef[0], b->x->coef[1], b->x->coef[2],
                      b->x->coef[3] } };
  cl_mem     mx;
  ClfxLaunch lr = { lines == 4 ? "gauss_iir_rows4_band"
                               : "gauss_iir_rows_band",
                    b->options, b->program, 1,
                    { ((size_t) n + lines - 1) / lines, 0 }, { 1, 0 } };

  return (mx = clfx_graph_table (g, "iir matrix x", b->x->m,
                                 sizeof b->x->m, error))
         && CLFX_LAUNCH (g, &lr, error, CLFX_ARG (rows), CLFX_INT (b->w),
                         CLFX_INT (y0), CLFX_INT (n), CLFX_SRC, CLFX_DST,
                         CLFX_ARG (cx), CLFX_ARG (mx),
                         CLFX_INT (b->edge_zero),
                         CLFX_LOCAL ((size_t) b->w * 16 * lines),
                         CLFX_FLOAT (b->amount));
}

/* CPU devices (local forward values) whose result cannot hold the rows:
 * the columns first, straight from the source, in bands of rows from the
 * bottom up (gauss-iir.cl, before gauss_iir_cols4_state, says why), and
 * after each band its rows into the result. */
static bool
iir_bands (ClfxGraph *g, const Both *b, ClfxError *error)
{
  int        band = iir_band_rows (b->h), nb = (b->h + band - 1) / band;
  size_t     items = ((size_t) b->w + 3) / 4;
  cl_double4 cy = { { b->y->coef[0], b->y->coef[1], b->y->coef[2],
                      b->y->coef[3] } };
  cl_mem     state, rows, my;
  ClfxLaunch ls = { "gauss_iir_cols4_state", b->options, b->program, 1,
                    { items, 0 }, { 0, 0 } };
  ClfxLaunch lb = { "gauss_iir_cols4_band", b->options, b->program, 1,
                    { items, 0 }, { 1, 0 } };

  if (! need_fp64 (g, error)
      || ! (state = clfx_graph_buffer (g, "iir states",
                                       (size_t) (nb + 1) * 3 * items
                                         * sizeof (cl_double16),
                                       error))
      || ! (rows = clfx_graph_buffer (g, "iir band",
                                      (size_t) band * (size_t) b->w * 16,
                                      error))
      || ! (my = clfx_graph_table (g, "iir matrix y", b->y->m,
                                   sizeof b->y->m, error))
      || ! CLFX_LAUNCH (g, &ls, error, CLFX_SRC, CLFX_INT (b->w),
                        CLFX_INT (b->h), CLFX_INT (band), CLFX_ARG (state),
                        CLFX_ARG (cy), CLFX_ARG (my),
                        CLFX_INT (b->edge_zero)))
    return false;
  for (int k = nb - 1; k >= 0; k--)
    {
      int y0 = k * band, n = b->h - y0 < band ? b->h - y0 : band;

      if (! CLFX_LAUNCH (g, &lb, error, CLFX_SRC, CLFX_INT (b->w),
                         CLFX_INT (b->h), CLFX_INT (band), CLFX_INT (k),
                         CLFX_ARG (state), CLFX_ARG (rows), CLFX_ARG (cy),
                         CLFX_LOCAL ((size_t) band * 64))
          || ! iir_band_rows_pass (g, b, rows, y0, n, error))
        return false;
    }
  return true;
}

/* Where the result is float RGBA in one piece the rows live in it: a
 * columns work-item reads all of its columns' rows (the forward pass)
 * before it writes their results (the backward pass), and no work-item
 * touches another's columns. */
bool
clfx_gauss_iir_both (ClfxGraph *g, const ClfxGaussAxis *x,
                     const ClfxGaussAxis *y, bool edge_zero,
                     const char *program, float amount, ClfxError *error)
{
  const ClfxTile *t = clfx_graph_tile (g);
  Both            b = { x, y, edge_zero, program ? program : GAUSS_IIR,
                        iir_options (g), amount, t->out.width,
                        t->out.height };
  cl_double4      cy = { { y->coef[0], y->coef[1], y->coef[2],
                           y->coef[3] } };
  cl_mem          rows, fwd, my;
  IirForm         f;
  ClfxLaunch      lc = { "gauss_iir_cols", b.options, b.program, 1,
                         { (size_t) b.w, 0 }, { 0, 0 } };
  ClfxLaunch      l4 = { "gauss_iir_cols4", b.options, b.program, 1,
                         { ((size_t) b.w + 3) / 4, 0 }, { 1, 0 } };

  iir_form (g, b.w, b.h, &f);
  /* Float RGBA results keep the rows first, as GPUs run them (in the
   * result itself where it is one piece without a guard band); the bands
   * are a build of their own (local forward values: a CPU device, no
   * IIR_CHUNK). */
  if (f.local && ! clfx_graph_result_is_float4 (g))
    {
      b.options = "-DGAUSS_IIR_BANDS=1";
      return iir_bands (g, &b, error);
    }
  lc.local[0] = f.local ? 1 : 0;
  if (! iir_rows (g, &b, &f, clfx_graph_result_float4 (g, b.w, b.h), &rows,
                  &fwd, error))
    return false;
  if (f.interleaved)
    return iir_seg_cols (g, &b, rows, error);
  if (! (my = clfx_graph_table (g, "iir matrix y", y->m, sizeof y->m,
                                error)))
    return false;
  if (f.four)
    return CLFX_LAUNCH (g, &l4, error, CLFX_ARG (rows), CLFX_INT (b.w),
                        CLFX_INT (b.h), CLFX_SRC, CLFX_DST, CLFX_ARG (cy),
                        CLFX_ARG (my), CLFX_INT (edge_zero),
                        CLFX_LOCAL ((size_t) b.h * 64),
                        CLFX_FLOAT (amount));
  return CLFX_LAUNCH (g, &lc, error, CLFX_ARG (rows), CLFX_ARG (fwd),
                      CLFX_INT (b.w), CLFX_INT (b.h), CLFX_SRC, CLFX_DST,
                      CLFX_ARG (cy), CLFX_ARG (my), CLFX_INT (edge_zero),
                      CLFX_INT (f.interleaved),
                      CLFX_LOCAL (f.local ? (size_t) b.h * 16 : 16),
                      CLFX_INT (f.local), CLFX_FLOAT (amount));
}

/* ---- a float image's blur --------------------------------------------------- */

/* The IIR along the rows (or columns) of float image `in` into `out`;
 * name: the blur's, naming its matrix table (tables are kept by name). */
static bool
launch_iir (ClfxGraph *g, const char *name, const Axis *a, cl_mem in,
            cl_mem out, int w, int h, bool vertical, bool edge_zero,
            ClfxError *error)
{
  int        len = vertical ? h : w, lines = vertical ? w : h;
  cl_double4 coef = { { a->coef[0], a->coef[1], a->coef[2], a->coef[3] } };
  cl_mem     fwd, m;
  char       m_name[64];
  ClfxLaunch l = { "gauss_iir_image", iir_options (g), GAUSS_IIR_IMAGE, 1,
                   { (size_t) lines, 0 }, { 0, 0 } };

  snprintf (m_name, sizeof m_name, "%s iir matrix %c", name,
            vertical ? 'y' : 'x');
  /* CPU devices: the columns four a work-item (gauss_iir_image4). */
  if (vertical && ! iir_interleaved (g))
    {
      ClfxLaunch l4 = { "gauss_iir_image4", iir_options (g), GAUSS_IIR_IMAGE,
                        1, { (size_t) (w + 3) / 4, 0 }, { 0, 0 } };
      return need_fp64 (g, error)
             && (fwd = clfx_graph_buffer (g, "iir forward",
                                          (size_t) (w + 3) / 4 * 4
                                            * (size_t) h * 16,
                                          error))
             && (m = clfx_graph_table (g, m_name, a->m, sizeof a->m, error))
             && CLFX_LAUNCH (g, &l4, error, CLFX_ARG (in), CLFX_ARG (out),
                             CLFX_ARG (fwd), CLFX_INT (len), CLFX_INT (w),
                             CLFX_ARG (coef), CLFX_ARG (m),
                             CLFX_INT (edge_zero));
    }
  return need_fp64 (g, error)
         && (fwd = clfx_graph_buffer (g, "iir forward",
                                   (size_t) w * (size_t) h * 16, error))
         && (m = clfx_graph_table (g, m_name, a->m, sizeof a->m, error))
         && CLFX_LAUNCH (g, &l, error, CLFX_ARG (in), CLFX_ARG (out),
                         CLFX_ARG (fwd), CLFX_INT (len), CLFX_INT (lines),
                         CLFX_INT (vertical), CLFX_ARG (coef), CLFX_ARG (m),
                         CLFX_INT (edge_zero), CLFX_INT (iir_interleaved (g)));
}

/* Any pair of axes between float images: FIR axes through the separable
 * block, IIR axes through gauss_iir_image (an IIR axis has no halo).  The
 * intermediates are named after `name` (the graph keeps memory by name,
 * so two blurs of one run need two names). */
cl_mem
clfx_gauss_blur (ClfxGraph *g, const char *name, const ClfxGaussAxis *x,
                 const ClfxGaussAxis *y, cl_mem in, int w, int h,
                 bool edge_zero, ClfxError *error)
{
  static const float one = 1.0f;
  int                ih = h + 2 * clfx_gauss_half (y);
  char               rows_name[64];
  cl_mem             rows, out;

  snprintf (rows_name, sizeof rows_name, "%s rows", name);
  if (! x->iir && ! y->iir)
    return clfx_block_sepconv (g, name, in, w, h, x->k, x->n, y->k, y->n,
                               error);
  if (x->iir)
    {
      /* Rows through the recursion (with the columns' halo), then the
       * columns. */
      if (! (rows = clfx_graph_image (g, rows_name, w, ih, error))
          || ! launch_iir (g, name, x, in, rows, w, ih, false, edge_zero,
                           error))
        return NULL;
      if (! y->iir)
        return clfx_block_sepconv (g, name, rows, w, h, &one, 1, y->k, y->n,
                                   error);
    }
  else if (! (rows = clfx_block_sepconv (g, rows_name, in, w, h, x->k, x->n,
                                         &one, 1, error)))
    return NULL;
  return (out = clfx_graph_image (g, name, w, h, error))
             && launch_iir (g, name, y, rows, out, w, h, true, edge_zero,
                            error)
           ? out
           : NULL;
}

/* ---- CPU reference ------------------------------------------------------------ */

/* One line of n RGBA values (stride apart) through the IIR, in double. */
static void
ref_iir_line (double *v, long stride, int n, const Axis *a, bool zero,
              double *w)
{
  const double *b = a->coef, *m = a->m;

  for (int c = 0; c < 4; c++)
    {
      double im = zero ? 0.0 : v[c], up = zero ? 0.0 : v[(long) (n - 1)
                                                          * stride + c];
      double w1 = im, w2 = im, w3 = im, n1, n2, n3, u0, u1, u2;
      for (int i = 0; i < n; i++)
        {
          w[i] = b[0] * v[(long) i * stride + c] + b[1] * w1 + b[2] * w2
                 + b[3] * w3;
          w3 = w2;
          w2 = w1;
          w1 = w[i];
        }
      u0 = w1 - up;
      u1 = w2 - up;
      u2 = w3 - up;
      n1 = m[0] * u0 + m[1] * u1 + m[2] * u2 + up;
      n2 = m[3] * u0 + m[4] * u1 + m[5] * u2 + up;
      n3 = m[6] * u0 + m[7] * u1 + m[8] * u2 + up;
      for (int i = n - 1; i >= 0; i--)
        {
          double y = b[0] * w[i] + b[1] * n1 + b[2] * n2 + b[3] * n3;
          v[(long) i * stride + c] = y;
          n3 = n2;
          n2 = n1;
          n1 = y;
        }
    }
}

/* One axis of the double image d (dw x dh RGBA) in place: FIR taps (a
 * correlation over n, shrinking that axis by n - 1) or the IIR. */
static bool
ref_axis (double **d, int *dw, int *dh, const Axis *a, bool vertical,
          bool zero, ClfxError *error)
{
  int     w = *dw, h = *dh, n = a->iir ? 1 : a->n;
  int     ow = vertical ? w : w - n + 1, oh = vertical ? h - n + 1 : h;
  double *out, *line;

  if (a->iir)
    {
      int len = vertical ? h : w;
      if (! (line = malloc ((size_t) len * sizeof *line)))
        return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
      for (int l = 0; l < (vertical ? w : h); l++)
        ref_iir_line (*d + (vertical ? (size_t) l * 4 : (size_t) l * w * 4),
                      vertical ? (long) w * 4 : 4, len, a, zero, line);
      free (line);
      return true;
    }
  if (! (out = calloc ((size_t) ow * (size_t) oh * 4, sizeof *out)))
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  for (int y = 0; y < oh; y++)
    for (int x = 0; x < ow; x++)
      for (int c = 0; c < 4; c++)
        {
          double acc = 0.0;
          for (int i = 0; i < n; i++)
            acc += (double) a->k[i]
                   * (vertical ? (*d)[((size_t) (y + i) * w + x) * 4 + c]
                               : (*d)[((size_t) y * w + x + i) * 4 + c]);
          out[((size_t) y * ow + x) * 4 + c] = acc;
        }
  free (*d);
  *d = out;
  *dw = ow;
  *dh = oh;
  return true;
}

bool
clfx_gauss_ref (double **d, int *dw, int *dh, const ClfxGaussAxis *x,
                const ClfxGaussAxis *y, bool edge_zero, ClfxError *error)
{
  return ref_axis (d, dw, dh, x, false, edge_zero, error)
         && ref_axis (d, dw, dh, y, true, edge_zero, error);
}

/* ---- tolerance ---------------------------------------------------------------- */

/* Sum of |h| of an axis's filter (FIR: its taps; IIR: the impulse
 * response of both passes, and of the forward pass alone in *forward). */
static double
axis_gain (const Axis *a, double *forward)
{
  double g = 0.0;

  *forward = 1.0;
  if (! a->iir)
    {
      for (int i = 0; i < a->n; i++)
        g += fabs ((double) a->k[i]);
      return g;
    }
  {
    /* Long enough for the tails to vanish (poles at about 1 - 1/sigma). */
    int     n = 4001, mid = n / 2;
    double *v = calloc ((size_t) n * 4, sizeof *v);
    double *w = malloc ((size_t) n * sizeof *w);
    double  f = 0.0, w1 = 0, w2 = 0, w3 = 0;
    if (! v || ! w)
      {
        free (v);
        free (w);
        return 2.0;
      }
    for (int i = 0; i < n; i++)
      {
        double x = i == mid ? 1.0 : 0.0;
        double y = a->coef[0] * x + a->coef[1] * w1 + a->coef[2] * w2
                   + a->coef[3] * w3;
        f += fabs (y);
        w3 = w2;
        w2 = w1;
        w1 = y;
      }
    v[(size_t) mid * 4] = 1.0;
    ref_iir_line (v, 4, n, a, true, w);
    for (int i = 0; i < n; i++)
      g += fabs (v[(size_t) i * 4]);
    free (v);
    free (w);
    *forward = f;
    return g;
  }
}

void
clfx_gauss_tolerance (ClfxTolerance *tol, const ClfxGaussAxis *x,
                      const ClfxGaussAxis *y, double max_abs)
{
  double fx, fy, gx = axis_gain (x, &fx), gy = axis_gain (y, &fy);

  /* Each axis: FIR an n-term float sum; IIR one float rounding of each
   * forward value (gain fx to it, then the backward pass's) and of the
   * result, the recursion itself in double. */
  if (x->iir)
    clfx_tol_sum (tol, "IIR rows: forward values stored as float", 2,
                  fx * gx, max_abs);
  else
    clfx_tol_sum (tol, "FIR rows", x->n + 1, gx, max_abs);
  if (y->iir)
    clfx_tol_sum (tol, "IIR columns: forward values stored as float", 2,
                  fy * gx * gy, max_abs);
  else
    clfx_tol_sum (tol, "FIR columns", y->n + 1, gx * gy, max_abs);
  clfx_tol_sum (tol, "the float image between the passes", 1, gx * gy,
                max_abs);
}

/* ---- variants that compose the blur ---------------------------------------- */

bool
clfx_gauss_axes_auto (ClfxGaussAxis *x, ClfxGaussAxis *y, double std_dev,
                      int addressing, const char *variant, ClfxError *error)
{
  if (! clfx_gauss_axis (x, std_dev, CLFX_GAUSS_AUTO, error)
      || ! clfx_gauss_axis (y, std_dev, CLFX_GAUSS_AUTO, error))
    return false;
  if (x->iir && addressing != CLFX_ADDR_CLAMP_TO_EDGE
      && addressing != CLFX_ADDR_CLAMP)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "%s blurs with GEGL's IIR gaussian from std-dev "
                           "1, which handles edges as clamp-to-edge or "
                           "clamp: use one of those, or a std-dev below 1",
                           variant);
  return true;
}

double *
clfx_gauss_ref_load (const ClfxImage *src, ClfxSamplerDesc s, int hx, int hy,
                     ClfxError *error)
{
  ClfxRect  rect = { -hx, -hy, src->width + 2 * hx, src->height + 2 * hy };
  ClfxImage img = { 0 };
  double   *d = NULL;

  if (! clfx_ref_block_load (src, s, &rect, &img, error))
    return NULL;
  if (! (d = malloc ((size_t) rect.width * (size_t) rect.height * 4
                     * sizeof *d)))
    clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  for (int y = 0; d && y < rect.height; y++)
    for (int x = 0; x < rect.width; x++)
      for (int c = 0; c < 4; c++)
        d[((size_t) y * rect.width + x) * 4 + c] = clfx_image_get (&img, x, y,
                                                                   c);
  clfx_host_image_free (&img);
  return d;
}

void
clfx_gauss_ref_straight (const double *v, int ai, double out[4])
{
  double a = ai < 0 ? 1.0 : v[ai];

  for (int c = 0; c < 3; c++)
    out[c] = a > 0.0 ? v[ai == 3 ? c : 0] / a : 0.0;
  out[3] = a;
}

/* Finite values past float's range clamped to it, in double. */
static double
ref_clamp (double v)
{
  return isfinite (v) ? fmin (fmax (v, -FLT_MAX), FLT_MAX) : v;
}

void
clfx_gauss_ref_put (ClfxImage *out, int x, int y, const double sv[4], int ai)
{
  double v[3];

  for (int c = 0; c < 3; c++)
    v[c] = ref_clamp (sv[c]) * sv[3];
  clfx_image_set (out, x, y, 0, (float) ref_clamp (v[0]));
  clfx_image_set (out, x, y, 1,
                  (float) ref_clamp (ai == 3 ? v[1] : ai == 1 ? sv[3] : 0.0));
  clfx_image_set (out, x, y, 2, (float) ref_clamp (ai == 3 ? v[2] : 0.0));
  clfx_image_set (out, x, y, 3, (float) ref_clamp (ai == 3 ? sv[3] : 1.0));
}

void
clfx_gauss_plan_mix (ClfxPlan *plan, const ClfxImage *src, int addressing,
                     int hx, int hy, bool whole, size_t bytes_per_pixel)
{
  plan->width = src->width;
  plan->height = src->height;
  plan->addressing = addressing;
  plan->mixes = true;
  plan->premultiply = clfx_plan_premultiplies (true, src);
  plan->decode = clfx_plan_decodes (true, src);
  plan->halo[0] = plan->halo[2] = hx;
  plan->halo[1] = plan->halo[3] = hy;
  plan->whole_image_stats = whole;
  plan->bytes_per_pixel = bytes_per_pixel;
}

double
clfx_gauss_tol_straight (ClfxTolerance *tol, const ClfxImage *src, bool fir,
                         double *max_abs)
{
  double min_alpha, m = clfx_filter_max_abs (src, &min_alpha);

  *max_abs = m;
  clfx_tol_init (tol);
  /* A FIR blur reads its halo only (1 / the smallest alpha is a constant
   * factor); an IIR pass carries every value of its row or column. */
  if (fir)
    clfx_tol_magnitude (tol, m, 2.0 * m);
  clfx_tol_read (tol, m);
  /* Straight colour is the premultiplied blur divided by its alpha,
   * which is at least the smallest alpha of the source (a blur of
   * non-negative weights; validation weighs colour by the result's
   * alpha, at most 1): errors grow by up to 1 / that alpha. */
  return 1.0 / (min_alpha > 1.0 / 255.0 ? min_alpha : 1.0 / 255.0);
}
