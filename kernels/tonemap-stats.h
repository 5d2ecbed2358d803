/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tonemap-stats.h: the statistics every tone mapper starts from, as
 * kernels included by each operator's program (tonemap-global.cl,
 * durand02.cl, fattal02.cl; engine/ops/tonemap-common.c launches them):
 *
 *   tm_scan  -> tm_scan_final    the largest finite colour value and the
 *                                counts of NaN, negative, +Inf and tiny
 *                                values (float and half sources only)
 *   tm_stats -> tm_stats_final   luminance sum, log sum, min, max and the
 *                                colour sums of the cleaned, exposed image,
 *                                and the log-luminance histogram before
 *
 * then the operator's constants kernel (tm_params, durand_params,
 * fat_params: tm_params_begin below).  On CPU devices tm_scan_v and
 * tm_stats_v, or the two in one pass (tm_scan_stats_v, tm_stats_redo_v).
 *
 * Every reduction is deterministic: a work-group of TM_BW work-items owns a
 * block of TM_BW x TM_BH pixels of the image (work-item i its column i, a
 * compensated sum down the rows), reduces it as a tree in local memory and
 * writes one partial per block; one work-group then reduces the partials
 * (strided compensated sums, then a tree).  No atomics, so every run adds
 * in the same order, and the blocks sit at fixed image positions. */
#ifndef TONEMAP_STATS_H
#define TONEMAP_STATS_H

#include "tonemap-common.h"

/* An including program that runs the scan on its own on CPU devices sets
 * it to 1 (tm_scan_v). */
#ifndef TM_SCAN_ALONE
#define TM_SCAN_ALONE 0
#endif

/* ---- scan: the values to clean (float and half sources) ------------------ */

/* The scan's counts (TM_SCAN_N uints, tonemap-shapes.h): s0 NaN, s1
 * negative (-0 left out), s2 +Inf, s3 tiny (below TM_TINY, above 0), s4
 * the largest other value's bits.  Each value is classed by its bits, so
 * that a device that flushes subnormals counts them as the reference
 * does; positive floats order as their bits do. */
inline CLFX_ALWAYS_INLINE void
tm_scan1 (float v, uint8 *a)
{
  uint u = as_uint (v), mag = u & 0x7fffffffu;

  if (mag > 0x7f800000u)
    a->s0++;
  else if (u > 0x80000000u)
    a->s1++;
  else if (u == 0x7f800000u)
    a->s2++;
  else if (u >= TM_TINY_BITS && u < 0x7f800000u)
    a->s4 = max (a->s4, u);
  else if (u > 0u && u < TM_TINY_BITS)
    a->s3++;
}

/* The stored colour channels of texel (x, y) into the counts. */
inline CLFX_ALWAYS_INLINE void
tm_scan_texel (CLFX_SRC_ARGS (src), int x, int y, uint8 *a)
{
  float4 v = clfx_load_inside (CLFX_SRC (src), x, y);

  tm_scan1 (v.x, a);
#if CLFX_CHANNELS == 4
  tm_scan1 (v.y, a);
  tm_scan1 (v.z, a);
#endif
}

/* Counts add (saturating), the largest finite values' bits take the
 * maximum. */
inline CLFX_ALWAYS_INLINE uint8
tm_merge_scan (uint8 a, uint8 b)
{
  uint8 r = add_sat (a, b);

  r.s4 = max (a.s4, b.s4);
  return r;
}

/* A tree over n entries of local memory (n a power of two); the result in
 * s[0], every work-item past the last barrier. */
inline CLFX_ALWAYS_INLINE void
tm_tree_scan (__local uint8 *s, int lx, int n, int step)
{
  for (int span = n / 2; span > 0; span /= 2)
    {
      barrier (CLK_LOCAL_MEM_FENCE);
      for (int i = lx; i < span; i += step)
        s[i] = tm_merge_scan (s[i], s[i + span]);
    }
  barrier (CLK_LOCAL_MEM_FENCE);
}

/* The block kernels cover rect (x0, y0, x1, y1: the whole image, or a
 * tile whose corner is on the block grid) and write the partial of image
 * block (bx, by) at by * nbx + bx, nbx blocks to an image row. */
