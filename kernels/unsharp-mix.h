/* unsharp-mix.h: gegl:unsharp-mask's arithmetic per pixel (unsharp.cl,
 * unsharp-iir.cl).  GEGL blurs premultiplied colour and mixes straight
 * colour: d = in - blur, out = in + amount d, alpha the input's; results
 * go out premultiplied again, as the store expects. */
#ifndef CLFX_UNSHARP_MIX_H
#define CLFX_UNSHARP_MIX_H

inline float4
unsharp_straight (float4 v)
{
  v = clfx_rgba (v);
  v.xyz = v.w > 0.0f ? v.xyz / v.w : (float3) (0.0f);
  return v;
}

/* out = in + amount (in - b), in and b premultiplied, per pixel as
 * unsharp_mix (unsharp.cl) without a mask. */
inline float4
unsharp_mixed (float4 in, float4 b, float amount)
{
  float4 s = unsharp_straight (in);
  float3 d = s.xyz - unsharp_straight (b).xyz;
  s.xyz = (amount * d + s.xyz) * s.w;
  return clfx_from_rgba (s);
}

#endif
