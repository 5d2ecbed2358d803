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
 * with the barrier under a kernel argument's condition.
 *
 * filter_iir: GEGL's IIR gaussian along the rows (vertical = 0) or the
 * columns (vertical = 1) of a float RGBA image: Young and van Vliet's
 * third-order recursion forwards, Triggs and Sdika's right boundary, the
 * same recursion backwards.  One work-item per line, sequential along it
 * (GPUs run both axes of a both-axes blur in segments of lines side by
 * side: filter_iir_seg_*).
 * The recursion runs in double, as GEGL's does: with sigma 50 its gain for
 * a rounding error is 1 / B, about 3e4, which float state would turn into
 * errors of 1e-3 of the signal.  The forward values are kept as float (one
 * rounding each; the backward pass has gain 1).  Devices without
 * cl_khr_fp64 do not get the kernel; the host says why. */
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

#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#include "iir.h"

/* The double4 forms (four channels at once) first; the lanes kernel at
 * the end switches them to double. */
#define IIR_D double4
#define IIR_F float4
#define IIR_TO_D convert_double4
#define IIR_TO_F convert_float4

/* Between float images (the mixed FIR / IIR cases): vertical = 0 runs the
 * rows, 1 the columns. */
__kernel void
filter_iir (read_only image2d_t in, write_only image2d_t out,
            __global float4 *forward, int len, int lines, int vertical,
            double4 coef, __global const double *m, int edge_zero,
            int interleaved)
{
  int l = get_global_id (0);

  if (l >= lines)
    return;

  int2             first = vertical ? (int2) (l, 0) : (int2) (0, l);
  int2             step = vertical ? (int2) (0, 1) : (int2) (1, 0);
#define READ_IMG(i) read_imagef (in, first + (i) * step)
#define WRITE_IMG(i, v) write_imagef (out, first + (i) * step, convert_float4 (v))
#define FWD IIR_FWD
#define FWD_PUT(i, v) (FWD (i) = (v))
  IIR_LINE (READ_IMG, WRITE_IMG);
#undef FWD
#undef FWD_PUT
#undef READ_IMG
#undef WRITE_IMG
}

/* Both axes IIR, through buffers: the source's rows (its whole width:
 * the run is one piece) into `rows`, then `rows`' columns to the result;
 * no float image to load or store (on PoCL an image write per texel cost
 * more than the recursion itself: 850 ms for 1024x768). */
__kernel void
filter_iir_rows (CLFX_SRC_ARGS (src), __global float4 *rows,
                 __global float4 *forward, int width, int height,
                 double4 coef, __global const double *m, int edge_zero,
                 int interleaved, __local float4 *lfwd, int local_fwd)
{
  int l = get_global_id (0), len = width, lines = height;

  if (l >= height)
    return;

  __global float4 *out = rows + (long) l * len;
#define READ_SRC(i) clfx_fetch_inside (CLFX_SRC (src), (i), l)
#define WRITE_ROW(i, v) (out[i] = convert_float4 (v))
#define FWD IIR_FWD_AT
#define FWD_PUT IIR_FWD_PUT_AT
  IIR_LINE (READ_SRC, WRITE_ROW);
#undef FWD
#undef FWD_PUT
#undef READ_SRC
#undef WRITE_ROW
}

__kernel void
filter_iir_cols (__global const float4 *rows, __global float4 *forward,
                 int width, int height, CLFX_DST_ARGS, double4 coef,
                 __global const double *m, int edge_zero, int interleaved,
                 __local float4 *lfwd, int local_fwd)
{
  int l = get_global_id (0), len = height, lines = width;

  if (l >= width)
    return;

#define READ_COL(i) rows[(long) (i) * width + l]
#define WRITE_DST(i, v)                                                      \
  do                                                                         \
    {                                                                        \
      int x = CLFX_DST_X (l), y = CLFX_DST_Y (i);                            \
      CLFX_STORE (x, y, convert_float4 (v));                                 \
    }                                                                        \
  while (0)
#define FWD IIR_FWD_AT
#define FWD_PUT IIR_FWD_PUT_AT
  IIR_LINE (READ_COL, WRITE_DST);
#undef FWD
#undef FWD_PUT
#undef READ_COL
#undef WRITE_DST
}

