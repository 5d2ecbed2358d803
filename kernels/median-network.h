/* SPDX-License-Identifier: GPL-3.0-or-later */
/* median-network.h: the median of windows up to 49 texels by sorting
 * networks, one window at a time (MEDIAN_NET), for median-network.cl
 * (GPUs) and median-network-cpu.cl (CPU devices); the comparators are
 * generated into median-networks.h.
 *
 * The host builds these kernels for the window: radius MEDIAN_R, shape
 * MEDIAN_SHAPE, size MEDIAN_N up to 49 texels, and the ranks MEDIAN_RC of
 * colour and MEDIAN_RA of alpha, from 1, where every texel weighs the
 * same.  The window's keys go into registers once and a sorting network
 * orders them (all four channels at once, uint4 min / max, no branch);
 * each lane takes its rank.  The network is written out
 * (median-networks.h) and the ranks are constants, so every index is
 * known to the compiler: the keys stay in registers (loops that built the
 * network were not all unrolled by NVIDIA's compiler, and the window went
 * to private memory) and the comparators that do not lead to the picked
 * ranks are left out (25 texels: 140 comparators sort, fewer select the
 * median).
 *
 * The ranks hold where every weight is the same: images without straight
 * alpha (every texel weighs 1), and opaque windows of straight-alpha
 * images (every weight MEDIAN_WFULL, the host's ranks for it).  A window
 * of straight alpha that is transparent throughout (every weight 0) gives
 * colour 0 and alpha's rank.  In other windows (their alpha varies, or is
 * the same partial value throughout), on CPU devices, the weights travel
 * with their keys through the same network (a compare and four selects
 * per comparator: windows up to MEDIAN_WNET_MAX texels) and a walk over
 * the sorted window finds where each lane's cumulative weight reaches its
 * target; larger windows, and every such window on GPUs, take the radix
 * selection (median-windows.h), exact for any weights.  On PoCL the radix
 * selection cost several times the carried network; on GPUs the carried
 * network's registers made every window slower. */
#include "median-windows.h"
#include "median-networks.h"

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

/* Every network's size: on PoCL, with straight alpha varying everywhere,
 * the carried network took a tenth of the radix selection's time up to
 * 7 x 7, for about half a second more to build. */
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

