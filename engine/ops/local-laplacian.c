/* SPDX-License-Identifier: GPL-3.0-or-later */
/* local-laplacian.c: the tonemap family's local-laplacian (docs/TONEMAP.md,
 * kernels/local-laplacian.cl): Paris, Hasinoff and Kautz's local Laplacian
 * filter in the fast form of Aubry et al., on L = log10 max (Y, floor)
 * after the family's statistics (tonemap-common.c): K remapped images of
 * L (samples g_k spanning L's range), the Laplacian pyramid of each, and
 * per coefficient the two around L's own Gaussian pyramid value
 * interpolated; the collapse is the result's log luminance, colour
 * follows it.  The pyramids need the whole image at once: in tiles, L is
 * whole, made by a pass over the tiles (tm_plan_fields), and the result
 * the one-piece run's.
 *
 * The reference is local-laplacian-ref.c's, in double, the same
 * algorithm with the same samples; validation accepts float's rounding
 * through the pyramid (ll_t_bound). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/local-laplacian-shapes.h"
#include "clfx-params.h"
#include "local-laplacian-ref.h"
#include "tonemap-common.h"

/* The float unit roundoff, 2^-24, in the bounds below. */
#define U CLFX_FLOAT_EPS

#define LL_MAX_LEVELS 32

typedef struct
{
  const ClfxImage       *src;
  float                 *out;     /* RGBA of the reference, per pixel */
  ClfxLocalLaplacianInfo info;
} LlCache;

typedef struct
{
  TmState  tm;
  double   detail, compression, edge;
  int      samples;   /* K */
  LlCache *ref;
} LlState;

static void
cache_free (LlCache *c)
{
  if (! c)
    return;
  free (c->out);
  free (c);
}

static void
state_free (void *data)
{
  LlState *ls = data;

  cache_free (ls->ref);
  free (data);
}

/* Sides halved, rounding up, until 1 x 1: the levels' sizes (level 0 the
 * image's) and N, the top's level. */
static int
ll_levels (int w, int h, int *lw, int *lh)
{
  int n = 0;

  lw[0] = w;
  lh[0] = h;
  while ((lw[n] > 1 || lh[n] > 1) && n + 1 < LL_MAX_LEVELS)
    {
      lw[n + 1] = (lw[n] + 1) / 2;
      lh[n + 1] = (lh[n] + 1) / 2;
      n++;
    }
  return n;
}

/* ---- OpenCL ---------------------------------------------------------------- */

static bool
ll_params (ClfxGraph *g, const TmState *st, cl_mem stats, float n,
           cl_mem prm, ClfxError *error)
{
  const LlState *ls = (const LlState *) st;
  ClfxLaunch     one = TM_ONE ("ll_params");

  return CLFX_LAUNCH (g, &one, error, CLFX_ARG (stats), CLFX_FLOAT (n),
                      CLFX_INT (ls->samples), CLFX_ARG (prm));
}

static ClfxLaunch
ll_launch (const char *kernel, int w, int h)
{
  ClfxLaunch l = { kernel, NULL, NULL, 2, { (size_t) w, (size_t) h },
                   { 0, 0 } };
  return l;
}

/* n rounded up to whole work-groups of LL_TILE. */
static size_t
ll_round (int n)
{
  return ((size_t) n + LL_TILE - 1) / LL_TILE * LL_TILE;
}

static cl_mem
ll_buffer (ClfxGraph *g, const char *what, int level, size_t floats,
           ClfxError *error)
{
  char name[48];

  snprintf (name, sizeof name, "local-laplacian %s %d", what, level);
  return clfx_graph_buffer (g, name, 4 * floats, error);
}

/* The samples' chunk: all K where their pyramids (levels 1 up, 4/3 of
 * 4 bytes a pixel each) fit a quarter of the run's memory budget (the
 * plan counts two) and level 1's buffer fits one allocation; else as
 * many as do, at least 2.  The result does not depend on it. */
