/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fattal-ref.c: fattal02's luminance pipeline (docs/TONEMAP.md, "fattal02",
 * steps 1 to 7 and "The multigrid") in double on the CPU.
 *
 * Written from that text alone, not from the device's code, so that the two
 * are independent readings of one definition: every step below names the
 * step of the text it implements.  Sums are sequential; nothing here
 * depends on work-group sizes or float constants.
 *
 * Besides the text's result (U, out) it solves the same equation to
 * convergence (U_exact): the multigrid's algebraic error, U - U_exact, is
 * what the text's fixed number of cycles leaves, and a device's float
 * version can be judged against both. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fattal-ref.h"

/* "The multigrid": the V-cycles of the full multigrid per grid; the
 * coarsest grid's cells (at most 8 x 8). */
#define FMG_CYCLES    2
#define COARSE_MAX    64
/* U_exact's stopping rule. */
#define EXACT_TOL     1e-11
#define EXACT_CYCLES  100

/* Rounding, emulated (clfx_fattal_ref_perturbed): every value stored
 * moves by up to pert times the magnitude of the terms it was made of, in
 * a random direction (a fixed generator per run) -- what a float
 * computation's roundings do, each within a few ulp of its terms.  0: the
 * plain double pipeline.  Thread-local: the reference may run on several
 * threads at once. */
static _Thread_local double   pert;
static _Thread_local uint64_t pert_state;

static inline double
jitter (double v, double terms)
{
  uint64_t x;

  if (pert == 0.0)
    return v;
  /* splitmix64: uniform in [-1, 1). */
  x = (pert_state += 0x9e3779b97f4a7c15ull);
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  x ^= x >> 31;
  return v + pert * terms * ((double) (x >> 11) * 0x1p-52 - 1.0);
}

/* One operation's result, rounded to nearest: within u of itself, a
 * quarter of pert (4 u: the few operations' worth a stored value's
 * jitter stands for). */
static inline double
rounded (double v)
{
  return jitter (v, 0.25 * fabs (v));
}

typedef struct
{
  int     w, h;
  double *U, *F, *R;  /* solution, right-hand side, residual scratch */
} Grid;

/* Every array of the pyramid and the solver, freed in one place. */
typedef struct
{
  int     levels, ngrids;
  double *P[32];        /* the pyramid (step 2) */
  double *phi[32];      /* phi_k, then Phi_k in place (steps 3, 4) */
  double *tmp, *tmp2;   /* scratch of the largest level's size */
  double *div;          /* step 5 */
  double *L;            /* step 7's sorted copy */
  Grid    g[32];
} Work;

static void
work_free (Work *wk)
{
  for (int k = 0; k < 32; k++)
    {
      free (wk->P[k]);
      free (wk->phi[k]);
      free (wk->g[k].U);
      free (wk->g[k].F);
      free (wk->g[k].R);
    }
  free (wk->tmp);
  free (wk->tmp2);
  free (wk->div);
  free (wk->L);
}

void
clfx_fattal_ref_free (ClfxFattalRef *r)
{
  if (! r)
    return;
  free (r->U);
  free (r->U_exact);
  free (r->out);
  r->U = r->U_exact = r->out = NULL;
  for (int k = 0; k < 32; k++)
    {
      free (r->decided[k]);
      r->decided[k] = NULL;
    }
}

static double *
alloc_n (size_t n)
{
  /* calloc: a zero start is the text's U = 0 and the "all 0" black image. */
  return calloc (n ? n : 1, sizeof (double));
}

/* Step 2's count: how often min (w, h) halves (integer division) to a half
 * of at least 32; at least 1.  It counts the pyramid's levels, level 0
 * included, so level levels - 1 is the coarsest. */
static int
count_levels (int w, int h)
{
  int m = w < h ? w : h;
  int n = 0;

  while (m / 2 >= 32 && n < 31)
    {
      m /= 2;
      n++;
    }
  return n < 1 ? 1 : n;
}

/* "The multigrid": grid m + 1 is ceil (w_m / 2) x ceil (h_m / 2), down to
 * the first with max (w, h) <= 8.  Returns the number of grids, M + 1. */
static int
count_grids (int w, int h)
{
  int n = 1;

  while ((w > 8 || h > 8) && n < 32)
    {
      w = (w + 1) / 2;
      h = (h + 1) / 2;
      n++;
    }
  return n;
}

