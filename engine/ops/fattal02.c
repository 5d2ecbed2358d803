/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fattal02.c: the tonemap family's fattal02 (docs/TONEMAP.md,
 * kernels/fattal02.cl): Fattal, Lischinski and Werman's gradient-domain
 * operator as gegl:fattal02 makes it, after the family's statistics
 * (tonemap-common.c): H = ln luminance, its gradients attenuated level by
 * level of a pyramid, the Poisson equation for U solved by a full
 * multigrid on the device, L = exp (U) normalised between two
 * percentiles, colour (c / Y)^saturation.  The Poisson equation needs the
 * whole image at once: in tiles, H is whole, made by a pass over the
 * tiles (tm_plan_fields), and the result the one-piece run's.
 *
 * The reference is fattal-ref.c's solve in double; the device's distance
 * from it is estimated by stochastic arithmetic (fattal_compute). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/fattal02-shapes.h"
#include "clfx-params.h"
#include "fattal-ref.h"
#include "tonemap-common.h"
#include "../clfx-validate.h"

/* The reference's U, read before U names the unit roundoff. */
static inline const double *
fattal_u (const ClfxFattalRef *r)
{
  return r->U;
}

/* The float unit roundoff, 2^-24, in the bounds below. */
#define U CLFX_FLOAT_EPS

typedef struct FattalCache FattalCache;

typedef struct
{
  TmState      tm;
  double       alpha, beta, saturation;
  double       noise; /* the noise floor (0 given: 0.1 alpha) */
  /* The reference's solve, kept for the tolerance and the probes (the
   * same image; computed once). */
  FattalCache *fat;
} FattalState;

struct FattalCache
{
  const ClfxImage *src;
  ClfxFattalRef    r;
  /* Where r has ties at phi's threshold (r.ties > 0): per pixel, out
   * moved by every group of them decided the other way that lowers it,
   * and by every one that raises it (fattal_bounds). */
  double          *out_lo, *out_hi;
  double          *Y;         /* per pixel, as tm_ref_read gives it */
  double          *s;         /* per pixel: max over channels of (c / Y)^sat */
  double           du;        /* the accepted distance of U (fattal_bound) */
  double           du_est;    /* the emulated rounding's distance */
  double           max_h;     /* max |H| */
  double           band[32];  /* per level: |grad|'s bound, the tie band */
  double           tie_out;   /* max |out| moved by the ties' other way */
  double           smax;      /* max of s */
};

static void
fattal_cache_free (FattalCache *c)
{
  if (! c)
    return;
  clfx_fattal_ref_free (&c->r);
  free (c->out_lo);
  free (c->out_hi);
  free (c->Y);
  free (c->s);
  free (c);
}

static void
state_free (void *data)
{
  FattalState *fs = data;

  fattal_cache_free (fs->fat);
  free (data);
}

/* ---- OpenCL ---------------------------------------------------------------- */

static bool
fattal_params (ClfxGraph *g, const TmState *st, cl_mem stats, float n,
               cl_mem prm, ClfxError *error)
{
  ClfxLaunch one = TM_ONE ("fat_params");

  (void) st;
  return CLFX_LAUNCH (g, &one, error, CLFX_ARG (stats), CLFX_FLOAT (n),
                      CLFX_ARG (prm));
}

/* docs/TONEMAP.md's sizes: the pyramid's levels (GEGL's rule) and the
 * multigrid's grids, grid m being gw[m] x gh[m]. */
#define FAT_MAX_GRIDS 40

static int
fattal_levels (int w, int h)
{
  int m = w < h ? w : h, n = 0;

  while (m / 2 >= 32)
    {
      n++;
      m /= 2;
    }
  return n > 0 ? n : 1;
}

static int
fattal_grids (int w, int h, int *gw, int *gh)
{
  int n = 0;

  gw[0] = w;
  gh[0] = h;
  while ((gw[n] > 8 || gh[n] > 8) && n + 1 < FAT_MAX_GRIDS)
    {
      gw[n + 1] = (gw[n] + 1) / 2;
      gh[n + 1] = (gh[n] + 1) / 2;
      n++;
    }
  return n + 1;
}

static cl_mem
fat_buffer (ClfxGraph *g, const char *what, int m, int w, int h,
            ClfxError *error)
{
  char name[48];

  snprintf (name, sizeof name, "fattal %s %d", what, m);
  return clfx_graph_buffer (g, name, 4 * (size_t) w * (size_t) h, error);
}

static ClfxLaunch
fat_launch (const char *kernel, int w, int h)
{
  ClfxLaunch l = { kernel, NULL, NULL, 2, { (size_t) w, (size_t) h },
                   { 0, 0 } };
  return l;
}

/* The sum of n floats into f[slot] times mul (kernels/fattal02.cl's
 * fat_sum: fixed chunks, so the same bits every run). */
