/* SPDX-License-Identifier: GPL-3.0-or-later */
/* snn-mean.c: the filter family's snn-mean variant, gegl:snn-mean of GEGL
 * 0.4.62 (docs/FILTERS.md, kernels/snn-mean.cl).
 *
 * GEGL's op works in "RGBA float": linear light, straight alpha, so the
 * plan decodes sRGB and does not premultiply.  Over a quarter of the
 * square window of side 2 R + 1 (R = radius), each position (u, v) with
 * u and v both non-zero picks, of its symmetric pair (u, v), (-u, -v)
 * (pairs 1: the quarter is the upper half, v < 0, and the row v = 0 up to
 * the centre) or quadruple with (-u, v), (u, -v) as well (pairs 2: the
 * upper left quarter, u, v <= 0), the texel nearest the centre c in
 * |t - c|^2 over straight R, G, B (the first of equals; none nearer than
 * 1000 picks c); positions on the axes pick c itself (GEGL's loop skips
 * their pairs).  The result is the mean of the picks, all four channels:
 * (R + 1)^2 of them (pairs 2), R (2 R + 1) + R + 1 (pairs 1).  Radius 0
 * is a copy.
 *
 * Edges: GEGL reads outside the image as transparent black (abyss none),
 * clfx's `clamp`; the family's default, clamp-to-edge, extends the edge;
 * none leaves the candidates outside out of the choice.
 *
 * The pick is a step: where two candidates' distances lie within the
 * device's float error of each other (or the nearest within it of 1000),
 * the device may pick either.  The reference flags those choices and
 * `bounds` gives validation the envelope of the results every choice of
 * them gives (the mean is a sum: each flagged choice moves it by its
 * candidate's difference to the reference's pick over the count).
 *
 * The CPU reference computes the distances in double and picks in GEGL's
 * order, independent of the kernel's float arithmetic. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/clfx-common.h"
#include "../clfx-parallel.h"
#include "../clfx-sampler-ref.h"
#include "../clfx-tolerance.h"
#include "clfx-params.h"
#include "filter-common.h"
#include "snn-mean.h"

typedef struct
{
  int  R;      /* radius */
  int  pairs;  /* 1 or 2 */
  int  count;  /* picks per result */
  bool none;   /* edge handling none: candidates outside left out */
} State;

static bool
snn_plan (const ClfxParams *p, const ClfxImage *src, ClfxPlan *plan,
          ClfxError *error)
{
  const ClfxFilterParams *fp = CLFX_PARAMS_OF (p, ClfxFilterParams);
  State                  *st;

  if (! clfx_filter_nearest_ok (fp->sampler_filter, "snn-mean", error))
    return false;
  if (! (st = calloc (1, sizeof *st)))
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  plan->state = st;
  plan->free_state = free;
  st->R = fp->snn.radius;
  st->pairs = fp->snn.pairs;
  st->count = st->pairs == 2 ? (st->R + 1) * (st->R + 1)
                             : st->R * (2 * st->R + 1) + st->R + 1;
  st->none = fp->addressing == CLFX_ADDR_NONE;
  plan->width = src->width;
  plan->height = src->height;
  /* none: the kernel leaves the candidates outside out itself. */
  plan->addressing = st->none ? CLFX_ADDR_CLAMP_TO_EDGE : fp->addressing;
  plan->mixes = true;
  plan->straight = true;
  plan->premultiply = false;
  plan->decode = clfx_plan_decodes (true, src);
  plan->halo[0] = plan->halo[1] = plan->halo[2] = plan->halo[3] = st->R;
  /* The loaded piece: four float planes over the result and its halo. */
  plan->bytes_per_pixel = 16;
  plan->bytes_fixed = 16 * ((size_t) (2 * st->R)
                              * (size_t) (src->width + src->height)
                            + 4 * (size_t) st->R * (size_t) st->R);
  return true;
}

