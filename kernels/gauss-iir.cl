/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gauss-iir.cl: the gaussian block's IIR over both axes, from the source
 * to the result (engine/blocks/gauss.c): GEGL's IIR gaussian (iir.h) along
 * the rows, then along the columns.  The recursion runs in double, as
 * GEGL's does: with sigma 50 its gain for a rounding error is 1 / B,
 * about 3e4, which float state would turn into errors of 1e-3 of the
 * signal.  The forward values are kept as float (one rounding each; the
 * backward pass has gain 1).  Devices without cl_khr_fp64 get no kernels;
 * the host says why.
 *
 * Three forms, each built alone (a run launches one): sources in buffers
 * (CPU devices) run a work-item per line, or four lines as one line of
 * float16, the rows first; with GAUSS_IIR_BANDS (the host's option where
 * the result cannot hold the rows) the columns go first, in bands;
 * sources in images (GPUs) run the lines in segments side by side.  The
 * host picks by the source's form, as the build does.
 *
 * Each result pixel goes out through GAUSS_IIR_STORE (x, y, v): the
 * blurred value v of pixel (x, y) of the one-piece run, stored as it is
 * unless the includer defines it otherwise (unsharp-iir.cl mixes it with
 * the source, reading `src` and `amount`, which every kernel that stores
 * takes for that). */
#include "clfx-io.h"

#ifndef GAUSS_IIR_STORE
#define GAUSS_IIR_STORE(x, y, v)                                             \
  CLFX_STORE (CLFX_DST_X (x), CLFX_DST_Y (y), (v))
#endif

#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#include "iir.h"

#if CLFX_SRC_BUFFER && ! GAUSS_IIR_BANDS

/* Float RGBA results (and devices without local forward values): the
 * rows into `rows`, then the columns to the result, four a work-item
 * where they fit.  The double4 forms (four channels at once) first, then
 * the double16 ones (four lines at once). */
#define IIR_D double4
#define IIR_F float4
#define IIR_TO_D convert_double4
#define IIR_TO_F convert_float4

/* The source's rows (its whole width: the run is one piece) into `rows`,
 * then `rows`' columns to the result; no float image to load or store
 * (on PoCL an image write per texel cost more than the recursion
 * itself). */
__kernel void
gauss_iir_rows (CLFX_SRC_ARGS (src), __global float4 *rows,
                __global float4 *forward, int width, int height,
                double4 coef, __global const double *m, int edge_zero,
                int interleaved, __local float4 *lfwd, int local_fwd)
{
  int l = get_global_id (0), len = width, lines = height;

  if (l >= height)
    return;

  __global float4 *out = rows + (long) l * len;
#define READ_SRC(i) clfx_fetch_inside (CLFX_SRC (src), (i), l)
#define WRITE_ROW(i, v) (out[i] = convert_float4 (v))
#define FWD IIR_FWD_AT
#define FWD_PUT IIR_FWD_PUT_AT
  IIR_LINE (READ_SRC, WRITE_ROW);
#undef FWD
#undef FWD_PUT
#undef READ_SRC
#undef WRITE_ROW
}
/* The columns where four do not fit in local memory: a work-item per
 * column. */
__kernel void
gauss_iir_cols (__global const float4 *rows, __global float4 *forward,
                int width, int height, CLFX_SRC_ARGS (src), CLFX_DST_ARGS,
                double4 coef, __global const double *m, int edge_zero,
                int interleaved, __local float4 *lfwd, int local_fwd,
                float amount)
{
  int l = get_global_id (0), len = height, lines = width;

  if (l >= width)
    return;

#define READ_COL(i) rows[(long) (i) * width + l]
#define WRITE_DST(i, v) GAUSS_IIR_STORE (l, (i), convert_float4 (v))
#define FWD IIR_FWD_AT
#define FWD_PUT IIR_FWD_PUT_AT
  IIR_LINE (READ_COL, WRITE_DST);
#undef FWD
#undef FWD_PUT
#undef READ_COL
#undef WRITE_DST
}

/* The columns four a work-item, as one line of float16 (each column's
 * four channels), the forward values in local memory.  The four
 * recursions are independent chains the core overlaps, and each step
 * reads a 64-byte line of `rows` where a column alone used 16 bytes of it
 * (on PoCL about three times faster than a column a work-item).  Per
 * channel the arithmetic is gauss_iir_cols'. */