static bool
fat_sum (ClfxGraph *g, cl_mem v, long n, float mul, cl_mem f, int slot,
         ClfxError *error)
{
  long       groups = (n + 65535) / 65536, chunk;
  /* CPU devices: eight of fat_sum's work-items in one (fat_sum_v). */
  bool       cpu = clfx_graph_source_is_buffer (g);
  size_t     nl = cpu ? FAT_SUM / TM_V : FAT_SUM;
  ClfxLaunch part = { cpu ? "fat_sum_v" : "fat_sum", NULL, NULL, 1, { 0, 1 },
                      { nl, 1 } };
  ClfxLaunch final = { "fat_sum_final", NULL, NULL, 1, { FAT_SUM, 1 },
                       { FAT_SUM, 1 } };
  cl_mem     partials;

  /* At most 4096 groups' partials. */
  groups = groups < 1 ? 1 : groups > 4096 ? 4096 : groups;
  chunk = (n + groups - 1) / groups;
  part.global[0] = nl * (size_t) groups;
  return (partials = clfx_graph_buffer (g, "fattal partials", 4 * 4096,
                                        error))
         && CLFX_LAUNCH (g, &part, error, CLFX_ARG (v), CLFX_ARG (n),
                         CLFX_ARG (chunk), CLFX_ARG (partials),
                         CLFX_LOCAL (4 * FAT_SUM))
         && CLFX_LAUNCH (g, &final, error, CLFX_ARG (partials),
                         CLFX_INT ((int) groups), CLFX_FLOAT (mul),
                         CLFX_ARG (f), CLFX_INT (slot),
                         CLFX_LOCAL (4 * FAT_SUM));
}

/* The multigrid's grids: U and F of each, their sizes, the last (the
 * coarsest) and its solve's matrix; cpu: the sweeps, restrictions and
 * prolongations in the CPU devices' form (fat_sweep_v, fat_restrict_v,
 * fat_prolong_v: FAT_SWEEP_V cells of a colour, coarse cells or pairs of
 * fine ones a work-item). */
typedef struct
{
  cl_mem u[FAT_MAX_GRIDS], f[FAT_MAX_GRIDS], inverse;
  int    w[FAT_MAX_GRIDS], h[FAT_MAX_GRIDS], last;
  bool   cpu;
} FatGrids;

/* Grid m + 1 restricted from grid m, and grid m + 1 prolonged onto m: in
 * the CPU devices' form FAT_SWEEP_V coarse cells, 2 FAT_SWEEP_V fine ones
 * a work-item (fat_restrict_v, fat_prolong_v). */
static ClfxLaunch
fat_restrict_launch (const FatGrids *gr, int m)
{
  return gr->cpu ? fat_launch ("fat_restrict_v",
                               (gr->w[m + 1] + FAT_SWEEP_V - 1) / FAT_SWEEP_V,
                               gr->h[m + 1])
                 : fat_launch ("fat_restrict", gr->w[m + 1], gr->h[m + 1]);
}

static ClfxLaunch
fat_prolong_launch (const FatGrids *gr, int m)
{
  return gr->cpu ? fat_launch ("fat_prolong_v",
                               (gr->w[m] + 2 * FAT_SWEEP_V - 1)
                                 / (2 * FAT_SWEEP_V),
                               gr->h[m])
                 : fat_launch ("fat_prolong", gr->w[m], gr->h[m]);
}

/* The coarsest solve's B = (A - J / n)^-1 for a w x h grid (n = w h <=
 * FAT_COARSE, A the unit-weight operator of docs/TONEMAP.md, J all ones),
 * by Gauss-Jordan elimination with partial pivoting in double.  A - J / n
 * is negative definite (A's null space, the constants, moves to -1), so
 * no pivot is 0; B applied to a mean-free F is A's pseudo-inverse: the
 * mean-free solution of A U = F. */
static bool
fat_coarse_inverse (int w, int h, float *out, ClfxError *error)
{
  int     n = w * h, c2 = 2 * n;
  double *m = malloc (sizeof (double) * (size_t) n * (size_t) c2);

  if (! m)
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
#define M(i, j) m[(size_t) (i) * (size_t) c2 + (size_t) (j)]
  for (int i = 0; i < n; i++)
    {
      int x = i % w, y = i / w;
      for (int j = 0; j < c2; j++)
        M (i, j) = j < n ? -1.0 / n : (j - n == i ? 1.0 : 0.0);
      M (i, i) -= (x > 0) + (x + 1 < w) + (y > 0) + (y + 1 < h);
      if (x > 0)
        M (i, i - 1) += 1.0;
      if (x + 1 < w)
        M (i, i + 1) += 1.0;
      if (y > 0)
        M (i, i - w) += 1.0;
      if (y + 1 < h)
        M (i, i + w) += 1.0;
    }
  for (int c = 0; c < n; c++)
    {
      int    p = c;
      double d;
      for (int r = c + 1; r < n; r++)
        if (fabs (M (r, c)) > fabs (M (p, c)))
          p = r;
      for (int j = 0; j < c2 && p != c; j++)
        {
          double t = M (c, j);
          M (c, j) = M (p, j);
          M (p, j) = t;
        }
      d = M (c, c);
      for (int j = 0; j < c2; j++)
        M (c, j) /= d;
      for (int r = 0; r < n; r++)
        if (r != c && M (r, c) != 0.0)
          {
            double k = M (r, c);
            for (int j = 0; j < c2; j++)
              M (r, j) -= k * M (c, j);
          }
    }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      out[i * n + j] = (float) M (i, n + j);
#undef M
  free (m);
  return true;
}

