/* SPDX-License-Identifier: GPL-3.0-or-later */
/* motion-blur-linear.cl: GEGL's motion-blur-linear as one stencil
 * (engine/ops/motion-blur-linear.c): the steps' bilinear weights summed
 * per texel offset on the host, so a result is the weighted sum of the
 * stencil's texels, in linear light on premultiplied alpha.  taps: n of
 * (dx, dy, weight, 0); box: their extent (x0, y0, width, height).  none:
 * the texels outside the image read as 0 (the plan's clamp) and the sum
 * is divided by the weight of those inside. */
#include "clfx-io.h"

/* One work-item per result, reading the source directly (buffers on CPU
 * devices, images on GPUs); texels index the whole image, so tiles and
 * bands give the one-piece result. */
__kernel void
motion_linear (CLFX_SRC_ARGS (src), CLFX_DST_ARGS,
               __global const float4 *taps, int n, int4 box, int none)
{
  int gx = get_global_id (0), gy = get_global_id (1);

  if (gx >= dst_rect.z || gy >= dst_rect.w)
    return;

  int    x = CLFX_DST_X (gx), y = CLFX_DST_Y (gy);
  float4 sum = (float4) (0.0f);

  /* Away from the image's edges (or in a tile, which holds the stencil's
   * texels) no addressing to apply. */
  if (clfx_window_inside (src_flags, src_view, x + box.x, y + box.y, box.z,
                          box.w))
    for (int k = 0; k < n; k++)
      {
        float4 t = taps[k];
        sum += t.z * clfx_fetch_inside (CLFX_SRC (src), x + (int) t.x,
                                        y + (int) t.y);
      }
  else
    for (int k = 0; k < n; k++)
      {
        float4 t = taps[k];
        sum += t.z * clfx_fetch (CLFX_SRC (src), x + (int) t.x,
                                 y + (int) t.y);
      }
  if (none && ! (x + box.x >= 0 && y + box.y >= 0
                 && x + box.x + box.z <= src_view.z
                 && y + box.y + box.w <= src_view.w))
    {
      float in = 0.0f;
      for (int k = 0; k < n; k++)
        {
          float4 t = taps[k];
          int    i = x + (int) t.x, j = y + (int) t.y;
          if (i >= 0 && j >= 0 && i < src_view.z && j < src_view.w)
            in += t.z;
        }
      sum /= in;
    }
  CLFX_STORE (x, y, sum);
}
