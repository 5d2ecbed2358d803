/* SPDX-License-Identifier: GPL-3.0-or-later */
/* durand02.cl: the tonemap family's durand02 (engine/ops/durand02.c,
 * docs/TONEMAP.md): base and detail through a bilateral grid, after the
 * statistics (tonemap-stats.h) and its constants (durand_params):
 *
 *   durand_log                        the log luminance L of every pixel
 *   durand_splat -> durand_splat_sum  the grid's sums
 *   durand_blur x 3                   the grid blurred along x, y, z
 *   durand_range -> tm_range_final    the base's range
 *   durand_map                        every pixel, stored
 *
 * L = log10 (max (Y, floor)) per pixel.  The grid's cells are cell x cell
 * pixels (x / cell, y / cell) by range sigma in L (z = (L - L0) / sigma):
 * each pixel adds (L, 1) to the two cells around its z with linear
 * weights (continuous in L), the grid is blurred by [1 4 6 4 1] / 16 along
 * each axis (zero outside), and the base B at a pixel is the grid's
 * sum L / weight interpolated trilinearly at ((x + 0.5) / cell - 0.5,
 * (y + 0.5) / cell - 0.5, z).  Then log10 out = (B - max B) c + detail
 * (L - B), c = contrast / (max B - min B).
 *
 * On CPU devices (sources in buffers) durand_log_v, durand_splat_v,
 * durand_range_v and durand_map_v instead, which read the grid's buffer
 * (no 3D image); each form is built only where it is launched. */
#include "tonemap-common.h"
/* In tiles the scan runs on its own (tm_plan_fields). */
#define TM_SCAN_ALONE 1
#include "tonemap-stats.h"
#include "tonemap-range.h"
#include "durand02-shapes.h"

/* One work-item: the constants from the statistics (n pixels), as
 * durand02.c's reference computes them in double, after tm_params_begin's:
 * p0 L0, p1 the floor, p2 1 / range sigma, p3 contrast, p4 detail.  L =
 * log10 (max (Y, floor)) with the floor 6 decades below max Y, and never
 * below FLT_MIN (where max Y is below 1e-32: a subnormal floor would be 0
 * on devices that flush them, and its log -inf): the grid's z axis covers
 * [L0, L0 + 6]. */
__kernel void
durand_params (__global const float8 *stats, float n, float range_sigma,
               float contrast, float detail, __global float *p)
{
  float  Lavg, mean;
  float8 st = tm_params_begin (stats, n, p, &Lavg, &mean);

  p[0] = log10 (st.s6) - 6.0f;
  p[1] = fmax (st.s6 * 1e-6f, FLT_MIN);
  p[2] = 1.0f / range_sigma;
  p[3] = contrast;
  p[4] = detail;
}

inline float
tm_dlum (float Y, __global const float *p)
{
  return log10 (fmax (Y, p[1]));
}

/* c = contrast / (max B - min B), 0 where the base is flat
 * (TM_FLAT_BASE). */
inline CLFX_ALWAYS_INLINE float
tm_dcontrast (__global const float *p)
{
  return p[TM_P_RANGE_HI] - p[TM_P_RANGE_LO] > TM_FLAT_BASE
           ? p[3] * p[TM_P_RANGE_SCALE]
           : 0.0f;
}

#if ! CLFX_SRC_BUFFER
__kernel void
durand_log (CLFX_SRC_ARGS (src), int4 rect, int w,
            __global const uint4 *scan,
            float scale, __global const float *p, __global float *L)
{
  int x = rect.x + (int) get_global_id (0);
  int y = rect.y + (int) get_global_id (1);

  if (x >= rect.z || y >= rect.w)
    return;
  L[(long) y * w + x]
    = tm_dlum (tm_luminance (tm_read (CLFX_SRC (src), x, y,
                                      tm_largest (scan), scale)),
               p);
}
#else
/* durand_log in the CPU devices' form: eight pixels of a row a work-item,
 * their log eight wide (five times faster on PoCL). */
