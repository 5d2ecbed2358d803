/* SPDX-License-Identifier: GPL-3.0-or-later */
/* motion-blur.h: what the zoom and circular motion blurs' kernels share
 * (kernels/motion-blur-zoom.cl, motion-blur-circular.cl): one step's
 * bilinear read in GEGL's float form.  OpenCL C only; include after
 * clfx-io.h. */
#ifndef CLFX_MOTION_BLUR_H
#define CLFX_MOTION_BLUR_H

/* The step at (ix, iy), in the whole image's pixel coordinates (origin:
 * this image's place in it): GEGL's mix, m = dy (b - a) + a per column,
 * then across, of the texels at the position rounded down and at the
 * position plus one in float, rounded down (GEGL's neighbour).  inside:
 * every texel the caller's path reads lies inside the source (no
 * addressing).  none: adds the weight of the texels inside the image to
 * *in. */
inline float4
motion_step (CLFX_SRC_PARAMS, float ix, float iy, int2 origin, bool inside,
             bool none, float *in)
{
  float  fx = floor (ix), fy = floor (iy);
  float  dx = ix - fx, dy = iy - fy;
  int    i0 = (int) fx - origin.x, j0 = (int) fy - origin.y;
  int    i1 = (int) floor (ix + 1.0f) - origin.x;
  int    j1 = (int) floor (iy + 1.0f) - origin.y;
#define MOTION_TEXEL(i, j)                                                   \
  (inside ? clfx_fetch_inside (img, view, flags, pitch, lut, (i), (j))       \
          : clfx_fetch (img, view, flags, pitch, lut, (i), (j)))
  float4 p0 = MOTION_TEXEL (i0, j0), p1 = MOTION_TEXEL (i1, j0);
  float4 p2 = MOTION_TEXEL (i0, j1), p3 = MOTION_TEXEL (i1, j1);
#undef MOTION_TEXEL
  float4 m0 = dy * (p2 - p0) + p0;
  float4 m1 = dy * (p3 - p1) + p1;

  if (none)
    {
      bool a = i0 >= 0 && i0 < view.z, b = i1 >= 0 && i1 < view.z;
      bool c = j0 >= 0 && j0 < view.w, d = j1 >= 0 && j1 < view.w;
      *in += (a && c ? (1.0f - dx) * (1.0f - dy) : 0.0f)
             + (b && c ? dx * (1.0f - dy) : 0.0f)
             + (a && d ? (1.0f - dx) * dy : 0.0f)
             + (b && d ? dx * dy : 0.0f);
    }
  return dx * (m1 - m0) + m0;
}

#endif
