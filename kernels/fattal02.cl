/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fattal02.cl: the tonemap family's fattal02 (engine/ops/fattal02.c;
 * docs/TONEMAP.md's fattal02, step by step), after the statistics
 * (tonemap-stats.h) and its constant (fat_params): H, the pyramid, the
 * gradients and their averages, Phi, the divergence, the full multigrid,
 * U's mean, the percentiles, the map.  Every image here is one float per
 * pixel, row-major, w wide; "clamped" reads take the nearest pixel
 * inside.  p is the family's parameter buffer (p0 100 / (s max Y), p1
 * s: fat_params), f
 * fattal's own (fattal02-shapes.h): f0 the mean of U, f1 f2 L at the two
 * percentiles, f8 + k avg_k.
 *
 * On CPU devices (sources in buffers) the _v forms instead, eight pixels
 * of a row (or sixteen cells of the multigrid) a work-item; each form is
 * built only where it is launched. */
#include "tonemap-common.h"
/* In tiles the scan runs on its own (tm_plan_fields). */
#define TM_SCAN_ALONE 1
#include "tonemap-stats.h"
#include "tonemap-select.h"
#include "fattal02-shapes.h"

/* One work-item: the constants from the statistics (n pixels), after
 * tm_params_begin's: p0 100 / (s max Y) (0 for a black image) and p1 s,
 * the scale of Y in H: 1, or 2^64 where 100 / max Y would overflow (max
 * Y below 2^-100; it is at least 2^-126: tonemap-shapes.h's TM_TINY).
 * A power of two, so that Y s is exact and H the same either way. */
__kernel void
fat_params (__global const float8 *stats, float n, __global float *p)
{
  float  Lavg, mean;
  float8 st = tm_params_begin (stats, n, p, &Lavg, &mean);
  float  s = st.s6 < 0x1p-100f ? 0x1p64f : 1.0f;

  p[0] = st.s6 > 0.0f ? 100.0f / (st.s6 * s) : 0.0f;
  p[1] = s;
}

inline int
fat_clamp (int v, int n)
{
  return v < 0 ? 0 : v >= n ? n - 1 : v;
}

/* 1: H = ln (100 Y / max Y + 1e-4), as p0 (Y p1) (fat_params). */
#if ! CLFX_SRC_BUFFER
__kernel void
fat_h (CLFX_SRC_ARGS (src), int4 rect, int w,
       __global const uint4 *scan,
       float scale, __global const float *p, __global float *H)
{
  int x = rect.x + (int) get_global_id (0);
  int y = rect.y + (int) get_global_id (1);

  if (x >= rect.z || y >= rect.w)
    return;
  H[(long) y * w + x]
    = log (p[0] * (tm_luminance (tm_read (CLFX_SRC (src), x, y,
                                          tm_largest (scan), scale))
                   * p[1])
           + 1e-4f);
}
#else
/* fat_h in the CPU devices' form: eight pixels of a row a work-item, their
 * log eight wide (five times faster on PoCL). */
__kernel void
fat_h_v (CLFX_SRC_ARGS (src), int4 rect, int w,
         __global const uint4 *scan,
         float scale, __global const float *p, __global float *H)
{
  long   at;
  float8 Y;
  int    n = tm_field8 (CLFX_SRC (src), rect, w, scan, scale, &at, &Y);

  if (n)
    tm_put8 (H, at, n, log (p[0] * (Y * p[1]) + 1e-4f));
}
#endif

/* 2: the next pyramid level, the 2 x 2 mean of the [1 2 1] / 4 blur in x
 * and y: the product kernel [1 3 3 1] / 8 per axis over rows and columns
 * 2 x - 1 .. 2 x + 2 (each blur tap clamped). */