#define TM_BLOCK_INDEX(rect, nbx)                                            \
  (((rect).y / TM_BH + (int) get_group_id (1)) * (nbx) + (rect).x / TM_BW   \
   + (int) get_group_id (0))

#if ! CLFX_SRC_BUFFER
__kernel void
tm_scan (CLFX_SRC_ARGS (src), int4 rect, int nbx, __global uint8 *partials,
         __local uint8 *s)
{
  int   lx = get_local_id (0), bx = get_group_id (0), by = get_group_id (1);
  int   x = rect.x + bx * TM_BW + lx, y0 = rect.y + by * TM_BH;
  uint8 a = (uint8) (0u);

  if (x < rect.z)
    for (int j = 0; j < TM_BH && y0 + j < rect.w; j++)
      {
        tm_scan_texel (CLFX_SRC (src), x, y0 + j, &a);
      }
  s[lx] = a;
  tm_tree_scan (s, lx, TM_BW, TM_BW);
  if (lx == 0)
    partials[TM_BLOCK_INDEX (rect, nbx)] = s[0];
}
#endif

/* out: the counts and the largest finite value's bits (tm_scan1). */
__kernel void
tm_scan_final (__global const uint8 *partials, int n, __global uint8 *out,
               __local uint8 *s)
{
  int   lx = get_local_id (0);
  uint8 a = (uint8) (0u);

  for (int i = lx; i < n; i += TM_FINAL)
    a = tm_merge_scan (a, partials[i]);
  s[lx] = a;
  tm_tree_scan (s, lx, TM_FINAL, TM_FINAL);
  if (lx == 0)
    out[0] = s[0];
}

/* ---- statistics ---------------------------------------------------------- */

/* A partial: s0 sum Y, s1 sum log (log_eps + Y), s2-s4 sums of R, G, B,
 * s5 min Y, s6 max Y. */
inline CLFX_ALWAYS_INLINE float8
tm_merge (float8 a, float8 b)
{
  float8 r = a + b;

  r.s5 = fmin (a.s5, b.s5);
  r.s6 = fmax (a.s6, b.s6);
  r.s7 = 0.0f;
  return r;
}

/* step: the work-items taking part; work-item lx merges entries lx, lx +
 * step, ... of each level (the same pairs whatever step is). */
inline CLFX_ALWAYS_INLINE void
tm_tree (__local float8 *s, int lx, int n, int step)
{
  for (int span = n / 2; span > 0; span /= 2)
    {
      barrier (CLK_LOCAL_MEM_FENCE);
      for (int i = lx; i < span; i += step)
        s[i] = tm_merge (s[i], s[i + span]);
    }
  barrier (CLK_LOCAL_MEM_FENCE);
}

#if ! CLFX_SRC_BUFFER
__kernel void
tm_stats (CLFX_SRC_ARGS (src), int4 rect, int nbx,
          __global const uint4 *scan, float scale, float log_eps,
          __global float8 *partials, __local float8 *s, __global uint *hist,
          __local uint *lh)
{
  int    lx = get_local_id (0), bx = get_group_id (0), by = get_group_id (1);
  int    x = rect.x + bx * TM_BW + lx, y0 = rect.y + by * TM_BH;
  float  m = tm_largest (scan);
  float  sum[5] = { 0.0f, 0.0f, 0.0f, 0.0f, 0.0f };
  float  comp[5] = { 0.0f, 0.0f, 0.0f, 0.0f, 0.0f };
  float  lo = INFINITY, hi = 0.0f;

  tm_hist_zero (lh, TM_HB_N);
  if (x < rect.z)
    for (int j = 0; j < TM_BH && y0 + j < rect.w; j++)
      {
        float4 v = tm_read (CLFX_SRC (src), x, y0 + j, m, scale);
        float  Y = tm_luminance (v);
        tm_kahan (&sum[0], &comp[0], Y);
        /* ln as log2 times ln 2: PoCL's log is a library call, its
         * log2 is not; the bound is 26 u sum |log| (tonemap-common.c). */
        tm_kahan (&sum[1], &comp[1], log2 (log_eps + Y) * 0.69314718f);
        tm_kahan (&sum[2], &comp[2], v.x);
        tm_kahan (&sum[3], &comp[3], v.y);
        tm_kahan (&sum[4], &comp[4], v.z);
        lo = fmin (lo, Y);
        hi = fmax (hi, Y);
        atomic_inc (&lh[tm_hist_bin (Y, TM_HB_LO, TM_HB_N)]);
      }
  s[lx] = (float8) (sum[0], sum[1], sum[2], sum[3], sum[4], lo, hi, 0.0f);
  tm_tree (s, lx, TM_BW, TM_BW);
  if (lx == 0)
    partials[TM_BLOCK_INDEX (rect, nbx)] = s[0];
  tm_hist_flush (lh, TM_HB_N, hist);
}
#endif

