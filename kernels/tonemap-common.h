/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tonemap-common.h: what every tone mapper's kernels share (included by
 * tonemap-global.cl, durand02.cl, fattal02.cl; docs/TONEMAP.md).
 *
 * Colour is cleaned before anything reads it: NaN, negative and tiny
 * values are 0, +Inf is the largest finite colour value of the image;
 * alpha is kept (NaN 0, clamped to [0, 1]).  Then the exposure scale,
 * capped, and values it leaves tiny 0 (tonemap-shapes.h's TM_TINY,
 * TM_CAP), then babl's luminance Y of linear sRGB.  Here: that read
 * (tm_read, and tm_read8 for eight pixels of a row: the CPU devices'
 * form), compensated sums, the log-luminance histograms, and the stores
 * that count the result into the after histogram (tm_store, tm_store8,
 * tm_map8_*). */
#ifndef TONEMAP_COMMON_H
#define TONEMAP_COMMON_H

#include "clfx-io.h"
#include "tonemap-shapes.h"

/* babl's Y row for sRGB primaries (D50-adapted): what GEGL's "Y float"
 * gives. */
#define TM_YR 0.2224879400f
#define TM_YG 0.7169038389f
#define TM_YB 0.0606082572f

/* These helpers are always inlined where the compiler is clang's (PoCL,
 * clfx-io.h): it kept some of them calls, whose pointer arguments then
 * sent the CPU form's per-work-item arrays through memory. */

/* A stored colour value cleaned (m: the largest finite colour value),
 * classed by its bits as the scan classes it (tm_scan1), so that a
 * subnormal is tiny whether or not the device flushes it: NaN, negative
 * and tiny values are 0 (-0 stays as it is: it reads as 0), +Inf is m. */
inline CLFX_ALWAYS_INLINE float
tm_clean1 (float v, float m)
{
  uint u = as_uint (v);

  return u > 0x7f800000u && u != 0x80000000u ? 0.0f
         : u == 0x7f800000u ? m
         : u < TM_TINY_BITS ? 0.0f : v;
}

/* Cleaned colour exposed: times scale, capped at TM_CAP, and 0 where the
 * product is tiny, by its bits again (T float3 or float8, U the unsigned
 * vector of its size). */
#define TM_EXPOSE(T, U, c, scale)                                            \
  do                                                                         \
    {                                                                        \
      (c) = fmin ((c) * (scale), (T) (TM_CAP));                              \
      (c) = as_##U ((c)) < TM_TINY_BITS ? (T) (0.0f) : (c);                  \
    }                                                                        \
  while (0)

/* The largest finite colour value the scan found (tm_scan_final's result;
 * 0 where there is no scan). */
inline CLFX_ALWAYS_INLINE float
tm_largest (__global const uint4 *scan)
{
  return as_float (((__global const uint *) scan)[TM_SCAN_LARGEST]);
}

/* A texel as the operators read it: stored values cleaned (m: the
 * largest finite colour value), decoded to linear light, exposed, as
 * RGBA (gray as R = G = B). */
inline CLFX_ALWAYS_INLINE float4
tm_read (CLFX_SRC_ARGS (src), int x, int y, float m, float scale)
{
  float4 v = clfx_load_inside (CLFX_SRC (src), x, y);

  v.x = tm_clean1 (v.x, m);
#if CLFX_CHANNELS == 4
  v.y = tm_clean1 (v.y, m);
  v.z = tm_clean1 (v.z, m);
  v.w = isnan (v.w) ? 0.0f : clamp (v.w, 0.0f, 1.0f);
#elif CLFX_CHANNELS == 2
  v.y = isnan (v.y) ? 0.0f : clamp (v.y, 0.0f, 1.0f);
#endif
  v = clfx_rgba (clfx_decode (v));
  TM_EXPOSE (float3, uint3, v.xyz, scale);
  return v;
}

inline CLFX_ALWAYS_INLINE float
tm_luminance (float4 v)
{
  return TM_YR * v.x + TM_YG * v.y + TM_YB * v.z;
}

