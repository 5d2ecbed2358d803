/* SPDX-License-Identifier: GPL-3.0-or-later */
/* copy.cl: the pass-through kernel.  It reads every texel of the source
 * and stores it through the same output path as every other
 * variant, so its bytes per second are the roofline the others are
 * measured against.  Reads are sampler-less (integer coordinates inside
 * the source). */
#include "clfx-io.h"

__kernel void
copy_image (CLFX_SRC_ARGS (src), CLFX_DST_ARGS)
{
  int x = CLFX_DST_X (get_global_id (0));
  int y0 = CLFX_DST_Y (get_global_id (1) * CLFX_ROWS_PER_ITEM);
  int y1 = min (y0 + CLFX_ROWS_PER_ITEM, dst_rect.y + dst_rect.w);

  if (x >= dst_rect.x + dst_rect.z)
    return;
  for (int y = y0; y < y1; y++)
    CLFX_STORE (x, y, clfx_load_inside (CLFX_SRC (src), x, y));
}
