/* convolve.cl: GIMP's Convolution Matrix (gegl:convolution-matrix) on
 * straight colour in linear light, a correlation (the matrix is not
 * flipped): out = sum_rows sum_columns k v / divisor + offset, summed row
 * by row in the matrix's order, as GEGL sums it, but the even and the odd
 * rows apart (CONV_PIXEL).  alpha_weight: colour
 * sums k c a (not divided by alpha afterwards) and alpha is
 * sum k a / divisor * sum |k| / sum |k a| + offset, GEGL's rules.  copy:
 * GEGL copies the input when the divisor is 0.
 *
 * convolve_l (GPUs) reads its group's texels once into local memory;
 * convolve_v (CPU devices, and wherever convolve_l does not run) makes
 * CONV_V results of a row per work-item as vectors, reading its source
 * directly.  Gray images are worked as GEGL works them, as RGBA (gray,
 * gray, gray, alpha). */
#include "clfx-io.h"

/* p: the window's parameters: divisor's inverse, offset, sum |k|.  The
 * even and the odd matrix rows go to two sums, added at the end: two
 * chains of adds at once on CPU devices (the float sum's bound holds for
 * any order), and the same arithmetic as convolve_v's lanes, so that a
 * result has the same bytes whichever form makes it.  The sums are named
 * variables, rows taken in pairs: an array indexed by the row's parity
 * went to private memory on the H200 (5x5, 8192x8192 float: 1.89 ->
 * 4.14 ms). */
#define CONV_PIXEL_ROW(READ, r_, S, AS)                                      \
  for (int c_ = 0; c_ < n; c_++)                                             \
    {                                                                        \
      float  k_ = k[(r_) * n + c_];                                          \
      float4 v_ = clfx_rgba (READ (c_, (r_)));                               \
      if (alpha_weight)                                                      \
        {                                                                    \
          float ka_ = k_ * v_.w;                                             \
          S.xyz += k_ * v_.xyz * v_.w;                                       \
          S.w += ka_;                                                        \
          AS += fabs (ka_);                                                  \
        }                                                                    \
      else                                                                   \
        S += k_ * v_;                                                        \
    }

#define CONV_PIXEL(READ, out)                                                \
  do                                                                         \
    {                                                                        \
      float4 s0_ = (float4) (0.0f), s1_ = (float4) (0.0f), t_;               \
      float  as0_ = 0.0f, as1_ = 0.0f;                                       \
      if (copy)                                                              \
        t_ = clfx_rgba (READ (n / 2, n / 2));                                \
      else                                                                   \
        {                                                                    \
          for (int r2_ = 0; r2_ < n; r2_ += 2)                               \
            {                                                                \
              CONV_PIXEL_ROW (READ, r2_, s0_, as0_)                          \
              if (r2_ + 1 < n)                                               \
                CONV_PIXEL_ROW (READ, r2_ + 1, s1_, as1_)                    \
            }                                                                \
          float as_ = as0_ + as1_;                                           \
          t_ = s0_ + s1_;                                                    \
          t_.xyz = t_.xyz * p.x + p.y;                                       \
          if (! alpha_weight)                                                \
            t_.w = t_.w * p.x + p.y;                                         \
          else if (as_ > 0.0f)                                               \
            t_.w = t_.w * p.x * p.z / as_ + p.y;                             \
          else                                                               \
            t_.w = p.y;                                                      \
        }                                                                    \
      (out) = clfx_from_rgba (t_);                                           \
    }                                                                        \
  while (0)

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

/* CPU devices (and wherever convolve_l does not run): CONV_V neighbouring
 * results of a row per work-item, each channel a vector with a lane per
 * result.  PoCL runs a work-item's
 * arithmetic one pixel at a time, so the one-result form spends a read,
 * a decode and a float4 multiply-add per tap; here a matrix row's texels
 * are read and decoded once for the CONV_V windows that hold them (as
 * two vectors per channel: texels 0-7 and N-1 to N+6 of the row, exactly
 * the N + 7 the windows read), each column's texels are a shuffle of the
 * two, and one vector multiply-add serves CONV_V results.  Each lane's
 * arithmetic is CONV_PIXEL's, in its order (with one sum instead of two
 * for the even and odd rows, the lanes took twice as long: each add
 * waited for the one before).  The side N is a constant in each body, so
 * that the loops unroll and the shuffles are fixed.  Work-items whose
 * windows leave the source (the addressing applied there), or that reach
 * past the result's last column, make their results one at a time
 * through CONV_PIXEL: the same bytes. */