/* A V-cycle at grid m (docs/TONEMAP.md); zero: U (m) starts at 0 (its
 * first half sweep then reads no neighbour and sets the other half). */
static bool
fat_vcycle (ClfxGraph *g, const FatGrids *gr, int m, bool zero,
            ClfxError *error)
{
  ClfxLaunch    coarse = { "fat_coarse", NULL, NULL, 1, { FAT_COARSE, 1 },
                           { FAT_COARSE, 1 } };
  const cl_mem *Us = gr->u, *Fs = gr->f;
  const int    *gw = gr->w, *gh = gr->h;

  if (m == gr->last)
    return CLFX_LAUNCH (g, &coarse, error, CLFX_ARG (Us[m]), CLFX_ARG (Fs[m]),
                        CLFX_INT (gw[m]), CLFX_INT (gh[m]),
                        CLFX_ARG (gr->inverse));
  {
    ClfxLaunch sweep
      = gr->cpu ? fat_launch ("fat_sweep_v",
                              ((gw[m] + 1) / 2 + FAT_SWEEP_V - 1)
                                / FAT_SWEEP_V,
                              gh[m])
                : fat_launch ("fat_sweep", (gw[m] + 1) / 2, gh[m]);
    ClfxLaunch restr = fat_restrict_launch (gr, m);
    ClfxLaunch prolong = fat_prolong_launch (gr, m);

    for (int k = 0; k < 4; k++)
      if (! CLFX_LAUNCH (g, &sweep, error, CLFX_ARG (Us[m]), CLFX_ARG (Fs[m]),
                         CLFX_INT (gw[m]), CLFX_INT (gh[m]), CLFX_INT (k % 2),
                         CLFX_INT (zero && k == 0)))
        return false;
    if (! CLFX_LAUNCH (g, &restr, error, CLFX_ARG (Us[m]), CLFX_ARG (Fs[m]),
                       CLFX_INT (gw[m]), CLFX_INT (gh[m]), CLFX_INT (1),
                       CLFX_ARG (Fs[m + 1]), CLFX_INT (gw[m + 1]),
                       CLFX_INT (gh[m + 1])))
      return false;
    if (! fat_vcycle (g, gr, m + 1, true, error))
      return false;
    if (! CLFX_LAUNCH (g, &prolong, error, CLFX_ARG (Us[m + 1]),
                       CLFX_INT (gw[m + 1]), CLFX_INT (gh[m + 1]),
                       CLFX_ARG (Us[m]), CLFX_INT (gw[m]), CLFX_INT (gh[m]),
                       CLFX_INT (1)))
      return false;
    for (int k = 0; k < 4; k++)
      if (! CLFX_LAUNCH (g, &sweep, error, CLFX_ARG (Us[m]), CLFX_ARG (Fs[m]),
                         CLFX_INT (gw[m]), CLFX_INT (gh[m]), CLFX_INT (k % 2),
                         CLFX_INT (0)))
        return false;
  }
  return true;
}

/* fattal02's graph after the statistics and constants: H, the pyramid,
 * the gradients and their averages, Phi, the divergence, the full
 * multigrid, U's mean, the percentiles, the map. */
/* The graph after the field: where whole (one piece, or the first tile)
 * the pyramid, the attenuation, the multigrid solve and the percentiles;
 * the map of the current piece. */
