/* resize.cl: resampling through the OpenCL sampler.
 *
 * resize_sample: nearest and linear filtering done by the sampler itself
 *   (the texture unit on a GPU), with k x k supersampling when shrinking by
 *   more than 2x.  Addressing is whatever the host's sampler says.
 * resize_filter_h / resize_filter_v: cubic and lanczos3 as two separable
 *   passes.  Each tap is one nearest read at a texel centre, so the
 *   sampler's addressing mode still decides what lies outside the image.
 *   Tap positions and weights come from the host (the same tables the CPU
 *   reference uses), already widened for antialiasing.
 *
 * CLK_ADDRESS_NONE leaves reads outside the image undefined, so with
 * `guard` set the kernels never read there: output positions outside the
 * source are written as 0 (transparent) and taps are clamped to the edge.
 *
 * With CLFX_PREMUL (a straight-alpha source, clfx-store.h) every source
 * texel is premultiplied as it is read.  The sampler's own linear filter
 * would blend straight colour, so linear is then computed here from four
 * nearest reads (the host passes a nearest sampler with the same
 * addressing, which still decides what lies outside the image): the spec's
 * CLK_FILTER_LINEAR formula, on premultiplied texels. */
#include "clfx-store.h"

/* Read texel (i, j) at its centre in the coordinate system of the sampler. */
inline float4
texel (read_only image2d_t img, sampler_t smp, int i, int j, int normalized,
       float2 inv_size)
{
  float2 c = (float2) ((float) i + 0.5f, (float) j + 0.5f);
  if (normalized)
    c *= inv_size;
  return read_imagef (img, smp, c);
}

/* A source texel, premultiplied where the build asks for it. */
inline float4
src_texel (read_only image2d_t img, sampler_t smp, int i, int j,
           int normalized, float2 inv_size)
{
  return clfx_premul (texel (img, smp, i, j, normalized, inv_size));
}

/* In-kernel sampling from nearest reads at texel centres; u, v are in
 * texels.  guard (CLK_ADDRESS_NONE): the same result as the sampler with
 * clamp-to-edge, but every read is inside the image.  Otherwise texel
 * indices go to the sampler as they are and its addressing maps them. */
inline float4
texel_sample (read_only image2d_t img, sampler_t smp, float u, float v,
              int linear, int2 size, int normalized, float2 inv_size,
              int guard)
{
  if (! linear)
    {
      int i = (int) floor (u), j = (int) floor (v);
      if (guard)
        {
          i = clamp (i, 0, size.x - 1);
          j = clamp (j, 0, size.y - 1);
        }
      return src_texel (img, smp, i, j, normalized, inv_size);
    }
  float  fu = u - 0.5f, fv = v - 0.5f;
  float  iu = floor (fu), iv = floor (fv);
  float  a = fu - iu, b = fv - iv;
  int    i0 = (int) iu, i1 = (int) iu + 1;
  int    j0 = (int) iv, j1 = (int) iv + 1;
  if (guard)
    {
      i0 = clamp (i0, 0, size.x - 1);
      i1 = clamp (i1, 0, size.x - 1);
      j0 = clamp (j0, 0, size.y - 1);
      j1 = clamp (j1, 0, size.y - 1);
    }
  float4 t00, t10, t01, t11;
  if (guard || (i0 >= 0 && j0 >= 0 && i1 < size.x && j1 < size.y))
    {
      /* All four inside: every addressing mode returns the texels
       * themselves, and integer reads skip the sampler (twice the rate of
       * filtered fetches on the H200, and PoCL's sampler code). */
      t00 = clfx_premul (read_imagef (img, (int2) (i0, j0)));
      t10 = clfx_premul (read_imagef (img, (int2) (i1, j0)));
      t01 = clfx_premul (read_imagef (img, (int2) (i0, j1)));
      t11 = clfx_premul (read_imagef (img, (int2) (i1, j1)));
    }
  else
    {
      t00 = src_texel (img, smp, i0, j0, normalized, inv_size);
      t10 = src_texel (img, smp, i1, j0, normalized, inv_size);
      t01 = src_texel (img, smp, i0, j1, normalized, inv_size);
      t11 = src_texel (img, smp, i1, j1, normalized, inv_size);
    }
  return (float4) (clfx_bilerp (t00.x, t10.x, t01.x, t11.x, a, b),
                   clfx_bilerp (t00.y, t10.y, t01.y, t11.y, a, b),
                   clfx_bilerp (t00.z, t10.z, t01.z, t11.z, a, b),
                   clfx_bilerp (t00.w, t10.w, t01.w, t11.w, a, b));
}

