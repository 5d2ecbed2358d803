/* SPDX-License-Identifier: GPL-3.0-or-later */
/* filter-fir-linear.cl: the FIR gaussian and the box with sampler-filter
 * linear (engine/ops/filter-common.c): `in`, the source with the taps'
 * halo as a float image (the edge handling applied there), through the
 * sampler's linear filter, unnormalized: pair j of (offset, weight) is
 * one fetch at offset past the first tap, between two texels whose
 * weights it blends (clfx_filter_tap_pairs).  Rows first, into `out`
 * (w x h). */
#include "clfx-io.h"
#include "filter-fir.h"

__kernel void
filter_lin_h (read_only image2d_t in, sampler_t smp, write_only image2d_t out,
              __constant float2 *pairs, int m, int w, int h)
{
  int x = get_global_id (0), y = get_global_id (1);

  if (x >= w || y >= h)
    return;

  float4 acc = (float4) (0.0f);
  for (int j = 0; j < m; j++)
    acc += pairs[j].y
           * read_imagef (in, smp, (float2) (x + pairs[j].x + 0.5f,
                                             y + 0.5f));
  write_imagef (out, (int2) (x, y), acc);
}

/* Then the columns to the result; renorm = (on, source width, height):
 * edge handling none divides by the weight of both axes' taps inside. */
__kernel void
filter_lin_v (read_only image2d_t in, sampler_t smp, CLFX_DST_ARGS,
              __constant float2 *pairs, int m, int4 renorm,
              __constant float *kx, int nx, __constant float *ky, int ny)
{
  int gx = get_global_id (0), gy = get_global_id (1);

  if (gx >= dst_rect.z || gy >= dst_rect.w)
    return;

  float4 acc = (float4) (0.0f);
  for (int j = 0; j < m; j++)
    acc += pairs[j].y
           * read_imagef (in, smp, (float2) (gx + 0.5f,
                                             gy + pairs[j].x + 0.5f));
  int x = CLFX_DST_X (gx), y = CLFX_DST_Y (gy);
  if (renorm.x)
    acc /= fir_inside (kx, nx, x, renorm.y) * fir_inside (ky, ny, y, renorm.z);
  CLFX_STORE (x, y, acc);
}
