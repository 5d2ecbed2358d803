/* SPDX-License-Identifier: GPL-3.0-or-later */
/* filter-fir.cl: a separable correlation (the FIR gaussian, the box) in
 * two passes from the source to the result through a float4 buffer
 * (engine/ops/filter-common.c, clfx_filter_fir).  The first reads the
 * source itself (decoded, premultiplied, addressing applied), the second
 * stores the result itself, so the taps are the only work between the
 * upload and the download.  Taps are summed in ascending order, as GEGL's
 * FIR sums them.
 *
 * CPU devices run filter_conv_hv and filter_conv_vv, which read their
 * buffers directly, several results per work-item.  On GPUs
 * (filter_conv_h, filter_conv_v, built where the source is an image) each
 * work-group first copies the texels its taps read into local memory,
 * one global read per texel and work-group: from there a tap costs a
 * local read, where a texture fetch per tap made the passes fetch-bound.
 * The local forms have no early return and no barrier under a condition:
 * PoCL 6.0 corrupted its heap when work-items returned after the barrier,
 * and summed wrongly with the barrier under a kernel argument's
 * condition. */
#include "clfx-io.h"
#include "filter-fir-shapes.h"
#include "filter-fir.h"

/* The CPU devices' forms (and wherever the local forms do not run),
 * straight from the buffers: FV neighbouring results of a row per
 * work-item, as two float16 of four RGBA results each.  PoCL runs a
 * work-item's arithmetic one pixel at a time: here one float16
 * multiply-add serves four results, and the window of FV texels moves
 * along the row by one read per tap (rows and columns together about 3.5
 * times faster on PoCL than a result per work-item).  Each result's taps
 * are summed in ascending order, as everywhere.  Work-items whose window
 * leaves the source, or that reach past the last result, make their
 * results one at a time. */
__kernel void
filter_conv_hv (CLFX_SRC_ARGS (src), __global float4 *inter, int4 rect,
                __constant float *k, int n)
{
  int gx = get_global_id (0) * FV, gy = get_global_id (1);

  if (gx >= rect.z || gy >= rect.w)
    return;

  int              x = rect.x + gx - n / 2, sy = rect.y + gy;
  int              m = min (FV, rect.z - gx);
  __global float4 *out = inter + (long) gy * rect.z + gx;

  if (m < FV
      || ! clfx_window_inside (src_flags, src_view, x, sy, n - 1 + FV, 1))
    {
      for (int l = 0; l < m; l++)
        {
          float4 acc = (float4) (0.0f);
          if (clfx_window_inside (src_flags, src_view, x + l, sy, n, 1))
            for (int i = 0; i < n; i++)
              acc += k[i] * clfx_fetch_inside (CLFX_SRC (src), x + l + i,
                                               sy);
          else
            for (int i = 0; i < n; i++)
              acc += k[i] * clfx_fetch (CLFX_SRC (src), x + l + i, sy);
          out[l] = acc;
        }
      return;
    }

#define FV_TEXEL(i) clfx_fetch_inside (CLFX_SRC (src), x + (i), sy)
  /* The window: texels i .. i + FV - 1 for tap i, lo the first four. */
  float16 lo = (float16) (FV_TEXEL (0), FV_TEXEL (1), FV_TEXEL (2),
                          FV_TEXEL (3));
  float16 hi = (float16) (FV_TEXEL (4), FV_TEXEL (5), FV_TEXEL (6),
                          FV_TEXEL (7));
  float16 a = (float16) (0.0f), b = (float16) (0.0f);
#define FV_MOVE(next)                                                        \
  do                                                                         \
    {                                                                        \
      lo = (float16) (lo.s456789ab, lo.scdef, hi.s0123);                     \
      hi = (float16) (hi.s456789ab, hi.scdef, FV_TEXEL (next));              \
    }                                                                        \
  while (0)
  for (int i = 0; i < n; i++)
    {
      a += k[i] * lo;
      b += k[i] * hi;
      if (i + 1 < n)
        FV_MOVE (i + FV);
    }
#undef FV_MOVE
#undef FV_TEXEL
  vstore16 (a, 0, (__global float *) out);
  vstore16 (b, 0, (__global float *) (out + 4));
}

