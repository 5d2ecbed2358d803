/* SPDX-License-Identifier: GPL-3.0-or-later */
/* mantiuk06.cl: the tonemap family's mantiuk06 (engine/ops/mantiuk06.c;
 * docs/TONEMAP.md's mantiuk06, step by step), after the statistics
 * (tonemap-stats.h) and its constants (m06_params):
 *
 *   m06_log                       x = log10 Y, Y clipped at 1e-7 max Y
 *   m06_down, m06_target          the pyramid of x; per level the target
 *                                 gradients through the transducer, their
 *                                 weights C and C G
 *   m06_div                       b, the divergence sum of C G
 *   m06_down, m06_apply           A v: v's pyramid, the divergence sum of
 *                                 C times its gradients
 *   m06_dot, m06_update_r,        conjugate gradients; the scalars and the
 *   m06_final, m06_update, ...    stopping rule in m06_final (one group)
 *   m06_hist, m06_select,         the 0.1 % and 99.9 % points of x
 *   m06_range
 *   m06_map                       every pixel, stored
 *
 * Images here are one float per pixel, row-major, w wide.  p is the
 * family's parameter buffer (p0 the clip, 1e-7 max Y; p1 the floor of the
 * logarithm's argument); st the solver's state (mantiuk06-shapes.h).
 * Iteration k's kernels do nothing once the solve is done or a restart is
 * due (m06_on; k = 0: always run), so the host may queue iterations ahead
 * of reading the state.
 *
 * On CPU devices (sources in buffers) the _v forms instead: the levels'
 * kernels a row a work-item, eight pixels at a time, level 0's A p in
 * bands of rows that also write p.Ap's partials (no m06_dot in an
 * iteration), the vectors' kernels a chunk a work-item; each form is
 * built only where it is launched. */
#include "tonemap-common.h"
/* In tiles the scan runs on its own (tm_plan_fields). */
#define TM_SCAN_ALONE 1
#include "tonemap-stats.h"
#include "tonemap-select.h"
#include "mantiuk06-shapes.h"
#include "mantiuk06-tables.h"

__constant float m06_w[M06_TAB_N] = { M06_W_TABLE };
__constant float m06_r[M06_TAB_N] = { M06_R_TABLE };

/* One work-item: the constants from the statistics (n pixels), after
 * tm_params_begin's: p0 the clip 1e-7 max Y, p1 the same but at least
 * FLT_MIN (a black image: its log stays finite; the map makes it black). */
__kernel void
m06_params (__global const float8 *stats, float n, __global float *p)
{
  float  Lavg, mean;
  float8 st = tm_params_begin (stats, n, p, &Lavg, &mean);

  p[0] = 1e-7f * st.s6;
  p[1] = fmax (p[0], FLT_MIN);
}

inline bool
m06_on (__global const float *st, int k)
{
  return k == 0 || (st[M06_DONE] == 0.0f && st[M06_PAUSE] == 0.0f);
}

#if ! CLFX_SRC_BUFFER
__kernel void
m06_log (CLFX_SRC_ARGS (src), int4 rect, int w,
         __global const uint4 *scan,
         float scale, __global const float *p, __global float *x)
{
  int gx = rect.x + (int) get_global_id (0);
  int gy = rect.y + (int) get_global_id (1);

  if (gx >= rect.z || gy >= rect.w)
    return;
  x[(long) gy * w + gx]
    = log10 (fmax (tm_luminance (tm_read (CLFX_SRC (src), gx, gy,
                                          tm_largest (scan), scale)),
                   p[1]));
}
#else
/* m06_log in the CPU devices' form: eight pixels of a row a work-item,
 * their logarithm eight wide. */
__kernel void
m06_log_v (CLFX_SRC_ARGS (src), int4 rect, int w,
           __global const uint4 *scan,
           float scale, __global const float *p, __global float *x)
{
  long   at;
  float8 Y;
  int    n = tm_field8 (CLFX_SRC (src), rect, w, scan, scale, &at, &Y);

  if (n)
    tm_put8 (x, at, n, log10 (fmax (Y, p[1])));
}
#endif

/* The area average onto ow x oh = (iw / 2) x (ih / 2): each coarse pixel
 * integrates the fine pixels it covers, the partly covered first and last
 * in each direction by the fraction that shows (coarse pixel (x, y)). */
inline CLFX_ALWAYS_INLINE float
m06_down1 (__global const float *in, int iw, int ih, int ow, int oh, int x,
           int y)
{
  float dx = (float) iw / (float) ow, dy = (float) ih / (float) oh;
  int   x1, x2, y1, y2;
  float fx1, fx2, fy1, fy2, s = 0.0f;

  /* Both sides even: the 2 x 2 fine pixels of weight 1, added in the loop's
   * order (its third row and column have weight 0 and add +0, which
   * changes no sum of finite values), without the divisions. */
  if (iw == 2 * ow && ih == 2 * oh)
    {
      __global const float *a = in + (long) (2 * y) * iw + 2 * x;
      s += a[0];
      s += a[1];
      s += a[iw];
      s += a[iw + 1];
      return s / (dx * dy);
    }
  y1 = y * ih / oh;
  y2 = (y + 1) * ih / oh;
  fy1 = (float) (y1 + 1) - (float) y * dy;
  fy2 = (float) (y + 1) * dy - (float) y2;
  x1 = x * iw / ow;
  x2 = (x + 1) * iw / ow;
  fx1 = (float) (x1 + 1) - (float) x * dx;
  fx2 = (float) (x + 1) * dx - (float) x2;
  for (int i = y1; i <= y2 && i < ih; i++)
    {
      float fy = i == y1 ? fy1 : i == y2 ? fy2 : 1.0f;
      for (int j = x1; j <= x2 && j < iw; j++)
        {
          float fx = j == x1 ? fx1 : j == x2 ? fx2 : 1.0f;
          s += in[(long) i * iw + j] * fx * fy;
        }
    }
  return s / (dx * dy);
}

#if ! CLFX_SRC_BUFFER
__kernel void
m06_down (__global const float *in, int iw, int ih, __global float *out,
          int ow, int oh, __global const float *st, int k)
{
  int x = get_global_id (0), y = get_global_id (1);

  if (x >= ow || y >= oh || ! m06_on (st, k))
    return;
  out[(long) y * ow + x] = m06_down1 (in, iw, ih, ow, oh, x, y);
}
#else
/* m06_down in the CPU devices' form: a coarse row a work-item, TM_V
 * pixels at a time where the level halves exactly (iw = 2 ow: coarse
 * pixel x covers columns 2x and 2x + 1 and touches 2x + 2 with weight 0,
 * the weights m06_down1 computes, 1, 1 and 0), its texels the even and
 * odd floats of sixteen, the same operations in the same order a lane
 * (but for the terms of weight 0): m06_down's floats.  Elsewhere (odd
 * widths, the row's last pixels) m06_down1 itself. */
