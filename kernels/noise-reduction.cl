/* SPDX-License-Identifier: GPL-3.0-or-later */
/* noise-reduction.cl: GEGL's noise-reduction (anisotropic smoothing,
 * engine/ops/noise-reduction.c), one iteration a launch between two
 * device buffers of float4 RGBA over the piece grown by n texels a side.
 *
 * Per colour channel c of pixel x with neighbours p_d (8 directions, d
 * and 7 - d point-symmetric) and the four axes (p_a, p_7-a), a < 4:
 *   m(b, v, a) = (v * 2 - b - a)^2                   (float, GEGL's order)
 *   ref_a = m(p_a, x, p_7-a)
 *   v_d = p_d * 0.5 + x * 0.5     (GEGL's in double, rounded to float:
 *                                  here (p_d + x) * 0.5, the same float
 *                                  down to subnormals: NR_OFFER)
 *   v_d joins the sum (x, then the directions in order) unless some axis
 *   has m(p_a, v_d, p_7-a) > ref_a; the result is the sum over the count.
 * The three colour channels go as one float4 (the decisions as selects),
 * alpha is the centre's.  Every step is one IEEE operation (FP_CONTRACT
 * off), the quotient corrected to the nearest float, so the device
 * takes GEGL's decisions on GEGL's floats. */
#include "clfx-io.h"
#include "stencil-iterate.h"

/* s / n rounded to the nearest float whatever the device's division
 * (OpenCL C allows 2.5 ulp): fma's residual is exact, and a neighbour
 * with a smaller one is nearer (two steps; n is 1 .. 9, never a tie).
 * A quotient that is not finite keeps its value (its residual is not a
 * number). */
inline float4
nr_quotient (float4 s, float4 n)
{
  float4 q = s / n;

  for (int k = 0; k < 2; k++)
    {
      float4 r = fma (-q, n, s);
      float4 q1 = nextafter (q, select ((float4) (-INFINITY),
                                        (float4) (INFINITY), r > 0.0f));
      float4 r1 = fma (-q1, n, s);
      q = select (q, q1, fabs (r1) < fabs (r));
    }
  return q;
}

/* GEGL's metric of an axis through v: (v * 2 - b - a)^2, in its order. */
inline float4
nr_metric (float4 b, float4 v, float4 a)
{
  float4 d = v * 2.0f - b - a;
  return d * d;
}

/* Neighbour p's offer, GEGL's mean in double rounded once to float: the
 * sum then its half (the sum rounds once, the half is exact, subnormal
 * sums exact), or where the sum overflows the halves' sum (exact
 * halves); taken into sum and count unless it raises an axis's metric;
 * every colour channel at once (alpha's lane is left alone after). */
#define NR_OFFER(p)                                                          \
  do                                                                         \
    {                                                                        \
      float4 s_ = (p) + x;                                                   \
      float4 v_ = select (s_ * 0.5f, (p) * 0.5f + x * 0.5f, isinf (s_));     \
      int4   bad_ = (nr_metric (p0, v_, p7) > m0)                            \
                    | (nr_metric (p1, v_, p6) > m1)                          \
                    | (nr_metric (p2, v_, p5) > m2)                          \
                    | (nr_metric (p3, v_, p4) > m3);                         \
      sum = select (sum + v_, sum, bad_);                                    \
      count = select (count + 1.0f, count, bad_);                            \
    }                                                                        \
  while (0)

/* One iteration's value of the centre x from its neighbours p0 .. p7
 * (the row above, left and right, the row below; p_k and p_(7-k)
 * point-symmetric, the four axes). */
inline float4
nr_smooth (float4 x, float4 p0, float4 p1, float4 p2, float4 p3, float4 p4,
           float4 p5, float4 p6, float4 p7)
{
  float4 m0 = nr_metric (p0, x, p7), m1 = nr_metric (p1, x, p6);
  float4 m2 = nr_metric (p2, x, p5), m3 = nr_metric (p3, x, p4);
  float4 sum = x, count = (float4) (1.0f);

  NR_OFFER (p0);
  NR_OFFER (p1);
  NR_OFFER (p2);
  NR_OFFER (p3);
  NR_OFFER (p4);
  NR_OFFER (p5);
  NR_OFFER (p6);
  NR_OFFER (p7);
  return nr_quotient (sum, count);
}

/* The lanes of r that are not finite where their nine texels are (the
 * sum of values near FLT_MAX overflowed) made again from the texels
 * times 2^-4 and scaled back, past FLT_MAX clamped: finite texels give
 * a finite result (a power of two scales every other lane's operations
 * exactly, so nothing else would change). */
inline float4
nr_rescaled (float4 x, float4 p0, float4 p1, float4 p2, float4 p3,
             float4 p4, float4 p5, float4 p6, float4 p7, float4 r)
{
  const float d = 0.0625f;
  int4        fin = isfinite (x) & isfinite (p0) & isfinite (p1)
                    & isfinite (p2) & isfinite (p3) & isfinite (p4)
                    & isfinite (p5) & isfinite (p6) & isfinite (p7);
  float4      s = nr_smooth (x * d, p0 * d, p1 * d, p2 * d, p3 * d, p4 * d,
                             p5 * d, p6 * d, p7 * d);

  return select (r, clamp (s * 16.0f, -FLT_MAX, FLT_MAX),
                 ! isfinite (r) & fin);
}

/* One iteration at buffer position (i, j), row stride sw. */
inline float4
nr_step (__global const float4 *in, int sw, int i, int j)
{
  __global const float4 *c = in + (size_t) j * sw + i;
  float4 p0 = c[-sw - 1], p1 = c[-sw], p2 = c[-sw + 1], p3 = c[-1];
  float4 x = c[0], p4 = c[1], p5 = c[sw - 1], p6 = c[sw], p7 = c[sw + 1];
  float4 r = nr_smooth (x, p0, p1, p2, p3, p4, p5, p6, p7);

  if (! isfinite (r.x + r.y + r.z))
    r = nr_rescaled (x, p0, p1, p2, p3, p4, p5, p6, p7, r);
  r.w = x.w;
  return r;
}

/* The source over the piece grown by n a side (stencil-iterate.h). */
__kernel void
nr_load (CLFX_SRC_ARGS (src), __global float4 *out, int sw, int sh, int x0,
         int y0)
{
  ITERATE_LOAD (src, out, sw, sh, x0, y0);
}

/* An iteration over the square lo .. lo + w - 1, lo .. lo + h - 1 of the
 * buffer: the texels it reads hold the previous iteration's values. */
__kernel void
nr_iterate (__global const float4 *in, __global float4 *out, int sw, int lo,
            int w, int h)
{
  int gx = get_global_id (0), gy = get_global_id (1);

  if (gx >= w || gy >= h)
    return;
  out[(size_t) (lo + gy) * sw + lo + gx] = nr_step (in, sw, lo + gx,
                                                    lo + gy);
}

/* The last iteration (or, with iterate 0, the texels as loaded), stored:
 * result pixel (x, y) is buffer position (n + gx, n + gy). */
__kernel void
nr_store (__global const float4 *in, int sw, int n, int iterate,
          CLFX_DST_ARGS)
{
  int gx = get_global_id (0), gy = get_global_id (1);

  if (gx >= dst_rect.z || gy >= dst_rect.w)
    return;

  float4 v = iterate ? nr_step (in, sw, n + gx, n + gy)
                     : in[(size_t) (n + gy) * sw + n + gx];
  CLFX_STORE (CLFX_DST_X (gx), CLFX_DST_Y (gy), clfx_from_rgba (v));
}
