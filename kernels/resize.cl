/* SPDX-License-Identifier: GPL-3.0-or-later */
/* resize.cl: resampling, in linear light.
 *
 * resize_sample: nearest and linear, with k x k supersampling when one
 *   result pixel covers more than two source texels.  `hw` set: the
 *   hardware sampler filters (a GPU's texture unit; the host allows it for
 *   untiled runs on data it may blend as stored).  Otherwise the kernel
 *   computes the spec's CLK_FILTER_LINEAR formula (or the nearest texel)
 *   from texels read with clfx_fetch: decoded to linear light and
 *   premultiplied where the build says so, the addressing mode applied to
 *   their indices.
 * resize_filter_h / resize_filter_v: cubic and lanczos3 as two separable
 *   passes, each tap one texel as clfx_fetch makes it (8-bit sRGB decoded
 *   through the group's table, tile_decode).  Tap positions and weights
 *   come from the host, already widened for antialiasing.
 * resize_filter_hb / resize_filter_vb: the same through a buffer, for CPU
 *   devices (linear too there), launched band by band (the vertical pass
 *   makes the result rows `rows` of its launch).
 * resize_filter_tile: both passes in one launch where a 16 x 16 tile's
 *   source footprint fits in local memory.
 * resize_filter_strip: both passes in one launch down strips of 64
 *   result columns, for 8-bit shrinks by whole factors on GPUs.
 * resize_filter_sweep: the same shrinks with the rows pass along each
 *   source row in registers, where every result pixel has the same
 *   weights.
 *
 * Every index is in source coordinates (clfx-io.h), so a tiled run reads
 * the same texels as an untiled one.  CLK_ADDRESS_NONE leaves reads
 * outside the image undefined, so with `guard` set the kernels never read
 * there: result positions outside the source are 0 (transparent) and taps
 * are clamped to the edge (clfx_address does that for `none`). */
#include "clfx-io.h"

/* Rows per work-item of the horizontal pass through a buffer. */
#ifndef CLFX_HB_ROWS
#define CLFX_HB_ROWS 4
#endif