#if ! CLFX_SRC_BUFFER
__kernel void
fat_down (__global const float *P, int w, int h, __global float *Q, int w2,
          int h2)
{
  int         x = get_global_id (0), y = get_global_id (1);
  const float c[4] = { 1.0f, 3.0f, 3.0f, 1.0f };
  float       s = 0.0f;

  if (x >= w2 || y >= h2)
    return;
  for (int j = 0; j < 4; j++)
    {
      __global const float *row = P + (long) fat_clamp (2 * y - 1 + j, h) * w;
      float r = 0.0f;
      for (int i = 0; i < 4; i++)
        r += c[i] * row[fat_clamp (2 * x - 1 + i, w)];
      s += c[j] * r;
    }
  Q[(long) y * w2 + x] = s * (1.0f / 64.0f);
}
#else
/* fat_down in the CPU devices' form: eight results of a row a work-item
 * (past the row's end, copies of its last), each tap's eight texels (every
 * other one) as the even floats of sixteen where the row holds them, the
 * same operations in the same order a lane: fat_down's floats. */
__kernel void
fat_down_v (__global const float *P, int w, int h, __global float *Q,
            int w2, int h2)
{
  int         x = 8 * (int) get_global_id (0), y = get_global_id (1);
  int         n = min (8, w2 - x);
  const float c[4] = { 1.0f, 3.0f, 3.0f, 1.0f };
  float8      s = (float8) (0.0f);

  if (n <= 0 || y >= h2)
    return;
  for (int j = 0; j < 4; j++)
    {
      __global const float *row = P + (long) fat_clamp (2 * y - 1 + j, h) * w;
      float8 r = (float8) (0.0f);
      for (int i = 0; i < 4; i++)
        {
          /* Lane k's texel: column c0 + 2k, clamped. */
          int    c0 = 2 * x - 1 + i;
          float8 t;
          if (n == 8 && c0 >= 0 && c0 + 15 < w)
            t = vload16 (0, row + c0).even;
          else
            {
              float u[8];
              for (int k = 0; k < 8; k++)
                u[k] = row[fat_clamp (c0 + 2 * min (k, n - 1), w)];
              t = vload8 (0, u);
            }
          r += c[i] * t;
        }
      s += c[j] * r;
    }
  tm_put8 (Q, (long) y * w2 + x, n, s * (1.0f / 64.0f));
}
#endif

/* 3: the gradient's magnitude at level k, central differences over
 * 2^(k + 1) (inv = 2^-(k + 1)). */
inline CLFX_ALWAYS_INLINE void
fat_grad1 (__global const float *P, int w, int h, float inv,
           __global float *G, int x, int y)
{
  __global const float *row = P + (long) y * w;
  float gx = (row[fat_clamp (x + 1, w)] - row[fat_clamp (x - 1, w)]) * inv;
  float gy = (P[(long) fat_clamp (y + 1, h) * w + x]
              - P[(long) fat_clamp (y - 1, h) * w + x]) * inv;
  G[(long) y * w + x] = sqrt (gx * gx + gy * gy);
}

#if ! CLFX_SRC_BUFFER
__kernel void
fat_grad (__global const float *P, int w, int h, float inv,
          __global float *G)
{
  int x = get_global_id (0), y = get_global_id (1);

  if (x < w && y < h)
    fat_grad1 (P, w, h, inv, G, x, y);
}
#else
/* The CPU devices' form: eight pixels of a row a work-item, as vectors
 * where no column is clamped (fat_grad1's operations written the same
 * way: the same bits), else pixel by pixel. */
__kernel void
fat_grad_v (__global const float *P, int w, int h, float inv,
            __global float *G)
{
  int x = 8 * (int) get_global_id (0), y = get_global_id (1);
  int n = min (8, w - x);

  if (n <= 0 || y >= h)
    return;
  if (n == 8 && x >= 1 && x + 8 < w)
    {
      __global const float *row = P + (long) y * w + x;
      float8 gx = (vload8 (0, row + 1) - vload8 (0, row - 1)) * inv;
      float8 gy = (vload8 (0, P + (long) fat_clamp (y + 1, h) * w + x)
                   - vload8 (0, P + (long) fat_clamp (y - 1, h) * w + x))
                  * inv;
      vstore8 (sqrt (gx * gx + gy * gy), 0, G + (long) y * w + x);
      return;
    }
  for (int k = 0; k < n; k++)
    fat_grad1 (P, w, h, inv, G, x + k, y);
}
#endif

/* A deterministic sum of n floats (tonemap-select.h): fat_sum's groups
 * write their partials, fat_sum_final adds them and writes sum * mul into
 * f[slot]. */