static int
ll_chunk (ClfxGraph *g, int K, size_t pixels)
{
  const ClfxDeviceInfo *dev = clfx_graph_device (g);
  double                per = 16.0 / 3.0 * (double) pixels;
  double                room = (double) clfx_graph_budget (g) / 4.0;
  double                c = fmin (room / per, (double) dev->max_alloc
                                                / (double) pixels);

  return c >= K ? K : c < 2.0 ? 2 : (int) c;
}

/* The graph after the field: where whole (one piece, or the first tile)
 * L's pyramid, then per chunk of samples their pyramids and their terms
 * of every level's coefficients, then the collapse down to level 1; the
 * map of the current piece. */
static bool
ll_cl (ClfxGraph *g, const TmState *st, bool whole, cl_mem scan, cl_mem prm,
       ClfxError *error)
{
  const LlState  *ls = (const LlState *) st;
  const ClfxPlan *plan = clfx_graph_plan (g);
  const ClfxTile *t = clfx_graph_tile (g);
  int             lw[LL_MAX_LEVELS], lh[LL_MAX_LEVELS], K = ls->samples;
  int             n = ll_levels (plan->width, plan->height, lw, lh);
  size_t          pixels = (size_t) plan->width * (size_t) plan->height;
  int             C = ll_chunk (g, K, pixels);
  float           sigma = (float) ls->edge;
  float           beta = (float) (1.0 - ls->compression);
  float           am1 = (float) (ls->detail - 1.0);
  /* L's Gaussian pyramid (GL[0] = L), the coefficients (O[0..n-1]; each
   * level's result over them, level n's is GL[n]), a chunk's remapped
   * images (Gk[1..n], C planes a level). */
  cl_mem          GL[LL_MAX_LEVELS], O[LL_MAX_LEVELS], Gk[LL_MAX_LEVELS];
  cl_mem          hist, result1, coef0;
  ClfxLaunch      map = ll_launch ("ll_map", t->out.width, t->out.height);

  for (int l = 0; l <= n; l++)
    if (! (GL[l] = l ? ll_buffer (g, "L", l, (size_t) lw[l] * lh[l], error)
                     : tm_field_buffer (g, st, error))
        || (l < n
            && ! (O[l] = ll_buffer (g, "coefficients", l,
                                    (size_t) lw[l] * lh[l], error))))
      return false;
  for (int l = 1; whole && l <= n; l++)
    {
      ClfxLaunch down = ll_launch ("ll_down", lw[l], lh[l]);
      if (! (Gk[l] = ll_buffer (g, "remapped", l, (size_t) C * lw[l] * lh[l],
                                error))
          || ! CLFX_LAUNCH (g, &down, error, CLFX_ARG (GL[l - 1]),
                            CLFX_INT (lw[l - 1]), CLFX_INT (lh[l - 1]),
                            CLFX_ARG (GL[l]), CLFX_INT (lw[l]),
                            CLFX_INT (lh[l])))
        return false;
    }
  for (int k0 = 0; whole && n > 0 && k0 < K; k0 += C)
    {
      int        c = K - k0 < C ? K - k0 : C, first = k0 == 0;
      ClfxLaunch remap = { "ll_down_remap", NULL, NULL, 2,
                           { ll_round (lw[1]), ll_round (lh[1]) },
                           { LL_TILE, LL_TILE } };
      if (! CLFX_LAUNCH (g, &remap, error, CLFX_ARG (GL[0]), CLFX_INT (lw[0]),
                         CLFX_INT (lh[0]), CLFX_ARG (Gk[1]), CLFX_INT (lw[1]),
                         CLFX_INT (lh[1]), CLFX_ARG (prm), CLFX_INT (k0),
                         CLFX_INT (c), CLFX_FLOAT (sigma), CLFX_FLOAT (beta),
                         CLFX_FLOAT (am1),
                         CLFX_LOCAL (4 * LL_SPAN * LL_SPAN),
                         CLFX_LOCAL (4 * LL_SPAN * LL_SPAN),
                         CLFX_LOCAL (4 * LL_SPAN * LL_TILE)))
        return false;
      for (int l = 2; l <= n; l++)
        {
          ClfxLaunch downk = ll_launch ("ll_down_k", lw[l], c * lh[l]);
          if (! CLFX_LAUNCH (g, &downk, error, CLFX_ARG (Gk[l - 1]),
                             CLFX_INT (lw[l - 1]), CLFX_INT (lh[l - 1]),
                             CLFX_ARG (Gk[l]), CLFX_INT (lw[l]),
                             CLFX_INT (lh[l]), CLFX_INT (c)))
            return false;
        }
      /* Level 0 has no remapped level of its own: any buffer stands in. */
      for (int l = 0; l < n; l++)
        {
          ClfxLaunch accum = ll_launch ("ll_accum", lw[l], lh[l]);
          cl_mem     level = l ? Gk[l] : GL[0];
          if (! CLFX_LAUNCH (g, &accum, error, CLFX_ARG (GL[l]),
                             CLFX_ARG (level), CLFX_ARG (Gk[l + 1]),
                             CLFX_ARG (O[l]), CLFX_INT (lw[l]),
                             CLFX_INT (lh[l]), CLFX_INT (lw[l + 1]),
                             CLFX_INT (lh[l + 1]), CLFX_ARG (prm),
                             CLFX_INT (K), CLFX_INT (k0), CLFX_INT (c),
                             CLFX_INT (first), CLFX_INT (l == 0),
                             CLFX_FLOAT (sigma), CLFX_FLOAT (beta),
                             CLFX_FLOAT (am1)))
            return false;
        }
    }
  for (int l = n - 1; whole && l >= 1; l--)
    {
      ClfxLaunch collapse = ll_launch ("ll_collapse", lw[l], lh[l]);
      cl_mem     coarser = l + 1 == n ? GL[n] : O[l + 1];
      if (! CLFX_LAUNCH (g, &collapse, error, CLFX_ARG (O[l]),
                         CLFX_ARG (coarser), CLFX_INT (lw[l]),
                         CLFX_INT (lh[l]), CLFX_INT (lw[l + 1]),
                         CLFX_INT (lh[l + 1])))
        return false;
    }
  /* A 1 x 1 image has no pyramid: any buffer stands in for level 0's
   * coefficients and level 1. */
  result1 = n > 1 ? O[1] : GL[n];
  coef0 = n ? O[0] : GL[0];
  return (hist = tm_hist_buffer (g, "histogram after", TM_HA_N, error))
         && CLFX_LAUNCH (g, &map, error, CLFX_SRC, CLFX_DST, CLFX_ARG (scan),
                         CLFX_FLOAT (ls->tm.scale), CLFX_ARG (GL[0]),
                         CLFX_ARG (coef0), CLFX_INT (lw[0]),
                         CLFX_ARG (result1), CLFX_INT (n ? lw[1] : 1),
                         CLFX_INT (n ? lh[1] : 1), CLFX_ARG (prm),
                         CLFX_INT (n == 0), CLFX_ARG (hist),
                         CLFX_LOCAL (4 * TM_HA_N));
}

