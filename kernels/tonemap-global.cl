/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tonemap-global.cl: the global operators of the tonemap family
 * (engine/ops/tonemap-global.c, docs/TONEMAP.md): reinhard02, reinhard05,
 * drago03 and aces, as one pipeline on the device after the statistics
 * (tonemap-stats.h):
 *
 *   tm_params                    the operator's constants from those
 *   tm_range -> tm_range_final   reinhard05: the range of its mapped colour
 *   tm_map                       every pixel, stored
 *
 * On CPU devices (sources in buffers) tm_range_v (tm_range_keep_v) and
 * tm_map_v (tm_map_kept_v) instead, eight pixels of a row a work-item
 * (tonemap-common.h); each form is built only where it is launched. */
/* aces on float or half data scans without statistics, and tiles scan
 * tile by tile: tm_scan_v. */
#define TM_SCAN_ALONE 1
#include "tonemap-common.h"
#include "tonemap-stats.h"
#include "tonemap-range.h"

/* ---- the operators' constants -------------------------------------------- */

/* One work-item: p[] from the statistics (n pixels), as tonemap-global.c's
 * reference computes them in double (tm_params_begin: the log-average, the
 * mean, TM_P_BLACK):
 *   reinhard02  p0 a = key / Lavg, p1 1 / white^2 where white^2 is a
 *               normal float (else 0), p2 white, p3 1 / white where
 *               white^2 is below that range (else 0)
 *   reinhard05  p0 f = exp (-brightness), p1 m, p2 k, p3-p5 Ig per
 *               channel, p6 chromatic, p7 light
 *   drago03     p0 1 / Lavg, p1 1 / max Y, p2 1 / log10 (Lmax' + 1),
 *               p3 ln (bias) / ln (0.5)
 * (aces has none); op is the operator's TM_REINHARD02 ... */
__kernel void
tm_params (__global const float8 *stats, int op, float n, float a1, float a2,
           float a3, __global float *p)
{
  float  Lavg, mean;
  float8 st = tm_params_begin (stats, n, p, &Lavg, &mean);

  if (op == TM_REINHARD02)
    {
      /* white^2 is below FLT_MIN where the image's largest Y is (below
       * about 1e-21): the map then divides L by white twice, where 1 /
       * white^2 would overflow; where white^2 overflows, L / white^2 is
       * below 1 / white, nothing beside 1. */
      float a = a1 / Lavg;
      float white = a2 > 0.0f ? a2 : a * st.s6, ww = white * white;
      p[0] = a;
      p[1] = ww >= FLT_MIN && ww <= FLT_MAX ? 1.0f / ww : 0.0f;
      p[2] = white;
      p[3] = white > 0.0f && ww < FLT_MIN ? 1.0f / white : 0.0f;
    }
  else if (op == TM_REINHARD05)
    {
      /* a1 brightness, a2 chromatic, a3 light; the log-average's eps is
       * 2.3e-5 here (GEGL's). */
      float lmax = log (st.s6), llog = st.s1 / n;
      float den = lmax - log (2.3e-5f + st.s5);
      float k = den != 0.0f ? (lmax - llog) / den : 0.0f;
      k = k > 0.0f ? k : 0.0f; /* a flat image: k = 1 - tiny, never < 0 */
      p[0] = exp (-a1);
      p[1] = 0.3f + 0.7f * pow (k, 1.4f);
      p[2] = k;
      p[3] = a2 * (st.s2 / n) + (1.0f - a2) * mean;
      p[4] = a2 * (st.s3 / n) + (1.0f - a2) * mean;
      p[5] = a2 * (st.s4 / n) + (1.0f - a2) * mean;
      p[6] = a2;
      p[7] = a3;
    }
  else if (op == TM_DRAGO03)
    {
      /* log10 (Lmax' + 1) as pfstmo, but through log1p where Lmax' < 0.5
       * (max Y below the log-average's offset, 1e-4): there 1 + Lmax'
       * loses Lmax''s digits, all of them for max Y below about 1e-11
       * (then 1 / 0). */
      float lmax = st.s6 / Lavg;
      p[0] = 1.0f / Lavg;
      p[1] = st.s6 > 0.0f ? 1.0f / st.s6 : 0.0f;
      p[2] = lmax >= 0.5f ? 1.0f / log10 (lmax + 1.0f)
                          : M_LN10_F / log1p (lmax);
      p[3] = log (a1) / log (0.5f);
    }
}

/* ---- the maps ------------------------------------------------------------ */

