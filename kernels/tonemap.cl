/* tonemap.cl: the global tone mappers of the tonemap family
 * (engine/ops/tonemap.c, docs/TONEMAP.md): reinhard02, reinhard05,
 * drago03 and aces, as one pipeline on the device.
 *
 *   tm_scan  -> tm_scan_final    the largest finite colour value and the
 *                                counts of NaN, negative and +Inf values
 *                                (float and half sources only)
 *   tm_stats -> tm_stats_final   luminance sum, log sum, min, max and the
 *                                colour sums of the cleaned, exposed image
 *   tm_params                    the operator's constants from those
 *   tm_range -> tm_range_final   reinhard05: the range of its mapped colour
 *   tm_map                       every pixel, stored
 *
 * Every reduction is deterministic: a work-group of TM_BW work-items owns a
 * block of TM_BW x TM_BH pixels of the image (work-item i its column i, a
 * compensated sum down the rows), reduces it as a tree in local memory and
 * writes one partial per block; one work-group then reduces the partials
 * (strided compensated sums, then a tree).  No atomics, so every run adds
 * in the same order, and the blocks sit at fixed image positions.
 *
 * Colour is cleaned before anything reads it: NaN and negative values are
 * 0, +Inf is the largest finite colour value of the image; alpha is kept
 * (NaN 0, clamped to [0, 1]).  Then the exposure scale, then babl's
 * luminance Y of linear sRGB. */
#include "clfx-io.h"

#define TM_BW 64
#define TM_BH 32
#define TM_FINAL 256

/* babl's Y row for sRGB primaries (D50-adapted): what GEGL's "Y float"
 * gives. */
#define TM_YR 0.2224879400f
#define TM_YG 0.7169038389f
#define TM_YB 0.0606082572f

/* Operators, in the family's order (CLFX_TONEMAP_*). */
#define TM_REINHARD02 0
#define TM_REINHARD05 1
#define TM_DRAGO03    2
#define TM_ACES       3
#define TM_DURAND02   4
#define TM_FATTAL02   5

/* Colour is capped here after the exposure: luminance, the operators'
 * products (a Y, L / white^2, Y / Lavg) and their sums stay finite, so
 * no result is NaN (an infinity over an infinity), whatever the image
 * holds. */
#define TM_CAP 1e30f

/* The parameter buffer tm_params writes (see there). */
#define TM_P_BLACK 15

/* The helpers of the global operators are always inlined where the
 * compiler is clang's (PoCL, clfx-io.h): it kept some of them calls, whose
 * pointer arguments then sent the CPU form's per-work-item arrays through
 * memory (4096² float: the statistics 80 -> 68 ms with the histogram's
 * counting inlined, 68 -> 60 with every helper). */

