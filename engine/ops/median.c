/* SPDX-License-Identifier: GPL-3.0-or-later */
/* median.c: the filter family's median, GEGL 0.4.62's median-blur with
 * high-precision on (docs/FILTERS.md).
 *
 * Per channel (not a vector median), the smallest value of the window
 * whose cumulative weight reaches max (1, ceil (W p)), W the window's
 * total weight, p = percentile / 100.  Colour is weighted by its texel's
 * alpha quantized as GEGL quantizes it (1024 steps; the 8-bit code for
 * 8-bit data, which GEGL keeps as codes); a window of no weight gives
 * colour 0.  Alpha counts each texel once at GEGL's default
 * alpha-percentile, 50 (there is no parameter for it).  The window's row
 * i (|i| <= radius) spans floor (sqrt ((r + 0.5)^2 - i^2)) columns either
 * side (circle), r - |i| (diamond) or r (square).
 *
 * The values are the stored ones: GEGL's high precision keeps the
 * source's transfer curve (8-bit sRGB data are ordered as codes, a linear
 * float image in linear light) and straight alpha, so the plan neither
 * decodes nor premultiplies.  Images without straight alpha (gray, or
 * alpha filtered like any channel) count every texel once.
 *
 * The CPU reference gathers each window and sorts it (qsort, NaN last),
 * then walks the cumulative weights (a window wider than the image with
 * each texel once, weighted by the taps that read it); the device sorts
 * windows up to 49
 * texels with a sorting network where the window's weights are equal
 * (CPU devices: whatever the weights); past the networks it walks a
 * bitmap of the window's ranks in the group's sorted tile down each
 * column (GPUs: radius 4 to 8; CPU devices: from radius 4 while a
 * work-item's tile of 32 x 64 results fits local memory, radius 40 on
 * PoCL), and selects by radix on the values' bits elsewhere
 * (kernels/median-network.cl, median-network-cpu.cl, median-rank.cl,
 * median-rank-cpu.cl, median-radix.cl: a program each).  Each picks a
 * value of the window, so the result is exact. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/clfx-common.h"
#include "../../kernels/median-networks.h"
#include "../../kernels/median-shapes.h"
#include "../clfx-sampler-ref.h"
#include "../clfx-tolerance.h"
#include "clfx-params.h"
#include "filter-common.h"
#include "median.h"

/* The largest radius: GEGL's own (its property's range is 0 to 100). */
#define MEDIAN_MAX_RADIUS 100
/* The largest radius median_rank_tile takes: its tile of (16 + 2r)^2
 * texels costs 18 bytes a texel, 9 a sort slot and 4 KiB the results
 * (radius 8: 31 KiB). */
#define MEDIAN_RANK_MAX 8

typedef struct
{
  int      radius;
  int     *hw;        /* half-width of each row, 2 radius + 1 */
  int      n;         /* texels in the window */
  double   p;         /* percentile / 100 */
  bool     weighted;  /* colour weighted by alpha */
  float    wscale;    /* alpha quantization: 1024, or 255 for 8-bit data */
  unsigned tc, ta;    /* targets of unweighted colour and of alpha */
  cl_ulong pm;        /* p = pm 2^-ps */
  int      ps;
  /* Windows of a size kernels/median-networks.h has a network for (up
   * to 49 texels): the network's kernels, built for this window and its
   * ranks where every texel weighs the same (median-network.cl). */
  bool     net;
  char     options[160];
  /* Radius up to MEDIAN_RANK_MAX past the network: the tile's ranks
   * and a window sliding down each column (median_rank_tile), its local
   * memory. */
  size_t   rank_local;
  char     rank_options[96];
  /* Past the network on CPU devices: median_rank_cpu's local memory. */
  size_t   cpu_local;
  char     cpu_options[96];
} State;

static void
state_free (void *data)
{
  State *st = data;

  free (st->hw);
  free (st);
}

/* Whether median-networks.h has a network for n texels. */
static bool
has_network (int n)
{
  static const int sizes[] = { CLFX_MEDIAN_NET_SIZES };

  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
    if (sizes[i] == n)
      return true;
  return false;
}

/* max (1, ceil (w p)) in double, as GEGL computes it. */
static unsigned
target (double w, double p)
{
  double t = ceil (w * p);

  return t < 1.0 ? 1u : (unsigned) t;
}