__kernel void
m06_down_v (__global const float *in, int iw, int ih, __global float *out,
            int ow, int oh, __global const float *st, int k)
{
  int             y = get_global_id (0), x = 0;
  float           dx = (float) iw / (float) ow, dy = (float) ih / (float) oh;
  __global float *o = out + (long) y * ow;

  if (y >= oh || ! m06_on (st, k))
    return;
  if (iw == 2 * ow)
    {
      int   y1 = y * ih / oh, y2 = (y + 1) * ih / oh;
      float fy1 = (float) (y1 + 1) - (float) y * dy;
      float fy2 = (float) (y + 1) * dy - (float) y2;
      for (; x + TM_V <= ow; x += TM_V)
        {
          float8 s = (float8) (0.0f);
          for (int i = y1; i <= y2 && i < ih; i++)
            {
              float   fy = i == y1 ? fy1 : i == y2 ? fy2 : 1.0f;
              float16 a;
              /* A row or column of weight 0 adds 0 (x is finite): left
               * out, it leaves the sum as it is but for the sign of an
               * exact 0. */
              if (fy == 0.0f)
                continue;
              a = vload16 (0, in + (long) i * iw + 2 * x);
              s += a.even * 1.0f * fy;
              s += a.odd * 1.0f * fy;
            }
          vstore8 (s / (dx * dy), 0, o + x);
        }
    }
  for (; x < ow; x++)
    o[x] = m06_down1 (in, iw, ih, ow, oh, x, y);
}

/* m06_update's operations on x, saved, p from i to hi (CPU devices):
 * eight at a time, the same floats. */
inline CLFX_ALWAYS_INLINE void
m06_update_span (__global float *x, __global float *saved, __global float *p,
                 __global const float *r, long i, long hi,
                 __global const float *st)
{
  float alpha = st[M06_ALPHA], beta = st[M06_BETA];
  bool  save = st[M06_SAVE] != 0.0f;
  bool  next = st[M06_DONE] == 0.0f && st[M06_PAUSE] == 0.0f;

  for (; i + 8 <= hi; i += 8)
    {
      float8 xv = vload8 (0, x + i), pv = vload8 (0, p + i);
      if (save)
        vstore8 (xv, 0, saved + i);
      xv += alpha * pv;
      vstore8 (xv, 0, x + i);
      if (next)
        vstore8 (vload8 (0, r + i) + beta * pv, 0, p + i);
    }
  for (; i < hi; i++)
    {
      if (save)
        saved[i] = x[i];
      x[i] += alpha * p[i];
      if (next)
        p[i] = r[i] + beta * p[i];
    }
}

/* m06_down_v onto level 1 of A p in iteration k where both sides of the
 * image are even, with iteration k - 1's update of x and p made first
 * (st[M06_LAST] = k - 1: the solve went on; m06_update_v leaves it to
 * this kernel) on the two rows of p the coarse row covers, which no other
 * work-item reads: their new values are averaged, as m06_down_v's fast
 * path (but for its terms of weight 0) and pixel by pixel at the row's
 * end alike. */
__kernel void
m06_down_update_v (__global float *p, int iw, int ih, __global float *out,
                   int ow, int oh, __global const float *st, int k,
                   __global float *x, __global float *saved,
                   __global const float *r)
{
  int             y = get_global_id (0), c = 0;
  long            at = (long) 2 * y * iw;
  float           f = ((float) iw / (float) ow) * ((float) ih / (float) oh);
  __global float *o = out + (long) y * ow;

  if (y >= oh || ! m06_on (st, k))
    return;
  if (k > 1 && st[M06_LAST] == (float) (k - 1))
    m06_update_span (x, saved, p, r, at, at + 2 * (long) iw, st);
  for (; c + TM_V <= ow; c += TM_V)
    {
      float16 a = vload16 (0, p + at + 2 * c);
      float16 b = vload16 (0, p + at + iw + 2 * c);
      float8  s = (float8) (0.0f);
      s += a.even;
      s += a.odd;
      s += b.even;
      s += b.odd;
      vstore8 (s / f, 0, o + c);
    }
  for (; c < ow; c++)
    {
      float s = 0.0f;
      s += p[at + 2 * c];
      s += p[at + 2 * c + 1];
      s += p[at + iw + 2 * c];
      s += p[at + iw + 2 * c + 1];
      o[c] = s / f;
    }
}
#endif

/* Piecewise linear through (in[i], out[i]), in increasing, held at both
 * ends: the first j with v < in[j], found by bisection. */
inline float
m06_lookup (__constant const float *in, __constant const float *out, float v)
{
  int lo = 1, hi = M06_TAB_N;

  if (v < in[0])
    return out[0];
  while (lo < hi)
    {
      int mid = (lo + hi) / 2;
      if (v < in[mid])
        hi = mid;
      else
        lo = mid + 1;
    }
  if (lo == M06_TAB_N)
    return out[M06_TAB_N - 1];
  return out[lo - 1] + (out[lo] - out[lo - 1]) * (v - in[lo - 1])
                       / (in[lo] - in[lo - 1]);
}

/* A gradient through the transducer and back: W = 10^(d |g|) - 1, R
 * times contrast, G = log10 (W + 1) / d, the sign kept (expm1 and log1p:
 * small gradients keep their digits). */
inline float
m06_transduce (float g, float contrast, float detail)
{
  float ln10 = 2.302585093f;
  float W = expm1 (detail * fabs (g) * ln10);
  float R = m06_lookup (m06_w, m06_r, W) * contrast;
  float G = log1p (m06_lookup (m06_r, m06_w, R)) / (ln10 * detail);

  return g < 0.0f ? -G : G;
}

/* C = 1 / (0.038737 max (|G|, 0.001)^0.537756). */
inline float
m06_weight (float G)
{
  return 1.0f / (0.038737f * exp2 (0.537756f * log2 (fmax (fabs (G),
                                                             0.001f))));
}

/* The lookup eight wide: the same j, the first with v < in[j] (or
 * M06_TAB_N), from the count of entries from the second on that v is not
 * below (in rises): its eighths by comparing v with every eighth entry,
 * the rest in three halvings, without branches. */
