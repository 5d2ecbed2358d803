/* median.cl: the filter family's median (GEGL's median-blur in high
 * precision, docs/FILTERS.md).
 *
 * Per channel, the order statistic of the window: the smallest value whose
 * cumulative weight reaches t = max (1, ceil (W p)), W the window's total
 * weight.  Colour is weighted by the alpha of its texel, quantized as GEGL
 * does (floor (clamp (a, 0, 1) 1024 + 0.5), the 8-bit code for 8-bit
 * data); alpha itself counts each texel once, at its own percentile (50).
 * Values are the stored ones (no sRGB decoding, straight alpha), as GEGL's
 * high precision keeps the source's transfer curve.
 *
 * Values are compared as unsigned keys: a float's bits made monotonic
 * (negative values reversed), NaN as the largest key, so that NaN sorts
 * after +Inf and reaches only results whose order statistic is a NaN; 8-
 * and 16-bit data use their codes, which the store gives back exactly.
 *
 * Windows up to 49 texels whose texels all weigh the same (and, on CPU
 * devices, whatever their weights) go through a sorting network
 * on registers (the kernels built with MEDIAN_N, at the end of this
 * file).  Larger ones, and any window the network does not take, through
 * a radix selection on
 * the keys, exact for any size: one pass per bit from the highest bit in
 * which the window's smallest and largest keys differ (a first pass finds
 * them; a window of one value needs no other), each pass counting the
 * weight at or below the candidate in all four channels at once (uint4
 * compares and selects, no branch per value).  8-bit data take at most 8
 * passes, float data as many as their window's range spans (about 25 for
 * [0, 1]).
 *
 * median_l, median_nl (GPUs): a 16 x 16 group copies the keys and
 * weights of its (16 + 2r)^2 texels into local memory once (one fetch and
 * one key conversion per texel), then every pass reads them from there: a
 * texture fetch per value and pass would make the passes fetch-bound.  One
 * unconditional barrier, no return before or after it (PoCL 6.0: see
 * filter.cl).  median_rl (radius 4 to 8 past the network): the same
 * tile, sorted, and a window of its ranks sliding down each column;
 * median_rc (CPU devices from radius 4): the same ranks with a tile of
 * 32 x 64 results for one work-item (both at the end of this file).
 * median_b, median_nb (CPU devices' networks, and windows whose tile
 * does not fit local memory):
 * median_keys converts the source's texels into buffers of keys and
 * weights once, and each work-item reads its window there (median_nv,
 * CPU devices' network: four results per work-item). */
#include "clfx-io.h"
#include "median-shapes.h"

/* Which lanes are colour and which alpha in the canonical layout. */
#if CLFX_CHANNELS == 2
#define MEDIAN_ALPHA(v) ((v).y)
#define MEDIAN_WVEC(w) ((uint4) ((w), 1u, 1u, 1u))
#define MEDIAN_TVEC(tc, ta) ((uint4) ((tc), (ta), 1u, 1u))
#else
#define MEDIAN_ALPHA(v) ((v).w)
#define MEDIAN_WVEC(w) ((uint4) ((w), (w), (w), 1u))
#define MEDIAN_TVEC(tc, ta) ((uint4) ((tc), (tc), (tc), (ta)))
#endif

#if CLFX_DEPTH == CLFX_DEPTH_CODE_U8 || CLFX_DEPTH == CLFX_DEPTH_CODE_U16
#if CLFX_DEPTH == CLFX_DEPTH_CODE_U8
#define MEDIAN_CODES 255.0f
#else
#define MEDIAN_CODES 65535.0f
#endif
inline uint4
median_key (float4 v)
{
  return convert_uint4_sat_rte (v * MEDIAN_CODES);
}

inline float4
median_value (uint4 k)
{
  return convert_float4 (k) * (1.0f / MEDIAN_CODES);
}
#else
inline uint4
median_key (float4 v)
{
  uint4 b = as_uint4 (v);
  uint4 k = b ^ select ((uint4) (0x80000000u), (uint4) (0xffffffffu),
                        as_int4 (b) < 0);
  return select (k, (uint4) (0xffffffffu), isnan (v));
}

inline float4
median_value (uint4 k)
{
  return as_float4 (k ^ select ((uint4) (0xffffffffu), (uint4) (0x80000000u),
                                k >= (uint4) (0x80000000u)));
}
#endif

/* GEGL's weight of a texel's colour: its alpha quantized to wscale steps
 * (1024, or 255 for 8-bit data), in float as GEGL computes it; NaN
 * weighs 0. */
inline uint
median_weight (float a, float wscale)
{
  float c = a > 0.0f ? (a < 1.0f ? a : 1.0f) : 0.0f;
  return (uint) floor (c * wscale + 0.5f);
}

/* max (1, ceil (w p)) with w p rounded as a double product rounds (to
 * nearest, ties to even), as GEGL computes it, in integers: p = m 2^-s
 * (the host splits it; m < 2^53, s >= 52 as p <= 1), w < 2^26. */
inline uint
median_target (uint w, ulong m, int s)
{
  ulong lo = (ulong) w * m, hi = mul_hi ((ulong) w, m);
  int   len = hi ? 128 - (int) clz (hi) : 64 - (int) clz (lo);
  int   d = max (len - 53, 0), k;
  ulong r = lo, t;

  if (d > 0)
    {
      ulong rem = lo & ((1ul << d) - 1ul), halfway = 1ul << (d - 1);
      r = (lo >> d) | (hi << (64 - d));
      if (rem > halfway || (rem == halfway && (r & 1ul)))
        r++;
    }
  /* The product is r 2^(d - s), r <= 2^53 and s - d >= 26. */
  k = s - d;
  t = k >= 54 ? (ulong) (r != 0ul) : (r + (1ul << k) - 1ul) >> k;
  return max ((uint) t, 1u);
}

/* A window of no weight at all (zero): GEGL's colour is 0; alpha stays. */
inline float4
median_no_weight (float4 res, bool zero)
{
  if (zero)
    res.x = 0.0f;
  if (zero && CLFX_CHANNELS == 4)
    res.yz = (float2) (0.0f);
  return res;
}

/* The window of the pixel: rows di in [-r, r], columns dj in [-hw[di + r],
 * hw[di + r]]; KW (di, dj, k, w) gives the keys k (uint4) and the colour
 * weight w (uint) of a texel; VAL (k) the value (float4) of keys k.  res:
 * the result (float4). */
