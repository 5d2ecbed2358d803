/* SPDX-License-Identifier: GPL-3.0-or-later */
/* median-network-cpu.cl: the median of windows up to 49 texels on CPU
 * devices (median-network.h), from the buffers of median_keys. */
#include "median-network.h"

/* median_network_cpu (CPU devices): MEDIAN_V neighbouring results of a
 * row per work-item, the keys of their windows' texels at one offset four
 * uint4 in a row, so one uint16 per offset and one comparator order the
 * four windows at once (PoCL runs a work-item's arithmetic one pixel at a
 * time: the one-result form orders a uint4).  Windows whose weights are
 * each one value the ranks take (1, 0 or MEDIAN_WFULL throughout) go
 * through the plain network; others, up to MEDIAN_WNET_MAX texels and
 * none without weight, through the network that carries the weights and
 * the walk, four at a time as well.  The rest, and the results past the
 * last column, one at a time by MEDIAN_NET.  An order statistic is exact
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
median_network_cpu (__global const uint4 *keys, __global const uint *wts,
                    int4 rect, CLFX_DST_ARGS, MEDIAN_ARGS)
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
