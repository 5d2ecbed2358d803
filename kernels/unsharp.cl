/* SPDX-License-Identifier: GPL-3.0-or-later */
/* unsharp.cl: gegl:unsharp-mask's point operations after the gaussian
 * block's blur of float images (engine/blocks/gauss.c), where the blur is
 * not both axes IIR or there is a threshold (unsharp-iir.cl runs the
 * rest).  The images here are the loaded source `in` (premultiplied,
 * canonical layout, with the blur's halo: result pixel (x, y) is texel
 * (x, y) + off) and the blur `b` (the result's size), made straight as
 * unsharp-mix.h does. */
#include "clfx-io.h"
#include "unsharp-mix.h"

/* GEGL's threshold branch: |d| times 2 to luminance (babl's Y for RGB,
 * the gray itself for gray images), sRGB-encoded, between threshold and
 * 1: the mask, written with its alpha premultiplied in every channel
 * (GEGL blurs it as "YaA float"). */
__kernel void
unsharp_mask (read_only image2d_t in, read_only image2d_t b, int2 off,
              float threshold, write_only image2d_t mask, int w, int h)
{
  int x = get_global_id (0), y = get_global_id (1);

  if (x >= w || y >= h)
    return;

  float4 s = unsharp_straight (read_imagef (in, (int2) (x, y) + off));
  float4 d = 2.0f * fabs (s - unsharp_straight (read_imagef (b, (int2) (x, y))));
#if CLFX_CHANNELS <= 2
  float lum = d.x;
#else
  float lum = 0.2224879400f * d.x + 0.7169038389f * d.y + 0.0606082572f * d.z;
#endif
  float m = clfx_srgb_encode (lum) >= threshold && lum <= 1.0f ? s.w : 0.0f;
  write_imagef (mask, (int2) (x, y), (float4) (m, m, m, s.w));
}

/* out = in + amount (in - blur) (m), m the blurred mask made straight. */
__kernel void
unsharp_mix (read_only image2d_t in, read_only image2d_t b,
             read_only image2d_t mask, int2 off, float amount, int use_mask,
             CLFX_DST_ARGS)
{
  int gx = get_global_id (0), gy = get_global_id (1);

  if (gx >= dst_rect.z || gy >= dst_rect.w)
    return;

  int2   p = (int2) (gx, gy);
  float4 s = unsharp_straight (read_imagef (in, p + off));
  float4 m = use_mask ? read_imagef (mask, p) : (float4) (1.0f);
  s.xyz = unsharp_times_alpha (
    unsharp_sharpened (s.xyz, unsharp_straight (read_imagef (b, p)).xyz,
                       use_mask, m.w > 0.0f ? m.x / m.w : 0.0f, amount),
    s.w);
  int x = CLFX_DST_X (gx), y = CLFX_DST_Y (gy);
  CLFX_STORE (x, y, clfx_from_rgba (s));
}