/* axis = (scale_x, offset_x, scale_y, offset_y) for clfx_resize_pos.
 * sub = (first_x, step_x, first_y, step_y): supersample offsets in the
 * sampler's coordinate units; nsub = samples per axis; inv_count =
 * 1 / (nsub.x * nsub.y). */
__kernel void
resize_sample (read_only image2d_t src, sampler_t smp, __global uchar *dst,
               long dst_offset, long dst_pitch, int dst_w, int dst_h,
               float4 axis, int2 size, float2 inv_size, int normalized,
               int guard, int linear, int2 nsub, float4 sub,
               float inv_count)
{
  int x = get_global_id (0);
  int y0 = get_global_id (1) * CLFX_ROWS_PER_ITEM;

  if (x >= dst_w)
    return;

  float s = clfx_resize_pos (x, axis.s0, axis.s1);
  float bx = normalized ? s : s * (float) size.x;
  float lx = normalized ? 1.0f : (float) size.x;
  float ly = normalized ? 1.0f : (float) size.y;

  for (int y = y0; y < y0 + CLFX_ROWS_PER_ITEM && y < dst_h; y++)
    {
      float  t = clfx_resize_pos (y, axis.s2, axis.s3);
      float  by = normalized ? t : t * (float) size.y;
      float4 acc = (float4) (0.0f);

      if (guard && (bx < 0.0f || bx >= lx || by < 0.0f || by >= ly))
        {
          clfx_store (dst, dst_offset, dst_pitch, x, y, acc);
          continue;
        }
      for (int j = 0; j < nsub.y; j++)
        for (int i = 0; i < nsub.x; i++)
          {
            float cx = bx + (sub.s0 + (float) i * sub.s1);
            float cy = by + (sub.s2 + (float) j * sub.s3);
            if (guard || (CLFX_PREMUL && linear))
              {
                float u = normalized ? cx * (float) size.x : cx;
                float v = normalized ? cy * (float) size.y : cy;
                acc += texel_sample (src, smp, u, v, linear, size,
                                     normalized, inv_size, guard);
              }
            else
              acc += clfx_premul (read_imagef (src, smp, (float2) (cx, cy)));
          }
      clfx_store (dst, dst_offset, dst_pitch, x, y, acc * inv_count);
    }
}

/* The weight tables are stored tap-major, weights[k * dst + x], so the
 * work-items of a warp (consecutive x) read consecutive floats.
 *
 * Horizontal pass: inter(x, j) = sum_k w[x][k] * src(start[x] + k, j) for
 * every source row j.  start[x] == INT_MIN marks an output column outside
 * the source under `guard`: it becomes 0. */
__kernel void
resize_filter_h (read_only image2d_t src, sampler_t smp,
                 write_only image2d_t inter, __global const int *start,
                 __global const float *weights, int ntaps, int dst_w,
                 int2 size, float2 inv_size, int normalized, int guard)
{
  int x = get_global_id (0);
  int j = get_global_id (1);

  if (x >= dst_w || j >= size.y)
    return;

  int    i0 = start[x];
  float4 acc = (float4) (0.0f);
  if (i0 != INT_MIN)
    {
      for (int k = 0; k < ntaps; k++)
        {
          int i = i0 + k;
          if (guard)
            i = clamp (i, 0, size.x - 1);
          acc += weights[(long) k * dst_w + x]
                 * src_texel (src, smp, i, j, normalized, inv_size);
        }
    }
  write_imagef (inter, (int2) (x, j), acc);
}

/* Vertical pass over the intermediate image (dst_w x source height). */
__kernel void
resize_filter_v (read_only image2d_t inter, sampler_t smp, __global uchar *dst,
                 long dst_offset, long dst_pitch, __global const int *start,
                 __global const float *weights, int ntaps, int dst_w,
                 int dst_h, int2 size, float2 inv_size, int normalized,
                 int guard)
{
  int x = get_global_id (0);
  int y = get_global_id (1);

  if (x >= dst_w || y >= dst_h)
    return;

  int    j0 = start[y];
  float4 acc = (float4) (0.0f);
  if (j0 != INT_MIN)
    {
      for (int k = 0; k < ntaps; k++)
        {
          int j = j0 + k;
          if (guard)
            j = clamp (j, 0, size.y - 1);
          acc += weights[(long) k * dst_h + y]
                 * texel (inter, smp, x, j, normalized, inv_size);
        }
    }
  clfx_store (dst, dst_offset, dst_pitch, x, y, acc);
}