inline CLFX_ALWAYS_INLINE float8
m06_gather8 (__constant const float *t, int8 i)
{
  return (float8) (t[i.s0], t[i.s1], t[i.s2], t[i.s3], t[i.s4], t[i.s5],
                   t[i.s6], t[i.s7]);
}

/* The interpolation at j = lo (M06_TAB_N: held at the end). */
inline CLFX_ALWAYS_INLINE float8
m06_interp8 (__constant const float *in, __constant const float *out,
             float8 v, int8 lo)
{
  int8   l = min (lo, (int8) (M06_TAB_N - 1));
  float8 r = m06_gather8 (out, l - 1)
             + (m06_gather8 (out, l) - m06_gather8 (out, l - 1))
                 * (v - m06_gather8 (in, l - 1))
                 / (m06_gather8 (in, l) - m06_gather8 (in, l - 1));

  r = lo == M06_TAB_N ? (float8) (out[M06_TAB_N - 1]) : r;
  return v < in[0] ? (float8) (out[0]) : r;
}

inline CLFX_ALWAYS_INLINE float8
m06_lookup8 (__constant const float *in, __constant const float *out,
             float8 v)
{
  int8 pos = (int8) (0);

#pragma unroll
  for (int e = 8; e < M06_TAB_N; e += 8)
    pos -= ! (v < in[e]);
  pos *= 8;
#pragma unroll
  for (int step = 4; step > 0; step /= 2)
    {
      int8 next = pos + step, at = min (next, (int8) (M06_TAB_N - 1));
      pos = next <= M06_TAB_N - 1 && ! (v < m06_gather8 (in, at)) ? next
                                                                   : pos;
    }
  return m06_interp8 (in, out, v, pos + 1);
}

/* The lookup from m06_r (R in [0, 1]), whose entries are i / 106 to six
 * decimals: the count from R 106, off by at most one, corrected. */
inline CLFX_ALWAYS_INLINE float8
m06_lookup8_r (float8 R)
{
  int8 pos = clamp (convert_int8 (R * 106.0f), 0, M06_TAB_N - 1);

  pos = pos >= 1 && R < m06_gather8 (m06_r, pos) ? pos - 1 : pos;
  pos = pos + 1 <= M06_TAB_N - 1
            && ! (R < m06_gather8 (m06_r, min (pos + 1, M06_TAB_N - 1)))
          ? pos + 1
          : pos;
  return m06_interp8 (m06_r, m06_w, R, pos + 1);
}

inline CLFX_ALWAYS_INLINE float8
m06_transduce8 (float8 g, float contrast, float detail)
{
  float  ln10 = 2.302585093f;
  float8 W = expm1 (detail * fabs (g) * ln10);
  float8 R = m06_lookup8 (m06_w, m06_r, W) * contrast;
  float8 G = log1p (m06_lookup8_r (R)) / (ln10 * detail);

  return g < 0.0f ? -G : G;
}

inline CLFX_ALWAYS_INLINE float8
m06_weight8 (float8 G)
{
  return 1.0f / (0.038737f * exp2 (0.537756f * log2 (fmax (fabs (G),
                                                             0.001f))));
}

/* Level k's target: forward differences of x (0 in the last column and
 * row) through the transducer, their weights C and C G. */
inline CLFX_ALWAYS_INLINE void
m06_target1 (__global const float *x, int w, int h, float contrast,
             float detail, __global float *Cx, __global float *Cy,
             __global float *Bx, __global float *By, int gx, int gy)
{
  long  i = (long) gy * w + gx;
  float v = x[i], Gx, Gy;

  Gx = m06_transduce (gx == w - 1 ? 0.0f : x[i + 1] - v, contrast, detail);
  Gy = m06_transduce (gy == h - 1 ? 0.0f : x[i + w] - v, contrast, detail);
  Cx[i] = m06_weight (Gx);
  Cy[i] = m06_weight (Gy);
  Bx[i] = Cx[i] * Gx;
  By[i] = Cy[i] * Gy;
}

#if ! CLFX_SRC_BUFFER
__kernel void
m06_target (__global const float *x, int w, int h, float contrast,
            float detail, __global float *Cx, __global float *Cy,
            __global float *Bx, __global float *By)
{
  int gx = get_global_id (0), gy = get_global_id (1);

  if (gx < w && gy < h)
    m06_target1 (x, w, h, contrast, detail, Cx, Cy, Bx, By, gx, gy);
}
#else
/* m06_target in the CPU devices' form: a row a work-item, TM_V pixels at
 * a time with the transducer and the weights eight wide (the lookups
 * without branches: m06_lookup8), the row's last pixels by m06_target1. */
__kernel void
m06_target_v (__global const float *x, int w, int h, float contrast,
              float detail, __global float *Cx, __global float *Cy,
              __global float *Bx, __global float *By)
{
  int gy = get_global_id (0), gx = 0;

  if (gy >= h)
    return;
  for (; gx + TM_V <= w - 1; gx += TM_V)
    {
      long   i = (long) gy * w + gx;
      float8 v = vload8 (0, x + i), Gx, Gy, cx, cy;

      Gx = m06_transduce8 (vload8 (0, x + i + 1) - v, contrast, detail);
      Gy = m06_transduce8 (gy == h - 1 ? (float8) (0.0f)
                                       : vload8 (0, x + i + w) - v,
                           contrast, detail);
      cx = m06_weight8 (Gx);
      cy = m06_weight8 (Gy);
      vstore8 (cx, 0, Cx + i);
      vstore8 (cy, 0, Cy + i);
      vstore8 (cx * Gx, 0, Bx + i);
      vstore8 (cy * Gy, 0, By + i);
    }
  for (; gx < w; gx++)
    m06_target1 (x, w, h, contrast, detail, Cx, Cy, Bx, By, gx, gy);
}
#endif

/* The coarser level's sum S (w / 2 x h / 2) at (x, y) of a w x h level:
 * the bilinear weights of the coarse pixels under the fine one, times the
 * area ratio, with GEGL's last weight (vertical extent sy + dx, not dy). */
