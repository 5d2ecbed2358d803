/* SPDX-License-Identifier: GPL-3.0-or-later */
/* median-ranks.h: what the two forms of the sliding ranks share
 * (median-rank.cl on GPUs, median-rank-cpu.cl on CPU devices): each
 * texel's rank in a sorted tile stands for its key, and a column's window
 * is a bitmap of ranks whose set bits a pointer walks. */
#include "median-keys.h"

/* Which channel is alpha. */
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
 * walkers' windows (median_rank_tile interleaves its walkers' words). */

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