#define CONV_V 8

/* Texels (X .. X + 7, Y) of the source as RGBA, channel by channel.  A
 * float RGBA buffer with nothing to decode is read as two float16. */
#if CLFX_SRC_BUFFER && CLFX_DEPTH == CLFX_DEPTH_CODE_FLOAT \
  && CLFX_CHANNELS == 4 && ! CLFX_SRGB && ! CLFX_PREMUL
#define CONV_LOAD8(r, g, b, a, X, Y)                                         \
  do                                                                         \
    {                                                                        \
      __global const float *p_                                               \
        = (__global const float *) (src + (long) ((Y) - src_view.y)          \
                                              * src_pitch)                   \
          + 4 * ((X) - src_view.x);                                          \
      float16 lo_ = vload16 (0, p_), hi_ = vload16 (1, p_);                  \
      r = (float8) (lo_.s048c, hi_.s048c);                                   \
      g = (float8) (lo_.s159d, hi_.s159d);                                   \
      b = (float8) (lo_.s26ae, hi_.s26ae);                                   \
      a = (float8) (lo_.s37bf, hi_.s37bf);                                   \
    }                                                                        \
  while (0)
#else
#define CONV_LOAD8(r, g, b, a, X, Y)                                         \
  do                                                                         \
    {                                                                        \
      float4 t_[8];                                                          \
      _Pragma ("unroll") for (int q_ = 0; q_ < 8; q_++)                      \
        t_[q_] = clfx_rgba (clfx_fetch_inside (CLFX_SRC (src), (X) + q_,     \
                                               (Y)));                        \
      r = (float8) (t_[0].x, t_[1].x, t_[2].x, t_[3].x, t_[4].x, t_[5].x,    \
                    t_[6].x, t_[7].x);                                       \
      g = (float8) (t_[0].y, t_[1].y, t_[2].y, t_[3].y, t_[4].y, t_[5].y,    \
                    t_[6].y, t_[7].y);                                       \
      b = (float8) (t_[0].z, t_[1].z, t_[2].z, t_[3].z, t_[4].z, t_[5].z,    \
                    t_[6].z, t_[7].z);                                       \
      a = (float8) (t_[0].w, t_[1].w, t_[2].w, t_[3].w, t_[4].w, t_[5].w,    \
                    t_[6].w, t_[7].w);                                       \
    }                                                                        \
  while (0)
#endif

/* Matrix row R_ of side N into the sums SR, SG, SB, SA, AS. */
#define CONV_ROW(N, R_, SR, SG, SB, SA, AS)                                  \
  do                                                                         \
    {                                                                        \
      float8 ar_, ag_, ab_, aa_, br_, bg_, bb_, ba_;                         \
      CONV_LOAD8 (ar_, ag_, ab_, aa_, x0 - h0, y - h0 + (R_));               \
      CONV_LOAD8 (br_, bg_, bb_, ba_, x0 - h0 + (N) - 1, y - h0 + (R_));     \
      _Pragma ("unroll") for (int c_ = 0; c_ < (N); c_++)                    \
        {                                                                    \
          /* Lane l reads texel c + l of the row: from the first vector   \
           * below 8, else from the second, which starts at texel N - 1. */ \
          uint8  q_ = (uint8) (c_) + (uint8) (0, 1, 2, 3, 4, 5, 6, 7);       \
          uint8  m_ = q_ + (as_uint8 (q_ >= (uint8) (8))                     \
                            & (uint8) (9 - (N)));                            \
          float  kc_ = k[(R_) * (N) + c_];                                   \
          float8 vr_ = shuffle2 (ar_, br_, m_);                              \
          float8 vg_ = shuffle2 (ag_, bg_, m_);                              \
          float8 vb_ = shuffle2 (ab_, bb_, m_);                              \
          float8 va_ = shuffle2 (aa_, ba_, m_);                              \
          if (alpha_weight)                                                  \
            {                                                                \
              float8 ka_ = kc_ * va_;                                        \
              SR += kc_ * vr_ * va_;                                         \
              SG += kc_ * vg_ * va_;                                         \
              SB += kc_ * vb_ * va_;                                         \
              SA += ka_;                                                     \
              AS += fabs (ka_);                                              \
            }                                                                \
          else                                                               \
            {                                                                \
              SR += kc_ * vr_;                                               \
              SG += kc_ * vg_;                                               \
              SB += kc_ * vb_;                                               \
              SA += kc_ * va_;                                               \
            }                                                                \
        }                                                                    \
    }                                                                        \
  while (0)