#if ! CLFX_SRC_BUFFER
__kernel void
fat_sum (__global const float *v, long n, long chunk,
         __global float *partials, __local float *s)
{
  int   lx = get_local_id (0), g = get_group_id (0);
  float t = tm_sum_part (v, n, chunk, lx, g, s);

  if (lx == 0)
    partials[g] = t;
}
#else
/* fat_sum in the CPU devices' form (tm_sum_part_v): fat_sum's partials. */
__kernel void
fat_sum_v (__global const float *v, long n, long chunk,
           __global float *partials, __local float *s)
{
  int   lx = get_local_id (0), g = get_group_id (0);
  float t = tm_sum_part_v (v, n, chunk, lx, g, s);

  if (lx == 0)
    partials[g] = t;
}
#endif

__kernel void
fat_sum_final (__global const float *partials, int n, float mul,
               __global float *f, int slot, __local float *s)
{
  int   lx = get_local_id (0);
  float t = tm_sum_final (partials, n, lx, s);

  if (lx == 0)
    f[slot] = t * mul;
}

/* 3 and 4: Phi at level k = phi_k times the [1 2 1] blur of the coarser
 * level's Phi upsampled to nearest (coarsest: C is not read); phi =
 * (a / (g + noise))^(1 - beta), which is GEGL's a / (g + noise) ((g +
 * noise) / a)^beta, where g > 1e-4. */
/* The [1 2 1] blur per axis of C (wc x hc) at (x, y) of the finer level
 * (w x h), rows then columns. */
inline CLFX_ALWAYS_INLINE float
fat_phi_base (__global const float *C, int w, int h, int wc, int hc, int x,
              int y)
{
  int xm = min (fat_clamp (x - 1, w) / 2, wc - 1);
  int x0 = min (x / 2, wc - 1), xp = min (fat_clamp (x + 1, w) / 2, wc - 1);
  __global const float *rm = C + (long) min (fat_clamp (y - 1, h) / 2,
                                             hc - 1) * wc;
  __global const float *r0 = C + (long) min (y / 2, hc - 1) * wc;
  __global const float *rp = C + (long) min (fat_clamp (y + 1, h) / 2,
                                             hc - 1) * wc;
  float base = (rm[xm] + 2.0f * rm[x0] + rm[xp])
               + 2.0f * (r0[xm] + 2.0f * r0[x0] + r0[xp])
               + (rp[xm] + 2.0f * rp[x0] + rp[xp]);

  return base * (1.0f / 16.0f);
}

#if ! CLFX_SRC_BUFFER
__kernel void
fat_phi (__global const float *G, int w, int h, __global const float *C,
         int wc, int hc, int coarsest, __global const float *f, int k,
         float alpha, float beta, float noise, __global float *Phi)
{
  int   x = get_global_id (0), y = get_global_id (1);
  float g, a, phi = 1.0f;

  if (x >= w || y >= h)
    return;
  g = G[(long) y * w + x];
  a = alpha * f[FAT_AVG + k];
  /* exp2 (e log2 x), not powr: the same within a few ulp here (|e log2
   * x| stays small) and several times faster on PoCL, whose powr is a
   * scalar call. */
  if (g > 1e-4f)
    phi = exp2 ((1.0f - beta) * log2 (a / (g + noise)));
  Phi[(long) y * w + x]
    = phi * (coarsest ? 1.0f : fat_phi_base (C, w, h, wc, hc, x, y));
}
#else
/* fat_phi in the CPU devices' form: eight pixels of a row a work-item,
 * phi eight wide. */