__kernel void
tm_stats_final (__global const float8 *partials, int n, __global float8 *out,
                __local float8 *s)
{
  int    lx = get_local_id (0);
  float  sum[5] = { 0.0f, 0.0f, 0.0f, 0.0f, 0.0f };
  float  comp[5] = { 0.0f, 0.0f, 0.0f, 0.0f, 0.0f };
  float  lo = INFINITY, hi = 0.0f;

  for (int i = lx; i < n; i += TM_FINAL)
    {
      float8 b = partials[i];
      tm_kahan (&sum[0], &comp[0], b.s0);
      tm_kahan (&sum[1], &comp[1], b.s1);
      tm_kahan (&sum[2], &comp[2], b.s2);
      tm_kahan (&sum[3], &comp[3], b.s3);
      tm_kahan (&sum[4], &comp[4], b.s4);
      lo = fmin (lo, b.s5);
      hi = fmax (hi, b.s6);
    }
  s[lx] = (float8) (sum[0], sum[1], sum[2], sum[3], sum[4], lo, hi, 0.0f);
  tm_tree (s, lx, TM_FINAL, TM_FINAL);
  if (lx == 0)
    out[0] = s[0];
}

/* ---- the CPU devices' form: eight columns a work-item ----------------------
 *
 * Launched where the source is in buffers (tonemap-common.h's CPU form),
 * never with the kernels above: built only then. */
#if CLFX_SRC_BUFFER

#if TM_FLOAT_RGBA_BUFFER
/* Rows of eight float RGBA pixels whose colour holds no NaN, no negative
 * value (-0 included), no infinity and no tiny value: then, and only
 * then, every colour value's bits are below +Inf's as unsigned integers
 * and, less one, at least TM_TINY_BITS - 1 (0 wraps around), and their
 * largest is the largest finite value's.  A maximum and a minimum per
 * sixteen floats instead of tm_scan1's cases, a third faster on PoCL.
 * tm_plain_row takes row y's colour bits from x into the maxima mx and
 * the minima mn (of the bits less one; alpha's lanes all ones);
 * tm_plain_end: false, with *a untouched, where some row was not plain
 * (they then go through the cases). */
inline CLFX_ALWAYS_INLINE uint16
tm_plain_row (CLFX_SRC_ARGS (src), int x, int y, uint16 mx, uint16 *mn)
{
  const uint16 rgb = (uint16) (~0u, ~0u, ~0u, 0u, ~0u, ~0u, ~0u, 0u,
                               ~0u, ~0u, ~0u, 0u, ~0u, ~0u, ~0u, 0u);
  __global const uint *row
    = (__global const uint *) (src + (long) (y - src_view.y) * src_pitch)
      + 4 * (x - src_view.x);
  uint16 a = vload16 (0, row), b = vload16 (1, row);

  *mn = min (*mn, min (a - 1u, b - 1u) | ~rgb);
  return max (mx, max (a, b) & rgb);
}

