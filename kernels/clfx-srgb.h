/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-srgb.h: the sRGB transfer curve (IEC 61966-2-1) for the kernels.
 *
 * Every op that mixes pixels works in linear light, as GIMP does: 8- and
 * 16-bit data with the sRGB curve are decoded where a kernel reads a texel
 * and encoded where it stores a result (CLFX_SRGB=1), with no pass or
 * babl conversion of their own.  8-bit data go through exact tables
 * (clfx-srgb-tables.h): a code decodes to the curve's value rounded once
 * to float, and a linear value encodes to the code the curve computed in
 * higher precision rounds to, so decode then encode gives back every code.
 * Other depths use the formula, within powr's bound (OpenCL C: at most
 * 16 ulp); the engine's tolerance states that bound.  Negative values continue the
 * linear segment, as babl's curve does. */
#ifndef CLFX_SRGB_H
#define CLFX_SRGB_H

#include "clfx-srgb-tables.h"

#ifdef __OPENCL_C_VERSION__
#ifndef CLFX_SRGB_TABLES
#define CLFX_SRGB_TABLES 1
#endif
#ifndef CLFX_NATIVE_ENCODE
#define CLFX_NATIVE_ENCODE 0
#endif
#if CLFX_SRGB_TABLES
__constant float clfx_srgb_decode_u8[256] = { CLFX_SRGB_DECODE_U8_VALUES };
__constant float clfx_srgb_encode_u8[256] = { CLFX_SRGB_ENCODE_U8_VALUES };
__constant uchar clfx_srgb_coarse_u8[CLFX_SRGB_COARSE_GRID + 1]
  = { CLFX_SRGB_COARSE_U8_VALUES };
#endif

/* In [0, 1] the power is exp2 of a log2: PoCL calls a library function
 * for powr, which made 16-bit sRGB data many times slower than linear
 * light, but inlines exp2 and log2.  There the exponent's magnitude stays
 * below 8.4, so the composite's error is bounded; measured against the
 * curve in double (tools/srgb-error.c), it is within powr's 16 ulp
 * (docs/notebook/performance-2026.md, "16-bit sRGB data on CPU devices
 * (a82f57f)").  Above 1 (HDR data with the curve) the exponent grows with
 * the value: powr. */
inline float
clfx_srgb_decode (float v)
{
  float x = (v + 0.055f) / 1.055f;
  return v <= 0.04045f ? v / 12.92f
         : v <= 1.0f   ? exp2 (2.4f * log2 (x))
                       : powr (x, 2.4f);
}

inline float
clfx_srgb_encode (float v)
{
  return v <= 0.0031308f ? v * 12.92f
         : v <= 1.0f     ? 1.055f * exp2 (log2 (v) * (1.0f / 2.4f)) - 0.055f
                         : 1.055f * powr (v, 1.0f / 2.4f) - 0.055f;
}

/* The same curve through native_exp2 and native_log2, for 8-bit results
 * on NVIDIA devices (CLFX_NATIVE_ENCODE, set by the engine): there they
 * are the hardware's ex2 and lg2 approximations, and the full-precision
 * pair made the encode a sixth of an 8-bit upscale's kernel time
 * (docs/notebook/performance-2026.md, "8-bit results encoded through the
 * hardware's ex2 and lg2 (8528152)").  OpenCL leaves native_ accuracy to
 * the implementation; clfx-srgb-error measures it against the curve in
 * double (tools/srgb-error.c), within the 16 ulp the tolerance states for
 * powr where it is used.  Only for results in [0, 1] that become codes: above
 * 1 the value still exceeds 1 and saturates to 255. */
inline float
clfx_srgb_encode_native (float v)
{
  return v <= 0.0031308f
           ? v * 12.92f
           : 1.055f * native_exp2 (native_log2 (v) * (1.0f / 2.4f)) - 0.055f;
}

/* An 8-bit code (as the unorm read returns it, k / 255) to linear. */
inline float
clfx_srgb_decode_unorm8 (float v)
{
#if CLFX_SRGB_TABLES
  return clfx_srgb_decode_u8[convert_int_sat_rte (v * 255.0f)];
#else
  return clfx_srgb_decode (v);
#endif
}

/* A linear value to its 8-bit code: how many thresholds lie at or below
 * it.  The code of the grid point below v (v * 4096 is exact), then one
 * threshold comparison: codes in a grid cell differ by at most one
 * (CLFX_SRGB_COARSE_STEP, checked when the tables are made), where a
 * binary search over the thresholds was many times slower on PoCL.  NaN
 * becomes 0 (fmax returns the other operand), as the store's saturating
 * conversion makes it. */
inline uchar
clfx_srgb_encode_u8_code (float v)
{
#if CLFX_SRGB_TABLES
  float c = fmin (fmax (v, 0.0f), 1.0f);
  int   code = clfx_srgb_coarse_u8[(int) (c * (float) CLFX_SRGB_COARSE_GRID)];
  return (uchar) (code + (code < 255 && v >= clfx_srgb_encode_u8[code]));
#elif CLFX_NATIVE_ENCODE
  return convert_uchar_sat_rte (clfx_srgb_encode_native (v) * 255.0f);
#else
  return convert_uchar_sat_rte (clfx_srgb_encode (v) * 255.0f);
#endif
}
#else
static const float clfx_srgb_decode_u8[256] = { CLFX_SRGB_DECODE_U8_VALUES };
static const float clfx_srgb_encode_u8[256] = { CLFX_SRGB_ENCODE_U8_VALUES };
static const unsigned char clfx_srgb_coarse_u8[CLFX_SRGB_COARSE_GRID + 1]
  = { CLFX_SRGB_COARSE_U8_VALUES };
#endif

#endif
