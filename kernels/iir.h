/* SPDX-License-Identifier: GPL-3.0-or-later */
/* iir.h: GEGL's IIR gaussian along one line (Young and van Vliet's
 * recursion forwards, Triggs and Sdika's right boundary, the same
 * recursion backwards), as the gaussian block's kernels write it out
 * (gauss-iir.cl, gauss-iir-image.cl).  Included where cl_khr_fp64 is
 * enabled; the includer defines IIR_D, IIR_F, IIR_TO_D and IIR_TO_F (the
 * recursion's double type, its float, the conversions). */
#ifndef CLFX_IIR_H
#define CLFX_IIR_H

#include "gauss-shapes.h"

/* One line of len texels through the recursion: READ(i) gives texel i
 * (float4), WRITE(i, v) takes result i (double4); FWD(i) reads the line's
 * forward value i, FWD_PUT(i, v) writes it (IIR_FWD).  coef = (B, a1, a2, a3); m: Triggs and
 * Sdika's 3x3 matrix, row-major; edge_zero: the outside is 0 (GEGL's abyss none), else the
 * line's end texels (GEGL's clamp). */
/* The recursion's types: IIR_D (double4: four channels at once, or
 * double: one), IIR_F its float, IIR_TO_D / IIR_TO_F the conversions. */
/* Texels read ahead of the recursion (the host sets it per device). */
#ifndef IIR_CHUNK
#define IIR_CHUNK 8
#endif
#define IIR_FORWARD_STEP(x, j)                                               \
  do                                                                         \
    {                                                                        \
      IIR_D v_ = coef.s0 * IIR_TO_D (x) + coef.s1 * w1 + coef.s2 * w2        \
                 + coef.s3 * w3;                                             \
      FWD_PUT (j, IIR_TO_F (v_));                                            \
      w3 = w2;                                                               \
      w2 = w1;                                                               \
      w1 = v_;                                                               \
    }                                                                        \
  while (0)
#define IIR_BACKWARD_STEP(WRITE, x, j)                                       \
  do                                                                         \
    {                                                                        \
      IIR_D v_ = coef.s0 * IIR_TO_D (x) + coef.s1 * n1 + coef.s2 * n2        \
                 + coef.s3 * n3;                                             \
      WRITE (j, v_);                                                         \
      n3 = n2;                                                               \
      n2 = n1;                                                               \
      n1 = v_;                                                               \
    }                                                                        \
  while (0)
#define IIR_LINE(READ, WRITE)                                                \
  do                                                                         \
    {                                                                        \
      IIR_D im_ = (IIR_D) (0.0), up_ = (IIR_D) (0.0);                        \
      if (! edge_zero)                                                       \
        {                                                                    \
          im_ = IIR_TO_D (READ (0));                                         \
          up_ = IIR_TO_D (READ (len - 1));                                   \
        }                                                                    \
      IIR_D w1 = im_, w2 = im_, w3 = im_;                                    \
      int     i = 0;                                                         \
      /* IIR_CHUNK texels read before they are used: one work-item per     \
       * line leaves few in flight, and the reads, independent of the      \
       * recursion, then overlap. */                                         \
      for (; i + IIR_CHUNK <= len; i += IIR_CHUNK)                           \
        {                                                                    \
          IIR_F t_[IIR_CHUNK];                                               \
          for (int k_ = 0; k_ < IIR_CHUNK; k_++)                             \
            t_[k_] = READ (i + k_);                                          \
          for (int k_ = 0; k_ < IIR_CHUNK; k_++)                             \
            IIR_FORWARD_STEP (t_[k_], i + k_);                               \
        }                                                                    \
      for (; i < len; i++)                                                   \
        IIR_FORWARD_STEP (READ (i), i);                                      \
      /* The three values past the end, from the last three forward. */     \
      IIR_D u0 = w1 - up_, u1 = w2 - up_, u2 = w3 - up_;                     \
      IIR_D n1 = m[0] * u0 + m[1] * u1 + m[2] * u2 + up_;                    \
      IIR_D n2 = m[3] * u0 + m[4] * u1 + m[5] * u2 + up_;                    \
      IIR_D n3 = m[6] * u0 + m[7] * u1 + m[8] * u2 + up_;                    \
      for (i = len - 1; i + 1 >= IIR_CHUNK; i -= IIR_CHUNK)                  \
        {                                                                    \
          IIR_F t_[IIR_CHUNK];                                               \
          for (int k_ = 0; k_ < IIR_CHUNK; k_++)                             \
            t_[k_] = FWD (i - k_);                                           \
          for (int k_ = 0; k_ < IIR_CHUNK; k_++)                             \
            IIR_BACKWARD_STEP (WRITE, t_[k_], i - k_);                       \
        }                                                                    \
      for (; i >= 0; i--)                                                    \
        IIR_BACKWARD_STEP (WRITE, FWD (i), i);                               \
    }                                                                        \
  while (0)