/* Compensated (Kahan) addition: the error of a long sum stays that of a
 * few additions. */
inline CLFX_ALWAYS_INLINE void
tm_kahan (float *sum, float *comp, float v)
{
  float y = v - *comp, t = *sum + y;

  *comp = (t - *sum) - y;
  *sum = t;
}

/* ---- the log-luminance histograms (probes) ---------------------------------

 * Bins of half an octave read from the float's bits: its exponent and its
 * first mantissa bit (each octave split at 1.5 x 2^e), so a bin is a
 * function of the stored float alone.  Before the map: Y from 2^-20 to
 * 2^20 in 80 bins; after: from 2^-16 to 2^4 in 40; the first bin holds
 * what is below (0 included), the last what is above.  Each work-group
 * counts in local memory and adds its counts to the global histogram with
 * integer atomics: the same counts whatever order they take. */

inline CLFX_ALWAYS_INLINE int
tm_hist_bin (float Y, int lo, int n)
{
  int b;

  if (! (Y >= ldexp (1.0f, lo)))
    return 0;
  b = (int) (as_uint (Y) >> 22) - ((127 + lo) << 1);
  return b >= n - 2 ? n - 1 : b + 1;
}

/* The CPU form's counts: tm_hist_bin of eight values at once, then their
 * increments into four private histograms of n bins each (lane k into
 * histogram k % 4), so that increments of one bin by neighbouring pixels
 * do not wait on each other (with one, PoCL spent a sixth of tm_stats_v
 * on them), added into the group's histogram once per bin at the end. */
inline CLFX_ALWAYS_INLINE int8
tm_hist_bin8 (float8 Y, int lo, int n)
{
  int8 b = as_int8 (as_uint8 (Y) >> 22) - ((127 + lo) << 1) + 1;

  return Y >= ldexp (1.0f, lo) ? min (b, n - 1) : (int8) (0);
}

inline CLFX_ALWAYS_INLINE void
tm_hist_zero4 (uint *ph, int n)
{
  for (int k = 0; k < 4 * n; k++)
    ph[k] = 0u;
}

/* The first cnt (1..8) of eight bins counted. */
inline CLFX_ALWAYS_INLINE void
tm_hist_count8 (uint *ph, int n, int8 bins, int cnt)
{
  int t[8];

  if (cnt == 8)
    {
      /* Written out: the loop kept its index arithmetic and the bins in
       * memory. */
      ph[bins.s0]++;
      ph[n + bins.s1]++;
      ph[2 * n + bins.s2]++;
      ph[3 * n + bins.s3]++;
      ph[bins.s4]++;
      ph[n + bins.s5]++;
      ph[2 * n + bins.s6]++;
      ph[3 * n + bins.s7]++;
      return;
    }
  vstore8 (bins, 0, t);
  for (int k = 0; k < cnt; k++)
    ph[(k & 3) * n + t[k]]++;
}

inline CLFX_ALWAYS_INLINE void
tm_hist_add4 (const uint *ph, int n, __local uint *lh)
{
  for (int k = 0; k < n; k++)
    {
      uint c = ph[k] + ph[n + k] + ph[2 * n + k] + ph[3 * n + k];
      if (c)
        atomic_add (&lh[k], c);
    }
}

inline CLFX_ALWAYS_INLINE int
tm_local_index (void)
{
  return (int) (get_local_id (1) * get_local_size (0) + get_local_id (0));
}

inline CLFX_ALWAYS_INLINE void
tm_hist_zero (__local uint *h, int n)
{
  int size = (int) (get_local_size (0) * get_local_size (1));

  for (int i = tm_local_index (); i < n; i += size)
    h[i] = 0;
  barrier (CLK_LOCAL_MEM_FENCE);
}

inline CLFX_ALWAYS_INLINE void
tm_hist_flush (__local uint *h, int n, __global uint *g)
{
  int size = (int) (get_local_size (0) * get_local_size (1));

  barrier (CLK_LOCAL_MEM_FENCE);
  for (int i = tm_local_index (); i < n; i += size)
    if (h[i])
      atomic_add (&g[i], h[i]);
}

