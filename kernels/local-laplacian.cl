/* SPDX-License-Identifier: GPL-3.0-or-later */
/* local-laplacian.cl: the tonemap family's local-laplacian
 * (engine/ops/local-laplacian.c; docs/TONEMAP.md's local-laplacian), after
 * the statistics (tonemap-stats.h) and its constants (ll_params):
 *
 *   ll_log                 L = log10 max (Y, floor) of every pixel
 *   ll_down                L's Gaussian pyramid
 *   ll_down_remap          level 1 of a chunk of the K remapped images'
 *                          pyramids
 *   ll_down_k              their coarser levels
 *   ll_accum               each level's coefficient: the Laplacian
 *                          coefficients of the two remapped images around
 *                          L's Gaussian value, weighed and added, those of
 *                          the chunk's samples
 *   ll_collapse            from the coarsest level, the coefficients plus
 *                          the coarser result upsampled
 *   ll_map                 level 0 the same, and every pixel stored
 *
 * Levels are one float per pixel, row-major; a level of a chunk of the
 * remapped images holds them one after another (sample k0 + i at i w h).
 * The coefficients add the two weighted terms in the samples' order,
 * whatever the chunks: the result does not depend on them.  Level l + 1
 * is ceil (w / 2) x ceil (h / 2) of level l; reads clamp to the level's
 * edge.  p is the family's parameter buffer (local-laplacian-shapes.h). */
#include "tonemap-common.h"
/* In tiles the scan runs on its own (tm_plan_fields). */
#define TM_SCAN_ALONE 1
#include "tonemap-stats.h"
#include "local-laplacian-shapes.h"

/* One work-item: the constants from the statistics (n pixels) for K
 * samples. */
__kernel void
ll_params (__global const float8 *stats, float n, int K,
           __global float *p)
{
  float  Lavg, mean;
  float8 st = tm_params_begin (stats, n, p, &Lavg, &mean);
  float  floor_y = fmax (st.s6 * 1e-6f, FLT_MIN);
  float  lo = log10 (fmax (st.s5, floor_y)), hi = log10 (fmax (st.s6, floor_y));
  float  step = K > 1 ? (hi - lo) / (float) (K - 1) : 0.0f;

  p[LL_P_LMIN] = lo;
  p[LL_P_FLOOR] = floor_y;
  p[LL_P_LMAX] = hi;
  p[LL_P_STEP] = step;
  p[LL_P_ISTEP] = step > 0.0f ? 1.0f / step : 0.0f;
}

#if ! CLFX_SRC_BUFFER
__kernel void
ll_log (CLFX_SRC_ARGS (src), int4 rect, int w,
        __global const uint4 *scan,
        float scale, __global const float *p, __global float *L)
{
  int x = rect.x + (int) get_global_id (0);
  int y = rect.y + (int) get_global_id (1);

  if (x >= rect.z || y >= rect.w)
    return;
  L[(long) y * w + x]
    = log10 (fmax (tm_luminance (tm_read (CLFX_SRC (src), x, y,
                                          tm_largest (scan), scale)),
                   p[LL_P_FLOOR]));
}
#else
/* ll_log in the CPU devices' form: eight pixels of a row a work-item. */
__kernel void
ll_log_v (CLFX_SRC_ARGS (src), int4 rect, int w,
          __global const uint4 *scan,
          float scale, __global const float *p, __global float *L)
{
  long   at;
  float8 Y;
  int    n = tm_field8 (CLFX_SRC (src), rect, w, scan, scale, &at, &Y);

  if (n)
    tm_put8 (L, at, n, log10 (fmax (Y, p[LL_P_FLOOR])));
}
#endif

/* [1 4 6 4 1] / 16 (exact in float). */
__constant float ll_a[5] = { 0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f };

/* The remap of value i for sample g: differences up to sigma kept (edge
 * e), beyond it beta times the excess, plus (alpha - 1) d exp (-d^2 / 2
 * sigma^2), the detail's gain near 0. */
typedef struct
{
  float sigma, beta, am1, k2; /* k2 = 1 / (2 sigma^2) */
} LlRemap;

inline CLFX_ALWAYS_INLINE float
ll_remap (float i, float g, LlRemap r)
{
  float d = i - g, a = fabs (d);
  float e = a <= r.sigma ? d : copysign (r.sigma + r.beta * (a - r.sigma), d);

  return g + e + r.am1 * d * exp (-d * d * r.k2);
}

/* The 5 x 5 taps' coordinates of output (x, y), clamped to w x h. */
inline CLFX_ALWAYS_INLINE void
ll_taps (int x, int y, int w, int h, int tx[5], long ty[5])
{
  for (int i = 0; i < 5; i++)
    {
      tx[i] = clamp (2 * x + i - 2, 0, w - 1);
      ty[i] = (long) clamp (2 * y + i - 2, 0, h - 1) * w;
    }
}