static bool
median_plan (const ClfxParams *p, const ClfxImage *src, ClfxPlan *plan,
             ClfxError *error)
{
  const ClfxFilterParams *fp = CLFX_PARAMS_OF (p, ClfxFilterParams);
  int                     r = fp->radius;
  State                  *st;

  if (! clfx_filter_edges_ok (fp->addressing, "median", error)
      || ! clfx_filter_nearest_ok (fp->sampler_filter, "median", error))
    return false;
  if (r > MEDIAN_MAX_RADIUS)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "median radius %d: the median takes radius 0 to "
                           "%d (GEGL's median-blur's range)",
                           r, MEDIAN_MAX_RADIUS);
  if (! (st = calloc (1, sizeof *st))
      || ! (st->hw = malloc ((size_t) (2 * r + 1) * sizeof *st->hw)))
    {
      free (st);
      return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
    }
  plan->state = st;
  plan->free_state = state_free;
  st->radius = r;
  for (int i = -r; i <= r; i++)
    {
      int a = abs (i), h;
      if (fp->median.neighborhood == CLFX_MEDIAN_CIRCLE)
        h = (int) sqrt ((r + 0.5) * (r + 0.5) - (double) (a * a));
      else if (fp->median.neighborhood == CLFX_MEDIAN_DIAMOND)
        h = r - a;
      else
        h = r;
      st->hw[i + r] = h;
      st->n += 2 * h + 1;
    }
  st->p = fp->median.percentile / 100.0;
  st->weighted = src->straight_alpha
                 && (src->channels == 2 || src->channels == 4);
  st->wscale = src->depth == CLFX_DEPTH_U8 ? 255.0f : 1024.0f;
  st->tc = target ((double) st->n, st->p);
  st->ta = target ((double) st->n, 0.5);
  if (st->p > 0.0)
    {
      int    e;
      double f = frexp (st->p, &e);
      st->pm = (cl_ulong) ldexp (f, 53);
      st->ps = 53 - e;
    }
  st->net = has_network (st->n);
  {
    /* The ranks where every weight is the same: 1 (no straight alpha),
     * or an opaque texel's quantized alpha, whose colour target is
     * max (1, ceil (w n p)) of the window's weight w n. */
    unsigned wfull = st->weighted ? (unsigned) st->wscale : 1u;
    unsigned rc = (target ((double) wfull * st->n, st->p) + wfull - 1)
                  / wfull;
    snprintf (st->options, sizeof st->options,
              "-DMEDIAN_N=%d -DMEDIAN_R=%d -DMEDIAN_SHAPE=%d -DMEDIAN_RC=%u "
              "-DMEDIAN_RA=%u -DMEDIAN_WFULL=%uu",
              st->n, r, fp->median.neighborhood, rc, st->ta, wfull);
  }
  if (! st->net && r <= MEDIAN_RANK_MAX)
    {
      size_t s2 = (size_t) (MEDIAN_T + 2 * r) * (size_t) (MEDIAN_T + 2 * r);
      size_t pw = 256;
      while (pw < s2)
        pw *= 2;
      st->rank_local = 18 * s2 + 8 * (pw + pw / 8)
                       + 16 * MEDIAN_T * MEDIAN_T + 4;
      snprintf (st->rank_options, sizeof st->rank_options,
                "-DMEDIAN_RANK_R=%d -DMEDIAN_RANK_P=%zu", r, pw);
    }
  if (! st->net)
    {
      size_t s2 = (size_t) (MEDIAN_CPU_W + 2 * r)
                  * (size_t) (MEDIAN_CPU_H + 2 * r);
      st->cpu_local = 30 * s2 + 4 * ((s2 + 31) / 32) + 1024
                      + 16 * MEDIAN_CPU_W * MEDIAN_CPU_H;
      snprintf (st->cpu_options, sizeof st->cpu_options, "-DMEDIAN_CPU_R=%d",
                r);
    }
  plan->width = src->width;
  plan->height = src->height;
  plan->addressing = fp->addressing;
  /* The stored values, straight alpha: GEGL's high precision keeps the
   * source's curve and orders straight colour. */
  plan->mixes = false;
  plan->straight = true;
  plan->premultiply = false;
  plan->decode = false;
  plan->halo[0] = plan->halo[1] = plan->halo[2] = plan->halo[3] = r;
  /* The buffer forms' keys and weights (20 bytes a texel) of a piece's
   * source: its result pixels, and a halo of at most 2r (W + H) + 4r^2
   * texels whatever the piece. */
  plan->bytes_per_pixel = 20;
  plan->bytes_fixed = sizeof (int) * (size_t) (2 * r + 1)
                      + 20 * ((size_t) (2 * r) * (size_t) (src->width
                                                           + src->height)
                              + 4 * (size_t) r * (size_t) r);
  return true;
}

/* ---- OpenCL ---------------------------------------------------------------- */