/* CPU devices whose result cannot hold the rows (not float RGBA): the
 * rows of one band of the columns pass (filter_iir_cols4_band), band row
 * r of `rows` to result row y0 + r; a work-group per row, its forward
 * values in local memory, as filter_iir_rows'. */
__kernel void
filter_iir_rows_band (__global const float4 *rows, int width, int y0,
                      int nrows, CLFX_DST_ARGS, double4 coef,
                      __global const double *m, int edge_zero,
                      __local float4 *lfwd)
{
  int r = get_global_id (0), len = width;

  if (r >= nrows)
    return;

  __global const float4 *in = rows + (long) r * width;
#define READ_BAND(i) in[i]
#define WRITE_ROW_DST(i, v)                                                  \
  CLFX_STORE (CLFX_DST_X (i), CLFX_DST_Y (y0 + r), convert_float4 (v))
#define FWD(i) lfwd[i]
#define FWD_PUT(i, v) (lfwd[i] = (v))
  IIR_LINE (READ_BAND, WRITE_ROW_DST);
#undef FWD
#undef FWD_PUT
#undef READ_BAND
#undef WRITE_ROW_DST
}

/* The columns on CPU devices: four neighbouring columns a work-item, as
 * one line of float16 (each column's four channels), the forward values
 * in local memory.  The four recursions are independent chains the core
 * overlaps, and each step reads a 64-byte line of `rows` where a column
 * alone used 16 bytes of it (4096x4096 float, PoCL: 195 -> 60 ms).  Per
 * channel the arithmetic is filter_iir_cols'. */
#undef IIR_D
#undef IIR_F
#undef IIR_TO_D
#undef IIR_TO_F
#define IIR_D double16
#define IIR_F float16
#define IIR_TO_D convert_double16
#define IIR_TO_F convert_float16

__kernel void
filter_iir_cols4 (__global const float4 *rows, int width, int height,
                  CLFX_DST_ARGS, double4 coef, __global const double *m,
                  int edge_zero, __local float16 *lfwd)
{
  int l0 = get_global_id (0) * 4, len = height;

  if (l0 >= width)
    return;

#define READ_COL4(i) iir_cols4 (rows, width, l0, (i))
#define WRITE_DST4(i, v)                                                     \
  do                                                                         \
    {                                                                        \
      float16 f_ = convert_float16 (v);                                      \
      int     y_ = CLFX_DST_Y (i);                                           \
      CLFX_STORE (CLFX_DST_X (l0), y_, f_.s0123);                            \
      if (l0 + 1 < width)                                                    \
        CLFX_STORE (CLFX_DST_X (l0 + 1), y_, f_.s4567);                      \
      if (l0 + 2 < width)                                                    \
        CLFX_STORE (CLFX_DST_X (l0 + 2), y_, f_.s89ab);                      \
      if (l0 + 3 < width)                                                    \
        CLFX_STORE (CLFX_DST_X (l0 + 3), y_, f_.scdef);                      \
    }                                                                        \
  while (0)
#define FWD(i) lfwd[i]
#define FWD_PUT(i, v) (lfwd[i] = (v))
  IIR_LINE (READ_COL4, WRITE_DST4);
#undef FWD
#undef FWD_PUT
#undef READ_COL4
#undef WRITE_DST4
}

/* The rows of a band four at a time (filter_iir_rows_band's), where the
 * line's forward values fit in local memory four times over: the four
 * rows as one line of float16, their recursions independent chains a
 * core overlaps, as filter_iir_cols4's columns.  Rows past the band's
 * end repeat its last row and are not stored. */
