/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tonemap-select.h: what the tone-map family's local operators share on
 * the device beside the statistics (fattal02.cl, mantiuk06.cl):
 * deterministic sums of one float per pixel, and order statistics of
 * such an image by radix selection.  Only inline functions: each program
 * keeps its own kernels (whose declarations the binary cache reads), and
 * they call these.
 *
 * A sum of n floats: group g of TM_SEL_GROUP work-items owns the chunk
 * [g chunk, (g + 1) chunk), each work-item a strided compensated sum,
 * then a tree in local memory; the groups' partials are added the same
 * way by one group.  No atomics: every run adds in the same order.
 *
 * Selection: the key is a float's bits made to sort as unsigned
 * integers; three passes of 11, 11 and 10 bits each count, for two ranks
 * at once, the keys that match the bits found so far (sel: key prefix,
 * remaining rank, for the first rank then the second), then one group
 * finds the bin holding each rank.  Counts are integers: the same
 * whatever order the atomics take. */
#ifndef TONEMAP_SELECT_H
#define TONEMAP_SELECT_H

#include "tonemap-common.h"

/* The tree over the TM_SEL_GROUP values in s, by nl work-items. */
inline float
tm_sel_tree_of (__local float *s, int lx, int nl)
{
  for (int span = TM_SEL_GROUP / 2; span > 0; span /= 2)
    {
      barrier (CLK_LOCAL_MEM_FENCE);
      for (int i = lx; i < span; i += nl)
        s[i] += s[i + span];
    }
  barrier (CLK_LOCAL_MEM_FENCE);
  return s[0];
}

inline float
tm_sel_tree (__local float *s, int lx, float v)
{
  s[lx] = v;
  return tm_sel_tree_of (s, lx, TM_SEL_GROUP);
}

/* The group's part of the sum of v[0 .. n) (work-item lx of
 * TM_SEL_GROUP, group g). */
inline float
tm_sum_part (__global const float *v, long n, long chunk, int lx, int g,
             __local float *s)
{
  long  a = (long) g * chunk, b = min (a + chunk, n);
  float sum = 0.0f, comp = 0.0f;

  for (long i = a + lx; i < b; i += TM_SEL_GROUP)
    tm_kahan (&sum, &comp, v[i]);
  return tm_sel_tree (s, lx, sum);
}

/* tm_sum_part in the CPU devices' form: TM_SEL_GROUP / 8 work-items a
 * group, each the sums of eight of tm_sum_part's work-items, a lane each
 * (past the chunk's end a lane is left as it is), then the same tree: the
 * same partial. */
inline float
tm_sum_part_v (__global const float *v, long n, long chunk, int lx, int g,
               __local float *s)
{
  long   a = (long) g * chunk, b = min (a + chunk, n);
  float8 sum = (float8) (0.0f), comp = (float8) (0.0f);
  int8   lane = (int8) (0, 1, 2, 3, 4, 5, 6, 7);

  for (long i = a + 8 * lx; i < b; i += TM_SEL_GROUP)
    {
      float8 x, y, t;
      int8   in = (int8) (b - i > 8 ? 8 : (int) (b - i)) > lane;
      if (b - i >= 8)
        x = vload8 (0, v + i);
      else
        {
          float u[8];
          for (int k = 0; k < 8; k++)
            u[k] = v[i + min ((long) k, b - i - 1)];
          x = vload8 (0, u);
        }
      /* tm_kahan, a lane per work-item of tm_sum_part's. */
      y = x - comp;
      t = sum + y;
      comp = in ? (t - sum) - y : comp;
      sum = in ? t : sum;
    }
  vstore8 (sum, lx, s);
  return tm_sel_tree_of (s, lx, TM_SEL_GROUP / 8);
}

/* The sum of n partials (one group of TM_SEL_GROUP). */
inline float
tm_sum_final (__global const float *partials, int n, int lx,
              __local float *s)
{
  float sum = 0.0f, comp = 0.0f;

  for (int i = lx; i < n; i += TM_SEL_GROUP)
    tm_kahan (&sum, &comp, partials[i]);
  return tm_sel_tree (s, lx, sum);
}

inline uint
tm_sel_key (float v)
{
  uint k = as_uint (v);

  return (k & 0x80000000u) ? ~k : k | 0x80000000u;
}

inline float
tm_sel_unkey (uint k)
{
  return as_float ((k & 0x80000000u) ? k & 0x7fffffffu : ~k);
}

/* The selection's prefixes so far (known bits of the key, 0 in the first
 * pass) of the two ranks. */
inline void
tm_sel_tops (__global const uint *sel, int known, uint top[2])
{
  for (int t = 0; t < 2; t++)
    top[t] = known ? sel[2 * t] >> (32 - known) : 0;
}

/* Which of the two histograms value u counts in (bit t for rank t: its
 * key's known bits are that prefix), and its bin there. */
inline int
tm_sel_which (float u, int known, int shift, const uint top[2], uint *bin)
{
  uint k = tm_sel_key (u);
  int  m = 0;

  *bin = (k >> shift) & (TM_SEL_BINS - 1);
  for (int t = 0; t < 2; t++)
    if (! known || (k >> (32 - known)) == top[t])
      m |= 1 << t;
  return m;
}

/* A pass's counts over U's chunk of group g into hist (2 TM_SEL_BINS),
 * by the group's nl work-items through local counts lh. */