static inline int
clampi (int v, int lo, int hi)
{
  return v < lo ? lo : v > hi ? hi : v;
}

/* Step 2's blur121: [1 2 1] / 4 along x, then along y, clamped reads (at
 * the edges (3 a + b) / 4).  tmp holds the x pass. */
static void
blur121 (const double *src, int w, int h, double *tmp, double *dst)
{
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        const double *row = src + (size_t) y * w;
        int           xm = clampi (x - 1, 0, w - 1);
        int           xp = clampi (x + 1, 0, w - 1);

        tmp[(size_t) y * w + x]
          = jitter ((row[xm] + 2.0 * row[x] + row[xp]) / 4.0,
                    (fabs (row[xm]) + 2.0 * fabs (row[x]) + fabs (row[xp]))
                      / 4.0);
      }
  for (int y = 0; y < h; y++)
    {
      const double *rm = tmp + (size_t) clampi (y - 1, 0, h - 1) * w;
      const double *r0 = tmp + (size_t) y * w;
      const double *rp = tmp + (size_t) clampi (y + 1, 0, h - 1) * w;

      for (int x = 0; x < w; x++)
        dst[(size_t) y * w + x]
          = jitter ((rm[x] + 2.0 * r0[x] + rp[x]) / 4.0,
                    (fabs (rm[x]) + 2.0 * fabs (r0[x]) + fabs (rp[x])) / 4.0);
    }
}

/* ---- the multigrid ---------------------------------------------------- */

/* (A U) (p): the sum over p's neighbours inside the grid of U (q) - U (p),
 * as the text writes it (not count U (p) subtracted once: the rounding
 * follows the definition). */
static inline double
apply_a (const double *U, int w, int h, int x, int y)
{
  const double *p = U + (size_t) y * w + x;
  double        s = 0.0;

  if (x > 0)
    s += p[-1] - *p;
  if (x < w - 1)
    s += p[1] - *p;
  if (y > 0)
    s += p[-w] - *p;
  if (y < h - 1)
    s += p[w] - *p;
  return s;
}

/* One red-black Gauss-Seidel sweep: every cell with x + y even first, then
 * the others; within a colour no cell reads another of its colour, so
 * the order inside a pass does not matter. */
static void
sweep (Grid *g)
{
  int w = g->w, h = g->h;

  for (int c = 0; c < 2; c++)
    for (int y = 0; y < h; y++)
      for (int x = (y + c) & 1; x < w; x += 2)
        {
          double *p = g->U + (size_t) y * w + x;
          double  s = 0.0, a = 0.0, f = g->F[(size_t) y * w + x];
          int     n = 0;

          if (x > 0)
            s += p[-1], a += fabs (p[-1]), n++;
          if (x < w - 1)
            s += p[1], a += fabs (p[1]), n++;
          if (y > 0)
            s += p[-w], a += fabs (p[-w]), n++;
          if (y < h - 1)
            s += p[w], a += fabs (p[w]), n++;
          /* A 1 x 1 grid has no neighbour: U is kept. */
          if (n)
            *p = jitter ((s - f) / n, (a + fabs (f)) / n);
        }
}

/* R = F - A U. */
static void
residual (Grid *g)
{
  for (int y = 0; y < g->h; y++)
    for (int x = 0; x < g->w; x++)
      {
        size_t i = (size_t) y * g->w + x;

        const double *u = g->U + i;
        double        s = 0.0;

        /* apply_a's operations in its order, each rounded within u of its
         * own result: a difference of two stored values rounds within
         * u of itself, not of U, and a sum whose terms cancel within u of
         * its partial sums.  (Rounding sized by U is white noise on the
         * right side, which the solve turns into an error growing with
         * the image, about 0.2 x its side x the noise: the device's
         * residual has far less of it.) */
        if (x > 0)
          s = rounded (s + rounded (u[-1] - *u));
        if (x < g->w - 1)
          s = rounded (s + rounded (u[1] - *u));
        if (y > 0)
          s = rounded (s + rounded (u[-g->w] - *u));
        if (y < g->h - 1)
          s = rounded (s + rounded (u[g->w] - *u));
        g->R[i] = rounded (g->F[i] - s);
      }
}