inline float
m06_up (__global const float *S, int w, int h, int x, int y)
{
  int   iw = w / 2, ih = h / 2;
  float dx = (float) iw / (float) w, dy = (float) ih / (float) h;
  float f = 1.0f / (dx * dy), sx = (float) x * dx, sy = (float) y * dy;
  /* x iw / w is x / 2 where w is even: a shift, not a division. */
  int   x1 = w % 2 ? x * iw / w : x >> 1;
  int   x2 = min (w % 2 ? (x + 1) * iw / w : (x + 1) >> 1, iw - 1);
  int   y1 = h % 2 ? y * ih / h : y >> 1;
  int   y2 = min (h % 2 ? (y + 1) * ih / h : (y + 1) >> 1, ih - 1);
  float ax = (float) (x1 + 1) - sx, bx = sx + dx - (float) (x1 + 1);
  float ay = (float) (y1 + 1) - sy, by = sy + dy - (float) (y1 + 1);
  float by_dx = sy + dx - (float) (y1 + 1);

  return (ax * ay * S[(long) y1 * iw + x1] + ax * by * S[(long) y2 * iw + x1]
          + bx * ay * S[(long) y1 * iw + x2]
          + bx * by_dx * S[(long) y2 * iw + x2])
         * f;
}

/* The CPU devices' forms of m06_div and m06_apply: a row (or a band of
 * rows) a work-item, TM_V pixels at a time from x = TM_V to m06_up_last
 * (every neighbour inside, m06_up's four coarse texels of each lane among
 * eight from the block's first: m06_up8), else pixel by pixel. */
inline CLFX_ALWAYS_INLINE int
m06_up_last (int w)
{
  int iw = w / 2;
  /* x + 8 <= w - 1, and x iw / w + 8 <= iw: x iw < (iw - 7) w. */
  long last = iw > 7 ? ((long) (iw - 7) * w - 1) / iw : -1;

  return min (w - 9, (int) last);
}

/* An exact x / d for 0 <= x < 2^31 eight wide (a float's estimate, off by
 * at most one, corrected). */
inline CLFX_ALWAYS_INLINE int8
m06_div8 (int8 x, int d)
{
  int8 q = convert_int8 (convert_float8 (x) * (1.0f / (float) d));

  q = q * d > x ? q - 1 : q;
  return (q + 1) * d <= x ? q + 1 : q;
}

/* m06_up for eight pixels of row y (m06_up_last): the same indices,
 * weights and operations a lane; the texels picked from eight floats of
 * each coarse row (a fixed pattern where w is even).  What depends on the
 * row alone is made once a row (m06_up_row), the eight from x by m06_up8. */
typedef struct
{
  __global const float *r1, *r2; /* coarse rows y1 and y2 */
  float                 ay, by, by_dx, dx, f;
  int                   iw, w;
  /* w even: ax ay, ax by, bx ay, bx by_dx of the eight lanes. */
  float8                a1, a2, b1, b2;
} M06Up;

inline CLFX_ALWAYS_INLINE void
m06_up_row (M06Up *u, __global const float *S, int w, int h, int y)
{
  int   iw = w / 2, ih = h / 2;
  float dx = (float) iw / (float) w, dy = (float) ih / (float) h;
  float sy = (float) y * dy;
  int   y1 = y * ih / h, y2 = min ((y + 1) * ih / h, ih - 1);

  u->iw = iw;
  u->w = w;
  u->dx = dx;
  u->f = 1.0f / (dx * dy);
  u->ay = (float) (y1 + 1) - sy;
  u->by = sy + dy - (float) (y1 + 1);
  u->by_dx = sy + dx - (float) (y1 + 1);
  u->r1 = S + (long) y1 * iw;
  u->r2 = S + (long) y2 * iw;
  if (w % 2 == 0)
    {
      /* dx = 1 / 2: sx and the weights are exact, ax 1 and 1 / 2, bx -1 / 2
       * and 0, even and odd x. */
      float8 ax = (float8) (1.0f, 0.5f, 1.0f, 0.5f, 1.0f, 0.5f, 1.0f, 0.5f);
      float8 bx = (float8) (-0.5f, 0.0f, -0.5f, 0.0f, -0.5f, 0.0f, -0.5f,
                            0.0f);
      u->a1 = ax * u->ay;
      u->a2 = ax * u->by;
      u->b1 = bx * u->ay;
      u->b2 = bx * u->by_dx;
    }
}

inline CLFX_ALWAYS_INLINE float8
m06_up8 (const M06Up *u, int x)
{
  int8   xv = (int8) (x) + (int8) (0, 1, 2, 3, 4, 5, 6, 7), x1, x2;
  float8 r1, r2;

  if (u->w % 2 == 0)
    {
      /* x is a multiple of 8: x1 - x / 2 is 0 0 1 1 2 2 3 3, x2 - x / 2
       * 0 1 1 2 2 3 3 4. */
      r1 = vload8 (0, u->r1 + x / 2);
      r2 = vload8 (0, u->r2 + x / 2);
      return (u->a1 * r1.s00112233 + u->a2 * r2.s00112233
              + u->b1 * r1.s01122334 + u->b2 * r2.s01122334)
             * u->f;
    }
  else
    {
      float8 sx = convert_float8 (xv) * u->dx, ax, bx;
      uint8  m1, m2;
      int    base;
      x1 = m06_div8 (xv * u->iw, u->w);
      x2 = min (m06_div8 ((xv + 1) * u->iw, u->w), u->iw - 1);
      ax = convert_float8 (x1 + 1) - sx;
      bx = sx + u->dx - convert_float8 (x1 + 1);
      base = x1.s0;
      r1 = vload8 (0, u->r1 + base);
      r2 = vload8 (0, u->r2 + base);
      m1 = as_uint8 (x1 - base);
      m2 = as_uint8 (x2 - base);
      return (ax * u->ay * shuffle (r1, m1) + ax * u->by * shuffle (r2, m1)
              + bx * u->ay * shuffle (r1, m2)
              + bx * u->by_dx * shuffle (r2, m2))
             * u->f;
    }
}

/* S = the coarser level's sum upsampled (coarse: 0 at the coarsest) plus
 * the divergence of (Bx, By), backward differences mirroring the forward
 * ones. */
inline CLFX_ALWAYS_INLINE float
m06_div1 (__global const float *Bx, __global const float *By, int w, int h,
          __global const float *Sc, int coarse, int gx, int gy)
{
  long  i = (long) gy * w + gx;
  float d = (gx == 0 ? Bx[i] : Bx[i] - Bx[i - 1])
            + (gy == 0 ? By[i] : By[i] - By[i - w]);

  return (coarse ? m06_up (Sc, w, h, gx, gy) : 0.0f) + d;
}