__kernel void
fat_phi_v (__global const float *G, int w, int h, __global const float *C,
           int wc, int hc, int coarsest, __global const float *f, int k,
           float alpha, float beta, float noise, __global float *Phi)
{
  int    x = 8 * (int) get_global_id (0), y = get_global_id (1);
  int    n = min (8, w - x);
  float  t[8], a = alpha * f[FAT_AVG + k];
  float8 g, phi;

  if (n <= 0 || y >= h)
    return;
  g = tm_get8 (G, (long) y * w + x, n);
  phi = g > 1e-4f ? exp2 ((1.0f - beta) * log2 (a / (g + noise)))
                  : (float8) (1.0f);
  if (n == 8 && ! coarsest && x >= 2 && x + 8 < w && x / 2 + 7 <= wc)
    {
      /* Inside: fat_phi_base's sums for the eight pixels at once from
       * coarse columns x / 2 - 1 .. x / 2 + 4 of each row (no clamps
       * there), in its order: the same bits (a product by 2 or 1/16 is
       * exact, fused or not). */
      int c = x / 2 - 1;
      float8 rm = vload8 (0, C + (long) min (fat_clamp (y - 1, h) / 2,
                                             hc - 1) * wc + c);
      float8 r0 = vload8 (0, C + (long) min (y / 2, hc - 1) * wc + c);
      float8 rp = vload8 (0, C + (long) min (fat_clamp (y + 1, h) / 2,
                                             hc - 1) * wc + c);
      float8 base = (rm.s01122334 + 2.0f * rm.s11223344 + rm.s12233445)
                    + 2.0f * (r0.s01122334 + 2.0f * r0.s11223344
                              + r0.s12233445)
                    + (rp.s01122334 + 2.0f * rp.s11223344 + rp.s12233445);
      vstore8 (phi * (base * (1.0f / 16.0f)), 0,
               Phi + (long) y * w + x);
      return;
    }
  vstore8 (phi, 0, t);
  for (int j = 0; j < n; j++)
    Phi[(long) y * w + x + j]
      = t[j] * (coarsest ? 1.0f
                         : fat_phi_base (C, w, h, wc, hc, x + j, y));
}
#endif

/* 5: the divergence of the attenuated forward differences. */
inline float
fat_gx (__global const float *H, __global const float *FI, int w, int x,
        long row)
{
  return (H[row + min (x + 1, w - 1)] - H[row + x]) * FI[row + x];
}

inline CLFX_ALWAYS_INLINE void
fat_div1 (__global const float *H, __global const float *FI, int w, int h,
          __global float *F, int x, int y)
{
  long row = (long) y * w, at = row + x;
  float d;

  d = fat_gx (H, FI, w, x, row)
      + (H[(long) min (y + 1, h - 1) * w + x] - H[at]) * FI[at];
  if (x > 0)
    d -= fat_gx (H, FI, w, x - 1, row);
  if (y > 0)
    d -= (H[at] - H[at - w]) * FI[at - w];
  F[at] = d;
}

#if ! CLFX_SRC_BUFFER
__kernel void
fat_div (__global const float *H, __global const float *FI, int w, int h,
         __global float *F)
{
  int x = get_global_id (0), y = get_global_id (1);

  if (x < w && y < h)
    fat_div1 (H, FI, w, h, F, x, y);
}
#else
/* fat_gx of the eight pixels from at, none of them in the last column. */
inline CLFX_ALWAYS_INLINE float8
fat_gx8 (__global const float *H, __global const float *FI, long at)
{
  return (vload8 (0, H + at + 1) - vload8 (0, H + at)) * vload8 (0, FI + at);
}

/* The CPU devices' form: eight pixels of a row a work-item, as vectors
 * where every pixel has its four neighbours (fat_div1's operations
 * written the same way: the same bits), else pixel by pixel. */
__kernel void
fat_div_v (__global const float *H, __global const float *FI, int w, int h,
           __global float *F)
{
  int x = 8 * (int) get_global_id (0), y = get_global_id (1);
  int n = min (8, w - x);

  if (n <= 0 || y >= h)
    return;
  if (n == 8 && x >= 1 && x + 8 < w && y > 0)
    {
      long   at = (long) y * w + x;
      float8 h0 = vload8 (0, H + at), d;
      d = fat_gx8 (H, FI, at)
          + (vload8 (0, H + (long) min (y + 1, h - 1) * w + x) - h0)
              * vload8 (0, FI + at);
      d -= fat_gx8 (H, FI, at - 1);
      d -= (h0 - vload8 (0, H + at - w)) * vload8 (0, FI + at - w);
      vstore8 (d, 0, F + at);
      return;
    }
  for (int k = 0; k < n; k++)
    fat_div1 (H, FI, w, h, F, x + k, y);
}
#endif