/* Both passes in one launch, for when a 16 x 16 tile's source footprint
 * fits in local memory: the work-group loads the footprint once (through
 * the sampler, so addressing applies), filters its rows into local memory
 * and then its columns.  Same sums in the same order as filter_h/filter_v,
 * without the float intermediate image in global memory, which costs more
 * than the source itself.  span_w/span_h bound every tile's footprint
 * (computed by the host from the tap tables). */
__kernel __attribute__ ((reqd_work_group_size (16, 16, 1))) void
resize_filter_tile (read_only image2d_t src, sampler_t smp,
                    __global uchar *dst, long dst_offset, long dst_pitch,
                    __global const int *start_x, __global const float *wx,
                    int ntx, __global const int *start_y,
                    __global const float *wy, int nty, int dst_w, int dst_h,
                    int2 size, float2 inv_size, int normalized, int guard,
                    int span_w, int span_h, __global const int *tile_x0,
                    __global const int *tile_y0, int bands,
                    __local float4 *tile, __local float4 *rows)
{
  int lx = get_local_id (0), ly = get_local_id (1);
  int lid = ly * 16 + lx;
  int x0 = get_group_id (0) * 16, y0 = get_group_id (1) * 16 * bands;
  /* Where this tile's footprint starts (the host's min over the tile's
   * first taps; one load instead of a loop of dependent ones). */
  int sx0 = tile_x0[get_group_id (0)], sy0 = tile_y0[get_group_id (1)];

  /* Inside the image every addressing mode returns the texel itself, so
   * a footprint wholly inside is read without the sampler: integer reads
   * run at about twice the filtered-fetch rate on the H200.  Tiles on the
   * border go through the sampler and its addressing mode. */
  bool inside = sx0 >= 0 && sy0 >= 0 && sx0 + span_w <= size.x
                && sy0 + span_h <= size.y;
  /* Four reads in flight per work-item: one at a time, each tile waited
   * out the full texture latency once per 256 texels. */
  for (int i0 = lid; i0 < span_w * span_h; i0 += 4 * 256)
    {
      float4 v[4];
#pragma unroll
      for (int u = 0; u < 4; u++)
        {
          int i = i0 + u * 256;
          int sx = sx0 + i % span_w, sy = sy0 + i / span_w;
          if (i >= span_w * span_h)
            break;
          if (inside)
            v[u] = read_imagef (src, (int2) (sx, sy));
          else
            {
              if (guard)
                {
                  sx = clamp (sx, 0, size.x - 1);
                  sy = clamp (sy, 0, size.y - 1);
                }
              v[u] = texel (src, smp, sx, sy, normalized, inv_size);
            }
        }
#pragma unroll
      for (int u = 0; u < 4; u++)
        if (i0 + u * 256 < span_w * span_h)
          tile[i0 + u * 256] = clfx_premul (v[u]);
    }
  barrier (CLK_LOCAL_MEM_FENCE);

  for (int i = lid; i < 16 * span_h; i += 256)
    {
      int    ox = i % 16, r = i / 16, x = x0 + ox;
      float4 acc = (float4) (0.0f);
      if (x < dst_w && start_x[x] != INT_MIN)
        {
          __local const float4 *t = tile + r * span_w + (start_x[x] - sx0);
          for (int k = 0; k < ntx; k++)
            acc += wx[(long) k * dst_w + x] * t[k];
        }
      rows[r * 16 + ox] = acc;
    }
  barrier (CLK_LOCAL_MEM_FENCE);

  int x = x0 + lx;
  if (x >= dst_w)
    return;
  for (int b = 0; b < bands; b++)
    {
      int    y = y0 + b * 16 + ly;
      float4 acc = (float4) (0.0f);
      if (y >= dst_h)
        return;
      if (start_y[y] != INT_MIN)
        {
          __local const float4 *c = rows + (start_y[y] - sy0) * 16 + lx;
          for (int k = 0; k < nty; k++)
            acc += wy[(long) k * dst_h + y] * c[k * 16];
        }
      clfx_store (dst, dst_offset, dst_pitch, x, y, acc);
    }
}
