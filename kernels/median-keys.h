/* SPDX-License-Identifier: GPL-3.0-or-later */
/* median-keys.h: what the median's kernels share (docs/FILTERS.md).
 *
 * Per channel, the order statistic of the window: the smallest value whose
 * cumulative weight reaches t = max (1, ceil (W p)), W the window's total
 * weight.  Colour is weighted by the alpha of its texel, quantized as GEGL
 * does (floor (clamp (a, 0, 1) 1024 + 0.5), the 8-bit code for 8-bit
 * data); alpha itself counts each texel once, at its own percentile (50).
 * Values are the stored ones (no sRGB decoding, straight alpha), as GEGL's
 * high precision keeps the source's transfer curve.
 *
 * Values are compared as unsigned keys: a float's bits made monotonic
 * (negative values reversed), NaN as the largest key, so that NaN sorts
 * after +Inf and reaches only results whose order statistic is a NaN; 8-
 * and 16-bit data use their codes, which the store gives back exactly.
 *
 * The algorithms, a program for each and for each device's form:
 * median-network.cl and median-network-cpu.cl (sorting networks, windows
 * up to 49 texels; GPUs and CPU devices), median-radix.cl (a radix
 * selection, any window), median-rank.cl and median-rank-cpu.cl (a
 * window of ranks sliding down each column). */
#include "clfx-io.h"
#include "median-shapes.h"

/* Which lanes are colour and which alpha in the canonical layout. */
#if CLFX_CHANNELS == 2
#define MEDIAN_ALPHA(v) ((v).y)
#define MEDIAN_WVEC(w) ((uint4) ((w), 1u, 1u, 1u))
#define MEDIAN_TVEC(tc, ta) ((uint4) ((tc), (ta), 1u, 1u))
#else
#define MEDIAN_ALPHA(v) ((v).w)
#define MEDIAN_WVEC(w) ((uint4) ((w), (w), (w), 1u))
#define MEDIAN_TVEC(tc, ta) ((uint4) ((tc), (tc), (tc), (ta)))
#endif

#if CLFX_DEPTH == CLFX_DEPTH_CODE_U8 || CLFX_DEPTH == CLFX_DEPTH_CODE_U16
#if CLFX_DEPTH == CLFX_DEPTH_CODE_U8
#define MEDIAN_CODES 255.0f
#else
#define MEDIAN_CODES 65535.0f
#endif
inline uint4
median_key (float4 v)
{
  return convert_uint4_sat_rte (v * MEDIAN_CODES);
}

inline float4
median_value (uint4 k)
{
  return convert_float4 (k) * (1.0f / MEDIAN_CODES);
}
#else
inline uint4
median_key (float4 v)
{
  uint4 b = as_uint4 (v);
  uint4 k = b ^ select ((uint4) (0x80000000u), (uint4) (0xffffffffu),
                        as_int4 (b) < 0);
  return select (k, (uint4) (0xffffffffu), isnan (v));
}

inline float4
median_value (uint4 k)
{
  return as_float4 (k ^ select ((uint4) (0xffffffffu), (uint4) (0x80000000u),
                                k >= (uint4) (0x80000000u)));
}
#endif

/* GEGL's weight of a texel's colour: its alpha quantized to wscale steps
 * (1024, or 255 for 8-bit data), in float as GEGL computes it; NaN
 * weighs 0. */
inline uint
median_weight (float a, float wscale)
{
  float c = a > 0.0f ? (a < 1.0f ? a : 1.0f) : 0.0f;
  return (uint) floor (c * wscale + 0.5f);
}

/* max (1, ceil (w p)) with w p rounded as a double product rounds (to
 * nearest, ties to even), as GEGL computes it, in integers: p = m 2^-s
 * (the host splits it; m < 2^53, s >= 52 as p <= 1), w < 2^26. */
inline uint
median_target (uint w, ulong m, int s)
{
  ulong lo = (ulong) w * m, hi = mul_hi ((ulong) w, m);
  int   len = hi ? 128 - (int) clz (hi) : 64 - (int) clz (lo);
  int   d = max (len - 53, 0), k;
  ulong r = lo, t;

  if (d > 0)
    {
      ulong rem = lo & ((1ul << d) - 1ul), halfway = 1ul << (d - 1);
      r = (lo >> d) | (hi << (64 - d));
      if (rem > halfway || (rem == halfway && (r & 1ul)))
        r++;
    }
  /* The product is r 2^(d - s), r <= 2^53 and s - d >= 26. */
  k = s - d;
  t = k >= 54 ? (ulong) (r != 0ul) : (r + (1ul << k) - 1ul) >> k;
  return max ((uint) t, 1u);
}

/* A window of no weight at all (zero): GEGL's colour is 0; alpha stays. */
inline float4
median_no_weight (float4 res, bool zero)
{
  if (zero)
    res.x = 0.0f;
  if (zero && CLFX_CHANNELS == 4)
    res.yz = (float2) (0.0f);
  return res;
}

/* Arguments: hw, the half-widths of the 2 r + 1 rows; weighted: colour
 * weighted by alpha (straight alpha), else every texel weighs 1 and tc is
 * the colour's target; wscale: the alpha quantization; ta: alpha's
 * target; pm, ps: the percentile as m 2^-s. */
#define MEDIAN_ARGS                                                          \
  __constant int *hw, int r, int weighted, float wscale, uint tc, uint ta,  \
    ulong pm, int ps

inline uint
median_weight_of (float4 v, int weighted, float wscale)
{
  return weighted ? median_weight (MEDIAN_ALPHA (v), wscale) : 1u;
}