/* 6: the multigrid (docs/TONEMAP.md).  One half sweep of red-black Gauss-
 * Seidel: work-item (i, y) updates the cell of colour `colour` in the
 * pair of columns 2 i, 2 i + 1; `zero` starts from U = 0 (the neighbours
 * read 0, and the pair's other cell is set to 0). */
inline CLFX_ALWAYS_INLINE void
fat_sweep1 (__global float *U, __global const float *F, int w, int h,
            int colour, int zero, int i, int y)
{
  int   x = 2 * i + ((y + colour) & 1), o = 2 * i + 1 - ((y + colour) & 1);
  long  at = (long) y * w + x;
  float s = 0.0f;
  int   n = 0;

  if (zero && o < w)
    U[(long) y * w + o] = 0.0f;
  if (x >= w)
    return;
  if (x > 0)
    s += zero ? 0.0f : U[at - 1], n++;
  if (x + 1 < w)
    s += zero ? 0.0f : U[at + 1], n++;
  if (y > 0)
    s += zero ? 0.0f : U[at - w], n++;
  if (y + 1 < h)
    s += zero ? 0.0f : U[at + w], n++;
  if (n > 0)
    U[at] = (s - F[at]) / (float) n;
  else if (zero)
    U[at] = 0.0f;
}

#if ! CLFX_SRC_BUFFER
__kernel void
fat_sweep (__global float *U, __global const float *F, int w, int h,
           int colour, int zero)
{
  int i = get_global_id (0), y = get_global_id (1);

  if (y < h)
    fat_sweep1 (U, F, w, h, colour, zero, i, y);
}
#else
/* The CPU devices' form: work-item (i, y) updates the eight cells of its
 * colour in columns 16 i .. 16 i + 15, eight wide where all four
 * neighbours of each are inside (fat_sweep's operations in its order, so
 * the same bits), else one by one as fat_sweep.  Each neighbour row is
 * read as sixteen floats whose even lanes are the neighbours; the odd
 * lanes are cells of the colour being written, by this work-item or its
 * neighbours, and are not used (OpenCL 1.2's relaxed memory model gives
 * such a read an undefined value, nothing more).  On PoCL this halved
 * the sweeps' time against reading the neighbours one by one. */
__kernel void
fat_sweep_v (__global float *U, __global const float *F, int w, int h,
             int colour, int zero)
{
  int i = FAT_SWEEP_V * (int) get_global_id (0), y = get_global_id (1);
  int x = 2 * i + ((y + colour) & 1);

  if (y >= h)
    return;
  if (! zero && y > 0 && y + 1 < h && x > 0
      && x + 2 * (FAT_SWEEP_V - 1) + 1 < w)
    {
      __global float       *u = U + (long) y * w + x;
      __global const float *f = F + (long) y * w + x;
      float8 s = 0.0f + vload16 (0, u - 1).even;
      s += vload16 (0, u + 1).even;
      s += vload16 (0, u - w).even;
      s += vload16 (0, u + w).even;
      s = (s - vload16 (0, f).even) / 4.0f;
      /* Stored lane by lane from the vector (through an array and a loop,
       * PoCL kept them in memory). */
      u[0] = s.s0;
      u[2] = s.s1;
      u[4] = s.s2;
      u[6] = s.s3;
      u[8] = s.s4;
      u[10] = s.s5;
      u[12] = s.s6;
      u[14] = s.s7;
      return;
    }
  for (int k = 0; k < FAT_SWEEP_V; k++)
    fat_sweep1 (U, F, w, h, colour, zero, i + k, y);
}
#endif

/* with_u: F - A U, else F; restricted: 4 / (cx cy) x the sum over the
 * coarse cell's fine cells inside the grid (cx = 2, or 1 for a grid one
 * cell wide; cy alike): 4 x the mean of a whole cell, the total kept
 * where an odd edge leaves a cell half full. */
inline float
fat_defect (__global const float *U, __global const float *F, int w, int h,
            int x, int y, int with_u)
{
  long  at = (long) y * w + x;
  float u, a = 0.0f;

  if (! with_u)
    return F[at];
  u = U[at];
  if (x > 0)
    a += U[at - 1] - u;
  if (x + 1 < w)
    a += U[at + 1] - u;
  if (y > 0)
    a += U[at - w] - u;
  if (y + 1 < h)
    a += U[at + w] - u;
  return F[at] - a;
}