#undef IIR_D
#undef IIR_F
#undef IIR_TO_D
#undef IIR_TO_F
#define IIR_D double16
#define IIR_F float16
#define IIR_TO_D convert_double16
#define IIR_TO_F convert_float16

__kernel void
gauss_iir_cols4 (__global const float4 *rows, int width, int height,
                 CLFX_SRC_ARGS (src), CLFX_DST_ARGS, double4 coef,
                 __global const double *m, int edge_zero,
                 __local float16 *lfwd, float amount)
{
  int l0 = get_global_id (0) * 4, len = height;

  if (l0 >= width)
    return;

#define READ_COL4(i) iir_cols4 (rows, width, l0, (i))
#define WRITE_DST4(i, v)                                                     \
  do                                                                         \
    {                                                                        \
      float16 f_ = convert_float16 (v);                                      \
      GAUSS_IIR_STORE (l0, (i), f_.s0123);                                   \
      if (l0 + 1 < width)                                                    \
        GAUSS_IIR_STORE (l0 + 1, (i), f_.s4567);                             \
      if (l0 + 2 < width)                                                    \
        GAUSS_IIR_STORE (l0 + 2, (i), f_.s89ab);                             \
      if (l0 + 3 < width)                                                    \
        GAUSS_IIR_STORE (l0 + 3, (i), f_.scdef);                             \
    }                                                                        \
  while (0)
#define FWD(i) lfwd[i]
#define FWD_PUT(i, v) (lfwd[i] = (v))
  IIR_LINE (READ_COL4, WRITE_DST4);
#undef FWD
#undef FWD_PUT
#undef READ_COL4
#undef WRITE_DST4
}

#elif CLFX_SRC_BUFFER

/* The host asks for GAUSS_IIR_BANDS where the result cannot hold the
 * rows: the columns in bands, then each band's rows into the result. */
#define IIR_D double4
#define IIR_F float4
#define IIR_TO_D convert_double4
#define IIR_TO_F convert_float4

/* Results that cannot hold the rows (not float RGBA): the rows of one
 * band of the columns pass (gauss_iir_cols4_band), band row r of `rows`
 * to result row y0 + r; a work-group per row, its forward values in local
 * memory, as gauss_iir_rows'. */
__kernel void
gauss_iir_rows_band (__global const float4 *rows, int width, int y0,
                     int nrows, CLFX_SRC_ARGS (src), CLFX_DST_ARGS,
                     double4 coef, __global const double *m, int edge_zero,
                     __local float4 *lfwd, float amount)
{
  int r = get_global_id (0), len = width;

  if (r >= nrows)
    return;

  __global const float4 *in = rows + (long) r * width;
#define READ_BAND(i) in[i]
#define WRITE_ROW_DST(i, v) GAUSS_IIR_STORE ((i), y0 + r, convert_float4 (v))
#define FWD(i) lfwd[i]
#define FWD_PUT(i, v) (lfwd[i] = (v))
  IIR_LINE (READ_BAND, WRITE_ROW_DST);
#undef FWD
#undef FWD_PUT
#undef READ_BAND
#undef WRITE_ROW_DST
}

#undef IIR_D
#undef IIR_F
#undef IIR_TO_D
#undef IIR_TO_F
#define IIR_D double16
#define IIR_F float16
#define IIR_TO_D convert_double16
#define IIR_TO_F convert_float16

/* The rows of a band four at a time (gauss_iir_rows_band's), where the
 * line's forward values fit in local memory four times over: the four
 * rows as one line of float16, their recursions independent chains a
 * core overlaps, as gauss_iir_cols4's columns.  Rows past the band's
 * end repeat its last row and are not stored. */