/* The maps' arithmetic, channel by channel, for one pixel (T float, S _1:
 * the GPU form, a work-item a pixel) or eight (T float8, S _8: the CPU
 * form, whose arithmetic PoCL then runs eight pixels wide, exp2 and log2
 * included): the same operations in the same order either way.
 *
 * tm_r05: reinhard05's photoreceptor, per channel, for a pixel of
 * luminance Y > 0 (GEGL's: C / (C + (f Ia)^m), 0 where the denominator is
 * 0; f Ia >= 0).  The power as exp2 (m log2 (f Ia)), as in fat_phi:
 * PoCL's powr is a scalar library call, its exp2 and log2 are not (powr
 * took most of the range pass and the map); f Ia = 0 gives exp2 (-inf) =
 * 0, as powr does (m >= 0.3).  The
 * tolerance carries the larger error for large |log| (map_bound).  With
 * no chromatic adaptation (the default) Ia is the same for the three
 * channels: one power per pixel instead of three.
 *
 * tm_aces: Hill's fit of the ACES RRT + sRGB ODT (the curve most
 * renderers call "ACES fitted"): linear sRGB into the fit's space, the
 * rational curve, back, clamped to [0, 1].  The input is capped at 1e18
 * (the curve is flat there: its square must not overflow).
 *
 * tm_mapc: an operator's map of the colour (r, g, b) of luminance Y. */
