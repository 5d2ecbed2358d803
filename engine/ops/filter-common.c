/* SPDX-License-Identifier: GPL-3.0-or-later */
/* filter-common.c: what the filter family's variants share
 * (filter-common.h), and the separable blurs' common part: both axes FIR
 * from the source to the result in two passes (kernels/filter-fir.cl) or
 * through the sampler's linear filter (filter-fir-linear.cl), edge
 * handling none's renormalisation, and the reference's frame around its
 * axes (the source with its halo, the store).  The blurs work in linear
 * light on premultiplied alpha (GEGL's RaGaBaA float). */
#include "filter-common.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../kernels/clfx-common.h"
#include "../../kernels/filter-fir-shapes.h"
#include "../clfx-tolerance.h"

#define FILTER_FIR "filter-fir"
#define FILTER_FIR_LINEAR "filter-fir-linear"

bool
clfx_filter_edges_ok (int addressing, const char *variant, ClfxError *error)
{
  if (addressing != CLFX_ADDR_NONE)
    return true;
  return clfx_error_set (error, CLFX_ERR_INVALID,
                         "edge handling none (outside taps left out) is not "
                         "available for %s yet: use clamp-to-edge, clamp, "
                         "repeat or mirrored-repeat",
                         variant);
}

bool
clfx_filter_nearest_ok (int sampler_filter, const char *variant,
                        ClfxError *error)
{
  if (sampler_filter == 0)
    return true;
  return clfx_error_set (error, CLFX_ERR_INVALID,
                         "sampler-filter linear reads two taps with one "
                         "fetch, which only the FIR gaussian and box do: "
                         "%s takes sampler-filter nearest",
                         variant);
}

const char *
clfx_filter_describe (const ClfxParams *p)
{
  return clfx_param_get_nick (p, clfx_family_param (p->family, "filter"));
}

void *
clfx_filter_mix_state (ClfxPlan *plan, size_t size,
                       void (*free_state) (void *), int addressing,
                       int sampler_filter, const char *variant,
                       ClfxError *error)
{
  void *st;

  if (! clfx_filter_edges_ok (addressing, variant, error)
      || ! clfx_filter_nearest_ok (sampler_filter, variant, error))
    return NULL;
  if (! (st = calloc (1, size)))
    {
      clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
      return NULL;
    }
  plan->state = st;
  plan->free_state = free_state;
  return st;
}

double
clfx_filter_max_abs (const ClfxImage *src, double *min_alpha)
{
  int    ai = src->channels == 4 ? 3 : src->channels == 2 ? 1 : -1;
  double max_abs = 0.0, lo = 1.0;

  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      for (int c = 0; c < src->channels; c++)
        {
          double v = fabs (clfx_image_get_linear (src, x, y, c));
          if (! isfinite (v))
            continue;
          max_abs = v > max_abs ? v : max_abs;
          if (c == ai && v < lo)
            lo = v;
        }
  if (min_alpha)
    *min_alpha = lo;
  return max_abs;
}

float
clfx_filter_ref_float (double v)
{
  if (isfinite (v))
    v = fmin (fmax (v, -FLT_MAX), FLT_MAX);
  return (float) v;
}

/* ---- windows wider than the image ------------------------------------------ */

/* The sum of taps[a .. b], in double. */
static double
taps_sum (const float *taps, int a, int b)
{
  double s = 0.0;

  for (int k = a; k <= b; k++)
    s += (double) taps[k];
  return s;
}