/* The same down the columns of the rows pass (filter_conv_hv's reasons):
 * FV results of a row per work-item, as two float16; the last results of
 * a row one at a time.  renorm = (on, source width, height): edge
 * handling none divides by the weight of both axes' taps inside. */
__kernel void
filter_conv_vv (__global const float4 *inter, int w, CLFX_DST_ARGS,
                __constant float *k, int n, int4 renorm,
                __constant float *kx, int nx)
{
  int gx = get_global_id (0) * FV, gy = get_global_id (1);

  if (gx >= dst_rect.z || gy >= dst_rect.w)
    return;

  int                    m = min (FV, dst_rect.z - gx);
  __global const float4 *col = inter + (long) gy * w + gx;
  float4                 res[FV];

  if (m < FV)
    for (int l = 0; l < m; l++)
      {
        float4 acc = (float4) (0.0f);
        for (int j = 0; j < n; j++)
          acc += k[j] * col[(long) j * w + l];
        res[l] = acc;
      }
  else
    {
      float16 a = (float16) (0.0f), b = (float16) (0.0f);
      for (int j = 0; j < n; j++)
        {
          __global const float *row = (__global const float *) (col
                                                                + (long) j
                                                                    * w);
          a += k[j] * vload16 (0, row);
          b += k[j] * vload16 (1, row);
        }
      res[0] = a.s0123;
      res[1] = a.s4567;
      res[2] = a.s89ab;
      res[3] = a.scdef;
      res[4] = b.s0123;
      res[5] = b.s4567;
      res[6] = b.s89ab;
      res[7] = b.scdef;
    }
  for (int l = 0; l < m; l++)
    {
      int    x = CLFX_DST_X (gx + l), y = CLFX_DST_Y (gy);
      float4 v = res[l];
      if (renorm.x)
        v /= fir_inside (kx, nx, x, renorm.y) * fir_inside (k, n, y, renorm.z);
      CLFX_STORE (x, y, v);
    }
}

/* A window wider than the image, folded (engine/ops/filter-common.h,
 * ClfxFold): for each position the offsets its window visits, the first
 * and last weighted by edge.x and edge.y (the taps past the edge, or a
 * period's), those between by t[offset + mid] (mid: the middle tap).  A
 * result per work-item, summed in ascending offset.  inter(x, r) over
 * rect.z x rect.w, source row rect.y + r, from column rect.x. */
__kernel void
filter_fold_h (CLFX_SRC_ARGS (src), __global float4 *inter, int4 rect,
               __constant float *t, __global const int2 *range,
               __global const float4 *edge, int mid)
{
  int gx = get_global_id (0), gy = get_global_id (1);

  if (gx >= rect.z || gy >= rect.w)
    return;

  int    x = rect.x + gx, sy = rect.y + gy;
  int2   r = range[x];
  float4 e = edge[x], acc = (float4) (0.0f);

  for (int u = r.x; u <= r.y; u++)
    acc += (u == r.x ? e.x : u == r.y ? e.y : t[u + mid])
           * clfx_fetch (CLFX_SRC (src), x + u, sy);
  inter[(long) gy * rect.z + gx] = acc;
}

/* The columns, folded: result(x, y) from the rows of inter (w wide, its
 * first row source row y0) at y + the offsets of range[y].  renorm (edge
 * handling none): divided by the weight of both axes' taps inside, the
 * rows' from edge_x. */
__kernel void
filter_fold_v (__global const float4 *inter, int w, int y0, CLFX_DST_ARGS,
               __constant float *t, __global const int2 *range,
               __global const float4 *edge, int mid, int renorm,
               __global const float4 *edge_x)
{
  int gx = get_global_id (0), gy = get_global_id (1);

  if (gx >= dst_rect.z || gy >= dst_rect.w)
    return;

  int    x = CLFX_DST_X (gx), y = CLFX_DST_Y (gy);
  int2   r = range[y];
  float4 e = edge[y], acc = (float4) (0.0f);

  for (int v = r.x; v <= r.y; v++)
    acc += (v == r.x ? e.x : v == r.y ? e.y : t[v + mid])
           * inter[(long) (y + v - y0) * w + gx];
  if (renorm)
    acc /= edge_x[x].z * e.z;
  CLFX_STORE (x, y, acc);
}