inline CLFX_ALWAYS_INLINE bool
tm_plain_end (uint16 mx, uint16 mn, uint8 *a)
{
  uint8 m8 = max (mx.lo, mx.hi), n8 = min (mn.lo, mn.hi);
  uint4 m4 = max (m8.lo, m8.hi), n4 = min (n8.lo, n8.hi);
  uint2 m2 = max (m4.lo, m4.hi), n2 = min (n4.lo, n4.hi);
  uint  m = max (m2.x, m2.y);
  if (m >= 0x7f800000u || min (n2.x, n2.y) < TM_TINY_BITS - 1u)
    return false;
  *a = (uint8) (0u, 0u, 0u, 0u, m, 0u, 0u, 0u);
  return true;
}
#endif

/* The n (1..8) pixels of row y from x scanned into a, through tm_scan1's
 * cases. */
inline CLFX_ALWAYS_INLINE void
tm_scan_row8 (CLFX_SRC_ARGS (src), int x, int y, int n, uint8 *a)
{
#if TM_FLOAT_RGBA_BUFFER
  if (n == 8)
    {
      float8 c[4];
      int8   cnt[4] = { (int8) (0), (int8) (0), (int8) (0), (int8) (0) };
      uint8  mx = (uint8) (0u);
      tm_load8 (CLFX_SRC (src), x, y, c);
#pragma unroll
      for (int k = 0; k < 3; k++)
        {
          /* tm_scan1's cases, eight values at once (true is -1). */
          uint8 u = as_uint8 (c[k]), mag = u & 0x7fffffffu;
          int8  nan = mag > 0x7f800000u;
          cnt[0] -= nan;
          cnt[1] -= u > 0x80000000u && ! nan;
          cnt[2] -= u == 0x7f800000u;
          cnt[3] -= u > 0u && u < TM_TINY_BITS;
          mx = max (mx, u < 0x7f800000u && u >= TM_TINY_BITS ? u
                                                             : (uint8) (0u));
        }
      /* The lanes' counts and maxima added into a. */
      uint  sum4[4];
      uint4 m4 = max (mx.lo, mx.hi);
#pragma unroll
      for (int k = 0; k < 4; k++)
        {
          int4 h = cnt[k].lo + cnt[k].hi;
          sum4[k] = (uint) (h.x + h.y + h.z + h.w);
        }
      a->s0123 += (uint4) (sum4[0], sum4[1], sum4[2], sum4[3]);
      a->s4 = max (a->s4, max (max (m4.x, m4.y), max (m4.z, m4.w)));
      return;
    }
#endif
  for (int k = 0; k < n; k++)
    tm_scan_texel (CLFX_SRC (src), x + k, y, a);
}

/* The work-item's rows [y0, y1) of n pixels from x scanned: where the
 * plain maxima mx and minima mn cover them all (plain8: n is 8 and the
 * source float RGBA) and they were plain, their maximum; else the
 * cases. */
inline CLFX_ALWAYS_INLINE uint8
tm_scan_rows8 (CLFX_SRC_ARGS (src), int x, int y0, int y1, int n,
               uint16 mx, uint16 mn, bool plain8)
{
  uint8 a = (uint8) (0u);

#if TM_FLOAT_RGBA_BUFFER
  if (plain8 && tm_plain_end (mx, mn, &a))
    return a;
#endif
  for (int y = y0; n > 0 && y < y1; y++)
    tm_scan_row8 (CLFX_SRC (src), x, y, n, &a);
  return a;
}

/* A work-item's scan a into the block's partial, which every work-item
 * returns. */
inline CLFX_ALWAYS_INLINE uint8
tm_scan_end8 (uint8 a, int4 rect, int nbx, __global uint8 *partials,
              __local uint8 *s)
{
  int lx = get_local_id (0);

  s[lx] = a;
  tm_tree_scan (s, lx, TM_BW / 8, TM_BW / 8);
  if (lx == 0)
    partials[TM_BLOCK_INDEX (rect, nbx)] = s[0];
  return s[0];
}

/* tm_scan's blocks with TM_BW / 8 work-items, each eight columns: the
 * counts and the maximum do not depend on the order, so the partials are
 * tm_scan's.  Only where the scan runs on its own (TM_SCAN_ALONE, the
 * global operators': aces, and tiles); elsewhere it rides on the
 * statistics (tm_scan_stats_v). */