/* Restriction: coarse cell (X, Y) is 4 / (cx cy) x the sum of the fine
 * cells (2 X + i, 2 Y + j) inside the fine grid, cx = 2 unless the fine
 * grid is one cell wide (then 1), cy alike: 4 x the mean of a whole
 * cell (the spacing doubles and A has unit weights on every grid), the
 * residual's total kept where an odd edge leaves a cell half full. */
static void
restrict_to (const double *src, int w, int h, double *dst, int cw, int ch)
{
  double k = 4.0 / ((w > 1 ? 2 : 1) * (h > 1 ? 2 : 1));

  for (int Y = 0; Y < ch; Y++)
    for (int X = 0; X < cw; X++)
      {
        double s = 0.0, a = 0.0;

        for (int j = 0; j < 2; j++)
          for (int i = 0; i < 2; i++)
            {
              int x = 2 * X + i, y = 2 * Y + j;

              if (x < w && y < h)
                {
                  s += src[(size_t) y * w + x];
                  a += fabs (src[(size_t) y * w + x]);
                }
            }
        dst[(size_t) Y * cw + X] = jitter (k * s, k * a);
      }
}

/* Prolongation (bilinear, cell-centred): fine (x, y) takes 3/4 of coarse
 * X = x / 2 and 1/4 of X - 1 (x even) or X + 1 (x odd), the neighbour
 * clamped to the coarse grid; y alike.  add: U += it, else U = it. */
static void
prolong (const double *uc, int cw, int ch, double *uf, int w, int h,
         bool add)
{
  for (int y = 0; y < h; y++)
    {
      int           Y = y / 2;
      int           Yn = clampi ((y & 1) ? Y + 1 : Y - 1, 0, ch - 1);
      const double *r0 = uc + (size_t) Y * cw;
      const double *rn = uc + (size_t) Yn * cw;

      for (int x = 0; x < w; x++)
        {
          int    X = x / 2;
          int    Xn = clampi ((x & 1) ? X + 1 : X - 1, 0, cw - 1);
          double a = 0.75 * r0[X] + 0.25 * r0[Xn];
          double b = 0.75 * rn[X] + 0.25 * rn[Xn];
          double v = 0.75 * a + 0.25 * b;
          double t = 0.5625 * fabs (r0[X]) + 0.1875 * fabs (r0[Xn])
                     + 0.1875 * fabs (rn[X]) + 0.0625 * fabs (rn[Xn]);
          size_t i = (size_t) y * w + x;

          uf[i] = add ? jitter (uf[i] + v, fabs (uf[i]) + t) : jitter (v, t);
        }
    }
}

static double
mean_of (const double *v, size_t n)
{
  double s = 0.0;

  for (size_t i = 0; i < n; i++)
    s += v[i];
  return s / (double) n;
}

static void
subtract (double *v, size_t n, double c)
{
  for (size_t i = 0; i < n; i++)
    v[i] = jitter (v[i] - c, fabs (v[i]) + fabs (c));
}

/* Coarsest solve: F minus its mean (A's range has mean 0, and restriction
 * of odd grids need not keep the sum 0), then the exact solution with mean
 * 0: A U + lambda 1 = F, sum U = 0 (the bordered system, nonsingular since
 * A's null space is the constants), by Gaussian elimination with partial
 * pivoting; U minus its mean (the rounding's). */