/* In-kernel sampling at (u, v), in texels. */
inline float4
texel_sample (CLFX_SRC_ARGS (src), float u, float v, int linear)
{
  if (! linear)
    return clfx_fetch (CLFX_SRC (src), (int) floor (u), (int) floor (v));
  float fu = u - 0.5f, fv = v - 0.5f;
  float iu = floor (fu), iv = floor (fv);
  float a = fu - iu, b = fv - iv;
  int   i0 = (int) iu, j0 = (int) iv;
  float4 t00 = clfx_fetch (CLFX_SRC (src), i0, j0);
  float4 t10 = clfx_fetch (CLFX_SRC (src), i0 + 1, j0);
  float4 t01 = clfx_fetch (CLFX_SRC (src), i0, j0 + 1);
  float4 t11 = clfx_fetch (CLFX_SRC (src), i0 + 1, j0 + 1);
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
resize_sample (CLFX_SRC_ARGS (src), sampler_t smp, CLFX_DST_ARGS,
               float4 axis, int normalized, int guard, int linear, int hw,
               int2 nsub, float4 sub, float inv_count)
{
  int x = CLFX_DST_X (get_global_id (0));
  int y0 = CLFX_DST_Y (get_global_id (1) * CLFX_ROWS_PER_ITEM);
  int y1 = min (y0 + CLFX_ROWS_PER_ITEM, dst_rect.y + dst_rect.w);

  if (x >= dst_rect.x + dst_rect.z)
    return;

  float2 size = convert_float2 (src_view.zw);
  float  s = clfx_resize_pos (x, axis.s0, axis.s1);
  float  bx = normalized ? s : s * size.x;
  float  lx = normalized ? 1.0f : size.x;
  float  ly = normalized ? 1.0f : size.y;

  for (int y = y0; y < y1; y++)
    {
      float  t = clfx_resize_pos (y, axis.s2, axis.s3);
      float  by = normalized ? t : t * size.y;
      float4 acc = (float4) (0.0f);

      if (guard && (bx < 0.0f || bx >= lx || by < 0.0f || by >= ly))
        {
          CLFX_STORE (x, y, acc);
          continue;
        }
      for (int j = 0; j < nsub.y; j++)
        for (int i = 0; i < nsub.x; i++)
          {
            float cx = bx + (sub.s0 + (float) i * sub.s1);
            float cy = by + (sub.s2 + (float) j * sub.s3);
#if ! CLFX_SRC_BUFFER
            if (hw)
              acc += clfx_canonical (read_imagef (src, smp,
                                                  (float2) (cx, cy)));
            else
#endif
              acc += texel_sample (CLFX_SRC (src),
                                   normalized ? cx * size.x : cx,
                                   normalized ? cy * size.y : cy, linear);
          }
      CLFX_STORE (x, y, acc * inv_count);
    }
}

/* 8-bit sRGB through the image (resize_filter_h, _tile, _strip and
 * _sweep): each group decodes from a table of the 256 codes' linear
 * values in local memory, a lookup per colour channel, where evaluating
 * the curve per texel read cost a power per channel
 * (docs/notebook/performance-2026.md, "Resize in 8-bit sRGB: a decode
 * table per work-group, fused taps").  Each entry is what
 * clfx_srgb_decode_unorm8 gives for its code, so the values are the
 * curve's as before, within the read conversion's ulp the tolerance
 * already states.  RESIZE_NO_LUT (a build option) evaluates the curve
 * per texel again, to compare. */
#if ! CLFX_SRC_BUFFER && CLFX_SRGB && CLFX_DEPTH == CLFX_DEPTH_CODE_U8 \
  && ! defined(RESIZE_NO_LUT)
#define RESIZE_LUT 1
#else
#define RESIZE_LUT 0
#endif

/* A texel read, decoded to linear light and premultiplied. */
inline float4
tile_decode (float4 v, __local const float *dec)
{
#if RESIZE_LUT
  v.x = dec[convert_int_rte (v.x * 255.0f)];
#if CLFX_CHANNELS == 4
  v.y = dec[convert_int_rte (v.y * 255.0f)];
  v.z = dec[convert_int_rte (v.z * 255.0f)];
#endif
#else
  (void) dec;
  v = clfx_decode (v);
#endif
  return clfx_premul (v);
}

/* The decode table, filled by a group of n work-items (lid its local
 * index) before the barrier that precedes its first lookup; without
 * RESIZE_LUT a kernel neither fills nor reads it. */
inline void
resize_decode_table (__local float *dec, int lid, int n)
{
#if RESIZE_LUT
  for (int c = lid; c < 256; c += n)
    dec[c] = clfx_srgb_decode_unorm8 ((float) c / 255.0f);
#else
  (void) dec;
  (void) lid;
  (void) n;
#endif
}

/* The weight tables are stored tap-major, weights[k * n + d], so the
 * work-items of a warp (consecutive d) read consecutive floats.
 *
 * Horizontal pass: inter(x - x0, r) = sum_k w[x][k] * src(start[x] + k,
 * in_y + r) for the result columns x0 = dst_rect.x ... and the source rows
 * in_y ... in_y + rows - 1 the vertical pass reads.  start[x] == INT_MIN
 * marks a column outside the source under `guard`: it becomes 0. */
__kernel __attribute__ ((reqd_work_group_size (16, 16, 1))) void
resize_filter_h (CLFX_SRC_ARGS (src), write_only image2d_t inter,
                 __global const int *start, __global const float *weights,
                 int ntaps, int dst_w, int4 span)
{
  int gx = get_global_id (0), r = get_global_id (1);
  int x = span.x + gx, j = span.y + r;
#if RESIZE_LUT
  /* The decode table, a work-item's entry each: the shrinks that come
   * here have the most taps (more than FIXED_TAPS_MAX,
   * engine/ops/resize.c), and the curve's power per channel per tap was
   * most of the pass.  In groups of 16 x 16, as the tiled kernel: in
   * groups of 64 x 1 the shrinks to an eighth ran slower than without
   * the table (docs/notebook/performance-2026.md, "The two-pass form's
   * decode through the group's table (5d52925)"). */
  __local float dec[256];
  int           lid = get_local_id (1) * 16 + get_local_id (0);
  resize_decode_table (dec, lid, 256);
  barrier (CLK_LOCAL_MEM_FENCE);
#else
  __local const float *dec = NULL;
#endif

  if (gx >= span.z || r >= span.w)
    return;

  int    i0 = start[x];
  float4 acc = (float4) (0.0f);
  if (i0 != INT_MIN)
    for (int k = 0; k < ntaps; k++)
      acc += weights[(long) k * dst_w + x]
             * tile_decode (clfx_load (CLFX_SRC (src), i0 + k, j), dec);
  write_imagef (inter, (int2) (gx, r), acc);
}

/* Vertical pass over the intermediate rows in_y ... (source rows). */
__kernel void
resize_filter_v (read_only image2d_t inter, CLFX_DST_ARGS,
                 __global const int *start, __global const float *weights,
                 int ntaps, int dst_h, int in_y)
{
  int gx = get_global_id (0), gy = get_global_id (1);
  int x = CLFX_DST_X (gx), y = CLFX_DST_Y (gy);

  if (gx >= dst_rect.z || gy >= dst_rect.w)
    return;

  int    j0 = start[y];
  float4 acc = (float4) (0.0f);
  if (j0 != INT_MIN)
    for (int k = 0; k < ntaps; k++)
      acc += weights[(long) k * dst_h + y]
             * read_imagef (inter, (int2) (gx, j0 + k - in_y));
  CLFX_STORE (x, y, acc);
}

/* The same two passes with the intermediate in a buffer (inter_w float4
 * per row), for CPU devices: there an image read or write is a call
 * through a format switch, and the vertical pass's loads of consecutive
 * result columns become one vector load.  Taps inside the source skip the
 * addressing. */
/* Each work-item makes CLFX_HB_ROWS rows of one result column: its tap
 * positions and weights are loaded once for all of them.  Where every tap
 * is inside the source the rows are the inner loop, so that their sums
 * are independent chains of additions a CPU runs side by side (one row
 * after another, each tap's addition waits for the one before: 4 cycles a
 * tap on the CPUs measured); each row's sum is still its taps in order. */
__kernel void
resize_filter_hb (CLFX_SRC_ARGS (src), __global float4 *inter,
                  __global const int *start, __global const float *weights,
                  int ntaps, int dst_w, int4 span)
{
  int gx = get_global_id (0), r0 = get_global_id (1) * CLFX_HB_ROWS;
  int x = span.x + gx;

  if (gx >= span.z || r0 >= span.w)
    return;

  int  i0 = start[x];
  int  r1 = min (r0 + CLFX_HB_ROWS, span.w);
  bool inside = clfx_window_inside (src_flags, src_view, i0, span.y + r0,
                                    ntaps, r1 - r0);

  if (inside && i0 != INT_MIN && r1 - r0 == CLFX_HB_ROWS)
    {
      float4 acc[CLFX_HB_ROWS];
#pragma unroll
      for (int r = 0; r < CLFX_HB_ROWS; r++)
        acc[r] = (float4) (0.0f);
      for (int k = 0; k < ntaps; k++)
        {
          float w = weights[(long) k * dst_w + x];
#pragma unroll
          for (int r = 0; r < CLFX_HB_ROWS; r++)
            acc[r] += w * clfx_fetch_inside (CLFX_SRC (src), i0 + k,
                                             span.y + r0 + r);
        }
#pragma unroll
      for (int r = 0; r < CLFX_HB_ROWS; r++)
        inter[(long) (r0 + r) * span.z + gx] = acc[r];
      return;
    }
  for (int r = r0; r < r1; r++)
    {
      int    j = span.y + r;
      float4 acc = (float4) (0.0f);
      if (i0 != INT_MIN)
        for (int k = 0; k < ntaps; k++)
          {
            float  w = weights[(long) k * dst_w + x];
            float4 v = inside ? clfx_fetch_inside (CLFX_SRC (src), i0 + k, j)
                              : clfx_fetch (CLFX_SRC (src), i0 + k, j);
            acc += w * v;
          }
      inter[(long) r * span.z + gx] = acc;
    }
}

/* Each work-item makes four consecutive result pixels of a row: they
 * share their taps' rows and weights, so one float16 holds the four sums
 * and each tap is one wide load and multiply-add on a CPU (one sum per
 * work-item waits 4 cycles a tap for the addition before it).  Each
 * pixel's sum is still its taps in order. */
__kernel void
resize_filter_vb (__global const float4 *inter, CLFX_DST_ARGS,
                  __global const int *start, __global const float *weights,
                  int ntaps, int dst_h, int in_y, int2 rows)
{
  int gx = get_global_id (0) * 4, gy = rows.x + (int) get_global_id (1);
  int y = CLFX_DST_Y (gy);

  if (gx >= dst_rect.z || gy >= rows.y)
    return;

  int     j0 = start[y];
  int     n = min (4, dst_rect.z - gx);
  float16 acc = (float16) (0.0f);
  if (j0 != INT_MIN && n == 4)
    for (int k = 0; k < ntaps; k++)
      acc += weights[(long) k * dst_h + y]
             * vload16 (0, (__global const float *)
                             (inter + (long) (j0 + k - in_y) * dst_rect.z
                              + gx));
  else if (j0 != INT_MIN)
    for (int k = 0; k < ntaps; k++)
      {
        float                   w = weights[(long) k * dst_h + y];
        __global const float4 *row = inter + (long) (j0 + k - in_y)
                                               * dst_rect.z + gx;
        acc.s0123 += w * row[0];
        if (n > 1)
          acc.s4567 += w * row[1];
        if (n > 2)
          acc.s89ab += w * row[2];
      }
  CLFX_STORE (CLFX_DST_X (gx), y, acc.s0123);
  if (n > 1)
    CLFX_STORE (CLFX_DST_X (gx + 1), y, acc.s4567);
  if (n > 2)
    CLFX_STORE (CLFX_DST_X (gx + 2), y, acc.s89ab);
  if (n > 3)
    CLFX_STORE (CLFX_DST_X (gx + 3), y, acc.scdef);
}

/* The tap counts, built in by the host on GPUs (engine/ops/resize.c):
 * the tap loops then unroll and issue every tap's loads ahead of its
 * multiply-adds; else the kernel's arguments. */
#ifdef RESIZE_NTX
#define TILE_NTX RESIZE_NTX
#define TILE_NTY RESIZE_NTY
#else
#define TILE_NTX ntx
#define TILE_NTY nty
#endif

inline float4
tile_texel (CLFX_SRC_PARAMS, int i, int j, bool inside,
            __local const float *dec)
{
  return tile_decode (inside ? clfx_load_inside (img, view, flags, pitch, lut,
                                                 i, j)
                             : clfx_load (img, view, flags, pitch, lut, i, j),
                      dec);
}

/* n taps of both passes: local texels t[k] weighted by w[k * stride].
 * Inlined where n is TILE_NTX or TILE_NTY: with the counts built in, the
 * loop's trip count is then a constant and it unrolls. */
inline CLFX_ALWAYS_INLINE float4
tile_taps (__local const float4 *t, __global const float *w, int stride,
           int n)
{
  float4 acc = (float4) (0.0f);
#ifdef RESIZE_NTX
#pragma unroll
#endif
  for (int k = 0; k < n; k++)
    acc = CLFX_MAD4 (w[(long) k * stride], t[k], acc);
  return acc;
}

/* One value of the rows pass: footprint row r filtered for result column
 * x (the group's column ox), into rows[ox * rs + r]. */
inline void
tile_row (__local const float4 *tile, __local float4 *rows, int tw, int rs,
          int x, int x_end, int sx0, __global const int *start_x,
          __global const float *wx, int ntx, int dst_w, int ox, int r)
{
  float4 acc = (float4) (0.0f);

  (void) ntx;
  if (x < x_end && start_x[x] != INT_MIN)
    acc = tile_taps (tile + r * tw + (start_x[x] - sx0), wx + x, dst_w,
                     TILE_NTX);
  rows[ox * rs + r] = acc;
}

/* Both passes in one launch, for when a 16 x 16 tile's source footprint
 * fits in local memory: the work-group loads the footprint once, filters
 * its rows into local memory and then its columns.  Same sums in the same
 * order as filter_h/filter_v, without the float intermediate image in
 * global memory, which costs more than the source itself.  span_w/span_h
 * bound every group's footprint and tile_x0/tile_y0 say where each
 * group's starts (both computed by the host from the tap tables for this
 * launch's rectangle). */
__kernel __attribute__ ((reqd_work_group_size (16, 16, 1))) void
resize_filter_tile (CLFX_SRC_ARGS (src), CLFX_DST_ARGS,
                    __global const int *start_x, __global const float *wx,
                    int ntx, __global const int *start_y,
                    __global const float *wy, int nty, int dst_w, int dst_h,
                    int span_w, int span_h, __global const int *tile_x0,
                    __global const int *tile_y0, int bands,
                    __local float4 *tile, __local float4 *rows)
{
  int lx = get_local_id (0), ly = get_local_id (1);
  int lid = ly * 16 + lx;
  int x0 = dst_rect.x + get_group_id (0) * 16;
  int y0 = dst_rect.y + get_group_id (1) * 16 * bands;
  int x_end = dst_rect.x + dst_rect.z, y_end = dst_rect.y + dst_rect.w;
  int sx0 = tile_x0[get_group_id (0)], sy0 = tile_y0[get_group_id (1)];
  __local float dec[256];

  /* Filled before the footprint's loads read it (the barrier below); a
   * build without the table has neither. */
  resize_decode_table (dec, lid, 256);
  /* A footprint inside the source (or a tile, which holds it) is read
   * without addressing; near the border clfx_fetch applies it. */
  bool inside = clfx_window_inside (src_flags, src_view, sx0, sy0, span_w,
                                    span_h);
  /* The texel's column and row in the footprint advance by 256 texels
   * with no division per texel. */
  int step_r = 256 / span_w, step_c = 256 % span_w;
  int c0 = lid % span_w, r0 = lid / span_w;
  /* Row strides of the footprint and of the rows pass's result (a row
   * per result column), odd (the host sizes both so): local memory serves
   * a 16-byte read to 8 work-items a turn, conflict-free when their
   * addresses differ modulo 8 texels, which 8 rows or 8 columns at an odd
   * stride do. */
  int tw = span_w | 1, rs = span_h | 1;
#if RESIZE_LUT
  barrier (CLK_LOCAL_MEM_FENCE);
#endif
  /* Four reads in flight per work-item: one at a time, each tile waited
   * out the full texture latency once per 256 texels. */
  for (int i0 = lid; i0 < span_w * span_h; i0 += 4 * 256)
    {
      float4 v[4];
      int    at[4];
      int    c = c0, r = r0;
#pragma unroll
      for (int u = 0; u < 4; u++)
        {
          if (i0 + u * 256 < span_w * span_h)
            v[u] = tile_texel (CLFX_SRC (src), sx0 + c, sy0 + r, inside, dec);
          at[u] = r * tw + c;
          c += step_c;
          r += step_r;
          if (c >= span_w)
            {
              c -= span_w;
              r++;
            }
        }
      c0 = c;
      r0 = r;
#pragma unroll
      for (int u = 0; u < 4; u++)
        if (i0 + u * 256 < span_w * span_h)
          tile[at[u]] = v[u];
    }
  barrier (CLK_LOCAL_MEM_FENCE);

  /* The rows pass.  A read that several work-items of a turn share is
   * served once, so the work-items side by side are:
   * - where the result is narrower than the source (RESIZE_ROWS_DOWN, set
   *   by the host), consecutive footprint rows of one result column, one
   *   turn for 8 reads at any scale, where consecutive result columns of
   *   a 2x shrink read every other texel: two turns;
   * - else consecutive result columns of one row, whose taps in an
   *   enlargement are the same texels or neighbours: fewer texels a turn
   *   than 8 rows.
   * docs/notebook/performance-2026.md, "Resize's rows pass without bank
   * conflicts (5710c57), and the local-memory floor". */
#ifdef RESIZE_ROWS_DOWN
  for (int ox = lid / span_h, r = lid % span_h; ox < 16;)
    {
      tile_row (tile, rows, tw, rs, x0 + ox, x_end, sx0, start_x, wx, ntx,
                dst_w, ox, r);
      ox += 256 / span_h;
      r += 256 % span_h;
      if (r >= span_h)
        {
          r -= span_h;
          ox++;
        }
    }
#else
  for (int r = lid / 16; r < span_h; r += 16)
    tile_row (tile, rows, tw, rs, x0 + lx, x_end, sx0, start_x, wx, ntx,
              dst_w, lx, r);
#endif
  barrier (CLK_LOCAL_MEM_FENCE);

  int x = x0 + lx;
  if (x >= x_end)
    return;
  for (int b = 0; b < bands; b++)
    {
      int    y = y0 + b * 16 + ly;
      float4 acc = (float4) (0.0f);
      if (y >= y_end)
        return;
      if (start_y[y] != INT_MIN)
        acc = tile_taps (rows + lx * rs + (start_y[y] - sy0), wy + y, dst_h,
                         TILE_NTY);
      CLFX_STORE (x, y, acc);
    }
}

/* Shrinks by whole factors of 8-bit data on GPUs (the host builds this
 * where every result pixel's first tap lies STRIP_FX texels right of its
 * left neighbour's and STRIP_FY rows below its upper neighbour's, with the
 * factors and tap counts as build constants).  A work-group makes 64
 * result columns of `rows` result rows, walking down the source: for each
 * source row its work-items read the group's texels of that row (each
 * texel once), decode them into local memory, and each takes its column's
 * row value from there; the row value goes into the sums of the
 * STRIP_A result rows that have it as a tap, held in registers.  The
 * tiled kernel instead stores a 2D footprint, filters its rows into local
 * memory and reads the columns' taps back from there: twice the local
 * memory traffic a result, and its load, rows pass and columns pass
 * behind barriers.  Float data keeps the tiled kernel, faster there
 * (docs/notebook/performance-2026.md, "8-bit shrinks by whole factors
 * down strips (17705d1)").  Same weights, the same fused sums in the same
 * tap order: the tiled kernel's results. */
#if defined(STRIP_FX) || defined(SWEEP_FX)
/* The strip and sweep kernels' arguments: the tables of both axes, the
 * result's size and the result rows a work-group makes. */
#define STRIP_KERNEL_ARGS                                                    \
  CLFX_SRC_ARGS (src), CLFX_DST_ARGS, __global const int *start_x,           \
    __global const float *wx, __global const int *start_y,                   \
    __global const float *wy, int dst_w, int dst_h, int rows

/* A work-group's place: 64 result columns from xg, `rows` result rows
 * from y0, within the launch's rectangle. */
#define STRIP_GROUP                                                          \
  int lid = get_local_id (0);                                                \
  int xg = dst_rect.x + get_group_id (0) * 64;                               \
  int y0 = dst_rect.y + get_global_id (1) * rows;                            \
  int x_end = dst_rect.x + dst_rect.z, y_end = dst_rect.y + dst_rect.w

/* After source row group g: result row g - (a - 1) has had its last tap
 * (its sum acc[a - 1]) and is stored; the other sums move up one. */
#define STRIP_ROW_DONE(a)                                                    \
  do                                                                         \
    {                                                                        \
      int o_ = g - ((a) - 1);                                                \
      if (o_ >= 0 && xg + lid < x_end)                                       \
        CLFX_STORE (xg + lid, y0 + o_, acc[(a) - 1]);                        \
      _Pragma ("unroll") for (int q_ = (a) - 1; q_ > 0; q_--)                \
        acc[q_] = acc[q_ - 1];                                               \
      acc[0] = (float4) (0.0f);                                              \
    }                                                                        \
  while (0)

#endif

#ifdef STRIP_FX
#define STRIP_A ((RESIZE_NTY + STRIP_FY - 1) / STRIP_FY) /* rows in flight */
#define STRIP_W (STRIP_FX * 63 + RESIZE_NTX) /* a group's texels a row */
#define STRIP_L ((STRIP_W + 63) / 64)        /* of them a work-item's */

/* Row rr (at most r_last) of the texels col[] (-1: the border) that a
 * work-item puts into its group's row, as read. */
inline CLFX_ALWAYS_INLINE void
strip_read (float4 *next, CLFX_SRC_PARAMS, const int *col, bool tiled,
            int mode, int rr, int r_last)
{
  int r = min (rr, r_last);
  int a = tiled ? r : clfx_address (r, view.w, mode);

  (void) flags;
#pragma unroll
  for (int i = 0; i < STRIP_L; i++)
    next[i] = (! tiled && a < 0) || col[i] < 0
                ? (float4) (0.0f)
                : clfx_texel (img, pitch, lut, col[i], a - view.y);
}

__kernel __attribute__ ((reqd_work_group_size (64, 1, 1))) void
resize_filter_strip (STRIP_KERNEL_ARGS)
{
  STRIP_GROUP;
  __local float  dec[256];
  __local float4 buf[2][STRIP_W];

#if RESIZE_LUT
  resize_decode_table (dec, lid, 64);
  barrier (CLK_LOCAL_MEM_FENCE);
#endif
  /* Work-items right of the result's end read and decode their share
   * of the row like the others (the group's barrier), take the last
   * column's taps and store nothing. */
  int  last = min (xg + 63, x_end - 1), x = min (xg + lid, last);
  int  n_out = min (rows, y_end - y0);
  int  sx = start_x[xg], sy = start_y[y0];
  int  cmax = start_x[last] + RESIZE_NTX - 1;
  int  off = start_x[x] - sx;
  bool tiled = src_flags & CLFX_SRC_TILED;
  int  mode = src_flags & CLFX_SRC_ADDRESSING_MASK;
  int  col[STRIP_L];
  float w[RESIZE_NTX];
  float4 acc[STRIP_A], next[STRIP_L];

  /* The texels this work-item reads, addressing applied once for every
   * row (-1: the border, 0; a tile holds its border already). */
#pragma unroll
  for (int i = 0; i < STRIP_L; i++)
    {
      int c = min (sx + lid + 64 * i, cmax);
      c = tiled ? c : clfx_address (c, src_view.z, mode);
      col[i] = ! tiled && c < 0 ? -1 : c - src_view.x;
    }
#pragma unroll
  for (int k = 0; k < RESIZE_NTX; k++)
    w[k] = wx[(long) k * dst_w + x];
#pragma unroll
  for (int q = 0; q < STRIP_A; q++)
    acc[q] = (float4) (0.0f);

  /* Source rows in groups of STRIP_FY: row sy + STRIP_FY * g + p is tap
   * STRIP_FY * q + p of result row g - q, whose sum is acc[q]; after each
   * group the oldest row is done and the others move up one, so that
   * every index is known when the program is built (a rotating index
   * would put the sums in memory).  The next row's texels are read while
   * this one is filtered, and the row buffers alternate, so one barrier a
   * row keeps a row's writes from its readers. */
  int groups = n_out + STRIP_A - 1;
  int r_last = sy + STRIP_FY * (n_out - 1) + RESIZE_NTY - 1;
  int par = 0;
  strip_read (next, CLFX_SRC (src), col, tiled, mode, sy, r_last);
  for (int g = 0; g < groups; g++)
    {
#pragma unroll
      for (int p = 0; p < STRIP_FY; p++)
        {
          int r = sy + STRIP_FY * g + p;
          /* Whether any result row of this group takes row r (the same
           * for every work-item). */
          if (STRIP_FY * (g - n_out + 1) + p >= RESIZE_NTY)
            continue;
          __local float4 *b = buf[par];
          par ^= 1;
#pragma unroll
          for (int i = 0; i < STRIP_L; i++)
            if (lid + 64 * i < STRIP_W)
              b[lid + 64 * i] = tile_decode (next[i], dec);
          strip_read (next, CLFX_SRC (src), col, tiled, mode, r + 1, r_last);
          barrier (CLK_LOCAL_MEM_FENCE);
          float4 h = (float4) (0.0f);
#pragma unroll
          for (int k = 0; k < RESIZE_NTX; k++)
            h = CLFX_MAD4 (w[k], b[off + k], h);
#pragma unroll
          for (int q = 0; q < STRIP_A; q++)
            {
              int k = STRIP_FY * q + p, o = g - q;
              if (k >= RESIZE_NTY || o < 0 || o >= n_out)
                continue;
              acc[q] = CLFX_MAD4 (wy[(long) k * dst_h + y0 + o], h, acc[q]);
            }
        }
      STRIP_ROW_DONE (STRIP_A);
    }
}
#endif

/* Shrinks by whole factors (the host's conditions as for the strip
 * kernel), the rows pass in registers.  The strip kernel's taps from
 * local memory, where consecutive work-items read texels FX apart (eight
 * turns of the banks a tap), were most of its local-memory traffic.  Here
 * a work-item sweeps along a piece of one source row (64 / SWEEP_R
 * work-items a row, SWEEP_C result columns each), its taps in registers:
 * the piece's texels are read in SWEEP_PHASES phases (the host's
 * choose_sweep_phases says how many) and each decoded once (the first
 * RESIZE_NTX - FX twice, by the neighbouring piece too).  Its row values
 * go to local memory by column, and the columns pass, a work-item a
 * column, adds each into the sums of the result rows that take it, as
 * the strip kernel does.  SWEEP_R source rows a turn (the host's
 * SWEEP_ROWS says why 8), two barriers a turn.  With SWEEP_SAME_WEIGHTS
 * (every result pixel's weights the first's, which the host checks) the
 * weights are registers too, else each column's come from local memory.
 * Same weights, fused sums and tap order as the tiled and strip kernels:
 * their results (docs/notebook/performance-2026.md, "The rows pass in
 * registers: the sweep kernel (5bb7e81)"). */
#ifdef SWEEP_FX
#ifndef SWEEP_R
#error "build with -DSWEEP_R=<source rows a turn, a multiple of SWEEP_FY>"
#endif
#define SWEEP_P (64 / SWEEP_R)
#define SWEEP_C (64 / SWEEP_P)
#define SWEEP_A ((RESIZE_NTY + SWEEP_FY - 1) / SWEEP_FY) /* rows in flight */
#define SWEEP_W (SWEEP_FX * 63 + RESIZE_NTX) /* a group's texels a row */
#define SWEEP_HS (SWEEP_R + 1) /* odd: a column's row values, 8 columns a
                                  turn of 16-byte accesses, no conflict */
/* SWEEP_PHASES, the host's SweepPhases: 0 a sliding window, 1 one phase,
 * 2 two phases. */
#ifndef SWEEP_PHASES
#error "build with -DSWEEP_PHASES=<0 (a sliding window), 1 or 2>"
#endif

/* The texels the first c result columns of a piece take. */
#define SWEEP_END(c) ((c) ? SWEEP_FX * ((c) - 1) + RESIZE_NTX : 0)

/* A phase of the rows pass, result columns c0 to c1 - 1 of the piece: the
 * texels it adds are all read before any is decoded, so that their reads
 * wait for the texture unit together (a sliding window waits once a
 * column).  Written out for each phase, with constant bounds, so that
 * every loop unrolls and tx[] stays in registers: as a loop over the
 * phases, tx[] went to memory on NVIDIA and ran three times slower
 * (docs/notebook/performance-2026.md, "The sweep kernel's time, and its
 * texels read at once (e9184f6)"). */
#define SWEEP_PHASE(c0, c1)                                                  \
  do                                                                         \
    {                                                                        \
      _Pragma ("unroll") for (int i = SWEEP_END (c0); i < SWEEP_END (c1);    \
                              i++)                                           \
        tx[i] = sweep_read (CLFX_SRC (src), pc[i], a);                       \
      _Pragma ("unroll") for (int i = SWEEP_END (c0); i < SWEEP_END (c1);    \
                              i++)                                           \
        tx[i] = tile_decode (tx[i], dec);                                    \
      _Pragma ("unroll") for (int c = (c0); c < (c1); c++)                   \
        {                                                                    \
          float4 h = (float4) (0.0f);                                        \
          _Pragma ("unroll") for (int k = 0; k < RESIZE_NTX; k++)            \
            h = CLFX_MAD4 (SWEEP_WX (k, c), tx[SWEEP_FX * c + k], h);        \
          ph[c * SWEEP_HS] = h;                                              \
        }                                                                    \
    }                                                                        \
  while (0)

/* Texel `col` (-1: the border, 0) of row a, as read; tile_decode makes
 * the border's 0 a 0 again. */
inline float4
sweep_read (CLFX_SRC_PARAMS, int col, int a)
{
  (void) view;
  (void) flags;
  return col < 0 ? (float4) (0.0f) : clfx_texel (img, pitch, lut, col, a);
}

__kernel __attribute__ ((reqd_work_group_size (64, 1, 1))) void
resize_filter_sweep (STRIP_KERNEL_ARGS)
{
  STRIP_GROUP;
  __local float  dec[256];
  __local int    cols[SWEEP_W];
  __local float4 hb[64 * SWEEP_HS];

  resize_decode_table (dec, lid, 64);
  /* Columns right of the result's end read the last column's texels and
   * store nothing. */
  int  last = min (xg + 63, x_end - 1);
  int  n_out = min (rows, y_end - y0);
  int  sx = start_x[xg], sy = start_y[y0];
  int  cmax = start_x[last] + RESIZE_NTX - 1;
  bool tiled = src_flags & CLFX_SRC_TILED;
  int  mode = src_flags & CLFX_SRC_ADDRESSING_MASK;

  /* The group's texel columns, addressing applied once (-1: the border;
   * a tile holds its border already). */
  for (int i = lid; i < SWEEP_W; i += 64)
    {
      int c = min (sx + i, cmax);
      c = tiled ? c : clfx_address (c, src_view.z, mode);
      cols[i] = ! tiled && c < 0 ? -1 : c - src_view.x;
    }
#ifdef SWEEP_SAME_WEIGHTS
  /* Every result pixel's weights are the first's (the host's check). */
  float wxk[RESIZE_NTX], wyk[RESIZE_NTY];
#pragma unroll
  for (int k = 0; k < RESIZE_NTX; k++)
    wxk[k] = wx[(long) k * dst_w];
#pragma unroll
  for (int k = 0; k < RESIZE_NTY; k++)
    wyk[k] = wy[(long) k * dst_h];
#define SWEEP_WX(k, c) wxk[k]
#define SWEEP_WY(k, o) wyk[k]
#else
  /* The group's columns' weights, tap-major: the rows pass's work-items
   * of a warp read the same one. */
  __local float wl[RESIZE_NTX * 64];
  for (int i = lid; i < RESIZE_NTX * 64; i += 64)
    wl[i] = wx[(long) (i / 64) * dst_w + min (xg + i % 64, last)];
#define SWEEP_WX(k, c) wl[(k) * 64 + part * SWEEP_C + (c)]
#define SWEEP_WY(k, o) wy[(long) (k) * dst_h + y0 + (o)]
#endif
  barrier (CLK_LOCAL_MEM_FENCE);

  /* Source rows sy + t, t < total; row t = SWEEP_FY * g + p is tap
   * SWEEP_FY * q + p of result row g - q, whose sum is acc[q] (the strip
   * kernel's order). */
  int j = lid % SWEEP_R, part = lid / SWEEP_R;
  int total = SWEEP_FY * (n_out - 1) + RESIZE_NTY;
  int groups = n_out + SWEEP_A - 1;
  __local const int *pc = cols + part * SWEEP_FX * SWEEP_C;
  __local float4 *ph = hb + part * SWEEP_C * SWEEP_HS + j;
  __local const float4 *mine = hb + lid * SWEEP_HS;
  float4 acc[SWEEP_A];

#pragma unroll
  for (int q = 0; q < SWEEP_A; q++)
    acc[q] = (float4) (0.0f);
  for (int t0 = 0; t0 < total; t0 += SWEEP_R)
    {
      /* The rows pass: row t0 + j, SWEEP_C columns from `part`'s. */
      int r = sy + t0 + j;
      int a = tiled ? r : clfx_address (r, src_view.w, mode);
      if (t0 + j >= total)
        ;
      else if (! tiled && a < 0)
        {
#pragma unroll
          for (int c = 0; c < SWEEP_C; c++)
            ph[c * SWEEP_HS] = (float4) (0.0f);
        }
      else
        {
          a -= src_view.y;
#if SWEEP_PHASES
          float4 tx[SWEEP_END (SWEEP_C)];
          SWEEP_PHASE (0, SWEEP_C / SWEEP_PHASES);
#if SWEEP_PHASES == 2
          SWEEP_PHASE (SWEEP_C / 2, SWEEP_C);
#endif
#else
          float4 win[RESIZE_NTX];
#pragma unroll
          for (int i = 0; i < RESIZE_NTX - SWEEP_FX; i++)
            win[SWEEP_FX + i]
              = tile_decode (sweep_read (CLFX_SRC (src), pc[i], a), dec);
#pragma unroll
          for (int c = 0; c < SWEEP_C; c++)
            {
#pragma unroll
              for (int k = 0; k < RESIZE_NTX - SWEEP_FX; k++)
                win[k] = win[k + SWEEP_FX];
#pragma unroll
              for (int i = 0; i < SWEEP_FX; i++)
                win[RESIZE_NTX - SWEEP_FX + i] = tile_decode (
                  sweep_read (CLFX_SRC (src),
                              pc[SWEEP_FX * c + RESIZE_NTX - SWEEP_FX + i], a),
                  dec);
              float4 h = (float4) (0.0f);
#pragma unroll
              for (int k = 0; k < RESIZE_NTX; k++)
                h = CLFX_MAD4 (SWEEP_WX (k, c), win[k], h);
              ph[c * SWEEP_HS] = h;
            }
#endif
        }
      barrier (CLK_LOCAL_MEM_FENCE);

      /* The columns pass: this work-item's column, the turn's rows. */
      for (int gg = 0; gg < SWEEP_R / SWEEP_FY; gg++)
        {
          int g = t0 / SWEEP_FY + gg;
          if (g >= groups)
            break;
#pragma unroll
          for (int p = 0; p < SWEEP_FY; p++)
            {
              if (SWEEP_FY * (g - n_out + 1) + p >= RESIZE_NTY)
                continue;
              float4 h = mine[SWEEP_FY * gg + p];
#pragma unroll
              for (int q = 0; q < SWEEP_A; q++)
                {
                  int k = SWEEP_FY * q + p, o = g - q;
                  if (k >= RESIZE_NTY || o < 0 || o >= n_out)
                    continue;
                  acc[q] = CLFX_MAD4 (SWEEP_WY (k, o), h, acc[q]);
                }
            }
          STRIP_ROW_DONE (SWEEP_A);
        }
      barrier (CLK_LOCAL_MEM_FENCE);
    }
#undef SWEEP_WX
#undef SWEEP_WY
}
#endif
