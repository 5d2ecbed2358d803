/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-io.h: how kernels read the source and write the result.
 *
 * Build options (the engine derives them from the images' own formats,
 * clfx-graph.c): CLFX_DEPTH and CLFX_CHANNELS of the result,
 * CLFX_GA_IN_RGBA (gray+alpha carried as RGBA on devices without CL_RG;
 * clfx_canonical brings texels to one layout), CLFX_SRGB (colour is sRGB-encoded: decode on read, encode
 * on store) and CLFX_PREMUL (straight alpha that a mixing kernel weighs
 * colour by: multiply on read, divide on store).  A kernel that only moves
 * texels (nearest) is built with both off and copies them bit for bit.
 *
 * Sources come as CLFX_SRC_ARGS (name): the pixels, their view (x, y of
 * the first texel in source coordinates, then the source's full width and
 * height), flags (addressing mode, tiled), the row pitch in bytes and a
 * decode table (16-bit sRGB codes from a buffer: 65536 floats, the
 * curve's value of each code; else NULL).
 * The pixels are an image (read_imagef; GPUs, where the texture cache and
 * the hardware sampler are the fast path) or, with CLFX_SRC_BUFFER, a plain
 * buffer in the image's own layout (CPU devices, where an image read is a
 * call through a format switch and plain loads vectorize; buffers also
 * have no 2D image size limit).  Kernels index texels in source
 * coordinates; clfx_fetch applies the addressing mode against the full
 * source, or, for a tile, reads what the host placed there (the same
 * clfx_address, applied when the tile was gathered).
 *
 * Results go to a plain buffer (CLFX_DST_ARGS: buffer, offset and pitch in
 * bytes, and the rectangle of the result this launch covers, x, y, width,
 * height in result coordinates) rather than to an image: the host can
 * surround it with a guard band and check that no kernel wrote outside it,
 * and the rounding is explicit (round to nearest even, saturating for the
 * integer depths, NaN to 0: clfx_image_set on the host). */
#ifndef CLFX_IO_H
#define CLFX_IO_H

#include "clfx-common.h"
#include "clfx-srgb.h"

#ifndef CLFX_DEPTH
#error "build with -DCLFX_DEPTH=<0..3>"
#endif
#ifndef CLFX_CHANNELS
#error "build with -DCLFX_CHANNELS=<1|2|4>"
#endif
#ifndef CLFX_GA_IN_RGBA
#define CLFX_GA_IN_RGBA 0
#endif
#ifndef CLFX_SRGB
#define CLFX_SRGB 0
#endif
#ifndef CLFX_PREMUL
#define CLFX_PREMUL 0
#endif
#ifndef CLFX_SRC_BUFFER
#define CLFX_SRC_BUFFER 0
#endif

/* acc + w * t for a tap of a weighted sum, fused into one rounding, in
 * the GPU forms of the FIR and the resize's tiled kernel: FP_CONTRACT is
 * off (clfx-common.h), so `acc += w * t` costs a multiply and an add, and
 * the taps' loops ran twice the instructions
 * (docs/notebook/performance-2026.md, "The FIR's rows in phases, its taps
 * fused").  Their validation
 * states the n-term sums' bound, which a fused step (one rounding, not
 * two) keeps; their results are no longer the CPU reference's bit for
 * bit, which nothing asks of them.  CLFX_NO_FMA (a build option through
 * CLFX_CL_OPTIONS) brings back the two roundings to compare. */
#ifdef CLFX_NO_FMA
#define CLFX_MAD4(w, t, acc) ((acc) + (w) * (t))
#else
#define CLFX_MAD4(w, t, acc) fma ((float4) (w), (t), (acc))
#endif

#if CLFX_SRC_BUFFER
#define CLFX_SRC_T __global const uchar *
#else
#define CLFX_SRC_T read_only image2d_t
#endif
#define CLFX_SRC_ARGS(name)                                                  \
  CLFX_SRC_T name, int4 name##_view, int name##_flags, long name##_pitch,     \
    __global const float *name##_lut