__kernel void
filter_iir_rows4_band (__global const float4 *rows, int width, int y0,
                       int nrows, CLFX_DST_ARGS, double4 coef,
                       __global const double *m, int edge_zero,
                       __local float16 *lfwd)
{
  int r0 = get_global_id (0) * 4, len = width;

  if (r0 >= nrows)
    return;

#define READ_BAND4(i) iir_band4 (rows, width, nrows, r0, (i))
#define WRITE_ROWS4_DST(i, v)                                                \
  do                                                                         \
    {                                                                        \
      float16 f_ = convert_float16 (v);                                      \
      int     x_ = CLFX_DST_X (i);                                           \
      CLFX_STORE (x_, CLFX_DST_Y (y0 + r0), f_.s0123);                       \
      if (r0 + 1 < nrows)                                                    \
        CLFX_STORE (x_, CLFX_DST_Y (y0 + r0 + 1), f_.s4567);                 \
      if (r0 + 2 < nrows)                                                    \
        CLFX_STORE (x_, CLFX_DST_Y (y0 + r0 + 2), f_.s89ab);                 \
      if (r0 + 3 < nrows)                                                    \
        CLFX_STORE (x_, CLFX_DST_Y (y0 + r0 + 3), f_.scdef);                 \
    }                                                                        \
  while (0)
#define FWD(i) lfwd[i]
#define FWD_PUT(i, v) (lfwd[i] = (v))
  IIR_LINE (READ_BAND4, WRITE_ROWS4_DST);
#undef FWD
#undef FWD_PUT
#undef READ_BAND4
#undef WRITE_ROWS4_DST
}

/* CPU devices whose result cannot hold the rows (8-bit, 16-bit, half or
 * gray results): the columns first, straight from the source, in bands
 * of `band` rows, and each band's rows right after it
 * (filter_iir_rows_band), so that the only float intermediate is one
 * band: an image-sized one is fresh host memory on every first run, whose
 * first touch cost more than the passes themselves (4096x4096 8-bit,
 * PoCL: the rows pass 240-290 ms on a first run against 51 after).  The
 * two axes commute (each is linear, its edge values included), so the
 * result is the rows-then-columns one up to float rounding.
 *
 * `state` holds, per work-item (four columns) and band b, the forward
 * state (w1, w2, w3) where band b starts, slots (3 b + k) * items + item,
 * and after the last band's slots the backward state (n1, n2, n3) where
 * the band being done ends.  filter_iir_cols4_state runs the forward
 * recursion down the whole columns, keeping only those states, and
 * leaves Triggs and Sdika's backward start in the last slots; then, band
 * by band from the bottom, filter_iir_cols4_band runs the forward
 * recursion again over its band from its saved start (the same
 * arithmetic, so the same values), then the backward recursion, and
 * leaves its backward state for the band above. */
inline float16
iir_src4 (CLFX_SRC_ARGS (src), int width, int l0, int i)
{
  return (float16) (clfx_fetch_inside (CLFX_SRC (src), l0, i),
                    clfx_fetch_inside (CLFX_SRC (src), min (l0 + 1, width - 1), i),
                    clfx_fetch_inside (CLFX_SRC (src), min (l0 + 2, width - 1), i),
                    clfx_fetch_inside (CLFX_SRC (src), min (l0 + 3, width - 1), i));
}

/* The forward recursion over source rows i .. end - 1 of the four
 * columns from l0 (i ends at end), the texels read ahead of it as
 * IIR_LINE reads them. */
#define IIR_FORWARD_SRC4(i, end)                                             \
  do                                                                         \
    {                                                                        \
      for (; (i) + IIR_CHUNK <= (end); (i) += IIR_CHUNK)                     \
        {                                                                    \
          IIR_F t_[IIR_CHUNK];                                               \
          for (int k_ = 0; k_ < IIR_CHUNK; k_++)                             \
            t_[k_] = iir_src4 (CLFX_SRC (src), width, l0, (i) + k_);         \
          for (int k_ = 0; k_ < IIR_CHUNK; k_++)                             \
            IIR_FORWARD_STEP (t_[k_], (i) + k_);                             \
        }                                                                    \
      for (; (i) < (end); (i)++)                                             \
        IIR_FORWARD_STEP (iir_src4 (CLFX_SRC (src), width, l0, (i)), (i));   \
    }                                                                        \
  while (0)
#define IIR_SLOT(b, k) state[((long) (b) * 3 + (k)) * items + it]

