/* SPDX-License-Identifier: GPL-3.0-or-later */
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
 * gray, gray, alpha).
 *
 * Finite texels give a finite result: a result whose float sums
 * overflowed (huge texels, a huge matrix, alpha times colour) is made
 * again by conv_rescaled, every factor scaled below 1 by a power of two,
 * past FLT_MAX clamped.  Every other result keeps its bytes. */
#include "clfx-io.h"
#include "convolve-shapes.h"

/* p: the window's parameters: divisor's inverse, offset, sum |k| and
 * sum |k| as an opaque window's sum |k a| adds it up (convolve_v).  With
 * alpha weighting a texel is (c a, c a, c a, a) before its k.  The
 * even and the odd matrix rows go to two sums, added at the end: two
 * chains of adds at once on CPU devices (the float sum's bound holds for
 * any order), and the same arithmetic as convolve_v's lanes, so that a
 * result has the same bytes whichever form makes it.  The sums are named
 * variables, rows taken in pairs: an array indexed by the row's parity
 * went to private memory on the H200, twice as slow (the notebook's "PoCL
 * on the development machine: filters against GEGL and OpenCV"). */
#define CONV_PIXEL_ROW(READ, r_, S, AS)                                      \
  for (int c_ = 0; c_ < n; c_++)                                             \
    {                                                                        \
      float  k_ = k[(r_) * n + c_];                                          \
      float4 v_ = clfx_rgba (READ (c_, (r_)));                               \
      if (alpha_weight)                                                      \
        {                                                                    \
          S += k_ * (v_ * (float4) (v_.www, 1.0f));                          \
          AS += fabs (k_ * v_.w);                                            \
        }                                                                    \
      else                                                                   \
        S += k_ * v_;                                                        \
    }

/* The sums T (RGBA) and AS (sum |k a|) to the result: divisor, offset,
 * and GEGL's alpha rules. */
#define CONV_SCALE(T, AS)                                                    \
  do                                                                         \
    {                                                                        \
      float as_ = (AS);                                                      \
      T.xyz = T.xyz * p.x + p.y;                                             \
      if (! alpha_weight)                                                    \
        T.w = T.w * p.x + p.y;                                               \
      else if (as_ > 0.0f)                                                   \
        T.w = T.w * p.x * p.z / as_ + p.y;                                   \
      else                                                                   \
        T.w = p.y;                                                           \
    }                                                                        \
  while (0)

/* With alpha weighting, whether sum k a / divisor (q) fell below float's
 * normal range: it has lost digits there, which sum |k| / sum |k a| would
 * magnify, so the result is made again scaled (its alpha marked NaN for
 * CONV_FINITE). */
inline bool
conv_lost (float q)
{
  return q != 0.0f && fabs (q) < FLT_MIN;
}

inline int8
conv_lost8 (float8 q)
{
  return q != (float8) (0.0f) & fabs (q) < (float8) (FLT_MIN);
}

#define CONV_PIXEL(READ, out)                                                \
  do                                                                         \
    {                                                                        \
      float4 s0_ = (float4) (0.0f), s1_ = (float4) (0.0f), t_;               \
      float  as0_ = 0.0f, as1_ = 0.0f;                                       \
      bool   lost_;                                                          \
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
          t_ = s0_ + s1_;                                                    \
          lost_ = alpha_weight && conv_lost (t_.w * p.x);                    \
          CONV_SCALE (t_, as0_ + as1_);                                      \
          t_.w = lost_ ? NAN : t_.w;                                         \
        }                                                                    \
      (out) = t_;                                                            \
    }                                                                        \
  while (0)

/* The result at (x, y) (RGBA), made again where its sums overflowed:
 * every factor scaled below 1 by a power of two, k by 2^-e.x (e.x: the
 * exponent of the largest |k|), each channel of the texels by its own
 * window's largest, the divisor's inverse kept as its mantissa q.x and
 * exponent e.y; the exponents added back at the end (ldexp), past
 * FLT_MAX clamped.  q.y: sum |k| scaled as k.  Channels whose window
 * holds a texel that is not finite keep the sums' value: NaN and
 * infinities go on as they did. */
