/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dog.cl: gegl:difference-of-gaussians after the gaussian block's two
 * blurs of float images (engine/ops/dog.c): b1 - b2 on straight colour,
 * alpha b1's, premultiplied again for the store. */
#include "clfx-io.h"
#include "unsharp-mix.h"

__kernel void
dog_mix (read_only image2d_t b1, read_only image2d_t b2, CLFX_DST_ARGS)
{
  int gx = get_global_id (0), gy = get_global_id (1);

  if (gx >= dst_rect.z || gy >= dst_rect.w)
    return;

  int2   p = (int2) (gx, gy);
  float4 s1 = unsharp_straight (read_imagef (b1, p));
  float4 s2 = unsharp_straight (read_imagef (b2, p));
  float3 d = s1.xyz - s2.xyz;

  /* A difference of finite values past float's range: clamped. */
  d = select (d, clamp (d, -FLT_MAX, FLT_MAX),
              isfinite (s1.xyz) & isfinite (s2.xyz));
  s1.xyz = unsharp_times_alpha (d, s1.w);
  CLFX_STORE (CLFX_DST_X (gx), CLFX_DST_Y (gy), clfx_from_rgba (s1));
}