static void
coarsest (Grid *g)
{
  int    n = g->w * g->h, w = g->w, h = g->h;
  double m[COARSE_MAX + 1][COARSE_MAX + 2];

  subtract (g->F, (size_t) n, mean_of (g->F, (size_t) n));
  memset (m, 0, sizeof m);
  for (int i = 0; i < n; i++)
    {
      int x = i % w, y = i / w;

      m[i][i] = -(double) ((x > 0) + (x < w - 1) + (y > 0) + (y < h - 1));
      if (x > 0)
        m[i][i - 1] = 1.0;
      if (x < w - 1)
        m[i][i + 1] = 1.0;
      if (y > 0)
        m[i][i - w] = 1.0;
      if (y < h - 1)
        m[i][i + w] = 1.0;
      m[i][n] = 1.0;
      m[n][i] = 1.0;
      m[i][n + 1] = g->F[i];
    }
  for (int c = 0; c <= n; c++)
    {
      int p = c;

      for (int r = c + 1; r <= n; r++)
        if (fabs (m[r][c]) > fabs (m[p][c]))
          p = r;
      for (int j = c; j <= n + 1 && p != c; j++)
        {
          double t = m[c][j];

          m[c][j] = m[p][j];
          m[p][j] = t;
        }
      for (int r = c + 1; r <= n; r++)
        {
          double k = m[r][c] / m[c][c];

          for (int j = c; j <= n + 1; j++)
            m[r][j] = jitter (m[r][j] - k * m[c][j],
                              fabs (m[r][j]) + fabs (k * m[c][j]));
        }
    }
  for (int i = n; i >= 0; i--)
    {
      double s = m[i][n + 1], a = fabs (s);

      for (int j = i + 1; j <= n; j++)
        {
          s -= m[i][j] * m[j][n + 1];
          a += fabs (m[i][j] * m[j][n + 1]);
        }
      m[i][n + 1] = jitter (s / m[i][i], a / fabs (m[i][i]));
    }
  for (int i = 0; i < n; i++)
    g->U[i] = m[i][n + 1];
  subtract (g->U, (size_t) n, mean_of (g->U, (size_t) n));
}

static void
vcycle (Grid *g, int m, int M)
{
  Grid *f = &g[m], *c = &g[m + 1];

  if (m == M)
    {
      coarsest (f);
      return;
    }
  sweep (f);
  sweep (f);
  residual (f);
  restrict_to (f->R, f->w, f->h, c->F, c->w, c->h);
  memset (c->U, 0, (size_t) c->w * c->h * sizeof (double));
  vcycle (g, m + 1, M);
  prolong (c->U, c->w, c->h, f->U, f->w, f->h, true);
  sweep (f);
  sweep (f);
}