/* ---- CPU reference ------------------------------------------------------------ */

/* local-laplacian-ref.c's run on this image (every pixel as tm_ref_read
 * gives it); once per plan. */
static const LlCache *
ll_compute (const ClfxPlan *plan, const ClfxImage *src, double scale,
            ClfxError *error)
{
  LlState                    *ls = plan->state;
  LlCache                    *c = ls->ref;
  long                        n = (long) src->width * src->height;
  ClfxLocalLaplacianRefParams prm = { ls->detail, ls->compression, ls->edge,
                                      ls->samples, false };
  double                     *in = NULL;
  TmRef                       r;

  if (c && c->src == src)
    return c;
  cache_free (c);
  ls->ref = NULL;
  if (! (c = calloc (1, sizeof *c))
      || ! (c->out = malloc ((size_t) (n ? n : 1) * 4 * sizeof *c->out))
      || ! (in = malloc ((size_t) (n ? n : 1) * 4 * sizeof *in)))
    goto nomem;
  c->src = src;
  tm_ref_collect (src, plan, scale, &r);
  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      tm_ref_read (src, plan, &r, x, y, scale,
                   in + 4 * ((long) y * src->width + x));
  if (! clfx_local_laplacian_ref (src->width, src->height, in, c->out, &prm,
                                  &c->info))
    goto nomem;
  free (in);
  ls->ref = c;
  return c;
nomem:
  cache_free (c);
  free (in);
  clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  return NULL;
}