/* ---- the CPU form: eight pixels a work-item --------------------------------

 * PoCL runs a work-item's arithmetic one pixel at a time (its work-group
 * vectorizer does not take these kernels): a map cost many times a pass
 * over the same memory.  On CPU devices (sources in buffers) the scan,
 * the statistics, reinhard05's range and the maps take eight
 * neighbouring pixels of a row per work-item, as float8 per channel, the
 * maps through the same arithmetic as the GPU's (TM_DEFINE_MAPS in
 * tonemap-global.cl).  Every
 * pixel goes through it, the last group of a row padded with copies of
 * its last pixel that are not stored, so a pixel's result does not
 * depend on where a tile starts. */

#define TM_FLOAT_RGBA_BUFFER                                                 \
  (CLFX_SRC_BUFFER && CLFX_CHANNELS == 4                                     \
   && CLFX_DEPTH == CLFX_DEPTH_CODE_FLOAT)

/* Eight RGBA pixels as stored (u: the first four, w: the last four), a
 * channel per float8. */
inline CLFX_ALWAYS_INLINE void
tm_split8 (float16 u, float16 w, float8 c[4])
{
  c[0] = (float8) (u.s048c, w.s048c);
  c[1] = (float8) (u.s159d, w.s159d);
  c[2] = (float8) (u.s26ae, w.s26ae);
  c[3] = (float8) (u.s37bf, w.s37bf);
}

#if TM_FLOAT_RGBA_BUFFER
/* Eight float RGBA pixels from (x, y) as stored, a channel per float8:
 * two loads of four pixels. */
inline CLFX_ALWAYS_INLINE void
tm_load8 (CLFX_SRC_ARGS (src), int x, int y, float8 c[4])
{
  __global const float *row
    = (__global const float *) (src + (long) (y - src_view.y) * src_pitch)
      + 4 * (x - src_view.x);
  tm_split8 (vload16 (0, row), vload16 (1, row), c);
}
#endif

/* The n (1..8) pixels from (x, y) cleaned and exposed as tm_read does, a
 * channel per float8. */
inline CLFX_ALWAYS_INLINE void
tm_read8 (CLFX_SRC_ARGS (src), int x, int y, int n, float m, float scale,
          float8 *r, float8 *g, float8 *b, float8 *a)
{
#if TM_FLOAT_RGBA_BUFFER && ! CLFX_SRGB
  if (n == 8)
    {
      /* Linear float RGBA (the common case), cleaned eight at a time (the
       * same selections as tm_clean1).  sRGB-encoded float (GIMP's
       * perceptual float) has its colour decoded by tm_read, below. */
      float8 c[4];
      tm_load8 (CLFX_SRC (src), x, y, c);
#pragma unroll
      for (int k = 0; k < 3; k++)
        {
          uint8 u = as_uint8 (c[k]);
          c[k] = u > 0x7f800000u && u != 0x80000000u ? (float8) (0.0f)
                 : u == 0x7f800000u ? (float8) (m)
                 : u < TM_TINY_BITS ? (float8) (0.0f) : c[k];
          TM_EXPOSE (float8, uint8, c[k], scale);
        }
      *r = c[0];
      *g = c[1];
      *b = c[2];
      *a = isnan (c[3]) ? (float8) (0.0f) : clamp (c[3], 0.0f, 1.0f);
      return;
    }
#endif
  float t[4][8];
  for (int k = 0; k < 8; k++)
    {
      float4 v = tm_read (CLFX_SRC (src), x + min (k, n - 1), y, m, scale);
      t[0][k] = v.x;
      t[1][k] = v.y;
      t[2][k] = v.z;
      t[3][k] = v.w;
    }
  *r = vload8 (0, t[0]);
  *g = vload8 (0, t[1]);
  *b = vload8 (0, t[2]);
  *a = vload8 (0, t[3]);
}

inline CLFX_ALWAYS_INLINE float8
tm_luminance8 (float8 r, float8 g, float8 b)
{
  return TM_YR * r + TM_YG * g + TM_YB * b;
}