__kernel void
durand_log_v (CLFX_SRC_ARGS (src), int4 rect, int w,
              __global const uint4 *scan,
              float scale, __global const float *p, __global float *L)
{
  long   at;
  float8 Y;
  int    n = tm_field8 (CLFX_SRC (src), rect, w, scan, scale, &at, &Y);

  if (n)
    tm_put8 (L, at, n, log10 (fmax (Y, p[1])));
}
#endif

/* Work-item (z, cell, chunk): TM_CHUNK rows of the cell's pixels in row
 * order, each weighed by its linear weight for z, compensated sums, into
 * the chunk's partial.  The z work-items of one cell and chunk share a
 * group, so the pixels they all read come from its cache; the chunks give
 * a large cell's pixels to many work-items. */
__kernel void
durand_splat (__global const float *L, int w, int h, int cell, int gx,
              int gy, int gz, int chunks, __global const float *p,
              __global float2 *part)
{
  int   z = get_global_id (0), c = get_global_id (1);
  int   k = c % chunks, cx = (c / chunks) % gx, cy = (c / chunks) / gx;
  int   j0 = cy * cell + k * TM_CHUNK;
  int   j1 = min (min (h, cy * cell + cell), j0 + TM_CHUNK);
  float sl = 0.0f, cl = 0.0f, sw = 0.0f, cw = 0.0f;
  float L0 = p[0], inv = p[2];

  if (z >= gz || c >= gx * gy * chunks)
    return;
  for (int j = j0; j < j1; j++)
    for (int i = cx * cell; i < min (w, cx * cell + cell); i++)
      {
        float l = L[(long) j * w + i];
        float zf = (l - L0) * inv, z0 = floor (zf), f = zf - z0;
        int   zi = (int) z0;
        float wgt = zi == z ? 1.0f - f : zi + 1 == z ? f : 0.0f;
        if (wgt > 0.0f)
          {
            tm_kahan (&sl, &cl, wgt * l);
            tm_kahan (&sw, &cw, wgt);
          }
      }
  part[(long) c * gz + z] = (float2) (sl, sw);
}

/* The CPU devices' form of durand_splat: work-item (cell, chunk) reads
 * each of its pixels once and adds it to the two z cells its weights fall
 * on, where durand_splat's gz work-items each read every pixel and weigh
 * it for their own z.  Every z's sums see the same pixels with the same
 * weights in the same order as there, so the partials are durand_splat's.
 * gz is at most 122 (range-sigma >= 0.05, durand02.c): TM_SPLAT_Z. */
__kernel void
durand_splat_v (__global const float *L, int w, int h, int cell, int gx,
                int gy, int gz, int chunks, __global const float *p,
                __global float2 *part)
{
  int   c = get_global_id (0);
  int   k = c % chunks, cx = (c / chunks) % gx, cy = (c / chunks) / gx;
  int   j0 = cy * cell + k * TM_CHUNK;
  int   j1 = min (min (h, cy * cell + cell), j0 + TM_CHUNK);
  int   i1 = min (w, cx * cell + cell);
  float sl[TM_SPLAT_Z], cl[TM_SPLAT_Z], sw[TM_SPLAT_Z], cw[TM_SPLAT_Z];
  float L0 = p[0], inv = p[2];

  if (c >= gx * gy * chunks || gz > TM_SPLAT_Z)
    return;
  for (int z = 0; z < gz; z++)
    sl[z] = cl[z] = sw[z] = cw[z] = 0.0f;
  for (int j = j0; j < j1; j++)
    for (int i = cx * cell; i < i1; i++)
      {
        float l = L[(long) j * w + i];
        float zf = (l - L0) * inv, z0 = floor (zf), f = zf - z0;
        int   zi = (int) z0;
        float w0 = 1.0f - f;
        if (zi >= 0 && zi < gz && w0 > 0.0f)
          {
            tm_kahan (&sl[zi], &cl[zi], w0 * l);
            tm_kahan (&sw[zi], &cw[zi], w0);
          }
        if (zi + 1 >= 0 && zi + 1 < gz && f > 0.0f)
          {
            tm_kahan (&sl[zi + 1], &cl[zi + 1], f * l);
            tm_kahan (&sw[zi + 1], &cw[zi + 1], f);
          }
      }
  for (int z = 0; z < gz; z++)
    part[(long) c * gz + z] = (float2) (sl[z], sw[z]);
}