inline CLFX_ALWAYS_INLINE void
fat_restrict1 (__global const float *U, __global const float *F, int w,
               int h, int with_u, __global float *Fc, int wc, int X, int Y)
{
  float s = 0.0f;
  float k = 4.0f / (float) ((w > 1 ? 2 : 1) * (h > 1 ? 2 : 1));

  for (int j = 0; j < 2; j++)
    for (int i = 0; i < 2; i++)
      if (2 * X + i < w && 2 * Y + j < h)
        s += fat_defect (U, F, w, h, 2 * X + i, 2 * Y + j, with_u);
  Fc[(long) Y * wc + X] = k * s;
}

#if ! CLFX_SRC_BUFFER
__kernel void
fat_restrict (__global const float *U, __global const float *F, int w, int h,
              int with_u, __global float *Fc, int wc, int hc)
{
  int X = get_global_id (0), Y = get_global_id (1);

  if (X < wc && Y < hc)
    fat_restrict1 (U, F, w, h, with_u, Fc, wc, X, Y);
}
#else
/* The CPU devices' form: work-item (i, Y) restricts the eight coarse
 * cells from FAT_SWEEP_V i, sixteen fine columns of two rows, sixteen wide
 * where every fine cell and its four neighbours are inside (fat_defect's
 * and fat_restrict's operations in their order), else one by one. */
__kernel void
fat_restrict_v (__global const float *U, __global const float *F, int w,
                int h, int with_u, __global float *Fc, int wc, int hc)
{
  int X = FAT_SWEEP_V * (int) get_global_id (0), Y = get_global_id (1);
  int x = 2 * X;

  if (Y >= hc)
    return;
  if (Y > 0 && 2 * Y + 2 < h && x > 0 && x + 2 * FAT_SWEEP_V < w)
    {
      float16 d[2];
      for (int j = 0; j < 2; j++)
        {
          long                  at = (long) (2 * Y + j) * w + x;
          __global const float *u = U + at;
          float16               c = vload16 (0, u), a;
          a = 0.0f + (vload16 (0, u - 1) - c);
          a += vload16 (0, u + 1) - c;
          a += vload16 (0, u - w) - c;
          a += vload16 (0, u + w) - c;
          d[j] = with_u ? vload16 (0, F + at) - a : vload16 (0, F + at);
        }
      float8 s = 0.0f + d[0].even;
      s += d[0].odd;
      s += d[1].even;
      s += d[1].odd;
      /* fat_restrict's factor k is 1 here. */
      vstore8 (s, 0, Fc + (long) Y * wc + X);
      return;
    }
  for (int k = 0; k < FAT_SWEEP_V && X + k < wc; k++)
    fat_restrict1 (U, F, w, h, with_u, Fc, wc, X + k, Y);
}
#endif

/* U (+)= the bilinear prolongation of the coarse grid's Uc. */
inline CLFX_ALWAYS_INLINE void
fat_prolong1 (__global const float *Uc, int wc, int hc, __global float *U,
              int w, int add, int x, int y)
{
  int   X = x / 2, Y = y / 2;
  int   X1 = fat_clamp (X + ((x & 1) ? 1 : -1), wc);
  int   Y1 = fat_clamp (Y + ((y & 1) ? 1 : -1), hc);
  long  at = (long) y * w + x;
  float v;

  v = 0.5625f * Uc[(long) Y * wc + X] + 0.1875f * Uc[(long) Y * wc + X1]
      + 0.1875f * Uc[(long) Y1 * wc + X] + 0.0625f * Uc[(long) Y1 * wc + X1];
  U[at] = add ? U[at] + v : v;
}

#if ! CLFX_SRC_BUFFER
__kernel void
fat_prolong (__global const float *Uc, int wc, int hc, __global float *U,
             int w, int h, int add)
{
  int x = get_global_id (0), y = get_global_id (1);

  if (x < w && y < h)
    fat_prolong1 (Uc, wc, hc, U, w, add, x, y);
}
#else
/* The CPU devices' form: work-item (i, y) makes sixteen fine cells from
 * 16 i, eight wide for the even columns and eight for the odd ones where
 * their coarse neighbours are inside (fat_prolong's operations in its
 * order), else one by one. */
