/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gaussian-blur-selective.cl: the filter family's gaussian-blur-selective
 * variant, GEGL's gaussian-blur-selective (engine/ops/
 * gaussian-blur-selective.c has the definition), on sRGB-encoded straight
 * colour (the host builds it without CLFX_SRGB and CLFX_PREMUL: texels
 * come as stored).
 *
 * Two kernels a piece: gbs_load puts the piece's result rectangle grown
 * by R on every side into a float RGBA buffer, addressing applied,
 * sRGB-encoded where the source is linear (`encode`), gray as
 * R = G = B (GEGL's conversion to "R'G'B'A float"), 8-bit codes as
 * k / 255 rounded to float (`codes`, GEGL's floats of them); gbs_blur
 * then sums each result's window from it with no addressing to apply and
 * one encode per texel instead of one per tap.
 *
 * For the result pixel with centre c, over the (2 R + 1)^2 window, per
 * colour channel b:
 *
 *   w     = g[v][u] t.a          (g: GEGL's float table)
 *   kept  = ! (c_b - t_b > thr || c_b - t_b < -thr)
 *   out_b = sum kept w t_b / sum kept w, or c_b where that sum is 0
 *
 * in GEGL's order (rows, then columns), each product and sum rounded to
 * float as GEGL's C rounds them, and alpha the centre's.  thr is the
 * largest float at or below max-delta + 2^-18 in double (the host's
 * GBS_TIE: a difference of max-delta exactly counts, whatever its ulps;
 * a float d is above a double limit exactly when it is above thr).  A NaN
 * difference keeps the tap, as GEGL's test does.
 *
 * Edge handling none (`none`): taps outside the image are left out,
 * which renormalises by the weights inside. */
#include "clfx-io.h"

__kernel void
gbs_load (CLFX_SRC_ARGS (src), __global float4 *enc, int4 rect, int encode,
          __global const float *codes, int u8)
{
  int i = get_global_id (0), j = get_global_id (1);

  if (i >= rect.z || j >= rect.w)
    return;

  float4 t = clfx_rgba (clfx_fetch (CLFX_SRC (src), rect.x + i, rect.y + j));

  /* 8-bit data: each code as k / 255 rounded to float (the host's table:
   * GEGL's float of it). */
  if (u8)
    t = (float4) (codes[convert_int_sat_rte (t.x * 255.0f)],
                  codes[convert_int_sat_rte (t.y * 255.0f)],
                  codes[convert_int_sat_rte (t.z * 255.0f)],
                  codes[convert_int_sat_rte (t.w * 255.0f)]);
  if (encode)
    t = (float4) (clfx_srgb_encode (t.x), clfx_srgb_encode (t.y),
                  clfx_srgb_encode (t.z), t.w);
  enc[(size_t) j * (size_t) rect.z + (size_t) i] = t;
}

__kernel void
gbs_blur (__global const float4 *enc, int pitch, __global const float *g,
          int R, float thr, int none, int2 size, int encode, CLFX_DST_ARGS)
{
  int gx = get_global_id (0), gy = get_global_id (1);

  if (gx >= dst_rect.z || gy >= dst_rect.w)
    return;

  int    x = CLFX_DST_X (gx), y = CLFX_DST_Y (gy), side = 2 * R + 1;
  float4 c = enc[(size_t) (gy + R) * (size_t) pitch + (size_t) (gx + R)];
  float4 acc = (float4) (0.0f), cnt = (float4) (0.0f);
  /* none: whether the window reaches outside the image. */
  bool   cut = none && (x < R || y < R || x + R >= size.x
                        || y + R >= size.y);

  for (int v = 0; v < side; v++)
    {
      __global const float4 *row
        = enc + (size_t) (gy + v) * (size_t) pitch + (size_t) gx;
      __global const float *gr = g + v * side;

      if (cut && (y + v - R < 0 || y + v - R >= size.y))
        continue;
      for (int u = 0; u < side; u++)
        {
          if (cut && (x + u - R < 0 || x + u - R >= size.x))
            continue;

          float4 t = row[u];
          float  w = gr[u] * t.w;
          float4 d = c - t;
          int4   out = d > (float4) (thr) || d < (float4) (-thr);

          acc += select (w * t, (float4) (0.0f), out);
          cnt += select ((float4) (w), (float4) (0.0f), out);
        }
    }

  float4 r = select (acc / cnt, c, cnt == (float4) (0.0f));

  r.w = c.w;
  if (encode)
    r = (float4) (clfx_srgb_decode (r.x), clfx_srgb_decode (r.y),
                  clfx_srgb_decode (r.z), r.w);
  CLFX_STORE (x, y, clfx_from_rgba (r));
}