/* Past the networks on CPU devices (sources from buffers):
 * median_rank_cpu, while its tile fits local memory.  Radius 4 to 8 past
 * the networks elsewhere: median_rank_tile.  GPUs, other windows: the
 * tile forms (median_network_tile, median_radix_tile) while the group's
 * tile of keys and weights fits (20 bytes a texel: radius up to 16 with
 * 48 KiB).  CPU devices, and larger windows: the source's keys and
 * weights into buffers once (median_keys), then a result per work-item
 * from there (median_network_cpu: four).  The sorting network for
 * windows up to 49 texels, the radix selection past them.  Each
 * algorithm is a program of its own, so a run builds only the one it
 * launches. */
static bool
median_cl (ClfxGraph *g, const ClfxParams *p, ClfxError *error)
{
  const State          *st = clfx_graph_plan (g)->state;
  const ClfxTile       *t = clfx_graph_tile (g);
  const ClfxDeviceInfo *dev = clfx_graph_device (g);
  int                   w = t->out.width, h = t->out.height;
  size_t                span = (size_t) (MEDIAN_T + 2 * st->radius);
  size_t                lk = span * span * 16, lw = span * span * 4;
  size_t                n_in = (size_t) t->in.width * (size_t) t->in.height;
  bool                  local = ! clfx_graph_source_is_buffer (g)
                                && lk + lw + 1024 <= dev->local_mem
                                && dev->max_work_group
                                     >= MEDIAN_T * MEDIAN_T;
  bool                  cpu = ! strcmp (dev->type, "cpu");
  /* CPU devices past the network (sources from buffers). */
  bool                  cpu_rank = cpu && st->cpu_local
                                   && clfx_graph_source_is_buffer (g)
                                   && st->cpu_local + 1024
                                        <= dev->local_mem;
  ClfxLaunch            lc = { "median_rank_cpu", st->cpu_options,
                               "median-rank-cpu", 2,
                               { (size_t) ((w + MEDIAN_CPU_W - 1)
                                           / MEDIAN_CPU_W),
                                 (size_t) ((h + MEDIAN_CPU_H - 1)
                                           / MEDIAN_CPU_H) },
                               { 1, 1 } };
  bool                  rank = st->rank_local
                               && st->rank_local + 1024 <= dev->local_mem
                               && dev->max_work_group
                                    >= MEDIAN_T * MEDIAN_RANK_GY;
  const char           *opt = st->net ? st->options : NULL;
  /* The walkers' bit flips: atomics whose result a GPU does not wait for
   * (a load, modify and store made each update wait for the one before);
   * plain ones in the CPU devices' form (sources from buffers), where an
   * atomic costs more (PoCL, 1024^2 radius 8: 0.94-1.02 s against
   * 1.34-1.46 s).  Each walker owns its words, so either is safe; a CPU
   * device told CLFX_SOURCE=image runs (and tests) the GPUs' form. */
  char                  rank_opt[sizeof st->rank_options + 32];
  ClfxLaunch            lr = { "median_rank_tile", rank_opt, "median-rank", 2,
                               { (size_t) w,
                                 (size_t) ((h + MEDIAN_T - 1) / MEDIAN_T)
                                   * MEDIAN_RANK_GY },
                               { MEDIAN_T, MEDIAN_RANK_GY } };
  cl_int4               rect = { { t->in.x, t->in.y, t->in.width,
                                   t->in.height } };
  /* CPU devices' network: MEDIAN_V results per work-item. */
  bool                  lanes = ! local && st->net && cpu;
  /* The program of the algorithm and form (median_keys is in each that
   * reads buffers). */
  const char           *prog = ! st->net ? "median-radix"
                                : lanes  ? "median-network-cpu"
                                         : "median-network";
  ClfxLaunch            l = { local   ? (st->net ? "median_network_tile"
                                                 : "median_radix_tile")
                              : lanes ? "median_network_cpu"
                              : st->net ? "median_network_buffers"
                                        : "median_radix_buffers",
                              opt,
                              prog,
                              2,
                              { lanes ? ((size_t) w + MEDIAN_V - 1) / MEDIAN_V
                                      : (size_t) w,
                                (size_t) h },
                              { local ? MEDIAN_T : 0, local ? MEDIAN_T : 0 } };
  ClfxLaunch            lk_ = { "median_keys", opt, prog, 2,
                                { (size_t) t->in.width,
                                  (size_t) t->in.height },
                                { 0, 0 } };
  cl_mem                hw, keys, wts;

  (void) p;
  snprintf (rank_opt, sizeof rank_opt, "%s -DMEDIAN_ATOMIC_FLIPS=%d",
            st->rank_options, clfx_graph_source_is_buffer (g) ? 0 : 1);
  if (! (hw = clfx_graph_table (g, "half-widths", st->hw,
                                sizeof (int) * (size_t) (2 * st->radius + 1),
                                error)))
    return false;
  if (cpu_rank || rank)
    return CLFX_LAUNCH (g, cpu_rank ? &lc : &lr, error, CLFX_SRC, CLFX_DST,
                        CLFX_ARG (hw), CLFX_INT (st->radius), CLFX_INT (st->weighted),
                        CLFX_FLOAT (st->wscale), CLFX_ARG (st->tc),
                        CLFX_ARG (st->ta), CLFX_ARG (st->pm),
                        CLFX_INT (st->ps));
  if (local)
    return CLFX_LAUNCH (g, &l, error, CLFX_SRC, CLFX_DST, CLFX_ARG (hw),
                        CLFX_INT (st->radius), CLFX_INT (st->weighted),
                        CLFX_FLOAT (st->wscale), CLFX_ARG (st->tc),
                        CLFX_ARG (st->ta), CLFX_ARG (st->pm),
                        CLFX_INT (st->ps), CLFX_LOCAL (lk), CLFX_LOCAL (lw));
  return (keys = clfx_graph_buffer (g, "keys", n_in * 16, error))
         && (wts = clfx_graph_buffer (g, "weights", n_in * 4, error))
         && CLFX_LAUNCH (g, &lk_, error, CLFX_SRC, CLFX_ARG (keys),
                         CLFX_ARG (wts), CLFX_ARG (rect),
                         CLFX_INT (st->weighted), CLFX_FLOAT (st->wscale))
         && CLFX_LAUNCH (g, &l, error, CLFX_ARG (keys), CLFX_ARG (wts),
                         CLFX_ARG (rect), CLFX_DST, CLFX_ARG (hw),
                         CLFX_INT (st->radius), CLFX_INT (st->weighted),
                         CLFX_FLOAT (st->wscale), CLFX_ARG (st->tc),
                         CLFX_ARG (st->ta), CLFX_ARG (st->pm),
                         CLFX_INT (st->ps));
}

