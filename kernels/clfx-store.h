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

/* Straight alpha where a kernel mixes texels (host: CLFX_PREMUL when the
 * source has straight_alpha): colour is multiplied by alpha as each texel
 * is read, so that it is weighed by coverage and a transparent texel's
 * colour cannot bleed into its neighbours, and divided by the result's
 * alpha again at the store.  Where alpha is 0 there is no colour (0). */
#ifndef CLFX_PREMUL
#define CLFX_PREMUL 0
#endif

inline float4
clfx_premul (float4 v)
{
#if CLFX_PREMUL && (CLFX_CHANNELS == 4 || CLFX_GA_IN_RGBA)
  v.xyz *= v.w;
#elif CLFX_PREMUL && CLFX_CHANNELS == 2
  v.x *= v.y;
#endif
  return v;
}

inline float4
clfx_unpremul (float4 v)
{
#if CLFX_PREMUL && (CLFX_CHANNELS == 4 || CLFX_GA_IN_RGBA)
  v.xyz = v.w > 0.0f ? v.xyz / v.w : (float3) (0.0f);
#elif CLFX_PREMUL && CLFX_CHANNELS == 2
  v.x = v.y > 0.0f ? v.x / v.y : 0.0f;
#endif
  return v;
}

/* The host lays the output out so that every pixel is aligned to its own
 * size (guard band and row pitch are multiples of 16 bytes), so whole
 * pixels are stored with one vector store: vstoren only promises element
 * alignment and compiles to one store per channel on some drivers. */
inline void
clfx_store (__global uchar *dst, long offset, long pitch, int x, int y,
            float4 v)
{
  __global uchar *row = dst + offset + (long) y * pitch;
  v = clfx_unpremul (v);
#if CLFX_DEPTH == CLFX_DEPTH_CODE_U8
#if CLFX_CHANNELS == 4
  ((__global uchar4 *) row)[x] = convert_uchar4_sat_rte (v * 255.0f);
#elif CLFX_CHANNELS == 2
  ((__global uchar2 *) row)[x] = convert_uchar2_sat_rte (CLFX_GA (v) * 255.0f);
#else
  row[x] = convert_uchar_sat_rte (v.x * 255.0f);
#endif
#elif CLFX_DEPTH == CLFX_DEPTH_CODE_U16
#if CLFX_CHANNELS == 4
  ((__global ushort4 *) row)[x] = convert_ushort4_sat_rte (v * 65535.0f);
#elif CLFX_CHANNELS == 2
  ((__global ushort2 *) row)[x]
    = convert_ushort2_sat_rte (CLFX_GA (v) * 65535.0f);
#else
  ((__global ushort *) row)[x] = convert_ushort_sat_rte (v.x * 65535.0f);
#endif
#elif CLFX_DEPTH == CLFX_DEPTH_CODE_HALF
  __global half *p = (__global half *) row;
#if CLFX_CHANNELS == 4
  vstorea_half4_rte (v, x, p);
#elif CLFX_CHANNELS == 2
  vstorea_half2_rte (CLFX_GA (v), x, p);
#else
  vstore_half_rte (v.x, x, p);
#endif
#else
#if CLFX_CHANNELS == 4
  ((__global float4 *) row)[x] = v;
#elif CLFX_CHANNELS == 2
  ((__global float2 *) row)[x] = CLFX_GA (v);
#else
  ((__global float *) row)[x] = v.x;
#endif
#endif
}

#endif
