/* SPDX-License-Identifier: GPL-3.0-or-later */
/* median-radix.cl: the median by a radix selection on the window's keys
 * (median-windows.h), exact for any window: the windows past the networks
 * that the sliding ranks do not take (past radius 8, where a CPU device's
 * median_rank_cpu does not take them).  median_radix_tile reads the
 * group's tile in local memory (GPUs), median_radix_buffers the buffers
 * of median_keys. */
#include "median-windows.h"

/* CPU devices, and GPU windows whose tile does not fit local memory: a
 * result per work-item from the buffers of median_keys (rect: their
 * rectangle in source coordinates). */
__kernel void
median_radix_buffers (__global const uint4 *keys, __global const uint *wts,
                      int4 rect, CLFX_DST_ARGS, MEDIAN_ARGS)
{
  int gx = get_global_id (0), gy = get_global_id (1);

  if (gx >= dst_rect.z || gy >= dst_rect.w)
    return;

  int    x = CLFX_DST_X (gx), y = CLFX_DST_Y (gy);
  long   o = (long) (y - rect.y) * rect.z + (x - rect.x);
  float4 res;
  MEDIAN_SELECT (res, KW_B, median_value);
  CLFX_STORE (x, y, res);
}

__kernel __attribute__ ((reqd_work_group_size (MEDIAN_T, MEDIAN_T, 1))) void
median_radix_tile (CLFX_SRC_ARGS (src), CLFX_DST_ARGS, MEDIAN_ARGS,
                   __local uint4 *keys, __local uint *wts)
{
  int lx = get_local_id (0), ly = get_local_id (1);
  int gx = get_global_id (0), gy = get_global_id (1);
  int span = MEDIAN_T + 2 * r;

  median_tile (CLFX_SRC (src), dst_rect, r, weighted, wscale, keys, wts);
  barrier (CLK_LOCAL_MEM_FENCE);
  if (gx < dst_rect.z && gy < dst_rect.w)
    {
      int    x = CLFX_DST_X (gx), y = CLFX_DST_Y (gy);
      int    o = (ly + r) * span + lx + r;
      float4 res;
      MEDIAN_SELECT (res, KW_L, median_value);
      CLFX_STORE (x, y, res);
    }
}
