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
 * Two forms: bilateral_l for GPUs, a 16 x 16 work-group that first copies
 * the (16 + 2 R)^2 texels its windows read into local memory (one global
 * read per texel and group instead of (2 R + 1)^2 per result: at radius 4,
 * 2.25 reads per result instead of 81, so the kernel is bound by its
 * arithmetic, about 40 operations a tap, not by texture fetches), and
 * bilateral_d for CPU devices (and windows too large for local memory),
 * which reads the source directly.  As in filter.cl, the local form has
 * one unconditional barrier and no early return (PoCL 6.0 corrupted its
 * heap when work-items returned after a barrier, and summed wrongly with
 * a barrier under a kernel argument's condition). */
#include "clfx-io.h"

#define BIL_T 16

/* Texel (i, j) of the source as RGBA; outside it NaN where `none`. */
#define BIL_LOAD(none, i, j)                                                 \
  ((none) && ((i) < 0 || (j) < 0 || (i) >= src_view.z || (j) >= src_view.w) \
     ? (float4) (NAN)                                                        \
     : clfx_rgba (clfx_fetch (CLFX_SRC (src), (i), (j))))

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

/* The result for centre c over the window whose texel (i, j), 0 <= i, j
 * <= 2 R, is the expression `load`; ws: the 2 R + 1 spatial weights. */
#define BIL_WINDOW(out, c, ws, R, p, i, j, load)                             \
  do                                                                         \
    {                                                                        \
      float4 num_ = (float4) (0.0f);                                         \
      float  den_ = 0.0f;                                                    \
      int    i, j;                                                           \
      for (j = 0; j <= 2 * (R); j++)                                         \
        {                                                                    \
          float wy_ = (ws)[j];                                               \
          for (i = 0; i <= 2 * (R); i++)                                     \
            {                                                                \
              float4 t_ = (load);                                            \
              bool   ok_ = bil_finite (t_);                                  \
              float  e_ = fmin (bil_dist2 (t_ - (c)), FLT_MAX) * (p);        \
              float  w_ = wy_ * (ws)[i] * exp (-e_);                         \
              w_ = ok_ ? w_ : 0.0f;                                          \
              t_ = ok_ ? t_ : (float4) (0.0f);                               \
              num_ += w_ * t_;                                               \
              den_ += w_;                                                    \
            }                                                                \
        }                                                                    \
      /* den_ >= 1: the centre's own weight is 1 * 1 * exp (0). */           \
      (out) = clfx_from_rgba (bil_finite (c) ? num_ / den_ : (c));           \
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
      BIL_WINDOW (out, c, ws, R, p, i, j, tile[o + j * span + i]);
      CLFX_STORE (x, y, out);
    }
}

/* CPU devices: each work-item reads its window from the source itself
 * (a work-group's copy would only be a copy there); windows wholly inside
 * the source skip the addressing. */
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
  if (inside)
    BIL_WINDOW (out, c, ws, R, p, i, j,
                clfx_rgba (clfx_fetch_inside (CLFX_SRC (src), sx + i,
                                              sy + j)));
  else
    BIL_WINDOW (out, c, ws, R, p, i, j, BIL_LOAD (none, sx + i, sy + j));
  CLFX_STORE (x, y, out);
}