static bool
fattal_cl (ClfxGraph *g, const TmState *st, bool whole, cl_mem scan,
           cl_mem prm, ClfxError *error)
{
  const FattalState *fs = (const FattalState *) st;
  const ClfxPlan *plan = clfx_graph_plan (g);
  const ClfxTile *t = clfx_graph_tile (g);
  int             w = plan->width, h = plan->height;
  int             levels = fattal_levels (w, h);
  FatGrids        gr;
  int             grids = fattal_grids (w, h, gr.w, gr.h);
  int            *gw = gr.w, *gh = gr.h, last = gr.last = grids - 1;
  long            n = (long) w * h;
  cl_mem          P[32], G[32], Phi[32], *Us = gr.u, *Fs = gr.f;
  cl_mem          f, hist;
  float           inverse[FAT_COARSE * FAT_COARSE];
  /* CPU devices: H, the gradients, Phi, the divergence and the map eight
   * pixels of a row a work-item, the map in TM_MAP_ROWS rows (fat_h_v,
   * fat_grad_v, fat_phi_v, fat_div_v, fat_map_v), and the multigrid's
   * forms (FatGrids). */
  bool            cpu = gr.cpu = clfx_graph_source_is_buffer (g);
  ClfxLaunch      div
    = cpu ? fat_launch ("fat_div_v", (w + TM_V - 1) / TM_V, h)
          : fat_launch ("fat_div", w, h);
  ClfxLaunch      map
    = cpu ? fat_launch ("fat_map_v", (t->out.width + TM_V - 1) / TM_V,
                        (t->out.height + TM_MAP_ROWS - 1) / TM_MAP_ROWS)
          : fat_launch ("fat_map", t->out.width, t->out.height);
  ClfxLaunch      center = { "fat_center", NULL, NULL, 1, { (size_t) n, 1 },
                             { 0, 0 } };

  if (! (f = clfx_graph_buffer (g, "fattal parameters", 4 * FAT_F_N, error)))
    return false;
  /* 1-3: H, the pyramid, each level's gradient and its mean. */
  for (int k = 0; k < levels; k++)
    if (! (P[k] = k ? fat_buffer (g, "pyramid", k, w >> k, h >> k, error)
                    : tm_field_buffer (g, st, error))
        || ! (G[k] = fat_buffer (g, "gradient", k, w >> k, h >> k, error))
        || ! (Phi[k] = fat_buffer (g, "phi", k, w >> k, h >> k, error)))
      return false;
  /* A later tile: the whole-image work is done, only its map is due. */
  if (! whole)
    goto map;
  for (int k = 0; k < levels; k++)
    {
      int        wk = w >> k, hk = h >> k;
      ClfxLaunch down = cpu ? fat_launch ("fat_down_v",
                                          (wk / 2 + TM_V - 1) / TM_V, hk / 2)
                            : fat_launch ("fat_down", wk / 2, hk / 2);
      ClfxLaunch grad = cpu ? fat_launch ("fat_grad_v",
                                          (wk + TM_V - 1) / TM_V, hk)
                            : fat_launch ("fat_grad", wk, hk);
      if ((k + 1 < levels
           && ! CLFX_LAUNCH (g, &down, error, CLFX_ARG (P[k]), CLFX_INT (wk),
                             CLFX_INT (hk), CLFX_ARG (P[k + 1]),
                             CLFX_INT (wk / 2), CLFX_INT (hk / 2)))
          || ! CLFX_LAUNCH (g, &grad, error, CLFX_ARG (P[k]), CLFX_INT (wk),
                            CLFX_INT (hk), CLFX_FLOAT (ldexpf (1.0f, -k - 1)),
                            CLFX_ARG (G[k]))
          || ! fat_sum (g, G[k], (long) wk * hk, (float) (1.0 / wk / hk), f,
                        FAT_AVG + k, error))
        return false;
    }
  /* 4: Phi, coarse to fine. */
  for (int k = levels - 1; k >= 0; k--)
    {
      int        wk = w >> k, hk = h >> k, top = k == levels - 1;
      ClfxLaunch phi = cpu ? fat_launch ("fat_phi_v", (wk + TM_V - 1) / TM_V,
                                         hk)
                           : fat_launch ("fat_phi", wk, hk);
      cl_mem     c = top ? G[k] : Phi[k + 1];
      if (! CLFX_LAUNCH (g, &phi, error, CLFX_ARG (G[k]), CLFX_INT (wk),
                         CLFX_INT (hk), CLFX_ARG (c),
                         CLFX_INT (top ? 1 : w >> (k + 1)),
                         CLFX_INT (top ? 1 : h >> (k + 1)), CLFX_INT (top),
                         CLFX_ARG (f), CLFX_INT (k),
                         CLFX_FLOAT ((float) fs->alpha),
                         CLFX_FLOAT ((float) fs->beta),
                         CLFX_FLOAT ((float) fs->noise), CLFX_ARG (Phi[k])))
        return false;
    }
  /* 5, 6: the divergence into F (0), the full multigrid. */
  for (int m = 0; m < grids; m++)
    if (! (Us[m] = fat_buffer (g, "u", m, gw[m], gh[m], error))
        || ! (Fs[m] = fat_buffer (g, "rhs", m, gw[m], gh[m], error)))
      return false;
  {
    size_t cells = (size_t) gw[last] * (size_t) gh[last];
    if (! fat_coarse_inverse (gw[last], gh[last], inverse, error)
        || ! (gr.inverse = clfx_graph_table (g, "fattal coarsest inverse",
                                             inverse,
                                             sizeof (float) * cells * cells,
                                             error)))
      return false;
  }
  if (! CLFX_LAUNCH (g, &div, error, CLFX_ARG (P[0]), CLFX_ARG (Phi[0]),
                     CLFX_INT (w), CLFX_INT (h), CLFX_ARG (Fs[0])))
    return false;
  for (int m = 0; m < last; m++)
    {
      ClfxLaunch restr = fat_restrict_launch (&gr, m);
      if (! CLFX_LAUNCH (g, &restr, error, CLFX_ARG (Fs[m]), CLFX_ARG (Fs[m]),
                         CLFX_INT (gw[m]), CLFX_INT (gh[m]), CLFX_INT (0),
                         CLFX_ARG (Fs[m + 1]), CLFX_INT (gw[m + 1]),
                         CLFX_INT (gh[m + 1])))
        return false;
    }
  if (! fat_vcycle (g, &gr, last, false, error))
    return false;
  for (int m = last - 1; m >= 0; m--)
    {
      ClfxLaunch prolong = fat_prolong_launch (&gr, m);
      if (! CLFX_LAUNCH (g, &prolong, error, CLFX_ARG (Us[m + 1]),
                         CLFX_INT (gw[m + 1]), CLFX_INT (gh[m + 1]),
                         CLFX_ARG (Us[m]), CLFX_INT (gw[m]), CLFX_INT (gh[m]),
                         CLFX_INT (0))
          || ! fat_vcycle (g, &gr, m, false, error)
          || ! fat_vcycle (g, &gr, m, false, error))
        return false;
    }
  /* 6, 7: U minus its mean; the percentiles by radix selection. */
  {
    cl_uint       rlo = (cl_uint) floor (0.001 * (double) n);
    cl_uint       rhi = (cl_uint) floor (0.995 * (double) n);
    const ClfxArg tail[] = { CLFX_ARG (f) };

    if (! fat_sum (g, Us[0], n, (float) (1.0 / (double) n), f, FAT_MEAN,
                   error)
        || ! CLFX_LAUNCH (g, &center, error, CLFX_ARG (Us[0]), CLFX_ARG (n),
                          CLFX_ARG (f))
        || ! tm_select_cl (g, "fattal", "fat_hist", "fat_hist_v", "fat_select",
                           Us[0], n, rlo, rhi, tail, 1, error))
      return false;
  }
map:
  return (Us[0] = fat_buffer (g, "u", 0, gw[0], gh[0], error))
         && (hist = tm_hist_buffer (g, "histogram after", TM_HA_N, error))
         && CLFX_LAUNCH (g, &map, error, CLFX_SRC, CLFX_DST, CLFX_ARG (scan),
                         CLFX_FLOAT (fs->tm.scale), CLFX_ARG (Us[0]),
                         CLFX_INT (w), CLFX_ARG (prm), CLFX_ARG (f),
                         CLFX_FLOAT ((float) fs->saturation), CLFX_ARG (hist),
                         CLFX_LOCAL (4 * TM_HA_N))
         && clfx_graph_probe_at (g, "gradient averages", f, FAT_AVG, levels,
                                 error)
         && clfx_graph_probe_at (g, "L at 0.1 %, 99.5 %", f, FAT_LO, 2,
                                 error);
}