__kernel void
fat_prolong_v (__global const float *Uc, int wc, int hc, __global float *U,
               int w, int h, int add)
{
  int x = 2 * FAT_SWEEP_V * (int) get_global_id (0), y = get_global_id (1);
  int X = x / 2, Y = y / 2;

  if (y >= h)
    return;
  if (X > 0 && X + FAT_SWEEP_V < wc && x + 2 * FAT_SWEEP_V <= w)
    {
      int                   Y1 = fat_clamp (Y + ((y & 1) ? 1 : -1), hc);
      __global const float *c = Uc + (long) Y * wc + X;
      __global const float *d = Uc + (long) Y1 * wc + X;
      __global float       *u = U + (long) y * w + x;
      float8 c0 = vload8 (0, c), d0 = vload8 (0, d);
      /* Even columns take the coarse neighbour to the left, odd ones
       * the one to the right. */
      float8 ve = 0.5625f * c0 + 0.1875f * vload8 (0, c - 1)
                  + 0.1875f * d0 + 0.0625f * vload8 (0, d - 1);
      float8 vo = 0.5625f * c0 + 0.1875f * vload8 (0, c + 1)
                  + 0.1875f * d0 + 0.0625f * vload8 (0, d + 1);
      float16 v = shuffle2 (ve, vo,
                            (uint16) (0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5,
                                      13, 6, 14, 7, 15));
      vstore16 (add ? vload16 (0, u) + v : v, 0, u);
      return;
    }
  for (int k = 0; k < 2 * FAT_SWEEP_V && x + k < w; k++)
    fat_prolong1 (Uc, wc, hc, U, w, add, x + k, y);
}
#endif

/* The coarsest grid (at most 8 x 8 cells), one work-group of FAT_COARSE:
 * U = B (F - mean F), B = (A - J / n)^-1 made by the host in double (A's
 * pseudo-inverse on F's mean-free part: the exact solve), then U minus its
 * mean (what the float product leaves of it).  No loop holds a barrier:
 * PoCL 6.0 compiled the earlier 512-step red-black loop around a barrier
 * wrong about one compile in 15 (docs/TONEMAP.md). */
__kernel void
fat_coarse (__global float *U, __global const float *F, int w, int h,
            __global const float *B)
{
  __local float v[FAT_COARSE];
  int           lx = get_local_id (0), n = w * h;
  float         mean = 0.0f, u = 0.0f;

  v[lx] = lx < n ? F[lx] : 0.0f;
  barrier (CLK_LOCAL_MEM_FENCE);
  for (int i = 0; i < n; i++)
    mean += v[i];
  mean /= (float) n;
  if (lx < n)
    for (int j = 0; j < n; j++)
      u += B[lx * n + j] * (v[j] - mean);
  barrier (CLK_LOCAL_MEM_FENCE);
  v[lx] = u;
  barrier (CLK_LOCAL_MEM_FENCE);
  mean = 0.0f;
  for (int i = 0; i < n; i++)
    mean += v[i];
  if (lx < n)
    U[lx] = u - mean / (float) n;
}

/* U minus its mean (f0). */
__kernel void
fat_center (__global float *U, long n, __global const float *f)
{
  long i = get_global_id (0);

  if (i < n)
    U[i] -= f[FAT_MEAN];
}

/* 7: the percentiles, by radix selection on U (tonemap-select.h; exp is
 * increasing, so L's ranks are U's). */
#if ! CLFX_SRC_BUFFER
__kernel void
fat_hist (__global const float *U, long n, long chunk,
          __global const uint *sel, int known, int shift,
          __global uint *hist, __local uint *lh)
{
  tm_sel_hist (U, n, chunk, sel, known, shift, hist, lh);
}
#else
__kernel void
fat_hist_v (__global const float *U, long n, long chunk,
            __global const uint *sel, int known, int shift,
            __global uint *hist, __local uint *lh)
{
  tm_sel_hist_v (U, n, chunk, sel, known, shift, hist, lh);
}
#endif

