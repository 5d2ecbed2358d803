/* SPDX-License-Identifier: GPL-3.0-or-later */
/* median-rank-cpu.cl: the median of windows past the network's on CPU
 * devices (built for radius MEDIAN_CPU_R): the ranks of median-rank.cl in
 * the form a CPU runs well, median_rank_cpu.  A group is one work-item,
 * so there are no barriers (PoCL splits a kernel's loops at each one) and
 * the tile can be large: its (MEDIAN_CPU_W + 2r) x (MEDIAN_CPU_H + 2r)
 * texels, for MEDIAN_CPU_W x MEDIAN_CPU_H results, are sorted once per
 * channel by a radix sort on the keys' bytes (a pass per byte in which the
 * tile's keys differ: one for 8-bit data), a few operations per result
 * where median_rank_tile's bitonic sort of a 16 x 16 results' tile took
 * some hundred.  Then each column of results walks down as
 * median_rank_tile's walkers do, a channel at a time.  Where every texel
 * of the tile weighs the same (no straight alpha, alpha itself, an opaque
 * tile) the order statistic is the k-th rank of the window, found by
 * counting the bitmap's bits a word at a time (popcount); where the
 * weights differ, the pointer moves rank by rank with their sums. */
#include "median-ranks.h"

#define MEDIAN_CSX (MEDIAN_CPU_W + 2 * MEDIAN_CPU_R)
#define MEDIAN_CS2 (MEDIAN_CSX * (MEDIAN_CPU_H + 2 * MEDIAN_CPU_R))
#define MEDIAN_CWW ((MEDIAN_CS2 + 31) / 32)

__kernel __attribute__ ((reqd_work_group_size (1, 1, 1))) void
median_rank_cpu (CLFX_SRC_ARGS (src), CLFX_DST_ARGS, MEDIAN_ARGS)
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
