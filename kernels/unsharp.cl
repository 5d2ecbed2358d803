/* unsharp.cl: gegl:unsharp-mask's point operations, after the gaussian
 * blur (filter.cl through filter-common.h).  GEGL blurs premultiplied
 * colour and mixes straight colour: d = in - blur, out = in + amount d
 * (times the threshold mask), alpha the input's.  The images here are the
 * loaded source `in` (premultiplied, canonical layout, with the blur's
 * halo: result pixel (x, y) is texel (x, y) + off) and the blur `b` (the
 * result's size).  Results go out premultiplied again, as the store
 * expects. */
#include "clfx-io.h"

inline float4
unsharp_straight (float4 v)
{
  v = clfx_rgba (v);
  v.xyz = v.w > 0.0f ? v.xyz / v.w : (float3) (0.0f);
  return v;
}

/* GEGL's threshold branch: |d| times 2 to luminance (babl's Y for RGB,
 * the gray itself for gray images), sRGB-encoded, between threshold and
 * 1: the mask, written with its alpha premultiplied in every channel
 * (GEGL blurs it as "YaA float"). */
__kernel void
unsharp_mask (read_only image2d_t in, read_only image2d_t b, int2 off,
              float threshold, write_only image2d_t mask, int w, int h)
{
  int x = get_global_id (0), y = get_global_id (1);

  if (x >= w || y >= h)
    return;

  float4 s = unsharp_straight (read_imagef (in, (int2) (x, y) + off));
  float4 d = 2.0f * fabs (s - unsharp_straight (read_imagef (b, (int2) (x, y))));
#if CLFX_CHANNELS <= 2
  float lum = d.x;
#else
  float lum = 0.2224879400f * d.x + 0.7169038389f * d.y + 0.0606082572f * d.z;
#endif
  float m = clfx_srgb_encode (lum) >= threshold && lum <= 1.0f ? s.w : 0.0f;
  write_imagef (mask, (int2) (x, y), (float4) (m, m, m, s.w));
}

/* out = in + amount (in - blur) (m), m the blurred mask made straight. */
__kernel void
unsharp_mix (read_only image2d_t in, read_only image2d_t b,
             read_only image2d_t mask, int2 off, float amount, int use_mask,
             CLFX_DST_ARGS)
{
  int gx = get_global_id (0), gy = get_global_id (1);

  if (gx >= dst_rect.z || gy >= dst_rect.w)
    return;

  int2   p = (int2) (gx, gy);
  float4 s = unsharp_straight (read_imagef (in, p + off));
  float3 d = s.xyz - unsharp_straight (read_imagef (b, p)).xyz;
  if (use_mask)
    {
      float4 m = read_imagef (mask, p);
      d *= m.w > 0.0f ? m.x / m.w : 0.0f;
    }
  s.xyz = (amount * d + s.xyz) * s.w;
  int x = CLFX_DST_X (gx), y = CLFX_DST_Y (gy);
  CLFX_STORE (x, y, clfx_from_rgba (s));
}

#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#include "iir.h"

/* Both axes IIR without a threshold, through buffers: the rows pass is
 * the gaussian's (filter_iir_rows, from the source into `rows`), then
 * the columns below, with no loaded source and no float images (8192x8192
 * float, H200: the images' way took 0.57 ms to load the source, 5.2 ms
 * for the blur and 0.74 ms for the mix).  The run is one piece (the IIR
 * reads whole lines): result (x, y) is source texel (x, y).  Per pixel
 * the arithmetic is unsharp_mix's. */
inline float4
unsharp_mixed (float4 in, float4 b, float amount)
{
  float4 s = unsharp_straight (in);
  float3 d = s.xyz - unsharp_straight (b).xyz;
  s.xyz = (amount * d + s.xyz) * s.w;
  return clfx_from_rgba (s);
}

#define IIR_D double4
#define IIR_F float4
#define IIR_TO_D convert_double4
#define IIR_TO_F convert_float4