/* A grid cell: its chunks' partials in order, compensated. */
__kernel void
durand_splat_sum (__global const float2 *part, int gx, int gy, int gz,
                  int chunks, __global float4 *grid)
{
  long  i = get_global_id (0);
  int   z, cx, cy;
  float sl = 0.0f, cl = 0.0f, sw = 0.0f, cw = 0.0f;

  if (i >= (long) gx * gy * gz)
    return;
  cx = (int) (i % gx);
  cy = (int) ((i / gx) % gy);
  z = (int) (i / ((long) gx * gy));
  for (int k = 0; k < chunks; k++)
    {
      float2 v = part[((long) (cy * gx + cx) * chunks + k) * gz + z];
      tm_kahan (&sl, &cl, v.x);
      tm_kahan (&sw, &cw, v.y);
    }
  grid[i] = (float4) (sl, sw, 0.0f, 0.0f);
}

/* [1 4 6 4 1] / 16 along one axis (0 x, 1 y, 2 z), zero outside. */
__kernel void
durand_blur (__global const float4 *in, __global float4 *out, int gx,
             int gy, int gz, int axis)
{
  long  i = get_global_id (0), n = (long) gx * gy * gz;
  int   x, y, z, at, len;
  long  step;
  float4 acc = (float4) (0.0f);

  if (i >= n)
    return;
  x = (int) (i % gx);
  y = (int) ((i / gx) % gy);
  z = (int) (i / ((long) gx * gy));
  at = axis == 0 ? x : axis == 1 ? y : z;
  len = axis == 0 ? gx : axis == 1 ? gy : gz;
  step = axis == 0 ? 1 : axis == 1 ? gx : (long) gx * gy;
  for (int k = -2; k <= 2; k++)
    if (at + k >= 0 && at + k < len)
      acc += (k == 0 ? 0.375f : (k == 1 || k == -1) ? 0.25f : 0.0625f)
             * in[i + k * step];
  out[i] = acc;
}

/* The base at pixel (x, y) of log luminance l: linear, one read through
 * the sampler's trilinear filter; else trilinear in the kernel from the
 * eight nearest cells (exact weights).  The pixel's place in the grid, in
 * cells, is ((x + 0.5) / cell, (y + 0.5) / cell, (l - L0) / sigma + 0.5).
 * The nearest form's arithmetic is defined for one pixel (_1, the GPU's,
 * from the image) and for eight of a row (_8, the CPU devices', from the
 * grid's buffer the image is made from: the same floats), each value of
 * the cells (sum of L, weight) on its own:
 *   tm_axis: along one axis, the two cells around place f, clamped into
 *     the n cells, and the weight of the second;
 *   tm_trilerp: the eight cells' values c (cell q at (q & 1, q >> 1 & 1,
 *     q >> 2) from the first), blended, then sum over weight, or l where
 *     the weight is 0. */