#if ! CLFX_SRC_BUFFER

/* GPUs.  Reads of the intermediate in flight per work-item while
 * filter_conv_v loads its rows (6 covers 21 taps in one round; one at a
 * time was slower). */
#define FV_LOADS 6
/* Texel reads in flight per work-item while filter_conv_h loads its
 * rows. */
#define FH_LOADS 4

/* acc[q] = sum_i k[i] texel (q + i) for q < FPER, with texel (j) the
 * expression `load` of j: a window of FPER texels in registers moves
 * along the run, so each tap costs one read and FPER multiply-adds, and
 * each result's taps are summed in ascending order. */
#define FIR_RUN(acc, k, n, j, load)                                          \
  do                                                                         \
    {                                                                        \
      float4 win_[FPER];                                                     \
      int    j;                                                              \
      for (j = 0; j < FPER; j++)                                             \
        win_[j] = (load);                                                    \
      for (int i_ = 0; i_ < (n); i_++)                                       \
        {                                                                    \
          float kv_ = (k)[i_];                                               \
          for (int q_ = 0; q_ < FPER; q_++)                                  \
            (acc)[q_] = CLFX_MAD4 (kv_, win_[q_], (acc)[q_]);                \
          for (int q_ = 0; q_ < FPER - 1; q_++)                              \
            win_[q_] = win_[q_ + 1];                                         \
          j = i_ + FPER;                                                     \
          if (i_ + 1 < (n))                                                  \
            win_[FPER - 1] = (load);                                         \
        }                                                                    \
    }                                                                        \
  while (0)

/* inter(x, y) = sum_i k[i] src(rect.x + x - n / 2 + i, rect.y + y) for the
 * rect.z x rect.w intermediate (source coordinates: rect.y is the first
 * source row the vertical pass needs).  FH_W x FH_R work-items, FHP
 * neighbouring results each.  The group's rows, from the first tap of its
 * first result to the last of its last, go through local memory (rows
 * past the end repeat the last one), FH_LOADS texel reads in flight per
 * work-item.  A row is kept in FHP phases, texel s at
 * (s % FHP) * ph + s / FHP, so that a work-item's texel m of its run is
 * one local read that the lanes of a warp make from consecutive texels
 * (no bank conflicts), and it serves the FHP results whose taps hold it:
 * n + FHP - 1 local reads for FHP results, where a result per work-item
 * took n (FHP 2 was the fastest; docs/PERFORMANCE.md).  Each result's
 * taps are still summed in ascending order.  Earlier forms with several
 * results per work-item read a window from registers or a transposed
 * tile: their lanes read texels FPER apart, with bank conflicts. */