#define MEDIAN_SELECT(res, KW, VAL)                                          \
  do                                                                         \
    {                                                                        \
      uint4 mn_ = (uint4) (0xffffffffu), mx_ = (uint4) (0u);                 \
      uint  wsum_ = 0u;                                                      \
      for (int di = -r; di <= r; di++)                                       \
        {                                                                    \
          int h_ = hw[di + r];                                               \
          for (int dj = -h_; dj <= h_; dj++)                                 \
            {                                                                \
              uint4 k_;                                                      \
              uint  w_;                                                      \
              KW (di, dj, k_, w_);                                           \
              mn_ = min (mn_, k_);                                           \
              mx_ = max (mx_, k_);                                           \
              wsum_ += w_;                                                   \
            }                                                                \
        }                                                                    \
      uint4 t_ = MEDIAN_TVEC (weighted ? median_target (wsum_, pm, ps) : tc, \
                              ta);                                           \
      uint4 df_ = mn_ ^ mx_;                                                 \
      uint  any_ = df_.x | df_.y | df_.z | df_.w;                            \
      int   top_ = any_ ? 31 - (int) clz (any_) : -1;                        \
      uint4 pre_ = top_ < 0    ? mn_                                         \
                   : top_ < 31 ? mn_ & (uint4) (~((2u << top_) - 1u))        \
                               : (uint4) (0u);                               \
      for (int b_ = top_; b_ >= 0; b_--)                                     \
        {                                                                    \
          uint4 cand_ = pre_ | (uint4) ((1u << b_) - 1u), cnt_ = (uint4) (0u); \
          for (int di = -r; di <= r; di++)                                   \
            {                                                                \
              int h_ = hw[di + r];                                           \
              for (int dj = -h_; dj <= h_; dj++)                             \
                {                                                            \
                  uint4 k_;                                                  \
                  uint  w_;                                                  \
                  KW (di, dj, k_, w_);                                       \
                  cnt_ += select ((uint4) (0u), MEDIAN_WVEC (w_),            \
                                  k_ <= cand_);                              \
                }                                                            \
            }                                                                \
          pre_ |= select ((uint4) (1u << b_), (uint4) (0u), cnt_ >= t_);     \
        }                                                                    \
      res = median_no_weight (VAL (pre_), wsum_ == 0u);                      \
    }                                                                        \
  while (0)

/* Arguments: hw, the half-widths of the 2 r + 1 rows; weighted: colour
 * weighted by alpha (straight alpha), else every texel weighs 1 and tc is
 * the colour's target; wscale: the alpha quantization; ta: alpha's
 * target; pm, ps: the percentile as m 2^-s. */
#define MEDIAN_ARGS                                                          \
  __constant int *hw, int r, int weighted, float wscale, uint tc, uint ta,  \
    ulong pm, int ps

inline uint
median_weight_of (float4 v, int weighted, float wscale)
{
  return weighted ? median_weight (MEDIAN_ALPHA (v), wscale) : 1u;
}

/* The keys and weights of the source's rectangle rect (source
 * coordinates, addressing applied) into plain buffers, one fetch and one
 * conversion per texel: the buffer forms then read a window per pass
 * with plain loads (re-fetching the source each pass made the radix
 * selection 6x slower on PoCL). */
__kernel void
median_keys (CLFX_SRC_ARGS (src), __global uint4 *keys, __global uint *wts,
             int4 rect, int weighted, float wscale)
{
  int gx = get_global_id (0), gy = get_global_id (1);

  if (gx >= rect.z || gy >= rect.w)
    return;

  float4 v = clfx_fetch (CLFX_SRC (src), rect.x + gx, rect.y + gy);
  long   i = (long) gy * rect.z + gx;
  keys[i] = median_key (v);
  wts[i] = median_weight_of (v, weighted, wscale);
}

/* CPU devices, and GPU windows whose tile does not fit local memory: a
 * result per work-item from the buffers of median_keys (rect: their
 * rectangle in source coordinates). */
__kernel void
median_b (__global const uint4 *keys, __global const uint *wts, int4 rect,
          CLFX_DST_ARGS, MEDIAN_ARGS)
{
  int gx = get_global_id (0), gy = get_global_id (1);

  if (gx >= dst_rect.z || gy >= dst_rect.w)
    return;

  int    x = CLFX_DST_X (gx), y = CLFX_DST_Y (gy);
  long   o = (long) (y - rect.y) * rect.z + (x - rect.x);
  float4 res;
/* A texel of the buffers (median_nb reads them too). */
#define KW_B(di, dj, k, w)                                                   \
  do                                                                         \
    {                                                                        \
      k = keys[o + (long) (di) * rect.z + (dj)];                             \
      w = wts[o + (long) (di) * rect.z + (dj)];                              \
    }                                                                        \
  while (0)
  MEDIAN_SELECT (res, KW_B, median_value);
  CLFX_STORE (x, y, res);
}

/* The group's tile: the keys and weights of the texels its windows read,
 * (MEDIAN_T + 2 r)^2 of each, one fetch per texel (every work-item takes
 * part; the caller's barrier follows). */
inline void
median_tile (CLFX_SRC_ARGS (src), int4 dst_rect, int r, int weighted,
             float wscale, __local uint4 *keys, __local uint *wts)
{
  int lx = get_local_id (0), ly = get_local_id (1);
  int span = MEDIAN_T + 2 * r;
  int x0 = dst_rect.x + get_group_id (0) * MEDIAN_T - r;
  int y0 = dst_rect.y + get_group_id (1) * MEDIAN_T - r;

  for (int i = ly * MEDIAN_T + lx; i < span * span;
       i += MEDIAN_T * MEDIAN_T)
    {
      float4 v = clfx_fetch (CLFX_SRC (src), x0 + i % span, y0 + i / span);
      keys[i] = median_key (v);
      wts[i] = median_weight_of (v, weighted, wscale);
    }
}

/* keys and wts: (MEDIAN_T + 2 r)^2 entries each. */
/* A texel of a group's tile (o: the window's centre, span: the tile's
 * width), for median_l and median_nl. */
#define KW_L(di, dj, k, w)                                                   \
  do                                                                         \
    {                                                                        \
      k = keys[o + (di) * span + (dj)];                                      \
      w = wts[o + (di) * span + (dj)];                                       \
    }                                                                        \
  while (0)

__kernel __attribute__ ((reqd_work_group_size (MEDIAN_T, MEDIAN_T, 1))) void
median_l (CLFX_SRC_ARGS (src), CLFX_DST_ARGS, MEDIAN_ARGS,
          __local uint4 *keys, __local uint *wts)
{
  int lx = get_local_id (0), ly = get_local_id (1);
  int gx = get_global_id (0), gy = get_global_id (1);
  int span = MEDIAN_T + 2 * r;

  median_tile (CLFX_SRC (src), dst_rect, r, weighted, wscale, keys, wts);
  barrier (CLK_LOCAL_MEM_FENCE);
  if (gx < dst_rect.z && gy < dst_rect.w)
    {
      int    x = CLFX_DST_X (gx), y = CLFX_DST_Y (gy);
      int    o = (ly + r) * span + lx + r;
      float4 res;
      MEDIAN_SELECT (res, KW_L, median_value);
      CLFX_STORE (x, y, res);
    }
}