/* CPU devices whose columns are too tall for four in local memory: a
 * work-item per column, the forward values interleaved across columns in
 * `forward`, the blurred columns into `blur`; unsharp_mix_b then mixes.
 * (GPUs ran this form before the segments: reading the source in its
 * store put a texel's latency into each step of the recursion, which
 * 8192 work-items could not hide, 6.0 ms for the columns against 2.0,
 * 8192x8192 float, H200; unsharp_iir_seg_cols mixes in its store, with
 * the work-items of 128 segments a column.) */
__kernel void
unsharp_iir_cols (__global const float4 *rows, __global float4 *forward,
                  int width, int height, __global float4 *blur,
                  double4 coef, __global const double *m, int edge_zero)
{
  int l = get_global_id (0), len = height, lines = width, interleaved = 1;

  if (l >= width)
    return;

#define READ_COL(i) rows[(long) (i) * width + l]
#define WRITE_BLUR(i, v) (blur[(long) (i) * width + l] = convert_float4 (v))
#define FWD IIR_FWD
#define FWD_PUT(i, v) (FWD (i) = (v))
  IIR_LINE (READ_COL, WRITE_BLUR);
#undef FWD
#undef FWD_PUT
#undef READ_COL
#undef WRITE_BLUR
}

/* CPU devices, results other than float RGBA: the rows of one band of the
 * blurred columns (filter.cl's filter_iir_cols4_band, band row r is
 * result row y0 + r), mixed with the source as they are stored; a
 * work-group per row, its forward values in local memory. */
__kernel void
unsharp_iir_rows_band (__global const float4 *rows, int width, int y0,
                       int nrows, CLFX_SRC_ARGS (src), CLFX_DST_ARGS,
                       double4 coef, __global const double *m, int edge_zero,
                       __local float4 *lfwd, float amount)
{
  int r = get_global_id (0), len = width;

  if (r >= nrows)
    return;

  __global const float4 *in = rows + (long) r * width;
#define READ_BAND(i) in[i]
#define WRITE_MIX(i, v)                                                      \
  do                                                                         \
    {                                                                        \
      float4 in_ = clfx_fetch_inside (CLFX_SRC (src), (i), y0 + r);          \
      CLFX_STORE (CLFX_DST_X (i), CLFX_DST_Y (y0 + r),                       \
                  unsharp_mixed (in_, convert_float4 (v), amount));          \
    }                                                                        \
  while (0)
#define FWD(i) lfwd[i]
#define FWD_PUT(i, v) (lfwd[i] = (v))
  IIR_LINE (READ_BAND, WRITE_MIX);
#undef FWD
#undef FWD_PUT
#undef READ_BAND
#undef WRITE_MIX
}

/* out = in + amount (in - blur), blur the w-wide buffer above. */
__kernel void
unsharp_mix_b (CLFX_SRC_ARGS (src), __global const float4 *blur,
               float amount, CLFX_DST_ARGS)
{
  int gx = get_global_id (0), gy = get_global_id (1);

  if (gx >= dst_rect.z || gy >= dst_rect.w)
    return;

  float4 in = clfx_fetch_inside (CLFX_SRC (src), gx, gy);
  CLFX_STORE (CLFX_DST_X (gx), CLFX_DST_Y (gy),
              unsharp_mixed (in, blur[(long) gy * dst_rect.z + gx], amount));
}

/* CPU devices: four columns a work-item as one float16 line, the forward
 * values in local memory (filter_iir_cols4's form). */
#undef IIR_D
#undef IIR_F
#undef IIR_TO_D
#undef IIR_TO_F
#define IIR_D double16
#define IIR_F float16
#define IIR_TO_D convert_double16
#define IIR_TO_F convert_float16

