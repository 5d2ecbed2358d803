/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tonemap-global.c: the tonemap family's global operators
 * (docs/TONEMAP.md, kernels/tonemap-global.cl): reinhard02 (pfstmo's
 * photographic operator), reinhard05 (gegl:reinhard05), drago03 (pfstmo's
 * adaptive logarithm) and aces (Hill's fit of the ACES RRT + sRGB ODT).
 * Each maps a pixel by constants made from the family's statistics
 * (tonemap-common.c); each is a descriptor (GlobalOp: its map, its
 * constants and their reference, its bounds) behind callbacks the four
 * share.
 *
 * Where the published operators give NaN, clfx defines the result: a black
 * image (max Y = 0) maps to black; a pixel of Y = 0 maps to 0 (reinhard02,
 * drago03; pfstmo divides 0 by 0); reinhard05's k is kept >= 0 and a
 * photoreceptor whose denominator is 0 gives 0; its range normalisation is
 * skipped when the range is flat. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clfx-params.h"
#include "tonemap-common.h"

/* The float unit roundoff, 2^-24, in the bounds below. */
#define U CLFX_FLOAT_EPS

typedef struct GlobalState GlobalState;

/* What one global operator is. */
typedef struct
{
  int     map;     /* TM_REINHARD02 ...: its map and constants on the
                    * device (tm_params, tm_map) */
  double  log_eps; /* the log-average's offset: pfstmo's reinhard02 1e-5,
                    * GEGL's reinhard05 2.3e-5, pfstmo's drago03 1e-4 */
  bool    stats;   /* statistics and constants (all but aces) */
  bool    range;   /* reinhard05: the range of its mapped colour */
  /* Relative bounds of the constants' own float evaluation, per slot
   * (map_bound). */
  double  own[8];
  /* The constants' probes on the device. */
  TmProbe probes[3];
  /* The constants in double from r's statistics, after
   * tm_ref_params_begin's, as tm_params makes them in float. */
  void (*constants) (const GlobalState *gs, TmRef *r);
  /* Colour c of pixel v (luminance Y) mapped, in double. */
  void (*map_ref) (const double *p, const double v[4], double Y,
                   double c[3]);
  /* The map's own float arithmetic and the texels' read error eta (base:
   * the reference's statistics and constants) into tol. */
  void (*map_error) (const ClfxPlan *plan, const ClfxImage *src,
                     double scale, const TmRef *base, double eta,
                     ClfxTolerance *tol);
  /* The constants' probes of the reference (rel: the log-average's
   * relative bound, dlog: the log sum's over n); NULL: none. */
  bool (*ref_probes) (const TmRef *r, double rel, double dlog,
                      ClfxProbes *probes);
} GlobalOp;

struct GlobalState
{
  TmState         tm;
  const GlobalOp *op;
  double          a1, a2, a3; /* the operator's arguments (tm_params) */
  /* reinhard05 with chromatic adaptation: the constants read each
   * channel's mean (map_bound). */
  bool            channel_sums;
};

/* ---- OpenCL ---------------------------------------------------------------- */

static bool
global_params (ClfxGraph *g, const TmState *st, cl_mem stats, float n,
               cl_mem prm, ClfxError *error)
{
  const GlobalState *gs = (const GlobalState *) st;
  ClfxLaunch         one = TM_ONE ("tm_params");

  return CLFX_LAUNCH (g, &one, error, CLFX_ARG (stats),
                      CLFX_INT (gs->op->map), CLFX_FLOAT (n),
                      CLFX_FLOAT ((float) gs->a1), CLFX_FLOAT ((float) gs->a2),
                      CLFX_FLOAT ((float) gs->a3), CLFX_ARG (prm));
}

static bool
global_cl (ClfxGraph *g, const ClfxParams *p, ClfxError *error)
{
  const ClfxPlan    *plan = clfx_graph_plan (g);
  const GlobalState *gs = plan->state;
  const ClfxTile    *t = clfx_graph_tile (g);
  /* CPU devices: TM_V pixels of a row in TM_MAP_ROWS rows per work-item
   * (tm_map_v). */
  bool               v = clfx_graph_source_is_buffer (g);
  /* reinhard05's colour kept from the range pass (TmState.keep) where the
   * range pass runs here, over the result's whole rect. */
  bool               keep = gs->tm.keep && v && clfx_graph_pass (g) < 0
                            && ! plan->given_stats
                            && t->out.x == 0 && t->out.y == 0
                            && t->out.width == plan->width
                            && t->out.height == plan->height;
  ClfxLaunch         map = { keep ? "tm_map_kept_v" : v ? "tm_map_v" : "tm_map",
                             NULL, NULL, 2,
                             { v ? ((size_t) t->out.width + TM_V - 1) / TM_V
                                 : (size_t) t->out.width,
                               v ? ((size_t) t->out.height + TM_MAP_ROWS - 1)
                                     / TM_MAP_ROWS
                                 : (size_t) t->out.height },
                             { 0, 0 } };
  cl_mem             scan, prm, hist;

  (void) p;
  return tm_stages_cl (g, &gs->tm, keep, error)
         && (scan = tm_scan_buffer (g, &gs->tm, error))
         && (prm = tm_params_buffer (g, &gs->tm, error))
         && (hist = tm_hist_buffer (g, "histogram after", TM_HA_N, error))
         && CLFX_LAUNCH (g, &map, error, CLFX_SRC, CLFX_DST, CLFX_ARG (scan),
                         CLFX_FLOAT (gs->tm.scale), CLFX_INT (gs->op->map),
                         CLFX_ARG (prm), CLFX_ARG (hist),
                         CLFX_LOCAL (4 * TM_HA_N))
         && tm_probes_cl (g, &gs->tm, error);
}

/* ---- CPU reference ------------------------------------------------------------ */

/* The constants: the family's, then the operator's. */
static void
global_ref_params (const GlobalState *gs, TmRef *r)
{
  tm_ref_params_begin (r);
  if (gs->op->constants)
    gs->op->constants (gs, r);
}

/* A pixel mapped: a black image (TM_P_BLACK, from the statistics) to
 * black, else by the operator. */
static void
ref_map (const GlobalOp *op, const double *p, double v[4])
{
  double Y = tm_ref_luminance (v), c[3] = { v[0], v[1], v[2] };

  if (op->stats && p[TM_P_BLACK] != 0.0)
    c[0] = c[1] = c[2] = 0.0;
  else
    op->map_ref (p, v, Y, c);
  v[0] = c[0];
  v[1] = c[1];
  v[2] = c[2];
}

static void
global_pixel (const void *data, const TmRef *r, int x, int y, double v[4])
{
  (void) x;
  (void) y;
  ref_map (((const GlobalState *) data)->op, r->prm, v);
}

/* reinhard05's photoreceptor. */
static void
ref_r05 (const double v[4], double Y, const double *p, double c[3])
{
  for (int k = 0; k < 3; k++)
    {
      double il = p[6] * v[k] + (1.0 - p[6]) * Y;
      double ia = p[7] * il + (1.0 - p[7]) * p[3 + k];
      double d = v[k] + pow (p[0] * ia, p[1]);
      c[k] = d > 0.0 ? v[k] / d : 0.0;
    }
}

/* reinhard05's range of the mapped colour over pixels with Y > 0, from
 * the constants in r. */
static void
ref_range (const ClfxImage *src, const ClfxPlan *plan, double scale,
           TmRef *r)
{
  double lo = INFINITY, hi = -INFINITY;

  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      {
        double v[4], c[3], Y;
        tm_ref_read (src, plan, r, x, y, scale, v);
        if ((Y = tm_ref_luminance (v)) <= 0.0)
          continue;
        ref_r05 (v, Y, r->prm, c);
        for (int k = 0; k < 3; k++)
          {
            lo = fmin (lo, c[k]);
            hi = fmax (hi, c[k]);
          }
      }
  r->prm[TM_P_RANGE_LO] = lo;
  r->prm[TM_P_RANGE_HI] = hi;
  r->prm[TM_P_RANGE_SCALE] = hi > lo ? 1.0 / (hi - lo) : 0.0;
}

/* reinhard05's range into r: the given one (ClfxPlan.stats), else the
 * source's under r's constants. */
static void
range_of (const ClfxImage *src, const ClfxPlan *plan, double scale, TmRef *r)
{
  if (plan->given_stats)
    tm_ref_given_range (plan, r);
  else
    ref_range (src, plan, scale, r);
}

/* The largest change of any mapped value when the constants move from
 * base's to q's. */
static double
map_change (const ClfxImage *src, const ClfxPlan *plan, double scale,
            const TmRef *base, const TmRef *q)
{
  const GlobalState *gs = plan->state;
  double             worst = 0.0;

  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      {
        double a[4], b[4];
        tm_ref_read (src, plan, base, x, y, scale, a);
        memcpy (b, a, sizeof b);
        ref_map (gs->op, base->prm, a);
        ref_map (gs->op, q->prm, b);
        for (int c = 0; c < 3; c++)
          worst = fmax (worst, fabs (a[c] - b[c]));
      }
  return worst;
}

/* reinhard05: q's range from q's constants.  A flat range (every mapped
 * value the same: a gray or one-pixel image) stays flat: the device maps
 * equal inputs to equal values, and a moved constant cannot open it.  A
 * given range (ClfxPlan.stats) does not move with them. */
static void
keep_range (const ClfxImage *src, const ClfxPlan *plan, double scale,
            const TmRef *base, TmRef *q)
{
  if (! ((const GlobalState *) plan->state)->op->range)
    return;
  range_of (src, plan, scale, q);
  if (base->prm[TM_P_RANGE_SCALE] == 0.0)
    q->prm[TM_P_RANGE_SCALE] = 0.0;
}

/* What the device's map may differ by before its store.  The statistics
 * and constants are moved, one at a time, by their bounds
 * (tm_ref_lavg_bound's; the constants by their own float evaluation:
 * divisions 2.5 ulp, exp and log 3, pow 16) and the largest change of any
 * mapped value is added: first-order propagation through the operator
 * itself.  Then the map's own float arithmetic per pixel, and the texels'
 * read error. */
static void
map_bound (const ClfxPlan *plan, const ClfxImage *src, double scale,
           ClfxTolerance *tol)
{
  const GlobalState *gs = plan->state;
  const GlobalOp    *op = gs->op;
  TmRef              base, q;
  double             stats = 0.0, consts = 0.0, eta;

  clfx_tol_init (tol);
  memset (&base, 0, sizeof base);
  if (op->stats)
    {
      tm_ref_stats (src, plan, scale, &base);
      global_ref_params (gs, &base);
      if (op->range)
        range_of (src, plan, scale, &base);
      for (int k = 0; k < 6; k++)
        {
          q = base;
          switch (k)
            {
            case 0:
              q.sum_log += 26.0 * U * q.sum_abs_log + (8.0 + 6.0) * U * q.n;
              break;
            case 1:
              q.sum_y *= 1.0 + 26.0 * U;
              break;
            case 2:
            case 3:
              /* A channel's sum (reinhard05 with chromatic adaptation):
               * all three together, then the largest's alone. */
              if (! gs->channel_sums)
                continue;
              for (int c = 0; c < 3; c++)
                if (k == 2 || q.sum_c[c] >= fmax (q.sum_c[0],
                                                  fmax (q.sum_c[1],
                                                        q.sum_c[2])))
                  q.sum_c[c] *= 1.0 + 26.0 * U;
              break;
            case 4:
              q.max_y *= 1.0 + (8.0 + 6.0 * fabs (log (fmax (q.max_y,
                                                             1e-300))))
                                 * U;
              break;
            default:
              q.min_y += (2.3e-5 + q.min_y)
                         * (8.0 + 6.0 * fabs (log (2.3e-5 + q.min_y))) * U;
              break;
            }
          global_ref_params (gs, &q);
          keep_range (src, plan, scale, &base, &q);
          stats += map_change (src, plan, scale, &base, &q);
        }
      for (int i = 0; i < 8; i++)
        if (op->own[i] > 0.0)
          {
            q = base;
            q.prm[i] *= 1.0 + op->own[i] * U;
            keep_range (src, plan, scale, &base, &q);
            consts += map_change (src, plan, scale, &base, &q);
          }
      tol->abs_tol += stats + consts;
      clfx_tol_clause (tol, "statistics moved by their bounds: %.3g; the "
                       "constants by their float evaluation: %.3g "
                       "(first-order, through the operator)",
                       stats, consts);
    }
  /* The texels' read error, relative: the unorm conversion 1.5 ulp, powr
   * 16 ulp where sRGB is decoded by the formula; an operator moves its
   * result by at most 3 times a relative change of its input (reinhard05:
   * the photoreceptor's slope, 1/4, over the range). */
  eta = tm_read_eta (plan, src);
  op->map_error (plan, src, scale, &base, eta, tol);
  if (eta > 0.0)
    clfx_tol_clause (tol, "texels read within %.2g relative, 3x through "
                     "the map", eta);
}

/* The result's bound in linear light, before the encoding and the store
 * (computed once per image: TmState.lin). */
static void
linear_bound (const ClfxParams *p, const ClfxPlan *plan,
              const ClfxImage *src, ClfxTolerance *tol)
{
  GlobalState *gs = plan->state;
  double       scale = exp2 (CLFX_PARAMS_OF (p, ClfxTonemapParams)->exposure);

  if (gs->tm.lin_src == src)
    {
      *tol = gs->tm.lin;
      return;
    }
  map_bound (plan, src, scale, tol);
  gs->tm.lin = *tol;
  gs->tm.lin_src = src;
}

static bool
global_cpu (const ClfxParams *p, const ClfxPlan *plan, const ClfxImage *src,
            ClfxImage *dst, ClfxProbes *probes, ClfxError *error)
{
  const GlobalState *gs = plan->state;
  double        scale = exp2 (CLFX_PARAMS_OF (p, ClfxTonemapParams)->exposure);
  TmRef         r;
  TmRefHists    h;
  ClfxTolerance lin;

  memset (&h, 0, sizeof h);
  tm_ref_stats (src, plan, scale, &r);
  global_ref_params (gs, &r);
  if (gs->op->range)
    range_of (src, plan, scale, &r);
  /* The result's bound in linear light, for the after histogram. */
  if (probes)
    linear_bound (p, plan, src, &lin);
  tm_ref_run (plan, src, dst, scale, &r, global_pixel, gs,
              probes ? &lin : NULL, &h);
  if (! probes)
    return true;
  {
    double dlog, rel = tm_ref_lavg_bound (&r, &dlog);
    if (! tm_ref_probes (&gs->tm, &r, &h, probes)
        || (gs->op->ref_probes && ! gs->op->ref_probes (&r, rel, dlog,
                                                        probes)))
      return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  }
  if (gs->op->range)
    {
      /* The range is a min and max of mapped colour: bounded as each
       * mapped value is (map_bound, before the store). */
      ClfxTolerance t;
      linear_bound (p, plan, src, &t);
      if (! clfx_probes_add (probes, "range", r.prm + TM_P_RANGE_LO, 2, true,
                             t.abs_tol, t.rel_tol, t.basis))
        return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
    }
  return true;
}

static void
global_tolerance (const ClfxParams *p, const ClfxPlan *plan,
                  const ClfxDeviceInfo *dev, const ClfxImage *src,
                  const ClfxImage *dst, ClfxTolerance *tol)
{
  (void) dev;
  linear_bound (p, plan, src, tol);
  tm_tol_encode (plan, dst, tol);
}

/* ---- reinhard02 ---------------------------------------------------------------- */

/* As tm_params: 1 / white^2 where white^2 is a normal float, else 1 /
 * white (white^2 below) or nothing (above: L / white^2 < 1 / white). */
static void
reinhard02_constants (const GlobalState *gs, TmRef *r)
{
  double  lavg = r->prm[TM_P_LAVG];
  double  a = gs->a1 / lavg, white = gs->a2 > 0.0 ? gs->a2 : a * r->max_y;
  double  ww = white * white;
  double *p = r->prm;

  p[0] = a;
  p[1] = ww >= FLT_MIN && ww <= FLT_MAX ? 1.0 / ww : 0.0;
  p[2] = white;
  p[3] = white > 0.0 && ww < FLT_MIN ? 1.0 / white : 0.0;
}

static void
reinhard02_map (const double *p, const double v[4], double Y, double c[3])
{
  double L = p[0] * Y;
  double t = p[3] > 0.0 ? L * p[3] * p[3] : L * p[1];
  double ld = L * (1.0 + t) / (1.0 + L);

  for (int k = 0; k < 3; k++)
    c[k] = Y > 0.0 ? v[k] * ld / Y : 0.0;
}

static void
reinhard02_error (const ClfxPlan *plan, const ClfxImage *src, double scale,
                  const TmRef *base, double eta, ClfxTolerance *tol)
{
  (void) plan;
  (void) src;
  (void) scale;
  (void) base;
  tol->rel_tol += 30.0 * U + 3.0 * eta;
  clfx_tol_clause (tol, "map: Y 8 u twice, 4 operations, a division: "
                   "30 u relative");
}

/* The constants: each one's inputs' bounds times its sensitivity to them
 * (at most 2 for a and white, the log-average and the maximum entering
 * once each), and its own float evaluation. */
static bool
reinhard02_probes (const TmRef *r, double rel, double dlog,
                   ClfxProbes *probes)
{
  (void) dlog;
  return clfx_probes_add (probes, "scale a, white", r->prm, 3, true, 0.0,
                          2.0 * (rel + 8.0 * U) + 8.0 * U,
                          "a = key / Lavg, white = a max Y: 2 (stats) + "
                          "8 u");
}

static const GlobalOp reinhard02 = {
  TM_REINHARD02, 1e-5, true, false,
  { 6, 10, 0, 5 }, /* a, 1 / white^2, -, 1 / white */
  { { "scale a, white", 0, 3 }, { NULL, 0, 0 } },
  reinhard02_constants, reinhard02_map, reinhard02_error, reinhard02_probes,
};

/* ---- reinhard05 ---------------------------------------------------------------- */

static void
reinhard05_constants (const GlobalState *gs, TmRef *r)
{
  double  mean = r->prm[TM_P_MEAN];
  double  lmax = log (r->max_y), den = lmax - log (2.3e-5 + r->min_y);
  double  k = den != 0.0 ? (lmax - r->sum_log / r->n) / den : 0.0;
  double *p = r->prm;

  k = k > 0.0 ? k : 0.0;
  p[0] = exp (-gs->a1);
  p[1] = 0.3 + 0.7 * pow (k, 1.4);
  p[2] = k;
  for (int c = 0; c < 3; c++)
    p[3 + c] = gs->a2 * (r->sum_c[c] / r->n) + (1.0 - gs->a2) * mean;
  p[6] = gs->a2;
  p[7] = gs->a3;
}

static void
reinhard05_map (const double *p, const double v[4], double Y, double c[3])
{
  if (Y > 0.0)
    ref_r05 (v, Y, p, c);
  else
    c[0] = c[1] = c[2] = 0.0;
  for (int k = 0; k < 3 && p[TM_P_RANGE_SCALE] > 0.0; k++)
    c[k] = (c[k] - p[TM_P_RANGE_LO]) * p[TM_P_RANGE_SCALE];
}

/* The largest |ln C| of a colour value C > 0 of a pixel the map gives a
 * photoreceptor (Y > 0), for the power's bound (reinhard05_error). */
static double
largest_log (const ClfxImage *src, const ClfxPlan *plan, double scale,
             const TmRef *base)
{
  double worst = 0.0;

  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      {
        double v[4];
        tm_ref_read (src, plan, base, x, y, scale, v);
        if (tm_ref_luminance (v) <= 0.0)
          continue;
        for (int c = 0; c < 3; c++)
          if (v[c] > 0.0 && isfinite (v[c]))
            worst = fmax (worst, fabs (log (v[c])));
      }
  return worst;
}

/* P = (f Ia)^m as exp2 (m log2 (f Ia)): log2 and exp2 3 ulp and the
 * product, 7 u |ln P| + 6 u relative, and Ia's 8 u times m (<= 1).
 * C / (C + P) moves by r / (1 + r)^2 of that, r = P / C: with |ln P| <=
 * |ln r| + |ln C|, r |ln r| / (1 + r)^2 <= 0.224 and r / (1 + r)^2 <= 1/4,
 * at most 7 u (0.224 + L / 4) + 14 u / 4, L the largest |ln C| of the
 * image; a division and the normalisation's arithmetic 10 u. */
static void
reinhard05_error (const ClfxPlan *plan, const ClfxImage *src, double scale,
                  const TmRef *base, double eta, ClfxTolerance *tol)
{
  double s = base->prm[TM_P_RANGE_SCALE] > 0.0 ? base->prm[TM_P_RANGE_SCALE]
                                               : 1.0;
  double L = largest_log (src, plan, scale, base);
  double e = 7.0 * (0.224 + L / 4.0) + 14.0 / 4.0 + 10.0;

  tol->abs_tol += (e * U + eta) * s;
  tol->rel_tol += 4.0 * U;
  clfx_tol_clause (tol, "map: the power (exp2 of a log2) 7 u |ln P| "
                   "+ 6 u and Ia 8 u into C / (C + P) (r / (1 + r)^2 "
                   "of it, largest |ln C| %.3g), a division: %.3g u, "
                   "times the normalisation %.3g", L, e, s);
}

/* k = (ln Lmax - Llog) / (ln Lmax - ln (eps + Lmin)): the numerator moves
 * by dlog + 8 u + log's 6 u |ln Lmax|, the denominator by 16 u + 6 u
 * (|ln Lmax| + |ln (eps + Lmin)|); m = 0.3 + 0.7 k^1.4 moves by
 * 0.98 k^0.4 dk + pow's 32 u. */
static bool
reinhard05_probes (const TmRef *r, double rel, double dlog,
                   ClfxProbes *probes)
{
  double lmax = fabs (log (r->max_y)), lmin = fabs (log (2.3e-5 + r->min_y));
  double num = fabs (log (r->max_y) - r->sum_log / r->n);
  double den = fabs (log (r->max_y) - log (2.3e-5 + r->min_y));
  double dk = den > 0.0 ? (dlog + 8.0 * U + 6.0 * U * lmax) / den
                            + num * (16.0 * U + 6.0 * U * (lmax + lmin))
                                / (den * den)
                        : 0.0;
  double k = r->prm[2], dm = 0.98 * pow (k, 0.4) * dk + 32.0 * U;
  double tol3[3] = { 6.0 * U * r->prm[0], dm, dk + 4.0 * U * k };

  (void) rel;
  return clfx_probes_add (probes, "f, contrast m, key k", r->prm, 3, true,
                          fmax (fmax (tol3[0], tol3[1]), tol3[2]), 0.0,
                          "k: the log sum's and log's bounds over its "
                          "denominator; m: 0.98 k^0.4 dk + pow 32 u");
}

static const GlobalOp reinhard05 = {
  TM_REINHARD05, 2.3e-5, true, true,
  { 6, 32, 0, 6, 6, 6 }, /* f, m, -, Ig */
  { { "f, contrast m, key k", 0, 3 }, { "range", TM_P_RANGE_LO, 2 },
    { NULL, 0, 0 } },
  reinhard05_constants, reinhard05_map, reinhard05_error, reinhard05_probes,
};

/* ---- drago03 ------------------------------------------------------------------- */

/* As tm_params: log10 (Lmax' + 1) through log1p where Lmax' < 0.5. */
static void
drago03_constants (const GlobalState *gs, TmRef *r)
{
  double  lavg = r->prm[TM_P_LAVG], lmax = r->max_y / lavg;
  double *p = r->prm;

  p[0] = 1.0 / lavg;
  p[1] = r->max_y > 0.0 ? 1.0 / r->max_y : 0.0;
  p[2] = lmax >= 0.5 ? 1.0 / log10 (lmax + 1.0) : log (10.0) / log1p (lmax);
  p[3] = log (gs->a1) / log (0.5);
}

static void
drago03_map (const double *p, const double v[4], double Y, double c[3])
{
  /* ln (1 + yw) as pfstmo writes it (within 2^-23 relative in double
   * above 2^-30), or through log1p below, where 1 + yw loses more of
   * yw's bits than float has (a tiny image's pixels: all of them below
   * 2^-53). */
  double yw = Y * p[0];
  double ln1 = yw < 0x1p-30 ? log1p (yw) : log (yw + 1.0);
  double ld = ln1 / log (2.0 + 8.0 * pow (Y * p[1], p[3])) * p[2];

  for (int k = 0; k < 3; k++)
    c[k] = Y > 0.0 ? v[k] * ld / Y : 0.0;
}

/* t = (Y / max Y)^b as exp2 (b log2 t0): log2 and exp2 3 ulp and the
 * product, 7 u |ln t| + 6 u relative in t; through ln (2 + 8 t) that is at
 * most 8 t (7 u |ln t| + 6 u) / ((2 + 8 t) ln (2 + 8 t)), 17 u (t |ln t|
 * <= 1 / e, t <= 1): inside powr's 32 u over ln 2, which this budget was
 * made with. */
static void
drago03_error (const ClfxPlan *plan, const ClfxImage *src, double scale,
               const TmRef *base, double eta, ClfxTolerance *tol)
{
  (void) plan;
  (void) src;
  (void) scale;
  (void) base;
  tol->rel_tol += 80.0 * U + 3.0 * eta;
  clfx_tol_clause (tol, "map: the power (exp2 of a log2) 17 u, log 6 u, "
                   "log1p 4 u, two divisions, Y 8 u: 80 u relative");
}

static bool
drago03_probes (const TmRef *r, double rel, double dlog, ClfxProbes *probes)
{
  (void) dlog;
  return clfx_probes_add (probes, "1/Lavg, 1/max Y, 1/log10, exponent",
                          r->prm, 4, true, 0.0,
                          2.0 * (rel + 8.0 * U) + 24.0 * U,
                          "from the log-average and max Y: 2 (stats) + "
                          "log10, log and divisions 24 u");
}

static const GlobalOp drago03 = {
  TM_DRAGO03, 1e-4, true, false,
  { 5, 5, 20, 20 },
  { { "1/Lavg, 1/max Y, 1/log10, exponent", 0, 4 }, { NULL, 0, 0 } },
  drago03_constants, drago03_map, drago03_error, drago03_probes,
};

/* ---- aces ---------------------------------------------------------------------- */

static void
aces_map (const double *p, const double v[4], double Y, double c[3])
{
  static const double in[3][3] = { { 0.59719, 0.35458, 0.04823 },
                                   { 0.07600, 0.90834, 0.01566 },
                                   { 0.02840, 0.13383, 0.83777 } };
  static const double out[3][3] = { { 1.60475, -0.53108, -0.07367 },
                                    { -0.10208, 1.10813, -0.00605 },
                                    { -0.00327, -0.07276, 1.07602 } };
  double w[3];

  (void) p;
  (void) v;
  (void) Y;
  for (int i = 0; i < 3; i++)
    {
      double a = in[i][0] * c[0] + in[i][1] * c[1] + in[i][2] * c[2];
      a = fmin (a, 1e18);
      w[i] = (a * (a + 0.0245786) - 0.000090537)
             / (a * (0.983729 * a + 0.4329510) + 0.238081);
    }
  for (int i = 0; i < 3; i++)
    c[i] = fmin (fmax (out[i][0] * w[0] + out[i][1] * w[1]
                         + out[i][2] * w[2],
                       0.0),
                 1.0);
}

static void
aces_error (const ClfxPlan *plan, const ClfxImage *src, double scale,
            const TmRef *base, double eta, ClfxTolerance *tol)
{
  (void) plan;
  (void) src;
  (void) scale;
  (void) base;
  tol->abs_tol += 128.0 * U + 3.0 * eta;
  clfx_tol_clause (tol, "map: float constants and two 3 x 3 products "
                   "(5 u of 2.2 x the curve), the curve's cancellation "
                   "near 0.003 (3 u of 1.03 / 0.238): 128 u");
}

/* No statistics: the exposed colour through the curve (on float and half
 * data the scan still finds the largest finite value). */
static const GlobalOp aces = {
  TM_ACES, 1e-5, false, false, { 0 }, { { NULL, 0, 0 } },
  NULL, aces_map, aces_error, NULL,
};

/* ---- the variants -------------------------------------------------------------- */

static bool
global_plan (const ClfxParams *p, const ClfxImage *src, ClfxPlan *plan,
             const GlobalOp *op, double a1, double a2, double a3,
             ClfxError *error)
{
  GlobalState *gs;

  if (! (gs = calloc (1, sizeof *gs)))
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  plan->state = gs;
  plan->free_state = free;
  gs->op = op;
  gs->a1 = a1;
  gs->a2 = a2;
  gs->a3 = a3;
  gs->tm.stats = op->stats;
  gs->tm.range = op->range;
  gs->tm.log_eps = op->log_eps;
  gs->tm.params = global_params;
  gs->tm.probes = op->probes;
  gs->tm.range_probe = op->range ? "range" : NULL;
  gs->tm.keep = op->range && src->depth == CLFX_DEPTH_FLOAT
                && src->channels == 4 && ! clfx_plan_decodes (true, src);
  tm_plan_common (p, src, plan, &gs->tm);
  /* The statistics are gathered tile by tile when the image is tiled
   * (blocks of TM_BW x TM_BH at fixed places: the tiled result is the
   * one-piece result bit for bit). */
  plan->stats_passes = (gs->tm.scan ? 1 : 0) + (op->stats ? 1 : 0)
                       + (op->range ? 1 : 0);
  plan->stats_align[0] = TM_BW;
  plan->stats_align[1] = TM_BH;
  /* The statistics read the source, then tm_map_v maps each pixel where
   * it reads it: the result can go over the source. */
  plan->in_place = true;
  return true;
}

/* Ranges start at 0 for the dialog's sake; key and bias must not be 0. */
static bool
reinhard02_plan (const ClfxParams *p, const ClfxImage *src, ClfxPlan *plan,
                 ClfxError *error)
{
  const ClfxReinhard02Params *rp
    = &CLFX_PARAMS_OF (p, ClfxTonemapParams)->reinhard02;

  if (rp->key < 0.001)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "reinhard02: key %g: it must be at least 0.001",
                           rp->key);
  /* Below, a white point lets L / white^2 overflow float on an image of
   * huge values (L up to key / 1e-5 times TM_CAP): a = key / Lavg is at
   * most 1e5, so at 0.001 the map's a (1 + L / white^2) stays below
   * 2e35. */
  if (rp->white_point > 0.0 && rp->white_point < 0.001)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "reinhard02: white-point %g: it must be 0 (the "
                           "image's largest) or at least 0.001",
                           rp->white_point);
  return global_plan (p, src, plan, &reinhard02, rp->key, rp->white_point,
                      0.0, error);
}