#ifdef MEDIAN_N
/* Small windows (the host builds these kernels for the window: radius
 * MEDIAN_R, shape MEDIAN_SHAPE, size MEDIAN_N up to 49 texels, and the
 * ranks MEDIAN_RC of colour and MEDIAN_RA of alpha, from 1, where every
 * texel weighs the same).  The window's keys go into registers once and
 * a sorting network orders them (all four channels at once, uint4 min /
 * max, no branch); each lane takes its rank.  The network is written out
 * (median-networks.h) and the ranks are constants, so every index is
 * known to the compiler: the keys stay in registers (the loops that built
 * the network before were not all unrolled by NVIDIA's compiler, and the
 * window went to private memory: 5 x 5 took 155 ms for 8192 x 8192 on an
 * H200) and the comparators that do not lead to the picked ranks are
 * left out (25 texels: 140 comparators sort, fewer select the median).
 *
 * The ranks hold where every weight is the same: images without straight
 * alpha (every texel weighs 1), and opaque windows of straight-alpha
 * images (every weight MEDIAN_WFULL, the host's ranks for it).  A window
 * of straight alpha that is transparent throughout (every weight 0) gives
 * colour 0 and alpha's rank.  In other windows (their alpha varies, or is
 * the same partial value throughout), on CPU devices (median_nb), the
 * weights travel with their keys through the same network (a compare and
 * four selects per comparator: windows up to MEDIAN_WNET_MAX texels) and
 * a walk over the sorted window finds where each lane's cumulative weight
 * reaches its target; larger windows, and every such window on GPUs
 * (median_nl), take the radix selection, exact for any weights.  On PoCL
 * the radix selection cost 7 times the carried network (5 x 5, 2048^2);
 * on the H200 the carried network's registers (255 against 122) made
 * every window slower, opaque 5 x 5 from 5.9 to 8.1 ms. */
#include "median-networks.h"

#define MEDIAN_SPAN (MEDIAN_T + 2 * MEDIAN_R)
#define MEDIAN_NETWORK_OF_(n) MEDIAN_NETWORK_##n
#define MEDIAN_NETWORK_OF(n) MEDIAN_NETWORK_OF_ (n)

/* GEGL's windows: circle (r + 0.5)^2 >= di^2 + dj^2 in integers; the
 * host's half-widths say the same. */
inline bool
median_in (int di, int dj)
{
  return MEDIAN_SHAPE == 0   ? true
         : MEDIAN_SHAPE == 1 ? di * di + dj * dj <= MEDIAN_R * MEDIAN_R + MEDIAN_R
                             : abs (di) + abs (dj) <= MEDIAN_R;
}

/* A comparator of the network on keys of type T: the smaller key to a. */
#define MEDIAN_CS_T(T, a, b)                                                 \
  {                                                                          \
    T x_ = v[a], y_ = v[b];                                                  \
    v[a] = min (x_, y_);                                                     \
    v[b] = max (x_, y_);                                                     \
  }
#define MEDIAN_CS(a, b) MEDIAN_CS_T (uint4, a, b)

/* A comparator that carries the weights wv with their keys (IT: the
 * comparison's type). */
#define MEDIAN_CSW_T(T, IT, a, b)                                            \
  {                                                                          \
    T  x_ = v[a], y_ = v[b], p_ = wv[a], q_ = wv[b];                         \
    IT up_ = x_ > y_;                                                        \
    v[a] = select (x_, y_, up_);                                             \
    v[b] = select (y_, x_, up_);                                             \
    wv[a] = select (p_, q_, up_);                                            \
    wv[b] = select (q_, p_, up_);                                            \
  }
#define MEDIAN_CSW(a, b) MEDIAN_CSW_T (uint4, int4, a, b)

/* Every network's size: on PoCL, 1024^2 float with straight alpha varying
 * everywhere, 7 x 7 took 1031 ms through the radix selection and 99 ms
 * carried (radius 3 circle: 727 and 46 ms), for 0.5 s more to build. */
#define MEDIAN_WNET_MAX 49

/* The sorted window's first entry per lane whose cumulative weight
 * reaches t. */
inline float4
median_walk (const uint4 *v, const uint4 *w, uint4 t)
{
  uint4 cum = (uint4) (0u), k = v[MEDIAN_N - 1];
  int4  done = (int4) (0);

  /* Unrolled, so that v and w stay in registers. */
#pragma unroll
  for (int q = 0; q < MEDIAN_N; q++)
    {
      cum += w[q];
      int4 hit = (cum >= t) & ~done;
      k = select (k, v[q], hit);
      done |= hit;
    }
  return median_value (k);
}

/* The keys of ranks MEDIAN_RC (colour lanes) and MEDIAN_RA (alpha) of the
 * sorted window. */
#if CLFX_CHANNELS == 2
#define MEDIAN_PICKED(v)                                                     \
  ((uint4) ((v)[MEDIAN_RC - 1].x, (v)[MEDIAN_RA - 1].y, 0u, 0u))
#else
#define MEDIAN_PICKED(v)                                                     \
  ((uint4) ((v)[MEDIAN_RC - 1].xyz, (v)[MEDIAN_RA - 1].w))
#endif

/* The result over the window around texel o of a grid `stride` texels
 * wide (KEYS, WTS: its keys and weights); KW reads (di, dj) for the radix
 * selection of the other windows; CARRY (a constant): unequal weights
 * through the network. */
#define MEDIAN_NET(res, KEYS, WTS, o, stride, KW, CARRY)                     \
  do                                                                         \
    {                                                                        \
      uint4 v[MEDIAN_N], wv[MEDIAN_N];                                       \
      uint  wmin = 0xffffffffu, wmax = 0u, wsum = 0u;                        \
      int   n = 0;                                                           \
      _Pragma ("unroll") for (int di = -MEDIAN_R; di <= MEDIAN_R; di++)      \
        _Pragma ("unroll") for (int dj = -MEDIAN_R; dj <= MEDIAN_R; dj++)    \
          if (median_in (di, dj))                                            \
            {                                                                \
              uint w = (WTS)[(o) + di * (stride) + dj];                      \
              wv[n] = MEDIAN_WVEC (w);                                       \
              v[n++] = (KEYS)[(o) + di * (stride) + dj];                     \
              wmin = min (wmin, w);                                          \
              wmax = max (wmax, w);                                          \
              wsum += w;                                                     \
            }                                                                \
      if (! weighted                                                         \
          || (wmin == wmax && (wmin == 0u || wmin == MEDIAN_WFULL)))         \
        {                                                                    \
          MEDIAN_NETWORK_OF (MEDIAN_N) (MEDIAN_CS)                           \
          res = median_no_weight (median_value (MEDIAN_PICKED (v)),          \
                                  weighted && wmin == 0u);                   \
        }                                                                    \
      else if ((CARRY) && MEDIAN_N <= MEDIAN_WNET_MAX)                       \
        {                                                                    \
          MEDIAN_NETWORK_OF (MEDIAN_N) (MEDIAN_CSW)                          \
          res = median_walk (v, wv, MEDIAN_TVEC (median_target (wsum, pm,    \
                                                                ps),         \
                                                 ta));                       \
        }                                                                    \
      else                                                                   \
        MEDIAN_SELECT (res, KW, median_value);                               \
    }                                                                        \
  while (0)

__kernel void
median_nb (__global const uint4 *keys, __global const uint *wts, int4 rect,
           CLFX_DST_ARGS, MEDIAN_ARGS)
{
  int gx = get_global_id (0), gy = get_global_id (1);

  if (gx >= dst_rect.z || gy >= dst_rect.w)
    return;

  int    x = CLFX_DST_X (gx), y = CLFX_DST_Y (gy);
  long   o = (long) (y - rect.y) * rect.z + (x - rect.x);
  float4 res;
  MEDIAN_NET (res, keys, wts, o, (long) rect.z, KW_B, 1);
  CLFX_STORE (x, y, res);
}

