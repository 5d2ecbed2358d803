/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bilateral.cl: the filter family's bilateral variant, GEGL's
 * bilateral-filter (docs/FILTERS.md), on straight colour in linear light
 * (the host builds it without CLFX_PREMUL).
 *
 * For the result pixel (x, y) with centre texel c, over the square window
 * of side 2 R + 1 (R = floor (blur-radius)) centred on it:
 *
 *   w (u, v) = ws[u] ws[v] exp (-min (|t - c|^2, FLT_MAX) p)
 *   out      = sum w t / sum w, all four channels
 *
 * with t the texel at (x + u - R, y + v - R) as RGBA (clfx_rgba: gray as
 * R = G = B, as GEGL converts it, so its distance is 3 (dY)^2), ws[k] =
 * exp (-(k - R)^2 / 2 r) computed on the host in double and rounded to
 * float (GEGL's spatial weight, exp (-(du^2 + dv^2) / 2r), is the product
 * of the two axes'), |t - c|^2 over R, G and B, p = edge-preservation.
 * Terms are summed row by row, left to right, as GEGL's loop sums them.
 * The min keeps a finite but huge difference from making inf * 0 = NaN at
 * p = 0.
 *
 * exp, not native_exp: exp is within 3 ulp (OpenCL C, full profile) and
 * the tolerance is built on that; native_exp has no stated precision.
 *
 * Non-finite texels: a neighbour with a NaN or an infinity in any channel
 * gets weight 0 (its value is not read into the sums, so it cannot spread
 * beyond the windows that hold it); a non-finite centre is passed through
 * as it is.  The CPU reference does the same.
 *
 * Edge handling none (the host's `none`): texels outside the source are
 * read as NaN, so they weigh nothing and the weights of those inside are
 * renormalised by the sum itself.
 *
 * Finite texels give a finite result: where the numerator overflows
 * (values near FLT_MAX, weights that sum past 1), the window is summed
 * again with its texels scaled by BIL_DOWN, a power of two, and the mean
 * scaled back, clamped to +-FLT_MAX (BIL_RESULT).  Only results that
 * would otherwise not be finite take it; every other keeps its bytes.
 *
 * A window wider than the image along an axis (2 R + 1 above its side)
 * reads texels many times over (clamp-to-edge: the edge texel for each
 * tap past it; repeat: each period of the image), so bilateral_f sums it
 * folded: a tap's range weight depends only on the texel it reads, so
 * the taps that read one texel add up to that texel weighted by the sum
 * of their spatial weights.  Per axis the host gives each result
 * position its range of offsets and their weights (clfx_filter_fold,
 * engine/ops/filter-common.c): clamp-to-edge the offsets inside the
 * image, the first and last carrying the taps past the edge; repeat one
 * period, mirrored-repeat two (or the window, where it is shorter);
 * clamp and none the offsets inside, clamp adding the transparent texel
 * outside once with the spatial weight of every tap outside.  The cost
 * is bounded by the image instead of the radius; the same sums in
 * another order, within the direct forms' tolerance.
 *
 * Three direct forms: bilateral_l for GPUs, a 16 x 16 work-group that
 * first copies the (16 + 2 R)^2 texels its windows read into local
 * memory (one global read per texel and group instead of (2 R + 1)^2
 * per result: at radius 4, 2.25 reads per result instead of 81, so the
 * kernel is bound by its arithmetic, about 40 operations a tap, not by
 * texture fetches);
 * bilateral_v for CPU devices up to radius BIL_VR, BIL_V results of a row
 * per work-item as vectors; and bilateral_d (larger windows on CPU
 * devices, windows too large for local memory elsewhere), which reads the
 * source directly, a result per work-item.  As in filter-fir.cl, the local
 * form has one unconditional barrier and no early return (PoCL 6.0
 * corrupted its heap when work-items returned after a barrier, and summed
 * wrongly with a barrier under a kernel argument's condition). */
#include "clfx-io.h"
#include "bilateral-shapes.h"

/* Texel (i, j) of the source as RGBA; outside it NaN where `none`. */
inline float4
bil_load (CLFX_SRC_PARAMS, int none, int i, int j)
{
  return none && (i < 0 || j < 0 || i >= view.z || j >= view.w)
           ? (float4) (NAN)
           : clfx_rgba (clfx_fetch (img, view, flags, pitch, lut, i, j));
}
#define BIL_LOAD(none, i, j) bil_load (CLFX_SRC (src), (none), (i), (j))

/* The squared colour distance of a difference of RGBA texels. */
inline float
bil_dist2 (float4 d)
{
  return d.x * d.x + d.y * d.y + d.z * d.z;
}

/* Whether every channel of t is finite (NaN compares false). */
inline bool
bil_finite (float4 t)
{
  return fabs (t.x) <= FLT_MAX && fabs (t.y) <= FLT_MAX
         && fabs (t.z) <= FLT_MAX && fabs (t.w) <= FLT_MAX;
}

/* Texels are scaled by BIL_DOWN where a window is summed again: the
 * spatial weights sum to less than 2^13 at every radius up to 1000 (2 pi
 * r and less), so no partial sum of weighted texels up to FLT_MAX then
 * overflows. */
#define BIL_DOWN 0x1.0p-16f
#define BIL_UP   65536.0f

/* One tap into the sums num and den: texel t (scaled by `scale` in the
 * numerator) with spatial weight s; its range weight from t as read. */
#define BIL_TAP(num, den, c, t, s, p, scale)                                 \
  do                                                                         \
    {                                                                        \
      float4 t_ = (t);                                                       \
      bool   ok_ = bil_finite (t_);                                          \
      float  e_ = fmin (bil_dist2 (t_ - (c)), FLT_MAX) * (p);                \
      float  w_ = (s) * exp (-e_);                                           \
      w_ = ok_ ? w_ : 0.0f;                                                  \
      t_ = ok_ ? t_ * (scale) : (float4) (0.0f);                             \
      num += w_ * t_;                                                        \
      den += w_;                                                             \
    }                                                                        \
  while (0)

/* The sums over the window of centre c whose texel (i, j), 0 <= i, j <=
 * 2 R, is the expression `load`; ws: the 2 R + 1 spatial weights. */
#define BIL_SUMS(num, den, c, ws, R, p, i, j, load, scale)                   \
  do                                                                         \
    {                                                                        \
      num = (float4) (0.0f);                                                 \
      den = 0.0f;                                                            \
      for (int j = 0; j <= 2 * (R); j++)                                     \
        {                                                                    \
          float wy_ = (ws)[j];                                               \
          for (int i = 0; i <= 2 * (R); i++)                                 \
            BIL_TAP (num, den, c, load, wy_ * (ws)[i], p, scale);            \
        }                                                                    \
    }                                                                        \
  while (0)

/* Whether a result of finite texels overflowed: the centre is finite (a
 * non-finite centre passes through; non-finite neighbours weigh nothing)
 * and the result is not. */
inline bool
bil_overflowed (float4 out, float4 c)
{
  return bil_finite (c) && ! bil_finite (out);
}

/* The mean of a window summed with its texels scaled by BIL_DOWN, back
 * to the image's scale; past FLT_MAX clamped. */
inline float4
bil_scaled_back (float4 v)
{
  return clamp (v * BIL_UP, -FLT_MAX, FLT_MAX);
}

/* The result for centre c from SUMS (num, den, scale), a macro that
 * makes the window's sums: as they are, or scaled where they overflowed;
 * a non-finite centre passes through.  den >= 1: the centre's own weight
 * is 1 * 1 * exp (0). */
#define BIL_RESULT(out, c, SUMS)                                             \
  do                                                                         \
    {                                                                        \
      float4 num_;                                                           \
      float  den_;                                                           \
      SUMS (num_, den_, 1.0f);                                               \
      (out) = bil_finite (c) ? num_ / den_ : (c);                            \
      if (bil_overflowed ((out), (c)))                                       \
        {                                                                    \
          SUMS (num_, den_, BIL_DOWN);                                       \
          (out) = bil_scaled_back (num_ / den_);                             \
        }                                                                    \
    }                                                                        \
  while (0)

/* GPUs: a BIL_T x BIL_T group, its (BIL_T + 2 R)^2 texels in `tile`
 * (local memory the host sizes).  The host picks this form only where
 * the tile fits the device's local memory. */
__kernel __attribute__ ((reqd_work_group_size (BIL_T, BIL_T, 1))) void
bilateral_l (CLFX_SRC_ARGS (src), CLFX_DST_ARGS, __constant float *ws,
             int R, float p, __local float4 *tile, int none)
{
  int lx = get_local_id (0), ly = get_local_id (1);
  int gx = get_global_id (0), gy = get_global_id (1);
  int span = BIL_T + 2 * R;
  int x0 = dst_rect.x + get_group_id (0) * BIL_T - R;
  int y0 = dst_rect.y + get_group_id (1) * BIL_T - R;

  for (int k = ly * BIL_T + lx; k < span * span; k += BIL_T * BIL_T)
    tile[k] = BIL_LOAD (none, x0 + k % span, y0 + k / span);
  barrier (CLK_LOCAL_MEM_FENCE);
  if (gx < dst_rect.z && gy < dst_rect.w)
    {
      int    x = CLFX_DST_X (gx), y = CLFX_DST_Y (gy);
      int    o = ly * span + lx;
      float4 c = tile[o + R * span + R], out;
#define BIL_TILE_SUMS(num, den, scale)                                       \
  BIL_SUMS (num, den, c, ws, R, p, i, j, tile[o + j * span + i], scale)
      BIL_RESULT (out, c, BIL_TILE_SUMS);
#undef BIL_TILE_SUMS
      CLFX_STORE (x, y, clfx_from_rgba (out));
    }
}

/* The window of (x, y) with centre c read from the source itself, its
 * texels scaled by `scale`: sums into num and den.  Windows wholly inside
 * the source skip the addressing. */
#define BIL_DIRECT_SUMS(num, den, scale)                                     \
  do                                                                         \
    {                                                                        \
      if (inside)                                                            \
        BIL_SUMS (num, den, c, ws, R, p, i, j,                               \
                  clfx_rgba (clfx_fetch_inside (CLFX_SRC (src), sx + i,      \
                                                sy + j)),                    \
                  scale);                                                    \
      else                                                                   \
        BIL_SUMS (num, den, c, ws, R, p, i, j,                               \
                  BIL_LOAD (none, sx + i, sy + j), scale);                   \
    }                                                                        \
  while (0)

/* The result at (x, y) from the source itself, a result per work-item:
 * larger windows on CPU devices, windows too large for local memory
 * elsewhere (a work-group's copy would only be a copy on a CPU). */
__kernel void
bilateral_d (CLFX_SRC_ARGS (src), CLFX_DST_ARGS, __constant float *ws,
             int R, float p, int none)
{
  int gx = get_global_id (0), gy = get_global_id (1);

  if (gx >= dst_rect.z || gy >= dst_rect.w)
    return;

  int    x = CLFX_DST_X (gx), y = CLFX_DST_Y (gy);
  int    sx = x - R, sy = y - R;
  bool   inside = clfx_window_inside (src_flags, src_view, sx, sy,
                                      2 * R + 1, 2 * R + 1);
  float4 c = clfx_rgba (clfx_fetch (CLFX_SRC (src), x, y)), out;
  BIL_RESULT (out, c, BIL_DIRECT_SUMS);
  CLFX_STORE (x, y, clfx_from_rgba (out));
}

/* CPU devices, radius up to BIL_VR: BIL_V neighbouring results of a row
 * per work-item, each channel a vector of BIL_V lanes, one lane per
 * result.  PoCL runs a work-item's arithmetic one pixel at a time (its
 * work-group vectorizer does not take these loops), so the one-result
 * form evaluates exp for a single pixel per call; here one exp call
 * serves BIL_V results, and each texel of a window row is read and
 * decoded once for the BIL_V windows that hold it instead of once per
 * window (six times faster on PoCL: docs/notebook/performance-2026.md,
 * "PoCL on the development machine: filters against GEGL and OpenCV").
 * Each lane's sums run in the one-result form's order (rows, then
 * columns).  Every result goes through the lanes, near the edges too
 * (the texels then through the addressing; lanes past the result's last
 * column read that column's texels and are not stored), so a result has
 * the same bytes whichever lane it takes: tiles and bands give the bytes
 * of one piece.  A lane whose sums overflowed is summed again alone, as
 * bilateral_d sums it. */

__kernel void
bilateral_v (CLFX_SRC_ARGS (src), CLFX_DST_ARGS, __constant float *ws,
             int R, float p, int none)
{
  int gx = get_global_id (0) * BIL_V, gy = get_global_id (1);

  if (gx >= dst_rect.z || gy >= dst_rect.w)
    return;

  int  x = CLFX_DST_X (gx), y = CLFX_DST_Y (gy);
  int  m = min (BIL_V, dst_rect.z - gx);
  /* The last column a stored lane reads. */
  int  last = x + m - 1 + R;
  /* (The loads inside read all BIL_V lanes' texels.) */
  bool inside = m == BIL_V
                && clfx_window_inside (src_flags, src_view, x - R, y - R,
                                       2 * R + BIL_V, 2 * R + 1);

  /* One window row's texels, channel by channel: lane k of the vector
   * read at column i is the texel of result k's window column i. */
  float  tr[BIL_V + 2 * BIL_VR], tg[BIL_V + 2 * BIL_VR];
  float  tb[BIL_V + 2 * BIL_VR], ta[BIL_V + 2 * BIL_VR];
  float8 cr, cg, cb, ca;
  float8 nr = (float8) (0.0f), ng = (float8) (0.0f);
  float8 nb = (float8) (0.0f), na = (float8) (0.0f);
  float8 den = (float8) (0.0f);

  /* The centres: inside the source whatever the edge handling. */
  for (int k = 0; k < BIL_V; k++)
    {
      float4 t = clfx_rgba (clfx_fetch (CLFX_SRC (src), x + min (k, m - 1),
                                        y));
      tr[k] = t.x;
      tg[k] = t.y;
      tb[k] = t.z;
      ta[k] = t.w;
    }
  cr = vload8 (0, tr);
  cg = vload8 (0, tg);
  cb = vload8 (0, tb);
  ca = vload8 (0, ta);

  /* The sums, with texel (column i, row j) the expression `load`; one
   * body for the windows inside the source and one for the others, each
   * with its loop of loads written out. */
#define BIL_LANES(i, j, load)                                                \
  for (int j = y - R; j <= y + R; j++)                                       \
    {                                                                        \
      float wy = ws[j - y + R];                                              \
      for (int k = 0; k < BIL_V + 2 * R; k++)                                \
        {                                                                    \
          int    i = x - R + k;                                              \
          float4 t = (load);                                                 \
          tr[k] = t.x;                                                       \
          tg[k] = t.y;                                                       \
          tb[k] = t.z;                                                       \
          ta[k] = t.w;                                                       \
        }                                                                    \
      for (int u = 0; u <= 2 * R; u++)                                       \
        {                                                                    \
          float8 r = vload8 (0, tr + u), g = vload8 (0, tg + u);             \
          float8 b = vload8 (0, tb + u), a = vload8 (0, ta + u);             \
          /* bil_finite, lane by lane (NaN compares false). */             \
          int8   ok = fabs (r) <= FLT_MAX & fabs (g) <= FLT_MAX              \
                      & fabs (b) <= FLT_MAX & fabs (a) <= FLT_MAX;           \
          float8 dr = r - cr, dg = g - cg, db = b - cb;                      \
          float8 e = fmin (dr * dr + dg * dg + db * db, FLT_MAX) * p;        \
          float8 w = wy * ws[u] * exp (-e);                                  \
          w = select ((float8) (0.0f), w, ok);                               \
          nr += w * select ((float8) (0.0f), r, ok);                         \
          ng += w * select ((float8) (0.0f), g, ok);                         \
          nb += w * select ((float8) (0.0f), b, ok);                         \
          na += w * select ((float8) (0.0f), a, ok);                         \
          den += w;                                                          \
        }                                                                    \
    }
  if (inside)
    BIL_LANES (i, j, clfx_rgba (clfx_fetch_inside (CLFX_SRC (src), i, j)))
  else
    BIL_LANES (i, j, BIL_LOAD (none, min (i, last), j))
#undef BIL_LANES
  /* den >= 1 in every lane: the centre's own weight is 1 * 1 * exp (0). */
  vstore8 (nr / den, 0, tr);
  vstore8 (ng / den, 0, tg);
  vstore8 (nb / den, 0, tb);
  vstore8 (na / den, 0, ta);
  for (int k = 0; k < m; k++)
    {
      float4 c = (float4) (((float *) &cr)[k], ((float *) &cg)[k],
                           ((float *) &cb)[k], ((float *) &ca)[k]);
      float4 o = (float4) (tr[k], tg[k], tb[k], ta[k]);
      o = bil_finite (c) ? o : c;
      if (bil_overflowed (o, c))
        {
          int    sx = x + k - R, sy = y - R;
          bool   inside = clfx_window_inside (src_flags, src_view, sx, sy,
                                              2 * R + 1, 2 * R + 1);
          float4 num;
          float  den;
          BIL_DIRECT_SUMS (num, den, BIL_DOWN);
          o = bil_scaled_back (num / den);
        }
      CLFX_STORE (x + k, y, clfx_from_rgba (o));
    }
}

/* Windows wider than the image along an axis, folded (see the top):
 * for the result at (x, y), the offsets rx[x] (first, last) across with
 * weights tx[u + R], and ry[y] down with ty[v + R], but the first and the
 * last offset of each weighed by ex[x] and ey[y] (x, y: theirs; z: the
 * spatial weight of the taps inside; w: of those outside, for clamp's
 * transparent texel, `border`). */
#define BIL_FOLDED_SUMS(num, den, scale)                                     \
  do                                                                         \
    {                                                                        \
      num = (float4) (0.0f);                                                 \
      den = 0.0f;                                                            \
      for (int v = yr.x; v <= yr.y; v++)                                     \
        {                                                                    \
          float wy_ = v == yr.x ? ye.x : v == yr.y ? ye.y : ty[v + R];       \
          for (int u = xr.x; u <= xr.y; u++)                                 \
            {                                                                \
              float wx_ = u == xr.x ? xe.x : u == xr.y ? xe.y : tx[u + R];   \
              BIL_TAP (num, den, c, BIL_LOAD (none, x + u, y + v),           \
                       wy_ * wx_, p, scale);                                 \
            }                                                                \
        }                                                                    \
      if (border)                                                            \
        BIL_TAP (num, den, c, clfx_rgba ((float4) (0.0f)),                   \
                 xe.w * (ye.z + ye.w) + xe.z * ye.w, p, scale);              \
    }                                                                        \
  while (0)

__kernel void
bilateral_f (CLFX_SRC_ARGS (src), CLFX_DST_ARGS, __constant float *tx,
             __constant float *ty, __global const int2 *rx,
             __global const int2 *ry, __global const float4 *ex,
             __global const float4 *ey, int R, float p, int none, int border)
{
  int gx = get_global_id (0), gy = get_global_id (1);

  if (gx >= dst_rect.z || gy >= dst_rect.w)
    return;

  int    x = CLFX_DST_X (gx), y = CLFX_DST_Y (gy);
  int2   xr = rx[x], yr = ry[y];
  float4 xe = ex[x], ye = ey[y];
  float4 c = clfx_rgba (clfx_fetch (CLFX_SRC (src), x, y)), out;
  BIL_RESULT (out, c, BIL_FOLDED_SUMS);
  CLFX_STORE (x, y, clfx_from_rgba (out));
}
