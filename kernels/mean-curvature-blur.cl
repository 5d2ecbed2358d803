/* SPDX-License-Identifier: GPL-3.0-or-later */
/* mean-curvature-blur.cl: GEGL's mean-curvature-blur
 * (engine/ops/mean-curvature-blur.c), one iteration a launch between two
 * device buffers of float4 RGBA over the piece grown by n texels a side
 * (stencil-iterate.h), in GEGL's arithmetic: per colour channel of the
 * centre c with neighbours l, r, t, b and the corners,
 *   dx = r - l, dy = b - t              (float, then double)
 *   |g| = sqrt (dx^2 + dy^2)            (double)
 *   dxx = (r + l) - 2 c, dyy = (b + t) - 2 c   (the sums float)
 *   dxy = 0.25 ((br - tr) - bl + tl)    (the sum float)
 *   c' = c + 0.25 |g| (dx^2 dyy + dy^2 dxx - 2 dx dy dxy)
 *                   / sqrt ((dx^2 + dy^2)^3)   (double, rounded to float)
 * where |g| is not 0, else c' = c; alpha is the centre's.  GEGL's
 * pow (s, 3) is made as s^3 correctly rounded (an exact product in two
 * doubles): libm's pow gives that but where it lands within a hair of a
 * rounding boundary.  Needs cl_khr_fp64. */
#include "clfx-io.h"
#include "stencil-iterate.h"

#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

/* s^3 rounded once: s^2 = hi + lo exactly, hi s = p + e exactly, then
 * p + (e + lo s), whose last rounding decides. */
inline double4
mcb_cube (double4 s)
{
  double4 hi = s * s, lo = fma (s, s, -hi);
  double4 p = hi * s, e = fma (hi, s, -p);

  return p + (e + lo * s);
}

/* One iteration's value of the centre c from its neighbours (top left,
 * top, top right, left, right, bottom left, bottom, bottom right). */
inline float4
mcb_flow (float4 tl, float4 t, float4 tr, float4 l, float4 c, float4 r,
          float4 bl, float4 b, float4 br)
{
  double4 dx = convert_double4 (r - l), dy = convert_double4 (b - t);
  double4 cd = convert_double4 (c);
  double4 dx2 = dx * dx, dy2 = dy * dy, s = dx2 + dy2;
  double4 magnitude = sqrt (s);
  double4 dxx = convert_double4 (r + l) - 2.0 * cd;
  double4 dyy = convert_double4 (b + t) - 2.0 * cd;
  double4 dxy = 0.25 * convert_double4 (br - tr - bl + tl);
  double4 n = dx2 * dyy + dy2 * dxx - 2.0 * dx * dy * dxy;
  double4 curvature = n / sqrt (mcb_cube (s));
  float4  out = convert_float4 (cd + 0.25 * magnitude * curvature);

  return select (c, out, convert_int4 (magnitude != 0.0));
}

/* One iteration at buffer position (i, j), row stride sw.  A lane that
 * is not finite where its nine texels are (float differences of values
 * near FLT_MAX overflowed) is made again from the texels times 2^-4 and
 * scaled back, past FLT_MAX clamped: the flow is homogeneous of degree
 * one, and a power of two scales its operations exactly, so finite
 * texels give a finite result and nothing else changes. */
inline float4
mcb_step (__global const float4 *in, int sw, int i, int j)
{
  __global const float4 *q = in + (size_t) j * sw + i;
  float4 tl = q[-sw - 1], t = q[-sw], tr = q[-sw + 1], l = q[-1];
  float4 c = q[0], r = q[1], bl = q[sw - 1], b = q[sw], br = q[sw + 1];
  float4 out = mcb_flow (tl, t, tr, l, c, r, bl, b, br);

  if (! isfinite (out.x + out.y + out.z))
    {
      const float d = 0.0625f;
      int4        fin = isfinite (tl) & isfinite (t) & isfinite (tr)
                        & isfinite (l) & isfinite (c) & isfinite (r)
                        & isfinite (bl) & isfinite (b) & isfinite (br);
      float4      s = mcb_flow (tl * d, t * d, tr * d, l * d, c * d, r * d,
                                bl * d, b * d, br * d);
      out = select (out, clamp (s * 16.0f, -FLT_MAX, FLT_MAX),
                    ! isfinite (out) & fin);
    }
  out.w = c.w;
  return out;
}

/* The source over the piece grown by n a side (stencil-iterate.h). */
__kernel void
mcb_load (CLFX_SRC_ARGS (src), __global float4 *out, int sw, int sh, int x0,
          int y0)
{
  ITERATE_LOAD (src, out, sw, sh, x0, y0);
}

/* An iteration over the square lo .. lo + w - 1, lo .. lo + h - 1 of the
 * buffer: the texels it reads hold the previous iteration's values. */
__kernel void
mcb_iterate (__global const float4 *in, __global float4 *out, int sw, int lo,
             int w, int h)
{
  int gx = get_global_id (0), gy = get_global_id (1);

  if (gx >= w || gy >= h)
    return;
  out[(size_t) (lo + gy) * sw + lo + gx] = mcb_step (in, sw, lo + gx,
                                                     lo + gy);
}

/* The last iteration (or, with iterate 0, the texels as loaded), stored:
 * result pixel (x, y) is buffer position (n + gx, n + gy). */
__kernel void
mcb_store (__global const float4 *in, int sw, int n, int iterate,
           CLFX_DST_ARGS)
{
  int gx = get_global_id (0), gy = get_global_id (1);

  if (gx >= dst_rect.z || gy >= dst_rect.w)
    return;

  float4 v = iterate ? mcb_step (in, sw, n + gx, n + gy)
                     : in[(size_t) (n + gy) * sw + n + gx];
  CLFX_STORE (CLFX_DST_X (gx), CLFX_DST_Y (gy), clfx_from_rgba (v));
}

#endif