/* ---- OpenCL ---------------------------------------------------------------- */

static bool
snn_cl (ClfxGraph *g, const ClfxParams *p, ClfxError *error)
{
  const State    *st = clfx_graph_plan (g)->state;
  const ClfxTile *t = clfx_graph_tile (g);
  int             w = t->out.width, h = t->out.height;
  cl_int4         rect = { { t->out.x - st->R, t->out.y - st->R,
                             w + 2 * st->R, h + 2 * st->R } };
  /* A plane, and the 8 floats past its end a last row's vload8 reads. */
  int             plane = rect.s[2] * rect.s[3] + 8;
  ClfxLaunch      ll = { "snn_load", NULL, NULL, 2,
                         { (size_t) rect.s[2], (size_t) rect.s[3] },
                         { 0, 0 } };
  ClfxLaunch      lm = { "snn_mean", NULL, NULL, 2,
                         { (size_t) (w + 7) / 8, (size_t) h }, { 0, 0 } };
  cl_mem          tex;

  (void) p;
  return (tex = clfx_graph_buffer (g, "snn texels",
                                   4 * sizeof (float) * (size_t) plane,
                                   error))
         && CLFX_LAUNCH (g, &ll, error, CLFX_SRC, CLFX_ARG (tex),
                         CLFX_ARG (rect), CLFX_INT (plane),
                         CLFX_INT (st->none))
         && CLFX_LAUNCH (g, &lm, error, CLFX_ARG (tex), CLFX_INT (rect.s[2]),
                         CLFX_INT (plane), CLFX_INT (st->R),
                         CLFX_INT (st->pairs), CLFX_DST);
}

/* ---- CPU reference ------------------------------------------------------------ */

typedef struct
{
  const State     *st;
  const ClfxImage *src;
  ClfxImage       *out, *lo, *hi;
  ClfxSamplerDesc  s;
  double           eta; /* a texel's read error, absolute, per unit */
} Job;

/* A texel as GEGL's "RGBA float" holds it: gray as R = G = B. */
static void
ref_texel (const Job *job, int i, int j, double t[4])
{
  float v[4];

  clfx_ref_fetch (job->src, job->s, i, j, v);
  if (job->src->channels < 4)
    {
      t[3] = job->src->channels == 2 ? v[1] : 1.0;
      t[0] = t[1] = t[2] = v[0];
    }
  else
    for (int k = 0; k < 4; k++)
      t[k] = v[k];
}

static double
ref_dist (const double t[4], const double c[4])
{
  double d = 0.0;

  for (int k = 0; k < 3; k++)
    d += (t[k] - c[k]) * (t[k] - c[k]);
  return d;
}

/* How far the device's float distance of t from c can lie from the
 * exact d: the differences, squares and sums (4 u of d, and half a
 * denormal each), and the texels' read error e per unit of their value,
 * which moves each difference by up to e (|t| + |c|) and the distance by
 * twice that times the difference. */
static double
ref_slack (const Job *job, const double t[4], const double c[4], double d)
{
  double m = 0.0;

  for (int k = 0; k < 4; k++)
    m = fmax (m, fmax (fabs (t[k]), fabs (c[k])));
  return 8.0 * CLFX_FLOAT_EPS * d + 2.0 * sqrt (3.0 * d) * 2.0 * job->eta * m
         + 4.0 * CLFX_FLOAT_DENORM;
}