__kernel void
gauss_iir_rows4_band (__global const float4 *rows, int width, int y0,
                      int nrows, CLFX_SRC_ARGS (src), CLFX_DST_ARGS,
                      double4 coef, __global const double *m, int edge_zero,
                      __local float16 *lfwd, float amount)
{
  int r0 = get_global_id (0) * 4, len = width;

  if (r0 >= nrows)
    return;

#define READ_BAND4(i) iir_band4 (rows, width, nrows, r0, (i))
#define WRITE_ROWS4_DST(i, v)                                                \
  do                                                                         \
    {                                                                        \
      float16 f_ = convert_float16 (v);                                      \
      GAUSS_IIR_STORE ((i), y0 + r0, f_.s0123);                              \
      if (r0 + 1 < nrows)                                                    \
        GAUSS_IIR_STORE ((i), y0 + r0 + 1, f_.s4567);                        \
      if (r0 + 2 < nrows)                                                    \
        GAUSS_IIR_STORE ((i), y0 + r0 + 2, f_.s89ab);                        \
      if (r0 + 3 < nrows)                                                    \
        GAUSS_IIR_STORE ((i), y0 + r0 + 3, f_.scdef);                        \
    }                                                                        \
  while (0)
#define FWD(i) lfwd[i]
#define FWD_PUT(i, v) (lfwd[i] = (v))
  IIR_LINE (READ_BAND4, WRITE_ROWS4_DST);
#undef FWD
#undef FWD_PUT
#undef READ_BAND4
#undef WRITE_ROWS4_DST
}

/* CPU devices whose result cannot hold the rows (8-bit, 16-bit, half or
 * gray results): the columns first, straight from the source, in bands
 * of `band` rows, and each band's rows right after it
 * (gauss_iir_rows_band), so that the only float intermediate is one
 * band: an image-sized one is fresh host memory on every first run, whose
 * first touch cost more than the passes themselves.  The two axes
 * commute (each is linear, its edge values included), so the result is
 * the rows-then-columns one up to float rounding.
 *
 * `state` holds, per work-item (four columns) and band b, the forward
 * state (w1, w2, w3) where band b starts, slots (3 b + k) * items + item,
 * and after the last band's slots the backward state (n1, n2, n3) where
 * the band being done ends.  gauss_iir_cols4_state runs the forward
 * recursion down the whole columns, keeping only those states, and
 * leaves Triggs and Sdika's backward start in the last slots; then, band
 * by band from the bottom, gauss_iir_cols4_band runs the forward
 * recursion again over its band from its saved start (the same
 * arithmetic, so the same values), then the backward recursion, and
 * leaves its backward state for the band above. */
inline float16
iir_src4 (CLFX_SRC_ARGS (src), int width, int l0, int i)
{
  return (float16) (clfx_fetch_inside (CLFX_SRC (src), l0, i),
                    clfx_fetch_inside (CLFX_SRC (src), min (l0 + 1, width - 1), i),
                    clfx_fetch_inside (CLFX_SRC (src), min (l0 + 2, width - 1), i),
                    clfx_fetch_inside (CLFX_SRC (src), min (l0 + 3, width - 1), i));
}

/* The forward recursion over source rows i .. end - 1 of the four
 * columns from l0 (i ends at end), the texels read ahead of it as
 * IIR_LINE reads them. */
#define IIR_FORWARD_SRC4(i, end)                                             \
  do                                                                         \
    {                                                                        \
      for (; (i) + IIR_CHUNK <= (end); (i) += IIR_CHUNK)                     \
        {                                                                    \
          IIR_F t_[IIR_CHUNK];                                               \
          for (int k_ = 0; k_ < IIR_CHUNK; k_++)                             \
            t_[k_] = iir_src4 (CLFX_SRC (src), width, l0, (i) + k_);         \
          for (int k_ = 0; k_ < IIR_CHUNK; k_++)                             \
            IIR_FORWARD_STEP (t_[k_], (i) + k_);                             \
        }                                                                    \
      for (; (i) < (end); (i)++)                                             \
        IIR_FORWARD_STEP (iir_src4 (CLFX_SRC (src), width, l0, (i)), (i));   \
    }                                                                        \
  while (0)
#define IIR_SLOT(b, k) state[((long) (b) * 3 + (k)) * items + it]