/* ---- CPU reference ------------------------------------------------------------ */

/* fattal-ref.c's solve of this image, once per plan.  du, the distance
 * the device's U may have from the reference's: the device runs the same
 * steps in float.  An a priori bound on an iterative solver's rounding
 * grows with its levels and sweeps far past what happens, so the
 * reference estimates it the way stochastic arithmetic does (CESTAC):
 * it runs the whole pipeline twice more with every stored value moved at
 * random by up to 4 u of the magnitude of its terms (a float sum of four
 * terms rounds within 3 u of them), and takes 4 times the larger
 * distance from its plain run, plus the read's error carried as H's.
 *
 * One step is not continuous: phi is 1 where |grad| <= 1e-4.  A pixel of
 * some level whose |grad| lies within its bound (band) of 1e-4 may be
 * decided either way on the device, and the other decision moves U by a
 * bump around it (at 2048 x 2048 synthetic noise one such pixel moved the
 * result by 0.56 % over some ten pixels).  The emulated runs take the
 * plain run's decisions, so that du is rounding alone.  U is linear in
 * Phi's changes, so the device's result moves by the sum of the bumps of
 * the ties it decides the other way, any subset of them: per pixel from
 * the sum of the negative bumps to that of the positive ones.  Flipped
 * all at once, two neighbouring ties' bumps cancel (at 131 x 70 HDR noise
 * the device moved a pixel 5 times as far as both did), so they are
 * flipped in four groups in which no two ties touch, one run each, and
 * the envelope adds each group's bump where it has its sign. */