static void
ref_rows (void *data, int y0, int y1)
{
  Job         *job = data;
  const State *st = job->st;
  int          R = st->R;

  for (int y = y0; y < y1; y++)
    for (int x = 0; x < job->src->width; x++)
      {
        double c[4], acc[4] = { 0, 0, 0, 0 }, dlo[4] = { 0, 0, 0, 0 };
        double dhi[4] = { 0, 0, 0, 0 };
        float  o[4], l[4], h[4];

        ref_texel (job, x, y, c);
        for (int v = -R; v <= 0; v++)
          for (int u = -R; u <= (v < 0 && st->pairs == 1 ? R : 0); u++)
            {
              double t[4][4], d[4], best = 1000.0;
              int    ok[4], pick = -1;
              int    at[4][2] = { { x + u, y + v }, { x - u, y - v },
                                  { x - u, y + v }, { x + u, y - v } };
              const double *sel = c;

              if (u != 0 && v != 0)
                {
                  for (int k = 0; k < 2 * st->pairs; k++)
                    {
                      ok[k] = ! st->none
                              || (at[k][0] >= 0 && at[k][1] >= 0
                                  && at[k][0] < job->src->width
                                  && at[k][1] < job->src->height);
                      if (! ok[k])
                        continue;
                      ref_texel (job, at[k][0], at[k][1], t[k]);
                      d[k] = ref_dist (t[k], c);
                      if (d[k] < best)
                        {
                          best = d[k];
                          pick = k;
                        }
                    }
                  if (pick >= 0)
                    sel = t[pick];
                  /* The other choices a float distance could make: any
                   * candidate within the slacks of the pick (or of 1000),
                   * and c where the pick lies within its slack of 1000. */
                  {
                    double sb = pick >= 0 ? ref_slack (job, t[pick], c, best)
                                          : 0.0;
                    double plo[4] = { 0, 0, 0, 0 }, phi[4] = { 0, 0, 0, 0 };
                    for (int k = 0; k < 2 * st->pairs; k++)
                      {
                        double sk;
                        if (! ok[k] || k == pick)
                          continue;
                        sk = ref_slack (job, t[k], c, d[k]);
                        if (d[k] - sk <= best + sb && d[k] - sk < 1000.0)
                          for (int ch = 0; ch < 4; ch++)
                            {
                              plo[ch] = fmin (plo[ch], t[k][ch] - sel[ch]);
                              phi[ch] = fmax (phi[ch], t[k][ch] - sel[ch]);
                            }
                      }
                    if (pick >= 0 && best + sb >= 1000.0)
                      for (int ch = 0; ch < 4; ch++)
                        {
                          plo[ch] = fmin (plo[ch], c[ch] - sel[ch]);
                          phi[ch] = fmax (phi[ch], c[ch] - sel[ch]);
                        }
                    /* Each position's choice moves the sum on its own:
                     * the envelope adds their extremes. */
                    for (int ch = 0; ch < 4; ch++)
                      {
                        dlo[ch] += plo[ch];
                        dhi[ch] += phi[ch];
                      }
                  }
                }
              for (int ch = 0; ch < 4; ch++)
                acc[ch] += sel[ch];
            }
        for (int ch = 0; ch < 4; ch++)
          {
            o[ch] = clfx_filter_ref_float (acc[ch] / st->count);
            l[ch] = clfx_filter_ref_float ((acc[ch] + dlo[ch]) / st->count);
            h[ch] = clfx_filter_ref_float ((acc[ch] + dhi[ch]) / st->count);
          }
        if (job->src->channels < 4)
          {
            float *vv[3] = { o, l, h };
            for (int k = 0; k < 3; k++)
              {
                vv[k][1] = job->src->channels == 2 ? vv[k][3] : 0.0f;
                vv[k][2] = 0.0f;
                vv[k][3] = 1.0f;
              }
          }
        if (job->out)
          clfx_ref_store (job->out, x, y, o, false, job->s.decode);
        if (job->lo)
          {
            clfx_ref_store (job->lo, x, y, l, false, job->s.decode);
            clfx_ref_store (job->hi, x, y, h, false, job->s.decode);
          }
      }
}

/* The read error of a texel per unit of its value: none for float and
 * half data read as they are, 1.5 ulp for the unorm conversion, powr's
 * 16 ulp where sRGB is decoded by the formula (8-bit data through the
 * exact tables: the unorm conversion's). */