/* Forward value i of line l of `lines` lines of len: interleaved with the
 * other lines' (at i * lines + l) on GPUs, where neighbouring work-items
 * then touch neighbouring memory (coalesced), or each line in its own run
 * (at l * len + i) on CPU devices, which run a work-item's loop on one
 * core (interleaved, PoCL took 1.5x longer: 4096x4096 float).  */
#define IIR_FWD(i)                                                           \
  forward[interleaved ? (long) (i) * lines + l : (long) l * len + (i)]
/* CPU devices, where the line's forward values fit in local memory (a
 * work-group per line): there, where they stay in the core's cache, rather
 * than in a buffer of the image's size that each run writes and reads
 * back (the rows pass about 16 times faster on PoCL: the notebook's
 * appendix, "Figures moved out of code comments").  lfwd is unused
 * otherwise. */
#define IIR_FWD_AT(i) (local_fwd ? lfwd[i] : IIR_FWD (i))
#define IIR_FWD_PUT_AT(i, v)                                                 \
  do                                                                         \
    {                                                                        \
      if (local_fwd)                                                         \
        lfwd[i] = (v);                                                       \
      else                                                                   \
        IIR_FWD (i) = (v);                                                   \
    }                                                                        \
  while (0)

/* Row i of four neighbouring columns l0..l0 + 3 of a width-wide float4
 * buffer as one float16 (the CPU devices' columns run four at a time as
 * one line); past the last column the last one repeats (read, never
 * written). */
inline float16
iir_cols4 (__global const float4 *buf, int width, int l0, long i)
{
  __global const float4 *r = buf + i * width;

  if (l0 + 3 < width)
    return vload16 (0, (__global const float *) (r + l0));
  return (float16) (r[l0], r[min (l0 + 1, width - 1)],
                    r[min (l0 + 2, width - 1)], r[min (l0 + 3, width - 1)]);
}

/* Texel i of the four band rows from r0 (of nrows, width texels each) as
 * one float16, for the band rows four a work-item; rows past the band's
 * end repeat its last row. */
inline float16
iir_band4 (__global const float4 *buf, int width, int nrows, int r0, int i)
{
  return (float16) (buf[(long) r0 * width + i],
                    buf[(long) min (r0 + 1, nrows - 1) * width + i],
                    buf[(long) min (r0 + 2, nrows - 1) * width + i],
                    buf[(long) min (r0 + 3, nrows - 1) * width + i]);
}

/* Lines in segments on GPUs (gauss-iir.cl's gauss_iir_seg_stats says how):
 * a work-item per channel of a line (`lanes` of them) and segment k of
 * `seg` texels (global id 1), len texels a line, nseg segments.  `aux`
 * holds, per segment and lane gl, six doubles: the forward state where
 * the segment starts (slots 0-2) and the backward state where it ends
 * (3-5); after the last segment's, the line's first and last texels. */
#define IIR_SEG_AUX(k, j) aux[((long) (k) * 6 + (j)) * lanes + gl]

/* The forward recursion over the n texels of the segment from i0,
 * texel i0 + p read by READ as IIR_LINE reads ahead; p counts up from its
 * value (0) to n. */
#define IIR_SEG_FORWARD(READ)                                                \
  do                                                                         \
    {                                                                        \
      for (; p + IIR_CHUNK <= n; p += IIR_CHUNK)                             \
        {                                                                    \
          float t_[IIR_CHUNK];                                               \
          for (int k_ = 0; k_ < IIR_CHUNK; k_++)                             \
            t_[k_] = READ (i0 + p + k_);                                     \
          for (int k_ = 0; k_ < IIR_CHUNK; k_++)                             \
            IIR_FORWARD_STEP (t_[k_], p + k_);                               \
        }                                                                    \
      for (; p < n; p++)                                                     \
        IIR_FORWARD_STEP (READ (i0 + p), p);                                 \
    }                                                                        \
  while (0)

/* Segment k's forward recursion from a zero state, READ (i) texel i of
 * the line: its end state E into slots 0-2, and into slots 3-5 the
 * backward state its forward values (as float) leave at its start from a
 * zero end, G = sum_p R_p f_p (tab, from IIR_SEG_TAB_R).  The first
 * segment also keeps the line's first texel, the last its last. */