#define TM_DEFINE_MAPS(T, S)                                                 \
  inline CLFX_ALWAYS_INLINE void                                             \
  tm_r05##S (T *r, T *g, T *b, T Y, __global const float *p)                 \
  {                                                                          \
    T c0 = *r, c1 = *g, c2 = *b, d0, d1, d2;                                 \
    if (p[6] == 0.0f)                                                        \
      {                                                                      \
        T ia = p[7] * Y + (1.0f - p[7]) * p[3];                              \
        T pw = exp2 (p[1] * log2 (p[0] * ia));                               \
        d0 = c0 + pw;                                                        \
        d1 = c1 + pw;                                                        \
        d2 = c2 + pw;                                                        \
      }                                                                      \
    else                                                                     \
      {                                                                      \
        T ia0 = p[7] * (p[6] * c0 + (1.0f - p[6]) * Y)                       \
                + (1.0f - p[7]) * p[3];                                      \
        T ia1 = p[7] * (p[6] * c1 + (1.0f - p[6]) * Y)                       \
                + (1.0f - p[7]) * p[4];                                      \
        T ia2 = p[7] * (p[6] * c2 + (1.0f - p[6]) * Y)                       \
                + (1.0f - p[7]) * p[5];                                      \
        d0 = c0 + exp2 (p[1] * log2 (p[0] * ia0));                           \
        d1 = c1 + exp2 (p[1] * log2 (p[0] * ia1));                           \
        d2 = c2 + exp2 (p[1] * log2 (p[0] * ia2));                           \
      }                                                                      \
    *r = d0 > 0.0f ? c0 / d0 : (T) (0.0f);                                   \
    *g = d1 > 0.0f ? c1 / d1 : (T) (0.0f);                                   \
    *b = d2 > 0.0f ? c2 / d2 : (T) (0.0f);                                   \
  }                                                                          \
                                                                             \
  /* The photoreceptor where Y > 0, else 0: what the range spans. */         \
  inline CLFX_ALWAYS_INLINE void                                             \
  tm_r05y##S (T *r, T *g, T *b, T Y, __global const float *p)                \
  {                                                                          \
    tm_r05##S (r, g, b, Y, p);                                               \
    *r = Y > 0.0f ? *r : (T) (0.0f);                                         \
    *g = Y > 0.0f ? *g : (T) (0.0f);                                         \
    *b = Y > 0.0f ? *b : (T) (0.0f);                                         \
  }                                                                          \
                                                                             \
  /* GEGL's normalisation by the range (tm_range_final). */                \
  inline CLFX_ALWAYS_INLINE void                                             \
  tm_r05n##S (T *r, T *g, T *b, __global const float *p)                     \
  {                                                                          \
    if (p[TM_P_RANGE_SCALE] > 0.0f)                                          \
      {                                                                      \
        *r = (*r - p[TM_P_RANGE_LO]) * p[TM_P_RANGE_SCALE];                  \
        *g = (*g - p[TM_P_RANGE_LO]) * p[TM_P_RANGE_SCALE];                  \
        *b = (*b - p[TM_P_RANGE_LO]) * p[TM_P_RANGE_SCALE];                  \
      }                                                                      \
  }                                                                          \
                                                                             \
  inline CLFX_ALWAYS_INLINE void                                             \
  tm_aces##S (T *r, T *g, T *b)                                              \
  {                                                                          \
    T x = 0.59719f * *r + 0.35458f * *g + 0.04823f * *b;                     \
    T y = 0.07600f * *r + 0.90834f * *g + 0.01566f * *b;                     \
    T z = 0.02840f * *r + 0.13383f * *g + 0.83777f * *b;                     \
    x = fmin (x, (T) (1e18f));                                               \
    y = fmin (y, (T) (1e18f));                                               \
    z = fmin (z, (T) (1e18f));                                               \
    x = (x * (x + 0.0245786f) - 0.000090537f)                                \
        / (x * (0.983729f * x + 0.4329510f) + 0.238081f);                    \
    y = (y * (y + 0.0245786f) - 0.000090537f)                                \
        / (y * (0.983729f * y + 0.4329510f) + 0.238081f);                    \
    z = (z * (z + 0.0245786f) - 0.000090537f)                                \
        / (z * (0.983729f * z + 0.4329510f) + 0.238081f);                    \
    *r = clamp (1.60475f * x - 0.53108f * y - 0.07367f * z, 0.0f, 1.0f);     \
    *g = clamp (-0.10208f * x + 1.10813f * y - 0.00605f * z, 0.0f, 1.0f);    \
    *b = clamp (-0.00327f * x - 0.07276f * y + 1.07602f * z, 0.0f, 1.0f);    \
  }                                                                          \
                                                                             \
  inline CLFX_ALWAYS_INLINE void                                             \
  tm_mapc##S (T *r, T *g, T *b, T Y, int op, __global const float *p)        \
  {                                                                          \
    if (op == TM_ACES)                                                       \
      tm_aces##S (r, g, b);                                                  \
    else if (p[TM_P_BLACK] != 0.0f)                                          \
      *r = *g = *b = (T) (0.0f);                                             \
    else if (op == TM_REINHARD02)                                            \
      {                                                                      \
        /* Ld = L (1 + L / white^2) / (1 + L), L = a Y; colour times Ld /  \
         * Y, which is a (1 + L / white^2) / (1 + L): no division by Y. */   \
        T L = p[0] * Y;                                                      \
        T t = p[3] > 0.0f ? L * p[3] * p[3] : L * p[1];                      \
        T f = p[0] * (1.0f + t) / (1.0f + L);                                \
        *r *= f;                                                             \
        *g *= f;                                                             \
        *b *= f;                                                             \
      }                                                                      \
    else if (op == TM_REINHARD05)                                            \
      {                                                                      \
        tm_r05y##S (r, g, b, Y, p);                                          \
        tm_r05n##S (r, g, b, p);                                             \
      }                                                                      \
    else                                                                     \
      {                                                                      \
        /* drago03: Ld = ln (Yw + 1) / ln (2 + 8 (Y / max Y)^b) / log10    \
         * (Lmax' + 1), Yw = Y / Lavg; colour times Ld / Y (0 at Y = 0).    \
         * The power as exp2 (b log2 t), as reinhard05's. */                 \
        T ld = log1p (Y * p[0])                                              \
               / log (2.0f + 8.0f * exp2 (p[3] * log2 (Y * p[1]))) * p[2];   \
        T f = Y > 0.0f ? ld / Y : (T) (0.0f);                                \
        *r *= f;                                                             \
        *g *= f;                                                             \
        *b *= f;                                                             \
      }                                                                      \
  }

TM_DEFINE_MAPS (float, _1)
TM_DEFINE_MAPS (float8, _8)

/* ---- the GPU form: a pixel a work-item ----------------------------------- */
#if ! CLFX_SRC_BUFFER

/* reinhard05's range: min and max of the mapped colour over pixels with
 * Y > 0 (GEGL's normalisation), per block, then over the blocks. */
