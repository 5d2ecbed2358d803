/* SPDX-License-Identifier: GPL-3.0-or-later */
/* snn-mean.cl: the filter family's snn-mean variant, GEGL's snn-mean
 * (engine/ops/snn-mean.c has the definition), on straight colour in
 * linear light (the host builds it without CLFX_PREMUL).
 *
 * For the result pixel with centre c, over the window's quarter
 * v = -R .. 0, u = -R .. 0 (pairs 2) or u = -R .. R (pairs 1, rows v < 0;
 * row 0 stops at u = 0), in GEGL's order: where u and v are both non-zero,
 * the texel nearest c among (u, v) and (-u, -v), and with pairs 2 also
 * (-u, v) and (u, -v), in that order (GEGL's |t - c|^2 over R, G, B in
 * float, ((dR^2 + dG^2) + dB^2); a strictly smaller distance replaces the
 * choice, which starts as c with distance 1000); where u or v is 0, c
 * itself (GEGL's loop skips the axes' pairs).  The result is the mean of
 * the choices, all four channels, summed in float in that order and
 * divided by their count.
 *
 * Edge handling none (`none`): candidates outside the image are left
 * out of the choice (GEGL's own test; with its margin it never fails
 * there). */
#include "clfx-io.h"

inline float
snn_dist (float4 t, float4 c)
{
  float4 d = t - c;

  return d.x * d.x + d.y * d.y + d.z * d.z;
}

/* One work-item per result, reading the source directly (buffers on CPU
 * devices, images on GPUs); texels index the whole image, so tiles and
 * bands give the one-piece result. */
__kernel void
snn_mean (CLFX_SRC_ARGS (src), CLFX_DST_ARGS, int R, int pairs, int none)
{
  int gx = get_global_id (0), gy = get_global_id (1);

  if (gx >= dst_rect.z || gy >= dst_rect.w)
    return;

  int    x = CLFX_DST_X (gx), y = CLFX_DST_Y (gy);
  float4 c = clfx_rgba (clfx_fetch (CLFX_SRC (src), x, y));
  float4 acc = (float4) (0.0f);
  int    count = 0, ux = pairs == 1 ? R : 0;
  bool   inside = clfx_window_inside (src_flags, src_view, x - R, y - R,
                                      2 * R + 1, 2 * R + 1);

  for (int v = -R; v <= 0; v++)
    for (int u = -R; u <= (v < 0 ? ux : 0); u++)
      {
        float4 sel = c;

        if (u != 0 && v != 0)
          {
            int2  at[4] = { (int2) (x + u, y + v), (int2) (x - u, y - v),
                            (int2) (x - u, y + v), (int2) (x + u, y - v) };
            float best = 1000.0f;

            for (int k = 0; k < 2 * pairs; k++)
              {
                float4 t;
                float  d;

                if (none && (at[k].x < 0 || at[k].y < 0
                             || at[k].x >= src_view.z
                             || at[k].y >= src_view.w))
                  continue;
                t = clfx_rgba (inside ? clfx_fetch_inside (CLFX_SRC (src),
                                                           at[k].x, at[k].y)
                                      : clfx_fetch (CLFX_SRC (src), at[k].x,
                                                    at[k].y));
                d = snn_dist (t, c);
                if (d < best)
                  {
                    best = d;
                    sel = t;
                  }
              }
          }
        acc += sel;
        count++;
      }
  CLFX_STORE (x, y, clfx_from_rgba (acc / (float) count));
}
