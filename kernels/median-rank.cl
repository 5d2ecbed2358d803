/* SPDX-License-Identifier: GPL-3.0-or-later */
/* median-rank.cl: the median of windows past the network's by ranks in a
 * tile and a window that slides down each column (radius MEDIAN_RANK_R up
 * to 8, built for it): median_rank_tile, on GPUs and on CPU devices that
 * read images (median_rank_cpu serves CPU devices' buffers).
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
 * groups on each multiprocessor and were slower).
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
 * (median_bits_count); elsewhere it moves rank by rank with the weights'
 * sums (median_bits_walk).  A radix selection instead read the whole
 * window once per bit of the ranks (10 times).  The shapes are symmetric
 * under transposition, so a column dj of the window spans the rows
 * |di| <= hw[dj + r]. */
#include "median-ranks.h"

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
median_rank_tile (CLFX_SRC_ARGS (src), CLFX_DST_ARGS, MEDIAN_ARGS)
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
       * under an if: see median-windows.h.) */
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