/* m06_div of C times v's forward differences (A v at this level). */
inline float
m06_cgrad_x (__global const float *v, __global const float *Cx, int w,
             long i, int x)
{
  return x == w - 1 ? 0.0f : Cx[i] * (v[i + 1] - v[i]);
}

inline float
m06_cgrad_y (__global const float *v, __global const float *Cy, int w, int h,
             long i, int y)
{
  return y == h - 1 ? 0.0f : Cy[i] * (v[i + w] - v[i]);
}

inline CLFX_ALWAYS_INLINE float
m06_apply1 (__global const float *v, __global const float *Cx,
            __global const float *Cy, int w, int h, __global const float *Sc,
            int coarse, int gx, int gy)
{
  long  i = (long) gy * w + gx;
  float ex, ey, d;

  ex = m06_cgrad_x (v, Cx, w, i, gx);
  ey = m06_cgrad_y (v, Cy, w, h, i, gy);
  d = (gx == 0 ? ex : ex - m06_cgrad_x (v, Cx, w, i - 1, gx - 1))
      + (gy == 0 ? ey : ey - m06_cgrad_y (v, Cy, w, h, i - w, gy - 1));
  return (coarse ? m06_up (Sc, w, h, gx, gy) : 0.0f) + d;
}

#if ! CLFX_SRC_BUFFER
__kernel void
m06_div (__global const float *Bx, __global const float *By, int w, int h,
         __global const float *Sc, int coarse, __global float *S)
{
  int gx = get_global_id (0), gy = get_global_id (1);

  if (gx < w && gy < h)
    S[(long) gy * w + gx] = m06_div1 (Bx, By, w, h, Sc, coarse, gx, gy);
}

__kernel void
m06_apply (__global const float *v, __global const float *Cx,
           __global const float *Cy, int w, int h, __global const float *Sc,
           int coarse, __global float *S, __global const float *st, int k)
{
  int gx = get_global_id (0), gy = get_global_id (1);

  if (gx >= w || gy >= h || ! m06_on (st, k))
    return;
  S[(long) gy * w + gx] = m06_apply1 (v, Cx, Cy, w, h, Sc, coarse, gx, gy);
}
/* A v's coarse levels in one group (GPU): n levels, the first half the
 * finer level `fine` (fw x fh); their pyramid of v, then their sums from
 * the coarsest, the first one's into S0, each pixel as m06_down and
 * m06_apply make it.  pk holds each level's pyramid, sum, Cx and Cy
 * (w h floats each), level after level (m06_pack). */
__kernel __attribute__ ((reqd_work_group_size (M06_COARSE_GROUP, 1, 1))) void
m06_coarse (__global const float *fine, int fw, int fh, int n,
            __global float *pk, __global float *S0, __global const float *st,
            int k)
{
  int  lx = get_local_id (0);
  int  w[M06_COARSE_LEVELS], h[M06_COARSE_LEVELS];
  long at[M06_COARSE_LEVELS];
  __global const float *in = fine;

  /* st is read, never written, here: every work-item returns or none. */
  if (! m06_on (st, k) || n < 1 || n > M06_COARSE_LEVELS)
    return;
  for (int l = 0; l < n; l++)
    {
      w[l] = (l ? w[l - 1] : fw) / 2;
      h[l] = (l ? h[l - 1] : fh) / 2;
      at[l] = l ? at[l - 1] + 4 * (long) w[l - 1] * h[l - 1] : 0;
    }
  for (int l = 0; l < n; l++)
    {
      __global float *D = pk + at[l];
      int             iw = l ? w[l - 1] : fw, ih = l ? h[l - 1] : fh;
      for (int i = lx; i < w[l] * h[l]; i += M06_COARSE_GROUP)
        D[i] = m06_down1 (in, iw, ih, w[l], h[l], i % w[l], i / w[l]);
      barrier (CLK_GLOBAL_MEM_FENCE);
      in = D;
    }
  for (int l = n - 1; l >= 0; l--)
    {
      long                  m = (long) w[l] * h[l];
      __global const float *D = pk + at[l], *Cx = D + 2 * m, *Cy = D + 3 * m;
      /* The coarsest level reads no coarser sum: any buffer stands in. */
      __global const float *Sc
        = l < n - 1 ? pk + at[l + 1] + (long) w[l + 1] * h[l + 1] : Cx;
      __global float       *S = l ? pk + at[l] + m : S0;
      for (int i = lx; i < m; i += M06_COARSE_GROUP)
        S[i] = m06_apply1 (D, Cx, Cy, w[l], h[l], Sc, l < n - 1, i % w[l],
                           i / w[l]);
      barrier (CLK_GLOBAL_MEM_FENCE);
    }
}

/* n floats into pk from `at` (a coarse level's Cx or Cy, m06_coarse). */
__kernel void
m06_pack (__global const float *from, __global float *pk, long at, long n)
{
  long i = get_global_id (0);

  if (i < n)
    pk[at + i] = from[i];
}
#else
/* Compensated addition eight wide, a lane each. */
inline CLFX_ALWAYS_INLINE void
m06_kahan8 (float8 *sum, float8 *comp, float8 v)
{
  float8 y = v - *comp, t = *sum + y;

  *comp = (t - *sum) - y;
  *sum = t;
}

/* The lanes' compensated sums and a scalar one added in a fixed order. */
inline CLFX_ALWAYS_INLINE float
m06_lanes (float8 sum, float8 comp, float ssum, float scomp)
{
  float8 s = sum - comp;
  float4 q = s.lo + s.hi;
  float2 t = q.lo + q.hi;

  return (t.s0 + t.s1) + (ssum - scomp);
}

__kernel void
m06_div_v (__global const float *Bx, __global const float *By, int w, int h,
           __global const float *Sc, int coarse, __global float *S)
{
  int   gy = get_global_id (0), last = m06_up_last (w);
  long  at = (long) gy * w;
  M06Up up;

  if (gy >= h)
    return;
  m06_up_row (&up, Sc, w, h, gy);
  for (int gx = 0; gx < w; gx++)
    {
      if (gy > 0 && gx == TM_V)
        for (; gx <= last; gx += TM_V)
          {
            long   i = at + gx;
            float8 d = (vload8 (0, Bx + i) - vload8 (0, Bx + i - 1))
                       + (vload8 (0, By + i) - vload8 (0, By + i - w));
            vstore8 ((coarse ? m06_up8 (&up, gx) : (float8) (0.0f))
                       + d,
                     0, S + i);
          }
      if (gx >= w)
        break;
      S[at + gx] = m06_div1 (Bx, By, w, h, Sc, coarse, gx, gy);
    }
}