/* max |div - A U| on grid 0. */
static double
max_residual (const Grid *g, const double *div)
{
  double m = 0.0;

  for (int y = 0; y < g->h; y++)
    for (int x = 0; x < g->w; x++)
      {
        double d = fabs (div[(size_t) y * g->w + x]
                         - apply_a (g->U, g->w, g->h, x, y));

        if (d > m)
          m = d;
      }
  return m;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* ---- U_exact's fallback ---------------------------------------------- */

#define GMRES_M        12   /* Krylov vectors per restart */
#define GMRES_RESTARTS 100

/* out = A u on grid 0's size. */
static void
apply_a_all (const double *u, int w, int h, double *out)
{
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      out[(size_t) y * w + x] = apply_a (u, w, h, x, y);
}

static double
dot (const double *a, const double *b, size_t n)
{
  double s = 0.0;

  for (size_t i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}

/* out = B v: one V-cycle from U = 0 with F = v, a linear map (every step of
 * it is), so it can precondition a Krylov method. */
static void
precondition (Work *wk, int M, const double *v, double *out)
{
  Grid  *g0 = &wk->g[0];
  size_t n = (size_t) g0->w * g0->h;

  memset (g0->U, 0, n * sizeof (double));
  memcpy (g0->F, v, n * sizeof (double));
  vcycle (wk->g, 0, M);
  memcpy (out, g0->U, n * sizeof (double));
}

/* Restarted GMRES, right-preconditioned by the V-cycle, on A x = div until
 * max |div - A x| <= tol (or the restarts run out).  Needs wk->tmp and
 * wk->tmp2 (free after step 4).  False only when out of memory. */
static bool
gmres (Work *wk, int M, double *x, double tol)
{
  int     w = wk->g[0].w, h = wk->g[0].h;
  size_t  n = (size_t) w * h;
  double *V = malloc ((size_t) (GMRES_M + 1) * n * sizeof (double));
  double  H[GMRES_M + 1][GMRES_M], cs[GMRES_M], sn[GMRES_M];
  double  gv[GMRES_M + 1], y[GMRES_M];
  double *z = wk->tmp, *s = wk->tmp2;

  double  prev = HUGE_VAL;

  if (! V)
    return false;
  for (int it = 0; it < GMRES_RESTARTS; it++)
    {
      double beta, rmax = 0.0;
      int    k = 0;

      /* The true residual, in the max norm the stopping rule uses. */
      apply_a_all (x, w, h, V);
      for (size_t i = 0; i < n; i++)
        {
          V[i] = wk->div[i] - V[i];
          if (fabs (V[i]) > rmax)
            rmax = fabs (V[i]);
        }
      /* A restart normally gains several digits; one that does not
       * halve the residual has met rounding (a tol below what double
       * can reach for this U): more would only spin. */
      if (rmax <= tol || rmax > 0.5 * prev)
        break;
      prev = rmax;
      beta = sqrt (dot (V, V, n));
      for (size_t i = 0; i < n; i++)
        V[i] /= beta;
      memset (gv, 0, sizeof gv);
      gv[0] = beta;
      for (int j = 0; j < GMRES_M; j++)
        {
          double *vj = V + (size_t) j * n, *vn = vj + n, t, sub;

          precondition (wk, M, vj, z);
          apply_a_all (z, w, h, vn);
          /* Modified Gram-Schmidt. */
          for (int i = 0; i <= j; i++)
            {
              const double *vi = V + (size_t) i * n;

              H[i][j] = dot (vn, vi, n);
              for (size_t q = 0; q < n; q++)
                vn[q] -= H[i][j] * vi[q];
            }
          sub = H[j + 1][j] = sqrt (dot (vn, vn, n));
          if (sub > 0.0)
            for (size_t q = 0; q < n; q++)
              vn[q] /= sub;
          /* The earlier rotations on the new column, then its own. */
          for (int i = 0; i < j; i++)
            {
              t = cs[i] * H[i][j] + sn[i] * H[i + 1][j];
              H[i + 1][j] = -sn[i] * H[i][j] + cs[i] * H[i + 1][j];
              H[i][j] = t;
            }
          t = hypot (H[j][j], H[j + 1][j]);
          cs[j] = t > 0.0 ? H[j][j] / t : 1.0;
          sn[j] = t > 0.0 ? H[j + 1][j] / t : 0.0;
          H[j][j] = t;
          H[j + 1][j] = 0.0;
          gv[j + 1] = -sn[j] * gv[j];
          gv[j] = cs[j] * gv[j];
          k = j + 1;
          /* The 2-norm bounds the max norm: done when it is below tol; a
           * zero subdiagonal means the space holds the solution. */
          if (fabs (gv[j + 1]) <= tol || sub == 0.0)
            break;
        }
      /* y from the triangle (a zero pivot's component is left 0), then
       * x += B (V y). */
      for (int i = k - 1; i >= 0; i--)
        {
          double t = gv[i];

          for (int c = i + 1; c < k; c++)
            t -= H[i][c] * y[c];
          y[i] = H[i][i] != 0.0 ? t / H[i][i] : 0.0;
        }
      memset (s, 0, n * sizeof (double));
      for (int i = 0; i < k; i++)
        {
          const double *vi = V + (size_t) i * n;

          for (size_t q = 0; q < n; q++)
            s[q] += y[i] * vi[q];
        }
      precondition (wk, M, s, z);
      for (size_t q = 0; q < n; q++)
        x[q] += z[q];
    }
  free (V);
  return true;
}

/* ---- the pipeline ----------------------------------------------------- */

bool
clfx_fattal_ref (int w, int h, const double *Y, double alpha, double beta,
                 double noise, ClfxFattalRef *r)
{
  return clfx_fattal_ref_run (w, h, Y, alpha, beta, noise, NULL, r);
}

bool
clfx_fattal_ref_perturbed (int w, int h, const double *Y, double alpha,
                           double beta, double noise, double rounding,
                           unsigned seed, ClfxFattalRef *r)
{
  ClfxFattalRefRun run = { rounding, seed, NULL, NULL, 0 };

  return clfx_fattal_ref_run (w, h, Y, alpha, beta, noise, &run, r);
}

/* Step 3's decision at pixel i (x, y) of level k: |grad| > 1e-4 takes
 * the formula.  Records it, and whether it is a tie, in r->decided; a run
 * that follows another takes that run's (the other way at the ties its
 * flip names). */
static bool
decide (const ClfxFattalRefRun *run, ClfxFattalRef *r, int k, size_t i,
        int x, int y, double g)
{
  unsigned char d;

  if (run->follow)
    {
      d = run->follow->decided[k][i];
      if ((d & 2)
          && (run->flip < 0 || run->flip == 1 + (x & 1) + 2 * (y & 1)))
        d ^= 1;
    }
  else
    d = (g > 1e-4 ? 1 : 0)
        | (run->tie_band && fabs (g - 1e-4) <= run->tie_band[k] ? 2 : 0);
  r->decided[k][i] = d;
  r->ties += d >> 1;
  return d & 1;
}

bool
clfx_fattal_ref_run (int w, int h, const double *Y, double alpha,
                     double beta, double noise, const ClfxFattalRefRun *run,
                     ClfxFattalRef *r)
{
  static const ClfxFattalRefRun plain = { 0 };
  size_t n = (size_t) w * h;
  Work   wk;
  double ymax = 0.0;
  int    M;

  if (! run)
    run = &plain;
  memset (r, 0, sizeof *r);
  memset (&wk, 0, sizeof wk);
  pert = run->rounding;
  pert_state = run->seed;
  r->levels = wk.levels = count_levels (w, h);
  r->grids = wk.ngrids = count_grids (w, h);
  M = wk.ngrids - 1;
  r->U = alloc_n (n);
  r->U_exact = alloc_n (n);
  r->out = alloc_n (n);
  if (! r->U || ! r->U_exact || ! r->out)
    goto oom;

  for (size_t i = 0; i < n; i++)
    if (Y[i] > ymax)
      ymax = Y[i];
  /* A black image: H would be ln (0 / 0); the header defines out = 0, U = 0
   * (already so from calloc), avg = 0, and lo = hi = L of U = 0. */
  if (! (ymax > 0.0))
    {
      /* U = 0 gives L = exp (0) - 1e-4 at every rank. */
      r->lo = r->hi = 1.0 - 1e-4;
      pert = 0.0;
      return true;
    }

  if (noise == 0.0)
    noise = 0.1 * alpha;

  /* Step 1 and step 2: the pyramid, level k + 1 of (w >> (k + 1)) x
   * (h >> (k + 1)) the 2 x 2 mean of level k blurred. */
  wk.tmp = alloc_n (n);
  wk.tmp2 = alloc_n (n);
  wk.P[0] = alloc_n (n);
  if (! wk.tmp || ! wk.tmp2 || ! wk.P[0])
    goto oom;
  for (size_t i = 0; i < n; i++)
    {
      /* Y's own rounding (a few u relative) moves H by that much
       * absolute; log adds its own relative. */
      double hv = log (100.0 * Y[i] / ymax + 1e-4);
      wk.P[0][i] = jitter (hv, fabs (hv) + 4.0);
    }
  for (int k = 0; k + 1 < wk.levels; k++)
    {
      int    kw = w >> k, kh = h >> k;
      int    cw = w >> (k + 1), ch = h >> (k + 1);
      double *c;

      c = wk.P[k + 1] = alloc_n ((size_t) cw * ch);
      if (! c)
        goto oom;
      blur121 (wk.P[k], kw, kh, wk.tmp, wk.tmp2);
      for (int y = 0; y < ch; y++)
        for (int x = 0; x < cw; x++)
          {
            const double *b0 = wk.tmp2 + (size_t) (2 * y) * kw + 2 * x;
            const double *b1 = b0 + kw;

            c[(size_t) y * cw + x]
              = jitter ((b0[0] + b0[1] + b1[0] + b1[1]) / 4.0,
                        (fabs (b0[0]) + fabs (b0[1]) + fabs (b1[0])
                         + fabs (b1[1])) / 4.0);
          }
    }

  /* Step 3: phi_k from each level's clamped central differences, the
   * spacing 2^(k + 1) because level k's pixels are 2^k apart. */
  for (int k = 0; k < wk.levels; k++)
    {
      int           kw = w >> k, kh = h >> k;
      size_t        kn = (size_t) kw * kh;
      const double *P = wk.P[k];
      double       *g = wk.tmp;
      double       *phi;
      double        s = 0.0, d = ldexp (1.0, k + 1), t;

      phi = wk.phi[k] = alloc_n (kn);
      r->decided[k] = malloc (kn ? kn : 1);
      if (! phi || ! r->decided[k])
        goto oom;
      for (int y = 0; y < kh; y++)
        for (int x = 0; x < kw; x++)
          {
            const double *row = P + (size_t) y * kw;
            double gx = (row[clampi (x + 1, 0, kw - 1)]
                         - row[clampi (x - 1, 0, kw - 1)]) / d;
            double gy = (P[(size_t) clampi (y + 1, 0, kh - 1) * kw + x]
                         - P[(size_t) clampi (y - 1, 0, kh - 1) * kw + x]) / d;
            size_t i = (size_t) y * kw + x;

            g[i] = jitter (sqrt (gx * gx + gy * gy),
                           (fabs (row[clampi (x + 1, 0, kw - 1)])
                            + fabs (row[clampi (x - 1, 0, kw - 1)])
                            + fabs (P[(size_t) clampi (y + 1, 0, kh - 1) * kw
                                      + x])
                            + fabs (P[(size_t) clampi (y - 1, 0, kh - 1) * kw
                                      + x]))
                             / d);
            s += g[i];
          }
      r->avg[k] = s / (double) kn;
      /* alpha avg_k > 0 wherever it is used: |grad| > 1e-4 somewhere makes
       * the mean positive (alpha > 0 by its range). */
      t = alpha * r->avg[k];
      for (size_t i = 0; i < kn; i++)
        phi[i] = decide (run, r, k, i, (int) (i % (size_t) kw),
                         (int) (i / (size_t) kw), g[i])
                 ? jitter ((t / (g[i] + noise))
                             * pow ((g[i] + noise) / t, beta),
                           /* a power: 16 ulp (pow's bound in OpenCL C)
                            * of the result */
                           16.0 * (t / (g[i] + noise))
                             * pow ((g[i] + noise) / t, beta))
                 : 1.0;
    }

  /* Step 4: Phi from the coarsest level to the finest; phi_k's array
   * becomes Phi_k. */
  for (int k = wk.levels - 2; k >= 0; k--)
    {
      int           kw = w >> k, kh = h >> k;
      int           cw = w >> (k + 1), ch = h >> (k + 1);
      const double *Pc = wk.phi[k + 1];
      double       *up = wk.tmp2;

      for (int y = 0; y < kh; y++)
        for (int x = 0; x < kw; x++)
          up[(size_t) y * kw + x] = Pc[(size_t) clampi (y / 2, 0, ch - 1) * cw
                                       + clampi (x / 2, 0, cw - 1)];
      blur121 (up, kw, kh, wk.tmp, up);
      for (size_t i = 0; i < (size_t) kw * kh; i++)
        wk.phi[k][i] = jitter (wk.phi[k][i] * up[i],
                               fabs (wk.phi[k][i] * up[i]));
    }

  /* Step 5: forward differences of H times FI (0 at the last column and
   * row), and their divergence with the outside terms left out.  Gx and
   * Gy are recomputed where div needs the left and upper ones. */
  wk.div = alloc_n (n);
  if (! wk.div)
    goto oom;
  {
    const double *H = wk.P[0], *FI = wk.phi[0];

    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++)
        {
          size_t i = (size_t) y * w + x;
          double gx = x < w - 1 ? (H[i + 1] - H[i]) * FI[i] : 0.0;
          double gy = y < h - 1 ? (H[i + w] - H[i]) * FI[i] : 0.0;
          double v = gx;

          /* Each G is the same float at both pixels that use it: div is
           * the exact divergence of the rounded G, whose rounding H's
           * jitter stands for.  What is left is the sum's own operations,
           * each rounded within u of its result (not of H: sized by H
           * this was white noise on the right side, see residual). */
          if (x > 0)
            v = rounded (v - (H[i] - H[i - 1]) * FI[i - 1]);
          v = rounded (v + gy);
          if (y > 0)
            v = rounded (v - (H[i] - H[i - w]) * FI[i - w]);
          wk.div[i] = v;
        }
  }

  /* Step 6: the full multigrid. */
  for (int m = 0, gw = w, gh = h; m <= M; m++)
    {
      size_t gn = (size_t) gw * gh;

      wk.g[m].w = gw;
      wk.g[m].h = gh;
      wk.g[m].U = alloc_n (gn);
      wk.g[m].F = alloc_n (gn);
      wk.g[m].R = alloc_n (gn);
      if (! wk.g[m].U || ! wk.g[m].F || ! wk.g[m].R)
        goto oom;
      gw = (gw + 1) / 2;
      gh = (gh + 1) / 2;
    }
  memcpy (wk.g[0].F, wk.div, n * sizeof (double));
  for (int m = 0; m < M; m++)
    restrict_to (wk.g[m].F, wk.g[m].w, wk.g[m].h,
                 wk.g[m + 1].F, wk.g[m + 1].w, wk.g[m + 1].h);
  coarsest (&wk.g[M]);
  for (int m = M - 1; m >= 0; m--)
    {
      prolong (wk.g[m + 1].U, wk.g[m + 1].w, wk.g[m + 1].h,
               wk.g[m].U, wk.g[m].w, wk.g[m].h, false);
      for (int c = 0; c < FMG_CYCLES; c++)
        vcycle (wk.g, m, M);
    }
  memcpy (r->U, wk.g[0].U, n * sizeof (double));
  subtract (r->U, n, mean_of (r->U, n));

  /* U_exact: V-cycles at grid 0 from U until the residual is 1e-11 of
   * div's size.  The text's V-cycle does not converge on every size when
   * repeated: with one grid it is the coarsest solve, which restarts from
   * U = 0 and gives the same U every time, and on sizes like 65 x 65 or
   * 97 x 61 (odd at every grid) its iteration grows the error by up to
   * 1.5 a cycle.  So once a cycle fails to halve the residual, the rest
   * is GMRES preconditioned by that same V-cycle, which converges
   * wherever the V-cycle is any good as an approximate inverse.  Either
   * way the equation is the text's A U = div on grid 0.  (Not for the
   * runs made to measure a distance from the plain one.) */
  if (pert > 0.0 || run->follow)
    memcpy (r->U_exact, r->U, n * sizeof (double));
  else
  {
    double dmax = 0.0, tol, res, prev = HUGE_VAL;

    for (size_t i = 0; i < n; i++)
      if (fabs (wk.div[i]) > dmax)
        dmax = fabs (wk.div[i]);
    tol = EXACT_TOL * (dmax > 1e-300 ? dmax : 1e-300);
    memcpy (wk.g[0].U, r->U, n * sizeof (double));
    memcpy (wk.g[0].F, wk.div, n * sizeof (double));
    for (int c = 0; c < EXACT_CYCLES; c++)
      {
        res = max_residual (&wk.g[0], wk.div);
        if (res <= tol || res > 0.5 * prev)
          break;
        prev = res;
        vcycle (wk.g, 0, M);
      }
    memcpy (r->U_exact, wk.g[0].U, n * sizeof (double));
    if (max_residual (&wk.g[0], wk.div) > tol
        && ! gmres (&wk, M, r->U_exact, tol))
      goto oom;
    subtract (r->U_exact, n, mean_of (r->U_exact, n));
  }

  for (size_t i = 0; i < n; i++)
    {
      double e = fabs (r->U[i] - r->U_exact[i]), u = fabs (r->U[i]);

      if (e > r->alg_err)
        r->alg_err = e;
      if (u > r->max_abs_u)
        r->max_abs_u = u;
    }

  /* Step 7: L from the multigrid's U (the text's result), the
   * percentiles by rank in a sorted copy. */
  wk.L = alloc_n (n);
  if (! wk.L)
    goto oom;
  for (size_t i = 0; i < n; i++)
    r->out[i] = exp (r->U[i]) - 1e-4;
  memcpy (wk.L, r->out, n * sizeof (double));
  qsort (wk.L, n, sizeof (double), cmp_double);
  r->lo = wk.L[(size_t) floor (0.001 * (double) n)];
  r->hi = wk.L[(size_t) floor (0.995 * (double) n)];
  for (size_t i = 0; i < n; i++)
    {
      double v;

      /* A flat L has no range to spread: every out is 1. */
      if (r->hi == r->lo)
        v = 1.0;
      else
        {
          v = (r->out[i] - r->lo) / (r->hi - r->lo);
          if (v <= 0.0)
            v = 1e-4;
        }
      r->out[i] = v;
    }

  work_free (&wk);
  pert = 0.0;
  return true;

oom:
  pert = 0.0;
  work_free (&wk);
  clfx_fattal_ref_free (r);
  return false;
}
