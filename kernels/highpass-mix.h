/* highpass-mix.h: gegl:high-pass's arithmetic per pixel (highpass.cl,
 * highpass-iir.cl; engine/ops/highpass.c has the graph).  The input and
 * the blur come premultiplied in linear light; the result goes out
 * premultiplied, as the store expects. */
#ifndef CLFX_HIGHPASS_MIX_H
#define CLFX_HIGHPASS_MIX_H

#include "unsharp-mix.h"

/* GEGL's gamma: the power of |v| with v's sign. */
inline float3
highpass_pow (float3 v, float e)
{
  float3 p = pow (fabs (v), e);
  return select (p, -p, v < 0.0f);
}

inline float3
highpass_encode (float3 v)
{
  return (float3) (clfx_srgb_encode (v.x), clfx_srgb_encode (v.y),
                   clfx_srgb_encode (v.z));
}

inline float3
highpass_decode (float3 v)
{
  return (float3) (clfx_srgb_decode (v.x), clfx_srgb_decode (v.y),
                   clfx_srgb_decode (v.z));
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

  if (all (isfinite (s.xyz)) && all (isfinite (bl.xyz)))
    o = clamp (o, -FLT_MAX, FLT_MAX);
  return clfx_from_rgba ((float4) (unsharp_times_alpha (o, oa), oa));
}

#endif