#define TM_DEFINE_BASE(T, I, CONVERT, S)                                     \
  inline CLFX_ALWAYS_INLINE T                                                \
  tm_axis##S (T f, int n, I *i0, I *i1)                                      \
  {                                                                          \
    T a = f - 0.5f, a0 = floor (a);                                          \
    *i0 = clamp (CONVERT (a0), 0, n - 1);                                    \
    *i1 = clamp (CONVERT (a0) + 1, 0, n - 1);                                \
    return a - a0;                                                           \
  }                                                                          \
                                                                             \
  inline CLFX_ALWAYS_INLINE T                                                \
  tm_blend##S (const T c[8], T tx, T ty, T tz)                               \
  {                                                                          \
    T c00 = (1.0f - tx) * c[0] + tx * c[1];                                  \
    T c10 = (1.0f - tx) * c[2] + tx * c[3];                                  \
    T c01 = (1.0f - tx) * c[4] + tx * c[5];                                  \
    T c11 = (1.0f - tx) * c[6] + tx * c[7];                                  \
    return (1.0f - tz) * ((1.0f - ty) * c00 + ty * c10)                      \
           + tz * ((1.0f - ty) * c01 + ty * c11);                            \
  }                                                                          \
                                                                             \
  inline CLFX_ALWAYS_INLINE T                                                \
  tm_trilerp##S (const T sum[8], const T wgt[8], T tx, T ty, T tz, T l)      \
  {                                                                          \
    T gs = tm_blend##S (sum, tx, ty, tz), gw = tm_blend##S (wgt, tx, ty, tz); \
    return gw > 0.0f ? gs / gw : l;                                          \
  }

TM_DEFINE_BASE (float, int, convert_int, _1)
TM_DEFINE_BASE (float8, int8, convert_int8, _8)

/* ---- the GPU form: a pixel a work-item, the grid a 3D image -------------- */
#if ! CLFX_SRC_BUFFER

inline float
tm_base (read_only image3d_t grid, sampler_t smp, int linear, int cell,
         int4 dims, int x, int y, float l, __global const float *p)
{
  float fx = ((float) x + 0.5f) / (float) cell;
  float fy = ((float) y + 0.5f) / (float) cell;
  float fz = (l - p[0]) * p[2] + 0.5f;
  float tx, ty, tz, sum[8], wgt[8];
  int   i[2], j[2], k[2];

  if (linear)
    {
      float4 g = read_imagef (grid, smp, (float4) (fx, fy, fz, 0.0f));
      return g.y > 0.0f ? g.x / g.y : l;
    }
  tx = tm_axis_1 (fx, dims.x, &i[0], &i[1]);
  ty = tm_axis_1 (fy, dims.y, &j[0], &j[1]);
  tz = tm_axis_1 (fz, dims.z, &k[0], &k[1]);
  for (int q = 0; q < 8; q++)
    {
      float4 c = read_imagef (grid, smp, (int4) (i[q & 1], j[q >> 1 & 1],
                                                 k[q >> 2], 0));
      sum[q] = c.x;
      wgt[q] = c.y;
    }
  return tm_trilerp_1 (sum, wgt, tx, ty, tz, l);
}

/* The base's range over every pixel, per block, then tm_range_final. */
__kernel void
durand_range (__global const float *L, int w, int h, read_only image3d_t grid,
              sampler_t smp, int linear, int cell, int4 dims,
              __global const float *p, __global float2 *partials,
              __local float2 *s)
{
  int    lx = get_local_id (0), bx = get_group_id (0), by = get_group_id (1);
  int    x = bx * TM_BW + lx, y0 = by * TM_BH;
  float2 r = (float2) (INFINITY, -INFINITY);

  if (x < w)
    for (int j = 0; j < TM_BH && y0 + j < h; j++)
      {
        float b = tm_base (grid, smp, linear, cell, dims, x, y0 + j,
                           L[(long) (y0 + j) * w + x], p);
        r = (float2) (fmin (r.x, b), fmax (r.y, b));
      }
  s[lx] = r;
  tm_tree_range (s, lx, TM_BW);
  if (lx == 0)
    partials[by * get_num_groups (0) + bx] = s[0];
}

