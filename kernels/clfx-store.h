/* clfx-store.h: write one pixel of the result into the output buffer.
 *
 * Results go to a plain buffer (row pitch and start offset given by the
 * host) rather than to an image: that lets the host surround the output
 * with a guard band and check that no kernel wrote outside it, and it makes
 * the rounding explicit.  CLFX_DEPTH and CLFX_CHANNELS are build options, so
 * each (depth, channels) pair is its own program binary.
 *
 * Rounding matches clfx_image_set() on the host: round to nearest even,
 * saturating for the normalized integer depths (NaN becomes 0). */
#ifndef CLFX_STORE_H
#define CLFX_STORE_H

#include "clfx-common.h"

#ifndef CLFX_DEPTH
#error "build with -DCLFX_DEPTH=<0..3>"
#endif
#ifndef CLFX_CHANNELS
#error "build with -DCLFX_CHANNELS=<1|2|4>"
#endif
/* Gray+alpha carried as RGBA (gray, gray, gray, alpha) on devices without
 * CL_RG: the two stored channels are then x and w. */
#if CLFX_GA_IN_RGBA
#define CLFX_GA(v) ((v).xw)
#else
#define CLFX_GA(v) ((v).xy)
#endif

inline void
clfx_store (__global uchar *dst, long offset, long pitch, int x, int y,
            float4 v)
{
  __global uchar *row = dst + offset + (long) y * pitch;
#if CLFX_DEPTH == CLFX_DEPTH_CODE_U8
#if CLFX_CHANNELS == 4
  vstore4 (convert_uchar4_sat_rte (v * 255.0f), x, row);
#elif CLFX_CHANNELS == 2
  vstore2 (convert_uchar2_sat_rte (CLFX_GA (v) * 255.0f), x, row);
#else
  row[x] = convert_uchar_sat_rte (v.x * 255.0f);
#endif
#elif CLFX_DEPTH == CLFX_DEPTH_CODE_U16
  __global ushort *p = (__global ushort *) row;
#if CLFX_CHANNELS == 4
  vstore4 (convert_ushort4_sat_rte (v * 65535.0f), x, p);
#elif CLFX_CHANNELS == 2
  vstore2 (convert_ushort2_sat_rte (CLFX_GA (v) * 65535.0f), x, p);
#else
  p[x] = convert_ushort_sat_rte (v.x * 65535.0f);
#endif
#elif CLFX_DEPTH == CLFX_DEPTH_CODE_HALF
  __global half *p = (__global half *) row;
#if CLFX_CHANNELS == 4
  vstore_half4_rte (v, x, p);
#elif CLFX_CHANNELS == 2
  vstore_half2_rte (CLFX_GA (v), x, p);
#else
  vstore_half_rte (v.x, x, p);
#endif
#else
  __global float *p = (__global float *) row;
#if CLFX_CHANNELS == 4
  vstore4 (v, x, p);
#elif CLFX_CHANNELS == 2
  vstore2 (CLFX_GA (v), x, p);
#else
  p[x] = v.x;
#endif
#endif
}

#endif