static bool
reinhard05_plan (const ClfxParams *p, const ClfxImage *src, ClfxPlan *plan,
                 ClfxError *error)
{
  const ClfxReinhard05Params *rp
    = &CLFX_PARAMS_OF (p, ClfxTonemapParams)->reinhard05;

  if (! global_plan (p, src, plan, &reinhard05, rp->brightness,
                     rp->chromatic, rp->light, error))
    return false;
  ((GlobalState *) plan->state)->channel_sums = rp->chromatic != 0.0;
  return true;
}

static bool
drago03_plan (const ClfxParams *p, const ClfxImage *src, ClfxPlan *plan,
              ClfxError *error)
{
  const ClfxDrago03Params *dp
    = &CLFX_PARAMS_OF (p, ClfxTonemapParams)->drago03;

  if (dp->bias < 0.01)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "drago03: bias %g: it must be at least 0.01",
                           dp->bias);
  return global_plan (p, src, plan, &drago03, dp->bias, 0.0, 0.0, error);
}

static bool
aces_plan (const ClfxParams *p, const ClfxImage *src, ClfxPlan *plan,
           ClfxError *error)
{
  return global_plan (p, src, plan, &aces, 0.0, 0.0, 0.0, error);
}

static const char *const uses_r02[] = { "operator", "exposure", "key",
                                        "white-point", NULL };