__kernel void
durand_map (CLFX_SRC_ARGS (src), CLFX_DST_ARGS, __global const uint4 *scan,
            float scale, read_only image3d_t grid, sampler_t smp, int linear,
            int cell, int4 dims, __global const float *p,
            __global uint *hist, __local uint *lh)
{
  int gx = get_global_id (0), gy = get_global_id (1);

  tm_hist_zero (lh, TM_HA_N);
  if (gx < dst_rect.z && gy < dst_rect.w)
    {
      int    x = CLFX_DST_X (gx), y = CLFX_DST_Y (gy);
      float4 v = tm_read (CLFX_SRC (src), x, y, tm_largest (scan), scale);
      float  Y = tm_luminance (v);

      if (p[TM_P_BLACK] != 0.0f || ! (Y > 0.0f))
        v.xyz = (float3) (0.0f);
      else
        {
          float l = tm_dlum (Y, p);
          float b = tm_base (grid, smp, linear, cell, dims, x, y, l, p);
          float c = tm_dcontrast (p);
          float e = exp10 ((b - p[TM_P_RANGE_HI]) * c + p[4] * (l - b));
          float m = e / Y;
          /* e / Y overflows where Y is near its least (2^-125) and the
           * detail brightens the pixel; colour / Y (at most 16.5) times e
           * does not. */
          v.xyz = isinf (m) ? v.xyz / Y * e : v.xyz * m;
        }
      tm_store (dst, dst_offset, dst_pitch, dst_rect, x, y, v, lh);
    }
  tm_hist_flush (lh, TM_HA_N, hist);
}

#endif /* ! CLFX_SRC_BUFFER */

/* ---- the CPU devices' form: eight pixels, the grid a buffer -------------- */
#if CLFX_SRC_BUFFER

/* durand02's base, range and map: eight pixels of a row a work-item (lanes
 * past the row's end repeat its last pixel), the base from the grid's
 * buffer, cell (i, j, k) at (k gy + j) gx + i, and the log luminance from
 * L, which durand_log_v made eight wide with the same operations as here
 * (durand_map computes it again per pixel). */

/* The grid: its blurred cells, the cell size in pixels and the grid's
 * dimensions (tm_base8). */
typedef struct
{
  __global const float4 *cells;
  int                    cell;
  int4                   dims;
} TmGrid;

inline CLFX_ALWAYS_INLINE float8
tm_base8 (TmGrid grid, int x, int y, int n, float8 l,
          __global const float *p)
{
  int8   lane = min ((int8) (0, 1, 2, 3, 4, 5, 6, 7), n - 1), i[2], k[2];
  float8 fx = (convert_float8 (x + lane) + 0.5f) / (float) grid.cell;
  float8 fz = (l - p[0]) * p[2] + 0.5f, sum[8], wgt[8];
  int    j[2];
  float8 tx = tm_axis_8 (fx, grid.dims.x, &i[0], &i[1]);
  float  ty = tm_axis_1 (((float) y + 0.5f) / (float) grid.cell, grid.dims.y,
                         &j[0], &j[1]);
  float8 tz = tm_axis_8 (fz, grid.dims.z, &k[0], &k[1]);
  __global const float4 *c = grid.cells;

  /* Each corner's eight cells gathered straight into its vectors, their
   * indices computed eight at once (ints: a grid has at most 2048 x 2048
   * x 122 cells, durand02.c): through arrays, the lanes' stores and the
   * vector loads after them stalled on store forwarding. */
#pragma unroll
  for (int q = 0; q < 8; q++)
    {
      int8 at = (k[q >> 2] * grid.dims.y + j[q >> 1 & 1]) * grid.dims.x
                + i[q & 1];
      sum[q] = (float8) (c[at.s0].x, c[at.s1].x, c[at.s2].x, c[at.s3].x,
                         c[at.s4].x, c[at.s5].x, c[at.s6].x, c[at.s7].x);
      wgt[q] = (float8) (c[at.s0].y, c[at.s1].y, c[at.s2].y, c[at.s3].y,
                         c[at.s4].y, c[at.s5].y, c[at.s6].y, c[at.s7].y);
    }
  return tm_trilerp_8 (sum, wgt, tx, (float8) (ty), tz, l);
}