__kernel void
gauss_iir_cols4_state (CLFX_SRC_ARGS (src), int width, int height,
                       int band, __global double16 *state, double4 coef,
                       __global const double *m, int edge_zero)
{
  int it = get_global_id (0), l0 = it * 4, items = (width + 3) / 4;
  int nb = (height + band - 1) / band;

  if (l0 >= width)
    return;

  IIR_D im_ = (IIR_D) (0.0), up_ = (IIR_D) (0.0);
  if (! edge_zero)
    {
      im_ = IIR_TO_D (iir_src4 (CLFX_SRC (src), width, l0, 0));
      up_ = IIR_TO_D (iir_src4 (CLFX_SRC (src), width, l0, height - 1));
    }
  IIR_D w1 = im_, w2 = im_, w3 = im_;
#define FWD_PUT(i, v) ((void) 0)
  for (int b = 0; b < nb; b++)
    {
      int i = b * band, end = min (i + band, height);
      IIR_SLOT (b, 0) = w1;
      IIR_SLOT (b, 1) = w2;
      IIR_SLOT (b, 2) = w3;
      IIR_FORWARD_SRC4 (i, end);
    }
#undef FWD_PUT
  /* Triggs and Sdika's start of the backward recursion, as IIR_LINE. */
  IIR_D u0 = w1 - up_, u1 = w2 - up_, u2 = w3 - up_;
  IIR_SLOT (nb, 0) = m[0] * u0 + m[1] * u1 + m[2] * u2 + up_;
  IIR_SLOT (nb, 1) = m[3] * u0 + m[4] * u1 + m[5] * u2 + up_;
  IIR_SLOT (nb, 2) = m[6] * u0 + m[7] * u1 + m[8] * u2 + up_;
}

/* Band b of the columns into `rows` (band rows of width float4 texels),
 * a work-group per work-item, the band's forward values in local memory. */
__kernel void
gauss_iir_cols4_band (CLFX_SRC_ARGS (src), int width, int height,
                      int band, int b, __global double16 *state,
                      __global float4 *rows, double4 coef,
                      __local float16 *lfwd)
{
  int it = get_global_id (0), l0 = it * 4, items = (width + 3) / 4;
  int nb = (height + band - 1) / band;
  int i0 = b * band, end = min (i0 + band, height), i = i0;

  if (l0 >= width)
    return;

  IIR_D w1 = IIR_SLOT (b, 0), w2 = IIR_SLOT (b, 1), w3 = IIR_SLOT (b, 2);
#define FWD_PUT(i, v) (lfwd[(i) - i0] = (v))
  IIR_FORWARD_SRC4 (i, end);
#undef FWD_PUT
  IIR_D n1 = IIR_SLOT (nb, 0), n2 = IIR_SLOT (nb, 1), n3 = IIR_SLOT (nb, 2);
#define WRITE_BAND4(j, v)                                                    \
  do                                                                         \
    {                                                                        \
      float16          f_ = convert_float16 (v);                             \
      __global float4 *o_ = rows + (long) ((j) - i0) * width + l0;           \
      if (l0 + 3 < width)                                                    \
        vstore16 (f_, 0, (__global float *) o_);                             \
      else                                                                   \
        {                                                                    \
          o_[0] = f_.s0123;                                                  \
          if (l0 + 1 < width)                                                \
            o_[1] = f_.s4567;                                                \
          if (l0 + 2 < width)                                                \
            o_[2] = f_.s89ab;                                                \
        }                                                                    \
    }                                                                        \
  while (0)
  for (i = end - 1; i >= i0; i--)
    IIR_BACKWARD_STEP (WRITE_BAND4, lfwd[i - i0], i);
#undef WRITE_BAND4
  IIR_SLOT (nb, 0) = n1;
  IIR_SLOT (nb, 1) = n2;
  IIR_SLOT (nb, 2) = n3;
}
#undef IIR_SLOT
#undef IIR_FORWARD_SRC4

#else /* ! CLFX_SRC_BUFFER */

/* GPUs: a work-item per channel (the recursion in double rather than
 * double4), four times the work-items of one per line; the arithmetic per
 * channel is the double4 form's. */
#define IIR_D double
#define IIR_F float
#define IIR_TO_D convert_double
#define IIR_TO_F convert_float

inline float
iir_lane (float4 v, int c)
{
  return c == 0 ? v.x : c == 1 ? v.y : c == 2 ? v.z : v.w;
}