static const FattalCache *
fattal_compute (const ClfxPlan *plan, const ClfxImage *src, double scale,
                ClfxError *error)
{
  FattalState *fs = plan->state;
  FattalCache *c = fs->fat;
  TmRef        r;
  long         n = (long) src->width * src->height;
  double       eta = tm_read_eta (plan, src), eh;

  if (c && c->src == src)
    return c;
  fattal_cache_free (c);
  fs->fat = NULL;
  if (! (c = calloc (1, sizeof *c)) || ! (c->Y = malloc (n * sizeof *c->Y))
      || ! (c->s = malloc (n * sizeof *c->s)))
    goto nomem;
  tm_ref_collect (src, plan, scale, &r);
  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      {
        long   at = (long) y * src->width + x;
        double v[4], Y, m = 0.0;
        tm_ref_read (src, plan, &r, x, y, scale, v);
        Y = tm_ref_luminance (v);
        c->Y[at] = Y;
        for (int k = 0; k < 3 && Y > 0.0; k++)
          m = fmax (m, fs->saturation == 0.0 ? 1.0
                                             : pow (v[k] / Y, fs->saturation));
        c->s[at] = m;
        c->smax = fmax (c->smax, m);
        if (r.max_y > 0.0)
          c->max_h = fmax (c->max_h, fabs (log (100.0 * Y / r.max_y
                                                + 1e-4)));
      }
  /* |grad| at level k: a difference of two pyramid values (H's error and
   * 8 u |H| per level, as fattal_probes) over 2^(k + 1), sqrt 2 for the
   * two axes, and the root's own rounding at 1e-4. */
  eh = 8.0 * U + eta + 3.0 * U * c->max_h;
  for (int k = 0; k < 32; k++)
    c->band[k] = 1.5 * 2.0 * ldexp (eh + 8.0 * k * U * c->max_h, -k - 1)
                 + 4.0 * U * 1e-4;
  {
    ClfxFattalRefRun plain = { 0.0, 0, c->band, NULL, false };
    if (! clfx_fattal_ref_run (src->width, src->height, c->Y, fs->alpha,
                               fs->beta, fs->noise, &plain, &c->r))
      goto nomem;
  }
  for (unsigned seed = 1; seed <= 2; seed++)
    {
      ClfxFattalRefRun run = { 4.0 * U, seed, NULL, &c->r, false };
      ClfxFattalRef    q;
      double           d = 0.0;
      if (! clfx_fattal_ref_run (src->width, src->height, c->Y, fs->alpha,
                                 fs->beta, fs->noise, &run, &q))
        goto nomem;
      for (long i = 0; i < n; i++)
        d = fmax (d, fabs (fattal_u (&q)[i] - fattal_u (&c->r)[i]));
      c->du_est = fmax (c->du_est, d);
      clfx_fattal_ref_free (&q);
    }
  if (c->r.ties > 0)
    {
      if (! (c->out_lo = malloc (n * sizeof *c->out_lo))
          || ! (c->out_hi = malloc (n * sizeof *c->out_hi)))
        goto nomem;
      memcpy (c->out_lo, c->r.out, n * sizeof *c->out_lo);
      memcpy (c->out_hi, c->r.out, n * sizeof *c->out_hi);
      for (int group = 1; group <= 4; group++)
        {
          ClfxFattalRefRun run = { 0.0, 0, NULL, &c->r, group };
          ClfxFattalRef    q;
          if (! clfx_fattal_ref_run (src->width, src->height, c->Y,
                                     fs->alpha, fs->beta, fs->noise, &run,
                                     &q))
            goto nomem;
          for (long i = 0; i < n; i++)
            {
              double b = q.out[i] - c->r.out[i];
              if (b < 0.0)
                c->out_lo[i] += b;
              else
                c->out_hi[i] += b;
            }
          clfx_fattal_ref_free (&q);
        }
      for (long i = 0; i < n; i++)
        c->tie_out = fmax (c->tie_out, (c->out_hi[i] - c->out_lo[i])
                                         * c->s[i]);
    }
  c->du = 4.0 * c->du_est + 2.0 * eta;
  c->src = src;
  fs->fat = c;
  return c;
nomem:
  fattal_cache_free (c);
  clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  return NULL;
}

/* The result's bound.  L = exp (U) - 1e-4 moves by dL = (L + 1e-4) g,
 * g = e^du - 1 + exp's 3 ulp; dL grows with L, so the value of a rank
 * moves by no more than dL at that value: lo by Dlo = (lo + 1e-4) g, hi
 * by Dhi alike.  Then out = (L - lo) / R, R = hi - lo (at least R' = R -
 * Dlo - Dhi), moves by (dL + Dlo) / R' + out (Dlo + Dhi) / R', which is
 * out (g + (Dlo + Dhi) / R') + ((lo + 1e-4) g + Dlo) / R' since L + 1e-4
 * = out R + lo + 1e-4; the floor at 0 moves an out near 0 by 1e-4 more.
 * Colour is out times s = (c / Y)^saturation: relative, that plus s's own
 * error (Y 8 u and a division; exp2 (s log2 (c / Y)): log2's 3 ulp times
 * |s log2 (c / Y)|, at most 4.1 where s is not tiny since c <= Y /
 * 0.0606, and exp2's 3 ulp: 48 u, and the read's twice; where c / Y is
 * tiny so is s, and the absolute part covers it); absolute, the rest
 * times the largest s. */
static void
out_bound (const FattalCache *c, long n, double *rel, double *abs)
{
  double g, dlo, dhi, R;

  g = expm1 (c->du) + 6.0 * U;
  dlo = (c->r.lo + 1e-4) * g;
  dhi = (c->r.hi + 1e-4) * g;
  R = c->r.hi - c->r.lo - dlo - dhi;
  if (n == 1)
    {
      /* One pixel is both percentiles: out is 1 on either side. */
      *rel = 0.0;
      *abs = 0.0;
    }
  else if (R > 0.0)
    {
      *rel = g + (dlo + dhi) / R;
      *abs = ((c->r.lo + 1e-4) * g + dlo) / R;
    }
  else
    {
      /* A range within the bounds (a flat image): out may be anything the
       * device's own lo and hi give, the clamp's 1e-4 up to 1. */
      *rel = 0.0;
      *abs = 1.0;
    }
}

/* The floor: an out within that bound of 0 may be floored to 1e-4 on
 * one side and not on the other, which fattal_bounds allows at those
 * pixels alone (as a term of the bound it was 1e-4 times the largest
 * (c / Y)^saturation, 9.4 on synthetic noise, at every pixel). */