inline CLFX_ALWAYS_INLINE float
tm_clean1 (float v, float m)
{
  return isnan (v) ? 0.0f : v < 0.0f ? 0.0f : isinf (v) ? m : v;
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
  v.xyz = fmin (v.xyz * scale, (float3) (TM_CAP));
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
#define TM_HB_LO  (-20)
#define TM_HB_N   82
#define TM_HA_LO  (-16)
#define TM_HA_N   42

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
 * do not wait on each other (one private histogram cost PoCL 13 of
 * tm_stats_v's 80 ms at 4096², four about 1), added into the group's
 * histogram once per bin at the end. */
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

/* ---- scan: the values to clean (float and half sources) ------------------ */

inline CLFX_ALWAYS_INLINE void
tm_scan1 (float v, uint4 *a)
{
  if (isnan (v))
    a->x++;
  else if (v < 0.0f)
    a->y++;
  else if (isinf (v))
    a->z++;
  else if (v > 0.0f)
    /* Positive floats order as their bits do (-0, whose sign bit is set,
     * must not take part). */
    a->w = max (a->w, as_uint (v));
}

/* The stored colour channels of texel (x, y) into the counts. */
inline CLFX_ALWAYS_INLINE void
tm_scan_texel (CLFX_SRC_ARGS (src), int x, int y, uint4 *a)
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
inline CLFX_ALWAYS_INLINE uint4
tm_merge_scan (uint4 a, uint4 b)
{
  return (uint4) (add_sat (a.xyz, b.xyz), max (a.w, b.w));
}

/* A tree over n entries of local memory (n a power of two); the result in
 * s[0], every work-item past the last barrier. */
inline CLFX_ALWAYS_INLINE void
tm_tree_scan (__local uint4 *s, int lx, int n, int step)
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

__kernel void
tm_scan (CLFX_SRC_ARGS (src), int4 rect, int nbx, __global uint4 *partials,
         __local uint4 *s)
{
  int   lx = get_local_id (0), bx = get_group_id (0), by = get_group_id (1);
  int   x = rect.x + bx * TM_BW + lx, y0 = rect.y + by * TM_BH;
  uint4 a = (uint4) (0u);

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

/* out: the NaN, negative and +Inf counts, the largest finite value (as
 * float bits). */
__kernel void
tm_scan_final (__global const uint4 *partials, int n, __global uint4 *out,
               __local uint4 *s)
{
  int   lx = get_local_id (0);
  uint4 a = (uint4) (0u);

  for (int i = lx; i < n; i += TM_FINAL)
    a = tm_merge_scan (a, partials[i]);
  s[lx] = a;
  tm_tree_scan (s, lx, TM_FINAL, TM_FINAL);
  if (lx == 0)
    out[0] = s[0];
}

/* ---- statistics ------------------------------------------------------------ */

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

__kernel void
tm_stats (CLFX_SRC_ARGS (src), int4 rect, int nbx,
          __global const uint4 *scan, float scale, float log_eps,
          __global float8 *partials, __local float8 *s, __global uint *hist,
          __local uint *lh)
{
  int    lx = get_local_id (0), bx = get_group_id (0), by = get_group_id (1);
  int    x = rect.x + bx * TM_BW + lx, y0 = rect.y + by * TM_BH;
  float  m = as_float (scan[0].w);
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
         * log2 is not (this pass 200 -> 155 ms at 2048², PoCL); the
         * bound is 26 u sum |log| (tonemap.c). */
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

/* ---- the operators' constants ------------------------------------------------ */

/* One work-item: p[] from the statistics (n pixels), as tonemap.c's
 * reference computes them in double:
 *   reinhard02  p0 a = key / Lavg, p1 1 / white^2 (0: none), p2 white
 *   reinhard05  p0 f = exp (-brightness), p1 m, p2 k, p3-p5 Ig per
 *               channel, p6 chromatic, p7 light
 *   drago03     p0 1 / Lavg, p1 1 / max Y, p2 1 / log10 (Lmax' + 1),
 *               p3 ln (bias) / ln (0.5)
 *   fattal02    p0 100 / max Y
 *   all         p8 log-average, p9 mean Y, p12, p13 reinhard05's range,
 *               p14 1 / (range), p15 (TM_P_BLACK) 1 when the image is
 *               black (max Y = 0): every result is 0 */
__kernel void
tm_params (__global const float8 *stats, int op, float n, float a1, float a2,
           float a3, __global float *p)
{
  float8 st = stats[0];
  float  Lavg = exp (st.s1 / n), mean = st.s0 / n;

  for (int i = 0; i < 16; i++)
    p[i] = 0.0f;
  p[8] = Lavg;
  p[9] = mean;
  p[TM_P_BLACK] = st.s6 > 0.0f ? 0.0f : 1.0f;
  if (op == TM_REINHARD02)
    {
      float a = a1 / Lavg;
      float white = a2 > 0.0f ? a2 : a * st.s6;
      p[0] = a;
      p[1] = white > 0.0f ? 1.0f / (white * white) : 0.0f;
      p[2] = white;
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
  else if (op == TM_DURAND02)
    {
      /* a1 range sigma, a2 contrast, a3 detail.  L = log10 (max (Y,
       * floor)) with the floor 6 decades below max Y: the grid's z axis
       * covers [L0, L0 + 6]. */
      p[0] = log10 (st.s6) - 6.0f;
      p[1] = st.s6 * 1e-6f;
      p[2] = 1.0f / a1;
      p[3] = a2;
      p[4] = a3;
    }
  else if (op == TM_FATTAL02)
    p[0] = st.s6 > 0.0f ? 100.0f / st.s6 : 0.0f;
  else if (op == TM_DRAGO03)
    {
      float lmax = st.s6 / Lavg;
      p[0] = 1.0f / Lavg;
      p[1] = st.s6 > 0.0f ? 1.0f / st.s6 : 0.0f;
      p[2] = 1.0f / log10 (lmax + 1.0f);
      p[3] = log (a1) / log (0.5f);
    }
}

/* ---- the maps ----------------------------------------------------------------- */

/* The maps' arithmetic, channel by channel, for one pixel (T float, S _1:
 * the GPU form, a work-item a pixel) or eight (T float8, S _8: the CPU
 * form, whose arithmetic PoCL then runs eight pixels wide, exp2 and log2
 * included): the same operations in the same order either way.
 *
 * tm_r05: reinhard05's photoreceptor, per channel, for a pixel of
 * luminance Y > 0 (GEGL's: C / (C + (f Ia)^m), 0 where the denominator is
 * 0; f Ia >= 0).  The power as exp2 (m log2 (f Ia)), as in fat_phi:
 * PoCL's powr is a scalar library call, its exp2 and log2 are not (the
 * range pass and the map each spent about 1.2 s of 3 s on powr at 4096²,
 * PoCL); f Ia = 0 gives exp2 (-inf) = 0, as powr does (m >= 0.3).  The
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
  /* GEGL's normalisation by the range (p12, p14). */                       \
  inline CLFX_ALWAYS_INLINE void                                             \
  tm_r05n##S (T *r, T *g, T *b, __global const float *p)                     \
  {                                                                          \
    if (p[14] > 0.0f)                                                        \
      {                                                                      \
        *r = (*r - p[12]) * p[14];                                           \
        *g = (*g - p[12]) * p[14];                                           \
        *b = (*b - p[12]) * p[14];                                           \
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
        T L = p[0] * Y, f = p[0] * (1.0f + L * p[1]) / (1.0f + L);           \
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

inline CLFX_ALWAYS_INLINE void
tm_tree_range (__local float2 *s, int lx, int n)
{
  for (int span = n / 2; span > 0; span /= 2)
    {
      barrier (CLK_LOCAL_MEM_FENCE);
      if (lx < span)
        s[lx] = (float2) (fmin (s[lx].x, s[lx + span].x),
                          fmax (s[lx].y, s[lx + span].y));
    }
  barrier (CLK_LOCAL_MEM_FENCE);
}

/* reinhard05's range: min and max of the mapped colour over pixels with
 * Y > 0 (GEGL's normalisation), per block, then over the blocks. */
__kernel void
tm_range (CLFX_SRC_ARGS (src), int4 rect, int nbx,
          __global const uint4 *scan, float scale, __global const float *p,
          __global float2 *partials, __local float2 *s)
{
  int    lx = get_local_id (0), bx = get_group_id (0), by = get_group_id (1);
  int    x = rect.x + bx * TM_BW + lx, y0 = rect.y + by * TM_BH;
  float  m = as_float (scan[0].w);
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

/* Writes p12, p13 (the range) and p14 (1 / its width; 0 when the range
 * is empty or flat: the colour is then left as mapped). */
__kernel void
tm_range_final (__global const float2 *partials, int n, __global float *p,
                __local float2 *s)
{
  int    lx = get_local_id (0);
  float2 r = (float2) (INFINITY, -INFINITY);

  for (int i = lx; i < n; i += TM_FINAL)
    r = (float2) (fmin (r.x, partials[i].x), fmax (r.y, partials[i].y));
  s[lx] = r;
  tm_tree_range (s, lx, TM_FINAL);
  if (lx == 0)
    {
      r = s[0];
      p[12] = r.x;
      p[13] = r.y;
      p[14] = r.y > r.x ? 1.0f / (r.y - r.x) : 0.0f;
    }
}

inline CLFX_ALWAYS_INLINE float4
tm_map1 (float4 v, int op, __global const float *p)
{
  float r = v.x, g = v.y, b = v.z;

  tm_mapc_1 (&r, &g, &b, tm_luminance (v), op, p);
  return (float4) (r, g, b, v.w);
}

/* The result's luminance into the after histogram, and the store. */
inline CLFX_ALWAYS_INLINE void
tm_store (CLFX_DST_ARGS, int x, int y, float4 v, __local uint *lh)
{
  atomic_inc (&lh[tm_hist_bin (tm_luminance (v), TM_HA_LO, TM_HA_N)]);
  CLFX_STORE (x, y, clfx_from_rgba (v));
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
      float m = as_float (scan[0].w);

      tm_store (dst, dst_offset, dst_pitch, dst_rect, x, y,
                tm_map1 (tm_read (CLFX_SRC (src), x, y, m, scale), op, p),
                lh);
    }
  tm_hist_flush (lh, TM_HA_N, hist);
}

/* ---- the CPU form: eight pixels a work-item ---------------------------------

 * PoCL runs a work-item's arithmetic one pixel at a time (its work-group
 * vectorizer does not take these kernels): the map of 4096² float pixels
 * cost some 340 ms for reinhard05, 190 for aces, against a few tens for a
 * pass over the same memory.  On CPU devices (sources in buffers) the
 * scan, the statistics, reinhard05's range and the map take eight
 * neighbouring pixels of a row per work-item, as float8 per channel, the
 * maps through the same arithmetic as the GPU's (TM_DEFINE_MAPS).  Every
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
          c[k] = isnan (c[k]) ? (float8) (0.0f)
                 : c[k] < 0.0f ? (float8) (0.0f)
                 : isinf (c[k]) ? (float8) (m) : c[k];
          c[k] = fmin (c[k] * scale, (float8) (TM_CAP));
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

#if TM_FLOAT_RGBA_BUFFER
/* Rows of eight float RGBA pixels whose colour holds no NaN, no negative
 * value (-0 included) and no infinity: then, and only then, every colour
 * value's bits are below +Inf's as unsigned integers, and their largest is
 * the largest finite value's.  One maximum per sixteen floats instead of
 * tm_scan1's cases (4096² float on PoCL: 26-27 -> 18-19 ms).
 * tm_plain_row takes row y's colour bits from x into the maxima mx;
 * tm_plain_end: false, with *a untouched, where some row was not plain
 * (they then go through the cases). */
inline CLFX_ALWAYS_INLINE uint16
tm_plain_row (CLFX_SRC_ARGS (src), int x, int y, uint16 mx)
{
  const uint16 rgb = (uint16) (~0u, ~0u, ~0u, 0u, ~0u, ~0u, ~0u, 0u,
                               ~0u, ~0u, ~0u, 0u, ~0u, ~0u, ~0u, 0u);
  __global const uint *row
    = (__global const uint *) (src + (long) (y - src_view.y) * src_pitch)
      + 4 * (x - src_view.x);

  return max (mx, max (vload16 (0, row), vload16 (1, row)) & rgb);
}

inline CLFX_ALWAYS_INLINE bool
tm_plain_end (uint16 mx, uint4 *a)
{
  uint8 m8 = max (mx.lo, mx.hi);
  uint4 m4 = max (m8.lo, m8.hi);
  uint2 m2 = max (m4.lo, m4.hi);
  uint  m = max (m2.x, m2.y);
  if (m >= 0x7f800000u)
    return false;
  *a = (uint4) (0u, 0u, 0u, m);
  return true;
}
#endif

/* The n (1..8) pixels of row y from x scanned into a, through tm_scan1's
 * cases. */
inline CLFX_ALWAYS_INLINE void
tm_scan_row8 (CLFX_SRC_ARGS (src), int x, int y, int n, uint4 *a)
{
#if TM_FLOAT_RGBA_BUFFER
  if (n == 8)
    {
      float8 c[4];
      int8   cnt[3] = { (int8) (0), (int8) (0), (int8) (0) };
      uint8  mx = (uint8) (0u);
      tm_load8 (CLFX_SRC (src), x, y, c);
#pragma unroll
      for (int k = 0; k < 3; k++)
        {
          /* tm_scan1's cases, eight values at once (true is -1). */
          int8 nan = isnan (c[k]), inf = isinf (c[k]) && c[k] > 0.0f;
          cnt[0] -= nan;
          cnt[1] -= c[k] < 0.0f;
          cnt[2] -= inf;
          mx = max (mx, c[k] > 0.0f && ! inf ? as_uint8 (c[k])
                                             : (uint8) (0u));
        }
      /* The lanes' counts and maxima added into a. */
      uint  sum3[3];
      uint4 m4 = max (mx.lo, mx.hi);
#pragma unroll
      for (int k = 0; k < 3; k++)
        {
          int4 h = cnt[k].lo + cnt[k].hi;
          sum3[k] = (uint) (h.x + h.y + h.z + h.w);
        }
      a->xyz += (uint3) (sum3[0], sum3[1], sum3[2]);
      a->w = max (a->w, max (max (m4.x, m4.y), max (m4.z, m4.w)));
      return;
    }
#endif
  for (int k = 0; k < n; k++)
    tm_scan_texel (CLFX_SRC (src), x + k, y, a);
}

/* The work-item's rows [y0, y1) of n pixels from x scanned: where the
 * plain maxima mx cover them all (plain8: n is 8 and the source float
 * RGBA) and they were plain, their maximum; else the cases. */
inline CLFX_ALWAYS_INLINE uint4
tm_scan_rows8 (CLFX_SRC_ARGS (src), int x, int y0, int y1, int n,
               uint16 mx, bool plain8)
{
  uint4 a = (uint4) (0u);

#if TM_FLOAT_RGBA_BUFFER
  if (plain8 && tm_plain_end (mx, &a))
    return a;
#endif
  for (int y = y0; n > 0 && y < y1; y++)
    tm_scan_row8 (CLFX_SRC (src), x, y, n, &a);
  return a;
}

/* A work-item's scan a into the block's partial, which every work-item
 * returns. */
inline CLFX_ALWAYS_INLINE uint4
tm_scan_end8 (uint4 a, int4 rect, int nbx, __global uint4 *partials,
              __local uint4 *s)
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
 * tm_scan's. */
__kernel void
tm_scan_v (CLFX_SRC_ARGS (src), int4 rect, int nbx, __global uint4 *partials,
           __local uint4 *s)
{
  int    lx = get_local_id (0), bx = get_group_id (0), by = get_group_id (1);
  int    x = rect.x + bx * TM_BW + 8 * lx, y0 = rect.y + by * TM_BH;
  int    y1 = min (y0 + TM_BH, rect.w), n = min (8, rect.z - x);
  uint16 mx = (uint16) (0u);

#if TM_FLOAT_RGBA_BUFFER
  for (int y = y0; n == 8 && y < y1; y++)
    mx = tm_plain_row (CLFX_SRC (src), x, y, mx);
#endif
  tm_scan_end8 (tm_scan_rows8 (CLFX_SRC (src), x, y0, y1, n, mx, n == 8),
                rect, nbx, partials, s);
}

/* tm_stats' blocks with TM_BW / 8 work-items, each eight columns: each
 * column's sums as tm_stats makes them (a lane of float8 each), then the
 * same tree over the block's TM_BW columns.  m: the image's largest finite
 * colour value, which +Inf becomes. */
inline CLFX_ALWAYS_INLINE void
tm_stats8 (CLFX_SRC_ARGS (src), int4 rect, int nbx, float m, float scale,
           float log_eps, __global float8 *partials, __local float8 *s,
           __global uint *hist, __local uint *lh, __global uint4 *blocks,
           __local uint4 *ss)
{
  uint16 mx = (uint16) (0u);
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
        mx = tm_plain_row (CLFX_SRC (src), x, y0 + j, mx);
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
                                      min (y0 + TM_BH, rect.w), n, mx,
                                      n == 8),
                       rect, nbx, blocks, ss).z
           != 0)
    return;
  /* The work-item's own counts, then one atomic addition per bin: an
   * atomic increment per pixel was half of this pass on PoCL (2048²:
   * 52 -> 27-35 ms without it). */
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
  tm_stats8 (CLFX_SRC (src), rect, nbx, as_float (scan[0].w), scale,
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
 * with a switch: PoCL ran the one with both bodies 2 ms slower (4096²
 * float, 76 -> 78 ms). */
#define TM_SCAN_STATS_ARGS                                                   \
  CLFX_SRC_ARGS (src), int4 rect, int nbx, __global const uint4 *scan,       \
    __global uint4 *blocks, __local uint4 *ss, float scale, float log_eps,   \
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
  if (blocks[TM_BLOCK_INDEX (rect, nbx)].z != 0)
    tm_stats8 (CLFX_SRC (src), rect, nbx, as_float (scan[0].w), scale,
               log_eps, partials, s, hist, lh, 0, 0);
}

/* The result linear float RGBA: its bytes are the floats the map makes,
 * stored as rows of floats. */
#define TM_DST_FLOAT_RGBA                                                    \
  (CLFX_CHANNELS == 4 && CLFX_DEPTH == CLFX_DEPTH_CODE_FLOAT                 \
   && ! CLFX_PREMUL && ! CLFX_SRGB)

/* reinhard05 keeps its range pass's colour in the result when both source
 * and result are linear float RGBA (and the image is one piece: the host
 * decides): the map then only normalises it, instead of computing the
 * photoreceptor again (a pass's worth of exp2 and log2 on PoCL). */
#define TM_KEEP (TM_FLOAT_RGBA_BUFFER && TM_DST_FLOAT_RGBA)

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
  float  m = as_float (scan[0].w);
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

/* tm_map with eight pixels of a row per work-item, in TM_MAP_ROWS rows
 * (tonemap.c's): the after histogram counted in the work-item's own
 * arrays and added to the group's once per bin (an atomic increment per
 * pixel costs PoCL about a quarter of the cheapest map).  In
 * TM_MAP_KEPT, the colour is reinhard05's that tm_range_keep_v left in
 * the result, only normalised here (the same operations as tm_mapc_8's
 * on the same values: the same bytes). */
#define TM_MAP_ROWS 16

/* What tm_map8 makes of a row's eight pixels: the operator's map, the
 * kept colour normalised, fattal02's map (fat_map8, with U, its width w,
 * f and saturation) or durand02's (tm_dmap8, with U its log luminance,
 * and the grid's cells). */
#define TM_MAP_OP     0
#define TM_MAP_KEPT   1
#define TM_MAP_FATTAL 2
#define TM_MAP_DURAND 3

/* The grid of durand02's CPU map: its blurred cells, the cell size in
 * pixels and the grid's dimensions (tm_base8). */
typedef struct
{
  __global const float4 *cells;
  int                    cell;
  int4                   dims;
} TmGrid;

inline void fat_map8 (float8 *r, float8 *g, float8 *b, int x, int y, int n,
                      __global const float *U, int w,
                      __global const float *p, __global const float *f,
                      float saturation);
inline void tm_dmap8 (float8 *r, float8 *g, float8 *b, int x, int y, int n,
                      __global const float *L, int w, TmGrid grid,
                      __global const float *p);

inline CLFX_ALWAYS_INLINE void
tm_map8 (CLFX_SRC_ARGS (src), CLFX_DST_ARGS, __global const uint4 *scan,
         float scale, int op, __global const float *p, __global uint *hist,
         __local uint *lh, int mode, __global const float *U, int w,
         __global const float *f, float saturation, TmGrid grid)
{
  int  gx = 8 * (int) get_global_id (0);
  int  gy0 = TM_MAP_ROWS * (int) get_global_id (1);
  uint ph[4 * TM_HA_N];

  tm_hist_zero (lh, TM_HA_N);
  tm_hist_zero4 (ph, TM_HA_N);
  for (int gy = gy0; gx < dst_rect.z && gy < min (gy0 + TM_MAP_ROWS,
                                                  dst_rect.w); gy++)
    {
      int    x = CLFX_DST_X (gx), y = CLFX_DST_Y (gy);
      int    n = min (8, dst_rect.z - gx);
      float8 r, g, b, a;

      if (mode != TM_MAP_KEPT)
        {
          tm_read8 (CLFX_SRC (src), x, y, n, as_float (scan[0].w), scale,
                    &r, &g, &b, &a);
          if (mode == TM_MAP_FATTAL)
            fat_map8 (&r, &g, &b, x, y, n, U, w, p, f, saturation);
          else if (mode == TM_MAP_DURAND)
            tm_dmap8 (&r, &g, &b, x, y, n, U, w, grid, p);
          else
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
      tm_hist_count8 (ph, TM_HA_N,
                      tm_hist_bin8 (tm_luminance8 (r, g, b), TM_HA_LO,
                                    TM_HA_N), n);
      tm_store8 (dst, dst_offset, dst_pitch, dst_rect, x, y, n, r, g, b, a);
    }
  tm_hist_add4 (ph, TM_HA_N, lh);
  tm_hist_flush (lh, TM_HA_N, hist);
}

__kernel void
tm_map_v (CLFX_SRC_ARGS (src), CLFX_DST_ARGS, __global const uint4 *scan,
          float scale, int op, __global const float *p, __global uint *hist,
          __local uint *lh)
{
  tm_map8 (CLFX_SRC (src), dst, dst_offset, dst_pitch, dst_rect, scan, scale,
           op, p, hist, lh, TM_MAP_OP, 0, 0, 0, 0.0f, (TmGrid) { 0 });
}

#if TM_KEEP
__kernel void
tm_map_kept_v (CLFX_SRC_ARGS (src), CLFX_DST_ARGS, __global const uint4 *scan,
               float scale, int op, __global const float *p,
               __global uint *hist, __local uint *lh)
{
  tm_map8 (CLFX_SRC (src), dst, dst_offset, dst_pitch, dst_rect, scan, scale,
           op, p, hist, lh, TM_MAP_KEPT, 0, 0, 0, 0.0f, (TmGrid) { 0 });
}
#endif

/* ---- durand02: base and detail through a bilateral grid ----------------------

 * L = log10 (max (Y, floor)) per pixel.  The grid's cells are cell x cell
 * pixels (x / cell, y / cell) by range sigma in L (z = (L - L0) / sigma):
 * each pixel adds (L, 1) to the two cells around its z with linear
 * weights (continuous in L), the grid is blurred by [1 4 6 4 1] / 16 along
 * each axis (zero outside), and the base B at a pixel is the grid's
 * sum L / weight interpolated trilinearly at ((x + 0.5) / cell - 0.5,
 * (y + 0.5) / cell - 0.5, z).  Then log10 out = (B - max B) c + detail
 * (L - B), c = contrast / (max B - min B). */

inline float
tm_dlum (float Y, __global const float *p)
{
  return log10 (fmax (Y, p[1]));
}

__kernel void
tm_dlog (CLFX_SRC_ARGS (src), int w, int h, __global const uint4 *scan,
         float scale, __global const float *p, __global float *L)
{
  int x = get_global_id (0), y = get_global_id (1);

  if (x >= w || y >= h)
    return;
  L[(long) y * w + x]
    = tm_dlum (tm_luminance (tm_read (CLFX_SRC (src), x, y,
                                      as_float (scan[0].w), scale)),
               p);
}

/* The CPU devices' form of tm_dlog (fattal02 0) and fat_h (fattal02 1):
 * eight pixels of a row a work-item, their log eight wide (4096² float on
 * PoCL: 213 -> 41 ms for durand02's, 201 -> 41 for fattal02's). */
__kernel void
tm_log_y_v (CLFX_SRC_ARGS (src), int w, int h, __global const uint4 *scan,
            float scale, __global const float *p, __global float *L,
            int fattal02)
{
  int    x = 8 * (int) get_global_id (0), y = get_global_id (1);
  int    n = min (8, w - x);
  float8 Y;

  if (n <= 0 || y >= h)
    return;
  Y = tm_read_y8 (CLFX_SRC (src), x, y, n, as_float (scan[0].w), scale);
  tm_put8 (L, (long) y * w + x, n,
           fattal02 ? log (p[0] * Y + 1e-4f) : log10 (fmax (Y, p[1])));
}

/* Work-item (z, cell, chunk): TM_CHUNK rows of the cell's pixels in row
 * order, each weighed by its linear weight for z, compensated sums, into
 * the chunk's partial.  The z work-items of one cell and chunk share a
 * group, so the pixels they all read come from its cache; the chunks give
 * a large cell's pixels to many work-items. */
#define TM_CHUNK 8

__kernel void
tm_splat (__global const float *L, int w, int h, int cell, int gx, int gy,
          int gz, int chunks, __global const float *p,
          __global float2 *part)
{
  int   z = get_global_id (0), c = get_global_id (1);
  int   k = c % chunks, cx = (c / chunks) % gx, cy = (c / chunks) / gx;
  int   j0 = cy * cell + k * TM_CHUNK;
  int   j1 = min (min (h, cy * cell + cell), j0 + TM_CHUNK);
  float sl = 0.0f, cl = 0.0f, sw = 0.0f, cw = 0.0f;
  float L0 = p[0], inv = p[2];

  if (z >= gz || c >= gx * gy * chunks)
    return;
  for (int j = j0; j < j1; j++)
    for (int i = cx * cell; i < min (w, cx * cell + cell); i++)
      {
        float l = L[(long) j * w + i];
        float zf = (l - L0) * inv, z0 = floor (zf), f = zf - z0;
        int   zi = (int) z0;
        float wgt = zi == z ? 1.0f - f : zi + 1 == z ? f : 0.0f;
        if (wgt > 0.0f)
          {
            tm_kahan (&sl, &cl, wgt * l);
            tm_kahan (&sw, &cw, wgt);
          }
      }
  part[(long) c * gz + z] = (float2) (sl, sw);
}

/* The CPU devices' form of tm_splat: work-item (cell, chunk) reads each
 * of its pixels once and adds it to the two z cells its weights fall on,
 * where tm_splat's gz work-items each read every pixel and weigh it for
 * their own z.  Every z's sums see the same pixels with the same weights
 * in the same order as there, so the partials are tm_splat's.  gz is at
 * most 122 (range-sigma >= 0.05, tonemap.c). */
#define TM_SPLAT_Z 128

__kernel void
tm_splat_v (__global const float *L, int w, int h, int cell, int gx, int gy,
            int gz, int chunks, __global const float *p,
            __global float2 *part)
{
  int   c = get_global_id (0);
  int   k = c % chunks, cx = (c / chunks) % gx, cy = (c / chunks) / gx;
  int   j0 = cy * cell + k * TM_CHUNK;
  int   j1 = min (min (h, cy * cell + cell), j0 + TM_CHUNK);
  int   i1 = min (w, cx * cell + cell);
  float sl[TM_SPLAT_Z], cl[TM_SPLAT_Z], sw[TM_SPLAT_Z], cw[TM_SPLAT_Z];
  float L0 = p[0], inv = p[2];

  if (c >= gx * gy * chunks || gz > TM_SPLAT_Z)
    return;
  for (int z = 0; z < gz; z++)
    sl[z] = cl[z] = sw[z] = cw[z] = 0.0f;
  for (int j = j0; j < j1; j++)
    for (int i = cx * cell; i < i1; i++)
      {
        float l = L[(long) j * w + i];
        float zf = (l - L0) * inv, z0 = floor (zf), f = zf - z0;
        int   zi = (int) z0;
        float w0 = 1.0f - f;
        if (zi >= 0 && zi < gz && w0 > 0.0f)
          {
            tm_kahan (&sl[zi], &cl[zi], w0 * l);
            tm_kahan (&sw[zi], &cw[zi], w0);
          }
        if (zi + 1 >= 0 && zi + 1 < gz && f > 0.0f)
          {
            tm_kahan (&sl[zi + 1], &cl[zi + 1], f * l);
            tm_kahan (&sw[zi + 1], &cw[zi + 1], f);
          }
      }
  for (int z = 0; z < gz; z++)
    part[(long) c * gz + z] = (float2) (sl[z], sw[z]);
}

/* A grid cell: its chunks' partials in order, compensated. */
__kernel void
tm_splat_sum (__global const float2 *part, int gx, int gy, int gz,
              int chunks, __global float4 *grid)
{
  long  i = get_global_id (0);
  int   z, cx, cy;
  float sl = 0.0f, cl = 0.0f, sw = 0.0f, cw = 0.0f;

  if (i >= (long) gx * gy * gz)
    return;
  cx = (int) (i % gx);
  cy = (int) ((i / gx) % gy);
  z = (int) (i / ((long) gx * gy));
  for (int k = 0; k < chunks; k++)
    {
      float2 v = part[((long) (cy * gx + cx) * chunks + k) * gz + z];
      tm_kahan (&sl, &cl, v.x);
      tm_kahan (&sw, &cw, v.y);
    }
  grid[i] = (float4) (sl, sw, 0.0f, 0.0f);
}

/* [1 4 6 4 1] / 16 along one axis (0 x, 1 y, 2 z), zero outside. */
__kernel void
tm_gblur (__global const float4 *in, __global float4 *out, int gx, int gy,
          int gz, int axis)
{
  long  i = get_global_id (0), n = (long) gx * gy * gz;
  int   x, y, z, at, len;
  long  step;
  float4 acc = (float4) (0.0f);

  if (i >= n)
    return;
  x = (int) (i % gx);
  y = (int) ((i / gx) % gy);
  z = (int) (i / ((long) gx * gy));
  at = axis == 0 ? x : axis == 1 ? y : z;
  len = axis == 0 ? gx : axis == 1 ? gy : gz;
  step = axis == 0 ? 1 : axis == 1 ? gx : (long) gx * gy;
  for (int k = -2; k <= 2; k++)
    if (at + k >= 0 && at + k < len)
      acc += (k == 0 ? 0.375f : (k == 1 || k == -1) ? 0.25f : 0.0625f)
             * in[i + k * step];
  out[i] = acc;
}

/* The base at pixel (x, y) of log luminance l: linear, one read through
 * the sampler's trilinear filter; else trilinear in the kernel from the
 * eight nearest cells (exact weights).  The pixel's place in the grid, in
 * cells, is ((x + 0.5) / cell, (y + 0.5) / cell, (l - L0) / sigma + 0.5).
 * The nearest form's arithmetic is defined for one pixel (_1, the GPU's,
 * from the image) and for eight of a row (_8, the CPU devices', from the
 * grid's buffer the image is made from: the same floats), each value of
 * the cells (sum of L, weight) on its own:
 *   tm_axis: along one axis, the two cells around place f, clamped into
 *     the n cells, and the weight of the second;
 *   tm_trilerp: the eight cells' values c (cell q at (q & 1, q >> 1 & 1,
 *     q >> 2) from the first), blended, then sum over weight, or l where
 *     the weight is 0. */
#define TM_DEFINE_BASE(T, I, CONVERT, S)                                     \
  inline CLFX_ALWAYS_INLINE T                                                \
  tm_axis##S (T f, int n, I *i0, I *i1)                                      \
  {                                                                          \
    T a = f - 0.5f, a0 = floor (a);                                          \
    *i0 = clamp (CONVERT (a0), 0, n - 1);                                    \
    *i1 = clamp (CONVERT (a0) + 1, 0, n - 1);                                \
    return a - a0;                                                           \
  }                                                                          \
                                                                             \
  inline CLFX_ALWAYS_INLINE T                                                \
  tm_blend##S (const T c[8], T tx, T ty, T tz)                               \
  {                                                                          \
    T c00 = (1.0f - tx) * c[0] + tx * c[1];                                  \
    T c10 = (1.0f - tx) * c[2] + tx * c[3];                                  \
    T c01 = (1.0f - tx) * c[4] + tx * c[5];                                  \
    T c11 = (1.0f - tx) * c[6] + tx * c[7];                                  \
    return (1.0f - tz) * ((1.0f - ty) * c00 + ty * c10)                      \
           + tz * ((1.0f - ty) * c01 + ty * c11);                            \
  }                                                                          \
                                                                             \
  inline CLFX_ALWAYS_INLINE T                                                \
  tm_trilerp##S (const T sum[8], const T wgt[8], T tx, T ty, T tz, T l)      \
  {                                                                          \
    T gs = tm_blend##S (sum, tx, ty, tz), gw = tm_blend##S (wgt, tx, ty, tz); \
    return gw > 0.0f ? gs / gw : l;                                          \
  }

TM_DEFINE_BASE (float, int, convert_int, _1)
TM_DEFINE_BASE (float8, int8, convert_int8, _8)

inline float
tm_base (read_only image3d_t grid, sampler_t smp, int linear, int cell,
         int4 dims, int x, int y, float l, __global const float *p)
{
  float fx = ((float) x + 0.5f) / (float) cell;
  float fy = ((float) y + 0.5f) / (float) cell;
  float fz = (l - p[0]) * p[2] + 0.5f;
  float tx, ty, tz, sum[8], wgt[8];
  int   i[2], j[2], k[2];

  if (linear)
    {
      float4 g = read_imagef (grid, smp, (float4) (fx, fy, fz, 0.0f));
      return g.y > 0.0f ? g.x / g.y : l;
    }
  tx = tm_axis_1 (fx, dims.x, &i[0], &i[1]);
  ty = tm_axis_1 (fy, dims.y, &j[0], &j[1]);
  tz = tm_axis_1 (fz, dims.z, &k[0], &k[1]);
  for (int q = 0; q < 8; q++)
    {
      float4 c = read_imagef (grid, smp, (int4) (i[q & 1], j[q >> 1 & 1],
                                                 k[q >> 2], 0));
      sum[q] = c.x;
      wgt[q] = c.y;
    }
  return tm_trilerp_1 (sum, wgt, tx, ty, tz, l);
}

/* The base's range over every pixel, per block, then tm_range_final. */
__kernel void
tm_drange (__global const float *L, int w, int h, read_only image3d_t grid,
           sampler_t smp, int linear, int cell, int4 dims,
           __global const float *p, __global float2 *partials,
           __local float2 *s)
{
  int    lx = get_local_id (0), bx = get_group_id (0), by = get_group_id (1);
  int    x = bx * TM_BW + lx, y0 = by * TM_BH;
  float2 r = (float2) (INFINITY, -INFINITY);

  if (x < w)
    for (int j = 0; j < TM_BH && y0 + j < h; j++)
      {
        float b = tm_base (grid, smp, linear, cell, dims, x, y0 + j,
                           L[(long) (y0 + j) * w + x], p);
        r = (float2) (fmin (r.x, b), fmax (r.y, b));
      }
  s[lx] = r;
  tm_tree_range (s, lx, TM_BW);
  if (lx == 0)
    partials[by * get_num_groups (0) + bx] = s[0];
}

__kernel void
tm_dmap (CLFX_SRC_ARGS (src), CLFX_DST_ARGS, __global const uint4 *scan,
         float scale, read_only image3d_t grid, sampler_t smp, int linear,
         int cell, int4 dims, __global const float *p, __global uint *hist,
         __local uint *lh)
{
  int gx = get_global_id (0), gy = get_global_id (1);

  tm_hist_zero (lh, TM_HA_N);
  if (gx < dst_rect.z && gy < dst_rect.w)
    {
      int    x = CLFX_DST_X (gx), y = CLFX_DST_Y (gy);
      float4 v = tm_read (CLFX_SRC (src), x, y, as_float (scan[0].w), scale);
      float  Y = tm_luminance (v);

      if (p[TM_P_BLACK] != 0.0f || ! (Y > 0.0f))
        v.xyz = (float3) (0.0f);
      else
        {
          float l = tm_dlum (Y, p);
          float b = tm_base (grid, smp, linear, cell, dims, x, y, l, p);
          float c = p[3] * p[14];
          float lo = (b - p[13]) * c + p[4] * (l - b);
          v.xyz *= exp10 (lo) / Y;
        }
      tm_store (dst, dst_offset, dst_pitch, dst_rect, x, y, v, lh);
    }
  tm_hist_flush (lh, TM_HA_N, hist);
}

/* The CPU devices' form of durand02's base, range and map: eight pixels
 * of a row a work-item (lanes past the row's end repeat its last pixel),
 * the base from the grid's buffer, cell (i, j, k) at (k gy + j) gx + i,
 * and the log luminance from L, which tm_log_y_v made eight wide with
 * the same operations as here (tm_dmap computes it again per pixel). */
inline CLFX_ALWAYS_INLINE float8
tm_base8 (TmGrid grid, int x, int y, int n, float8 l,
          __global const float *p)
{
  int8   lane = min ((int8) (0, 1, 2, 3, 4, 5, 6, 7), n - 1), i[2], k[2];
  float8 fx = (convert_float8 (x + lane) + 0.5f) / (float) grid.cell;
  float8 fz = (l - p[0]) * p[2] + 0.5f, sum[8], wgt[8];
  int    j[2];
  float8 tx = tm_axis_8 (fx, grid.dims.x, &i[0], &i[1]);
  float  ty = tm_axis_1 (((float) y + 0.5f) / (float) grid.cell, grid.dims.y,
                         &j[0], &j[1]);
  float8 tz = tm_axis_8 (fz, grid.dims.z, &k[0], &k[1]);
  __global const float4 *c = grid.cells;

  /* Each corner's eight cells gathered straight into its vectors, their
   * indices computed eight at once (ints: a grid has at most 2048 x 2048
   * x 122 cells, tonemap.c): through arrays, the lanes' stores and the
   * vector loads after them stalled on store forwarding (half of the
   * range pass on PoCL). */
#pragma unroll
  for (int q = 0; q < 8; q++)
    {
      int8 at = (k[q >> 2] * grid.dims.y + j[q >> 1 & 1]) * grid.dims.x
                + i[q & 1];
      sum[q] = (float8) (c[at.s0].x, c[at.s1].x, c[at.s2].x, c[at.s3].x,
                         c[at.s4].x, c[at.s5].x, c[at.s6].x, c[at.s7].x);
      wgt[q] = (float8) (c[at.s0].y, c[at.s1].y, c[at.s2].y, c[at.s3].y,
                         c[at.s4].y, c[at.s5].y, c[at.s6].y, c[at.s7].y);
    }
  return tm_trilerp_8 (sum, wgt, tx, (float8) (ty), tz, l);
}

__kernel void
tm_drange_v (__global const float *L, int w, int h,
             __global const float4 *cells, int cell, int4 dims,
             __global const float *p, __global float2 *partials,
             __local float2 *s)
{
  int    lx = get_local_id (0), bx = get_group_id (0), by = get_group_id (1);
  int    x = bx * TM_BW + 8 * lx, y0 = by * TM_BH;
  int    n = min (8, w - x);
  TmGrid grid = { cells, cell, dims };
  float8 lo = (float8) (INFINITY), hi = (float8) (-INFINITY);

  for (int j = 0; n > 0 && j < TM_BH && y0 + j < h; j++)
    {
      float8 b = tm_base8 (grid, x, y0 + j, n,
                           tm_get8 (L, (long) (y0 + j) * w + x, n), p);
      lo = fmin (lo, b);
      hi = fmax (hi, b);
    }
  /* Lanes past the row's end repeat its last pixel. */
  float4 l4 = fmin (lo.lo, lo.hi), h4 = fmax (hi.lo, hi.hi);
  s[lx] = (float2) (fmin (fmin (l4.x, l4.y), fmin (l4.z, l4.w)),
                    fmax (fmax (h4.x, h4.y), fmax (h4.z, h4.w)));
  tm_tree_range (s, lx, TM_BW / 8);
  if (lx == 0)
    partials[by * get_num_groups (0) + bx] = s[0];
}

/* tm_dmap's colour of eight pixels (r, g, b read and cleaned). */
inline CLFX_ALWAYS_INLINE void
tm_dmap8 (float8 *r, float8 *g, float8 *b, int x, int y, int n,
          __global const float *L, int w, TmGrid grid,
          __global const float *p)
{
  float8 Y = tm_luminance8 (*r, *g, *b);
  float8 l = tm_get8 (L, (long) y * w + x, n);
  float8 B = tm_base8 (grid, x, y, n, l, p);
  float8 m = exp10 ((B - p[13]) * (p[3] * p[14]) + p[4] * (l - B)) / Y;
  int8   black = p[TM_P_BLACK] != 0.0f || ! (Y > 0.0f);

  *r = black ? (float8) (0.0f) : *r * m;
  *g = black ? (float8) (0.0f) : *g * m;
  *b = black ? (float8) (0.0f) : *b * m;
}

__kernel void
tm_dmap_v (CLFX_SRC_ARGS (src), CLFX_DST_ARGS, __global const uint4 *scan,
           float scale, __global const float *L, int w,
           __global const float4 *cells, int cell, int4 dims,
           __global const float *p, __global uint *hist, __local uint *lh)
{
  tm_map8 (CLFX_SRC (src), dst, dst_offset, dst_pitch, dst_rect, scan, scale,
           TM_DURAND02, p, hist, lh, TM_MAP_DURAND, L, w, 0, 0.0f,
           (TmGrid) { cells, cell, dims });
}

/* ---- fattal02 ------------------------------------------------------------------ */

/* docs/TONEMAP.md's fattal02, step by step.  Every image here is one float
 * per pixel, row-major, w wide; "clamped" reads take the nearest pixel
 * inside.  p is tm_params's buffer (p0 = 100 / max Y), f fattal's own:
 *   f0 the mean of U, f1 f2 L at the two percentiles, f8 + k avg_k. */
#define FAT_MEAN 0
#define FAT_LO   1
#define FAT_HI   2
#define FAT_AVG  8
/* The radix selection: 11 + 11 + 10 bits of the order-preserving key. */
#define FAT_BINS 2048
#define FAT_SUM  256

inline int
fat_clamp (int v, int n)
{
  return v < 0 ? 0 : v >= n ? n - 1 : v;
}

/* 1: H = ln (100 Y / max Y + 1e-4). */
__kernel void
fat_h (CLFX_SRC_ARGS (src), int w, int h, __global const uint4 *scan,
       float scale, __global const float *p, __global float *H)
{
  int x = get_global_id (0), y = get_global_id (1);

  if (x >= w || y >= h)
    return;
  H[(long) y * w + x]
    = log (p[0] * tm_luminance (tm_read (CLFX_SRC (src), x, y,
                                         as_float (scan[0].w), scale))
           + 1e-4f);
}

/* 2: the next pyramid level, the 2 x 2 mean of the [1 2 1] / 4 blur in x
 * and y: the product kernel [1 3 3 1] / 8 per axis over rows and columns
 * 2 x - 1 .. 2 x + 2 (each blur tap clamped). */
__kernel void
fat_down (__global const float *P, int w, int h, __global float *Q, int w2,
          int h2)
{
  int         x = get_global_id (0), y = get_global_id (1);
  const float c[4] = { 1.0f, 3.0f, 3.0f, 1.0f };
  float       s = 0.0f;

  if (x >= w2 || y >= h2)
    return;
  for (int j = 0; j < 4; j++)
    {
      __global const float *row = P + (long) fat_clamp (2 * y - 1 + j, h) * w;
      float r = 0.0f;
      for (int i = 0; i < 4; i++)
        r += c[i] * row[fat_clamp (2 * x - 1 + i, w)];
      s += c[j] * r;
    }
  Q[(long) y * w2 + x] = s * (1.0f / 64.0f);
}

/* fat_down in the CPU devices' form: eight results of a row a work-item
 * (past the row's end, copies of its last), each tap's eight texels (every
 * other one) as the even floats of sixteen where the row holds them, the
 * same operations in the same order a lane: fat_down's floats. */
__kernel void
fat_down_v (__global const float *P, int w, int h, __global float *Q,
            int w2, int h2)
{
  int         x = 8 * (int) get_global_id (0), y = get_global_id (1);
  int         n = min (8, w2 - x);
  const float c[4] = { 1.0f, 3.0f, 3.0f, 1.0f };
  float8      s = (float8) (0.0f);

  if (n <= 0 || y >= h2)
    return;
  for (int j = 0; j < 4; j++)
    {
      __global const float *row = P + (long) fat_clamp (2 * y - 1 + j, h) * w;
      float8 r = (float8) (0.0f);
      for (int i = 0; i < 4; i++)
        {
          /* Lane k's texel: column c0 + 2k, clamped. */
          int    c0 = 2 * x - 1 + i;
          float8 t;
          if (n == 8 && c0 >= 0 && c0 + 15 < w)
            t = vload16 (0, row + c0).even;
          else
            {
              float u[8];
              for (int k = 0; k < 8; k++)
                u[k] = row[fat_clamp (c0 + 2 * min (k, n - 1), w)];
              t = vload8 (0, u);
            }
          r += c[i] * t;
        }
      s += c[j] * r;
    }
  tm_put8 (Q, (long) y * w2 + x, n, s * (1.0f / 64.0f));
}

/* 3: the gradient's magnitude at level k, central differences over
 * 2^(k + 1) (inv = 2^-(k + 1)). */
inline CLFX_ALWAYS_INLINE void
fat_grad1 (__global const float *P, int w, int h, float inv,
           __global float *G, int x, int y)
{
  __global const float *row = P + (long) y * w;
  float gx = (row[fat_clamp (x + 1, w)] - row[fat_clamp (x - 1, w)]) * inv;
  float gy = (P[(long) fat_clamp (y + 1, h) * w + x]
              - P[(long) fat_clamp (y - 1, h) * w + x]) * inv;
  G[(long) y * w + x] = sqrt (gx * gx + gy * gy);
}

__kernel void
fat_grad (__global const float *P, int w, int h, float inv,
          __global float *G)
{
  int x = get_global_id (0), y = get_global_id (1);

  if (x < w && y < h)
    fat_grad1 (P, w, h, inv, G, x, y);
}

/* The CPU devices' form: eight pixels of a row a work-item, as vectors
 * where no column is clamped (fat_grad1's operations written the same
 * way: the same bits), else pixel by pixel. */
__kernel void
fat_grad_v (__global const float *P, int w, int h, float inv,
            __global float *G)
{
  int x = 8 * (int) get_global_id (0), y = get_global_id (1);
  int n = min (8, w - x);

  if (n <= 0 || y >= h)
    return;
  if (n == 8 && x >= 1 && x + 8 < w)
    {
      __global const float *row = P + (long) y * w + x;
      float8 gx = (vload8 (0, row + 1) - vload8 (0, row - 1)) * inv;
      float8 gy = (vload8 (0, P + (long) fat_clamp (y + 1, h) * w + x)
                   - vload8 (0, P + (long) fat_clamp (y - 1, h) * w + x))
                  * inv;
      vstore8 (sqrt (gx * gx + gy * gy), 0, G + (long) y * w + x);
      return;
    }
  for (int k = 0; k < n; k++)
    fat_grad1 (P, w, h, inv, G, x + k, y);
}

/* A deterministic sum of n floats: group g of FAT_SUM work-items owns the
 * chunk [g chunk, (g + 1) chunk), each work-item a strided compensated
 * sum, then a tree; fat_sum_final adds the groups' partials the same way
 * and writes sum * mul into f[slot]. */
/* The tree over the FAT_SUM values in s, by nl work-items. */
inline float
fat_tree_of (__local float *s, int lx, int nl)
{
  for (int span = FAT_SUM / 2; span > 0; span /= 2)
    {
      barrier (CLK_LOCAL_MEM_FENCE);
      for (int i = lx; i < span; i += nl)
        s[i] += s[i + span];
    }
  barrier (CLK_LOCAL_MEM_FENCE);
  return s[0];
}

inline float
fat_tree (__local float *s, int lx, float v)
{
  s[lx] = v;
  return fat_tree_of (s, lx, FAT_SUM);
}

__kernel void
fat_sum (__global const float *v, long n, long chunk,
         __global float *partials, __local float *s)
{
  int   lx = get_local_id (0), g = get_group_id (0);
  long  a = (long) g * chunk, b = min (a + chunk, n);
  float sum = 0.0f, comp = 0.0f, t;

  for (long i = a + lx; i < b; i += FAT_SUM)
    tm_kahan (&sum, &comp, v[i]);
  t = fat_tree (s, lx, sum);
  if (lx == 0)
    partials[g] = t;
}

/* fat_sum in the CPU devices' form: FAT_SUM / 8 work-items a group, each
 * the sums of eight of fat_sum's work-items, a lane each (past the chunk's
 * end a lane is left as it is), then the same tree: fat_sum's partials. */
__kernel void
fat_sum_v (__global const float *v, long n, long chunk,
           __global float *partials, __local float *s)
{
  int    lx = get_local_id (0), g = get_group_id (0);
  long   a = (long) g * chunk, b = min (a + chunk, n);
  float8 sum = (float8) (0.0f), comp = (float8) (0.0f);
  int8   lane = (int8) (0, 1, 2, 3, 4, 5, 6, 7);

  for (long i = a + 8 * lx; i < b; i += FAT_SUM)
    {
      float8 x, y, t;
      int8   in = (int8) (b - i > 8 ? 8 : (int) (b - i)) > lane;
      if (b - i >= 8)
        x = vload8 (0, v + i);
      else
        {
          float u[8];
          for (int k = 0; k < 8; k++)
            u[k] = v[i + min ((long) k, b - i - 1)];
          x = vload8 (0, u);
        }
      /* tm_kahan, a lane per work-item of fat_sum's. */
      y = x - comp;
      t = sum + y;
      comp = in ? (t - sum) - y : comp;
      sum = in ? t : sum;
    }
  vstore8 (sum, lx, s);
  float t = fat_tree_of (s, lx, FAT_SUM / 8);
  if (lx == 0)
    partials[g] = t;
}

__kernel void
fat_sum_final (__global const float *partials, int n, float mul,
               __global float *f, int slot, __local float *s)
{
  int   lx = get_local_id (0);
  float sum = 0.0f, comp = 0.0f, t;

  for (int i = lx; i < n; i += FAT_SUM)
    tm_kahan (&sum, &comp, partials[i]);
  t = fat_tree (s, lx, sum);
  if (lx == 0)
    f[slot] = t * mul;
}

/* 3 and 4: Phi at level k = phi_k times the [1 2 1] blur of the coarser
 * level's Phi upsampled to nearest (coarsest: C is not read); phi =
 * (a / (g + noise))^(1 - beta), which is GEGL's a / (g + noise) ((g +
 * noise) / a)^beta, where g > 1e-4. */
/* The [1 2 1] blur per axis of C (wc x hc) at (x, y) of the finer level
 * (w x h), rows then columns. */
inline CLFX_ALWAYS_INLINE float
fat_phi_base (__global const float *C, int w, int h, int wc, int hc, int x,
              int y)
{
  int xm = min (fat_clamp (x - 1, w) / 2, wc - 1);
  int x0 = min (x / 2, wc - 1), xp = min (fat_clamp (x + 1, w) / 2, wc - 1);
  __global const float *rm = C + (long) min (fat_clamp (y - 1, h) / 2,
                                             hc - 1) * wc;
  __global const float *r0 = C + (long) min (y / 2, hc - 1) * wc;
  __global const float *rp = C + (long) min (fat_clamp (y + 1, h) / 2,
                                             hc - 1) * wc;
  float base = (rm[xm] + 2.0f * rm[x0] + rm[xp])
               + 2.0f * (r0[xm] + 2.0f * r0[x0] + r0[xp])
               + (rp[xm] + 2.0f * rp[x0] + rp[xp]);

  return base * (1.0f / 16.0f);
}

__kernel void
fat_phi (__global const float *G, int w, int h, __global const float *C,
         int wc, int hc, int coarsest, __global const float *f, int k,
         float alpha, float beta, float noise, __global float *Phi)
{
  int   x = get_global_id (0), y = get_global_id (1);
  float g, a, phi = 1.0f;

  if (x >= w || y >= h)
    return;
  g = G[(long) y * w + x];
  a = alpha * f[FAT_AVG + k];
  /* exp2 (e log2 x), not powr: the same within a few ulp here (|e log2
   * x| stays small) and 3.7x faster on PoCL, whose powr is a scalar
   * call (measured 395 against 106 ms for the 2048² pyramid). */
  if (g > 1e-4f)
    phi = exp2 ((1.0f - beta) * log2 (a / (g + noise)));
  Phi[(long) y * w + x]
    = phi * (coarsest ? 1.0f : fat_phi_base (C, w, h, wc, hc, x, y));
}

/* fat_phi in the CPU devices' form: eight pixels of a row a work-item,
 * phi eight wide (4096² float on PoCL: 253 -> 95-99 ms for the pyramid). */
__kernel void
fat_phi_v (__global const float *G, int w, int h, __global const float *C,
           int wc, int hc, int coarsest, __global const float *f, int k,
           float alpha, float beta, float noise, __global float *Phi)
{
  int    x = 8 * (int) get_global_id (0), y = get_global_id (1);
  int    n = min (8, w - x);
  float  t[8], a = alpha * f[FAT_AVG + k];
  float8 g, phi;

  if (n <= 0 || y >= h)
    return;
  g = tm_get8 (G, (long) y * w + x, n);
  phi = g > 1e-4f ? exp2 ((1.0f - beta) * log2 (a / (g + noise)))
                  : (float8) (1.0f);
  if (n == 8 && ! coarsest && x >= 2 && x + 8 < w && x / 2 + 7 <= wc)
    {
      /* Inside: fat_phi_base's sums for the eight pixels at once from
       * coarse columns x / 2 - 1 .. x / 2 + 4 of each row (no clamps
       * there), in its order: the same bits (a product by 2 or 1/16 is
       * exact, fused or not). */
      int c = x / 2 - 1;
      float8 rm = vload8 (0, C + (long) min (fat_clamp (y - 1, h) / 2,
                                             hc - 1) * wc + c);
      float8 r0 = vload8 (0, C + (long) min (y / 2, hc - 1) * wc + c);
      float8 rp = vload8 (0, C + (long) min (fat_clamp (y + 1, h) / 2,
                                             hc - 1) * wc + c);
      float8 base = (rm.s01122334 + 2.0f * rm.s11223344 + rm.s12233445)
                    + 2.0f * (r0.s01122334 + 2.0f * r0.s11223344
                              + r0.s12233445)
                    + (rp.s01122334 + 2.0f * rp.s11223344 + rp.s12233445);
      vstore8 (phi * (base * (1.0f / 16.0f)), 0,
               Phi + (long) y * w + x);
      return;
    }
  vstore8 (phi, 0, t);
  for (int j = 0; j < n; j++)
    Phi[(long) y * w + x + j]
      = t[j] * (coarsest ? 1.0f
                         : fat_phi_base (C, w, h, wc, hc, x + j, y));
}

/* 5: the divergence of the attenuated forward differences. */
inline float
fat_gx (__global const float *H, __global const float *FI, int w, int x,
        long row)
{
  return (H[row + min (x + 1, w - 1)] - H[row + x]) * FI[row + x];
}

inline CLFX_ALWAYS_INLINE void
fat_div1 (__global const float *H, __global const float *FI, int w, int h,
          __global float *F, int x, int y)
{
  long row = (long) y * w, at = row + x;
  float d;

  d = fat_gx (H, FI, w, x, row)
      + (H[(long) min (y + 1, h - 1) * w + x] - H[at]) * FI[at];
  if (x > 0)
    d -= fat_gx (H, FI, w, x - 1, row);
  if (y > 0)
    d -= (H[at] - H[at - w]) * FI[at - w];
  F[at] = d;
}

__kernel void
fat_div (__global const float *H, __global const float *FI, int w, int h,
         __global float *F)
{
  int x = get_global_id (0), y = get_global_id (1);

  if (x < w && y < h)
    fat_div1 (H, FI, w, h, F, x, y);
}

/* fat_gx of the eight pixels from at, none of them in the last column. */
inline CLFX_ALWAYS_INLINE float8
fat_gx8 (__global const float *H, __global const float *FI, long at)
{
  return (vload8 (0, H + at + 1) - vload8 (0, H + at)) * vload8 (0, FI + at);
}

/* The CPU devices' form: eight pixels of a row a work-item, as vectors
 * where every pixel has its four neighbours (fat_div1's operations
 * written the same way: the same bits), else pixel by pixel. */
__kernel void
fat_div_v (__global const float *H, __global const float *FI, int w, int h,
           __global float *F)
{
  int x = 8 * (int) get_global_id (0), y = get_global_id (1);
  int n = min (8, w - x);

  if (n <= 0 || y >= h)
    return;
  if (n == 8 && x >= 1 && x + 8 < w && y > 0)
    {
      long   at = (long) y * w + x;
      float8 h0 = vload8 (0, H + at), d;
      d = fat_gx8 (H, FI, at)
          + (vload8 (0, H + (long) min (y + 1, h - 1) * w + x) - h0)
              * vload8 (0, FI + at);
      d -= fat_gx8 (H, FI, at - 1);
      d -= (h0 - vload8 (0, H + at - w)) * vload8 (0, FI + at - w);
      vstore8 (d, 0, F + at);
      return;
    }
  for (int k = 0; k < n; k++)
    fat_div1 (H, FI, w, h, F, x + k, y);
}

/* 6: the multigrid (docs/TONEMAP.md).  One half sweep of red-black Gauss-
 * Seidel: work-item (i, y) updates the cell of colour `colour` in the
 * pair of columns 2 i, 2 i + 1; `zero` starts from U = 0 (the neighbours
 * read 0, and the pair's other cell is set to 0). */
inline CLFX_ALWAYS_INLINE void
fat_sweep1 (__global float *U, __global const float *F, int w, int h,
            int colour, int zero, int i, int y)
{
  int   x = 2 * i + ((y + colour) & 1), o = 2 * i + 1 - ((y + colour) & 1);
  long  at = (long) y * w + x;
  float s = 0.0f;
  int   n = 0;

  if (zero && o < w)
    U[(long) y * w + o] = 0.0f;
  if (x >= w)
    return;
  if (x > 0)
    s += zero ? 0.0f : U[at - 1], n++;
  if (x + 1 < w)
    s += zero ? 0.0f : U[at + 1], n++;
  if (y > 0)
    s += zero ? 0.0f : U[at - w], n++;
  if (y + 1 < h)
    s += zero ? 0.0f : U[at + w], n++;
  if (n > 0)
    U[at] = (s - F[at]) / (float) n;
  else if (zero)
    U[at] = 0.0f;
}

__kernel void
fat_sweep (__global float *U, __global const float *F, int w, int h,
           int colour, int zero)
{
  int i = get_global_id (0), y = get_global_id (1);

  if (y < h)
    fat_sweep1 (U, F, w, h, colour, zero, i, y);
}

/* The CPU devices' form: work-item (i, y) updates the eight cells of its
 * colour in columns 16 i .. 16 i + 15, eight wide where all four
 * neighbours of each are inside (fat_sweep's operations in its order, so
 * the same bits), else one by one as fat_sweep.  Each neighbour row is
 * read as sixteen floats whose even lanes are the neighbours; the odd
 * lanes are cells of the colour being written, by this work-item or its
 * neighbours, and are not used (OpenCL 1.2's relaxed memory model gives
 * such a read an undefined value, nothing more).  4096² float on PoCL:
 * the sweeps 914 ms, then 452-482 reading the neighbours one by one,
 * 216-218 so. */
#define FAT_SWEEP_V 8

__kernel void
fat_sweep_v (__global float *U, __global const float *F, int w, int h,
             int colour, int zero)
{
  int i = FAT_SWEEP_V * (int) get_global_id (0), y = get_global_id (1);
  int x = 2 * i + ((y + colour) & 1);

  if (y >= h)
    return;
  if (! zero && y > 0 && y + 1 < h && x > 0
      && x + 2 * (FAT_SWEEP_V - 1) + 1 < w)
    {
      __global float       *u = U + (long) y * w + x;
      __global const float *f = F + (long) y * w + x;
      float8 s = 0.0f + vload16 (0, u - 1).even;
      s += vload16 (0, u + 1).even;
      s += vload16 (0, u - w).even;
      s += vload16 (0, u + w).even;
      s = (s - vload16 (0, f).even) / 4.0f;
      /* Stored lane by lane from the vector (through an array and a loop,
       * PoCL kept them in memory). */
      u[0] = s.s0;
      u[2] = s.s1;
      u[4] = s.s2;
      u[6] = s.s3;
      u[8] = s.s4;
      u[10] = s.s5;
      u[12] = s.s6;
      u[14] = s.s7;
      return;
    }
  for (int k = 0; k < FAT_SWEEP_V; k++)
    fat_sweep1 (U, F, w, h, colour, zero, i + k, y);
}

/* with_u: F - A U, else F; restricted: 4 / (cx cy) x the sum over the
 * coarse cell's fine cells inside the grid (cx = 2, or 1 for a grid one
 * cell wide; cy alike): 4 x the mean of a whole cell, the total kept
 * where an odd edge leaves a cell half full. */
inline float
fat_defect (__global const float *U, __global const float *F, int w, int h,
            int x, int y, int with_u)
{
  long  at = (long) y * w + x;
  float u, a = 0.0f;

  if (! with_u)
    return F[at];
  u = U[at];
  if (x > 0)
    a += U[at - 1] - u;
  if (x + 1 < w)
    a += U[at + 1] - u;
  if (y > 0)
    a += U[at - w] - u;
  if (y + 1 < h)
    a += U[at + w] - u;
  return F[at] - a;
}

inline CLFX_ALWAYS_INLINE void
fat_restrict1 (__global const float *U, __global const float *F, int w,
               int h, int with_u, __global float *Fc, int wc, int X, int Y)
{
  float s = 0.0f;
  float k = 4.0f / (float) ((w > 1 ? 2 : 1) * (h > 1 ? 2 : 1));

  for (int j = 0; j < 2; j++)
    for (int i = 0; i < 2; i++)
      if (2 * X + i < w && 2 * Y + j < h)
        s += fat_defect (U, F, w, h, 2 * X + i, 2 * Y + j, with_u);
  Fc[(long) Y * wc + X] = k * s;
}

__kernel void
fat_restrict (__global const float *U, __global const float *F, int w, int h,
              int with_u, __global float *Fc, int wc, int hc)
{
  int X = get_global_id (0), Y = get_global_id (1);

  if (X < wc && Y < hc)
    fat_restrict1 (U, F, w, h, with_u, Fc, wc, X, Y);
}

/* The CPU devices' form: work-item (i, Y) restricts the eight coarse
 * cells from FAT_SWEEP_V i, sixteen fine columns of two rows, sixteen wide
 * where every fine cell and its four neighbours are inside (fat_defect's
 * and fat_restrict's operations in their order), else one by one. */
__kernel void
fat_restrict_v (__global const float *U, __global const float *F, int w,
                int h, int with_u, __global float *Fc, int wc, int hc)
{
  int X = FAT_SWEEP_V * (int) get_global_id (0), Y = get_global_id (1);
  int x = 2 * X;

  if (Y >= hc)
    return;
  if (Y > 0 && 2 * Y + 2 < h && x > 0 && x + 2 * FAT_SWEEP_V < w)
    {
      float16 d[2];
      for (int j = 0; j < 2; j++)
        {
          long                  at = (long) (2 * Y + j) * w + x;
          __global const float *u = U + at;
          float16               c = vload16 (0, u), a;
          a = 0.0f + (vload16 (0, u - 1) - c);
          a += vload16 (0, u + 1) - c;
          a += vload16 (0, u - w) - c;
          a += vload16 (0, u + w) - c;
          d[j] = with_u ? vload16 (0, F + at) - a : vload16 (0, F + at);
        }
      float8 s = 0.0f + d[0].even;
      s += d[0].odd;
      s += d[1].even;
      s += d[1].odd;
      /* fat_restrict's factor k is 1 here. */
      vstore8 (s, 0, Fc + (long) Y * wc + X);
      return;
    }
  for (int k = 0; k < FAT_SWEEP_V && X + k < wc; k++)
    fat_restrict1 (U, F, w, h, with_u, Fc, wc, X + k, Y);
}

/* U (+)= the bilinear prolongation of the coarse grid's Uc. */
inline CLFX_ALWAYS_INLINE void
fat_prolong1 (__global const float *Uc, int wc, int hc, __global float *U,
              int w, int add, int x, int y)
{
  int   X = x / 2, Y = y / 2;
  int   X1 = fat_clamp (X + ((x & 1) ? 1 : -1), wc);
  int   Y1 = fat_clamp (Y + ((y & 1) ? 1 : -1), hc);
  long  at = (long) y * w + x;
  float v;

  v = 0.5625f * Uc[(long) Y * wc + X] + 0.1875f * Uc[(long) Y * wc + X1]
      + 0.1875f * Uc[(long) Y1 * wc + X] + 0.0625f * Uc[(long) Y1 * wc + X1];
  U[at] = add ? U[at] + v : v;
}

__kernel void
fat_prolong (__global const float *Uc, int wc, int hc, __global float *U,
             int w, int h, int add)
{
  int x = get_global_id (0), y = get_global_id (1);

  if (x < w && y < h)
    fat_prolong1 (Uc, wc, hc, U, w, add, x, y);
}

/* The CPU devices' form: work-item (i, y) makes sixteen fine cells from
 * 16 i, eight wide for the even columns and eight for the odd ones where
 * their coarse neighbours are inside (fat_prolong's operations in its
 * order), else one by one. */
__kernel void
fat_prolong_v (__global const float *Uc, int wc, int hc, __global float *U,
               int w, int h, int add)
{
  int x = 2 * FAT_SWEEP_V * (int) get_global_id (0), y = get_global_id (1);
  int X = x / 2, Y = y / 2;

  if (y >= h)
    return;
  if (X > 0 && X + FAT_SWEEP_V < wc && x + 2 * FAT_SWEEP_V <= w)
    {
      int                   Y1 = fat_clamp (Y + ((y & 1) ? 1 : -1), hc);
      __global const float *c = Uc + (long) Y * wc + X;
      __global const float *d = Uc + (long) Y1 * wc + X;
      __global float       *u = U + (long) y * w + x;
      float8 c0 = vload8 (0, c), d0 = vload8 (0, d);
      /* Even columns take the coarse neighbour to the left, odd ones
       * the one to the right. */
      float8 ve = 0.5625f * c0 + 0.1875f * vload8 (0, c - 1)
                  + 0.1875f * d0 + 0.0625f * vload8 (0, d - 1);
      float8 vo = 0.5625f * c0 + 0.1875f * vload8 (0, c + 1)
                  + 0.1875f * d0 + 0.0625f * vload8 (0, d + 1);
      float16 v = shuffle2 (ve, vo,
                            (uint16) (0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5,
                                      13, 6, 14, 7, 15));
      vstore16 (add ? vload16 (0, u) + v : v, 0, u);
      return;
    }
  for (int k = 0; k < 2 * FAT_SWEEP_V && x + k < w; k++)
    fat_prolong1 (Uc, wc, hc, U, w, add, x + k, y);
}

/* The coarsest grid (at most 8 x 8 cells), one work-group of 64: U = B (F
 * - mean F), B = (A - J / n)^-1 made by the host in double (A's pseudo-
 * inverse on F's mean-free part: the exact solve), then U minus its mean
 * (what the float product leaves of it).  No loop holds a barrier: PoCL
 * 6.0 compiled the earlier 512-step red-black loop around a barrier wrong
 * about one compile in 15 (docs/TONEMAP.md). */
#define FAT_COARSE 64

__kernel void
fat_coarse (__global float *U, __global const float *F, int w, int h,
            __global const float *B)
{
  __local float v[FAT_COARSE];
  int           lx = get_local_id (0), n = w * h;
  float         mean = 0.0f, u = 0.0f;

  v[lx] = lx < n ? F[lx] : 0.0f;
  barrier (CLK_LOCAL_MEM_FENCE);
  for (int i = 0; i < n; i++)
    mean += v[i];
  mean /= (float) n;
  if (lx < n)
    for (int j = 0; j < n; j++)
      u += B[lx * n + j] * (v[j] - mean);
  barrier (CLK_LOCAL_MEM_FENCE);
  v[lx] = u;
  barrier (CLK_LOCAL_MEM_FENCE);
  mean = 0.0f;
  for (int i = 0; i < n; i++)
    mean += v[i];
  if (lx < n)
    U[lx] = u - mean / (float) n;
}

/* U minus its mean (f0). */
__kernel void
fat_center (__global float *U, long n, __global const float *f)
{
  long i = get_global_id (0);

  if (i < n)
    U[i] -= f[FAT_MEAN];
}

/* 7: the percentiles, by radix selection on U (exp is increasing, so L's
 * ranks are U's): the key is U's bits made to sort as unsigned integers;
 * three passes of 11, 11 and 10 bits each count, for both ranks, the keys
 * that match the bits found so far (sel: key prefix, remaining rank, for
 * lo then hi), then fat_select finds the bin holding the rank.  Counts
 * are integers: the same whatever order the atomics take. */
inline uint
fat_key (float v)
{
  uint k = as_uint (v);

  return (k & 0x80000000u) ? ~k : k | 0x80000000u;
}

inline float
fat_unkey (uint k)
{
  return as_float ((k & 0x80000000u) ? k & 0x7fffffffu : ~k);
}

/* The selection's prefixes so far (known bits of the key, 0 in the first
 * pass) of the two percentiles. */
inline void
fat_tops (__global const uint *sel, int known, uint top[2])
{
  for (int t = 0; t < 2; t++)
    top[t] = known ? sel[2 * t] >> (32 - known) : 0;
}

/* Which of the two histograms value u counts in (bit t for percentile t:
 * its key's known bits are that prefix), and its bin there. */
inline int
fat_which (float u, int known, int shift, const uint top[2], uint *bin)
{
  uint k = fat_key (u);
  int  m = 0;

  *bin = (k >> shift) & (FAT_BINS - 1);
  for (int t = 0; t < 2; t++)
    if (! known || (k >> (32 - known)) == top[t])
      m |= 1 << t;
  return m;
}

__kernel void
fat_hist (__global const float *U, long n, long chunk,
          __global const uint *sel, int known, int shift,
          __global uint *hist, __local uint *lh)
{
  int  lx = get_local_id (0), nl = get_local_size (0), g = get_group_id (0);
  long a = (long) g * chunk, b = min (a + chunk, n);
  uint top[2], bin;

  for (int i = lx; i < 2 * FAT_BINS; i += nl)
    lh[i] = 0;
  fat_tops (sel, known, top);
  barrier (CLK_LOCAL_MEM_FENCE);
  for (long i = a + lx; i < b; i += nl)
    {
      int m = fat_which (U[i], known, shift, top, &bin);
      for (int t = 0; t < 2; t++)
        if (m & 1 << t)
          atomic_inc (&lh[t * FAT_BINS + bin]);
    }
  barrier (CLK_LOCAL_MEM_FENCE);
  for (int i = lx; i < 2 * FAT_BINS; i += nl)
    if (lh[i])
      atomic_add (&hist[i], lh[i]);
}

/* fat_hist in the CPU devices' form: one work-item a group, which counts
 * its chunk into the group's counts with plain increments (PoCL's local
 * atomic increments took most of fat_hist's time), in the first pass
 * (nothing known, the two histograms alike) once.  The counts are
 * fat_hist's. */
__kernel void
fat_hist_v (__global const float *U, long n, long chunk,
            __global const uint *sel, int known, int shift,
            __global uint *hist, __local uint *lh)
{
  long a = (long) get_group_id (0) * chunk, b = min (a + chunk, n);
  uint top[2], bin;

  for (int i = 0; i < 2 * FAT_BINS; i++)
    lh[i] = 0;
  fat_tops (sel, known, top);
  for (long i = a; i < b; i++)
    {
      int m = fat_which (U[i], known, shift, top, &bin);
      if (m & 1)
        lh[bin]++;
      if (known && (m & 2))
        lh[FAT_BINS + bin]++;
    }
  for (int i = 0; i < 2 * FAT_BINS; i++)
    {
      uint c = known || i < FAT_BINS ? lh[i] : lh[i - FAT_BINS];
      if (c)
        atomic_add (&hist[i], c);
    }
}

/* One work-group of FAT_SUM: each work-item adds 8 bins, work-item 0 walks
 * the sums and then the bins.  rank_lo, rank_hi: the ranks (first pass);
 * the last pass (shift 0) writes L at both percentiles into f. */
__kernel void
fat_select (__global const uint *hist, __global uint *sel, int known,
            int shift, uint rank_lo, uint rank_hi, __global float *f,
            __local uint *s)
{
  int lx = get_local_id (0);

  for (int t = 0; t < 2; t++)
    {
      uint c = 0;
      for (int i = 0; i < FAT_BINS / FAT_SUM; i++)
        c += hist[t * FAT_BINS + lx * (FAT_BINS / FAT_SUM) + i];
      s[t * FAT_SUM + lx] = c;
    }
  barrier (CLK_LOCAL_MEM_FENCE);
  if (lx != 0)
    return;
  for (int t = 0; t < 2; t++)
    {
      uint prefix = known ? sel[2 * t] : 0;
      uint rank = known ? sel[2 * t + 1] : t ? rank_hi : rank_lo;
      int  j = 0, bin;
      while (j < FAT_SUM - 1 && rank >= s[t * FAT_SUM + j])
        rank -= s[t * FAT_SUM + j++];
      bin = j * (FAT_BINS / FAT_SUM);
      while (bin < (j + 1) * (FAT_BINS / FAT_SUM) - 1
             && rank >= hist[t * FAT_BINS + bin])
        rank -= hist[t * FAT_BINS + bin++];
      prefix |= (uint) bin << shift;
      sel[2 * t] = prefix;
      sel[2 * t + 1] = rank;
      if (shift == 0)
        f[t ? FAT_HI : FAT_LO] = exp (fat_unkey (prefix)) - 1e-4f;
    }
}

/* 7 and 8: out = (L - lo) / (hi - lo) (1e-4 where <= 0; 1 when hi = lo),
 * colour out (c / Y)^saturation, 0 where Y = 0. */
__kernel void
fat_map (CLFX_SRC_ARGS (src), CLFX_DST_ARGS, __global const uint4 *scan,
         float scale, __global const float *U, int w,
         __global const float *p, __global const float *f, float saturation,
         __global uint *hist, __local uint *lh)
{
  int gx = get_global_id (0), gy = get_global_id (1);

  tm_hist_zero (lh, TM_HA_N);
  if (gx < dst_rect.z && gy < dst_rect.w)
    {
      int    x = CLFX_DST_X (gx), y = CLFX_DST_Y (gy);
      float4 v = tm_read (CLFX_SRC (src), x, y, as_float (scan[0].w), scale);
      float  Y = tm_luminance (v);

      if (p[TM_P_BLACK] != 0.0f || ! (Y > 0.0f))
        v.xyz = (float3) (0.0f);
      else
        {
          float range = f[FAT_HI] - f[FAT_LO];
          float L = exp (U[(long) y * w + x]) - 1e-4f;
          float out = range > 0.0f ? (L - f[FAT_LO]) / range : 1.0f;
          out = out > 0.0f ? out : 1e-4f;
          /* (c / Y)^saturation as exp2 (s log2 (c / Y)), as in fat_phi
           * (c = 0: exp2 (-inf) = 0). */
          if (saturation == 0.0f)
            v.xyz = (float3) (out);
          else
            v.xyz = out * exp2 (saturation * log2 (v.xyz / Y));
        }
      tm_store (dst, dst_offset, dst_pitch, dst_rect, x, y, v, lh);
    }
  tm_hist_flush (lh, TM_HA_N, hist);
}

/* fat_map in the CPU devices' form: eight pixels of a row in TM_MAP_ROWS
 * rows a work-item, as tm_map_v (tm_map8); fat_map8 makes the colour of
 * eight pixels (r, g, b read and cleaned) with fat_map's operations eight
 * wide, the pixels fat_map leaves black selected after. */
inline CLFX_ALWAYS_INLINE void
fat_map8 (float8 *r, float8 *g, float8 *b, int x, int y, int n,
          __global const float *U, int w, __global const float *p,
          __global const float *f, float saturation)
{
  float8 Y = tm_luminance8 (*r, *g, *b), L, out;
  float  range = f[FAT_HI] - f[FAT_LO];

  L = exp (tm_get8 (U, (long) y * w + x, n)) - 1e-4f;
  out = range > 0.0f ? (L - f[FAT_LO]) / range : (float8) (1.0f);
  out = out > 0.0f ? out : (float8) (1e-4f);
  if (saturation == 0.0f)
    *r = *g = *b = out;
  else
    {
      *r = out * exp2 (saturation * log2 (*r / Y));
      *g = out * exp2 (saturation * log2 (*g / Y));
      *b = out * exp2 (saturation * log2 (*b / Y));
    }
  if (p[TM_P_BLACK] != 0.0f)
    *r = *g = *b = (float8) (0.0f);
  *r = Y > 0.0f ? *r : (float8) (0.0f);
  *g = Y > 0.0f ? *g : (float8) (0.0f);
  *b = Y > 0.0f ? *b : (float8) (0.0f);
}

__kernel void
fat_map_v (CLFX_SRC_ARGS (src), CLFX_DST_ARGS, __global const uint4 *scan,
           float scale, __global const float *U, int w,
           __global const float *p, __global const float *f,
           float saturation, __global uint *hist, __local uint *lh)
{
  tm_map8 (CLFX_SRC (src), dst, dst_offset, dst_pitch, dst_rect, scan, scale,
           TM_FATTAL02, p, hist, lh, TM_MAP_FATTAL, U, w, f, saturation,
           (TmGrid) { 0 });
}