#define CLFX_SRC(name) name, name##_view, name##_flags, name##_pitch, name##_lut
#define CLFX_DST_ARGS \
  __global uchar *dst, long dst_offset, long dst_pitch, int4 dst_rect

/* Texels reach kernels in one layout whatever the image format: colour in
 * x (and y, z for RGBA), alpha in w for RGBA and in y for gray+alpha, the
 * missing channels 0 and 1 as CL_R and CL_RG reads give them.  Gray
 * carried as RGBA (gray, gray, gray, alpha) is brought to it on read. */
inline float4
clfx_canonical (float4 v)
{
#if CLFX_CHANNELS == 1
  return (float4) (v.x, 0.0f, 0.0f, 1.0f);
#elif CLFX_CHANNELS == 2 && CLFX_GA_IN_RGBA
  return (float4) (v.x, v.w, 0.0f, 1.0f);
#else
  return v;
#endif
}

/* A canonical texel as RGBA (gray as (gray, gray, gray, alpha)), for
 * kernels that work on GEGL's "RGBA float" whatever the layout, and
 * back. */
inline float4
clfx_rgba (float4 v)
{
#if CLFX_CHANNELS == 1
  return (float4) (v.x, v.x, v.x, 1.0f);
#elif CLFX_CHANNELS == 2
  return (float4) (v.x, v.x, v.x, v.y);
#else
  return v;
#endif
}

inline float4
clfx_from_rgba (float4 v)
{
#if CLFX_CHANNELS == 1
  return (float4) (v.x, 0.0f, 0.0f, 1.0f);
#elif CLFX_CHANNELS == 2
  return (float4) (v.x, v.w, 0.0f, 1.0f);
#else
  return v;
#endif
}

/* 8- and 16-bit sRGB codes read from a buffer are decoded where they are
 * loaded, straight from the integer code into a table (clfx_texel): the
 * 8-bit one in the program, the 16-bit one (256 KiB) a buffer the host
 * makes once per context.  On PoCL the curve's power is a library call,
 * once per tap, which made 16-bit sRGB data many times slower than linear
 * light (docs/notebook/performance-2026.md, "16-bit sRGB data on CPU
 * devices (a82f57f)"). */
#if CLFX_SRC_BUFFER && CLFX_SRGB && CLFX_SRGB_TABLES \
  && (CLFX_DEPTH == CLFX_DEPTH_CODE_U8 || CLFX_DEPTH == CLFX_DEPTH_CODE_U16)
#define CLFX_DECODED_AT_LOAD 1
#else
#define CLFX_DECODED_AT_LOAD 0
#endif

/* sRGB-encoded colour channels to linear light; alpha is never encoded. */
inline float4
clfx_decode (float4 v)
{
#if CLFX_DECODED_AT_LOAD
#elif CLFX_SRGB && CLFX_DEPTH == CLFX_DEPTH_CODE_U8
  v.x = clfx_srgb_decode_unorm8 (v.x);
#if CLFX_CHANNELS == 4
  v.y = clfx_srgb_decode_unorm8 (v.y);
  v.z = clfx_srgb_decode_unorm8 (v.z);
#endif
#elif CLFX_SRGB
  v.x = clfx_srgb_decode (v.x);
#if CLFX_CHANNELS == 4
  v.y = clfx_srgb_decode (v.y);
  v.z = clfx_srgb_decode (v.z);
#endif
#endif
  return v;
}

/* Colour weighed by alpha (straight alpha, mixing kernels), so that a
 * transparent texel's colour cannot bleed into its neighbours; undone at
 * the store.  Where alpha is 0 there is no colour (0). */
inline float4
clfx_premul (float4 v)
{
#if CLFX_PREMUL && CLFX_CHANNELS == 4
  v.xyz *= v.w;
#elif CLFX_PREMUL && CLFX_CHANNELS == 2
  v.x *= v.y;
#endif
  return v;
}

/* A finite colour stays finite: in a float result a quotient past
 * FLT_MAX (colour within rounding of it under an alpha below 1) is
 * clamped to +-FLT_MAX (integer depths saturate at the store anyway). */