__kernel void
filter_iir_cols4_state (CLFX_SRC_ARGS (src), int width, int height,
                        int band, __global double16 *state, double4 coef,
                        __global const double *m, int edge_zero)
{
  int it = get_global_id (0), l0 = it * 4, items = (width + 3) / 4;
  int nb = (height + band - 1) / band;

  if (l0 >= width)
    return;

  IIR_D im_ = (IIR_D) (0.0), up_ = (IIR_D) (0.0);
  if (! edge_zero)
    {
      im_ = IIR_TO_D (iir_src4 (CLFX_SRC (src), width, l0, 0));
      up_ = IIR_TO_D (iir_src4 (CLFX_SRC (src), width, l0, height - 1));
    }
  IIR_D w1 = im_, w2 = im_, w3 = im_;
#define FWD_PUT(i, v) ((void) 0)
  for (int b = 0; b < nb; b++)
    {
      int i = b * band, end = min (i + band, height);
      IIR_SLOT (b, 0) = w1;
      IIR_SLOT (b, 1) = w2;
      IIR_SLOT (b, 2) = w3;
      IIR_FORWARD_SRC4 (i, end);
    }
#undef FWD_PUT
  /* Triggs and Sdika's start of the backward recursion, as IIR_LINE. */
  IIR_D u0 = w1 - up_, u1 = w2 - up_, u2 = w3 - up_;
  IIR_SLOT (nb, 0) = m[0] * u0 + m[1] * u1 + m[2] * u2 + up_;
  IIR_SLOT (nb, 1) = m[3] * u0 + m[4] * u1 + m[5] * u2 + up_;
  IIR_SLOT (nb, 2) = m[6] * u0 + m[7] * u1 + m[8] * u2 + up_;
}

/* Band b of the columns into `rows` (band rows of width float4 texels),
 * a work-group per work-item, the band's forward values in local memory. */
__kernel void
filter_iir_cols4_band (CLFX_SRC_ARGS (src), int width, int height,
                       int band, int b, __global double16 *state,
                       __global float4 *rows, double4 coef,
                       __local float16 *lfwd)
{
  int it = get_global_id (0), l0 = it * 4, items = (width + 3) / 4;
  int nb = (height + band - 1) / band;
  int i0 = b * band, end = min (i0 + band, height), i = i0;

  if (l0 >= width)
    return;

  IIR_D w1 = IIR_SLOT (b, 0), w2 = IIR_SLOT (b, 1), w3 = IIR_SLOT (b, 2);
#define FWD_PUT(i, v) (lfwd[(i) - i0] = (v))
  IIR_FORWARD_SRC4 (i, end);
#undef FWD_PUT
  IIR_D n1 = IIR_SLOT (nb, 0), n2 = IIR_SLOT (nb, 1), n3 = IIR_SLOT (nb, 2);
#define WRITE_BAND4(j, v)                                                    \
  do                                                                         \
    {                                                                        \
      float16          f_ = convert_float16 (v);                             \
      __global float4 *o_ = rows + (long) ((j) - i0) * width + l0;           \
      if (l0 + 3 < width)                                                    \
        vstore16 (f_, 0, (__global float *) o_);                             \
      else                                                                   \
        {                                                                    \
          o_[0] = f_.s0123;                                                  \
          if (l0 + 1 < width)                                                \
            o_[1] = f_.s4567;                                                \
          if (l0 + 2 < width)                                                \
            o_[2] = f_.s89ab;                                                \
        }                                                                    \
    }                                                                        \
  while (0)
  for (i = end - 1; i >= i0; i--)
    IIR_BACKWARD_STEP (WRITE_BAND4, lfwd[i - i0], i);
#undef WRITE_BAND4
  IIR_SLOT (nb, 0) = n1;
  IIR_SLOT (nb, 1) = n2;
  IIR_SLOT (nb, 2) = n3;
}
#undef IIR_SLOT
#undef IIR_FORWARD_SRC4

/* GPUs: a work-item per channel (the recursion in double rather than
 * double4), four times the work-items of one per line; the arithmetic per
 * channel is the double4 form's. */
#undef IIR_D
#undef IIR_F
#undef IIR_TO_D
#undef IIR_TO_F
#define IIR_D double
#define IIR_F float
#define IIR_TO_D convert_double
#define IIR_TO_F convert_float

inline float
iir_lane (float4 v, int c)
{
  return c == 0 ? v.x : c == 1 ? v.y : c == 2 ? v.z : v.w;
}