bool
clfx_filter_fold (ClfxFold *f, const float *taps, int n, int side,
                  int addressing, ClfxError *error)
{
  int    R = n / 2;
  double total = taps_sum (taps, 0, n - 1);
  int    period = addressing == CLFX_ADDR_REPEAT     ? side
               : addressing == CLFX_ADDR_MIRRORED ? 2 * side
                                                  : 0;

  f->side = side;
  f->half = R;
  f->tab = malloc ((size_t) n * sizeof *f->tab);
  f->range = malloc ((size_t) side * sizeof *f->range);
  f->edge = malloc ((size_t) side * sizeof *f->edge);
  if (! f->tab || ! f->range || ! f->edge)
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  for (int k = 0; k < n; k++)
    f->tab[k] = taps[k];
  if (period && n > period)
    {
      /* One period of offsets, centred, each with the taps a whole
       * number of periods away (u + R >= 0: the period is at most n). */
      int lo = -(period / 2);
      for (int u = lo; u < lo + period; u++)
        {
          double w = 0.0;
          for (int k = u - (u + R) / period * period; k <= R; k += period)
            w += (double) taps[k + R];
          f->tab[u + R] = (float) w;
        }
      for (int x = 0; x < side; x++)
        {
          f->range[x] = (cl_int2) { { lo, lo + period - 1 } };
          f->edge[x] = (cl_float4) { { f->tab[lo + R],
                                       f->tab[lo + period - 1 + R],
                                       (float) total, 0.0f } };
        }
      return true;
    }
  for (int x = 0; x < side; x++)
    {
      /* The offsets inside the image (the whole window where it wraps). */
      int    lo = ! period && x - R < 0 ? -x : -R;
      int    hi = ! period && x + R > side - 1 ? side - 1 - x : R;
      double first = taps[lo + R], last = taps[hi + R];
      double in = taps_sum (taps, lo + R, hi + R);
      double out = taps_sum (taps, 0, lo + R - 1)
                   + taps_sum (taps, hi + R + 1, n - 1);

      if (addressing == CLFX_ADDR_CLAMP_TO_EDGE)
        {
          /* The taps past each edge read its edge texel. */
          first = taps_sum (taps, 0, lo + R);
          last = taps_sum (taps, hi + R, n - 1);
          if (lo == hi)
            first = last = total;
          in = total;
          out = 0.0;
        }
      f->range[x] = (cl_int2) { { lo, hi } };
      f->edge[x] = (cl_float4) { { (float) first, (float) last, (float) in,
                                   (float) out } };
    }
  return true;
}

void
clfx_filter_fold_clear (ClfxFold *f)
{
  free (f->tab);
  free (f->range);
  free (f->edge);
  f->tab = NULL;
  f->range = NULL;
  f->edge = NULL;
}

int
clfx_filter_fold_terms (const ClfxFold *f)
{
  int most = 0;

  for (int x = 0; x < f->side; x++)
    if (f->range[x].s[1] - f->range[x].s[0] + 1 > most)
      most = f->range[x].s[1] - f->range[x].s[0] + 1;
  return most;
}

int
clfx_filter_fold_halo (int n, int side)
{
  return n / 2 < side ? n / 2 : side;
}

/* ---- the separable blurs' plan ------------------------------------------------ */

/* An axis's taps in pairs for the sampler's linear filter: taps i and
 * i + 1 (weights a, b) are one fetch at i + b / (a + b) weighted a + b;
 * an odd last tap is a fetch at its texel.  (offset, weight) pairs. */
static cl_float2 *
tap_pairs (const ClfxGaussAxis *a, int *m)
{
  cl_float2 *p;

  *m = (a->n + 1) / 2;
  if (! (p = malloc ((size_t) *m * sizeof *p)))
    return NULL;
  for (int j = 0; j < *m; j++)
    {
      int    i = 2 * j;
      double w = a->k[i] + (i + 1 < a->n ? (double) a->k[i + 1] : 0.0);
      p[j].s[0] = i + 1 < a->n && w != 0.0
                    ? (float) (i + (double) a->k[i + 1] / w)
                    : (float) i;
      p[j].s[1] = (float) w;
    }
  return p;
}

bool
clfx_filter_blur_plan (ClfxFilterBlur *b, int addressing, int sampler_filter,
                       const ClfxImage *src, ClfxPlan *plan,
                       ClfxError *error)
{
  bool none = addressing == CLFX_ADDR_NONE;

  b->linear = sampler_filter == 1;
  /* The pairs once per run, not per tile. */
  if (b->linear
      && (! (b->px = tap_pairs (&b->x, &b->mx))
          || ! (b->py = tap_pairs (&b->y, &b->my))))
    return clfx_error_set (error, CLFX_ERR_NOMEM,
                           "out of memory for tap pairs");
  plan->width = src->width;
  plan->height = src->height;
  /* none: the taps outside read 0 (clamp's border) and the result is
   * divided by the weight of the taps inside, per axis (the window is a
   * product of two intervals, so that is the 2-D renormalisation). */
  b->renorm = none;
  plan->addressing = none ? CLFX_ADDR_CLAMP : addressing;
  plan->mixes = true;
  plan->premultiply = clfx_plan_premultiplies (true, src);
  plan->decode = clfx_plan_decodes (true, src);
  plan->halo[0] = plan->halo[2] = clfx_gauss_half (&b->x);
  plan->halo[1] = plan->halo[3] = clfx_gauss_half (&b->y);
  b->fold_x = ! b->x.iir && ! b->y.iir && b->x.n > src->width;
  b->fold_y = ! b->x.iir && ! b->y.iir && b->y.n > src->height;
  b->folded = b->fold_x || b->fold_y;
  if (b->folded)
    {
      if (! clfx_filter_fold (&b->fx, b->x.k, b->x.n, src->width, addressing,
                              error)
          || ! clfx_filter_fold (&b->fy, b->y.k, b->y.n, src->height,
                                 addressing, error))
        return false;
      plan->halo[0] = plan->halo[2] = clfx_filter_fold_halo (b->x.n,
                                                             src->width);
      plan->halo[1] = plan->halo[3] = clfx_filter_fold_halo (b->y.n,
                                                             src->height);
    }
  /* The loaded source, the intermediate and the result as float RGBA,
   * and the IIR's forward values. */
  plan->bytes_per_pixel = 16 * 4;
  plan->bytes_fixed = sizeof (float) * (size_t) (b->x.n + b->y.n);
  return true;
}