/* Both axes on GPUs in segments.  A work-item per line (a column, or a
 * channel of a row) gives an 8192 x 8192 image 8192 or 32768 work-items,
 * each sequential along 8192 texels: too few to keep the GPU's memory
 * busy.  The recursion is linear, so a line splits into segments of
 * `seg` texels that run side by side, a work-item per channel of a line
 * and segment (iir.h, IIR_SEG_*):
 *   _stats: per segment, the forward recursion from a zero state,
 *     keeping its end state E and the backward state that these forward
 *     values (as float) would leave at the segment's start from a zero
 *     end, G = sum_p R_p f_p;
 *   gauss_iir_seg_scan: per line, down the segments, the true start s_k
 *     (s_{k+1} = P s_k + E_k, P = A^seg, A the recursion's companion
 *     matrix) and G_k + M s_k (M: what the start state adds to G through
 *     the forward values), Triggs and Sdika's end from the last state,
 *     then back up the true backward end of each (t_{k-1} = P t_k + G_k);
 *   the line kernels: per segment, both recursions from the true states.
 * Two reads of the line and one store, with lines x segments
 * work-items.  `tab` (host-made, double): P, P for the last segment's
 * length, M, M for the last length, then R_p (3 each).  The same
 * recursion with the same arithmetic per step; the states at segment
 * borders differ from the sequential ones by double rounding only. */

/* The columns of `rows` (width x height float RGBA). */
__kernel void
gauss_iir_seg_stats (__global const float *rows, int width, int height,
                     int seg, __global double *aux, double4 coef,
                     __constant double *tab)
{
  int lanes = width * 4, len = height, nseg = (len + seg - 1) / seg;
  int gl = get_global_id (0), k = get_global_id (1);

  /* (The global size is rounded up to the work-group's.) */
  if (gl >= lanes || k >= nseg)
    return;

  __global const float *col_ = rows + gl;
#define FWD_PUT IIR_SEG_G
  IIR_SEG_STATS (IIR_SEG_COL_READ);
#undef FWD_PUT
}

/* The rows of the source (a lane per channel of a row: lanes = 4
 * height, len = width). */
#define IIR_SEG_ROW_READ(i)                                                  \
  iir_lane (clfx_fetch_inside (CLFX_SRC (src), (i), gl >> 2), gl & 3)

__kernel void
gauss_iir_seg_rows_stats (CLFX_SRC_ARGS (src), int width, int height,
                          int seg, __global double *aux, double4 coef,
                          __constant double *tab)
{
  int lanes = height * 4, len = width, nseg = (len + seg - 1) / seg;
  int gl = get_global_id (0), k = get_global_id (1);

  if (gl >= lanes || k >= nseg)
    return;

#define FWD_PUT IIR_SEG_G
  IIR_SEG_STATS (IIR_SEG_ROW_READ);
#undef FWD_PUT
}

/* Per line, down and up its nseg segments; the segments' values read
 * IIR_SEG_SCAN_CHUNK at a time before any is written, so that their
 * reads overlap (one at a time, each step waited for its reads). */
#define IIR_SEG_SCAN_CHUNK 8