/* m06_apply's rows [rows b, rows (b + 1)) for work-item b; dot: the sum
 * of v S over them into partials[b] (p.Ap where v is p at level 0),
 * compensated, a lane per column of the eight and one for the pixels
 * made alone, added in a fixed order: every run the same. */
__kernel void
m06_apply_v (__global const float *v, __global const float *Cx,
             __global const float *Cy, int w, int h, __global const float *Sc,
             int coarse, __global float *S, __global const float *st, int k,
             int rows, int dot, __global float *partials)
{
  int    b = get_global_id (0), y0 = b * rows, y1 = min (y0 + rows, h);
  int    last = m06_up_last (w);
  float8 sum = (float8) (0.0f), comp = (float8) (0.0f);
  float  ssum = 0.0f, scomp = 0.0f;

  if (y0 >= h || ! m06_on (st, k))
    return;
  for (int gy = y0; gy < y1; gy++)
    {
      long  at = (long) gy * w;
      bool  inner = gy > 0 && gy < h - 1;
      M06Up up;

      m06_up_row (&up, Sc, w, h, gy);
      for (int gx = 0; gx < w; gx++)
        {
          float o;
          if (inner && gx == TM_V)
            for (; gx <= last; gx += TM_V)
              {
                long   i = at + gx;
                __global const float *r = v + i;
                float8 c = vload8 (0, r);
                float8 ex = vload8 (0, Cx + i) * (vload8 (0, r + 1) - c);
                float8 exl = vload8 (0, Cx + i - 1) * (c - vload8 (0, r - 1));
                float8 ey = vload8 (0, Cy + i) * (vload8 (0, r + w) - c);
                float8 eyu = vload8 (0, Cy + i - w) * (c - vload8 (0, r - w));
                float8 d = (ex - exl) + (ey - eyu);
                float8 s8 = (coarse ? m06_up8 (&up, gx)
                                    : (float8) (0.0f))
                            + d;
                vstore8 (s8, 0, S + i);
                if (dot)
                  m06_kahan8 (&sum, &comp, c * s8);
              }
          if (gx >= w)
            break;
          o = m06_apply1 (v, Cx, Cy, w, h, Sc, coarse, gx, gy);
          S[at + gx] = o;
          if (dot)
            tm_kahan (&ssum, &scomp, v[at + gx] * o);
        }
    }
  if (dot)
    partials[b] = m06_lanes (sum, comp, ssum, scomp);
}
#endif

/* ---- the solve's vectors and reductions (TM_SEL_GROUP a group, group g
 * over its chunk; partials reduced by m06_final) ----------------------- */

#if ! CLFX_SRC_BUFFER
__kernel void
m06_dot (__global const float *a, __global const float *b, long n,
         long chunk, __global float *partials, __global const float *st,
         int k, __local float *s)
{
  int   lx = get_local_id (0), g = get_group_id (0);
  long  lo = (long) g * chunk, hi = min (lo + chunk, n);
  float sum = 0.0f, comp = 0.0f, t;
  bool  on = m06_on (st, k);

  for (long i = lo + lx; on && i < hi; i += TM_SEL_GROUP)
    tm_kahan (&sum, &comp, a[i] * b[i]);
  t = tm_sel_tree (s, lx, sum);
  if (lx == 0 && on)
    partials[g] = t;
}

/* r -= alpha A p, and r.r's partial. */
__kernel void
m06_update_r (__global float *r, __global const float *Ap, long n,
              long chunk, __global float *partials, __global const float *st,
              int k, __local float *s)
{
  int   lx = get_local_id (0), g = get_group_id (0);
  long  lo = (long) g * chunk, hi = min (lo + chunk, n);
  float sum = 0.0f, comp = 0.0f, t, alpha = st[M06_ALPHA];
  bool  on = m06_on (st, k);

  for (long i = lo + lx; on && i < hi; i += TM_SEL_GROUP)
    {
      float v = r[i] - alpha * Ap[i];
      r[i] = v;
      tm_kahan (&sum, &comp, v * v);
    }
  t = tm_sel_tree (s, lx, sum);
  if (lx == 0 && on)
    partials[g] = t;
}

/* r = p = b - A x, and r.r's partial (the start, and each restart). */
__kernel void
m06_resid (__global const float *b, __global const float *Ax,
           __global float *r, __global float *p, long n, long chunk,
           __global float *partials, __local float *s)
{
  int   lx = get_local_id (0), g = get_group_id (0);
  long  lo = (long) g * chunk, hi = min (lo + chunk, n);
  float sum = 0.0f, comp = 0.0f, t;

  for (long i = lo + lx; i < hi; i += TM_SEL_GROUP)
    {
      float v = b[i] - Ax[i];
      r[i] = v;
      p[i] = v;
      tm_kahan (&sum, &comp, v * v);
    }
  t = tm_sel_tree (s, lx, sum);
  if (lx == 0)
    partials[g] = t;
}

#else
/* The CPU devices' forms: work-item g the whole chunk g, eight at a time
 * a lane each, compensated, the lanes added in a fixed order
 * (m06_lanes); partials[g] as the GPU forms' groups write it, its sum in
 * another order. */
__kernel void
m06_dot_v (__global const float *a, __global const float *b, long n,
           long chunk, __global float *partials, __global const float *st,
           int k)
{
  int    g = get_global_id (0);
  long   i = (long) g * chunk, hi = min (i + chunk, n);
  float8 sum = (float8) (0.0f), comp = (float8) (0.0f);
  float  ssum = 0.0f, scomp = 0.0f;

  if (! m06_on (st, k))
    return;
  for (; i + 8 <= hi; i += 8)
    m06_kahan8 (&sum, &comp, vload8 (0, a + i) * vload8 (0, b + i));
  for (; i < hi; i++)
    tm_kahan (&ssum, &scomp, a[i] * b[i]);
  partials[g] = m06_lanes (sum, comp, ssum, scomp);
}

__kernel void
m06_update_r_v (__global float *r, __global const float *Ap, long n,
                long chunk, __global float *partials,
                __global const float *st, int k)
{
  int    g = get_global_id (0);
  long   i = (long) g * chunk, hi = min (i + chunk, n);
  float8 sum = (float8) (0.0f), comp = (float8) (0.0f);
  float  ssum = 0.0f, scomp = 0.0f, alpha = st[M06_ALPHA];

  if (! m06_on (st, k))
    return;
  for (; i + 8 <= hi; i += 8)
    {
      float8 v = vload8 (0, r + i) - alpha * vload8 (0, Ap + i);
      vstore8 (v, 0, r + i);
      m06_kahan8 (&sum, &comp, v * v);
    }
  for (; i < hi; i++)
    {
      float v = r[i] - alpha * Ap[i];
      r[i] = v;
      tm_kahan (&ssum, &scomp, v * v);
    }
  partials[g] = m06_lanes (sum, comp, ssum, scomp);
}