static void
fattal_bound (const ClfxPlan *plan, const ClfxImage *src, double scale,
              ClfxTolerance *tol)
{
  ClfxError          e = { 0 };
  const FattalCache *c = fattal_compute (plan, src, scale, &e);
  long               n = (long) src->width * src->height;
  double             smax, rel, abs;

  clfx_tol_init (tol);
  if (! c)
    {
      clfx_tol_clause (tol, "fattal02's bound: %s", e.message);
      return;
    }
  smax = c->smax;
  out_bound (c, n, &rel, &abs);
  tol->abs_tol += abs * smax;
  tol->rel_tol += rel + 48.0 * U + 2.0 * tm_read_eta (plan, src);
  clfx_tol_clause (tol, "fattal02: U within %.3g (4 x %.3g, the "
                   "reference run with float's rounding emulated; the "
                   "multigrid's own algebraic error is %.3g), through exp "
                   "and the percentiles' normalisation (range %.3g): %.3g "
                   "relative, %.3g times the largest (c / Y)^saturation "
                   "%.3g; its own 48 u relative; out near 0 either floored "
                   "to 1e-4 or not",
                   c->du, c->du_est, c->r.alg_err, c->r.hi - c->r.lo, rel,
                   abs, smax);
  if (c->r.ties > 0)
    clfx_tol_clause (tol, "%ld pixels of the pyramid's levels within "
                     "|grad|'s bound of phi's threshold (%.2g at level 0): "
                     "either decision allowed, the reference decided both "
                     "ways (moves the result by up to %.3g)", c->r.ties,
                     c->band[0], c->tie_out);
}

/* fattal02's probes: each level's average gradient (its pyramid's error:
 * H within 8 u + 3 u |H| and the read, each level's 16-term blur 8 u of
 * |H| more; a difference of two over 2^(k + 1); the mean's sums 30 u),
 * and L at the two percentiles (fattal_bound's D, relative). */
static bool
fattal_probes (const ClfxPlan *plan, const ClfxImage *src, double scale,
               ClfxProbes *probes, ClfxError *error)
{
  const FattalCache *c = fattal_compute (plan, src, scale, error);
  double             lh[2], eh, da = 0.0, g;

  if (! c)
    return false;
  eh = 8.0 * U + tm_read_eta (plan, src) + 3.0 * U * c->max_h;
  for (int k = 0; k < c->r.levels; k++)
    da = fmax (da, 2.0 * ldexp (eh + 8.0 * k * U * c->max_h, -k - 1)
                     + 30.0 * U * c->r.avg[k]);
  lh[0] = c->r.lo;
  lh[1] = c->r.hi;
  g = expm1 (c->du) + 6.0 * U;
  if (! clfx_probes_add (probes, "gradient averages", c->r.avg, c->r.levels,
                         true, da, 0.0, "each level's pyramid: H's error "
                         "and 8 u |H| per level, a difference over 2^(k + "
                         "1), the mean's sums 30 u")
      || ! clfx_probes_add (probes, "L at 0.1 %, 99.5 %", lh, 2, true,
                            1e-4 * g, g, "exp (U) - 1e-4 with U within "
                            "fattal_bound's distance"))
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  return true;
}

/* The result's bound in linear light, before the encoding and the store
 * (computed once per image: TmState.lin). */
static void
linear_bound (const ClfxParams *p, const ClfxPlan *plan,
              const ClfxImage *src, ClfxTolerance *tol)
{
  FattalState *fs = plan->state;
  double       scale = exp2 (CLFX_PARAMS_OF (p, ClfxTonemapParams)->exposure);

  if (fs->tm.lin_src == src)
    {
      *tol = fs->tm.lin;
      return;
    }
  fattal_bound (plan, src, scale, tol);
  fs->tm.lin = *tol;
  fs->tm.lin_src = src;
}

typedef struct
{
  const FattalState *fs;
  const double      *out;   /* step 7's out, per pixel */
  int                width;
  /* fattal_bounds: an out up to `near` becomes 0 (floor -1) or at least
   * the floor's 1e-4 (floor 1); floor 0 leaves it. */
  int                floor;
  double             near;
} FattalPixels;

/* Colour out (c / Y)^saturation, 0 where Y = 0 (or the image is black). */
static void
fattal_pixel (const void *data, const TmRef *r, int x, int y, double v[4])
{
  const FattalPixels *fp = data;
  long                at = (long) y * fp->width + x;
  double              Y = tm_ref_luminance (v);
  double              sat = fp->fs->saturation;
  double              o = fp->out[at];

  if (fp->floor && o <= fp->near)
    o = fp->floor < 0 ? 0.0 : fmax (o, 1e-4);
  for (int c = 0; c < 3; c++)
    v[c] = Y > 0.0 && r->prm[TM_P_BLACK] == 0.0
             ? o * (sat == 0.0 ? 1.0 : pow (v[c] / Y, sat))
             : 0.0;
}