/* CPU devices: MEDIAN_V neighbouring results of a row per work-item, the
 * keys of their windows' texels at one offset four uint4 in a row, so one
 * uint16 per offset and one comparator order the four windows at once
 * (PoCL runs a work-item's arithmetic one pixel at a time: the
 * one-result form orders a uint4).  Windows whose weights are each one
 * value the ranks take (1, 0 or MEDIAN_WFULL throughout) go through the
 * plain network; others, up to MEDIAN_WNET_MAX texels and none without
 * weight, through the network that carries the weights and the walk,
 * four at a time as well.  The rest, and the results past the last
 * column, one at a time by MEDIAN_NET.  An order statistic is exact
 * whichever way: the same bytes. */
#define MEDIAN_CS16(a, b) MEDIAN_CS_T (uint16, a, b)
#define MEDIAN_CSW16(a, b) MEDIAN_CSW_T (uint16, int16, a, b)

/* MEDIAN_WVEC of each of four results' weights w (a uint4). */
#define MEDIAN_WVEC16(w)                                                     \
  ((uint16) (MEDIAN_WVEC ((w).x), MEDIAN_WVEC ((w).y), MEDIAN_WVEC ((w).z),  \
             MEDIAN_WVEC ((w).w)))

/* The window offsets of the four results, in MEDIAN_NET's order: BODY
 * with the offset `at` of each texel. */
#define MEDIAN_EACH(at, BODY)                                                \
  _Pragma ("unroll") for (int di = -MEDIAN_R; di <= MEDIAN_R; di++)          \
    _Pragma ("unroll") for (int dj = -MEDIAN_R; dj <= MEDIAN_R; dj++)        \
      if (median_in (di, dj))                                                \
        {                                                                    \
          long at = o0 + di * stride + dj;                                   \
          BODY                                                               \
        }

__kernel void
median_nv (__global const uint4 *keys, __global const uint *wts, int4 rect,
           CLFX_DST_ARGS, MEDIAN_ARGS)
{
  int gx = get_global_id (0) * MEDIAN_V, gy = get_global_id (1);

  if (gx >= dst_rect.z || gy >= dst_rect.w)
    return;

  int   x = CLFX_DST_X (gx), y = CLFX_DST_Y (gy);
  int   m = min (MEDIAN_V, dst_rect.z - gx);
  /* The first result's texel (KW_B reads around `o`). */
  long  o0 = (long) (y - rect.y) * rect.z + (x - rect.x);
  long  stride = rect.z;
  /* Lane l: the smallest and largest weight of result l's window. */
  uint4 wmin = (uint4) (0xffffffffu), wmax = (uint4) (0u);

  if (weighted && m == MEDIAN_V)
    MEDIAN_EACH (at, {
      uint4 w = vload4 (0, wts + at);
      wmin = min (wmin, w);
      wmax = max (wmax, w);
    })
  bool plain = ! weighted
               || all ((wmin == wmax)
                       & (wmin == (uint4) (0u)
                          | wmin == (uint4) (MEDIAN_WFULL)));
  bool carry = ! plain && MEDIAN_N <= MEDIAN_WNET_MAX
               && ! any (wmax == (uint4) (0u));
  if (m < MEDIAN_V || ! (plain || carry))
    {
      for (int l = 0; l < m; l++)
        {
          float4 res;
          long   o = o0 + l;
          MEDIAN_NET (res, keys, wts, o, stride, KW_B, 1);
          CLFX_STORE (x + l, y, res);
        }
      return;
    }

  uint16 v[MEDIAN_N];
  uint   pick[16];
  int    n = 0;
  if (plain)
    {
      MEDIAN_EACH (at, {
        v[n++] = vload16 (0, (__global const uint *) (keys + at));
      })
      MEDIAN_NETWORK_OF (MEDIAN_N) (MEDIAN_CS16)
      /* MEDIAN_PICKED, four results at once. */
#if CLFX_CHANNELS == 2
      vstore16 (select (v[MEDIAN_RA - 1], v[MEDIAN_RC - 1],
                        (int16) (-1, 0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, -1, 0,
                                 0, 0)),
                0, pick);
#else
      vstore16 (select (v[MEDIAN_RA - 1], v[MEDIAN_RC - 1],
                        (int16) (-1, -1, -1, 0, -1, -1, -1, 0, -1, -1, -1, 0,
                                 -1, -1, -1, 0)),
                0, pick);
#endif
    }
  else
    {
      uint16 wv[MEDIAN_N];
      uint4  wsum = (uint4) (0u);
      MEDIAN_EACH (at, {
        uint4 w = vload4 (0, wts + at);
        wsum += w;
        wv[n] = MEDIAN_WVEC16 (w);
        v[n++] = vload16 (0, (__global const uint *) (keys + at));
      })
      MEDIAN_NETWORK_OF (MEDIAN_N) (MEDIAN_CSW16)
      /* median_walk, four results at once. */
      uint16 t = (uint16) (MEDIAN_TVEC (median_target (wsum.x, pm, ps), ta),
                           MEDIAN_TVEC (median_target (wsum.y, pm, ps), ta),
                           MEDIAN_TVEC (median_target (wsum.z, pm, ps), ta),
                           MEDIAN_TVEC (median_target (wsum.w, pm, ps), ta));
      uint16 cum = (uint16) (0u), k = v[MEDIAN_N - 1];
      int16  done = (int16) (0);
      _Pragma ("unroll") for (int q = 0; q < MEDIAN_N; q++)
        {
          cum += wv[q];
          int16 hit = (cum >= t) & ~done;
          k = select (k, v[q], hit);
          done |= hit;
        }
      vstore16 (k, 0, pick);
    }
  for (int l = 0; l < MEDIAN_V; l++)
    {
      float4 res = median_value (vload4 (l, pick));
      if (plain)
        res = median_no_weight (res, weighted && ((uint *) &wmax)[l] == 0u);
      CLFX_STORE (x + l, y, res);
    }
}

__kernel __attribute__ ((reqd_work_group_size (MEDIAN_T, MEDIAN_T, 1))) void
median_nl (CLFX_SRC_ARGS (src), CLFX_DST_ARGS, MEDIAN_ARGS,
           __local uint4 *keys, __local uint *wts)
{
  int lx = get_local_id (0), ly = get_local_id (1);
  int gx = get_global_id (0), gy = get_global_id (1);
  int span = MEDIAN_SPAN;

  median_tile (CLFX_SRC (src), dst_rect, r, weighted, wscale, keys, wts);
  barrier (CLK_LOCAL_MEM_FENCE);
  if (gx < dst_rect.z && gy < dst_rect.w)
    {
      int    x = CLFX_DST_X (gx), y = CLFX_DST_Y (gy);
      int    o = (ly + MEDIAN_R) * MEDIAN_SPAN + lx + MEDIAN_R;
      float4 res;
      MEDIAN_NET (res, keys, wts, o, span, KW_L, 0);
      CLFX_STORE (x, y, res);
    }
}
#endif

/* The sliding ranks (median_rl, median_rc): which channel is alpha. */
#if CLFX_CHANNELS == 4
#define MEDIAN_IS_ALPHA(c) ((c) == 3)
#elif CLFX_CHANNELS == 2
#define MEDIAN_IS_ALPHA(c) ((c) == 1)
#else
#define MEDIAN_IS_ALPHA(c) false
#endif

