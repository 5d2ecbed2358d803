/* SPDX-License-Identifier: GPL-3.0-or-later */
/* blocks.cl: building blocks the variants compose on the device, each with
 * its own CPU reference (engine/blocks/blocks.c): the source into a float
 * image, a float image into the result, separable convolution, reductions,
 * histograms, and an image pyramid through the sampler.
 *
 * Their currency is float RGBA images (image2d_t, CL_RGBA/CL_FLOAT) in
 * linear light with premultiplied alpha, as clfx_fetch returns texels. */
#include "clfx-io.h"

/* out(x, y) = the source texel (rect.x + x, rect.y + y), fetched. */
__kernel void
block_load (CLFX_SRC_ARGS (src), write_only image2d_t out, int4 rect)
{
  int x = get_global_id (0), y = get_global_id (1);

  if (x >= rect.z || y >= rect.w)
    return;
  write_imagef (out, (int2) (x, y),
                clfx_fetch (CLFX_SRC (src), rect.x + x, rect.y + y));
}

/* The result rectangle from a float image whose texel (0, 0) is result
 * pixel `origin`. */
__kernel void
block_store (read_only image2d_t in, int2 origin, CLFX_DST_ARGS)
{
  int gx = get_global_id (0), gy = get_global_id (1);
  int x = CLFX_DST_X (gx), y = CLFX_DST_Y (gy);

  if (gx >= dst_rect.z || gy >= dst_rect.w)
    return;
  CLFX_STORE (x, y, read_imagef (in, (int2) (x - origin.x, y - origin.y)));
}

/* Correlation with n taps along x: out(x, y) = sum_i k[i] in(x + i, y),
 * for out of w x h (in is n - 1 texels wider). */
__kernel void
block_sepconv_h (read_only image2d_t in, write_only image2d_t out,
                 __global const float *k, int n, int w, int h)
{
  int    x = get_global_id (0), y = get_global_id (1);
  float4 acc = (float4) (0.0f);

  if (x >= w || y >= h)
    return;
  for (int i = 0; i < n; i++)
    acc += k[i] * read_imagef (in, (int2) (x + i, y));
  write_imagef (out, (int2) (x, y), acc);
}

/* The same along y: out(x, y) = sum_j k[j] in(x, y + j). */
__kernel void
block_sepconv_v (read_only image2d_t in, write_only image2d_t out,
                 __global const float *k, int n, int w, int h)
{
  int    x = get_global_id (0), y = get_global_id (1);
  float4 acc = (float4) (0.0f);

  if (x >= w || y >= h)
    return;
  for (int j = 0; j < n; j++)
    acc += k[j] * read_imagef (in, (int2) (x, y + j));
  write_imagef (out, (int2) (x, y), acc);
}

/* Reductions, per channel: sum, min, max and the sum of log (eps + v) for
 * v > 0 clamped (the log-average of tone mappers).  Stage one: each
 * work-item walks the image in a grid stride, then the work-group reduces
 * in local memory as a tree; stage two reduces the groups' partials the
 * same way.  Both keep four float4 per entry. */
#define CLFX_LOG_EPS 1e-6f

inline void
reduce_tree (__local float4 *s, int lid, int n)
{
  for (int span = n / 2; span > 0; span /= 2)
    {
      barrier (CLK_LOCAL_MEM_FENCE);
      if (lid < span)
        {
          int a = 4 * lid, b = 4 * (lid + span);
          s[a] += s[b];
          s[a + 1] = fmin (s[a + 1], s[b + 1]);
          s[a + 2] = fmax (s[a + 2], s[b + 2]);
          s[a + 3] += s[b + 3];
        }
    }
  barrier (CLK_LOCAL_MEM_FENCE);
}