inline float4
conv_rescaled (CLFX_SRC_PARAMS, int x, int y, __constant float *k, int n,
               float4 p, float4 q, int2 e, int alpha_weight, float4 out)
{
  int    h0 = n / 2;
  float4 top = (float4) (0.0f), s = (float4) (0.0f);
  float  as = 0.0f;
  int4   fin = (int4) (-1), ev, keep;

  for (int r = 0; r < n; r++)
    for (int c = 0; c < n; c++)
      {
        float4 v = clfx_rgba (clfx_fetch (img, view, flags, pitch, lut,
                                          x - h0 + c, y - h0 + r));
        fin &= isfinite (v);
        top = fmax (top, fabs (v));
      }
  /* 2^ev: just above the window's largest |value| (0 where all are 0). */
  ev = select (ilogb (top) + 1, (int4) (0), top == (float4) (0.0f));
  for (int r = 0; r < n; r++)
    for (int c = 0; c < n; c++)
      {
        float  kc = ldexp (k[r * n + c], -e.x);
        float4 v = clfx_rgba (clfx_fetch (img, view, flags, pitch, lut,
                                          x - h0 + c, y - h0 + r));
        float4 w = ldexp (v, -ev);
        if (alpha_weight)
          {
            s += kc * (w * (float4) (w.www, 1.0f));
            as += fabs (kc * w.w);
          }
        else
          s += kc * w;
      }
  /* The exponents each channel's sum carries: k's and the divisor's,
   * the channel's own, and alpha's where it weighs the colour. */
  int4 up = e.x + e.y + ev + (alpha_weight ? (int4) (ev.www, 0) : (int4) (0));
  float4 t = clamp (ldexp (s * q.x, up), -FLT_MAX, FLT_MAX) + p.y;
  if (alpha_weight)
    t.w = as > 0.0f ? clamp (ldexp (s.w / as * q.y * q.x, e.x + e.y),
                             -FLT_MAX, FLT_MAX)
                        + p.y
                    : p.y;
  /* A colour weighed by alpha needs alpha's window finite too. */
  if (alpha_weight)
    fin &= (int4) (fin.www, -1);
  keep = isfinite (out) | ! fin;
  return select (t, out, keep);
}

/* out (RGBA) at (x, y), made again where it is not finite (a lane that
 * is not finite makes the sum not finite; a sum that overflowed only
 * looks again). */
#define CONV_FINITE(out, px, py)                                             \
  do                                                                         \
    {                                                                        \
      if (! copy && ! isfinite ((out).x + (out).y + (out).z + (out).w))      \
        (out) = conv_rescaled (CLFX_SRC (src), (px), (py), k, n, p, q, e,    \
                               alpha_weight, (out));                         \
    }                                                                        \
  while (0)

/* A 16 x 16 group and its (16 + n - 1)^2 texels (n up to 7) in local
 * memory: every texel is read once per group, where a read per tap made
 * the kernel fetch-bound.  No early return and no barrier under a
 * condition (PoCL; see filter-fir.cl). */
#define CONV_MAX_S (CONV_T + 6)

__kernel __attribute__ ((reqd_work_group_size (CONV_T, CONV_T, 1))) void
convolve_l (CLFX_SRC_ARGS (src), CLFX_DST_ARGS, __constant float *k, int n,
            float4 p, float4 q, int2 e, int alpha_weight, int copy)
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
      CONV_FINITE (out, x, y);
      CLFX_STORE (x, y, clfx_from_rgba (out));
    }
}

/* CPU devices (and wherever convolve_l does not run): CONV_V neighbouring
 * results of a row per work-item, kept as they are stored, RGBA after
 * RGBA: two float16 of four results each.  PoCL runs a work-item's
 * arithmetic one pixel at a time, so the one-result form spends a read,
 * a decode and a float4 multiply-add per tap.  Here a tap is one float16
 * multiply-add per four results, its texels the four (eight) that follow
 * the tap's column in the matrix row: two vector loads of the row as it
 * lies in a float RGBA buffer, or four of the row's N + 7 texels decoded
 * once.  (A vector per channel, lane per result, made every tap shuffle
 * its four channels out of the row's texels: see docs/PERFORMANCE.md.)
 * Each lane's arithmetic is CONV_PIXEL's, in its order: with alpha
 * weighting a texel times (a, a, a, 1), and sum |k a| is the alpha lanes'
 * of the sums of |k v|.  A window whose alphas are all 1 skips the
 * weighting, which changes no bit there (CONV_SIDE).  The side N
 * is a constant in each body, so that the loops unroll.  Work-items whose
 * windows leave the source (the addressing applied there), or that reach
 * past the result's last column, make their results one at a time
 * through CONV_PIXEL: the same bytes. */

#if CLFX_SRC_BUFFER && CLFX_DEPTH == CLFX_DEPTH_CODE_FLOAT \
  && CLFX_CHANNELS == 4 && ! CLFX_SRGB && ! CLFX_PREMUL
/* A float RGBA buffer with nothing to decode: the texels from X in row Y
 * are read where they lie. */
#define CONV_FAST 1
#define CONV_ROW_PTR(X, Y)                                                   \
  ((__global const float *) (src + (long) ((Y) - src_view.y) * src_pitch)  \
   + 4 * ((X) - src_view.x))