/* The distance in L' - L (log10 units) validation accepts between the
 * device's result and the reference's, for N levels, |alpha - 1| = a and
 * values of L, the samples and the remapped images within M: float's
 * rounding, carried through the pyramid, none of it amplified (the
 * pyramid's filters are averages; a remap moves at most 1 + a times what
 * moves its value or its sample; a Laplacian coefficient, a difference
 * of two averages of remapped values, at most twice that):
 *   e0 = 3 u M + (4 u + 2 eta) / ln 10    L's (Y's sums, log10's 3 ulp)
 *   each down                10 u M      (five-tap sums, twice)
 *   G_l[L], the samples      e0 + 10 l u M, e0 + 4 u M
 *   a remapped value         (1 + a) (2 e0 + 8 u M)
 *   O_l                      2 (1 + a) (e0 + 10 l u M + 3 u M)
 *                              (the interpolation's position)
 *                            + 2 (1 + a) (2 e0 + 8 u M) + (20 l + 18) u M
 *                              (its two coefficients, their sums and ups)
 *   the collapse             5 u M a level, and the top's e0 + 10 N u M
 *   L' - L                   L's e0 and the difference's u M.
 * It grows as N^2, the levels' count, a logarithm of the image's size
 * (13 at 8192 pixels); not with the pixels. */
static double
ll_t_bound (int levels, double a, double M, double eta)
{
  double e0 = 3.0 * U * M + (4.0 * U + 2.0 * eta) / log (10.0), sum = 0.0;

  for (int l = 0; l < levels; l++)
    sum += 2.0 * (1.0 + a) * (e0 + 10.0 * l * U * M + 3.0 * U * M)
           + 2.0 * (1.0 + a) * (2.0 * e0 + 8.0 * U * M)
           + (20.0 * l + 18.0) * U * M + 5.0 * U * M;
  return sum + 2.0 * e0 + (10.0 * levels + 1.0) * U * M;
}

/* The result's bound in linear light, relative: colour times 10^(L' -
 * L): L''s bound times ln 10 (L's own error is in it), exp10's 3 ulp of
 * the factor and the product's rounding; the read's eta. */
static void
ll_bound (const ClfxParams *p, const ClfxPlan *plan, const ClfxImage *src,
          ClfxTolerance *tol)
{
  const LlState *ls = plan->state;
  double         scale = exp2 (CLFX_PARAMS_OF (p, ClfxTonemapParams)->exposure);
  ClfxError      e = { 0 };
  const LlCache *c = ll_compute (plan, src, scale, &e);
  double         eta = tm_read_eta (plan, src), a = fabs (ls->detail - 1.0);
  double         M, dl;

  clfx_tol_init (tol);
  if (! c)
    {
      clfx_tol_clause (tol, "local-laplacian's bound: %s", e.message);
      return;
    }
  M = fmax (fabs (c->info.l_min), fabs (c->info.l_max)) + a * ls->edge + 1.0;
  dl = c->info.levels ? ll_t_bound (c->info.levels, a, M, eta) : 0.0;
  tol->rel_tol += expm1 (log (10.0) * dl) + 6.0 * U + 2.0 * eta;
  clfx_tol_clause (tol, "local-laplacian: log10 luminance within %.3g "
                   "(float's rounding through %d levels, %d samples, "
                   "values within %.3g), times ln 10; colour within its "
                   "float rounding",
                   dl, c->info.levels, c->info.samples, M);
}