__kernel void
block_reduce_partial (read_only image2d_t in, int w, int h,
                      __global float4 *partials, __local float4 *s)
{
  int    lid = get_local_id (0), n = get_local_size (0);
  float4 sum = (float4) (0.0f), lsum = (float4) (0.0f);
  float4 lo = (float4) (INFINITY), hi = (float4) (-INFINITY);

  for (long i = get_global_id (0); i < (long) w * h; i += get_global_size (0))
    {
      float4 v = read_imagef (in, (int2) ((int) (i % w), (int) (i / w)));
      sum += v;
      lo = fmin (lo, v);
      hi = fmax (hi, v);
      lsum += log (CLFX_LOG_EPS + fmax (v, 0.0f));
    }
  s[4 * lid] = sum;
  s[4 * lid + 1] = lo;
  s[4 * lid + 2] = hi;
  s[4 * lid + 3] = lsum;
  reduce_tree (s, lid, n);
  if (lid < 4)
    partials[4 * get_group_id (0) + lid] = s[lid];
}

__kernel void
block_reduce_final (__global const float4 *partials, int groups,
                    __global float4 *out, __local float4 *s)
{
  int lid = get_local_id (0), n = get_local_size (0);

  if (lid < groups)
    for (int k = 0; k < 4; k++)
      s[4 * lid + k] = partials[4 * lid + k];
  else
    {
      s[4 * lid] = (float4) (0.0f);
      s[4 * lid + 1] = (float4) (INFINITY);
      s[4 * lid + 2] = (float4) (-INFINITY);
      s[4 * lid + 3] = (float4) (0.0f);
    }
  reduce_tree (s, lid, n);
  if (lid < 4)
    out[lid] = s[lid];
}

/* counts[b] += pixels whose channel c falls in bin b = floor ((v - lo) *
 * scale), clamped to [0, bins - 1]; NaN is not counted.  Each work-group
 * counts in local memory first. */
__kernel void
block_histogram (read_only image2d_t in, int w, int h, int channel,
                 float lo, float scale, int bins, __global uint *counts,
                 __local uint *local_counts)
{
  int lid = get_local_id (0), n = get_local_size (0);

  for (int b = lid; b < bins; b += n)
    local_counts[b] = 0;
  barrier (CLK_LOCAL_MEM_FENCE);
  for (long i = get_global_id (0); i < (long) w * h; i += get_global_size (0))
    {
      float4 v4 = read_imagef (in, (int2) ((int) (i % w), (int) (i / w)));
      float  v = channel == 0 ? v4.x : channel == 1 ? v4.y
                 : channel == 2 ? v4.z : v4.w;
      float  f = (v - lo) * scale;
      if (isnan (f))
        continue;
      atomic_inc (&local_counts[clamp ((int) floor (f), 0, bins - 1)]);
    }
  barrier (CLK_LOCAL_MEM_FENCE);
  for (int b = lid; b < bins; b += n)
    if (local_counts[b])
      atomic_add (&counts[b], local_counts[b]);
}

/* Pyramid through the sampler (unnormalized coordinates, clamp-to-edge,
 * linear): one fetch at the shared corner of a 2 x 2 block is its mean
 * (weights 1/2, exact in the sampler's fixed point), and one fetch at
 * ((x + 0.5) / 2, (y + 0.5) / 2) is the bilinear double (weights 1/4 and
 * 3/4, exact too). */
__kernel void
block_pyramid_down (read_only image2d_t in, sampler_t smp,
                    write_only image2d_t out, int w, int h)
{
  int x = get_global_id (0), y = get_global_id (1);

  if (x >= w || y >= h)
    return;
  write_imagef (out, (int2) (x, y),
                read_imagef (in, smp, (float2) (2.0f * x + 1.0f,
                                                2.0f * y + 1.0f)));
}

__kernel void
block_pyramid_up (read_only image2d_t in, sampler_t smp,
                  write_only image2d_t out, int w, int h)
{
  int x = get_global_id (0), y = get_global_id (1);

  if (x >= w || y >= h)
    return;
  write_imagef (out, (int2) (x, y),
                read_imagef (in, smp, (float2) (((float) x + 0.5f) * 0.5f,
                                                ((float) y + 0.5f) * 0.5f)));
}