#define CONV_TAPS(LO, HI, C)                                                 \
  float16 LO = vload16 (0, row_ + 4 * (C));                                  \
  float16 HI = vload16 (0, row_ + 4 * (C) + 16)
#else
#define CONV_FAST 0
#define CONV_TAPS(LO, HI, C)                                                 \
  float16 LO = (float16) (t_[(C)], t_[(C) + 1], t_[(C) + 2], t_[(C) + 3]);  \
  float16 HI = (float16) (t_[(C) + 4], t_[(C) + 5], t_[(C) + 6], t_[(C) + 7])
#endif

/* (a, a, a, 1) for each of V's four texels. */
#define CONV_ALPHA1(V)                                                       \
  ((float16) (V.s333, 1.0f, V.s777, 1.0f, V.sbbb, 1.0f, V.sfff, 1.0f))

/* Matrix row R_ of side N into the sums SL, SH (results 0-3, 4-7) and the
 * sums of absolute values AL, AH. */
#define CONV_ROW(N, W, R_, SL, SH, AL, AH)                                    \
  do                                                                         \
    {                                                                        \
      int X_ = x0 - h0, Y_ = y - h0 + (R_);                                  \
      CONV_ROW_SOURCE (N, X_, Y_);                                           \
      _Pragma ("unroll") for (int c_ = 0; c_ < (N); c_++)                    \
        {                                                                    \
          float kc_ = k[(R_) * (N) + c_];                                    \
          CONV_TAPS (lo_, hi_, c_);                                          \
          if (W)                                                             \
            {                                                                \
              SL += kc_ * (lo_ * CONV_ALPHA1 (lo_));                         \
              SH += kc_ * (hi_ * CONV_ALPHA1 (hi_));                         \
              AL += fabs (kc_ * lo_);                                        \
              AH += fabs (kc_ * hi_);                                        \
            }                                                                \
          else                                                               \
            {                                                                \
              SL += kc_ * lo_;                                               \
              SH += kc_ * hi_;                                               \
            }                                                                \
        }                                                                    \
    }                                                                        \
  while (0)

#if CONV_FAST
#define CONV_ROW_SOURCE(N, X, Y)                                             \
  __global const float *row_ = CONV_ROW_PTR (X, Y)
#else
#define CONV_ROW_SOURCE(N, X, Y)                                             \
  float4 t_[CONV_V + 6];                                                     \
  _Pragma ("unroll") for (int q_ = 0; q_ < (N) + CONV_V - 1; q_++)           \
    t_[q_] = clfx_rgba (clfx_fetch_inside (CLFX_SRC (src), (X) + q_, (Y)))
#endif

/* All rows: the even ones into the sums ending in 0, the odd into 1;
 * W: whether to weigh by alpha (a constant in each body). */
#define CONV_LANES(N, W)                                                     \
  for (int r_ = 0; r_ < (N); r_ += 2)                                        \
    {                                                                        \
      CONV_ROW (N, W, r_, sl0, sh0, al0, ah0);                               \
      if (r_ + 1 < (N))                                                      \
        CONV_ROW (N, W, r_ + 1, sl1, sh1, al1, ah1);                         \
    }

/* Whether the window's N rows of N + CONV_V - 1 texels are all opaque,
 * read four texels at a time (the last four overlapping): a texel at a
 * time took as long as the sums. */
#if CONV_FAST
#define CONV_OPAQUE(N, OK)                                                   \
  do                                                                         \
    {                                                                        \
      int4 all_ = (int4) (-1);                                               \
      _Pragma ("unroll") for (int r_ = 0; r_ < (N); r_++)                    \
        {                                                                    \
          __global const float *row_ = CONV_ROW_PTR (x0 - h0, y - h0 + r_);  \
          _Pragma ("unroll") for (int q_ = 0; q_ < (N) + CONV_V - 1; q_ += 4) \
            all_ &= vload16 (0, row_ + 4 * min (q_, (N) + CONV_V - 5))       \
                      .s37bf                                                 \
                    == (float4) (1.0f);                                      \
        }                                                                    \
      OK = all (all_);                                                       \
    }                                                                        \
  while (0)
#else
#define CONV_OPAQUE(N, OK) OK = false
#endif

/* Side N: weighing by alpha unless the window is opaque (then k (c 1,
 * c 1, c 1, 1) is k (c, c, c, 1) exactly, and sum |k a| is sum |k|,
 * which the host sums in this order: p.w). */
#define CONV_SIDE(N)                                                         \
  do                                                                         \
    {                                                                        \
      if (alpha_weight)                                                      \
        CONV_OPAQUE (N, opaque);                                             \
      if (alpha_weight && ! opaque)                                          \
        CONV_LANES (N, 1)                                                    \
      else                                                                   \
        CONV_LANES (N, 0)                                                    \
    }                                                                        \
  while (0)