/* out (ow x oh) = down (in), in iw x ih. */
__kernel void
ll_down (__global const float *in, int iw, int ih, __global float *out,
         int ow, int oh)
{
  int  x = get_global_id (0), y = get_global_id (1), tx[5];
  long ty[5];
  float s = 0.0f;

  if (x >= ow || y >= oh)
    return;
  ll_taps (x, y, iw, ih, tx, ty);
  for (int j = 0; j < 5; j++)
    {
      float row = 0.0f;
      for (int i = 0; i < 5; i++)
        row += ll_a[i] * in[ty[j] + tx[i]];
      s += ll_a[j] * row;
    }
  out[(long) y * ow + x] = s;
}

/* Level 1 of the remapped images k0 .. k0 + C - 1: down (r_k (L)), the
 * samples g_k = Lmin + k step.  A work-group makes LL_TILE x LL_TILE
 * outputs from the LL_SPAN x LL_SPAN values of L they read: each value
 * remapped once a sample (not once for each of the 25 outputs' taps that
 * read it), the rows' five-tap sums, then the columns', in the order
 * ll_down adds. */
__kernel __attribute__ ((reqd_work_group_size (LL_TILE, LL_TILE, 1))) void
ll_down_remap (__global const float *L, int iw, int ih, __global float *out,
               int ow, int oh, __global const float *p, int k0, int C,
               float sigma, float beta, float am1, __local float *lv,
               __local float *rt, __local float *rows)
{
  int     lx = get_local_id (0), ly = get_local_id (1);
  int     x0 = (int) get_group_id (0) * LL_TILE;
  int     y0 = (int) get_group_id (1) * LL_TILE;
  int     x = x0 + lx, y = y0 + ly, me = ly * LL_TILE + lx;
  long    plane = (long) ow * oh;
  float   lo = p[LL_P_LMIN], step = p[LL_P_STEP];
  LlRemap r = { sigma, beta, am1, 0.5f / (sigma * sigma) };

  for (int i = me; i < LL_SPAN * LL_SPAN; i += LL_TILE * LL_TILE)
    {
      int tx = clamp (2 * x0 - 2 + i % LL_SPAN, 0, iw - 1);
      int ty = clamp (2 * y0 - 2 + i / LL_SPAN, 0, ih - 1);
      lv[i] = L[(long) ty * iw + tx];
    }
  barrier (CLK_LOCAL_MEM_FENCE);
  for (int k = 0; k < C; k++)
    {
      float g = lo + (float) (k0 + k) * step, s = 0.0f;

      for (int i = me; i < LL_SPAN * LL_SPAN; i += LL_TILE * LL_TILE)
        rt[i] = ll_remap (lv[i], g, r);
      barrier (CLK_LOCAL_MEM_FENCE);
      for (int ty = ly; ty < LL_SPAN; ty += LL_TILE)
        {
          float row = 0.0f;
          for (int i = 0; i < 5; i++)
            row += ll_a[i] * rt[ty * LL_SPAN + 2 * lx + i];
          rows[ty * LL_TILE + lx] = row;
        }
      barrier (CLK_LOCAL_MEM_FENCE);
      for (int j = 0; j < 5; j++)
        s += ll_a[j] * rows[(2 * ly + j) * LL_TILE + lx];
      if (x < ow && y < oh)
        out[k * plane + (long) y * ow + x] = s;
      /* rt and rows are the next sample's. */
      barrier (CLK_LOCAL_MEM_FENCE);
    }
}

/* down of each of the C images: work-item (x, k oh + y). */
__kernel void
ll_down_k (__global const float *in, int iw, int ih, __global float *out,
           int ow, int oh, int C)
{
  int  x = get_global_id (0), gy = get_global_id (1), tx[5];
  int  k = gy / oh, y = gy - k * oh;
  long ty[5];
  __global const float *src = in + (long) k * iw * ih;
  float s = 0.0f;

  if (x >= ow || k >= C)
    return;
  ll_taps (x, y, iw, ih, tx, ty);
  for (int j = 0; j < 5; j++)
    {
      float row = 0.0f;
      for (int i = 0; i < 5; i++)
        row += ll_a[i] * src[ty[j] + tx[i]];
      s += ll_a[j] * row;
    }
  out[(long) k * ow * oh + (long) y * ow + x] = s;
}

/* up (G) at (x, y) of the finer level, G w x h: per axis, at 2m (G (m -
 * 1) + 6 G (m) + G (m + 1)) / 8, at 2m + 1 (G (m) + G (m + 1)) / 2,
 * G's coordinates clamped. */
