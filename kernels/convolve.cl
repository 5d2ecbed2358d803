/* convolve.cl: GIMP's Convolution Matrix (gegl:convolution-matrix) on
 * straight colour in linear light, a correlation (the matrix is not
 * flipped): out = sum_rows sum_columns k v / divisor + offset, summed row
 * by row in the matrix's order, as GEGL sums it.  alpha_weight: colour
 * sums k c a (not divided by alpha afterwards) and alpha is
 * sum k a / divisor * sum |k| / sum |k a| + offset, GEGL's rules.  copy:
 * GEGL copies the input when the divisor is 0.
 *
 * convolve_l (GPUs) reads its group's texels once into local memory;
 * convolve_d (CPU devices) reads its buffer directly.  Gray images are
 * worked as GEGL works them, as RGBA (gray, gray, gray, alpha). */
#include "clfx-io.h"

/* p: the window's parameters: divisor's inverse, offset, sum |k|. */
#define CONV_PIXEL(READ, out)                                                \
  do                                                                         \
    {                                                                        \
      float4 s_ = (float4) (0.0f);                                           \
      float  as_ = 0.0f;                                                     \
      if (copy)                                                              \
        s_ = clfx_rgba (READ (n / 2, n / 2));                                \
      else                                                                   \
        {                                                                    \
          for (int r_ = 0; r_ < n; r_++)                                     \
            for (int c_ = 0; c_ < n; c_++)                                   \
              {                                                              \
                float  k_ = k[r_ * n + c_];                                  \
                float4 v_ = clfx_rgba (READ (c_, r_));                       \
                if (alpha_weight)                                            \
                  {                                                          \
                    float ka_ = k_ * v_.w;                                   \
                    s_.xyz += k_ * v_.xyz * v_.w;                            \
                    s_.w += ka_;                                             \
                    as_ += fabs (ka_);                                       \
                  }                                                          \
                else                                                         \
                  s_ += k_ * v_;                                             \
              }                                                              \
          s_.xyz = s_.xyz * p.x + p.y;                                       \
          if (! alpha_weight)                                                \
            s_.w = s_.w * p.x + p.y;                                         \
          else if (as_ > 0.0f)                                               \
            s_.w = s_.w * p.x * p.z / as_ + p.y;                             \
          else                                                               \
            s_.w = p.y;                                                      \
        }                                                                    \
      (out) = clfx_from_rgba (s_);                                           \
    }                                                                        \
  while (0)

__kernel void
convolve_d (CLFX_SRC_ARGS (src), CLFX_DST_ARGS, __constant float *k, int n,
            float4 p, int alpha_weight, int copy)
{
  int gx = get_global_id (0), gy = get_global_id (1);

  if (gx >= dst_rect.z || gy >= dst_rect.w)
    return;

  int    x = CLFX_DST_X (gx), y = CLFX_DST_Y (gy), h0 = n / 2;
  float4 out;
  /* Away from the image's edges no addressing to apply. */
  bool   inside = clfx_window_inside (src_flags, src_view, x - h0, y - h0,
                                      n, n);
  if (inside)
    {
#define READ_I(i, j)                                                         \
  clfx_fetch_inside (CLFX_SRC (src), x - h0 + (i), y - h0 + (j))
      CONV_PIXEL (READ_I, out);
#undef READ_I
      CLFX_STORE (x, y, out);
      return;
    }
#define READ_D(i, j) clfx_fetch (CLFX_SRC (src), x - h0 + (i), y - h0 + (j))
  CONV_PIXEL (READ_D, out);
#undef READ_D
  CLFX_STORE (x, y, out);
}

/* A 16 x 16 group and its (16 + n - 1)^2 texels (n up to 7) in local
 * memory: every texel is read once per group, where a read per tap made
 * the kernel fetch-bound.  No early return and no barrier under a
 * condition (PoCL; see filter.cl). */
#define CONV_T 16
#define CONV_MAX_S (CONV_T + 6)

__kernel __attribute__ ((reqd_work_group_size (CONV_T, CONV_T, 1))) void
convolve_l (CLFX_SRC_ARGS (src), CLFX_DST_ARGS, __constant float *k, int n,
            float4 p, int alpha_weight, int copy)
{
  __local float4 tile[CONV_MAX_S * CONV_MAX_S];
  int            lx = get_local_id (0), ly = get_local_id (1);
  int            gx = get_global_id (0), gy = get_global_id (1);
  int            span = CONV_T + n - 1;
  int            x0 = dst_rect.x + get_group_id (0) * CONV_T - n / 2;
  int            y0 = dst_rect.y + get_group_id (1) * CONV_T - n / 2;

  for (int i = ly * CONV_T + lx; i < span * span; i += CONV_T * CONV_T)
    tile[i] = clfx_fetch (CLFX_SRC (src), x0 + i % span, y0 + i / span);
  barrier (CLK_LOCAL_MEM_FENCE);
  if (gx < dst_rect.z && gy < dst_rect.w)
    {
      int    x = CLFX_DST_X (gx), y = CLFX_DST_Y (gy);
      float4 out;
#define READ_L(i, j) tile[(ly + (j)) * span + lx + (i)]
      CONV_PIXEL (READ_L, out);
#undef READ_L
      CLFX_STORE (x, y, out);
    }
}