__kernel void
tm_range (CLFX_SRC_ARGS (src), int4 rect, int nbx,
          __global const uint4 *scan, float scale, __global const float *p,
          __global float2 *partials, __local float2 *s)
{
  int    lx = get_local_id (0), bx = get_group_id (0), by = get_group_id (1);
  int    x = rect.x + bx * TM_BW + lx, y0 = rect.y + by * TM_BH;
  float  m = tm_largest (scan);
  float2 r = (float2) (INFINITY, -INFINITY);

  if (x < rect.z)
    for (int j = 0; j < TM_BH && y0 + j < rect.w; j++)
      {
        float4 v = tm_read (CLFX_SRC (src), x, y0 + j, m, scale);
        float  Y = tm_luminance (v);
        if (Y > 0.0f)
          {
            float c0 = v.x, c1 = v.y, c2 = v.z;
            tm_r05_1 (&c0, &c1, &c2, Y, p);
            r.x = fmin (r.x, fmin (c0, fmin (c1, c2)));
            r.y = fmax (r.y, fmax (c0, fmax (c1, c2)));
          }
      }
  s[lx] = r;
  tm_tree_range (s, lx, TM_BW);
  if (lx == 0)
    partials[TM_BLOCK_INDEX (rect, nbx)] = s[0];
}

inline CLFX_ALWAYS_INLINE float4
tm_map1 (float4 v, int op, __global const float *p)
{
  float r = v.x, g = v.y, b = v.z;

  tm_mapc_1 (&r, &g, &b, tm_luminance (v), op, p);
  return (float4) (r, g, b, v.w);
}

__kernel void
tm_map (CLFX_SRC_ARGS (src), CLFX_DST_ARGS, __global const uint4 *scan,
        float scale, int op, __global const float *p, __global uint *hist,
        __local uint *lh)
{
  int gx = get_global_id (0), gy = get_global_id (1);

  tm_hist_zero (lh, TM_HA_N);
  if (gx < dst_rect.z && gy < dst_rect.w)
    {
      int   x = CLFX_DST_X (gx), y = CLFX_DST_Y (gy);
      float m = tm_largest (scan);

      tm_store (dst, dst_offset, dst_pitch, dst_rect, x, y,
                tm_map1 (tm_read (CLFX_SRC (src), x, y, m, scale), op, p),
                lh);
    }
  tm_hist_flush (lh, TM_HA_N, hist);
}

#endif /* ! CLFX_SRC_BUFFER */

/* ---- the CPU devices' form: eight pixels of a row a work-item ------------ */
#if CLFX_SRC_BUFFER

/* reinhard05 keeps its range pass's colour in the result when both source
 * and result are linear float RGBA (and the image is one piece: the host
 * decides): the map then only normalises it, instead of computing the
 * photoreceptor again (a pass's worth of exp2 and log2 on PoCL). */
#define TM_KEEP (TM_FLOAT_RGBA_BUFFER && TM_DST_FLOAT_RGBA)

#if TM_KEEP
/* What tm_store8 stored at (x, y), n (1..8) pixels padded with copies of
 * the last. */
inline CLFX_ALWAYS_INLINE void
tm_kept8 (CLFX_DST_ARGS, int x, int y, int n, float8 *r, float8 *g,
          float8 *b, float8 *a)
{
  __global const float *o = tm_dst_row (dst, dst_offset, dst_pitch,
                                        dst_rect, x, y);
  float8 c[4];

  if (n == 8)
    tm_split8 (vload16 (0, o), vload16 (1, o), c);
  else
    {
      float t[32];
      for (int k = 0; k < 8; k++)
        vstore4 (vload4 (min (k, n - 1), o), k, t);
      tm_split8 (vload16 (0, t), vload16 (1, t), c);
    }
  *r = c[0];
  *g = c[1];
  *b = c[2];
  *a = c[3];
}
#endif

/* tm_range's blocks with TM_BW / 8 work-items, each eight columns; with
 * keep, the photoreceptor's colour (and the alpha) stored at each pixel,
 * for tm_map_kept_v. */