inline float4
clfx_unpremul (float4 v)
{
#if CLFX_PREMUL && CLFX_CHANNELS == 4 && CLFX_DEPTH == CLFX_DEPTH_CODE_FLOAT
  float3 q = v.w > 0.0f ? v.xyz / v.w : (float3) (0.0f);
  v.xyz = select (q, clamp (q, -FLT_MAX, FLT_MAX), isfinite (v.xyz));
#elif CLFX_PREMUL && CLFX_CHANNELS == 4
  v.xyz = v.w > 0.0f ? v.xyz / v.w : (float3) (0.0f);
#elif CLFX_PREMUL && CLFX_CHANNELS == 2 && CLFX_DEPTH == CLFX_DEPTH_CODE_FLOAT
  float q = v.y > 0.0f ? v.x / v.y : 0.0f;
  v.x = isfinite (v.x) ? clamp (q, -FLT_MAX, FLT_MAX) : q;
#elif CLFX_PREMUL && CLFX_CHANNELS == 2
  v.x = v.y > 0.0f ? v.x / v.y : 0.0f;
#endif
  return v;
}

/* The stored texel at (i, j) of the pixels themselves (no view), as
 * read_imagef returns it: unorm as [0, 1], missing channels 0, alpha 1
 * where there is none.  For 8-bit sRGB data the buffer form decodes
 * straight from the code (clfx_decode then leaves it). */
#if CLFX_SRC_BUFFER
inline float4
clfx_texel (__global const uchar *p, long pitch, __global const float *lut,
            int i, int j)
{
  __global const uchar *row = p + (long) j * pitch;
#if CLFX_DECODED_AT_LOAD && CLFX_DEPTH == CLFX_DEPTH_CODE_U16
  __global const ushort *r16 = (__global const ushort *) row;
#if CLFX_CHANNELS == 4
  ushort4 c = vload4 (i, r16);
  float4  v = (float4) (lut[c.x], lut[c.y], lut[c.z],
                        (float) c.w * (1.0f / 65535.0f));
#elif CLFX_CHANNELS == 2
  ushort2 c = vload2 (i, r16);
  float4  v = (float4) (lut[c.x], (float) c.y * (1.0f / 65535.0f), 0.0f,
                        1.0f);
#else
  float4 v = (float4) (lut[r16[i]], 0.0f, 0.0f, 1.0f);
#endif
#elif CLFX_DECODED_AT_LOAD
#if CLFX_CHANNELS == 4
  uchar4 c = vload4 (i, row);
  float4 v = (float4) (clfx_srgb_decode_u8[c.x], clfx_srgb_decode_u8[c.y],
                       clfx_srgb_decode_u8[c.z], (float) c.w * (1.0f / 255.0f));
#elif CLFX_CHANNELS == 2
  uchar2 c = vload2 (i, row);
  float4 v = (float4) (clfx_srgb_decode_u8[c.x],
                       (float) c.y * (1.0f / 255.0f), 0.0f, 1.0f);
#else
  float4 v = (float4) (clfx_srgb_decode_u8[row[i]], 0.0f, 0.0f, 1.0f);
#endif
#elif CLFX_DEPTH == CLFX_DEPTH_CODE_U8
#if CLFX_CHANNELS == 4
  uchar4 c = vload4 (i, row);
  float4 v = convert_float4 (c) * (1.0f / 255.0f);
#elif CLFX_CHANNELS == 2
  uchar2 c = vload2 (i, row);
  float4 v = (float4) (convert_float2 (c) * (1.0f / 255.0f), 0.0f, 1.0f);
#else
  uchar  c = row[i];
  float4 v = (float4) ((float) c * (1.0f / 255.0f), 0.0f, 0.0f, 1.0f);
#endif
#elif CLFX_DEPTH == CLFX_DEPTH_CODE_U16
  __global const ushort *r16 = (__global const ushort *) row;
#if CLFX_CHANNELS == 4
  float4 v = convert_float4 (vload4 (i, r16)) * (1.0f / 65535.0f);
#elif CLFX_CHANNELS == 2
  float4 v = (float4) (convert_float2 (vload2 (i, r16)) * (1.0f / 65535.0f),
                       0.0f, 1.0f);
#else
  float4 v = (float4) ((float) r16[i] * (1.0f / 65535.0f), 0.0f, 0.0f, 1.0f);
#endif
#elif CLFX_DEPTH == CLFX_DEPTH_CODE_HALF
  __global const half *rh = (__global const half *) row;
#if CLFX_CHANNELS == 4
  float4 v = vload_half4 (i, rh);
#elif CLFX_CHANNELS == 2
  float4 v = (float4) (vload_half2 (i, rh), 0.0f, 1.0f);
#else
  float4 v = (float4) (vload_half (i, rh), 0.0f, 0.0f, 1.0f);
#endif
#else
  __global const float *rf = (__global const float *) row;
#if CLFX_CHANNELS == 4
  float4 v = vload4 (i, rf);
#elif CLFX_CHANNELS == 2
  float4 v = (float4) (vload2 (i, rf), 0.0f, 1.0f);
#else
  float4 v = (float4) (rf[i], 0.0f, 0.0f, 1.0f);
#endif
#endif
  return v;
}
#else
inline float4
clfx_texel (read_only image2d_t img, long pitch, __global const float *lut,
            int i, int j)
{
  (void) pitch;
  (void) lut;
  return clfx_canonical (read_imagef (img, (int2) (i, j)));
}
#endif

