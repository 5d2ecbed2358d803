/* copy.cl: the pass-through kernel.  It reads every texel of the source
 * image and stores it through the same output path as every other op, so
 * its bytes per second are the roofline the other kernels are measured
 * against.  Reads are sampler-less (integer coordinates, always in range). */
#include "clfx-store.h"

__kernel void
copy_image (read_only image2d_t src, __global uchar *dst, long dst_offset,
            long dst_pitch, int width, int height)
{
  int x = get_global_id (0);
  int y0 = get_global_id (1) * CLFX_ROWS_PER_ITEM;

  if (x >= width)
    return;
  for (int y = y0; y < y0 + CLFX_ROWS_PER_ITEM && y < height; y++)
    clfx_store (dst, dst_offset, dst_pitch, x, y,
                read_imagef (src, (int2) (x, y)));
}
