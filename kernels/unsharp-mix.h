/* SPDX-License-Identifier: GPL-3.0-or-later */
/* unsharp-mix.h: gegl:unsharp-mask's arithmetic per pixel (unsharp.cl,
 * unsharp-iir.cl).  GEGL blurs premultiplied colour and mixes straight
 * colour: d = in - blur, out = in + amount d, alpha the input's; results
 * go out premultiplied again, as the store expects. */
#ifndef CLFX_UNSHARP_MIX_H
#define CLFX_UNSHARP_MIX_H

/* Premultiplied colour made straight; a finite colour stays finite (a
 * quotient past FLT_MAX, colour within rounding of it under an alpha
 * below 1, clamped to +-FLT_MAX, as clfx_unpremul). */
inline float4
unsharp_straight (float4 v)
{
  float3 q;

  v = clfx_rgba (v);
  q = v.w > 0.0f ? v.xyz / v.w : (float3) (0.0f);
  v.xyz = select (q, clamp (q, -FLT_MAX, FLT_MAX), isfinite (v.xyz));
  return v;
}

/* Colour s and the blur's b, straight, are scaled by UNSHARP_DOWN where
 * s + amount (s - b) overflowed: |s - b| up to twice the largest value,
 * amount up to 300, so the scaled sum stays within float's range. */
#define UNSHARP_DOWN 0x1.0p-10f
#define UNSHARP_UP   1024.0f

/* s + amount d, d = s - b times the mask's m where use_mask: finite for
 * finite s and b (made again scaled where it overflowed, past FLT_MAX
 * clamped); the other results keep their bytes. */
inline float3
unsharp_sharpened (float3 s, float3 b, int use_mask, float m, float amount)
{
  float3 d = s - b, o;

  if (use_mask)
    d *= m;
  o = amount * d + s;
  if (any (! isfinite (o)))
    {
      float3 ds = s * UNSHARP_DOWN - b * UNSHARP_DOWN, os;
      if (use_mask)
        ds *= m;
      os = clamp ((amount * ds + s * UNSHARP_DOWN) * UNSHARP_UP, -FLT_MAX,
                  FLT_MAX);
      o = select (o, os, ! isfinite (o) & isfinite (s) & isfinite (b));
    }
  return o;
}

/* Straight colour o times alpha a, as the store takes it: finite for
 * finite o and a (an alpha above 1 can carry o past FLT_MAX: clamped). */
inline float3
unsharp_times_alpha (float3 o, float a)
{
  float3 v = o * a;

  return isfinite (a) ? select (v, clamp (v, -FLT_MAX, FLT_MAX), isfinite (o))
                      : v;
}

/* out = in + amount (in - b), in and b premultiplied, per pixel as
 * unsharp_mix (unsharp.cl) without a mask. */
inline float4
unsharp_mixed (float4 in, float4 b, float amount)
{
  float4 s = unsharp_straight (in);
  s.xyz = unsharp_times_alpha (unsharp_sharpened (s.xyz,
                                                  unsharp_straight (b).xyz,
                                                  0, 1.0f, amount),
                               s.w);
  return clfx_from_rgba (s);
}

#endif