void
clfx_filter_blur_clear (ClfxFilterBlur *b)
{
  clfx_gauss_axis_clear (&b->x);
  clfx_gauss_axis_clear (&b->y);
  clfx_filter_fold_clear (&b->fx);
  clfx_filter_fold_clear (&b->fy);
  free (b->px);
  free (b->py);
  b->px = b->py = NULL;
}

/* ---- both axes FIR on the device ------------------------------------------- */

static size_t
round_up (size_t n, size_t m)
{
  return (n + m - 1) / m * m;
}

/* filter_conv_h's and filter_conv_v's local memory: filter_conv_h's row
 * is span texels in FHP phases of ph each. */
static void
fir_local_bytes (const ClfxFilterBlur *b, size_t *lh, size_t *lv)
{
  int span = FH_W * FHP + b->x.n - 1;
  int ph = (span + FHP - 1) / FHP;

  *lh = (size_t) ph * FHP * FH_R * 16;
  *lv = (size_t) (F_LANES * FPER + b->y.n - 1) * F_LANES * 16;
}

/* The taps' texels through local memory where the device reads images
 * (GPUs) and they fit; CPU devices read their buffers directly (the _hv
 * and _vv kernels), where a work-group's copy is only a copy. */
bool
clfx_filter_fir_local (ClfxGraph *g, const ClfxFilterBlur *b)
{
  const ClfxDeviceInfo *dev = clfx_graph_device (g);
  size_t                lh, lv;

  fir_local_bytes (b, &lh, &lv);
  return ! clfx_graph_source_is_buffer (g) && lh + 1024 <= dev->local_mem
         && lv + 1024 <= dev->local_mem && dev->max_work_group >= 256;
}

/* Both FIR axes in two passes straight from the source to the result
 * (filter-fir.cl).  One launch with the intermediate kept on chip was
 * slower on both kinds of device (docs/PERFORMANCE.md, "the FIR's two
 * passes in one launch, tried"). */
static bool
fir_passes (ClfxGraph *g, const ClfxFilterBlur *b, ClfxError *error)
{
  const ClfxTile *t = clfx_graph_tile (g);
  const ClfxPlan *plan = clfx_graph_plan (g);
  int             w = t->out.width, h = t->out.height;
  int             ih = h + b->y.n - 1;
  bool            local = clfx_filter_fir_local (g, b);
  size_t          lh, lv;
  cl_int4         rect = { { t->out.x, t->out.y - b->y.n / 2, w, ih } };
  cl_int4         renorm = { { b->renorm, plan->width, plan->height, 0 } };
  cl_mem          inter, kx, ky;
  ClfxLaunch      l_h = { local ? "filter_conv_h" : "filter_conv_hv", NULL,
                          FILTER_FIR, 2,
                          { local ? round_up ((size_t) (w + FHP - 1) / FHP,
                                              FH_W)
                                  : ((size_t) w + FV - 1) / FV,
                            local ? round_up ((size_t) ih, FH_R)
                                  : (size_t) ih },
                          { local ? FH_W : 0, local ? FH_R : 0 } };
  ClfxLaunch      l_v = { "filter_conv_v", NULL, FILTER_FIR, 2,
                          { round_up ((size_t) w, F_LANES),
                            round_up ((size_t) (h + FPER - 1) / FPER,
                                      F_LANES) },
                          { F_LANES, F_LANES } };
  ClfxLaunch      l_vv = { "filter_conv_vv", NULL, FILTER_FIR, 2,
                           { ((size_t) w + FV - 1) / FV, (size_t) h },
                           { 0, 0 } };

  fir_local_bytes (b, &lh, &lv);
  if (! (inter = clfx_graph_buffer (g, "rows", (size_t) w * (size_t) ih * 16,
                                    error))
      || ! (kx = clfx_graph_table (g, "taps x", b->x.k,
                                   sizeof (float) * (size_t) b->x.n, error))
      || ! (ky = clfx_graph_table (g, "taps y", b->y.k,
                                   sizeof (float) * (size_t) b->y.n, error)))
    return false;
  if (local)
    return CLFX_LAUNCH (g, &l_h, error, CLFX_SRC, CLFX_ARG (inter),
                        CLFX_ARG (rect), CLFX_ARG (kx), CLFX_INT (b->x.n),
                        CLFX_LOCAL (lh))
           && CLFX_LAUNCH (g, &l_v, error, CLFX_ARG (inter), CLFX_INT (w),
                           CLFX_INT (ih), CLFX_DST, CLFX_ARG (ky),
                           CLFX_INT (b->y.n), CLFX_LOCAL (lv),
                           CLFX_ARG (renorm), CLFX_ARG (kx),
                           CLFX_INT (b->x.n));
  return CLFX_LAUNCH (g, &l_h, error, CLFX_SRC, CLFX_ARG (inter),
                      CLFX_ARG (rect), CLFX_ARG (kx), CLFX_INT (b->x.n))
         && CLFX_LAUNCH (g, &l_vv, error, CLFX_ARG (inter), CLFX_INT (w),
                         CLFX_DST, CLFX_ARG (ky), CLFX_INT (b->y.n),
                         CLFX_ARG (renorm), CLFX_ARG (kx), CLFX_INT (b->x.n));
}

