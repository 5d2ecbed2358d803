/* SPDX-License-Identifier: GPL-3.0-or-later */
/* median-windows.h: how the network and radix kernels read a pixel's
 * window, and the radix selection over it.
 *
 * Buffer forms (CPU devices, and windows whose tile does not fit local
 * memory): median_keys converts the source's texels into buffers of keys
 * and weights once, and each work-item reads its window there (KW_B).
 * Tile forms (GPUs): a MEDIAN_T x MEDIAN_T group copies the keys and
 * weights of its (MEDIAN_T + 2r)^2 texels into local memory once (one
 * fetch and one key conversion per texel, median_tile), then every pass
 * reads them from there (KW_L): a texture fetch per value and pass would
 * make the passes fetch-bound.  One unconditional barrier, no return
 * before or after it (PoCL 6.0: see filter-fir.cl).
 *
 * The radix selection (MEDIAN_SELECT), exact for any size and weights:
 * one pass per bit from the highest bit in which the window's smallest and
 * largest keys differ (a first pass finds them; a window of one value
 * needs no other), each pass counting the weight at or below the
 * candidate in all four channels at once (uint4 compares and selects, no
 * branch per value).  8-bit data take at most 8 passes, float data as
 * many as their window's range spans (about 25 for [0, 1]). */
#include "median-keys.h"

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

/* A texel of the buffers (o: the window's centre, rect: the buffers'
 * rectangle), for median_radix_buffers and the network's buffer forms. */
#define KW_B(di, dj, k, w)                                                   \
  do                                                                         \
    {                                                                        \
      k = keys[o + (long) (di) * rect.z + (dj)];                             \
      w = wts[o + (long) (di) * rect.z + (dj)];                              \
    }                                                                        \
  while (0)

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

/* A texel of a group's tile (o: the window's centre, span: the tile's
 * width), for median_radix_tile and median_network_tile. */
#define KW_L(di, dj, k, w)                                                   \
  do                                                                         \
    {                                                                        \
      k = keys[o + (di) * span + (dj)];                                      \
      w = wts[o + (di) * span + (dj)];                                       \
    }                                                                        \
  while (0)