/* Both axes on GPUs in segments.  A work-item per line (a column, or a
 * channel of a row) gives an 8192 x 8192 image 8192 or 32768 work-items,
 * each sequential along 8192 texels: too few to keep the GPU's memory
 * busy.  The recursion is linear, so a line splits into segments of
 * `seg` texels that run side by side, a work-item per channel of a line
 * and segment (iir.h, IIR_SEG_*):
 *   _stats: per segment, the forward recursion from a zero state,
 *     keeping its end state E and the backward state that these forward
 *     values (as float) would leave at the segment's start from a zero
 *     end, G = sum_p R_p f_p;
 *   filter_iir_seg_scan: per line, down the segments, the true start s_k
 *     (s_{k+1} = P s_k + E_k, P = A^seg, A the recursion's companion
 *     matrix) and G_k + M s_k (M: what the start state adds to G through
 *     the forward values), Triggs and Sdika's end from the last state,
 *     then back up the true backward end of each (t_{k-1} = P t_k + G_k);
 *   the line kernels: per segment, both recursions from the true states.
 * Two reads of the line and one store, with lines x segments
 * work-items.  `tab` (host-made, double): P, P for the last segment's
 * length, M, M for the last length, then R_p (3 each).  The same
 * recursion with the same arithmetic per step; the states at segment
 * borders differ from the sequential ones by double rounding only. */

/* The columns of `rows` (width x height float RGBA). */
__kernel void
filter_iir_seg_stats (__global const float *rows, int width, int height,
                      int seg, __global double *aux, double4 coef,
                      __constant double *tab)
{
  int lanes = width * 4, len = height, nseg = (len + seg - 1) / seg;
  int gl = get_global_id (0), k = get_global_id (1);

  /* (The global size is rounded up to the work-group's.) */
  if (gl >= lanes || k >= nseg)
    return;

  __global const float *col_ = rows + gl;
#define FWD_PUT IIR_SEG_G
  IIR_SEG_STATS (IIR_SEG_COL_READ);
#undef FWD_PUT
}

/* The rows of the source (a lane per channel of a row: lanes = 4
 * height, len = width). */
#define IIR_SEG_ROW_READ(i)                                                  \
  iir_lane (clfx_fetch_inside (CLFX_SRC (src), (i), gl >> 2), gl & 3)

__kernel void
filter_iir_seg_rows_stats (CLFX_SRC_ARGS (src), int width, int height,
                           int seg, __global double *aux, double4 coef,
                           __constant double *tab)
{
  int lanes = height * 4, len = width, nseg = (len + seg - 1) / seg;
  int gl = get_global_id (0), k = get_global_id (1);

  if (gl >= lanes || k >= nseg)
    return;

#define FWD_PUT IIR_SEG_G
  IIR_SEG_STATS (IIR_SEG_ROW_READ);
#undef FWD_PUT
}

/* Per line, down and up its nseg segments; the segments' values read
 * IIR_SEG_SCAN_CHUNK at a time before any is written, so that their
 * reads overlap (one at a time, each step waited for its reads: 0.74 ms
 * for 64 segments of 32768 lines, H200). */
#define IIR_SEG_SCAN_CHUNK 8