/* A folded blur (b->folded): the rows pass over the source rows the
 * columns read (for a folded column axis, the offsets its positions
 * visit; else the taps' halo), folded where the row axis is (else the
 * taps of filter_conv_hv), then the columns, folded where that axis is
 * (else filter_conv_vv).  A result per work-item: these run on images
 * no wider or taller than the window. */
static bool
fir_folded (ClfxGraph *g, const ClfxFilterBlur *b, ClfxError *error)
{
  const ClfxTile *t = clfx_graph_tile (g);
  const ClfxPlan *plan = clfx_graph_plan (g);
  int             w = t->out.width, h = t->out.height;
  int             y0 = t->out.y - b->y.n / 2, y1 = t->out.y + h + b->y.n / 2;
  cl_int4         renorm = { { b->renorm, plan->width, plan->height, 0 } };
  cl_mem          inter, kx, ky, tx, ty, rx, ry, ex, ey;

  if (b->fold_y)
    {
      y0 = INT_MAX;
      y1 = INT_MIN;
      for (int y = t->out.y; y < t->out.y + h; y++)
        {
          y0 = y + b->fy.range[y].s[0] < y0 ? y + b->fy.range[y].s[0] : y0;
          y1 = y + b->fy.range[y].s[1] + 1 > y1 ? y + b->fy.range[y].s[1] + 1
                                                : y1;
        }
    }

  cl_int4    rect = { { t->out.x, y0, w, y1 - y0 } };
  ClfxLaunch l_h = { b->fold_x ? "filter_fold_h" : "filter_conv_hv", NULL,
                     FILTER_FIR, 2,
                     { b->fold_x ? (size_t) w : ((size_t) w + FV - 1) / FV,
                       (size_t) (y1 - y0) },
                     { 0, 0 } };
  ClfxLaunch l_v = { b->fold_y ? "filter_fold_v" : "filter_conv_vv", NULL,
                     FILTER_FIR, 2,
                     { b->fold_y ? (size_t) w : ((size_t) w + FV - 1) / FV,
                       (size_t) h },
                     { 0, 0 } };

  if (! (inter = clfx_graph_buffer (g, "rows",
                                    (size_t) w * (size_t) (y1 - y0) * 16,
                                    error))
      || ! (kx = clfx_graph_table (g, "taps x", b->x.k,
                                   sizeof (float) * (size_t) b->x.n, error))
      || ! (ky = clfx_graph_table (g, "taps y", b->y.k,
                                   sizeof (float) * (size_t) b->y.n, error))
      || ! (tx = clfx_graph_table (g, "fold weights x", b->fx.tab,
                                   sizeof (float) * (size_t) b->x.n, error))
      || ! (ty = clfx_graph_table (g, "fold weights y", b->fy.tab,
                                   sizeof (float) * (size_t) b->y.n, error))
      || ! (rx = clfx_graph_table (g, "fold ranges x", b->fx.range,
                                   sizeof (cl_int2) * (size_t) b->fx.side,
                                   error))
      || ! (ry = clfx_graph_table (g, "fold ranges y", b->fy.range,
                                   sizeof (cl_int2) * (size_t) b->fy.side,
                                   error))
      || ! (ex = clfx_graph_table (g, "fold edges x", b->fx.edge,
                                   sizeof (cl_float4) * (size_t) b->fx.side,
                                   error))
      || ! (ey = clfx_graph_table (g, "fold edges y", b->fy.edge,
                                   sizeof (cl_float4) * (size_t) b->fy.side,
                                   error)))
    return false;
  if (! (b->fold_x
           ? CLFX_LAUNCH (g, &l_h, error, CLFX_SRC, CLFX_ARG (inter),
                          CLFX_ARG (rect), CLFX_ARG (tx), CLFX_ARG (rx),
                          CLFX_ARG (ex), CLFX_INT (b->x.n / 2))
           : CLFX_LAUNCH (g, &l_h, error, CLFX_SRC, CLFX_ARG (inter),
                          CLFX_ARG (rect), CLFX_ARG (kx), CLFX_INT (b->x.n))))
    return false;
  return b->fold_y
           ? CLFX_LAUNCH (g, &l_v, error, CLFX_ARG (inter), CLFX_INT (w),
                          CLFX_INT (y0), CLFX_DST, CLFX_ARG (ty),
                          CLFX_ARG (ry), CLFX_ARG (ey), CLFX_INT (b->y.n / 2),
                          CLFX_INT (b->renorm), CLFX_ARG (ex))
           : CLFX_LAUNCH (g, &l_v, error, CLFX_ARG (inter), CLFX_INT (w),
                          CLFX_DST, CLFX_ARG (ky), CLFX_INT (b->y.n),
                          CLFX_ARG (renorm), CLFX_ARG (kx),
                          CLFX_INT (b->x.n));
}