__kernel __attribute__ ((reqd_work_group_size (FH_W, FH_R, 1))) void
filter_conv_h (CLFX_SRC_ARGS (src), __global float4 *inter, int4 rect,
               __constant float *k, int n, __local float4 *tile)
{
  int             lx = get_local_id (0), ly = get_local_id (1);
  /* The groups make their rows from the last to the first, so that the
   * columns pass, whose groups start at the top, first reads the rows
   * this pass wrote last, while they are still in the device's cache
   * (the columns pass faster, this pass itself as fast). */
  int             gy = (get_num_groups (1) - 1 - get_group_id (1)) * FH_R
                       + ly;
  int             span = FH_W * FHP + n - 1, ph = (span + FHP - 1) / FHP;
  int             x0 = get_group_id (0) * FH_W * FHP;
  int             sy = rect.y + min (gy, rect.w - 1);
  int             sx0 = rect.x + x0 - n / 2;
  bool            inside = clfx_window_inside (src_flags, src_view, sx0, sy,
                                               span, 1);
  __local float4 *row = tile + ly * FHP * ph;
  float4          acc[FHP];

  for (int i0 = lx; i0 < span; i0 += FH_LOADS * FH_W)
    {
      float4 v[FH_LOADS];
#pragma unroll
      for (int u = 0; u < FH_LOADS; u++)
        if (i0 + u * FH_W < span)
          v[u] = inside ? clfx_fetch_inside (CLFX_SRC (src),
                                             sx0 + i0 + u * FH_W, sy)
                        : clfx_fetch (CLFX_SRC (src), sx0 + i0 + u * FH_W,
                                      sy);
#pragma unroll
      for (int u = 0; u < FH_LOADS; u++)
        if (i0 + u * FH_W < span)
          row[((i0 + u * FH_W) % FHP) * ph + (i0 + u * FH_W) / FHP] = v[u];
    }
  barrier (CLK_LOCAL_MEM_FENCE);
#pragma unroll
  for (int q = 0; q < FHP; q++)
    acc[q] = (float4) (0.0f);
  for (int m0 = 0; m0 < n + FHP - 1; m0 += FHP)
#pragma unroll
    for (int p = 0; p < FHP; p++)
      if (m0 + p < n + FHP - 1)
        {
          float4 t = row[p * ph + lx + m0 / FHP];
#pragma unroll
          for (int q = 0; q < FHP; q++)
            if (m0 + p - q >= 0 && m0 + p - q < n)
              acc[q] = CLFX_MAD4 (k[m0 + p - q], t, acc[q]);
        }
#pragma unroll
  for (int q = 0; q < FHP; q++)
    if (x0 + lx * FHP + q < rect.z && gy < rect.w)
      inter[(long) gy * rect.z + x0 + lx * FHP + q] = acc[q];
}

/* result(x, y) = sum_j k[j] inter(x, y + j) over the result rectangle
 * (inter is w wide and has the n - 1 rows of the halo), the group's rows
 * through local memory, each work-item making FPER neighbouring rows from
 * one sliding run of n + FPER - 1 texels, so that a texel read serves
 * FPER taps.  renorm as filter_conv_vv's. */
__kernel __attribute__ ((reqd_work_group_size (F_LANES, F_LANES, 1))) void
filter_conv_v (__global const float4 *inter, int w, int inter_h,
               CLFX_DST_ARGS, __constant float *k, int n,
               __local float4 *tile, int4 renorm, __constant float *kx,
               int nx)
{
  int    lx = get_local_id (0), lg = get_local_id (1);
  int    gx = get_global_id (0), gy = get_global_id (1) * FPER;
  int    x0 = get_group_id (0) * F_LANES;
  int    y0 = get_group_id (1) * F_LANES * FPER;
  int    span = F_LANES * FPER + n - 1;
  float4 acc[FPER];

  for (int q = 0; q < FPER; q++)
    acc[q] = (float4) (0.0f);
  /* The group's tile: span rows of F_LANES texels, a texel per
   * work-item and read. */
  int    step = F_LANES * F_LANES, end = span * F_LANES;
  for (int i0 = lg * F_LANES + lx; i0 < end; i0 += FV_LOADS * step)
    {
      float4 v[FV_LOADS];
#pragma unroll
      for (int u = 0; u < FV_LOADS; u++)
        {
          int i = i0 + u * step;
          if (i < end)
            v[u] = inter[(long) min (y0 + i / F_LANES, inter_h - 1) * w
                         + min (x0 + i % F_LANES, w - 1)];
        }
#pragma unroll
      for (int u = 0; u < FV_LOADS; u++)
        if (i0 + u * step < end)
          tile[i0 + u * step] = v[u];
    }
  barrier (CLK_LOCAL_MEM_FENCE);
  FIR_RUN (acc, k, n, j, tile[(lg * FPER + j) * F_LANES + lx]);
  for (int q = 0; q < FPER && gx < dst_rect.z && gy + q < dst_rect.w; q++)
    {
      int x = CLFX_DST_X (gx), y = CLFX_DST_Y (gy + q);
      if (renorm.x)
        acc[q] /= fir_inside (kx, nx, x, renorm.y)
                  * fir_inside (k, n, y, renorm.z);
      CLFX_STORE (x, y, acc[q]);
    }
}

#endif /* ! CLFX_SRC_BUFFER */