/* The index of m's lowest set bit (OpenCL C 1.2 has clz, not ctz). */
inline int
median_low_bit (uint m)
{
  return 31 - (int) clz (m & (0u - m));
}

/* A bitmap of ranks whose word i lies at bm[i stride], nw words: the
 * walkers' windows (median_rl interleaves its walkers' words). */

/* The smallest set rank above p (p >= -1), nw 32 if there is none. */
inline int
median_bits_next (__local const uint *bm, int stride, int nw, int p)
{
  int  s = p + 1, wi = s >> 5;
  uint m = wi < nw ? bm[wi * stride] & (0xffffffffu << (s & 31)) : 0u;

  while (m == 0u && ++wi < nw)
    m = bm[wi * stride];
  return m ? wi * 32 + median_low_bit (m) : nw * 32;
}

/* The largest set rank below p, -1 if there is none. */
inline int
median_bits_prev (__local const uint *bm, int stride, int p)
{
  if (p <= 0)
    return -1;

  int  s = p - 1, wi = s >> 5;
  uint m = bm[wi * stride] & (0xffffffffu >> (31 - (s & 31)));

  while (m == 0u && --wi >= 0)
    m = bm[wi * stride];
  return m ? wi * 32 + 31 - (int) clz (m) : -1;
}

/* The rank of the order statistic where ranks weigh as wt[od[q]]: from
 * the pointer p (*C: the window's weight at or below it), up to the
 * first rank whose cumulative weight reaches t, then down while the one
 * before still reaches it; *C follows. */
inline int
median_bits_walk (__local const uint *bm, int stride, int nw,
                  __local const ushort *wt, __local const ushort *od, int p,
                  uint *C, uint t)
{
  uint c = *C;

  while (c < t)
    {
      int n = median_bits_next (bm, stride, nw, p);
      if (n >= nw * 32)
        break;
      p = n;
      c += wt[od[p]];
    }
  while (p >= 0)
    {
      if (! (bm[(p >> 5) * stride] & (1u << (p & 31))))
        p = median_bits_prev (bm, stride, p);
      else if (c - wt[od[p]] >= t)
        {
          c -= wt[od[p]];
          p = median_bits_prev (bm, stride, p);
        }
      else
        break;
    }
  *C = c;
  return p;
}

/* The rank of the k-th set bit (k >= 1) where every rank weighs 1: from
 * the pointer p (C: the set ranks at or below it), counting the bits a
 * word at a time, up from p + 1 or down from p. */
inline int
median_bits_count (__local const uint *bm, int stride, int nw, int p, uint C,
                   uint k)
{
  if (C < k)
    {
      uint need = k - C;
      int  s = p + 1, wi = s >> 5;
      uint m = bm[wi * stride] & (0xffffffffu << (s & 31));

      for (uint n = popcount (m); n < need && wi + 1 < nw; n = popcount (m))
        {
          need -= n;
          m = bm[++wi * stride];
        }
      for (uint j = 1u; j < need; j++)
        m &= m - 1u;
      return wi * 32 + median_low_bit (m);
    }

  uint need = C - k + 1u;
  int  wi = p >> 5;
  uint m = bm[wi * stride] & (0xffffffffu >> (31 - (p & 31)));

  for (uint n = popcount (m); n < need && wi > 0; n = popcount (m))
    {
      need -= n;
      m = bm[--wi * stride];
    }
  for (uint j = 1u; j < need; j++)
    m &= ~(0x80000000u >> clz (m));
  return wi * 32 + 31 - (int) clz (m);
}

/* The texels of the window of hw's shape (n). */
inline uint
median_window_size (__constant int *hw, int r)
{
  uint n = 0u;

  for (int di = 0; di <= 2 * r; di++)
    n += (uint) (2 * hw[di] + 1);
  return n;
}

/* The count of ranks that reaches the target where every texel of the
 * window weighs w (n texels): ceil (t / w), 0 where w is 0 (no weight:
 * colour 0). */
inline uint
median_uniform_rank (uint n, uint w, ulong pm, int ps)
{
  return w ? (median_target (n * w, pm, ps) + w - 1u) / w : 0u;
}

#ifdef MEDIAN_RANK_R
/* Windows past the network's (radius MEDIAN_RANK_R up to 8, built for
 * it), on GPUs and on CPU devices that read images (median_rc serves
 * CPU devices' buffers): ranks in the tile and a window that slides down
 * a column.
 *
 * The group sorts its tile's keys once per channel ((key, texel) as one
 * 64-bit word, so that the padding sorts last; a channel whose keys are
 * all one value needs no sort), and each texel's rank in its tile stands
 * for its key: ranks are distinct and in the keys' order, so the smallest
 * rank whose cumulative weight reaches the target is a texel of the
 * selected value.  The sort is bitonic with 8 slots in each sorter's
 * registers: a round loads the 8 slots whose indices differ in 3
 * neighbouring bits, runs every stage of those bits there and stores them
 * back (20 rounds for 1024 slots, where a pass through local memory per
 * stage took 55; 16 slots took 15 rounds, but their registers left fewer
 * groups on each of the H200's multiprocessors and were slower).
 *
 * Then 4 x 16 work-items ("walkers", a column of results and a channel
 * each) hold the ranks of their window as a bitmap of the tile's ranks
 * (one bit a texel) and walk down their column: a step down removes the
 * top texel of each of the window's columns and adds the one below its
 * bottom (2 (2r + 1) updates, where the window holds up to (2r + 1)^2
 * texels), and a pointer into the bitmap (p, with C the weight of the
 * window's ranks up to p) moves to the new order statistic: between
 * neighbouring results it moves by about the texels that changed.  Where
 * every texel of the tile weighs the same, the order statistic is the
 * window's k-th rank and the pointer counts set bits a word at a time
 * (median_bits_count: on the H200, radius 8 52.4 -> 41.9 ms at 8192^2);
 * elsewhere it moves rank by rank with the weights' sums
 * (median_bits_walk).  The
 * radix selection this replaces read the whole window once per bit of
 * the ranks (10 times).  The shapes are symmetric under transposition,
 * so a column dj of the window spans the rows |di| <= hw[dj + r]. */
#define MEDIAN_RS (MEDIAN_T + 2 * MEDIAN_RANK_R)
#define MEDIAN_RS2 (MEDIAN_RS * MEDIAN_RS)
/* The walkers, and the words of a walker's bitmap: word i of walker w is
 * bm[i MEDIAN_WALKERS + w], so that the walkers of a warp read different
 * banks whatever their words. */
#define MEDIAN_WALKERS (4 * MEDIAN_T)
/* The group: MEDIAN_T x MEDIAN_RANK_GY work-items (median-shapes.h: 8
 * rows, so 128 sorters of 8 slots and 64 walkers) for MEDIAN_T x MEDIAN_T
 * results; the loops below take any MEDIAN_RANK_GY. */
#define MEDIAN_WG (MEDIAN_T * MEDIAN_RANK_GY)
#define MEDIAN_RW ((MEDIAN_RS2 + 31) / 32)
/* The sorters, MEDIAN_E slots each; slot i lies at MEDIAN_PAD (i), one
 * slot left free every MEDIAN_E so that the sorters of a round with slots
 * MEDIAN_E apart read different banks. */
