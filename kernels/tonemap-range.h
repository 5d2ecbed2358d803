/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tonemap-range.h: the range of a per-pixel value over the image, as
 * block minima and maxima (tm_tree_range) reduced by tm_range_final into
 * the parameter buffer: reinhard05's range of its mapped colour
 * (tonemap-global.cl), durand02's of its base (durand02.cl). */
#ifndef TONEMAP_RANGE_H
#define TONEMAP_RANGE_H

#include "tonemap-common.h"

inline CLFX_ALWAYS_INLINE void
tm_tree_range (__local float2 *s, int lx, int n)
{
  for (int span = n / 2; span > 0; span /= 2)
    {
      barrier (CLK_LOCAL_MEM_FENCE);
      if (lx < span)
        s[lx] = (float2) (fmin (s[lx].x, s[lx + span].x),
                          fmax (s[lx].y, s[lx + span].y));
    }
  barrier (CLK_LOCAL_MEM_FENCE);
}

/* Writes the range (TM_P_RANGE_LO, TM_P_RANGE_HI) and 1 / its width
 * (TM_P_RANGE_SCALE; 0 when the range is empty or flat: the colour is
 * then left as mapped). */
__kernel void
tm_range_final (__global const float2 *partials, int n, __global float *p,
                __local float2 *s)
{
  int    lx = get_local_id (0);
  float2 r = (float2) (INFINITY, -INFINITY);

  for (int i = lx; i < n; i += TM_FINAL)
    r = (float2) (fmin (r.x, partials[i].x), fmax (r.y, partials[i].y));
  s[lx] = r;
  tm_tree_range (s, lx, TM_FINAL);
  if (lx == 0)
    {
      r = s[0];
      p[TM_P_RANGE_LO] = r.x;
      p[TM_P_RANGE_HI] = r.y;
      p[TM_P_RANGE_SCALE] = r.y > r.x ? 1.0f / (r.y - r.x) : 0.0f;
    }
}

#endif