__kernel void
m06_resid_v (__global const float *b, __global const float *Ax,
             __global float *r, __global float *p, long n, long chunk,
             __global float *partials)
{
  int    g = get_global_id (0);
  long   i = (long) g * chunk, hi = min (i + chunk, n);
  float8 sum = (float8) (0.0f), comp = (float8) (0.0f);
  float  ssum = 0.0f, scomp = 0.0f;

  for (; i + 8 <= hi; i += 8)
    {
      float8 v = vload8 (0, b + i) - vload8 (0, Ax + i);
      vstore8 (v, 0, r + i);
      vstore8 (v, 0, p + i);
      m06_kahan8 (&sum, &comp, v * v);
    }
  for (; i < hi; i++)
    {
      float v = b[i] - Ax[i];
      r[i] = v;
      p[i] = v;
      tm_kahan (&ssum, &scomp, v * v);
    }
  partials[g] = m06_lanes (sum, comp, ssum, scomp);
}

#endif

/* What a reduced value decides (mode: mantiuk06-shapes.h's M06_FIN_*).
 * After an update (M06_FIN_RR), GEGL's rule: a residual that grew keeps
 * the x before the step as the best seen when it starts such a run; 4
 * growths running call for a restart from the best x (M06_PAUSE: the host
 * makes it); stop below tol or at itmax. */
inline void
m06_decide (__global float *st, int mode, float v, float tol2, float itmax,
            int k)
{
  if (mode == M06_FIN_BB)
    {
      st[M06_BB] = v;
      /* No target gradients: x is flat along all of them already. */
      st[M06_DONE] = v == 0.0f;
    }
  else if (mode == M06_FIN_START)
    st[M06_RR] = st[M06_SAVED_RR] = v;
  else if (mode == M06_FIN_PAP)
    st[M06_ALPHA] = st[M06_RR] / v;
  else if (mode == M06_FIN_RESTART)
    {
      st[M06_RR] = st[M06_SAVED_RR] = v;
      st[M06_PAUSE] = 0.0f;
      /* No update pending (the CPU devices' m06_down_update_v). */
      st[M06_LAST] = 0.0f;
    }
  else
    {
      float old = st[M06_RR], iter = st[M06_ITER] + 1.0f;
      bool  converged;

      st[M06_SAVE] = 0.0f;
      if (v > old)
        {
          if (st[M06_BACK] == 0.0f && old < st[M06_SAVED_RR])
            {
              st[M06_SAVED_RR] = old;
              st[M06_SAVE] = 1.0f;
            }
          st[M06_BACK] += 1.0f;
        }
      else
        st[M06_BACK] = 0.0f;
      st[M06_RR] = v;
      st[M06_ITER] = iter;
      st[M06_LAST] = (float) k;
      converged = v / st[M06_BB] < tol2;
      if (! converged && st[M06_BACK] > 3.0f)
        {
          st[M06_BACK] = 0.0f;
          st[M06_PAUSE] = 1.0f;
        }
      else
        st[M06_BETA] = v / old;
      st[M06_DONE] = converged || (iter >= itmax && st[M06_PAUSE] == 0.0f);
    }
}

__kernel void
m06_final (__global const float *partials, int groups, int mode, float tol2,
           float itmax, __global float *st, int k, __local float *s)
{
  int   lx = get_local_id (0);
  /* Every work-item reaches the sum's barriers; work-item 0 decides. */
  bool  on = m06_on (st, k);
  float v = tm_sum_final (partials, on ? groups : 0, lx, s);

  if (lx == 0 && on)
    m06_decide (st, mode, v, tol2, itmax, k);
}

/* Iteration k's update, where its step ran: x saved first if the step
 * says so, x += alpha p, then p = r + beta p unless the solve stops or
 * restarts. */
#if ! CLFX_SRC_BUFFER
__kernel void
m06_update (__global float *x, __global float *saved, __global float *p,
            __global const float *r, long n, __global const float *st, int k)
{
  long i = get_global_id (0);

  if (i >= n || st[M06_LAST] != (float) k)
    return;
  if (st[M06_SAVE] != 0.0f)
    saved[i] = x[i];
  x[i] += st[M06_ALPHA] * p[i];
  if (st[M06_DONE] == 0.0f && st[M06_PAUSE] == 0.0f)
    p[i] = r[i] + st[M06_BETA] * p[i];
}
#else
/* m06_update in the CPU devices' form: work-item g the chunk g
 * (m06_update_span); stop_only: only where the solve stops or pauses
 * after iteration k (else the next iteration's m06_down_update_v makes
 * the update). */
__kernel void
m06_update_v (__global float *x, __global float *saved, __global float *p,
              __global const float *r, long n, long chunk,
              __global const float *st, int k, int stop_only)
{
  long i = (long) get_global_id (0) * chunk, hi = min (i + chunk, n);

  if (st[M06_LAST] != (float) k
      || (stop_only && st[M06_DONE] == 0.0f && st[M06_PAUSE] == 0.0f))
    return;
  m06_update_span (x, saved, p, r, i, hi, st);
}
#endif

__kernel void
m06_copy (__global const float *from, __global float *to, long n)
{
  long i = get_global_id (0);

  if (i < n)
    to[i] = from[i];
}

/* The end: the best x seen where the last one is worse. */
#if ! CLFX_SRC_BUFFER
__kernel void
m06_pick (__global float *x, __global const float *saved, long n,
          __global const float *st)
{
  long i = get_global_id (0);

  if (i < n && st[M06_RR] > st[M06_SAVED_RR])
    x[i] = saved[i];
}
#else
/* m06_pick in the CPU devices' form: work-item g the chunk g. */
__kernel void
m06_pick_v (__global float *x, __global const float *saved, long n,
            long chunk, __global const float *st)
{
  long i = (long) get_global_id (0) * chunk, hi = min (i + chunk, n);

  if (! (st[M06_RR] > st[M06_SAVED_RR]))
    return;
  for (; i + 8 <= hi; i += 8)
    vstore8 (vload8 (0, saved + i), 0, x + i);
  for (; i < hi; i++)
    x[i] = saved[i];
}
#endif