/* sampler-filter linear: the source with its halo into a float image (the
 * addressing applied there), then each axis's tap pairs through the
 * sampler's linear filter (filter_lin_h, filter_lin_v). */
static bool
fir_linear (ClfxGraph *g, const ClfxFilterBlur *b, ClfxError *error)
{
  const ClfxTile *t = clfx_graph_tile (g);
  const ClfxPlan *plan = clfx_graph_plan (g);
  int             w = t->out.width, h = t->out.height;
  int             ih = h + b->y.n - 1;
  cl_int4         renorm = { { b->renorm, plan->width, plan->height, 0 } };
  cl_mem          img, inter, bx, by, kx, ky;
  cl_sampler      smp;
  ClfxLaunch      lh = { "filter_lin_h", NULL, FILTER_FIR_LINEAR, 2,
                         { (size_t) w, (size_t) ih }, { 0, 0 } };
  ClfxLaunch      lv = { "filter_lin_v", NULL, FILTER_FIR_LINEAR, 2,
                         { (size_t) w, (size_t) h }, { 0, 0 } };

  return (smp = clfx_graph_sampler_for (g, false, CLFX_ADDR_CLAMP_TO_EDGE,
                                        true, error))
         && (img = clfx_block_load (g, "source", &t->in, error))
         && (inter = clfx_graph_image (g, "rows", w, ih, error))
         && (bx = clfx_graph_table (g, "pairs x", b->px,
                                    sizeof *b->px * (size_t) b->mx, error))
         && (by = clfx_graph_table (g, "pairs y", b->py,
                                    sizeof *b->py * (size_t) b->my, error))
         && (kx = clfx_graph_table (g, "taps x", b->x.k,
                                    sizeof (float) * (size_t) b->x.n, error))
         && (ky = clfx_graph_table (g, "taps y", b->y.k,
                                    sizeof (float) * (size_t) b->y.n, error))
         && CLFX_LAUNCH (g, &lh, error, CLFX_ARG (img), CLFX_ARG (smp),
                         CLFX_ARG (inter), CLFX_ARG (bx), CLFX_INT (b->mx),
                         CLFX_INT (w), CLFX_INT (ih))
         && CLFX_LAUNCH (g, &lv, error, CLFX_ARG (inter), CLFX_ARG (smp),
                         CLFX_DST, CLFX_ARG (by), CLFX_INT (b->my),
                         CLFX_ARG (renorm), CLFX_ARG (kx), CLFX_INT (b->x.n),
                         CLFX_ARG (ky), CLFX_INT (b->y.n));
}

bool
clfx_filter_fir (ClfxGraph *g, const ClfxFilterBlur *b, ClfxError *error)
{
  if (b->folded)
    return fir_folded (g, b, error);
  return b->linear ? fir_linear (g, b, error) : fir_passes (g, b, error);
}