static double
snn_eta (const ClfxPlan *plan, const ClfxImage *src)
{
  double e;

  if (plan->decode && ! (plan->srgb_tables && src->depth == CLFX_DEPTH_U8))
    e = 16.0;
  else if (src->depth == CLFX_DEPTH_U8 || src->depth == CLFX_DEPTH_U16)
    e = 1.5;
  else
    e = 0.0;
  return 2.0 * e * CLFX_FLOAT_EPS;
}

static void
snn_run_ref (const ClfxPlan *plan, const ClfxImage *src, ClfxImage *out,
             ClfxImage *lo, ClfxImage *hi)
{
  Job job = { plan->state, src, out, lo, hi,
              { true, plan->addressing, false, false, plan->decode },
              snn_eta (plan, src) };

  clfx_parallel_rows (src->height, ref_rows, &job);
}

static bool
snn_cpu (const ClfxParams *p, const ClfxPlan *plan, const ClfxImage *src,
         ClfxImage *dst, ClfxProbes *probes, ClfxError *error)
{
  (void) p;
  (void) probes;
  (void) error;
  snn_run_ref (plan, src, dst, NULL, NULL);
  return true;
}

static bool
snn_bounds (const ClfxParams *p, const ClfxPlan *plan, const ClfxImage *src,
            const ClfxImage *ref, ClfxImage *lo, ClfxImage *hi,
            ClfxError *error)
{
  (void) p;
  (void) error;
  /* lo and hi come with the result's shape, not its curve: the store
   * encodes where the result is sRGB. */
  lo->transfer = hi->transfer = ref->transfer;
  snn_run_ref (plan, src, NULL, lo, hi);
  return true;
}

/* ---- tolerance ---------------------------------------------------------------- */

/* Away from ambiguous picks (bounds), the device picks the reference's
 * texels and the result is their mean: the texels' own read error (eta,
 * as in snn_eta), the count-term float sum (n u max|v|, the weights 1 /
 * count summing to 1) and the division (2.5 ulp); all proportional to the
 * window's largest value.  Then the sRGB encode and the store. */
static void
snn_tolerance (const ClfxParams *p, const ClfxPlan *plan,
               const ClfxDeviceInfo *dev, const ClfxImage *src,
               const ClfxImage *dst, ClfxTolerance *tol)
{
  const State *st = plan->state;
  double       max_abs = clfx_filter_max_abs (src, NULL);
  double       eta = snn_eta (plan, src);

  (void) p;
  (void) dev;
  clfx_tol_init (tol);
  clfx_tol_magnitude (tol, max_abs, 2.0 * max_abs);
  clfx_tol_read (tol, max_abs);
  if (eta > 0.0)
    {
      clfx_tol_scaled (tol, eta * max_abs);
      clfx_tol_clause (tol, "texels' read error %.2g of their value", eta);
    }
  clfx_tol_sum (tol, "the picks' mean", st->count, 1.0, max_abs);
  clfx_tol_builtin (tol, "division", 2.5, max_abs);
  if (plan->decode)
    clfx_tol_srgb (tol, dst->depth, plan->srgb_tables);
  clfx_tol_store (tol, dst->depth, false);
  clfx_tol_clause (tol, "picks within float rounding of another: the "
                   "envelope of their choices (bounds)");
}

static const char *const uses_snn[] = { "filter", "snn-radius", "pairs",
                                        "addressing", NULL };

const ClfxVariant clfx_variant_snn_mean
  = { "snn-mean",
      "snn-mean",
      CLFX_N_ ("Symmetric nearest neighbour (GEGL's snn-mean)"),
      uses_snn,
      snn_plan,
      NULL,
      snn_cl,
      snn_cpu,
      snn_tolerance,
      snn_bounds,
      clfx_filter_describe,
      NULL,
      CLFX_SNN_MEAN_PLACE,
      NULL,
      NULL };
