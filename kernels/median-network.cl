/* SPDX-License-Identifier: GPL-3.0-or-later */
/* median-network.cl: the median of windows up to 49 texels on GPUs
 * (median-network.h): median_network_tile reads the group's tile in local
 * memory; median_network_buffers, for windows whose tile does not fit
 * (or sources from buffers), the buffers of median_keys. */
#include "median-network.h"

#define MEDIAN_SPAN (MEDIAN_T + 2 * MEDIAN_R)

__kernel void
median_network_buffers (__global const uint4 *keys, __global const uint *wts,
                        int4 rect, CLFX_DST_ARGS, MEDIAN_ARGS)
{
  int gx = get_global_id (0), gy = get_global_id (1);

  if (gx >= dst_rect.z || gy >= dst_rect.w)
    return;

  int    x = CLFX_DST_X (gx), y = CLFX_DST_Y (gy);
  long   o = (long) (y - rect.y) * rect.z + (x - rect.x);
  float4 res;
  MEDIAN_NET (res, keys, wts, o, (long) rect.z, KW_B, 1);
  CLFX_STORE (x, y, res);
}

__kernel __attribute__ ((reqd_work_group_size (MEDIAN_T, MEDIAN_T, 1))) void
median_network_tile (CLFX_SRC_ARGS (src), CLFX_DST_ARGS, MEDIAN_ARGS,
                     __local uint4 *keys, __local uint *wts)
{
  int lx = get_local_id (0), ly = get_local_id (1);
  int gx = get_global_id (0), gy = get_global_id (1);
  int span = MEDIAN_SPAN;

  median_tile (CLFX_SRC (src), dst_rect, r, weighted, wscale, keys, wts);
  barrier (CLK_LOCAL_MEM_FENCE);
  if (gx < dst_rect.z && gy < dst_rect.w)
    {
      int    x = CLFX_DST_X (gx), y = CLFX_DST_Y (gy);
      int    o = (ly + MEDIAN_R) * MEDIAN_SPAN + lx + MEDIAN_R;
      float4 res;
      MEDIAN_NET (res, keys, wts, o, span, KW_L, 0);
      CLFX_STORE (x, y, res);
    }
}