/* ---- the separable blurs' reference ----------------------------------------- */

bool
clfx_filter_ref_source (const ClfxPlan *plan, const ClfxFilterBlur *b,
                        const ClfxImage *src, ClfxImage *img,
                        ClfxError *error)
{
  ClfxSamplerDesc s = { true, plan->addressing, false, plan->premultiply,
                        plan->decode };
  int             hx = clfx_gauss_half (&b->x), hy = clfx_gauss_half (&b->y);
  ClfxRect        rect = { -hx, -hy, src->width + 2 * hx,
                           src->height + 2 * hy };

  return clfx_ref_block_load (src, s, &rect, img, error);
}

double *
clfx_filter_ref_doubles (const ClfxImage *img, int *dw, int *dh,
                         ClfxError *error)
{
  double *d;

  *dw = img->width;
  *dh = img->height;
  if (! (d = malloc ((size_t) *dw * (size_t) *dh * 4 * sizeof *d)))
    {
      clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
      return NULL;
    }
  for (int y = 0; y < *dh; y++)
    for (int x = 0; x < *dw; x++)
      for (int c = 0; c < 4; c++)
        d[((size_t) y * *dw + x) * 4 + c]
          = ((const float *) ((const char *) img->data
                              + (size_t) y * img->stride))[x * 4 + c];
  return d;
}

/* The taps of an axis for position x of n grouped by the texel each
 * reads through the addressing (the reference's own grouping; taps
 * outside under clamp and none read nothing and are left out): texel
 * indices into idx, their summed weights into w, their number.  slot (n
 * entries, -1) finds a texel's group and is left as it was found. */
static int
ref_group (const ClfxGaussAxis *a, int x, int n, int addressing, int *slot,
           int *idx, double *w)
{
  int count = 0;

  for (int k = 0; k < a->n; k++)
    {
      int i = clfx_address (x - a->n / 2 + k, n, addressing), g;

      if (i < 0)
        continue;
      if ((g = slot[i]) < 0)
        {
          g = slot[i] = count++;
          idx[g] = i;
          w[g] = 0.0;
        }
      w[g] += (double) a->k[k];
    }
  for (int g = 0; g < count; g++)
    slot[idx[g]] = -1;
  return count;
}

bool
clfx_filter_ref_folded (const ClfxPlan *plan, const ClfxFilterBlur *b,
                        const ClfxImage *src, ClfxImage *dst,
                        ClfxError *error)
{
  ClfxSamplerDesc s = { true, plan->addressing, false, plan->premultiply,
                        plan->decode };
  int             W = src->width, H = src->height, side = W > H ? W : H;
  size_t          px = (size_t) W * (size_t) H * 4;
  ClfxRect        rect = { 0, 0, W, H };
  ClfxImage       img = { 0 }, out = { 0 };
  double         *rows = calloc (px, sizeof *rows);
  double         *d = calloc (px, sizeof *d);
  double         *w = malloc ((size_t) side * sizeof *w);
  int            *idx = malloc ((size_t) side * sizeof *idx);
  int            *slot = malloc ((size_t) side * sizeof *slot);
  bool            ok = false;

  if (! rows || ! d || ! w || ! idx || ! slot)
    {
      clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
      goto done;
    }
  if (! clfx_ref_block_load (src, s, &rect, &img, error))
    goto done;
  for (int i = 0; i < side; i++)
    slot[i] = -1;
  /* Along the rows: each result column from the texels its taps read. */
  for (int x = 0; x < W; x++)
    {
      int m = ref_group (&b->x, x, W, plan->addressing, slot, idx, w);
      for (int j = 0; j < H; j++)
        for (int g = 0; g < m; g++)
          for (int c = 0; c < 4; c++)
            rows[((size_t) j * W + x) * 4 + c]
              += w[g] * clfx_image_get (&img, idx[g], j, c);
    }
  /* Down the columns of those. */
  for (int y = 0; y < H; y++)
    {
      int m = ref_group (&b->y, y, H, plan->addressing, slot, idx, w);
      for (int x = 0; x < W; x++)
        for (int g = 0; g < m; g++)
          for (int c = 0; c < 4; c++)
            d[((size_t) y * W + x) * 4 + c]
              += w[g] * rows[((size_t) idx[g] * W + x) * 4 + c];
    }
  ok = clfx_filter_ref_store (plan, b, d, W, H, &out, dst, error);
done:
  free (rows);
  free (d);
  free (w);
  free (idx);
  free (slot);
  clfx_host_image_free (&img);
  clfx_host_image_free (&out);
  return ok;
}