/* The arguments of a source (CLFX_SRC) as the helpers below take them. */
#define CLFX_SRC_PARAMS                                                      \
  CLFX_SRC_T img, int4 view, int flags, long pitch, __global const float *lut

/* A texel as stored (after addressing; the border colour is 0). */
inline float4
clfx_load (CLFX_SRC_PARAMS, int i, int j)
{
  if (! (flags & CLFX_SRC_TILED))
    {
      int mode = flags & CLFX_SRC_ADDRESSING_MASK;
      i = clfx_address (i, view.z, mode);
      j = clfx_address (j, view.w, mode);
      if (i < 0 || j < 0)
        return (float4) (0.0f);
    }
  return clfx_texel (img, pitch, lut, i - view.x, j - view.y);
}

/* Whether the w x h texels from (x0, y0) all lie inside the source (a
 * tile always holds what its kernels read), so that clfx_fetch_inside
 * serves them with no addressing to apply. */
inline bool
clfx_window_inside (int flags, int4 view, int x0, int y0, int w, int h)
{
  return (flags & CLFX_SRC_TILED)
         || (x0 >= 0 && y0 >= 0 && x0 + w <= view.z && y0 + h <= view.w);
}

/* A texel inside the source, with no addressing to apply (the caller
 * knows 0 <= i < width and 0 <= j < height, or reads a tile). */
inline float4
clfx_load_inside (CLFX_SRC_PARAMS, int i, int j)
{
  (void) flags;
  return clfx_texel (img, pitch, lut, i - view.x, j - view.y);
}

/* A texel as the mixing kernels use it: linear light, premultiplied. */
inline float4
clfx_fetch (CLFX_SRC_PARAMS, int i, int j)
{
  return clfx_premul (clfx_decode (clfx_load (img, view, flags, pitch, lut,
                                              i, j)));
}

inline float4
clfx_fetch_inside (CLFX_SRC_PARAMS, int i, int j)
{
  return clfx_premul (clfx_decode (clfx_load_inside (img, view, flags, pitch,
                                                     lut, i, j)));
}

/* An 8-bit alpha from [0, 1]: convert_uchar_sat_rte's value (NaN to 0),
 * which PoCL makes a chain of branches, as one rounding. */
inline uchar
clfx_alpha_u8 (float a)
{
  return (uchar) (int) rint (fmin (fmax (a * 255.0f, 0.0f), 255.0f));
}