/* All rows: the even ones into the sums ending in 0, the odd into 1. */
#define CONV_LANES(N)                                                        \
  for (int r_ = 0; r_ < (N); r_ += 2)                                        \
    {                                                                        \
      CONV_ROW (N, r_, sr0, sg0, sb0, sa0, as0);                             \
      if (r_ + 1 < (N))                                                      \
        CONV_ROW (N, r_ + 1, sr1, sg1, sb1, sa1, as1);                       \
    }

__kernel void
convolve_v (CLFX_SRC_ARGS (src), CLFX_DST_ARGS, __constant float *k, int n,
            float4 p, int alpha_weight, int copy)
{
  int gx = get_global_id (0) * CONV_V, gy = get_global_id (1);

  if (gx >= dst_rect.z || gy >= dst_rect.w)
    return;

  int  x0 = CLFX_DST_X (gx), y = CLFX_DST_Y (gy), h0 = n / 2;
  int  m = min (CONV_V, dst_rect.z - gx);
  bool inside = ! copy && m == CONV_V
                && clfx_window_inside (src_flags, src_view, x0 - h0, y - h0,
                                       n - 1 + CONV_V, n);
  if (! inside)
    {
      for (int l = 0; l < m; l++)
        {
          int    x = x0 + l;
          float4 out;
#define READ_D(i, j) clfx_fetch (CLFX_SRC (src), x - h0 + (i), y - h0 + (j))
          CONV_PIXEL (READ_D, out);
#undef READ_D
          CLFX_STORE (x, y, out);
        }
      return;
    }

  float8 sr0 = (float8) (0.0f), sg0 = (float8) (0.0f);
  float8 sb0 = (float8) (0.0f), sa0 = (float8) (0.0f);
  float8 as0 = (float8) (0.0f), sr1 = (float8) (0.0f);
  float8 sg1 = (float8) (0.0f), sb1 = (float8) (0.0f);
  float8 sa1 = (float8) (0.0f), as1 = (float8) (0.0f);

  if (n == 3)
    CONV_LANES (3)
  else if (n == 5)
    CONV_LANES (5)
  else if (n == 7)
    CONV_LANES (7)
  else
    CONV_LANES (1)

  /* CONV_PIXEL's ending, lane by lane. */
  float tr[CONV_V], tg[CONV_V], tb[CONV_V], ta[CONV_V], asl[CONV_V];
  vstore8 ((sr0 + sr1) * p.x + p.y, 0, tr);
  vstore8 ((sg0 + sg1) * p.x + p.y, 0, tg);
  vstore8 ((sb0 + sb1) * p.x + p.y, 0, tb);
  vstore8 (sa0 + sa1, 0, ta);
  vstore8 (as0 + as1, 0, asl);
  for (int l = 0; l < CONV_V; l++)
    {
      float a = ta[l];
      if (! alpha_weight)
        a = a * p.x + p.y;
      else if (asl[l] > 0.0f)
        a = a * p.x * p.z / asl[l] + p.y;
      else
        a = p.y;
      CLFX_STORE (x0 + l, y,
                  clfx_from_rgba ((float4) (tr[l], tg[l], tb[l], a)));
    }
}
