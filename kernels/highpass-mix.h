/* SPDX-License-Identifier: GPL-3.0-or-later */
/* highpass-mix.h: gegl:high-pass's arithmetic per pixel (highpass.cl,
 * highpass-iir.cl; engine/ops/highpass.c has the graph).  The input and
 * the blur come premultiplied in linear light; the result goes out
 * premultiplied, as the store expects. */
#ifndef CLFX_HIGHPASS_MIX_H
#define CLFX_HIGHPASS_MIX_H

#include "unsharp-mix.h"

/* GEGL's gamma: the power of |v| with v's sign, as exp2 of a log2:
 * PoCL calls a library function for pow, which made the operator six
 * times slower than GEGL's, but inlines exp2 and log2 (as clfx_srgb_decode
 * does; the tolerance counts the composite's error, engine/ops/highpass.c).
 * 0 stays 0 (exp2 (-inf)). */
inline float3
highpass_pow (float3 v, float e)
{
  float3 p = exp2 (e * log2 (fabs (v)));
  return select (p, -p, v < 0.0f);
}

/* clfx_srgb_encode and clfx_srgb_decode (clfx-srgb.h) on three channels
 * at once, exp2 of a log2 at every value: their branches per channel, and
 * powr above 1, made PoCL evaluate the curve a channel at a time (the mix
 * took nine times as long as without the curve, and 1.7 times with powr
 * kept above 1).  Above 1 the composite's error grows with log2 of the
 * value; the tolerance counts it (engine/ops/highpass.c). */
inline float3
highpass_encode (float3 v)
{
  float3 p = 1.055f * exp2 (log2 (v) * (1.0f / 2.4f)) - 0.055f;

  return select (p, v * 12.92f, v <= 0.0031308f);
}

inline float3
highpass_decode (float3 v)
{
  float3 x = (v + 0.055f) / 1.055f, p = exp2 (2.4f * log2 (x));

  return select (p, v / 12.92f, v <= 0.04045f);
}

/* The inverted blur at half its alpha over the input, in sRGB-encoded
 * premultiplied values; back to straight linear light; then GEGL's
 * ((x^0.4545 - 0.5) contrast + 0.5)^2.2.  A finite result past float's
 * range is clamped (unsharp_times_alpha). */
inline float4
highpass_mixed (float4 in, float4 b, float contrast)
{
  float4 s = unsharp_straight (in), bl = unsharp_straight (b);
  float  ab = bl.w * 0.5f, oa = ab + s.w - ab * s.w;
  float3 oc = (1.0f - highpass_encode (bl.xyz)) * ab
              + highpass_encode (s.xyz) * s.w * (1.0f - ab);
  float3 lin = highpass_decode (oa > 0.0f ? oc / oa : (float3) (0.0f));
  float3 t = (highpass_pow (lin, 0.4545f) - 0.5f) * contrast + 0.5f;
  float3 o = highpass_pow (t, 2.2f);

  /* Finite texels, a result past float's range (alphas far above 1,
   * where a Ba / 2 overflows): clamped, alpha too, as the reference's;
   * alpha made again in an order whose overflow keeps its sign. */
  if (all (isfinite (s)) && all (isfinite (bl)))
    {
      o = clamp (o, -FLT_MAX, FLT_MAX);
      if (! isfinite (oa))
        oa = clamp (s.w * (1.0f - ab) + ab, -FLT_MAX, FLT_MAX);
    }
  return clfx_from_rgba ((float4) (unsharp_times_alpha (o, oa), oa));
}

#endif