inline void
tm_sel_hist (__global const float *U, long n, long chunk,
             __global const uint *sel, int known, int shift,
             __global uint *hist, __local uint *lh)
{
  int  lx = get_local_id (0), nl = get_local_size (0), g = get_group_id (0);
  long a = (long) g * chunk, b = min (a + chunk, n);
  uint top[2], bin;

  for (int i = lx; i < 2 * TM_SEL_BINS; i += nl)
    lh[i] = 0;
  tm_sel_tops (sel, known, top);
  barrier (CLK_LOCAL_MEM_FENCE);
  for (long i = a + lx; i < b; i += nl)
    {
      int m = tm_sel_which (U[i], known, shift, top, &bin);
      for (int t = 0; t < 2; t++)
        if (m & 1 << t)
          atomic_inc (&lh[t * TM_SEL_BINS + bin]);
    }
  barrier (CLK_LOCAL_MEM_FENCE);
  for (int i = lx; i < 2 * TM_SEL_BINS; i += nl)
    if (lh[i])
      atomic_add (&hist[i], lh[i]);
}

/* tm_sel_key eight wide. */
inline uint8
tm_sel_key8 (float8 v)
{
  uint8 k = as_uint8 (v);

  return (k & 0x80000000u) != 0 ? ~k : k | 0x80000000u;
}

/* tm_sel_hist in the CPU devices' form: one work-item a group, which
 * counts its chunk with plain increments (PoCL's local atomic increments
 * took most of the time), in the first pass (nothing known, the two
 * histograms alike) once; eight values' keys and matches at a time, the
 * eight counted at once where they share a bin (first pass) and skipped
 * at once where none matches (later passes).  The same counts. */
inline void
tm_sel_hist_v (__global const float *U, long n, long chunk,
               __global const uint *sel, int known, int shift,
               __global uint *hist, __local uint *lh)
{
  long a = (long) get_group_id (0) * chunk, b = min (a + chunk, n), i = a;
  uint top[2], bin;

  for (int j = 0; j < 2 * TM_SEL_BINS; j++)
    lh[j] = 0;
  tm_sel_tops (sel, known, top);
  if (! known)
    for (; i + 8 <= b; i += 8)
      {
        uint8 bins = (tm_sel_key8 (vload8 (0, U + i)) >> shift)
                     & (TM_SEL_BINS - 1);
        int8  d = as_int8 (bins ^ (uint8) (bins.s0));
        int4  d4 = d.lo | d.hi;
        int2  d2 = d4.lo | d4.hi;
        if ((d2.x | d2.y) == 0)
          {
            /* Eight in one bin (smooth images): one addition. */
            lh[bins.s0] += 8;
            continue;
          }
        lh[bins.s0]++;
        lh[bins.s1]++;
        lh[bins.s2]++;
        lh[bins.s3]++;
        lh[bins.s4]++;
        lh[bins.s5]++;
        lh[bins.s6]++;
        lh[bins.s7]++;
      }
  else
    for (; i + 8 <= b; i += 8)
      {
        uint8 k = tm_sel_key8 (vload8 (0, U + i)), t = k >> (32 - known);
        int8  m = (t == top[0]) | (t == top[1]);
        int4  m4 = m.lo | m.hi;
        int2  m2 = m4.lo | m4.hi;
        uint  kk[8];
        /* (any () of the eight cost PoCL as much as counting them.) */
        if ((m2.x | m2.y) == 0)
          continue;
        vstore8 (k, 0, kk);
        for (int j = 0; j < 8; j++)
          {
            uint c = kk[j] >> (32 - known);
            bin = (kk[j] >> shift) & (TM_SEL_BINS - 1);
            if (c == top[0])
              lh[bin]++;
            if (c == top[1])
              lh[TM_SEL_BINS + bin]++;
          }
      }
  for (; i < b; i++)
    {
      int m = tm_sel_which (U[i], known, shift, top, &bin);
      if (m & 1)
        lh[bin]++;
      if (known && (m & 2))
        lh[TM_SEL_BINS + bin]++;
    }
  for (int j = 0; j < 2 * TM_SEL_BINS; j++)
    {
      uint c = known || j < TM_SEL_BINS ? lh[j] : lh[j - TM_SEL_BINS];
      if (c)
        atomic_add (&hist[j], c);
    }
}

/* One group of TM_SEL_GROUP: each work-item adds TM_SEL_BINS /
 * TM_SEL_GROUP bins, work-item 0 walks the sums and then the bins, and
 * updates sel; rank0, rank1: the ranks (first pass).  Returns true in
 * work-item 0 after the last pass (shift 0), with the two values in
 * v[0], v[1]. */
inline bool
tm_sel_select (__global const uint *hist, __global uint *sel, int known,
               int shift, uint rank0, uint rank1, __local uint *s,
               float v[2])
{
  int lx = get_local_id (0);
  int per = TM_SEL_BINS / TM_SEL_GROUP;

  for (int t = 0; t < 2; t++)
    {
      uint c = 0;
      for (int i = 0; i < per; i++)
        c += hist[t * TM_SEL_BINS + lx * per + i];
      s[t * TM_SEL_GROUP + lx] = c;
    }
  barrier (CLK_LOCAL_MEM_FENCE);
  if (lx != 0)
    return false;
  for (int t = 0; t < 2; t++)
    {
      uint prefix = known ? sel[2 * t] : 0;
      uint rank = known ? sel[2 * t + 1] : t ? rank1 : rank0;
      int  j = 0, bin;
      while (j < TM_SEL_GROUP - 1 && rank >= s[t * TM_SEL_GROUP + j])
        rank -= s[t * TM_SEL_GROUP + j++];
      bin = j * per;
      while (bin < (j + 1) * per - 1 && rank >= hist[t * TM_SEL_BINS + bin])
        rank -= hist[t * TM_SEL_BINS + bin++];
      prefix |= (uint) bin << shift;
      sel[2 * t] = prefix;
      sel[2 * t + 1] = rank;
      v[t] = tm_sel_unkey (prefix);
    }
  return shift == 0;
}

#endif
