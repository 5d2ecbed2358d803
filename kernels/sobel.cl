/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sobel.cl: GEGL's edge-sobel, centred on the pixel (GEGL's reads one
 * pixel up and left and leaves seams at its chunks' borders:
 * docs/FILTERS.md), on straight colour in linear light; alpha is the
 * centre's (engine/ops/sobel.c).  mode: bit 0 horizontal, bit 1 vertical,
 * bit 2 keep-sign.  The sums are GEGL's, in its order. */
#include "clfx-io.h"
#include "sobel-shapes.h"

/* |h| and |v| at most a whose squares are normal floats (or 0). */
inline bool
sobel_plain (float a)
{
  return a <= 1e18f && (a >= 1e-18f || a == 0.0f);
}

/* Texels are scaled by SOBEL_DOWN where a result of finite texels
 * overflowed (a sum reaches 8 times the largest texel, keep-sign's h + v
 * 16 times), and the result scaled back, past FLT_MAX clamped: finite
 * texels give a finite result.  Only a result that is not finite is made
 * again (sobel_rescaled, out of line), and the root of the squares' sum
 * of |h| and |v| within 1e18 never needs it: the others keep their
 * bytes, and the common path its speed. */
#define SOBEL_DOWN 0.0625f
#define SOBEL_UP   16.0f

/* h and v as GEGL sums them, of the texels around the centre. */
#define SOBEL_HV(h, v, tl, t, tr, l, r, bl, b, br, mode)                      \
  do                                                                         \
    {                                                                        \
      h = (float4) (0.0f);                                                   \
      v = (float4) (0.0f);                                                   \
      if ((mode) & 1)                                                        \
        {                                                                    \
          h += (-1.0f * (tl)) + (1.0f * (tr));                               \
          h += (-2.0f * (l)) + (2.0f * (r));                                 \
          h += (-1.0f * (bl)) + (1.0f * (br));                               \
        }                                                                    \
      if ((mode) & 2)                                                        \
        {                                                                    \
          v += (1.0f * (tl)) + (2.0f * (t)) + (1.0f * (tr));                 \
          v += (-1.0f * (bl)) + (-2.0f * (b)) + (-1.0f * (br));              \
        }                                                                    \
    }                                                                        \
  while (0)

/* The lanes of g that are not finite where their texels are, made again
 * from the texels scaled (hypot: no squares to overflow). */
inline float4
sobel_rescaled (float4 tl, float4 t, float4 tr, float4 l, float4 r,
                float4 bl, float4 b, float4 br, int mode, float4 g)
{
  float4 h, v, s;
  int4   fin = isfinite (tl) & isfinite (t) & isfinite (tr) & isfinite (l)
               & isfinite (r) & isfinite (bl) & isfinite (b) & isfinite (br);
  SOBEL_HV (h, v, tl * SOBEL_DOWN, t * SOBEL_DOWN, tr * SOBEL_DOWN,
            l * SOBEL_DOWN, r * SOBEL_DOWN, bl * SOBEL_DOWN, b * SOBEL_DOWN,
            br * SOBEL_DOWN, mode);
  if ((mode & 3) == 3)
    s = hypot (h, v) / 5.656854f;
  else if (mode & 4)
    s = (h + v) / 8.0f;
  else
    s = fabs (h + v) / 4.0f;
  return select (g, clamp (s * SOBEL_UP, -FLT_MAX, FLT_MAX),
                 ! isfinite (g) & fin);
}

inline float4
sobel_at (float4 tl, float4 t, float4 tr, float4 l, float4 c, float4 r,
          float4 bl, float4 b, float4 br, int mode, bool root)
{
  float4 h, v, g;

  SOBEL_HV (h, v, tl, t, tr, l, r, bl, b, br, mode);
  if ((mode & 3) == 3)
    {
      /* root (CPU devices): the square root of the squares' sum, where
       * the squares neither overflow (|h| from ~1.8e19: HDR data) nor
       * lose digits below float's normal range, hypot there only (on
       * PoCL hypot throughout took more than twice as long).  GPUs keep
       * hypot: the test cost them more than it saved.  (A lane that is
       * not finite makes the lanes' sum not finite; a sum that
       * overflowed only looks again.) */
      float4 a = fmax (fabs (h), fabs (v));
      if (root && sobel_plain (a.x) && sobel_plain (a.y) && sobel_plain (a.z)
              && sobel_plain (a.w))
        g = sqrt (h * h + v * v) / 5.656854f;
      else
        {
          g = hypot (h, v) / 5.656854f;
          if (! isfinite (g.x + g.y + g.z + g.w))
            g = sobel_rescaled (tl, t, tr, l, r, bl, b, br, mode, g);
        }
    }
  else
    {
      g = (mode & 4) ? (h + v) / 8.0f : fabs (h + v) / 4.0f;
      if (! isfinite (g.x + g.y + g.z + g.w))
        g = sobel_rescaled (tl, t, tr, l, r, bl, b, br, mode, g);
      if (mode & 4)
        g = 0.5f + g;
    }
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

#if ! CLFX_SRC_BUFFER

/* GPUs: a group of SOBEL_W x SOBEL_R work-items makes SOBEL_W x
 * SOBEL_R * SOBEL_Q results from the texels it reads once into local
 * memory (nine texture fetches per result made it twice as slow as the
 * copy kernel); each work-item goes down SOBEL_Q rows of a column, a row
 * of three texels read per result.  Against 16 x 16 groups of a result
 * each: fewer halo texels per result, no addressing where the group's
 * texels are all inside, a third of the local reads.  No early return
 * before or after the barrier (PoCL, see filter-fir.cl). */
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

#endif