/* The host lays out the result so that every pixel is aligned to its size
 * (guard band and row pitch are multiples of 16 bytes), so whole pixels are
 * stored with one vector store.  (x, y) are relative to dst_rect.
 * Always inlined where the compiler is clang's (PoCL), which kept it a
 * call per pixel whose table reads then overlapped nothing
 * (docs/notebook/performance-2026.md, "The result over the module's copy
 * of its input (dc8b8bb, 54fc135)"); other compilers inline it as they
 * see fit. */
#ifdef __clang__
#define CLFX_ALWAYS_INLINE __attribute__ ((always_inline))
#else
#define CLFX_ALWAYS_INLINE
#endif
inline CLFX_ALWAYS_INLINE void
clfx_store (__global uchar *dst, long offset, long pitch, int x, int y,
            float4 v)
{
  __global uchar *row = dst + offset + (long) y * pitch;
  v = clfx_unpremul (v);
  float2 ga = v.xy; /* gray+alpha, in the canonical layout */
#if CLFX_SRGB && CLFX_DEPTH == CLFX_DEPTH_CODE_U8
#if CLFX_CHANNELS == 4
  ((__global uchar4 *) row)[x]
    = (uchar4) (clfx_srgb_encode_u8_code (v.x),
                clfx_srgb_encode_u8_code (v.y),
                clfx_srgb_encode_u8_code (v.z), clfx_alpha_u8 (v.w));
#elif CLFX_CHANNELS == 2
  ((__global uchar2 *) row)[x]
    = (uchar2) (clfx_srgb_encode_u8_code (ga.x), clfx_alpha_u8 (ga.y));
#else
  row[x] = clfx_srgb_encode_u8_code (v.x);
#endif
  return;
#else
#if CLFX_SRGB
  v.x = clfx_srgb_encode (v.x);
  v.y = clfx_srgb_encode (v.y);
  v.z = clfx_srgb_encode (v.z);
  ga.x = clfx_srgb_encode (ga.x);
#endif
#if CLFX_DEPTH == CLFX_DEPTH_CODE_U8
#if CLFX_CHANNELS == 4
  ((__global uchar4 *) row)[x] = convert_uchar4_sat_rte (v * 255.0f);
#elif CLFX_CHANNELS == 2
  ((__global uchar2 *) row)[x] = convert_uchar2_sat_rte (ga * 255.0f);
#else
  row[x] = convert_uchar_sat_rte (v.x * 255.0f);
#endif
#elif CLFX_DEPTH == CLFX_DEPTH_CODE_U16
#if CLFX_CHANNELS == 4
  ((__global ushort4 *) row)[x] = convert_ushort4_sat_rte (v * 65535.0f);
#elif CLFX_CHANNELS == 2
  ((__global ushort2 *) row)[x] = convert_ushort2_sat_rte (ga * 65535.0f);
#else
  ((__global ushort *) row)[x] = convert_ushort_sat_rte (v.x * 65535.0f);
#endif
#elif CLFX_DEPTH == CLFX_DEPTH_CODE_HALF
  __global half *p = (__global half *) row;
#if CLFX_CHANNELS == 4
  vstorea_half4_rte (v, x, p);
#elif CLFX_CHANNELS == 2
  vstorea_half2_rte (ga, x, p);
#else
  vstore_half_rte (v.x, x, p);
#endif
#else
#if CLFX_CHANNELS == 4
  ((__global float4 *) row)[x] = v;
#elif CLFX_CHANNELS == 2
  ((__global float2 *) row)[x] = ga;
#else
  ((__global float *) row)[x] = v.x;
#endif
#endif
#endif
}

/* The result pixel (x, y) of this launch in result coordinates, and its
 * store; kernels loop over work-items with these. */
#define CLFX_DST_X(gx) (dst_rect.x + (gx))
#define CLFX_DST_Y(gy) (dst_rect.y + (gy))
/* (The parameters are not named x and y: the macro's own dst_rect.x would
 * take the argument's text.) */
#define CLFX_STORE(px, py, v)                                                \
  clfx_store (dst, dst_offset, dst_pitch, (px) - dst_rect.x,                 \
              (py) - dst_rect.y, (v))

#endif