static const char *const uses_r05[] = { "operator", "exposure", "brightness",
                                        "chromatic", "light", NULL };
static const char *const uses_drago[] = { "operator", "exposure", "bias",
                                          NULL };
static const char *const uses_aces[] = { "operator", "exposure", NULL };

#define VARIANT(id, blurb, plan, uses, place)                                \
  { id, "tonemap-global", blurb, uses, plan, NULL, global_cl, global_cpu,   \
    global_tolerance, NULL, tm_describe, tm_stats_cl, place,                \
    tm_take_stats, tm_stats_of }
const ClfxVariant clfx_variant_reinhard02
  = VARIANT ("reinhard02",
             CLFX_N_ ("Reinhard 2002 photographic (pfstmo's, global)"),
             reinhard02_plan, uses_r02, CLFX_REINHARD02_PLACE);
const ClfxVariant clfx_variant_reinhard05
  = VARIANT ("reinhard05", CLFX_N_ ("Reinhard 2005 (gegl:reinhard05)"),
             reinhard05_plan, uses_r05, CLFX_REINHARD05_PLACE);
const ClfxVariant clfx_variant_drago03
  = VARIANT ("drago03", CLFX_N_ ("Drago 2003 adaptive logarithm (pfstmo's)"),
             drago03_plan, uses_drago, CLFX_DRAGO03_PLACE);
const ClfxVariant clfx_variant_aces
  = VARIANT ("aces",
             CLFX_N_ ("ACES filmic (Hill's fit of the RRT + sRGB ODT)"),
             aces_plan, uses_aces, CLFX_ACES_PLACE);
#undef VARIANT
