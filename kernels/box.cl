/* SPDX-License-Identifier: GPL-3.0-or-later */
/* box.cl: the box on CPU devices as running sums (engine/ops/box.c):
 * two additions per result and axis where the taps take 2 radius + 1.  A
 * sum starts afresh, a plain sum over its window in ascending order, at
 * every BOX_RUN-th pixel of the whole image (x0, y0: the first start, in
 * this source's coordinates), then slides: plus the texel entering, minus
 * the one leaving.  In double, so that k times the sum, rounded once to
 * float, is as close to the mean as the taps' float sum; and a result
 * depends only on the source and on its place in the whole image, so
 * tiles, bands and cut-outs give the bytes of one piece.  A sum that
 * turns NaN (a NaN entered, or an infinity left) is taken afresh over the
 * window, so a non-finite texel reaches the results whose window holds it
 * and no others, as with the taps (an infinite sum is right while its
 * infinity is in the window, and floats cannot overflow a double sum).
 * What a large value leaves behind in the double sum after it slid out
 * (2^-53 of it) stays inside its run: the validation's per-pixel bound
 * reads back to the run's start (box_source_rect).  On PoCL the sums
 * beat the taps from about radius 8 (BOX_RUNS_FROM). */
#include "clfx-io.h"
#include "box-shapes.h"
#include "filter-fir.h"

#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

/* Rows of the source into `inter` (rect: the result's x and width, the
 * first source row and the rows; rows iw texels apart), a work-item per
 * run and four rows, one to each quarter of a double16 (four sums in
 * step: one instruction moves them all). */
__kernel void
filter_box_hr (CLFX_SRC_ARGS (src), __global float4 *inter, int iw,
               int4 rect, int x0, float k, int n)
{
  int run = get_global_id (0), gy = get_global_id (1) * 4;
  int xs = x0 + run * BOX_RUN, r = n / 2;
  int end = min (xs + BOX_RUN, rect.x + rect.z);

  if (gy >= rect.w || xs >= end)
    return;

  /* Rows past the last repeat it (their sums are not stored). */
  int  sy0 = rect.y + gy, sy1 = rect.y + min (gy + 1, rect.w - 1);
  int  sy2 = rect.y + min (gy + 2, rect.w - 1);
  int  sy3 = rect.y + min (gy + 3, rect.w - 1);
  int  rows = min (4, rect.w - gy);
  bool inside = clfx_window_inside (src_flags, src_view, xs - r, sy0,
                                    end - xs + n - 1, sy3 - sy0 + 1);
  __global float4 *out = inter + (long) gy * iw - rect.x;
  double16         s;

  /* The last run zeroes the rows' padding (filter_box_vr reads it). */
  if (end == rect.x + rect.z)
    for (int q = 0; q < rows; q++)
      for (int x = end; x < rect.x + iw; x++)
        out[(long) q * iw + x] = (float4) (0.0f);
#define BOX_FETCH(i, sy)                                                     \
  (inside ? clfx_fetch_inside (CLFX_SRC (src), (i), (sy))                   \
          : clfx_fetch (CLFX_SRC (src), (i), (sy)))
#define BOX_TEXEL(i)                                                         \
  convert_double16 ((float16) (BOX_FETCH (i, sy0), BOX_FETCH (i, sy1),       \
                               BOX_FETCH (i, sy2), BOX_FETCH (i, sy3)))
#define BOX_WINDOW(x)                                                        \
  do                                                                         \
    {                                                                        \
      s = (double16) (0.0);                                                  \
      for (int i_ = -r; i_ <= r; i_++)                                       \
        s += BOX_TEXEL ((x) + i_);                                           \
    }                                                                        \
  while (0)
  BOX_WINDOW (xs);
  for (int x = xs; x < end; x++)
    {
      if (x > xs)
        {
          s += BOX_TEXEL (x + r) - BOX_TEXEL (x - r - 1);
          if (any (isnan (s)))
            BOX_WINDOW (x);
        }
      if (x < rect.x)
        continue;
      float16 v = convert_float16 ((double) k * s);
      float4  q4[4] = { v.s0123, v.s4567, v.s89ab, v.scdef };
      for (int q = 0; q < rows; q++)
        out[(long) q * iw + x] = q4[q];
    }
#undef BOX_WINDOW
#undef BOX_TEXEL
#undef BOX_FETCH
}

/* Then the columns to the result: a work-item per strip of BV columns
 * and run, so that a step reads two lines of BV texels (the one entering
 * and the one leaving) where the hardware prefetches them, four columns
 * to a double16.  inter's rows are iw texels apart (w rounded up to 4,
 * the padding 0), its first row the source's row iy0.  renorm = (on,
 * source width, height): edge handling none divides by the weight of
 * both axes' taps inside. */
__kernel void
filter_box_vr (__global const float4 *inter, int w, int iw, int iy0, int y0,
               CLFX_DST_ARGS, float k, int n, int4 renorm,
               __constant float *kx, __constant float *ky)
{
  int gx = get_global_id (0) * BV, run = get_global_id (1);
  int ys = y0 + run * BOX_RUN, r = n / 2;
  int end = min (ys + BOX_RUN, dst_rect.y + dst_rect.w);

  if (gx >= w || ys >= end)
    return;

  int      m = min (BV, w - gx), q = (m + 3) / 4;
  double16 s[BV / 4];
#define BOX_ROW(y, c)                                                        \
  convert_double16 (vload16 (0, (__global const float *) (inter              \
                                 + (long) ((y) - iy0) * iw + gx + 4 * (c))))
#define BOX_WINDOW(y, c)                                                     \
  do                                                                         \
    {                                                                        \
      s[c] = (double16) (0.0);                                               \
      for (int j_ = -r; j_ <= r; j_++)                                       \
        s[c] += BOX_ROW ((y) + j_, c);                                       \
    }                                                                        \
  while (0)
  for (int c = 0; c < q; c++)
    BOX_WINDOW (ys, c);
  for (int y = ys; y < end; y++)
    {
      if (y > ys)
        for (int c = 0; c < q; c++)
          {
            s[c] += BOX_ROW (y + r, c) - BOX_ROW (y - r - 1, c);
            if (any (isnan (s[c])))
              BOX_WINDOW (y, c);
          }
      if (y < dst_rect.y)
        continue;
      for (int c = 0; c < q; c++)
        {
          float16 v = convert_float16 ((double) k * s[c]);
          float4  px[4] = { v.s0123, v.s4567, v.s89ab, v.scdef };
          for (int p = 0; p < 4 && 4 * c + p < m; p++)
            {
              int x = dst_rect.x + gx + 4 * c + p;
              if (renorm.x)
                px[p] /= fir_inside (kx, n, x, renorm.y)
                         * fir_inside (ky, n, y, renorm.z);
              CLFX_STORE (x, y, px[p]);
            }
        }
    }
#undef BOX_WINDOW
#undef BOX_ROW
}
#endif