#if TM_SCAN_ALONE
__kernel void
tm_scan_v (CLFX_SRC_ARGS (src), int4 rect, int nbx, __global uint8 *partials,
           __local uint8 *s)
{
  int    lx = get_local_id (0), bx = get_group_id (0), by = get_group_id (1);
  int    x = rect.x + bx * TM_BW + 8 * lx, y0 = rect.y + by * TM_BH;
  int    y1 = min (y0 + TM_BH, rect.w), n = min (8, rect.z - x);
  uint16 mx = (uint16) (0u), mn = (uint16) (~0u);

#if TM_FLOAT_RGBA_BUFFER
  for (int y = y0; n == 8 && y < y1; y++)
    mx = tm_plain_row (CLFX_SRC (src), x, y, mx, &mn);
#endif
  tm_scan_end8 (tm_scan_rows8 (CLFX_SRC (src), x, y0, y1, n, mx, mn,
                               n == 8),
                rect, nbx, partials, s);
}
#endif

/* tm_stats' blocks with TM_BW / 8 work-items, each eight columns: each
 * column's sums as tm_stats makes them (a lane of float8 each), then the
 * same tree over the block's TM_BW columns.  m: the image's largest finite
 * colour value, which +Inf becomes. */
inline CLFX_ALWAYS_INLINE void
tm_stats8 (CLFX_SRC_ARGS (src), int4 rect, int nbx, float m, float scale,
           float log_eps, __global float8 *partials, __local float8 *s,
           __global uint *hist, __local uint *lh, __global uint8 *blocks,
           __local uint8 *ss)
{
  uint16 mx = (uint16) (0u), mn = (uint16) (~0u);
  int    lx = get_local_id (0), bx = get_group_id (0), by = get_group_id (1);
  int    x = rect.x + bx * TM_BW + 8 * lx, y0 = rect.y + by * TM_BH;
  int    n = min (8, rect.z - x);
  float8 sum[5], comp[5], lo = (float8) (INFINITY), hi = (float8) (0.0f);
  float  t[8][8];
  uint   ph[4 * TM_HB_N];

#pragma unroll
  for (int k = 0; k < 5; k++)
    sum[k] = comp[k] = (float8) (0.0f);
  tm_hist_zero4 (ph, TM_HB_N);
  tm_hist_zero (lh, TM_HB_N);
  for (int j = 0; n > 0 && j < TM_BH && y0 + j < rect.w; j++)
    {
      float8 r, g, b, alpha;
#if TM_FLOAT_RGBA_BUFFER
      if (blocks && n == 8)
        mx = tm_plain_row (CLFX_SRC (src), x, y0 + j, mx, &mn);
#endif
      tm_read8 (CLFX_SRC (src), x, y0 + j, n, m, scale, &r, &g, &b, &alpha);
      float8 Y = tm_luminance8 (r, g, b);
      /* tm_kahan, a lane per column; ln as log2 times ln 2 (tm_stats). */
      float8 v[5] = { Y, log2 (log_eps + Y) * 0.69314718f, r, g, b };
#pragma unroll
      for (int k = 0; k < 5; k++)
        {
          float8 d = v[k] - comp[k], e = sum[k] + d;
          comp[k] = (e - sum[k]) - d;
          sum[k] = e;
        }
      lo = fmin (lo, Y);
      hi = fmax (hi, Y);
      tm_hist_count8 (ph, TM_HB_N, tm_hist_bin8 (Y, TM_HB_LO, TM_HB_N), n);
    }
  /* With the scan: a block holding +Inf is left to tm_stats_redo_v (every
   * work-item has the block's counts: the whole group returns). */
  if (blocks
      && tm_scan_end8 (tm_scan_rows8 (CLFX_SRC (src), x, y0,
                                      min (y0 + TM_BH, rect.w), n, mx, mn,
                                      n == 8),
                       rect, nbx, blocks, ss).s2
           != 0)
    return;
  /* The work-item's own counts, then one atomic addition per bin: an
   * atomic increment per pixel was half of this pass on PoCL. */
  tm_hist_add4 (ph, TM_HB_N, lh);
#pragma unroll
  for (int k = 0; k < 5; k++)
    vstore8 (sum[k], 0, t[k]);
  vstore8 (lo, 0, t[5]);
  vstore8 (hi, 0, t[6]);
  /* Columns past the image's edge hold nothing, as in tm_stats. */
  for (int k = 0; k < 8; k++)
    s[8 * lx + k] = k < n ? (float8) (t[0][k], t[1][k], t[2][k], t[3][k],
                                      t[4][k], t[5][k], t[6][k], 0.0f)
                          : (float8) (0.0f, 0.0f, 0.0f, 0.0f, 0.0f, INFINITY,
                                      0.0f, 0.0f);
  tm_tree (s, lx, TM_BW, TM_BW / 8);
  if (lx == 0)
    partials[TM_BLOCK_INDEX (rect, nbx)] = s[0];
  tm_hist_flush (lh, TM_HB_N, hist);
}