#define MEDIAN_EB 3
#define MEDIAN_E (1 << MEDIAN_EB)
#define MEDIAN_NS (MEDIAN_RANK_P / MEDIAN_E)
#define MEDIAN_PAD(i) ((i) + ((i) >> MEDIAN_EB))

/* The slot of sorter t's register r in a round whose register bits start
 * at bit b: r's MEDIAN_EB bits inserted at b into t's. */
inline int
median_slot (int t, int r, int b)
{
  return (t & ((1 << b) - 1)) | (r << b) | ((t >> b) << (b + MEDIAN_EB));
}

/* One round of sorter t (t < MEDIAN_NS): its MEDIAN_E slots from bit b,
 * the stages of phases k0 to k1 (each k ascending where slot & k is 0) whose
 * distance j lies in [2^b, jtop].  The registers' indices are constants
 * (unrolled), so the slots stay in registers. */
inline void
median_round (__local ulong *pr, int t, int b, int k0, int k1, int jtop)
{
  ulong v[MEDIAN_E];

#pragma unroll
  for (int r = 0; r < MEDIAN_E; r++)
    v[r] = pr[MEDIAN_PAD (median_slot (t, r, b))];
  for (int k = k0; k <= k1; k <<= 1)
#pragma unroll
    for (int rb = MEDIAN_EB - 1; rb >= 0; rb--)
      {
        int j = 1 << (b + rb);
        if (j < k && j <= jtop)
#pragma unroll
          for (int r = 0; r < MEDIAN_E; r++)
            if (! (r & (1 << rb)))
              {
                ulong x = v[r], y = v[r | (1 << rb)];
                bool  up = (median_slot (t, r, b) & k) == 0;
                bool  sw = (x > y) == up;
                v[r] = sw ? y : x;
                v[r | (1 << rb)] = sw ? x : y;
              }
      }
#pragma unroll
  for (int r = 0; r < MEDIAN_E; r++)
    pr[MEDIAN_PAD (median_slot (t, r, b))] = v[r];
}

/* Rank q's bit in walker wid's bitmap; FLIP and SET its bit (the host
 * chooses atomics for GPUs: MEDIAN_ATOMIC_FLIPS). */
#define MEDIAN_BIT(q) bm[((q) >> 5) * MEDIAN_WALKERS + wid]
#define MEDIAN_MASK(q) (1u << ((q) & 31))
#if MEDIAN_ATOMIC_FLIPS
#define MEDIAN_FLIP(q) atomic_xor (&MEDIAN_BIT (q), MEDIAN_MASK (q))
#define MEDIAN_SET(q) atomic_or (&MEDIAN_BIT (q), MEDIAN_MASK (q))
#else
#define MEDIAN_FLIP(q) (MEDIAN_BIT (q) ^= MEDIAN_MASK (q))
#define MEDIAN_SET(q) (MEDIAN_BIT (q) |= MEDIAN_MASK (q))
#endif

/* Channel c of the key of the tile's texel i. */
inline uint
median_key_at (CLFX_SRC_ARGS (src), int x0, int y0, int i, int c)
{
  uint4 k = median_key (clfx_fetch (CLFX_SRC (src), x0 + i % MEDIAN_RS,
                                    y0 + i / MEDIAN_RS));
  return c == 0 ? k.x : c == 1 ? k.y : c == 2 ? k.z : k.w;
}