static bool
ll_cpu (const ClfxParams *p, const ClfxPlan *plan, const ClfxImage *src,
        ClfxImage *dst, ClfxProbes *probes, ClfxError *error)
{
  const LlState *ls = plan->state;
  double         scale = exp2 (CLFX_PARAMS_OF (p, ClfxTonemapParams)->exposure);
  TmRef          r;
  TmRefHists     h;
  ClfxTolerance  lin;
  const LlCache *c;

  if (! (c = ll_compute (plan, src, scale, error)))
    return false;
  if (probes)
    ll_bound (p, plan, src, &lin);
  tm_ref_run_made (plan, src, dst, scale, c->out, probes ? &lin : NULL, &r,
                   &h);
  if (probes && ! tm_ref_probes (&ls->tm, &r, &h, probes))
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  return true;
}

static void
ll_tolerance (const ClfxParams *p, const ClfxPlan *plan,
              const ClfxDeviceInfo *dev, const ClfxImage *src,
              const ClfxImage *dst, ClfxTolerance *tol)
{
  (void) dev;
  ll_bound (p, plan, src, tol);
  tm_tol_encode (plan, dst, tol);
}

/* ---- the variant ----------------------------------------------------------- */

static const TmProbe ll_probes[] = { { NULL, 0, 0 } };

static bool
ll_plan (const ClfxParams *p, const ClfxImage *src, ClfxPlan *plan,
         ClfxError *error)
{
  const ClfxLocalLaplacianParams *lp
    = &CLFX_PARAMS_OF (p, ClfxTonemapParams)->local_laplacian;
  LlState                        *ls;

  if (! (ls = calloc (1, sizeof *ls)))
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  plan->state = ls;
  plan->free_state = state_free;
  ls->tm.stats = true;
  ls->tm.log_eps = 1e-5;
  ls->tm.params = ll_params;
  ls->tm.probes = ll_probes;
  ls->tm.field_kernel = "ll_log";
  ls->tm.field_kernel_v = "ll_log_v";
  ls->tm.field_name = "local-laplacian L";
  ls->tm.local = ll_cl;
  ls->detail = lp->detail;
  ls->compression = lp->range_compression;
  ls->edge = lp->edge;
  ls->samples = clfx_local_laplacian_samples (lp->edge);
  tm_plan_common (p, src, plan, &ls->tm);
  tm_plan_fields (plan, &ls->tm);
  /* L and its pyramid (4/3 of 4 bytes), the coefficients' levels (4/3),
   * the pyramids of a chunk of at least 2 remapped images (2 x 4/3; up
   * to a quarter of the memory budget more, ll_chunk); whole in tiles
   * too. */
  plan->bytes_per_image_pixel = 6 + 6 + 11;
  return true;
}

static const char *const uses_local_laplacian[] = { "operator", "exposure",
                                                    "laplacian-detail",
                                                    "range-compression",
                                                    "edge", NULL };

const ClfxVariant clfx_variant_local_laplacian = {
  "local-laplacian", "local-laplacian",
  CLFX_N_ ("Local Laplacian filter (Paris, Hasinoff and Kautz; Aubry et "
           "al.'s fast form) on log luminance"),
  uses_local_laplacian, ll_plan, NULL, tm_local_run_cl, ll_cpu, ll_tolerance, NULL,
  tm_describe, tm_field_stats_cl, CLFX_LOCAL_LAPLACIAN_PLACE, NULL, NULL
};