#define IIR_SEG_STATS(READ)                                                  \
  do                                                                         \
    {                                                                        \
      int    i0 = k * seg, n = min (seg, len - i0), p = 0;                   \
      double w1 = 0.0, w2 = 0.0, w3 = 0.0, g1 = 0.0, g2 = 0.0, g3 = 0.0;     \
      IIR_SEG_FORWARD (READ);                                                \
      IIR_SEG_AUX (k, 0) = w1;                                               \
      IIR_SEG_AUX (k, 1) = w2;                                               \
      IIR_SEG_AUX (k, 2) = w3;                                               \
      IIR_SEG_AUX (k, 3) = g1;                                               \
      IIR_SEG_AUX (k, 4) = g2;                                               \
      IIR_SEG_AUX (k, 5) = g3;                                               \
      if (k == 0)                                                            \
        IIR_SEG_AUX (nseg, 0) = READ (0);                                    \
      if (i0 + n == len)                                                     \
        IIR_SEG_AUX (nseg, 1) = READ (len - 1);                              \
    }                                                                        \
  while (0)
/* (FWD_PUT for IIR_SEG_STATS: G's sums.) */
#define IIR_SEG_G(j, v)                                                      \
  do                                                                         \
    {                                                                        \
      __constant double *r_ = tab + IIR_SEG_TAB_R + 3 * (j);                 \
      double             f_ = (double) (v);                                  \
      g1 += r_[0] * f_;                                                      \
      g2 += r_[1] * f_;                                                      \
      g3 += r_[2] * f_;                                                      \
    }                                                                        \
  while (0)

/* Segment k from its true states (after gauss_iir_seg_scan): the
 * forward recursion over its texels READ (i) into lf (as float, one
 * rounding, as IIR_LINE's forward values: FWD_PUT must be IIR_SEG_PUT),
 * then the backward one from its end over them, WRITE (i, v) taking
 * result i of the line (double).  lf: seg x IIR_SEG_LANES floats, a
 * column per lane of the work-group. */
#define IIR_SEG_LINE(READ, WRITE)                                            \
  do                                                                         \
    {                                                                        \
      int i0 = k * seg, n = min (seg, len - i0), p = 0;                      \
      double w1 = IIR_SEG_AUX (k, 0), w2 = IIR_SEG_AUX (k, 1);               \
      double w3 = IIR_SEG_AUX (k, 2);                                        \
      IIR_SEG_FORWARD (READ);                                                \
      double n1 = IIR_SEG_AUX (k, 3), n2 = IIR_SEG_AUX (k, 4);               \
      double n3 = IIR_SEG_AUX (k, 5);                                        \
      for (p = n - 1; p >= 0; p--)                                           \
        IIR_BACKWARD_STEP (WRITE, lf[p * IIR_SEG_LANES + lane], i0 + p);     \
    }                                                                        \
  while (0)
#define IIR_SEG_PUT(j, v) (lf[(j) * IIR_SEG_LANES + lane] = (v))

/* The columns (a lane per channel of a column: lanes = 4 width, len =
 * height) of `rows`, width x height float RGBA, into lf, then the group
 * stores its pixels, four lanes' values each, through STORE_PIXEL (x, y,
 * v).  Every lane reads all of its texels before the barrier and the
 * group stores only its own texels after it, so `rows` may be the result
 * itself.  No early return (the barrier): lanes past the last column run
 * on the last one's texels and store nothing. */
#define IIR_SEG_COL_READ(i) col_[(long) (i) * lanes]
#define IIR_SEG_COL_KEEP(i, v)                                               \
  (lf[((i) - i0) * IIR_SEG_LANES + lane] = convert_float (v))
#define IIR_SEG_COLS(STORE_PIXEL)                                            \
  do                                                                         \
    {                                                                        \
      int lanes = width * 4, len = height;                                   \
      int g = get_global_id (0), k = get_global_id (1);                      \
      int lane = get_local_id (0), gl = min (g, lanes - 1);                  \
      __global const float *col_ = rows + gl;                                \
      IIR_SEG_LINE (IIR_SEG_COL_READ, IIR_SEG_COL_KEEP);                     \
      barrier (CLK_LOCAL_MEM_FENCE);                                         \
      int i0 = k * seg, n = min (seg, len - i0);                             \
      int x0_ = get_group_id (0) * (IIR_SEG_LANES / 4);                      \
      for (int q_ = lane; q_ < n * (IIR_SEG_LANES / 4);                      \
           q_ += IIR_SEG_LANES)                                              \
        {                                                                    \
          int c_ = q_ % (IIR_SEG_LANES / 4), r_ = q_ / (IIR_SEG_LANES / 4);  \
          if (x0_ + c_ < width)                                              \
            STORE_PIXEL (x0_ + c_, i0 + r_,                                  \
                         vload4 (0, lf + r_ * IIR_SEG_LANES + c_ * 4));      \
        }                                                                    \
    }                                                                        \
  while (0)

#endif