/* ---- the percentiles: radix selection of two ranks at a time
 * (tonemap-select.h), into st[slot], st[slot + 1] ---------------------- */

#if ! CLFX_SRC_BUFFER
__kernel void
m06_hist (__global const float *x, long n, long chunk,
          __global const uint *sel, int known, int shift,
          __global uint *hist, __local uint *lh)
{
  tm_sel_hist (x, n, chunk, sel, known, shift, hist, lh);
}
#else
__kernel void
m06_hist_v (__global const float *x, long n, long chunk,
            __global const uint *sel, int known, int shift,
            __global uint *hist, __local uint *lh)
{
  tm_sel_hist_v (x, n, chunk, sel, known, shift, hist, lh);
}
#endif

__kernel void
m06_select (__global const uint *hist, __global uint *sel, int known,
            int shift, uint rank0, uint rank1, __global float *st, int slot,
            __local uint *s)
{
  float v[2];

  if (tm_sel_select (hist, sel, known, shift, rank0, rank1, s, v))
    {
      st[slot] = v[0];
      st[slot + 1] = v[1];
    }
}

/* GEGL's percentile of the ranks below and above each point, the lower
 * weighed by the fraction (d_lo, d_hi) and the upper by its complement;
 * 0 and 0 for a black image (nothing to solve: the map makes it black). */
__kernel void
m06_range (__global float *st, float d_lo, float d_hi,
           __global const float *p)
{
  if (p[TM_P_BLACK] != 0.0f)
    {
      st[M06_LMIN] = st[M06_LMAX] = 0.0f;
      return;
    }
  st[M06_LMIN] = st[M06_Q] * d_lo + st[M06_Q + 2] * (1.0f - d_lo);
  st[M06_LMAX] = st[M06_Q + 1] * d_hi + st[M06_Q + 3] * (1.0f - d_hi);
}

/* The solved range at or below which the result is flat (M06_FLAT). */
inline CLFX_ALWAYS_INLINE float
m06_flat (__global const float *st)
{
  return M06_FLAT
         * (1.0f + fmax (fabs (st[M06_LMIN]), fabs (st[M06_LMAX])));
}

/* t = (x - l_min) / (l_max - l_min) (1 where the result is flat), L =
 * 10^(2.3 t - 2.3), colour (max (c, clip) / max (Y, clip))^saturation L;
 * black where the image is; pass: as read (an image narrower or lower
 * than 3 pixels, which GEGL passes through). */
#if ! CLFX_SRC_BUFFER
__kernel void
m06_map (CLFX_SRC_ARGS (src), CLFX_DST_ARGS, __global const uint4 *scan,
         float scale, __global const float *x, int w,
         __global const float *p, __global const float *st,
         float saturation, int pass, __global uint *hist,
         __local uint *lh)
{
  int gx = get_global_id (0), gy = get_global_id (1);

  tm_hist_zero (lh, TM_HA_N);
  if (gx < dst_rect.z && gy < dst_rect.w)
    {
      int    px = CLFX_DST_X (gx), py = CLFX_DST_Y (gy);
      float4 v = tm_read (CLFX_SRC (src), px, py, tm_largest (scan), scale);

      if (pass)
        ;
      else if (p[TM_P_BLACK] != 0.0f)
        v.xyz = (float3) (0.0f);
      else
        {
          float  clip = p[0], range = st[M06_LMAX] - st[M06_LMIN];
          float  t = range > m06_flat (st)
                       ? (x[(long) py * w + px] - st[M06_LMIN]) / range
                       : 1.0f;
          float  L = exp10 (t * 2.3f - 2.3f);
          float3 c = fmax (v.xyz, (float3) (clip))
                     / fmax (tm_luminance (v), clip);

          v.xyz = saturation == 0.0f ? (float3) (L)
                                     : exp2 (saturation * log2 (c)) * L;
        }
      tm_store (dst, dst_offset, dst_pitch, dst_rect, px, py, v, lh);
    }
  tm_hist_flush (lh, TM_HA_N, hist);
}
#else
/* m06_map in the CPU devices' form: eight pixels of a row in TM_MAP_ROWS
 * rows a work-item (tm_map8_begin), m06_map's operations eight wide. */
inline CLFX_ALWAYS_INLINE void
m06_map8 (float8 *r, float8 *g, float8 *b, int x, int y, int n,
          __global const float *X, int w, __global const float *p,
          __global const float *st, float saturation)
{
  float  clip = p[0], range = st[M06_LMAX] - st[M06_LMIN];
  float8 t, L, Y;

  if (p[TM_P_BLACK] != 0.0f)
    {
      *r = *g = *b = (float8) (0.0f);
      return;
    }
  t = range > m06_flat (st)
        ? (tm_get8 (X, (long) y * w + x, n) - st[M06_LMIN]) / range
        : (float8) (1.0f);
  L = exp10 (t * 2.3f - 2.3f);
  Y = fmax (tm_luminance8 (*r, *g, *b), clip);
  if (saturation == 0.0f)
    *r = *g = *b = L;
  else
    {
      *r = exp2 (saturation * log2 (fmax (*r, clip) / Y)) * L;
      *g = exp2 (saturation * log2 (fmax (*g, clip) / Y)) * L;
      *b = exp2 (saturation * log2 (fmax (*b, clip) / Y)) * L;
    }
}

__kernel void
m06_map_v (CLFX_SRC_ARGS (src), CLFX_DST_ARGS, __global const uint4 *scan,
           float scale, __global const float *x, int w,
           __global const float *p, __global const float *st,
           float saturation, int pass, __global uint *hist,
           __local uint *lh)
{
  uint ph[4 * TM_HA_N];
  int  gx, gy0, gy1;

  gy1 = tm_map8_begin (dst_rect, &gx, &gy0, ph, lh);
  for (int gy = gy0; gy < gy1; gy++)
    {
      int    px = CLFX_DST_X (gx), py = CLFX_DST_Y (gy);
      int    n = min (8, dst_rect.z - gx);
      float8 r, g, b, a;

      tm_read8 (CLFX_SRC (src), px, py, n, tm_largest (scan), scale, &r,
                &g, &b, &a);
      if (! pass)
        m06_map8 (&r, &g, &b, px, py, n, x, w, p, st, saturation);
      tm_map8_put (ph, dst, dst_offset, dst_pitch, dst_rect, px, py, n, r,
                   g, b, a);
    }
  tm_map8_end (ph, lh, hist);
}
#endif