__kernel
__attribute__ ((reqd_work_group_size (MEDIAN_T, MEDIAN_RANK_GY, 1))) void
median_rl (CLFX_SRC_ARGS (src), CLFX_DST_ARGS, MEDIAN_ARGS)
{
  /* rk: texel i's rank in channel c at rk[4 i + c]; od: the texel of
   * rank q at od[c RS2 + q]; wt: colour weights by texel; pr: the sort,
   * then the walkers' bitmaps; res: the results, four words each. */
  __local ushort rk[4 * MEDIAN_RS2];
  __local ushort od[4 * MEDIAN_RS2];
  __local ushort wt[MEDIAN_RS2];
  __local ulong  pr[MEDIAN_PAD (MEDIAN_RANK_P)];
  __local uint   res[4 * MEDIAN_T * MEDIAN_T];
  __local uint   varies, wlo, whi;
  int            lid = get_local_id (1) * MEDIAN_T + get_local_id (0);
  int            ox = get_group_id (0) * MEDIAN_T;
  int            oy = get_group_id (1) * MEDIAN_T;
  int            x0 = dst_rect.x + ox - MEDIAN_RANK_R;
  int            y0 = dst_rect.y + oy - MEDIAN_RANK_R;
  uint           vary, wmin, wmax;

  if (lid == 0)
    {
      varies = 0u;
      wlo = 0xffffffffu;
      whi = 0u;
    }
  barrier (CLK_LOCAL_MEM_FENCE);
  {
    /* The weights, their range, and which channels' keys differ
     * anywhere. */
    uint4 k0 = median_key (clfx_fetch (CLFX_SRC (src), x0, y0));
    uint4 d = (uint4) (0u);
    uint  bits, lo = 0xffffffffu, hi = 0u;

    for (int i = lid; i < MEDIAN_RS2; i += MEDIAN_WG)
      {
        float4 v = clfx_fetch (CLFX_SRC (src), x0 + i % MEDIAN_RS,
                               y0 + i / MEDIAN_RS);
        uint   w = median_weight_of (v, weighted, wscale);
        wt[i] = (ushort) w;
        lo = min (lo, w);
        hi = max (hi, w);
        d |= median_key (v) ^ k0;
      }
    atomic_min (&wlo, lo);
    atomic_max (&whi, hi);
    bits = (d.x != 0u ? 1u : 0u) | (d.y != 0u ? 2u : 0u)
           | (d.z != 0u ? 4u : 0u) | (d.w != 0u ? 8u : 0u);
    if (bits)
      atomic_or (&varies, bits);
  }
  barrier (CLK_LOCAL_MEM_FENCE);
  vary = varies;
  wmin = wlo;
  wmax = whi;
  for (int c = 0; c < CLFX_CHANNELS; c++)
    {
      /* No sort where the keys are one value (the texels' order is then
       * a sorted one): the same for every work-item, so every one
       * reaches every barrier. */
      bool sort = (vary >> c) & 1u;
      int  mtop = sort ? MEDIAN_RANK_P : 0;

      for (int i = lid; i < mtop; i += MEDIAN_WG)
        pr[MEDIAN_PAD (i)]
          = i < MEDIAN_RS2
              ? ((ulong) median_key_at (CLFX_SRC (src), x0, y0, i, c) << 32)
                  | (ulong) i
              : 0xfffffffffffffffful;
      barrier (CLK_LOCAL_MEM_FENCE);
      /* Phases 2 to MEDIAN_E in the first round's registers; each later
       * phase k from its largest distance down, MEDIAN_EB bits a round.
       * (Barriers in loops whose trip counts every work-item shares, none
       * under an if: see the file's head.) */
      for (int k = MEDIAN_E; k <= mtop; k <<= 1)
        for (int s = 31 - (int) clz ((uint) k) - 1, b; s >= 0; s = b - 1)
          {
            b = max (s - (MEDIAN_EB - 1), 0);
            for (int t = lid; t < MEDIAN_NS; t += MEDIAN_WG)
              median_round (pr, t, b, k == MEDIAN_E ? 2 : k, k, 1 << s);
            barrier (CLK_LOCAL_MEM_FENCE);
          }
      for (int q = lid; q < MEDIAN_RS2; q += MEDIAN_WG)
        {
          uint i = sort ? (uint) (pr[MEDIAN_PAD (q)] & 0xfffful) : (uint) q;
          rk[i * 4 + c] = (ushort) q;
          od[c * MEDIAN_RS2 + q] = (ushort) i;
        }
      barrier (CLK_LOCAL_MEM_FENCE);
    }
  for (int wid = lid; wid < MEDIAN_WALKERS; wid += MEDIAN_WG)
    {
      __local uint *bm = (__local uint *) pr;
      int           cx = wid % MEDIAN_T, c = wid / MEDIAN_T;
      int           xc = cx + MEDIAN_RANK_R;
      bool          wc = weighted && ! MEDIAN_IS_ALPHA (c);
      /* Counting: every texel of the tile weighs the same; the order
       * statistic is the window's kfix-th rank. */
      bool          counting = ! wc || wmin == wmax;
      uint          kfix = ! wc ? (MEDIAN_IS_ALPHA (c) ? ta : tc)
                                : median_uniform_rank (
                                    median_window_size (hw, MEDIAN_RANK_R),
                                    wmin, pm, ps);
      __local const ushort *odc = od + c * MEDIAN_RS2;
      int           p = -1;
      uint          C = 0u, T = 0u;
/* The colour weight of texel i. */
#define MEDIAN_WT(i) (counting ? 1u : (uint) wt[i])

      if (c < CLFX_CHANNELS)
        {
          for (int i = 0; i < MEDIAN_RW; i++)
            bm[i * MEDIAN_WALKERS + wid] = 0u;
          for (int di = -MEDIAN_RANK_R; di <= MEDIAN_RANK_R; di++)
            {
              int h = hw[di + MEDIAN_RANK_R];
              for (int dj = -h; dj <= h; dj++)
                {
                  int i = (MEDIAN_RANK_R + di) * MEDIAN_RS + xc + dj;
                  int q = rk[i * 4 + c];
                  MEDIAN_SET (q);
                  T += MEDIAN_WT (i);
                }
            }
        }
      for (int row = 0; row < MEDIAN_T; row++)
        {
          uint val = 0u;

          if (c >= CLFX_CHANNELS)
            {
              res[(row * MEDIAN_T + cx) * 4 + c] = 0u;
              continue;
            }
          if (row > 0)
            {
              int yc = row + MEDIAN_RANK_R;
              /* Unrolled, and on GPUs each bit flipped by an atomic whose
               * result is not waited for: the ranks' loads of a step go
               * out together, where a load, modify and store per texel
               * made every update wait for the one before. */
#pragma unroll
              for (int dj = -MEDIAN_RANK_R; dj <= MEDIAN_RANK_R; dj++)
                {
                  int  v = hw[dj + MEDIAN_RANK_R];
                  int  io = (yc - 1 - v) * MEDIAN_RS + xc + dj;
                  int  ii = (yc + v) * MEDIAN_RS + xc + dj;
                  int  qo = rk[io * 4 + c], qi = rk[ii * 4 + c];
                  uint wo = MEDIAN_WT (io), wi = MEDIAN_WT (ii);
                  MEDIAN_FLIP (qo);
                  MEDIAN_FLIP (qi);
                  T += wi - wo;
                  C += (qi <= p ? wi : 0u) - (qo <= p ? wo : 0u);
                }
            }
          if (counting ? kfix != 0u : T != 0u)
            {
              if (counting)
                {
                  p = median_bits_count (bm + wid, MEDIAN_WALKERS, MEDIAN_RW,
                                         p, C, kfix);
                  C = kfix;
                }
              else
                p = median_bits_walk (bm + wid, MEDIAN_WALKERS, MEDIAN_RW,
                                      wt, odc, p, &C,
                                      median_target (T, pm, ps));
              /* The selected texel's value, fetched again (the keys are
               * not kept): the value its key gives back. */
              val = as_uint (median_value ((uint4) (median_key_at (
                               CLFX_SRC (src), x0, y0, odc[max (p, 0)], c)))
                               .x);
            }
          /* A window of no weight: colour 0 (GEGL's). */
          res[(row * MEDIAN_T + cx) * 4 + c] = val;
        }
#undef MEDIAN_WT
    }
  barrier (CLK_LOCAL_MEM_FENCE);
  for (int o = lid; o < MEDIAN_T * MEDIAN_T; o += MEDIAN_WG)
    {
      int gx = ox + o % MEDIAN_T, gy = oy + o / MEDIAN_T;
      if (gx < dst_rect.z && gy < dst_rect.w)
        CLFX_STORE (CLFX_DST_X (gx), CLFX_DST_Y (gy),
                    as_float4 (vload4 (o, res)));
    }
}
#undef MEDIAN_BIT
#undef MEDIAN_MASK
#undef MEDIAN_FLIP
#undef MEDIAN_SET
#endif

#ifdef MEDIAN_CPU_R
/* CPU devices, every window past the network's (built for radius
 * MEDIAN_CPU_R and a tile of MEDIAN_CPU_W x MEDIAN_CPU_H results): the
 * ranks of median_rl, in the form a CPU runs well.  A group is one
 * work-item, so there are no barriers (PoCL splits a kernel's loops at
 * each one) and the tile can be large: its (MEDIAN_CPU_W + 2r) x
 * (MEDIAN_CPU_H + 2r) texels are sorted once per channel by a radix sort
 * on the keys' bytes (a pass per byte in which the tile's keys differ:
 * one for 8-bit data), a few
 * operations per result where median_rl's bitonic sort of a 16 x 16
 * results' tile took some hundred.  Then each column of results walks
 * down as median_rl's walkers do, a channel at a time.  Where every
 * texel of the tile weighs the same (no straight alpha, alpha itself, an
 * opaque tile) the order statistic is the k-th rank of the window, found
 * by counting the bitmap's bits a word at a time (popcount); where the
 * weights differ, the pointer moves rank by rank with their sums. */
#define MEDIAN_CSX (MEDIAN_CPU_W + 2 * MEDIAN_CPU_R)
#define MEDIAN_CS2 (MEDIAN_CSX * (MEDIAN_CPU_H + 2 * MEDIAN_CPU_R))
#define MEDIAN_CWW ((MEDIAN_CS2 + 31) / 32)