inline CLFX_ALWAYS_INLINE float
ll_up (__global const float *G, int w, int h, int x, int y)
{
  int   mx = x >> 1, my = y >> 1;
  float wx[3], wy[3], s = 0.0f;

  wx[0] = x & 1 ? 0.0f : 0.125f;
  wx[1] = x & 1 ? 0.5f : 0.75f;
  wx[2] = x & 1 ? 0.5f : 0.125f;
  wy[0] = y & 1 ? 0.0f : 0.125f;
  wy[1] = y & 1 ? 0.5f : 0.75f;
  wy[2] = y & 1 ? 0.5f : 0.125f;
  for (int j = 0; j < 3; j++)
    {
      long  row = (long) clamp (my + j - 1, 0, h - 1) * w;
      float r = 0.0f;
      for (int i = 0; i < 3; i++)
        r += wx[i] * G[row + clamp (mx + i - 1, 0, w - 1)];
      s += wy[j] * r;
    }
  return s;
}

/* The two samples around g (clamped to the range) and the weight of the
 * upper one. */
inline CLFX_ALWAYS_INLINE int
ll_bracket (float g, __global const float *p, int K, float *f)
{
  float t = (clamp (g, p[LL_P_LMIN], p[LL_P_LMAX]) - p[LL_P_LMIN])
            * p[LL_P_ISTEP];
  int   j = min ((int) t, K - 2);

  *f = clamp (t - (float) j, 0.0f, 1.0f);
  return j;
}

/* The weight of sample k for a coefficient whose bracket is j, f; 0
 * where k is not j or j + 1. */
inline CLFX_ALWAYS_INLINE float
ll_weight (int k, int j, float f)
{
  return k == j ? 1.0f - f : k == j + 1 ? f : 0.0f;
}

/* Level l (w x h) of the coefficients, O: the chunk's terms added (first:
 * the first chunk, O starts at 0), the Laplacian coefficient of sample k
 * the chunk's level Gk less its coarser level Gk1 (w1 x h1) upsampled;
 * at level 0 (level0) Gk is not made: L (GL) remapped here, as
 * ll_down_remap remaps it. */
__kernel void
ll_accum (__global const float *GL, __global const float *Gk,
          __global const float *Gk1, __global float *O, int w, int h,
          int w1, int h1, __global const float *p, int K, int k0, int C,
          int first, int level0, float sigma, float beta, float am1)
{
  int     x = get_global_id (0), y = get_global_id (1), j;
  long    at = (long) y * w + x, plane = (long) w * h, plane1 = (long) w1 * h1;
  float   f, sum, g, lo = p[LL_P_LMIN], step = p[LL_P_STEP];
  LlRemap r = { sigma, beta, am1, 0.5f / (sigma * sigma) };

  if (x >= w || y >= h)
    return;
  g = GL[at];
  j = ll_bracket (g, p, K, &f);
  sum = first ? 0.0f : O[at];
  for (int k = max (j, k0); k <= min (j + 1, k0 + C - 1); k++)
    sum += ll_weight (k, j, f)
           * ((level0 ? ll_remap (g, lo + (float) k * step, r)
                      : Gk[(k - k0) * plane + at])
              - ll_up (Gk1 + (k - k0) * plane1, w1, h1, x, y));
  O[at] = sum;
}

/* Level l of the result over its coefficients: O += the coarser result
 * R1 (w1 x h1) upsampled. */
__kernel void
ll_collapse (__global float *O, __global const float *R1, int w, int h,
             int w1, int h1)
{
  int  x = get_global_id (0), y = get_global_id (1);
  long at = (long) y * w + x;

  if (x >= w || y >= h)
    return;
  O[at] += ll_up (R1, w1, h1, x, y);
}

/* The store: L' = level 0's coefficients O0 plus the result of level 1
 * R1 (w1 x h1) upsampled; colour times 10^(L' - L) (at most 6 decades
 * plus the detail's gain: finite); black where the image is; pass: as
 * read (a 1 x 1 image, which has no pyramid). */
__kernel void
ll_map (CLFX_SRC_ARGS (src), CLFX_DST_ARGS, __global const uint4 *scan,
        float scale, __global const float *L, __global const float *O0,
        int w, __global const float *R1, int w1, int h1,
        __global const float *p, int pass, __global uint *hist,
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
          long at = (long) py * w + px;
          v.xyz *= exp10 (O0[at] + ll_up (R1, w1, h1, px, py) - L[at]);
        }
      tm_store (dst, dst_offset, dst_pitch, dst_rect, px, py, v, lh);
    }
  tm_hist_flush (lh, TM_HA_N, hist);
}