__kernel void
gauss_iir_seg_scan (__global double *aux, int lanes, int nseg,
                    __constant double *tab, __global const double *m,
                    int edge_zero)
{
  int gl = get_global_id (0);

  if (gl >= lanes)
    return;

  double im = 0.0, up = 0.0;
  if (! edge_zero)
    {
      im = IIR_SEG_AUX (nseg, 0);
      up = IIR_SEG_AUX (nseg, 1);
    }
  double s1 = im, s2 = im, s3 = im;
  for (int k0 = 0; k0 < nseg; k0 += IIR_SEG_SCAN_CHUNK)
    {
      double v[IIR_SEG_SCAN_CHUNK][6];
#pragma unroll
      for (int q = 0; q < IIR_SEG_SCAN_CHUNK; q++)
        if (k0 + q < nseg)
          for (int j = 0; j < 6; j++)
            v[q][j] = IIR_SEG_AUX (k0 + q, j);
#pragma unroll
      for (int q = 0; q < IIR_SEG_SCAN_CHUNK; q++)
        if (k0 + q < nseg)
          {
            int                 k = k0 + q;
            __constant double  *P = tab + (k == nseg - 1 ? 9 : 0);
            __constant double  *M = tab + (k == nseg - 1 ? 27 : 18);
            IIR_SEG_AUX (k, 0) = s1;
            IIR_SEG_AUX (k, 1) = s2;
            IIR_SEG_AUX (k, 2) = s3;
            IIR_SEG_AUX (k, 3) = v[q][3] + M[0] * s1 + M[1] * s2 + M[2] * s3;
            IIR_SEG_AUX (k, 4) = v[q][4] + M[3] * s1 + M[4] * s2 + M[5] * s3;
            IIR_SEG_AUX (k, 5) = v[q][5] + M[6] * s1 + M[7] * s2 + M[8] * s3;
            double t1 = P[0] * s1 + P[1] * s2 + P[2] * s3 + v[q][0];
            double t2 = P[3] * s1 + P[4] * s2 + P[5] * s3 + v[q][1];
            double t3 = P[6] * s1 + P[7] * s2 + P[8] * s3 + v[q][2];
            s1 = t1;
            s2 = t2;
            s3 = t3;
          }
    }
  /* Triggs and Sdika's start of the backward recursion, as IIR_LINE. */
  double u0 = s1 - up, u1 = s2 - up, u2 = s3 - up;
  double n1 = m[0] * u0 + m[1] * u1 + m[2] * u2 + up;
  double n2 = m[3] * u0 + m[4] * u1 + m[5] * u2 + up;
  double n3 = m[6] * u0 + m[7] * u1 + m[8] * u2 + up;
  for (int k0 = nseg - 1; k0 >= 0; k0 -= IIR_SEG_SCAN_CHUNK)
    {
      double v[IIR_SEG_SCAN_CHUNK][3];
#pragma unroll
      for (int q = 0; q < IIR_SEG_SCAN_CHUNK; q++)
        if (k0 - q >= 0)
          for (int j = 0; j < 3; j++)
            v[q][j] = IIR_SEG_AUX (k0 - q, 3 + j);
#pragma unroll
      for (int q = 0; q < IIR_SEG_SCAN_CHUNK; q++)
        if (k0 - q >= 0)
          {
            int                k = k0 - q;
            __constant double *P = tab + (k == nseg - 1 ? 9 : 0);
            IIR_SEG_AUX (k, 3) = n1;
            IIR_SEG_AUX (k, 4) = n2;
            IIR_SEG_AUX (k, 5) = n3;
            double t1 = P[0] * n1 + P[1] * n2 + P[2] * n3 + v[q][0];
            double t2 = P[3] * n1 + P[4] * n2 + P[5] * n3 + v[q][1];
            double t3 = P[6] * n1 + P[7] * n2 + P[8] * n3 + v[q][2];
            n1 = t1;
            n2 = t2;
            n3 = t3;
          }
    }
}

/* The rows of the source into `rows` (width x height float RGBA), each
 * lane storing its channel as it goes. */
__kernel __attribute__ ((reqd_work_group_size (IIR_SEG_LANES, 1, 1))) void
gauss_iir_seg_rows (CLFX_SRC_ARGS (src), int width, int height, int seg,
                    __global const double *aux, double4 coef,
                    __global float *rows, __local float *lf)
{
  int lanes = height * 4, len = width, nseg = (len + seg - 1) / seg;
  int gl = get_global_id (0), k = get_global_id (1);
  int lane = get_local_id (0);

  if (gl >= lanes || k >= nseg)
    return;

  __global float *out = rows + (long) (gl >> 2) * width * 4 + (gl & 3);
#define WRITE_ROW(i, v) (out[(long) (i) * 4] = convert_float (v))
#define FWD_PUT IIR_SEG_PUT
  IIR_SEG_LINE (IIR_SEG_ROW_READ, WRITE_ROW);
#undef FWD_PUT
#undef WRITE_ROW
}

/* The columns of `rows` into the result, through GAUSS_IIR_STORE. */
__kernel __attribute__ ((reqd_work_group_size (IIR_SEG_LANES, 1, 1))) void
gauss_iir_seg_cols (__global const float *rows, int width, int height,
                    int seg, __global const double *aux, double4 coef,
                    CLFX_SRC_ARGS (src), CLFX_DST_ARGS, __local float *lf,
                    float amount)
{
#define FWD_PUT IIR_SEG_PUT
  IIR_SEG_COLS (GAUSS_IIR_STORE);
#undef FWD_PUT
}

#endif /* CLFX_SRC_BUFFER */
#endif /* cl_khr_fp64 */