/* ---- CPU reference ------------------------------------------------------------ */

typedef struct
{
  float    v;
  unsigned w;
} Entry;

/* Ascending, NaN after everything. */
static int
entry_cmp (const void *a, const void *b)
{
  float x = ((const Entry *) a)->v, y = ((const Entry *) b)->v;

  if (isnan (x) || isnan (y))
    return isnan (x) - isnan (y);
  return (x > y) - (x < y);
}

/* The smallest value whose cumulative weight reaches max (1, ceil (W p));
 * W = 0: 0. */
static float
order_statistic (Entry *e, int n, double p)
{
  double   total = 0.0, sum = 0.0, t;

  for (int i = 0; i < n; i++)
    total += e[i].w;
  if (total == 0.0)
    return 0.0f;
  qsort (e, (size_t) n, sizeof *e, entry_cmp);
  t = fmax (1.0, ceil (total * p));
  for (int i = 0; i < n; i++)
    if ((sum += e[i].w) >= t)
      return e[i].v;
  return e[n - 1].v;
}

/* The window of (x, y) into win, n entries, each texel's taps counted in
 * mult.  A window wider than the image along an axis reads texels many
 * times over: there (slot not NULL, -1 throughout, as it is left) the
 * taps that read one texel are one entry, found by the texel's index per
 * outgrown axis (0: clamp's transparent texel outside) and by the offset
 * along the other; the order statistic over weights times counts is the
 * same, at a cost of the texels the window holds.  Elsewhere an entry per
 * tap. */
static int
gather (const State *st, const ClfxImage *src, ClfxSamplerDesc s, int x,
        int y, int *slot, int *key, float (*win)[4], unsigned *mult)
{
  int  r = st->radius, n = 0;
  bool gx = 2 * r + 1 > src->width, gy = 2 * r + 1 > src->height;
  int  ax = gx ? src->width + 1 : 2 * r + 1;
  int  col[2 * MEDIAN_MAX_RADIUS + 1];

  for (int j = -r; slot && j <= r; j++)
    col[j + r] = gx ? clfx_address (x + j, src->width, s.addressing) + 1
                    : j + r;
  for (int i = -r; i <= r; i++)
    {
      int row = slot ? (gy ? clfx_address (y + i, src->height, s.addressing)
                               + 1
                           : i + r)
                         * ax
                     : 0;
      for (int j = -st->hw[i + r]; j <= st->hw[i + r]; j++)
        {
          int k;
          if (! slot)
            {
              clfx_ref_fetch (src, s, x + j, y + i, win[n]);
              mult[n++] = 1;
              continue;
            }
          k = row + col[j + r];
          if (slot[k] < 0)
            {
              slot[k] = n;
              key[n] = k;
              clfx_ref_fetch (src, s, x + j, y + i, win[n]);
              mult[n++] = 0;
            }
          mult[slot[k]]++;
        }
    }
  for (int k = 0; slot && k < n; k++)
    slot[key[k]] = -1;
  return n;
}