/* The last pass (shift 0) writes L at both percentiles into f. */
__kernel void
fat_select (__global const uint *hist, __global uint *sel, int known,
            int shift, uint rank_lo, uint rank_hi, __global float *f,
            __local uint *s)
{
  float v[2];

  if (tm_sel_select (hist, sel, known, shift, rank_lo, rank_hi, s, v))
    {
      f[FAT_LO] = exp (v[0]) - 1e-4f;
      f[FAT_HI] = exp (v[1]) - 1e-4f;
    }
}

/* 7 and 8: out = (L - lo) / (hi - lo) (1e-4 where <= 0; 1 when hi = lo),
 * colour out (c / Y)^saturation, 0 where Y = 0. */
#if ! CLFX_SRC_BUFFER
__kernel void
fat_map (CLFX_SRC_ARGS (src), CLFX_DST_ARGS, __global const uint4 *scan,
         float scale, __global const float *U, int w,
         __global const float *p, __global const float *f, float saturation,
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
          float range = f[FAT_HI] - f[FAT_LO];
          float L = exp (U[(long) y * w + x]) - 1e-4f;
          float out = range > 0.0f ? (L - f[FAT_LO]) / range : 1.0f;
          out = out > 0.0f ? out : 1e-4f;
          /* (c / Y)^saturation as exp2 (s log2 (c / Y)), as in fat_phi
           * (c = 0: exp2 (-inf) = 0). */
          if (saturation == 0.0f)
            v.xyz = (float3) (out);
          else
            v.xyz = out * exp2 (saturation * log2 (v.xyz / Y));
        }
      tm_store (dst, dst_offset, dst_pitch, dst_rect, x, y, v, lh);
    }
  tm_hist_flush (lh, TM_HA_N, hist);
}
#else
/* fat_map in the CPU devices' form: eight pixels of a row in TM_MAP_ROWS
 * rows a work-item (tm_map8_begin); fat_map8 makes the colour of eight
 * pixels (r, g, b read and cleaned) with fat_map's operations eight wide,
 * the pixels fat_map leaves black selected after. */
inline CLFX_ALWAYS_INLINE void
fat_map8 (float8 *r, float8 *g, float8 *b, int x, int y, int n,
          __global const float *U, int w, __global const float *p,
          __global const float *f, float saturation)
{
  float8 Y = tm_luminance8 (*r, *g, *b), L, out;
  float  range = f[FAT_HI] - f[FAT_LO];

  L = exp (tm_get8 (U, (long) y * w + x, n)) - 1e-4f;
  out = range > 0.0f ? (L - f[FAT_LO]) / range : (float8) (1.0f);
  out = out > 0.0f ? out : (float8) (1e-4f);
  if (saturation == 0.0f)
    *r = *g = *b = out;
  else
    {
      *r = out * exp2 (saturation * log2 (*r / Y));
      *g = out * exp2 (saturation * log2 (*g / Y));
      *b = out * exp2 (saturation * log2 (*b / Y));
    }
  if (p[TM_P_BLACK] != 0.0f)
    *r = *g = *b = (float8) (0.0f);
  *r = Y > 0.0f ? *r : (float8) (0.0f);
  *g = Y > 0.0f ? *g : (float8) (0.0f);
  *b = Y > 0.0f ? *b : (float8) (0.0f);
}

__kernel void
fat_map_v (CLFX_SRC_ARGS (src), CLFX_DST_ARGS, __global const uint4 *scan,
           float scale, __global const float *U, int w,
           __global const float *p, __global const float *f,
           float saturation, __global uint *hist, __local uint *lh)
{
  uint ph[4 * TM_HA_N];
  int  gx, gy0, gy1;

  gy1 = tm_map8_begin (dst_rect, &gx, &gy0, ph, lh);
  for (int gy = gy0; gy < gy1; gy++)
    {
      int    x = CLFX_DST_X (gx), y = CLFX_DST_Y (gy);
      int    n = min (8, dst_rect.z - gx);
      float8 r, g, b, a;

      tm_read8 (CLFX_SRC (src), x, y, n, tm_largest (scan), scale, &r,
                &g, &b, &a);
      fat_map8 (&r, &g, &b, x, y, n, U, w, p, f, saturation);
      tm_map8_put (ph, dst, dst_offset, dst_pitch, dst_rect, x, y, n, r, g,
                   b, a);
    }
  tm_map8_end (ph, lh, hist);
}
#endif