/* The luminance of the n (1..8) pixels from (x, y), read as tm_read8. */
inline CLFX_ALWAYS_INLINE float8
tm_read_y8 (CLFX_SRC_ARGS (src), int x, int y, int n, float m, float scale)
{
  float8 r, g, b, a;

  tm_read8 (CLFX_SRC (src), x, y, n, m, scale, &r, &g, &b, &a);
  return tm_luminance8 (r, g, b);
}

/* The n (1..8) floats from P[at], padded with copies of the last. */
inline CLFX_ALWAYS_INLINE float8
tm_get8 (__global const float *P, long at, int n)
{
  float t[8];

  if (n == 8)
    return vload8 (0, P + at);
  for (int k = 0; k < 8; k++)
    t[k] = P[at + min (k, n - 1)];
  return vload8 (0, t);
}

/* The first n (1..8) of eight floats stored from P[at]. */
inline CLFX_ALWAYS_INLINE void
tm_put8 (__global float *P, long at, int n, float8 v)
{
  float t[8];

  if (n == 8)
    {
      vstore8 (v, 0, P + at);
      return;
    }
  vstore8 (v, 0, t);
  for (int k = 0; k < n; k++)
    P[at + k] = t[k];
}

/* A field kernel's pixels in the CPU devices' form (field_cl): the n
 * (0..8) of its work-item in the piece's rectangle rect (x0, y0, x1, y1),
 * their luminance in *Y and their index in a field w wide in *at. */
inline CLFX_ALWAYS_INLINE int
tm_field8 (CLFX_SRC_ARGS (src), int4 rect, int w, __global const uint4 *scan,
           float scale, long *at, float8 *Y)
{
  int x = rect.x + 8 * (int) get_global_id (0);
  int y = rect.y + (int) get_global_id (1);
  int n = min (8, rect.z - x);

  if (n <= 0 || y >= rect.w)
    return 0;
  *Y = tm_read_y8 (CLFX_SRC (src), x, y, n, tm_largest (scan), scale);
  *at = (long) y * w + x;
  return n;
}

/* The result linear float RGBA: its bytes are the floats the map makes,
 * stored as rows of floats. */
#define TM_DST_FLOAT_RGBA                                                    \
  (CLFX_CHANNELS == 4 && CLFX_DEPTH == CLFX_DEPTH_CODE_FLOAT                 \
   && ! CLFX_PREMUL && ! CLFX_SRGB)

#if TM_DST_FLOAT_RGBA
inline CLFX_ALWAYS_INLINE __global float *
tm_dst_row (CLFX_DST_ARGS, int x, int y)
{
  return (__global float *) (dst + dst_offset
                             + (long) (y - dst_rect.y) * dst_pitch)
         + 4 * (x - dst_rect.x);
}
#endif

/* The first n (1..8) of eight pixels from (x, y) stored. */
inline CLFX_ALWAYS_INLINE void
tm_store8 (CLFX_DST_ARGS, int x, int y, int n, float8 r, float8 g, float8 b,
           float8 a)
{
  float t[4][8];

#if TM_DST_FLOAT_RGBA
  if (n == 8)
    {
      /* Two rows of four pixels. */
      __global float *o = tm_dst_row (dst, dst_offset, dst_pitch, dst_rect,
                                      x, y);
      /* A transpose in two-input steps (unpack, then move halves), which
       * the compiler lowers to one shuffle each: the sixteen floats picked
       * from four vectors at once cost PoCL a chain of permutes and their
       * index loads, a quarter of the range pass. */
      float8 rg0 = (float8) (r.s0, g.s0, r.s1, g.s1, r.s4, g.s4, r.s5, g.s5);
      float8 rg1 = (float8) (r.s2, g.s2, r.s3, g.s3, r.s6, g.s6, r.s7, g.s7);
      float8 ba0 = (float8) (b.s0, a.s0, b.s1, a.s1, b.s4, a.s4, b.s5, a.s5);
      float8 ba1 = (float8) (b.s2, a.s2, b.s3, a.s3, b.s6, a.s6, b.s7, a.s7);
      float8 p04 = (float8) (rg0.s01, ba0.s01, rg0.s45, ba0.s45);
      float8 p15 = (float8) (rg0.s23, ba0.s23, rg0.s67, ba0.s67);
      float8 p26 = (float8) (rg1.s01, ba1.s01, rg1.s45, ba1.s45);
      float8 p37 = (float8) (rg1.s23, ba1.s23, rg1.s67, ba1.s67);
      vstore16 ((float16) (p04.lo, p15.lo, p26.lo, p37.lo), 0, o);
      vstore16 ((float16) (p04.hi, p15.hi, p26.hi, p37.hi), 1, o);
      return;
    }
#endif
  vstore8 (r, 0, t[0]);
  vstore8 (g, 0, t[1]);
  vstore8 (b, 0, t[2]);
  vstore8 (a, 0, t[3]);
  for (int k = 0; k < n; k++)
    CLFX_STORE (x + k, y,
                clfx_from_rgba ((float4) (t[0][k], t[1][k], t[2][k],
                                          t[3][k])));
}