static bool
median_cpu (const ClfxParams *p, const ClfxPlan *plan, const ClfxImage *src,
            ClfxImage *dst, ClfxProbes *probes, ClfxError *error)
{
  const State    *st = plan->state;
  ClfxSamplerDesc s = { true, plan->addressing, false, false, false };
  int             r = st->radius, colour = src->channels == 4 ? 3 : 1;
  int             alpha = src->channels == 4 ? 3 : 1;
  bool            gx = 2 * r + 1 > src->width, gy = 2 * r + 1 > src->height;
  size_t          slots = (size_t) (gx ? src->width + 1 : 2 * r + 1)
                 * (size_t) (gy ? src->height + 1 : 2 * r + 1);
  float          (*win)[4] = malloc ((size_t) st->n * sizeof *win);
  Entry          *e = malloc ((size_t) st->n * sizeof *e);
  unsigned       *mult = malloc ((size_t) st->n * sizeof *mult);
  int            *key = malloc ((size_t) st->n * sizeof *key);
  int            *slot = gx || gy ? malloc (slots * sizeof *slot) : NULL;
  bool            ok = win && e && mult && key && (slot || ! (gx || gy));

  (void) p;
  (void) probes;
  for (size_t k = 0; ok && slot && k < slots; k++)
    slot[k] = -1;
  for (int y = 0; ok && y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      {
        float out[4] = { 0.0f, 0.0f, 0.0f, 1.0f };
        int   n = gather (st, src, s, x, y, slot, key, win, mult);
        for (int c = 0; c < colour; c++)
          {
            for (int k = 0; k < n; k++)
              {
                float a = win[k][alpha];
                e[k].v = win[k][c];
                /* GEGL's quantized alpha (NaN: 0). */
                e[k].w = mult[k]
                         * (st->weighted
                              ? (unsigned) floorf ((a > 0.0f ? fminf (a, 1.0f)
                                                             : 0.0f)
                                                       * st->wscale
                                                   + 0.5f)
                              : 1u);
              }
            out[c] = order_statistic (e, n, st->p);
          }
        if (src->channels == 2 || src->channels == 4)
          {
            for (int k = 0; k < n; k++)
              {
                e[k].v = win[k][alpha];
                e[k].w = mult[k];
              }
            out[alpha] = order_statistic (e, n, 0.5);
          }
        clfx_ref_store (dst, x, y, out, false, false);
      }
  free (win);
  free (e);
  free (mult);
  free (key);
  free (slot);
  if (! ok)
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  return true;
}

/* ---- tolerance ---------------------------------------------------------------- */

static void
median_tolerance (const ClfxParams *p, const ClfxPlan *plan,
                  const ClfxDeviceInfo *dev, const ClfxImage *src,
                  const ClfxImage *dst, ClfxTolerance *tol)
{
  (void) p;
  (void) plan;
  (void) dev;
  (void) src;
  (void) dst;
  /* Both sides select one of the window's stored values by the same
   * rule, and the store gives it back as it was read: float and half
   * values pass unchanged, 8- and 16-bit ones as their codes (the device
   * orders the codes themselves, so the read conversion's 1.5 ulp cannot
   * change a code).  No arithmetic touches the value: exact. */
  clfx_tol_init (tol);
  clfx_tol_clause (tol, "an order statistic: the same stored value of the "
                        "window on both sides, stored unchanged (exact)");
}

static const char *const uses_median[] = { "filter", "radius", "percentile",
                                           "neighborhood", "addressing",
                                           NULL };

const ClfxVariant clfx_variant_median
  = { "median",
      "median-network",
      CLFX_N_ ("Median blur (GEGL's median-blur, high precision: the exact "
               "percentile per channel, colour weighted by alpha)"),
      uses_median,
      median_plan,
      NULL,
      median_cl,
      median_cpu,
      median_tolerance,
      NULL,
      clfx_filter_describe,
      NULL,
      CLFX_MEDIAN_PLACE,
      NULL,
      NULL };