inline CLFX_ALWAYS_INLINE void
tm_range8 (CLFX_SRC_ARGS (src), int4 rect, int nbx,
           __global const uint4 *scan, float scale, __global const float *p,
           __global float2 *partials, __local float2 *s, CLFX_DST_ARGS,
           bool keep)
{
  int    lx = get_local_id (0), bx = get_group_id (0), by = get_group_id (1);
  int    x = rect.x + bx * TM_BW + 8 * lx, y0 = rect.y + by * TM_BH;
  int    n = min (8, rect.z - x);
  float  m = tm_largest (scan);
  float8 lo = (float8) (INFINITY), hi = (float8) (-INFINITY);
  int8   lane = (int8) (0, 1, 2, 3, 4, 5, 6, 7);

  if (n > 0)
    for (int j = 0; j < TM_BH && y0 + j < rect.w; j++)
      {
        float8 r, g, b, a;
        tm_read8 (CLFX_SRC (src), x, y0 + j, n, m, scale, &r, &g, &b, &a);
        float8 Y = tm_luminance8 (r, g, b);
        tm_r05y_8 (&r, &g, &b, Y, p);
        int8 in = Y > 0.0f && lane < n;
        lo = in ? fmin (lo, fmin (r, fmin (g, b))) : lo;
        hi = in ? fmax (hi, fmax (r, fmax (g, b))) : hi;
        if (keep)
          tm_store8 (dst, dst_offset, dst_pitch, dst_rect, x, y0 + j, n, r,
                     g, b, a);
      }
  float4 l4 = fmin (lo.lo, lo.hi), h4 = fmax (hi.lo, hi.hi);
  s[lx] = (float2) (fmin (fmin (l4.x, l4.y), fmin (l4.z, l4.w)),
                    fmax (fmax (h4.x, h4.y), fmax (h4.z, h4.w)));
  tm_tree_range (s, lx, TM_BW / 8);
  if (lx == 0)
    partials[TM_BLOCK_INDEX (rect, nbx)] = s[0];
}

__kernel void
tm_range_v (CLFX_SRC_ARGS (src), int4 rect, int nbx,
            __global const uint4 *scan, float scale, __global const float *p,
            __global float2 *partials, __local float2 *s)
{
  tm_range8 (CLFX_SRC (src), rect, nbx, scan, scale, p, partials, s, 0, 0, 0,
             (int4) (0), false);
}

#if TM_KEEP
__kernel void
tm_range_keep_v (CLFX_SRC_ARGS (src), int4 rect, int nbx,
                 __global const uint4 *scan, float scale,
                 __global const float *p, __global float2 *partials,
                 __local float2 *s, CLFX_DST_ARGS)
{
  tm_range8 (CLFX_SRC (src), rect, nbx, scan, scale, p, partials, s, dst,
             dst_offset, dst_pitch, dst_rect, true);
}
#endif

/* tm_map in the CPU devices' form (tm_map8_begin); kept: the colour is
 * reinhard05's that tm_range_keep_v left in the result, only normalised
 * here (the same operations as tm_mapc_8's on the same values: the same
 * bytes). */
inline CLFX_ALWAYS_INLINE void
tm_map8 (CLFX_SRC_ARGS (src), CLFX_DST_ARGS, __global const uint4 *scan,
         float scale, int op, __global const float *p, __global uint *hist,
         __local uint *lh, bool kept)
{
  uint ph[4 * TM_HA_N];
  int  gx, gy0, gy1;

  gy1 = tm_map8_begin (dst_rect, &gx, &gy0, ph, lh);
  for (int gy = gy0; gy < gy1; gy++)
    {
      int    x = CLFX_DST_X (gx), y = CLFX_DST_Y (gy);
      int    n = min (8, dst_rect.z - gx);
      float8 r, g, b, a;

      if (! kept)
        {
          tm_read8 (CLFX_SRC (src), x, y, n, tm_largest (scan), scale,
                    &r, &g, &b, &a);
          tm_mapc_8 (&r, &g, &b, tm_luminance8 (r, g, b), op, p);
        }
#if TM_KEEP
      else
        {
          tm_kept8 (dst, dst_offset, dst_pitch, dst_rect, x, y, n, &r, &g,
                    &b, &a);
          if (p[TM_P_BLACK] != 0.0f)
            r = g = b = (float8) (0.0f);
          else
            tm_r05n_8 (&r, &g, &b, p);
        }
#endif
      tm_map8_put (ph, dst, dst_offset, dst_pitch, dst_rect, x, y, n, r, g,
                   b, a);
    }
  tm_map8_end (ph, lh, hist);
}

__kernel void
tm_map_v (CLFX_SRC_ARGS (src), CLFX_DST_ARGS, __global const uint4 *scan,
          float scale, int op, __global const float *p, __global uint *hist,
          __local uint *lh)
{
  tm_map8 (CLFX_SRC (src), dst, dst_offset, dst_pitch, dst_rect, scan, scale,
           op, p, hist, lh, false);
}

#if TM_KEEP
__kernel void
tm_map_kept_v (CLFX_SRC_ARGS (src), CLFX_DST_ARGS, __global const uint4 *scan,
               float scale, int op, __global const float *p,
               __global uint *hist, __local uint *lh)
{
  tm_map8 (CLFX_SRC (src), dst, dst_offset, dst_pitch, dst_rect, scan, scale,
           op, p, hist, lh, true);
}
#endif

#endif /* CLFX_SRC_BUFFER */