__kernel __attribute__ ((reqd_work_group_size (1, 1, 1))) void
median_rc (CLFX_SRC_ARGS (src), CLFX_DST_ARGS, MEDIAN_ARGS)
{
  /* kc: channel c's key of texel i at kc[c CS2 + i]; wt: colour weights;
   * ka, kb, ia, ib: the sort's keys and texels, by turns; rk: each
   * texel's rank; bm: a column's window; res: the results, four floats
   * each. */
  __local uint   kc[4 * MEDIAN_CS2];
  __local uint   ka[MEDIAN_CS2], kb[MEDIAN_CS2];
  __local ushort ia[MEDIAN_CS2], ib[MEDIAN_CS2];
  __local ushort rk[MEDIAN_CS2];
  __local ushort wt[MEDIAN_CS2];
  __local uint   hist[256];
  __local uint   bm[MEDIAN_CWW];
  __local float  res[4 * MEDIAN_CPU_W * MEDIAN_CPU_H];
  int            ox = get_group_id (0) * MEDIAN_CPU_W;
  int            oy = get_group_id (1) * MEDIAN_CPU_H;
  int            x0 = dst_rect.x + ox - MEDIAN_CPU_R;
  int            y0 = dst_rect.y + oy - MEDIAN_CPU_R;
  int            cols = min (MEDIAN_CPU_W, dst_rect.z - ox);
  int            rows = min (MEDIAN_CPU_H, dst_rect.w - oy);
  uint4          k0 = median_key (clfx_fetch (CLFX_SRC (src), x0, y0));
  uint4          d = (uint4) (0u);
  uint           wmin = 0xffffffffu, wmax = 0u;
  uint           n = median_window_size (hw, MEDIAN_CPU_R);

  for (int j = 0, i = 0; j < MEDIAN_CPU_H + 2 * MEDIAN_CPU_R; j++)
    for (int x = 0; x < MEDIAN_CSX; x++, i++)
      {
        float4 v = clfx_fetch (CLFX_SRC (src), x0 + x, y0 + j);
        uint4  k = median_key (v);
        uint   w = median_weight_of (v, weighted, wscale);
        kc[i] = k.x;
        kc[MEDIAN_CS2 + i] = k.y;
        kc[2 * MEDIAN_CS2 + i] = k.z;
        kc[3 * MEDIAN_CS2 + i] = k.w;
        wt[i] = (ushort) w;
        wmin = min (wmin, w);
        wmax = max (wmax, w);
        d |= k ^ k0;
      }

  for (int c = 0; c < 4; c++)
    {
      __local const uint *key = kc + c * MEDIAN_CS2;
      uint dc = c == 0 ? d.x : c == 1 ? d.y : c == 2 ? d.z : d.w;
      bool wc = weighted && ! MEDIAN_IS_ALPHA (c);
      /* Counting: every texel of the tile weighs w; the k-th rank of
       * the window is the one whose weight first reaches the target. */
      bool counting = ! wc || wmin == wmax;
      uint kfix = MEDIAN_IS_ALPHA (c) ? ta : tc;

      if (c >= CLFX_CHANNELS)
        {
          for (int o = 0; o < MEDIAN_CPU_W * MEDIAN_CPU_H; o++)
            res[o * 4 + c] = 0.0f;
          continue;
        }
      if (wc && counting)
        kfix = median_uniform_rank (n, wmin, pm, ps);
      /* One value throughout the tile (an opaque image's alpha, a flat
       * region), every texel weighing the same: every window's order
       * statistic is that value (none where the weight is 0). */
      if (counting && ! dc)
        {
          float val = kfix ? median_value ((uint4) (key[0])).x : 0.0f;
          for (int o = 0; o < MEDIAN_CPU_W * MEDIAN_CPU_H; o++)
            res[o * 4 + c] = val;
          continue;
        }

      /* The sort: least significant byte first, stable, skipping the
       * bytes in which no two keys differ; od: the texel of each rank
       * (the texels' own order where no pass ran). */
      __local const uint   *sk = key;
      __local const ushort *od = ia;
      int                   npass = 0;

      for (int s = 0; s < 32; s += 8)
        {
          __local uint   *dk = (npass & 1) ? kb : ka;
          __local ushort *dt = (npass & 1) ? ib : ia;

          if (! ((dc >> s) & 0xffu))
            continue;
          for (int b = 0; b < 256; b++)
            hist[b] = 0u;
          for (int q = 0; q < MEDIAN_CS2; q++)
            hist[(sk[q] >> s) & 0xffu]++;
          for (uint b = 0, sum = 0u; b < 256; b++)
            {
              uint h = hist[b];
              hist[b] = sum;
              sum += h;
            }
          for (int q = 0; q < MEDIAN_CS2; q++)
            {
              uint k = sk[q], at = hist[(k >> s) & 0xffu]++;
              dk[at] = k;
              dt[at] = npass ? od[q] : (ushort) q;
            }
          sk = dk;
          od = dt;
          npass++;
        }
      if (! npass)
        for (int q = 0; q < MEDIAN_CS2; q++)
          ia[q] = (ushort) q;
      for (int q = 0; q < MEDIAN_CS2; q++)
        rk[od[q]] = (ushort) q;

      for (int cx = 0; cx < cols; cx++)
        {
          int  xc = cx + MEDIAN_CPU_R;
          int  p = -1;
          uint C = 0u, T = 0u;
/* The colour weight of texel i. */
#define MEDIAN_CWT(i) (counting ? 1u : (uint) wt[i])

          for (int i = 0; i < MEDIAN_CWW; i++)
            bm[i] = 0u;
          for (int di = -MEDIAN_CPU_R; di <= MEDIAN_CPU_R; di++)
            {
              int h = hw[di + MEDIAN_CPU_R];
              int i = (MEDIAN_CPU_R + di) * MEDIAN_CSX + xc;
              for (int dj = -h; dj <= h; dj++)
                {
                  int q = rk[i + dj];
                  bm[q >> 5] |= 1u << (q & 31);
                  T += MEDIAN_CWT (i + dj);
                }
            }
          for (int row = 0; row < rows; row++)
            {
              float val = 0.0f;

              if (row > 0)
                {
                  int yc = row + MEDIAN_CPU_R;
                  for (int dj = -MEDIAN_CPU_R; dj <= MEDIAN_CPU_R; dj++)
                    {
                      int  v = hw[dj + MEDIAN_CPU_R];
                      int  io = (yc - 1 - v) * MEDIAN_CSX + xc + dj;
                      int  ii = (yc + v) * MEDIAN_CSX + xc + dj;
                      int  qo = rk[io], qi = rk[ii];
                      uint wo = MEDIAN_CWT (io), wi = MEDIAN_CWT (ii);
                      bm[qo >> 5] ^= 1u << (qo & 31);
                      bm[qi >> 5] ^= 1u << (qi & 31);
                      T += wi - wo;
                      C += (qi <= p ? wi : 0u) - (qo <= p ? wo : 0u);
                    }
                }
              if (counting ? kfix != 0u : T != 0u)
                {
                  if (counting)
                    {
                      p = median_bits_count (bm, 1, MEDIAN_CWW, p, C, kfix);
                      C = kfix;
                    }
                  else
                    p = median_bits_walk (bm, 1, MEDIAN_CWW, wt, od, p, &C,
                                          median_target (T, pm, ps));
                  val = median_value ((uint4) (key[od[max (p, 0)]])).x;
                }
              /* A window of no weight: colour 0 (GEGL's). */
              res[(row * MEDIAN_CPU_W + cx) * 4 + c] = val;
            }
#undef MEDIAN_CWT
        }
    }
  for (int row = 0; row < rows; row++)
    for (int cx = 0; cx < cols; cx++)
      CLFX_STORE (CLFX_DST_X (ox + cx), CLFX_DST_Y (oy + row),
                  vload4 (row * MEDIAN_CPU_W + cx, res));
}
#endif
