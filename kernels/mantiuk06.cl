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
 * of reading the state. */
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
/* m06_log in the CPU devices' form: eight pixels of a row a work-item. */
__kernel void
m06_log_v (CLFX_SRC_ARGS (src), int4 rect, int w,
           __global const uint4 *scan,
           float scale, __global const float *p, __global float *x)
{
  int   gx = rect.x + 8 * (int) get_global_id (0);
  int   gy = rect.y + (int) get_global_id (1);
  float m = tm_largest (scan);

  if (gy >= rect.w)
    return;
  for (int i = gx; i < min (gx + 8, rect.z); i++)
    x[(long) gy * w + i]
      = log10 (fmax (tm_luminance (tm_read (CLFX_SRC (src), i, gy, m,
                                            scale)),
                     p[1]));
}
#endif

/* The area average onto ow x oh = (iw / 2) x (ih / 2): each coarse pixel
 * integrates the fine pixels it covers, the partly covered first and last
 * in each direction by the fraction that shows. */
__kernel void
m06_down (__global const float *in, int iw, int ih, __global float *out,
          int ow, int oh, __global const float *st, int k)
{
  int   x = get_global_id (0), y = get_global_id (1);
  float dx = (float) iw / (float) ow, dy = (float) ih / (float) oh;
  int   x1, x2, y1, y2;
  float fx1, fx2, fy1, fy2, s = 0.0f;

  if (x >= ow || y >= oh || ! m06_on (st, k))
    return;
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
  out[(long) y * ow + x] = s / (dx * dy);
}

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

/* Level k's target: forward differences of x (0 in the last column and
 * row) through the transducer, their weights C and C G. */
__kernel void
m06_target (__global const float *x, int w, int h, float contrast,
            float detail, __global float *Cx, __global float *Cy,
            __global float *Bx, __global float *By)
{
  int  gx = get_global_id (0), gy = get_global_id (1);
  long i = (long) gy * w + gx;
  float v, Gx, Gy;

  if (gx >= w || gy >= h)
    return;
  v = x[i];
  Gx = m06_transduce (gx == w - 1 ? 0.0f : x[i + 1] - v, contrast, detail);
  Gy = m06_transduce (gy == h - 1 ? 0.0f : x[i + w] - v, contrast, detail);
  Cx[i] = m06_weight (Gx);
  Cy[i] = m06_weight (Gy);
  Bx[i] = Cx[i] * Gx;
  By[i] = Cy[i] * Gy;
}

/* The coarser level's sum S (w / 2 x h / 2) at (x, y) of a w x h level:
 * the bilinear weights of the coarse pixels under the fine one, times the
 * area ratio, with GEGL's last weight (vertical extent sy + dx, not dy). */
inline float
m06_up (__global const float *S, int w, int h, int x, int y)
{
  int   iw = w / 2, ih = h / 2;
  float dx = (float) iw / (float) w, dy = (float) ih / (float) h;
  float f = 1.0f / (dx * dy), sx = (float) x * dx, sy = (float) y * dy;
  int   x1 = x * iw / w, x2 = min ((x + 1) * iw / w, iw - 1);
  int   y1 = y * ih / h, y2 = min ((y + 1) * ih / h, ih - 1);
  float ax = (float) (x1 + 1) - sx, bx = sx + dx - (float) (x1 + 1);
  float ay = (float) (y1 + 1) - sy, by = sy + dy - (float) (y1 + 1);
  float by_dx = sy + dx - (float) (y1 + 1);

  return (ax * ay * S[(long) y1 * iw + x1] + ax * by * S[(long) y2 * iw + x1]
          + bx * ay * S[(long) y1 * iw + x2]
          + bx * by_dx * S[(long) y2 * iw + x2])
         * f;
}

/* S = the coarser level's sum upsampled (coarse: 0 at the coarsest) plus
 * the divergence of (Bx, By), backward differences mirroring the forward
 * ones. */
__kernel void
m06_div (__global const float *Bx, __global const float *By, int w, int h,
         __global const float *Sc, int coarse, __global float *S)
{
  int  gx = get_global_id (0), gy = get_global_id (1);
  long i = (long) gy * w + gx;
  float d;

  if (gx >= w || gy >= h)
    return;
  d = (gx == 0 ? Bx[i] : Bx[i] - Bx[i - 1])
      + (gy == 0 ? By[i] : By[i] - By[i - w]);
  S[i] = (coarse ? m06_up (Sc, w, h, gx, gy) : 0.0f) + d;
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

__kernel void
m06_apply (__global const float *v, __global const float *Cx,
           __global const float *Cy, int w, int h, __global const float *Sc,
           int coarse, __global float *S, __global const float *st, int k)
{
  int  gx = get_global_id (0), gy = get_global_id (1);
  long i = (long) gy * w + gx;
  float ex, ey, d;

  if (gx >= w || gy >= h || ! m06_on (st, k))
    return;
  ex = m06_cgrad_x (v, Cx, w, i, gx);
  ey = m06_cgrad_y (v, Cy, w, h, i, gy);
  d = (gx == 0 ? ex : ex - m06_cgrad_x (v, Cx, w, i - 1, gx - 1))
      + (gy == 0 ? ey : ey - m06_cgrad_y (v, Cy, w, h, i - w, gy - 1));
  S[i] = (coarse ? m06_up (Sc, w, h, gx, gy) : 0.0f) + d;
}

/* ---- the solve's vectors and reductions (TM_SEL_GROUP a group, group g
 * over its chunk; partials reduced by m06_final) ----------------------- */

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

__kernel void
m06_copy (__global const float *from, __global float *to, long n)
{
  long i = get_global_id (0);

  if (i < n)
    to[i] = from[i];
}

/* The end: the best x seen where the last one is worse. */
__kernel void
m06_pick (__global float *x, __global const float *saved, long n,
          __global const float *st)
{
  long i = get_global_id (0);

  if (i < n && st[M06_RR] > st[M06_SAVED_RR])
    x[i] = saved[i];
}

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

/* t = (x - l_min) / (l_max - l_min) (1 where the result is flat), L =
 * 10^(2.3 t - 2.3), colour (max (c, clip) / max (Y, clip))^saturation L;
 * black where the image is; pass: as read (an image narrower or lower
 * than 3 pixels, which GEGL passes through). */
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
          float  flat = (float) M06_FLAT
                        * (1.0f + fmax (fabs (st[M06_LMIN]),
                                        fabs (st[M06_LMAX])));
          float  t = range > flat
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