static bool
fattal_cpu (const ClfxParams *p, const ClfxPlan *plan, const ClfxImage *src,
            ClfxImage *dst, ClfxProbes *probes, ClfxError *error)
{
  const FattalState *fs = plan->state;
  double        scale = exp2 (CLFX_PARAMS_OF (p, ClfxTonemapParams)->exposure);
  TmRef              r;
  TmRefHists         h;
  ClfxTolerance      lin;
  FattalPixels       fp = { fs, NULL, src->width, 0, 0.0 };
  const FattalCache *c;

  memset (&h, 0, sizeof h);
  tm_ref_collect (src, plan, scale, &r);
  tm_ref_params_begin (&r);
  /* The result's bound in linear light, for the after histogram, where
   * the ties' other decision and the floor may move a pixel too. */
  if (probes)
    linear_bound (p, plan, src, &lin);
  if (! (c = fattal_compute (plan, src, scale, error))
      || (probes && ! fattal_probes (plan, src, scale, probes, error)))
    return false;
  lin.abs_tol += c->tie_out + 1e-4 * c->smax;
  fp.out = c->r.out;
  tm_ref_run (plan, src, dst, scale, &r, fattal_pixel, &fp,
              probes ? &lin : NULL, &h);
  if (probes && ! tm_ref_probes (&fs->tm, &r, &h, probes))
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  return true;
}

/* The results either decision allows, per value from the lowest to the
 * highest of: the reference's; out moved by the ties at phi's threshold
 * decided the other way (fattal_compute's out_lo and out_hi); and where
 * out is within its bound of the floor, floored to 1e-4 or 0. */
static bool
fattal_bounds (const ClfxParams *p, const ClfxPlan *plan,
               const ClfxImage *src, const ClfxImage *ref, ClfxImage *lo,
               ClfxImage *hi, ClfxError *error)
{
  const FattalState *fs = plan->state;
  double       scale = exp2 (CLFX_PARAMS_OF (p, ClfxTonemapParams)->exposure);
  const FattalCache *c = fattal_compute (plan, src, scale, error);
  long               n = (long) src->width * src->height;
  FattalPixels       fp = { fs, NULL, src->width, 0, 0.0 };
  ClfxImage          other = { 0 };
  TmRef              r;
  double             rel, abs;

  if (! c)
    return false;
  memcpy (lo->data, ref->data, ref->stride * (size_t) ref->height);
  memcpy (hi->data, ref->data, ref->stride * (size_t) ref->height);
  if (! clfx_host_image_alloc (&other, ref->width, ref->height,
                               ref->channels, ref->depth, error))
    return false;
  other.transfer = ref->transfer;
  out_bound (c, n, &rel, &abs);
  tm_ref_collect (src, plan, scale, &r);
  tm_ref_params_begin (&r);
  for (int k = 0; k < 2; k++)
    {
      fp.out = c->r.ties == 0 ? c->r.out : k == 0 ? c->out_lo : c->out_hi;
      fp.floor = k == 0 ? -1 : 1;
      fp.near = 1e-4 * (1.0 + rel) + abs;
      tm_ref_run (plan, src, &other, scale, &r, fattal_pixel, &fp, NULL,
                  NULL);
      clfx_validate_widen (lo, hi, &other);
    }
  clfx_host_image_free (&other);
  return true;
}

static void
fattal_tolerance (const ClfxParams *p, const ClfxPlan *plan,
                  const ClfxDeviceInfo *dev, const ClfxImage *src,
                  const ClfxImage *dst, ClfxTolerance *tol)
{
  (void) dev;
  linear_bound (p, plan, src, tol);
  tm_tol_encode (plan, dst, tol);
}

/* ---- the variant ----------------------------------------------------------- */

static bool
fattal_plan (const ClfxParams *p, const ClfxImage *src, ClfxPlan *plan,
             ClfxError *error)
{
  const ClfxFattal02Params *fp
    = &CLFX_PARAMS_OF (p, ClfxTonemapParams)->fattal02;
  FattalState              *fs;

  /* Ranges start at 0 for the dialog's sake; this must not be 0. */
  if (fp->alpha < 0.001)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "fattal02: alpha %g: it must be at least 0.001",
                           fp->alpha);
  if (! (fs = calloc (1, sizeof *fs)))
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  plan->state = fs;
  plan->free_state = state_free;
  fs->tm.stats = true;
  fs->tm.log_eps = 1e-5;
  fs->tm.params = fattal_params;
  fs->tm.field_kernel = "fat_h";
  fs->tm.field_kernel_v = "fat_h_v";
  fs->tm.field_name = "fattal H";
  fs->tm.local = fattal_cl;
  fs->alpha = fp->alpha;
  fs->beta = fp->beta;
  fs->saturation = fp->saturation;
  fs->noise = fp->noise > 0.0 ? fp->noise : 0.1 * fp->alpha;
  tm_plan_common (p, src, plan, &fs->tm);
  tm_plan_fields (plan, &fs->tm);
  /* H, the gradient, Phi, the right side and U at full size; the pyramid
   * and the coarser grids add a third of each; whole in tiles too. */
  plan->bytes_per_image_pixel = 4 * 5 + 4 * 5 / 3 + 1;
  return true;
}

static const char *const uses_fattal[] = { "operator", "exposure", "alpha",
                                           "beta", "saturation", "noise",
                                           NULL };

const ClfxVariant clfx_variant_fattal02 = {
  "fattal02", "fattal02",
  CLFX_N_ ("Fattal 2002 gradient domain (gegl:fattal02's, a multigrid "
           "Poisson solve)"),
  uses_fattal, fattal_plan, NULL, tm_local_run_cl, fattal_cpu,
  fattal_tolerance, fattal_bounds, tm_describe, tm_field_stats_cl,
  CLFX_FATTAL02_PLACE, NULL, NULL
};