__kernel void
durand_range_v (__global const float *L, int w, int h,
                __global const float4 *cells, int cell, int4 dims,
                __global const float *p, __global float2 *partials,
                __local float2 *s)
{
  int    lx = get_local_id (0), bx = get_group_id (0), by = get_group_id (1);
  int    x = bx * TM_BW + 8 * lx, y0 = by * TM_BH;
  int    n = min (8, w - x);
  TmGrid grid = { cells, cell, dims };
  float8 lo = (float8) (INFINITY), hi = (float8) (-INFINITY);

  for (int j = 0; n > 0 && j < TM_BH && y0 + j < h; j++)
    {
      float8 b = tm_base8 (grid, x, y0 + j, n,
                           tm_get8 (L, (long) (y0 + j) * w + x, n), p);
      lo = fmin (lo, b);
      hi = fmax (hi, b);
    }
  /* Lanes past the row's end repeat its last pixel. */
  float4 l4 = fmin (lo.lo, lo.hi), h4 = fmax (hi.lo, hi.hi);
  s[lx] = (float2) (fmin (fmin (l4.x, l4.y), fmin (l4.z, l4.w)),
                    fmax (fmax (h4.x, h4.y), fmax (h4.z, h4.w)));
  tm_tree_range (s, lx, TM_BW / 8);
  if (lx == 0)
    partials[by * get_num_groups (0) + bx] = s[0];
}

/* durand_map's colour of eight pixels (r, g, b read and cleaned). */
inline CLFX_ALWAYS_INLINE void
tm_dmap8 (float8 *r, float8 *g, float8 *b, int x, int y, int n,
          __global const float *L, int w, TmGrid grid,
          __global const float *p)
{
  float8 Y = tm_luminance8 (*r, *g, *b);
  float8 l = tm_get8 (L, (long) y * w + x, n);
  float8 B = tm_base8 (grid, x, y, n, l, p);
  float8 e = exp10 ((B - p[TM_P_RANGE_HI]) * tm_dcontrast (p)
                    + p[4] * (l - B));
  float8 m = e / Y;
  int8   black = p[TM_P_BLACK] != 0.0f || ! (Y > 0.0f);
  int8   big = isinf (m) && ! black;

  if (any (big))
    {
      /* durand_map's colour / Y times e where e / Y overflows. */
      *r = big ? *r / Y * e : *r * m;
      *g = big ? *g / Y * e : *g * m;
      *b = big ? *b / Y * e : *b * m;
    }
  else
    {
      *r = *r * m;
      *g = *g * m;
      *b = *b * m;
    }
  *r = black ? (float8) (0.0f) : *r;
  *g = black ? (float8) (0.0f) : *g;
  *b = black ? (float8) (0.0f) : *b;
}

/* durand_map in the CPU devices' form (tm_map8_begin). */
__kernel void
durand_map_v (CLFX_SRC_ARGS (src), CLFX_DST_ARGS, __global const uint4 *scan,
              float scale, __global const float *L, int w,
              __global const float4 *cells, int cell, int4 dims,
              __global const float *p, __global uint *hist,
              __local uint *lh)
{
  TmGrid grid = { cells, cell, dims };
  uint   ph[4 * TM_HA_N];
  int    gx, gy0, gy1;

  gy1 = tm_map8_begin (dst_rect, &gx, &gy0, ph, lh);
  for (int gy = gy0; gy < gy1; gy++)
    {
      int    x = CLFX_DST_X (gx), y = CLFX_DST_Y (gy);
      int    n = min (8, dst_rect.z - gx);
      float8 r, g, b, a;

      tm_read8 (CLFX_SRC (src), x, y, n, tm_largest (scan), scale, &r,
                &g, &b, &a);
      tm_dmap8 (&r, &g, &b, x, y, n, L, w, grid, p);
      tm_map8_put (ph, dst, dst_offset, dst_pitch, dst_rect, x, y, n, r, g,
                   b, a);
    }
  tm_map8_end (ph, lh, hist);
}

#endif /* CLFX_SRC_BUFFER */