/* The result's colour as its format holds it: a half result at most
 * TM_HALF_MAX (T float3 or float8). */
#if CLFX_DEPTH == CLFX_DEPTH_CODE_HALF
#define TM_OUT(T, c) ((c) = fmin ((c), (T) (CLFX_SRGB ? TM_HALF_SRGB_MAX      \
                                                      : TM_HALF_MAX)))
#else
#define TM_OUT(T, c) ((void) 0)
#endif

/* The result's luminance into the after histogram, and the store. */
inline CLFX_ALWAYS_INLINE void
tm_store (CLFX_DST_ARGS, int x, int y, float4 v, __local uint *lh)
{
  TM_OUT (float3, v.xyz);
  atomic_inc (&lh[tm_hist_bin (tm_luminance (v), TM_HA_LO, TM_HA_N)]);
  CLFX_STORE (x, y, clfx_from_rgba (v));
}

/* The CPU form's maps (tm_map_v, durand_map_v, fat_map_v): eight pixels of
 * a row in TM_MAP_ROWS rows a work-item, the after histogram counted in
 * the work-item's own arrays ph (4 TM_HA_N bins) and added to the group's
 * once per bin: an atomic increment per pixel costs PoCL about a quarter
 * of the cheapest map.  tm_map8_begin clears the counts and gives the
 * work-item's first result column *gx and its rows [*gy0, return value);
 * tm_map8_put counts the first n of the eight pixels at (x, y) and stores
 * them; tm_map8_end adds the counts to the histogram. */
inline CLFX_ALWAYS_INLINE int
tm_map8_begin (int4 dst_rect, int *gx, int *gy0, uint *ph, __local uint *lh)
{
  *gx = 8 * (int) get_global_id (0);
  *gy0 = TM_MAP_ROWS * (int) get_global_id (1);
  tm_hist_zero (lh, TM_HA_N);
  tm_hist_zero4 (ph, TM_HA_N);
  return *gx < dst_rect.z ? min (*gy0 + TM_MAP_ROWS, dst_rect.w) : *gy0;
}

inline CLFX_ALWAYS_INLINE void
tm_map8_put (uint *ph, CLFX_DST_ARGS, int x, int y, int n, float8 r,
             float8 g, float8 b, float8 a)
{
  TM_OUT (float8, r);
  TM_OUT (float8, g);
  TM_OUT (float8, b);
  tm_hist_count8 (ph, TM_HA_N,
                  tm_hist_bin8 (tm_luminance8 (r, g, b), TM_HA_LO, TM_HA_N),
                  n);
  tm_store8 (dst, dst_offset, dst_pitch, dst_rect, x, y, n, r, g, b, a);
}

inline CLFX_ALWAYS_INLINE void
tm_map8_end (const uint *ph, __local uint *lh, __global uint *hist)
{
  tm_hist_add4 (ph, TM_HA_N, lh);
  tm_hist_flush (lh, TM_HA_N, hist);
}

#endif