__kernel void
convolve_v (CLFX_SRC_ARGS (src), CLFX_DST_ARGS, __constant float *k, int n,
            float4 p, float4 q, int2 e, int alpha_weight, int copy)
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
          CONV_FINITE (out, x, y);
          CLFX_STORE (x, y, clfx_from_rgba (out));
        }
      return;
    }

  bool    opaque = false;
  float16 sl0 = (float16) (0.0f), sh0 = (float16) (0.0f);
  float16 al0 = (float16) (0.0f), ah0 = (float16) (0.0f);
  float16 sl1 = (float16) (0.0f), sh1 = (float16) (0.0f);
  float16 al1 = (float16) (0.0f), ah1 = (float16) (0.0f);

  if (n == 3)
    CONV_SIDE (3);
  else if (n == 5)
    CONV_SIDE (5);
  else if (n == 7)
    CONV_SIDE (7);
  else
    CONV_SIDE (1);

#if CONV_FAST
  /* Where sum |k a| is the same for every result, CONV_SCALE's arithmetic
   * on all of them at once, stored where they lie (a float RGBA result
   * with nothing to encode).  Results with sums of their own go one at a
   * time below: the same arithmetic on float16 with a per-lane condition
   * (select or ?:) aborts PoCL 6.0's LLVM 18 ("Instruction Combining did
   * not reach a fixpoint"). */
  if (! alpha_weight || opaque)
    {
      float16 tl = sl0 + sl1, th = sh0 + sh1;
      float16 cl = tl * p.x + p.y, ch = th * p.x + p.y;
      if (alpha_weight)
        {
          float16 al = p.w > 0.0f ? tl * p.x * p.z / p.w + p.y
                                  : (float16) (p.y);
          float16 ah = p.w > 0.0f ? th * p.x * p.z / p.w + p.y
                                  : (float16) (p.y);
          cl = (float16) (cl.s012, al.s3, cl.s456, al.s7, cl.s89a, al.sb,
                          cl.scde, al.sf);
          ch = (float16) (ch.s012, ah.s3, ch.s456, ah.s7, ch.s89a, ah.sb,
                          ch.scde, ah.sf);
        }
      /* All finite where their sum is (as CONV_FINITE). */
      float16 m16 = cl + ch;
      float8  m8 = m16.lo + m16.hi;
      float4  m4 = m8.lo + m8.hi;
      if (isfinite (m4.x + m4.y + m4.z + m4.w))
        {
          __global float *o = (__global float *) (dst + dst_offset
                                                   + (long) gy * dst_pitch)
                              + 4 * gx;
          vstore16 (cl, 0, o);
          vstore16 (ch, 1, o);
          return;
        }
      /* Some overflowed: result by result, those made again. */
      float r[4 * CONV_V];
      vstore16 (cl, 0, r);
      vstore16 (ch, 1, r);
      for (int l = 0; l < CONV_V; l++)
        {
          float4 o = vload4 (l, r);
          CONV_FINITE (o, x0 + l, y);
          CLFX_STORE (x0 + l, y, o);
        }
      return;
    }
#endif
  /* CONV_PIXEL's ending, result by result (never an opaque window's:
   * those returned above); where a result is not finite or its alpha
   * lost digits (conv_lost), checked for the CONV_V results at once,
   * those made again. */
  float   t[4 * CONV_V], as[4 * CONV_V], o[4 * CONV_V];
  float16 tl = sl0 + sl1, th = sh0 + sh1;
  float4  all = (float4) (0.0f);
  bool    odd;
  vstore16 (tl, 0, t);
  vstore16 (th, 1, t);
  vstore16 (al0 + al1, 0, as);
  vstore16 (ah0 + ah1, 1, as);
  odd = alpha_weight
        && any (conv_lost8 ((float8) (tl.s37bf, th.s37bf) * p.x));
  for (int l = 0; l < CONV_V; l++)
    {
      float4 t_ = vload4 (l, t);
      CONV_SCALE (t_, as[4 * l + 3]);
      vstore4 (t_, l, o);
      all += t_;
    }
  odd = odd || ! isfinite (all.x + all.y + all.z + all.w);
  for (int l = 0; l < CONV_V; l++)
    {
      float4 t_ = vload4 (l, o);
      if (odd)
        {
          t_.w = alpha_weight && conv_lost (t[4 * l + 3] * p.x) ? NAN : t_.w;
          CONV_FINITE (t_, x0 + l, y);
        }
      CLFX_STORE (x0 + l, y, clfx_from_rgba (t_));
    }
}