__kernel void
filter_iir_seg_scan (__global double *aux, int lanes, int nseg,
                     __constant double *tab, __global const double *m,
                     int edge_zero)
{
  int gl = get_global_id (0);

  if (gl >= lanes)
    return;

  double im = 0.0, up = 0.0;
  if (! edge_zero)
    {
      im = IIR_SEG_AUX (nseg, 0);
      up = IIR_SEG_AUX (nseg, 1);
    }
  double s1 = im, s2 = im, s3 = im;
  for (int k0 = 0; k0 < nseg; k0 += IIR_SEG_SCAN_CHUNK)
    {
      double v[IIR_SEG_SCAN_CHUNK][6];
#pragma unroll
      for (int q = 0; q < IIR_SEG_SCAN_CHUNK; q++)
        if (k0 + q < nseg)
          for (int j = 0; j < 6; j++)
            v[q][j] = IIR_SEG_AUX (k0 + q, j);
#pragma unroll
      for (int q = 0; q < IIR_SEG_SCAN_CHUNK; q++)
        if (k0 + q < nseg)
          {
            int                 k = k0 + q;
            __constant double  *P = tab + (k == nseg - 1 ? 9 : 0);
            __constant double  *M = tab + (k == nseg - 1 ? 27 : 18);
            IIR_SEG_AUX (k, 0) = s1;
            IIR_SEG_AUX (k, 1) = s2;
            IIR_SEG_AUX (k, 2) = s3;
            IIR_SEG_AUX (k, 3) = v[q][3] + M[0] * s1 + M[1] * s2 + M[2] * s3;
            IIR_SEG_AUX (k, 4) = v[q][4] + M[3] * s1 + M[4] * s2 + M[5] * s3;
            IIR_SEG_AUX (k, 5) = v[q][5] + M[6] * s1 + M[7] * s2 + M[8] * s3;
            double t1 = P[0] * s1 + P[1] * s2 + P[2] * s3 + v[q][0];
            double t2 = P[3] * s1 + P[4] * s2 + P[5] * s3 + v[q][1];
            double t3 = P[6] * s1 + P[7] * s2 + P[8] * s3 + v[q][2];
            s1 = t1;
            s2 = t2;
            s3 = t3;
          }
    }
  /* Triggs and Sdika's start of the backward recursion, as IIR_LINE. */
  double u0 = s1 - up, u1 = s2 - up, u2 = s3 - up;
  double n1 = m[0] * u0 + m[1] * u1 + m[2] * u2 + up;
  double n2 = m[3] * u0 + m[4] * u1 + m[5] * u2 + up;
  double n3 = m[6] * u0 + m[7] * u1 + m[8] * u2 + up;
  for (int k0 = nseg - 1; k0 >= 0; k0 -= IIR_SEG_SCAN_CHUNK)
    {
      double v[IIR_SEG_SCAN_CHUNK][3];
#pragma unroll
      for (int q = 0; q < IIR_SEG_SCAN_CHUNK; q++)
        if (k0 - q >= 0)
          for (int j = 0; j < 3; j++)
            v[q][j] = IIR_SEG_AUX (k0 - q, 3 + j);
#pragma unroll
      for (int q = 0; q < IIR_SEG_SCAN_CHUNK; q++)
        if (k0 - q >= 0)
          {
            int                k = k0 - q;
            __constant double *P = tab + (k == nseg - 1 ? 9 : 0);
            IIR_SEG_AUX (k, 3) = n1;
            IIR_SEG_AUX (k, 4) = n2;
            IIR_SEG_AUX (k, 5) = n3;
            double t1 = P[0] * n1 + P[1] * n2 + P[2] * n3 + v[q][0];
            double t2 = P[3] * n1 + P[4] * n2 + P[5] * n3 + v[q][1];
            double t3 = P[6] * n1 + P[7] * n2 + P[8] * n3 + v[q][2];
            n1 = t1;
            n2 = t2;
            n3 = t3;
          }
    }
}

/* The rows of the source into `rows` (width x height float RGBA), each
 * lane storing its channel as it goes. */
__kernel __attribute__ ((reqd_work_group_size (IIR_SEG_LANES, 1, 1))) void
filter_iir_seg_rows (CLFX_SRC_ARGS (src), int width, int height, int seg,
                     __global const double *aux, double4 coef,
                     __global float *rows, __local float *lf)
{
  int lanes = height * 4, len = width, nseg = (len + seg - 1) / seg;
  int gl = get_global_id (0), k = get_global_id (1);
  int lane = get_local_id (0);

  if (gl >= lanes || k >= nseg)
    return;

  __global float *out = rows + (long) (gl >> 2) * width * 4 + (gl & 3);
#define WRITE_ROW(i, v) (out[(long) (i) * 4] = convert_float (v))
#define FWD_PUT IIR_SEG_PUT
  IIR_SEG_LINE (IIR_SEG_ROW_READ, WRITE_ROW);
#undef FWD_PUT
#undef WRITE_ROW
}

/* The gaussian's columns into the result (the arguments are
 * unsharp_iir_seg_cols', which mixes with the source as it stores; src
 * and amount unused here). */
__kernel __attribute__ ((reqd_work_group_size (IIR_SEG_LANES, 1, 1))) void
filter_iir_seg_cols (__global const float *rows, int width, int height,
                     int seg, __global const double *aux, double4 coef,
                     CLFX_SRC_ARGS (src), CLFX_DST_ARGS, __local float *lf,
                     float amount)
{
#define FWD_PUT IIR_SEG_PUT
#define STORE_BLUR(x, y, v) CLFX_STORE (CLFX_DST_X (x), CLFX_DST_Y (y), (v))
  (void) amount;
  IIR_SEG_COLS (STORE_BLUR);
#undef STORE_BLUR
#undef FWD_PUT
}
#endif