__kernel void
unsharp_iir_cols4 (__global const float4 *rows, int width, int height,
                   CLFX_SRC_ARGS (src), CLFX_DST_ARGS, double4 coef,
                   __global const double *m, int edge_zero,
                   __local float16 *lfwd, float amount)
{
  int l0 = get_global_id (0) * 4, len = height;

  if (l0 >= width)
    return;

#define READ_COL4(i) iir_cols4 (rows, width, l0, (i))
#define WRITE_MIX4(i, v)                                                     \
  do                                                                         \
    {                                                                        \
      float16 b_ = convert_float16 (v);                                      \
      float4  q_[4] = { b_.s0123, b_.s4567, b_.s89ab, b_.scdef };            \
      for (int c_ = 0; c_ < 4 && l0 + c_ < width; c_++)                      \
        {                                                                    \
          float4 in_ = clfx_fetch_inside (CLFX_SRC (src), l0 + c_, (i));     \
          CLFX_STORE (CLFX_DST_X (l0 + c_), CLFX_DST_Y (i),                  \
                      unsharp_mixed (in_, q_[c_], amount));                  \
        }                                                                    \
    }                                                                        \
  while (0)
#define FWD(i) lfwd[i]
#define FWD_PUT(i, v) (lfwd[i] = (v))
  IIR_LINE (READ_COL4, WRITE_MIX4);
#undef FWD
#undef FWD_PUT
#undef READ_COL4
#undef WRITE_MIX4
}

/* The rows of a band four at a time (unsharp_iir_rows_band's, as
 * filter.cl's filter_iir_rows4_band): four rows as one float16 line,
 * mixed with the source as they are stored.  Rows past the band's end
 * repeat its last row and are not stored. */
__kernel void
unsharp_iir_rows4_band (__global const float4 *rows, int width, int y0,
                        int nrows, CLFX_SRC_ARGS (src), CLFX_DST_ARGS,
                        double4 coef, __global const double *m,
                        int edge_zero, __local float16 *lfwd, float amount)
{
  int r0 = get_global_id (0) * 4, len = width;

  if (r0 >= nrows)
    return;

#define READ_BAND4(i) iir_band4 (rows, width, nrows, r0, (i))
#define WRITE_MIX_ROWS4(i, v)                                                \
  do                                                                         \
    {                                                                        \
      float16 b_ = convert_float16 (v);                                      \
      float4  q_[4] = { b_.s0123, b_.s4567, b_.s89ab, b_.scdef };            \
      for (int r_ = 0; r_ < 4 && r0 + r_ < nrows; r_++)                      \
        {                                                                    \
          float4 in_ = clfx_fetch_inside (CLFX_SRC (src), (i),               \
                                          y0 + r0 + r_);                     \
          CLFX_STORE (CLFX_DST_X (i), CLFX_DST_Y (y0 + r0 + r_),             \
                      unsharp_mixed (in_, q_[r_], amount));                  \
        }                                                                    \
    }                                                                        \
  while (0)
#define FWD(i) lfwd[i]
#define FWD_PUT(i, v) (lfwd[i] = (v))
  IIR_LINE (READ_BAND4, WRITE_MIX_ROWS4);
#undef FWD
#undef FWD_PUT
#undef READ_BAND4
#undef WRITE_MIX_ROWS4
}

/* GPUs: the blur's columns in segments (filter.cl's filter_iir_seg_*, a
 * work-item per channel of a column and segment), each pixel mixed with
 * the source as the group stores it: no blurred image and no mix pass. */
#undef IIR_D
#undef IIR_F
#undef IIR_TO_D
#undef IIR_TO_F
#define IIR_D double
#define IIR_F float
#define IIR_TO_D convert_double
#define IIR_TO_F convert_float

__kernel __attribute__ ((reqd_work_group_size (IIR_SEG_LANES, 1, 1))) void
unsharp_iir_seg_cols (__global const float *rows, int width, int height,
                      int seg, __global const double *aux, double4 coef,
                      CLFX_SRC_ARGS (src), CLFX_DST_ARGS, __local float *lf,
                      float amount)
{
#define FWD_PUT IIR_SEG_PUT
#define STORE_MIX(x, y, v)                                                   \
  CLFX_STORE (CLFX_DST_X (x), CLFX_DST_Y (y),                                \
              unsharp_mixed (clfx_fetch_inside (CLFX_SRC (src), (x), (y)),   \
                             (v), amount))
  IIR_SEG_COLS (STORE_MIX);
#undef STORE_MIX
#undef FWD_PUT
}
#endif