/* The weight of an axis's taps inside 0..size - 1 for the result at pos
 * (addressing none), in double. */
static double
inside_weight (const ClfxGaussAxis *a, int pos, int size)
{
  double w = 0.0;

  for (int i = 0; i < a->n; i++)
    if (pos - a->n / 2 + i >= 0 && pos - a->n / 2 + i < size)
      w += (double) a->k[i];
  return w;
}

/* Edge handling none on the reference's float result: each pixel over
 * the weight of its taps inside the image. */
static void
ref_renorm (ClfxImage *out, const ClfxFilterBlur *b)
{
  for (int y = 0; y < out->height; y++)
    for (int x = 0; x < out->width; x++)
      {
        double w = inside_weight (&b->x, x, out->width)
                   * inside_weight (&b->y, y, out->height);
        for (int c = 0; c < 4; c++)
          clfx_image_set (out, x, y, c, (float) (clfx_image_get (out, x, y, c)
                                                 / w));
      }
}

bool
clfx_filter_ref_store (const ClfxPlan *plan, const ClfxFilterBlur *b,
                       const double *d, int dw, int dh, ClfxImage *out,
                       ClfxImage *dst, ClfxError *error)
{
  if (d)
    {
      if (! clfx_host_image_alloc (out, dw, dh, 4, CLFX_DEPTH_FLOAT, error))
        return false;
      for (int y = 0; y < dh; y++)
        for (int x = 0; x < dw; x++)
          for (int c = 0; c < 4; c++)
            clfx_image_set (out, x, y, c,
                            (float) d[((size_t) y * dw + x) * 4 + c]);
    }
  if (b->renorm)
    ref_renorm (out, b);
  clfx_ref_block_store (out, 0, 0, dst, plan->premultiply, plan->decode);
  return true;
}

/* ---- the separable blurs' tolerance ----------------------------------------- */

void
clfx_filter_blur_tolerance (const ClfxPlan *plan, const ClfxFilterBlur *b,
                            const ClfxImage *src, const ClfxImage *dst,
                            ClfxTolerance *tol)
{
  double max_abs = clfx_filter_max_abs (src, NULL);

  clfx_tol_init (tol);
  /* A FIR result reads its halo only; an IIR pass carries every value of
   * its row or column into each pixel. */
  if (! b->x.iir && ! b->y.iir)
    clfx_tol_magnitude (tol, max_abs, 2.0 * max_abs);
  clfx_tol_read (tol, max_abs);
  if (b->renorm)
    {
      /* The sums' bounds grow by one over the smallest weight inside (a
       * corner's), plus the division and the reference's rounding. */
      ClfxTolerance blur;
      double        wx = 1.0, wy = 1.0;
      for (int x = 0; x < src->width; x++)
        wx = fmin (wx, inside_weight (&b->x, x, src->width));
      for (int y = 0; y < src->height; y++)
        wy = fmin (wy, inside_weight (&b->y, y, src->height));
      clfx_tol_init (&blur);
      clfx_gauss_tolerance (&blur, &b->x, &b->y, max_abs);
      clfx_tol_scaled (tol, blur.abs_tol / (wx * wy));
      clfx_tol_clause (tol, "edge handling none: the sums' float error "
                            "(%.3g) over the smallest weight inside (%.3g)",
                       blur.abs_tol, wx * wy);
      clfx_tol_sum (tol, "the renormalisation", 4, 1.0, max_abs);
    }
  else
    clfx_gauss_tolerance (tol, &b->x, &b->y, max_abs);
  if (b->linear)
    /* Each pair's blend weight as the hardware holds it: the spec leaves
     * its precision open, GPUs keep 8 fractional bits (texel values
     * between -max and max). */
    clfx_tol_sampler_linear (tol, 2.0 * max_abs);
  if (plan->decode)
    clfx_tol_srgb (tol, dst->depth, plan->srgb_tables);
  clfx_tol_store (tol, dst->depth, false);
}

/* ---- iterated 3 x 3 stencils ---------------------------------------------- */