__kernel void
tm_stats_v (CLFX_SRC_ARGS (src), int4 rect, int nbx,
            __global const uint4 *scan, float scale, float log_eps,
            __global float8 *partials, __local float8 *s, __global uint *hist,
            __local uint *lh)
{
  tm_stats8 (CLFX_SRC (src), rect, nbx, tm_largest (scan), scale,
             log_eps, partials, s, hist, lh, 0, 0);
}

/* The scan and the statistics in one pass over the image, for a run in
 * one piece on CPU devices: as each row of eight float RGBA pixels is read
 * for the statistics, its colour bits go into the plain maxima
 * (tm_plain_row); a block that was not plain, and other formats, are
 * scanned through the cases after, from the cache.  The statistics need the
 * image's largest finite value only where a pixel is +Inf: a block
 * holding one leaves its statistics to tm_stats_redo_v, launched with the
 * same arguments after the scan's final reduction, which makes them for
 * those blocks alone (the others return at once).  Every partial and
 * count is then what the two passes make.  Two kernels rather than one
 * with a switch: PoCL ran the one with both bodies slower. */
#define TM_SCAN_STATS_ARGS                                                   \
  CLFX_SRC_ARGS (src), int4 rect, int nbx, __global const uint4 *scan,       \
    __global uint8 *blocks, __local uint8 *ss, float scale, float log_eps,   \
    __global float8 *partials, __local float8 *s, __global uint *hist,       \
    __local uint *lh

__kernel void
tm_scan_stats_v (TM_SCAN_STATS_ARGS)
{
  (void) scan;
  tm_stats8 (CLFX_SRC (src), rect, nbx, 0.0f, scale, log_eps, partials, s,
             hist, lh, blocks, ss);
}

__kernel void
tm_stats_redo_v (TM_SCAN_STATS_ARGS)
{
  (void) ss;
  if (blocks[TM_BLOCK_INDEX (rect, nbx)].s2 != 0)
    tm_stats8 (CLFX_SRC (src), rect, nbx, tm_largest (scan), scale,
               log_eps, partials, s, hist, lh, 0, 0);
}
#endif /* CLFX_SRC_BUFFER */

/* ---- the operators' constants -------------------------------------------- */

/* The start of every constants kernel (one work-item, n pixels): p[]
 * cleared, the log-average (*lavg) and mean of Y (*mean) in TM_P_LAVG and
 * TM_P_MEAN, TM_P_BLACK 1 when the image is black (max Y = 0: every
 * result is 0); the statistics returned. */
inline CLFX_ALWAYS_INLINE float8
tm_params_begin (__global const float8 *stats, float n, __global float *p,
                 float *lavg, float *mean)
{
  float8 st = stats[0];
  float  Lavg = exp (st.s1 / n), m = st.s0 / n;

  for (int i = 0; i < TM_P_N; i++)
    p[i] = 0.0f;
  p[TM_P_LAVG] = Lavg;
  p[TM_P_MEAN] = m;
  p[TM_P_BLACK] = st.s6 > 0.0f ? 0.0f : 1.0f;
  *lavg = Lavg;
  *mean = m;
  return st;
}

#endif
