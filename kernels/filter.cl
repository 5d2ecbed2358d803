/* filter.cl: kernels of the filter family.
 *
 * filter_conv_h / filter_conv_v: a separable correlation (FIR gaussian,
 * box) in two passes through a float4 buffer.  The first reads the
 * source itself (decoded, premultiplied, addressing applied), the second
 * stores the result itself, so the taps are the only work between the
 * upload and the download.  On GPUs each work-group first
 * copies the texels its taps read into local memory, one global read per
 * texel and work-group: from there a tap costs a local read, where a
 * texture fetch per tap made the passes fetch-bound (8192x8192 float,
 * sigma 3, H200: 3.3 ms a pass with image reads).  CPU devices run the
 * _hv and _vv forms, which read their buffers directly, several results
 * per work-item.  Taps are summed in ascending order, as GEGL's FIR sums
 * them.  The local forms have no
 * early return and no barrier under a condition: PoCL 6.0 corrupted its
 * heap when work-items returned after the barrier, and summed wrongly
 * with the barrier under a kernel argument's condition.  (The IIR is the
 * gaussian block's: gauss-iir.cl.) */
#include "clfx-io.h"

/* The vertical pass's work-group shape (the host launches with it):
 * F_LANES columns x F_LANES work-items of FPER neighbouring rows each,
 * made from one sliding run of n + FPER - 1 texels, so that a texel read
 * serves FPER taps (1.07 ms against 1.34 ms with one row per work-item,
 * H200, 8192x8192 float, 21 taps). */
#define F_LANES 16
#define FPER 4
/* Reads of the intermediate in flight per work-item while the vertical
 * pass loads its rows (6 covers 21 taps in one round): one at a time it
 * took 1.04 ms, six 0.97 ms (H200, as above). */
#define FV_LOADS 6

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
 * took n (H200, 8192x8192 float, 21 taps: 1.20 ms against 1.34; FHP 4
 * 1.23-1.30 ms, FHP 8 1.80 ms).  Each result's taps are still summed in
 * ascending order.  Earlier forms with several results per work-item read
 * a window from registers or a transposed tile (2.12 and 1.65 ms): their
 * lanes read texels FPER apart, with bank conflicts. */
#define FH_W 128
#define FH_R 2
#define FHP 2
#define FH_LOADS 4