bool
clfx_filter_iterate (ClfxGraph *g, const char *prefix, int n,
                     const ClfxArg *extra, ClfxError *error)
{
  const ClfxTile *t = clfx_graph_tile (g);
  int             sw = t->out.width + 2 * n, sh = t->out.height + 2 * n;
  size_t          bytes = (size_t) sw * (size_t) sh * 16;
  char            k_load[64], k_iterate[64], k_store[64];
  cl_mem          a, b;
  ClfxLaunch      load = { k_load, NULL, NULL, 2,
                           { (size_t) sw, (size_t) sh }, { 0, 0 } };
  ClfxLaunch      store = { k_store, NULL, NULL, 2,
                            { (size_t) t->out.width,
                              (size_t) t->out.height },
                            { 0, 0 } };
  ClfxArg         none = CLFX_INT (0);
  bool            more = extra != NULL;

  snprintf (k_load, sizeof k_load, "%s_load", prefix);
  snprintf (k_iterate, sizeof k_iterate, "%s_iterate", prefix);
  snprintf (k_store, sizeof k_store, "%s_store", prefix);
  if (! extra)
    extra = &none;
  if (! (a = clfx_graph_buffer (g, "iterations a", bytes, error))
      || ! (b = n > 1 ? clfx_graph_buffer (g, "iterations b", bytes, error)
                      : a)
      || ! CLFX_LAUNCH (g, &load, error, CLFX_SRC, CLFX_ARG (a),
                        CLFX_INT (sw), CLFX_INT (sh),
                        CLFX_INT (t->out.x - n), CLFX_INT (t->out.y - n)))
    return false;
  /* Iteration k (0-based) makes the square k + 1 .. side - 2 - k of the
   * buffer from the previous one's; the last is made as it is stored. */
  for (int k = 0; k + 1 < n; k++)
    {
      int        w = sw - 2 - 2 * k, h = sh - 2 - 2 * k;
      ClfxLaunch it = { k_iterate, NULL, NULL, 2,
                        { (size_t) w, (size_t) h }, { 0, 0 } };
      cl_mem     tmp;
      bool       ok = more ? CLFX_LAUNCH (g, &it, error, CLFX_ARG (a),
                                          CLFX_ARG (b), CLFX_INT (sw),
                                          CLFX_INT (k + 1), CLFX_INT (w),
                                          CLFX_INT (h), *extra)
                           : CLFX_LAUNCH (g, &it, error, CLFX_ARG (a),
                                          CLFX_ARG (b), CLFX_INT (sw),
                                          CLFX_INT (k + 1), CLFX_INT (w),
                                          CLFX_INT (h));

      if (! ok)
        return false;
      tmp = a;
      a = b;
      b = tmp;
    }
  return more ? CLFX_LAUNCH (g, &store, error, CLFX_ARG (a), CLFX_INT (sw),
                             CLFX_INT (n), CLFX_INT (n > 0), CLFX_DST,
                             *extra)
              : CLFX_LAUNCH (g, &store, error, CLFX_ARG (a), CLFX_INT (sw),
                             CLFX_INT (n), CLFX_INT (n > 0), CLFX_DST);
}

bool
clfx_filter_iterate_cpu (const ClfxPlan *plan, const ClfxImage *src,
                         ClfxImage *dst, int n, ClfxIterateStep step,
                         ClfxError *error)
{
  ClfxSamplerDesc s = { true, plan->addressing, false, false, false };
  int             colour = src->channels == 4 ? 3 : 1;
  int             sw = src->width + 2 * n, sh = src->height + 2 * n;
  size_t          plane = (size_t) sw * (size_t) sh;
  float          *tex = malloc (plane * 4 * sizeof *tex);
  float          *v0 = malloc (plane * sizeof *v0);
  float          *v1 = malloc (plane * sizeof *v1);

  if (! tex || ! v0 || ! v1)
    {
      free (tex);
      free (v0);
      free (v1);
      return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
    }
  for (int y = 0; y < sh; y++)
    for (int x = 0; x < sw; x++)
      clfx_ref_fetch (src, s, x - n, y - n, &tex[((size_t) y * sw + x) * 4]);
  for (int c = 0; c < colour; c++)
    {
      float *cur = v0, *next = v1;

      for (size_t i = 0; i < plane; i++)
        cur[i] = tex[i * 4 + c];
      for (int k = 0; k < n; k++)
        {
          float *tmp;

          for (int y = k + 1; y < sh - 1 - k; y++)
            for (int x = k + 1; x < sw - 1 - k; x++)
              next[(size_t) y * sw + x] = step (cur, sw, x, y);
          tmp = cur;
          cur = next;
          next = tmp;
        }
      for (int y = 0; y < src->height; y++)
        for (int x = 0; x < src->width; x++)
          tex[((size_t) (y + n) * sw + x + n) * 4 + c]
            = cur[(size_t) (y + n) * sw + x + n];
    }
  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      clfx_ref_store (dst, x, y, &tex[((size_t) (y + n) * sw + x + n) * 4],
                      false, false);
  free (tex);
  free (v0);
  free (v1);
  return true;
}
