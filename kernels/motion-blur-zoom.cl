/* SPDX-License-Identifier: GPL-3.0-or-later */
/* motion-blur-zoom.cl: GEGL's motion-blur-zoom with GEGL's float
 * arithmetic, step for step (engine/ops/motion-blur-zoom.c), in linear
 * light on premultiplied alpha.  ends: each column's path end x, then
 * each row's y, in the whole image's pixel coordinates (the host's
 * double expression, rounded); inv: GEGL's 1 / n as float; origin: where
 * this image sits in the whole one (a cut-out's; 0 for a whole image);
 * none: the texels outside the image read as 0 (the plan's clamp) and
 * the sum is divided by the weight of those inside. */
#include "clfx-io.h"
#include "motion-blur-shapes.h"
#include "motion-blur.h"

/* k * k >= s, exactly: s below 2^24 as float (k * k is then exact in
 * float), above as the whole number it is. */
inline bool
zoom_ge (int k, float s)
{
  return s < 16777216.0f ? (float) (k * k) >= s : (long) k * k >= (long) s;
}

/* GEGL's step count from the path's squared length s: max (ceil (sqrt
 * (s) + 1), 3), past NOMINAL NOMINAL + the whole part of the root of the
 * rest, at most MAX; the roots made exact (GEGL's are double). */
inline int
zoom_steps (float s)
{
  int k = (int) ceil (sqrt (s)), n, m;

  while (k > 0 && zoom_ge (k - 1, s))
    k--;
  while (! zoom_ge (k, s))
    k++;
  n = max (k + 1, 3);
  if (n <= MOTION_ZOOM_NOMINAL_STEPS)
    return n;
  n -= MOTION_ZOOM_NOMINAL_STEPS;
  m = (int) sqrt ((float) n);
  while (m * m > n)
    m--;
  while ((m + 1) * (m + 1) <= n)
    m++;
  return min (MOTION_ZOOM_NOMINAL_STEPS + m, MOTION_ZOOM_MAX_STEPS);
}

/* One work-item per result, reading the source directly (buffers on CPU
 * devices, images on GPUs). */
__kernel void
motion_zoom (CLFX_SRC_ARGS (src), CLFX_DST_ARGS, __global const float *ends,
             __global const float *inv, int2 origin, int none)
{
  int gx = get_global_id (0), gy = get_global_id (1);

  if (gx >= dst_rect.z || gy >= dst_rect.w)
    return;

  int    x = CLFX_DST_X (gx), y = CLFX_DST_Y (gy);
  float  ix = (float) (x + origin.x), iy = (float) (y + origin.y);
  float  ex = ends[x], ey = ends[src_view.z + y];
  float  ddx = ex - ix, ddy = ey - iy;
  int    n = zoom_steps (ddx * ddx + ddy * ddy);
  float  scale = inv[n], sx = ddx * scale, sy = ddy * scale, in = 0.0f;
  float4 sum = (float4) (0.0f);
  /* The texels the path reads: from its pixel to its end, and a texel
   * beyond (the neighbour, and the float walk's rounding).  Where they
   * all lie inside the source no addressing to apply, and none has no
   * weight to renormalise (a tile holds them all, but with none its
   * outside is 0). */
  int    x0 = (int) floor (fmin (ix, ex)) - origin.x - 1;
  int    y0 = (int) floor (fmin (iy, ey)) - origin.y - 1;
  int    x1 = (int) floor (fmax (ix, ex)) - origin.x + 3;
  int    y1 = (int) floor (fmax (iy, ey)) - origin.y + 3;
  bool   inside = clfx_window_inside (src_flags, src_view, x0, y0, x1 - x0,
                                      y1 - y0)
                  && ! (none && (src_flags & CLFX_SRC_TILED));

  /* Two loops, so that each inlines its own form of the step. */
  if (inside)
    for (int k = 0; k < n; k++, ix += sx, iy += sy)
      sum += motion_step (CLFX_SRC (src), ix, iy, origin, true, false, &in);
  else
    for (int k = 0; k < n; k++, ix += sx, iy += sy)
      sum += motion_step (CLFX_SRC (src), ix, iy, origin, false, none, &in);
  CLFX_STORE (x, y, none && ! inside ? sum / in : sum * scale);
}
