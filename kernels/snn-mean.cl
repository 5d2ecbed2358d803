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
 * Two kernels a piece: snn_load puts the piece and its halo into float
 * planes (addressing applied once a texel), snn_mean picks and sums from
 * them eight results a work-item, a lane each, with no addressing and no
 * branch that differs between results (PoCL ran one result a work-item,
 * with its branches, at 1.6x GEGL's time).
 *
 * Edge handling none (`none`): candidates outside the image are left
 * out of the choice (GEGL's own test; with its margin it never fails
 * there): they are loaded as NaN, whose distance is never smaller. */
#include "clfx-io.h"

/* The piece's result rectangle grown by R on every side (rect: x, y,
 * width, height in source coordinates) into four float planes, R, G, B
 * and alpha, each `plane` floats apart, rows rect.z floats apart;
 * addressing applied, gray as R = G = B; with `none` the texels outside
 * the image are NaN, whose distance is never smaller than another's (as
 * a candidate left out). */
__kernel void
snn_load (CLFX_SRC_ARGS (src), __global float *tex, int4 rect, int plane,
          int none)
{
  int i = get_global_id (0), j = get_global_id (1);

  if (i >= rect.z || j >= rect.w)
    return;

  int    x = rect.x + i, y = rect.y + j;
  float4 t = none && (x < 0 || y < 0 || x >= src_view.z || y >= src_view.w)
               ? (float4) (NAN)
               : clfx_rgba (clfx_fetch (CLFX_SRC (src), x, y));
  size_t at = (size_t) j * (size_t) rect.z + (size_t) i;

  tex[at] = t.x;
  tex[at + (size_t) plane] = t.y;
  tex[at + 2 * (size_t) plane] = t.z;
  tex[at + 3 * (size_t) plane] = t.w;
}

/* The candidate at offset `off` for the SNN_V results of a work-item,
 * channel by channel, one result a lane: a strictly smaller distance
 * than the pick's so far, ((dR^2 + dG^2) + dB^2) in float, replaces it. */
#define SNN_TRY(off)                                                         \
  do                                                                         \
    {                                                                        \
      float8 tr = vload8 (0, pr + (off)), tg = vload8 (0, pg + (off));       \
      float8 tb = vload8 (0, pb + (off)), ta = vload8 (0, pa + (off));       \
      float8 dr = tr - cr, dg = tg - cg, db = tb - cb;                       \
      float8 d = dr * dr + dg * dg + db * db;                                \
      int8   m = d < best;                                                   \
      best = select (best, d, m);                                            \
      sr = select (sr, tr, m);                                               \
      sg = select (sg, tg, m);                                               \
      sb = select (sb, tb, m);                                               \
      sa = select (sa, ta, m);                                               \
    }                                                                        \
  while (0)

/* SNN_V (8) results of a row per work-item, a lane each, from the loaded
 * planes (pitch: their row length): the same float operations per result
 * as one at a time, so CPU devices run them as vectors. */
__kernel void
snn_mean (__global const float *tex, int pitch, int plane, int R, int pairs,
          CLFX_DST_ARGS)
{
  int gx = get_global_id (0) * 8, gy = get_global_id (1);

  if (gx >= dst_rect.z || gy >= dst_rect.w)
    return;

  __global const float *pr
    = tex + (size_t) (gy + R) * (size_t) pitch + (size_t) (gx + R);
  __global const float *pg = pr + plane, *pb = pg + plane, *pa = pb + plane;
  float8 cr = vload8 (0, pr), cg = vload8 (0, pg), cb = vload8 (0, pb);
  float8 ca = vload8 (0, pa);
  float8 ar = (float8) (0.0f), ag = ar, ab = ar, aa = ar;
  int    count = 0, ux = pairs == 1 ? R : 0;
  float  o[4][8];

  for (int v = -R; v <= 0; v++)
    for (int u = -R; u <= (v < 0 ? ux : 0); u++)
      {
        float8 sr = cr, sg = cg, sb = cb, sa = ca;

        if (u != 0 && v != 0)
          {
            float8 best = (float8) (1000.0f);

            SNN_TRY (v * pitch + u);
            SNN_TRY (-v * pitch - u);
            if (pairs == 2)
              {
                SNN_TRY (v * pitch - u);
                SNN_TRY (-v * pitch + u);
              }
          }
        ar += sr;
        ag += sg;
        ab += sb;
        aa += sa;
        count++;
      }
  vstore8 (ar / (float) count, 0, o[0]);
  vstore8 (ag / (float) count, 0, o[1]);
  vstore8 (ab / (float) count, 0, o[2]);
  vstore8 (aa / (float) count, 0, o[3]);
  for (int k = 0; k < 8 && gx + k < dst_rect.z; k++)
    CLFX_STORE (CLFX_DST_X (gx + k), CLFX_DST_Y (gy),
                clfx_from_rgba ((float4) (o[0][k], o[1][k], o[2][k],
                                          o[3][k])));
}
