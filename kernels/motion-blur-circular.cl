/* SPDX-License-Identifier: GPL-3.0-or-later */
/* motion-blur-circular.cl: GEGL's motion-blur-circular
 * (engine/ops/motion-blur-circular.c), in linear light on premultiplied
 * alpha: n steps along the arc around the centre through the pixel, each
 * step inside the image a bilinear read in GEGL's float form, the result
 * the mean of those.  The arc's positions in double: the pixel's
 * direction turned by half the angle, then by -angle / n a step, with the
 * host's cosines and sines (steps: those of angle / n for each n), so
 * that the reference makes the same bits; each position rounded to float
 * as GEGL's.  geo: the centre (x, y) in the whole image's pixels, the
 * cosine and sine of half the angle; whole: this image's origin in the
 * whole one and the whole one's width and height.  none: the texels
 * outside the image read as 0 (the plan's clamp) and each result is
 * divided by the weight of those inside.  Devices without cl_khr_fp64
 * get no kernel; the host says why. */
#include "clfx-io.h"
#include "motion-blur-shapes.h"
#include "motion-blur.h"

#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

/* One work-item per result, reading the source directly (buffers on CPU
 * devices, images on GPUs). */
__kernel void
motion_circular (CLFX_SRC_ARGS (src), CLFX_DST_ARGS,
                 __global const double2 *steps, double4 geo, double angle,
                 int4 whole, int none)
{
  int gx = get_global_id (0), gy = get_global_id (1);

  if (gx >= dst_rect.z || gy >= dst_rect.w)
    return;

  int    x = CLFX_DST_X (gx), y = CLFX_DST_Y (gy);
  double xr = (double) (x + whole.x) - geo.x;
  double yr = (double) (y + whole.y) - geo.y;
  double radius = sqrt (xr * xr + yr * yr);
  int    n = (int) fmax (ceil (radius * angle * MOTION_CIRCULAR_ARC), 3.0);
  /* The pixel's direction: GEGL's phi (straight up or down within 1e-5
   * of the centre's column). */
  bool   axis = fabs (xr) <= 0.00001;
  double u = axis ? 0.0 : xr / radius;
  double v = axis ? (yr >= 0.0 ? 1.0 : -1.0) : yr / radius;
  double c, s, cs, sn;
  float4 sum = (float4) (0.0f);
  float  in = 0.0f;
  int    count = 0;

  if (n > MOTION_CIRCULAR_NOMINAL_STEPS)
    n = MOTION_CIRCULAR_NOMINAL_STEPS
        + (int) sqrt ((double) (n - MOTION_CIRCULAR_NOMINAL_STEPS));
  c = u * geo.z - v * geo.w;
  s = v * geo.z + u * geo.w;
  cs = steps[n].x;
  sn = steps[n].y;

  /* The circle through the pixel and a texel beyond: where it lies
   * inside the source no addressing to apply, and none has no weight to
   * renormalise (a tile holds it all, but with none its outside is 0). */
  int  r0 = (int) ceil (radius) + 2;
  int  x0 = (int) floor (geo.x) - r0 - whole.x;
  int  y0 = (int) floor (geo.y) - r0 - whole.y;
  bool inside = clfx_window_inside (src_flags, src_view, x0, y0, 2 * r0 + 2,
                                    2 * r0 + 2)
                && ! (none && (src_flags & CLFX_SRC_TILED));

  for (int k = 0; k < n; k++)
    {
      float  ix = (float) (geo.x + radius * (double) (float) c);
      float  iy = (float) (geo.y + radius * (double) (float) s);
      double t = c * cs + s * sn;

      s = s * cs - c * sn;
      c = t;
      if (! (ix >= 0.0f && ix < (float) whole.z && iy >= 0.0f
             && iy < (float) whole.w))
        continue;
      /* Two calls, so that each inlines its own form of the step. */
      if (inside)
        sum += motion_step (CLFX_SRC (src), ix, iy, whole.xy, true, false,
                            &in);
      else
        sum += motion_step (CLFX_SRC (src), ix, iy, whole.xy, false, none,
                            &in);
      count++;
    }
  /* No step inside the image: the pixel itself, as GEGL's. */
  if (count == 0)
    sum = clfx_fetch (CLFX_SRC (src), x, y);
  else
    sum = none && ! inside ? sum / in : sum / (float) count;
  CLFX_STORE (x, y, sum);
}

#endif