__kernel __attribute__ ((reqd_work_group_size (FH_W, FH_R, 1))) void
filter_conv_h (CLFX_SRC_ARGS (src), __global float4 *inter, int4 rect,
               __constant float *k, int n, __local float4 *tile)
{
  int             lx = get_local_id (0), ly = get_local_id (1);
  /* The groups make their rows from the last to the first, so that the
   * columns pass, whose groups start at the top, first reads the rows
   * this pass wrote last, while they are still in the device's cache
   * (H200, 8192x8192 float, 21 taps: the columns pass 0.96 ms after it
   * against 1.04 ms after rows made top first; this pass itself 1.20 ms
   * either way). */
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

/* CPU devices (and wherever the local forms do not run), straight from
 * the buffers: FV neighbouring results of a row per work-item, as two
 * float16 of four RGBA results each.  PoCL runs a work-item's arithmetic
 * one pixel at a time: here one float16 multiply-add serves four results,
 * and the window of FV texels moves along the row by one read per tap
 * (4096x4096 float, 21 taps: rows and columns together about 3.5 times
 * faster than a result per work-item).  Each result's taps are summed in
 * ascending order, as everywhere.  Work-items whose window leaves the
 * source, or that reach past the last result, make their results one at
 * a time. */
#define FV 8

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

/* Edge handling none: the weight of the n taps of k inside 0..size - 1
 * for the result at pos (the taps outside read 0). */
inline float
fir_inside (__constant float *k, int n, int pos, int size)
{
  float w = 0.0f;

  for (int i = 0; i < n; i++)
    if (pos - n / 2 + i >= 0 && pos - n / 2 + i < size)
      w += k[i];
  return w;
}

/* result(x, y) = sum_j k[j] inter(x, y + j) over the result rectangle
 * (inter is w wide and has the n - 1 rows of the halo), the group's rows
 * through local memory.  renorm = (on, source width, height): edge
 * handling none divides by the weight of both axes' taps inside. */
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

/* The same for CPU devices (filter_conv_hv's reasons): FV results of a
 * row per work-item, down the columns of the rows pass, as two float16;
 * the last results of a row one at a time. */
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

/* The box on CPU devices as running sums (filter.c's launch_box): two
 * additions per result and axis where the taps take 2 radius + 1.  A sum
 * starts afresh, a plain sum over its window in ascending order, at every
 * BOX_RUN-th pixel of the whole image (x0, y0: the first start, in this
 * source's coordinates), then slides: plus the texel entering, minus the
 * one leaving.  In double, so that k times the sum, rounded once to
 * float, is as close to the mean as the taps' float sum; and a result
 * depends only on the source and on its place in the whole image, so
 * tiles, bands and cut-outs give the bytes of one piece.  A sum that
 * turns NaN (a NaN entered, or an infinity left) is taken afresh over the
 * window, so a non-finite texel reaches the results whose window holds it
 * and no others, as with the taps (an infinite sum is right while its
 * infinity is in the window, and floats cannot overflow a double sum).
 * What a large value leaves behind in the double sum after it slid out
 * (2^-53 of it) stays inside its run: the validation's per-pixel bound
 * reads back to the run's start (box_source_rect).  On PoCL, 4096x4096
 * float, radius 10: rows 30 ms and columns 28 ms against the taps' 48 and
 * 38; at radius 5 the taps (46 ms both) are faster, hence BOX_RUNS_FROM. */
#define BOX_RUN 32
#define BV 16

#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

/* Rows of the source into `inter` (rect as filter_conv_h's: the result's
 * x and width, the first source row and the rows; rows iw texels apart),
 * a work-item per run and four rows, one to each quarter of a double16
 * (four sums in step: one instruction moves them all). */
__kernel void
filter_box_hr (CLFX_SRC_ARGS (src), __global float4 *inter, int iw,
               int4 rect, int x0, float k, int n)
{
  int run = get_global_id (0), gy = get_global_id (1) * 4;
  int xs = x0 + run * BOX_RUN, r = n / 2;
  int end = min (xs + BOX_RUN, rect.x + rect.z);

  if (gy >= rect.w || xs >= end)
    return;

  /* Rows past the last repeat it (their sums are not stored). */
  int  sy0 = rect.y + gy, sy1 = rect.y + min (gy + 1, rect.w - 1);
  int  sy2 = rect.y + min (gy + 2, rect.w - 1);
  int  sy3 = rect.y + min (gy + 3, rect.w - 1);
  int  rows = min (4, rect.w - gy);
  bool inside = clfx_window_inside (src_flags, src_view, xs - r, sy0,
                                    end - xs + n - 1, sy3 - sy0 + 1);
  __global float4 *out = inter + (long) gy * iw - rect.x;
  double16         s;

  /* The last run zeroes the rows' padding (filter_box_vr reads it). */
  if (end == rect.x + rect.z)
    for (int q = 0; q < rows; q++)
      for (int x = end; x < rect.x + iw; x++)
        out[(long) q * iw + x] = (float4) (0.0f);
#define BOX_FETCH(i, sy)                                                     \
  (inside ? clfx_fetch_inside (CLFX_SRC (src), (i), (sy))                   \
          : clfx_fetch (CLFX_SRC (src), (i), (sy)))
#define BOX_TEXEL(i)                                                         \
  convert_double16 ((float16) (BOX_FETCH (i, sy0), BOX_FETCH (i, sy1),       \
                               BOX_FETCH (i, sy2), BOX_FETCH (i, sy3)))
#define BOX_WINDOW(x)                                                        \
  do                                                                         \
    {                                                                        \
      s = (double16) (0.0);                                                  \
      for (int i_ = -r; i_ <= r; i_++)                                       \
        s += BOX_TEXEL ((x) + i_);                                           \
    }                                                                        \
  while (0)
  BOX_WINDOW (xs);
  for (int x = xs; x < end; x++)
    {
      if (x > xs)
        {
          s += BOX_TEXEL (x + r) - BOX_TEXEL (x - r - 1);
          if (any (isnan (s)))
            BOX_WINDOW (x);
        }
      if (x < rect.x)
        continue;
      float16 v = convert_float16 ((double) k * s);
      float4  q4[4] = { v.s0123, v.s4567, v.s89ab, v.scdef };
      for (int q = 0; q < rows; q++)
        out[(long) q * iw + x] = q4[q];
    }
#undef BOX_WINDOW
#undef BOX_TEXEL
#undef BOX_FETCH
}

/* Then the columns to the result: a work-item per strip of BV columns
 * and run, so that a step reads two lines of BV texels (the one entering
 * and the one leaving) where the hardware prefetches them, four columns
 * to a double16.  inter's rows are iw texels apart (w rounded up to 4,
 * the padding 0), its first row the source's row iy0.  renorm as
 * filter_conv_v's. */
__kernel void
filter_box_vr (__global const float4 *inter, int w, int iw, int iy0, int y0,
               CLFX_DST_ARGS, float k, int n, int4 renorm,
               __constant float *kx, __constant float *ky)
{
  int gx = get_global_id (0) * BV, run = get_global_id (1);
  int ys = y0 + run * BOX_RUN, r = n / 2;
  int end = min (ys + BOX_RUN, dst_rect.y + dst_rect.w);

  if (gx >= w || ys >= end)
    return;

  int      m = min (BV, w - gx), q = (m + 3) / 4;
  double16 s[BV / 4];
#define BOX_ROW(y, c)                                                        \
  convert_double16 (vload16 (0, (__global const float *) (inter              \
                                 + (long) ((y) - iy0) * iw + gx + 4 * (c))))
#define BOX_WINDOW(y, c)                                                     \
  do                                                                         \
    {                                                                        \
      s[c] = (double16) (0.0);                                               \
      for (int j_ = -r; j_ <= r; j_++)                                       \
        s[c] += BOX_ROW ((y) + j_, c);                                       \
    }                                                                        \
  while (0)
  for (int c = 0; c < q; c++)
    BOX_WINDOW (ys, c);
  for (int y = ys; y < end; y++)
    {
      if (y > ys)
        for (int c = 0; c < q; c++)
          {
            s[c] += BOX_ROW (y + r, c) - BOX_ROW (y - r - 1, c);
            if (any (isnan (s[c])))
              BOX_WINDOW (y, c);
          }
      if (y < dst_rect.y)
        continue;
      for (int c = 0; c < q; c++)
        {
          float16 v = convert_float16 ((double) k * s[c]);
          float4  px[4] = { v.s0123, v.s4567, v.s89ab, v.scdef };
          for (int p = 0; p < 4 && 4 * c + p < m; p++)
            {
              int x = dst_rect.x + gx + 4 * c + p;
              if (renorm.x)
                px[p] /= fir_inside (kx, n, x, renorm.y)
                         * fir_inside (ky, n, y, renorm.z);
              CLFX_STORE (x, y, px[p]);
            }
        }
    }
#undef BOX_WINDOW
#undef BOX_ROW
}
#endif

/* sampler-filter linear: `in` (float, with the taps' halo) through the
 * sampler's linear filter, unnormalized: pair j of (offset, weight) is one
 * fetch at offset past the first tap, between two texels whose weights
 * it blends (filter.c's linear_pairs).  Rows first, into `out` (w x h). */
__kernel void
filter_lin_h (read_only image2d_t in, sampler_t smp, write_only image2d_t out,
              __constant float2 *pairs, int m, int w, int h)
{
  int x = get_global_id (0), y = get_global_id (1);

  if (x >= w || y >= h)
    return;

  float4 acc = (float4) (0.0f);
  for (int j = 0; j < m; j++)
    acc += pairs[j].y
           * read_imagef (in, smp, (float2) (x + pairs[j].x + 0.5f,
                                             y + 0.5f));
  write_imagef (out, (int2) (x, y), acc);
}

/* Then the columns to the result; renorm as filter_conv_v's. */
__kernel void
filter_lin_v (read_only image2d_t in, sampler_t smp, CLFX_DST_ARGS,
              __constant float2 *pairs, int m, int4 renorm,
              __constant float *kx, int nx, __constant float *ky, int ny)
{
  int gx = get_global_id (0), gy = get_global_id (1);

  if (gx >= dst_rect.z || gy >= dst_rect.w)
    return;

  float4 acc = (float4) (0.0f);
  for (int j = 0; j < m; j++)
    acc += pairs[j].y
           * read_imagef (in, smp, (float2) (gx + 0.5f,
                                             gy + pairs[j].x + 0.5f));
  int x = CLFX_DST_X (gx), y = CLFX_DST_Y (gy);
  if (renorm.x)
    acc /= fir_inside (kx, nx, x, renorm.y) * fir_inside (ky, ny, y, renorm.z);
  CLFX_STORE (x, y, acc);
}

/* GEGL's edge-sobel, centred on the pixel (GEGL's reads one pixel up and
 * left and leaves seams at its chunks' borders: docs/FILTERS.md), on
 * straight colour in linear light; alpha is the centre's.  mode: bit 0
 * horizontal, bit 1 vertical, bit 2 keep-sign.  The sums are GEGL's, in
 * its order. */
/* |h| and |v| at most a whose squares are normal floats (or 0). */
inline bool
sobel_plain (float a)
{
  return a <= 1e18f && (a >= 1e-18f || a == 0.0f);
}

inline float4
sobel_at (float4 tl, float4 t, float4 tr, float4 l, float4 c, float4 r,
          float4 bl, float4 b, float4 br, int mode, bool root)
{
  float4 h = (float4) (0.0f), v = (float4) (0.0f), g;

  if (mode & 1)
    {
      h += (-1.0f * tl) + (1.0f * tr);
      h += (-2.0f * l) + (2.0f * r);
      h += (-1.0f * bl) + (1.0f * br);
    }
  if (mode & 2)
    {
      v += (1.0f * tl) + (2.0f * t) + (1.0f * tr);
      v += (-1.0f * bl) + (-2.0f * b) + (-1.0f * br);
    }
  if ((mode & 3) == 3)
    {
      /* root (CPU devices): the square root of the squares' sum, where
       * the squares neither overflow (|h| from ~1.8e19: HDR data) nor
       * lose digits below float's normal range, hypot there only
       * (4096x4096 float, PoCL: 260 ms with hypot throughout, 107 ms).
       * GPUs keep hypot: the test cost them more than it saved (8192x8192
       * float, H200: 1.16 -> 1.33 ms). */
      float4 a = fmax (fabs (h), fabs (v));
      g = root && sobel_plain (a.x) && sobel_plain (a.y) && sobel_plain (a.z)
              && sobel_plain (a.w)
            ? sqrt (h * h + v * v)
            : hypot (h, v);
      g /= 5.656854f;
    }
  else if (mode & 4)
    g = 0.5f + (h + v) / 8.0f;
  else
    g = fabs (h + v) / 4.0f;
#if CLFX_CHANNELS == 4
  g.w = c.w;
#elif CLFX_CHANNELS == 2
  g.y = c.y;
#endif
  return g;
}

/* CPU devices: nine reads from the buffer per result. */
__kernel void
filter_sobel (CLFX_SRC_ARGS (src), CLFX_DST_ARGS, int mode)
{
  int gx = get_global_id (0), gy = get_global_id (1);

  if (gx >= dst_rect.z || gy >= dst_rect.w)
    return;

  int    x = CLFX_DST_X (gx), y = CLFX_DST_Y (gy);
  /* Away from the image's edges no addressing to apply. */
  bool   inside = clfx_window_inside (src_flags, src_view, x - 1, y - 1, 3,
                                      3);
#define SOBEL_TEXEL(i, j)                                                    \
  (inside ? clfx_fetch_inside (CLFX_SRC (src), (i), (j))                     \
          : clfx_fetch (CLFX_SRC (src), (i), (j)))
  float4 g = sobel_at (SOBEL_TEXEL (x - 1, y - 1), SOBEL_TEXEL (x, y - 1),
                       SOBEL_TEXEL (x + 1, y - 1), SOBEL_TEXEL (x - 1, y),
                       SOBEL_TEXEL (x, y), SOBEL_TEXEL (x + 1, y),
                       SOBEL_TEXEL (x - 1, y + 1), SOBEL_TEXEL (x, y + 1),
                       SOBEL_TEXEL (x + 1, y + 1), mode, true);
#undef SOBEL_TEXEL
  CLFX_STORE (x, y, g);
}

/* GPUs: a group of SOBEL_W x SOBEL_R work-items makes SOBEL_W x
 * SOBEL_R * SOBEL_Q results from the texels it reads once into local
 * memory (nine texture fetches per result made it 1.9x the copy kernel,
 * H200, 8192x8192 float); each work-item goes down SOBEL_Q rows of a
 * column, a row of three texels read per result.  Against 16 x 16 groups
 * of a result each: fewer halo texels per result (1.13 against 1.27),
 * no addressing where the group's texels are all inside, a third of the
 * local reads: 1.15 -> 1.05 ms.  No early return before or after the
 * barrier (PoCL, see filter_conv_h). */
#define SOBEL_W 32
#define SOBEL_R 8
#define SOBEL_Q 4
#define SOBEL_SW (SOBEL_W + 2)
#define SOBEL_SH (SOBEL_R * SOBEL_Q + 2)

__kernel __attribute__ ((reqd_work_group_size (SOBEL_W, SOBEL_R, 1))) void
filter_sobel_l (CLFX_SRC_ARGS (src), CLFX_DST_ARGS, int mode)
{
  __local float4 tile[SOBEL_SH * SOBEL_SW];
  int            lx = get_local_id (0), ly = get_local_id (1);
  int            gx = get_group_id (0) * SOBEL_W + lx;
  int            gy = get_group_id (1) * SOBEL_R * SOBEL_Q + ly * SOBEL_Q;
  int            x0 = dst_rect.x + get_group_id (0) * SOBEL_W - 1;
  int            y0 = dst_rect.y + get_group_id (1) * SOBEL_R * SOBEL_Q - 1;
  bool           inside = clfx_window_inside (src_flags, src_view, x0, y0,
                                              SOBEL_SW, SOBEL_SH);

  for (int i = ly * SOBEL_W + lx; i < SOBEL_SH * SOBEL_SW;
       i += SOBEL_W * SOBEL_R)
    {
      int r = i / SOBEL_SW, c = i - r * SOBEL_SW;
      tile[i] = inside ? clfx_fetch_inside (CLFX_SRC (src), x0 + c, y0 + r)
                       : clfx_fetch (CLFX_SRC (src), x0 + c, y0 + r);
    }
  barrier (CLK_LOCAL_MEM_FENCE);

  __local const float4 *p = tile + ly * SOBEL_Q * SOBEL_SW + lx;
  float4 a0 = p[0], a1 = p[1], a2 = p[2];
  float4 b0 = p[SOBEL_SW], b1 = p[SOBEL_SW + 1], b2 = p[SOBEL_SW + 2];

  for (int q = 0; q < SOBEL_Q; q++)
    {
      __local const float4 *n = p + (q + 2) * SOBEL_SW;
      float4                c0 = n[0], c1 = n[1], c2 = n[2];
      if (gx < dst_rect.z && gy + q < dst_rect.w)
        CLFX_STORE (CLFX_DST_X (gx), CLFX_DST_Y (gy + q),
                    sobel_at (a0, a1, a2, b0, b1, b2, c0, c1, c2, mode,
                              false));
      a0 = b0;
      a1 = b1;
      a2 = b2;
      b0 = c0;
      b1 = c1;
      b2 = c2;
    }
}
