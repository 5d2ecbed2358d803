/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-local-laplacian-ref.c: engine/ops/local-laplacian-ref.c, the double
 * reference of local-laplacian (docs/TONEMAP.md, "local-laplacian"), against what the
 * definition implies without running it: detail 1 and no range
 * compression is the identity; a Laplacian pyramid collapses back to its
 * image; down and up are the definition's 2D sums; the direct form's
 * windows give what whole images give; the fast form is the definition's
 * interpolation (a plain copy here, all K pyramids at once) and stays
 * within a derived bound of the direct form, closer as K grows, where
 * broken copies do not; detail above 1 raises fine contrast and range
 * compression lowers a large edge; and the RGBA path's black, alpha,
 * colour and refusals. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tap.h"
#include "../../engine/ops/local-laplacian-ref.h"
#include "../rng.h"

typedef ClfxLocalLaplacianRefParams Params;

static void *
xmalloc (size_t n)
{
  void *p = malloc (n ? n : 1);

  if (! p)
    abort ();
  return p;
}

static double *
random_image (int w, int h, double lo, double hi, uint64_t seed)
{
  double *v = xmalloc ((size_t) w * h * sizeof (double));

  rng_seed (seed);
  for (size_t i = 0; i < (size_t) w * h; i++)
    v[i] = lo + (hi - lo) * rng_uniform ();
  return v;
}

static void
min_max (const double *v, size_t n, double *lo, double *hi)
{
  *lo = INFINITY;
  *hi = -INFINITY;
  for (size_t i = 0; i < n; i++)
    {
      *lo = fmin (*lo, v[i]);
      *hi = fmax (*hi, v[i]);
    }
}

static double
max_diff (const double *a, const double *b, size_t n)
{
  double d = 0.0;

  for (size_t i = 0; i < n; i++)
    d = fmax (d, fabs (a[i] - b[i]));
  return d;
}

/* ---- pyramids through the exported down and up ------------------------ */

typedef struct
{
  int     n;
  int     w[40], h[40];
  double *v[40];
} TPyr;

static void
tpyr_gauss (TPyr *p, int w, int h, const double *img)
{
  p->n = clfx_local_laplacian_levels (w, h);
  for (int l = 0; l <= p->n; l++)
    {
      clfx_local_laplacian_level_size (w, h, l, &p->w[l], &p->h[l]);
      p->v[l] = xmalloc ((size_t) p->w[l] * p->h[l] * sizeof (double));
    }
  memcpy (p->v[0], img, (size_t) w * h * sizeof (double));
  for (int l = 0; l < p->n; l++)
    if (! clfx_local_laplacian_down (p->w[l], p->h[l], p->v[l], p->v[l + 1]))
      abort ();
}

/* Gaussian levels -> Laplacian levels, in place (top kept). */
static void
tpyr_laplacian (TPyr *p)
{
  for (int l = 0; l < p->n; l++)
    {
      size_t  m = (size_t) p->w[l] * p->h[l];
      double *u = xmalloc (m * sizeof (double));

      clfx_local_laplacian_up (p->w[l], p->h[l], p->v[l + 1], u);
      for (size_t i = 0; i < m; i++)
        p->v[l][i] -= u[i];
      free (u);
    }
}

/* R_l = O_l + up (R_{l+1}), in place; level 0 is the result. */
static void
tpyr_collapse (TPyr *p)
{
  for (int l = p->n - 1; l >= 0; l--)
    {
      size_t  m = (size_t) p->w[l] * p->h[l];
      double *u = xmalloc (m * sizeof (double));

      clfx_local_laplacian_up (p->w[l], p->h[l], p->v[l + 1], u);
      for (size_t i = 0; i < m; i++)
        p->v[l][i] += u[i];
      free (u);
    }
}

static void
tpyr_free (TPyr *p)
{
  for (int l = 0; l <= p->n; l++)
    free (p->v[l]);
}

/* ---- (a) identity ------------------------------------------------------ */

static void
test_identity (void)
{
  static const int sizes[][2] = {
    { 1, 1 }, { 1, 13 }, { 17, 1 }, { 3, 5 }, { 37, 23 }, { 64, 48 },
  };
  Params p = { .detail = 1.0, .range_compression = 0.0, .edge = 0.2 };

  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    {
      int     w = sizes[s][0], h = sizes[s][1];
      size_t  n = (size_t) w * h;
      double *L = random_image (w, h, -4.0, 2.0, 11 + s);
      double *o = xmalloc (n * sizeof (double));
      double  lo, hi, df, dd;
      ClfxLocalLaplacianInfo info;
      bool    ok;

      min_max (L, n, &lo, &hi);
      ok = clfx_local_laplacian_ref_log (w, h, L, o, &p, lo, hi, &info);
      df = max_diff (L, o, n);
      ok &= clfx_local_laplacian_direct_log (w, h, L, o, &p, lo, hi, NULL);
      dd = max_diff (L, o, n);
      tap_ok (ok && df < 1e-12 && dd < 1e-12,
              "identity %dx%d (N %d, K %d): fast %.2g, direct %.2g", w, h,
              info.levels, info.samples, df, dd);
      free (L);
      free (o);
    }
}

/* ---- (b) collapse, (c) down and up by brute force ---------------------- */

static void
test_collapse (void)
{
  static const int sizes[][2] = { { 1, 1 }, { 1, 9 }, { 10, 1 }, { 3, 5 },
                                  { 37, 23 }, { 64, 48 }, { 65, 33 } };

  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    {
      int     w = sizes[s][0], h = sizes[s][1];
      double *img = random_image (w, h, -3.0, 3.0, 100 + s);
      TPyr    p;
      double  d;

      tpyr_gauss (&p, w, h, img);
      tpyr_laplacian (&p);
      tpyr_collapse (&p);
      d = max_diff (p.v[0], img, (size_t) w * h);
      tap_ok (d < 1e-13, "%dx%d: the Laplacian pyramid (%d levels) collapses "
              "back (max |d| %.2g)", w, h, p.n, d);
      tpyr_free (&p);
      free (img);
    }
}

static int
clampi (int v, int lo, int hi)
{
  return v < lo ? lo : v > hi ? hi : v;
}

/* The 1D matrices of the definition: D[x][X], the weight of fine pixel X
 * in down's coarse x (n fine); U[x][X], the weight of coarse X in up's
 * fine x (n fine, (n + 1) / 2 coarse).  Taps that clamp to the same
 * pixel add up. */
static double *
down_matrix (int n)
{
  static const double a[5] = { 1, 4, 6, 4, 1 };
  int     m = (n + 1) / 2;
  double *D = calloc ((size_t) m * n, sizeof (double));

  for (int x = 0; x < m; x++)
    for (int i = -2; i <= 2; i++)
      D[(size_t) x * n + clampi (2 * x + i, 0, n - 1)] += a[i + 2] / 16.0;
  return D;
}

static double *
up_matrix (int n)
{
  int     m = (n + 1) / 2;
  double *U = calloc ((size_t) n * m, sizeof (double));

  for (int x = 0; x < n; x++)
    {
      int k = x / 2;

      if (x % 2 == 0)
        {
          U[(size_t) x * m + clampi (k - 1, 0, m - 1)] += 1.0 / 8.0;
          U[(size_t) x * m + clampi (k, 0, m - 1)] += 6.0 / 8.0;
          U[(size_t) x * m + clampi (k + 1, 0, m - 1)] += 1.0 / 8.0;
        }
      else
        {
          U[(size_t) x * m + clampi (k, 0, m - 1)] += 0.5;
          U[(size_t) x * m + clampi (k + 1, 0, m - 1)] += 0.5;
        }
    }
  return U;
}

/* out (ow x oh) = sum over every (X, Y) of Mx[x][X] My[y][Y] in (X, Y):
 * the full 2D sum, no separation. */
static void
apply_2d (const double *Mx, const double *My, int iw, int ih, int ow, int oh,
          const double *in, double *out)
{
  for (int y = 0; y < oh; y++)
    for (int x = 0; x < ow; x++)
      {
        double s = 0.0;

        for (int Y = 0; Y < ih; Y++)
          for (int X = 0; X < iw; X++)
            s += Mx[(size_t) x * iw + X] * My[(size_t) y * ih + Y]
                 * in[(size_t) Y * iw + X];
        out[(size_t) y * ow + x] = s;
      }
}

static void
test_down_up (void)
{
  static const int sizes[][2] = { { 1, 1 }, { 1, 7 }, { 8, 1 }, { 2, 2 },
                                  { 3, 5 }, { 6, 4 }, { 37, 23 } };

  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    {
      int     w = sizes[s][0], h = sizes[s][1];
      int     cw = (w + 1) / 2, ch = (h + 1) / 2;
      double *img = random_image (w, h, -2.0, 2.0, 200 + s);
      double *c = random_image (cw, ch, -2.0, 2.0, 300 + s);
      double *a = xmalloc ((size_t) w * h * sizeof (double));
      double *b = xmalloc ((size_t) w * h * sizeof (double));
      double *Dx = down_matrix (w), *Dy = down_matrix (h);
      double *Ux = up_matrix (w), *Uy = up_matrix (h);
      double  dd, du;

      clfx_local_laplacian_down (w, h, img, a);
      apply_2d (Dx, Dy, w, h, cw, ch, img, b);
      dd = max_diff (a, b, (size_t) cw * ch);
      clfx_local_laplacian_up (w, h, c, a);
      apply_2d (Ux, Uy, cw, ch, w, h, c, b);
      du = max_diff (a, b, (size_t) w * h);
      tap_ok (dd < 1e-14 && du < 1e-14, "%dx%d: down and up are the 2D sums "
              "(max |d| %.2g and %.2g)", w, h, dd, du);
      free (img), free (c), free (a), free (b);
      free (Dx), free (Dy), free (Ux), free (Uy);
    }
}

/* ---- the direct form on whole images ----------------------------------- */

/* Every coefficient from the whole remapped image's pyramid. */
static void
direct_whole (int w, int h, const double *L, double *out, const Params *p)
{
  size_t  n = (size_t) w * h;
  double *r = xmalloc (n * sizeof (double));
  TPyr    G, O;

  tpyr_gauss (&G, w, h, L);
  tpyr_gauss (&O, w, h, L);
  for (int l = 0; l < G.n; l++)
    for (size_t i = 0; i < (size_t) G.w[l] * G.h[l]; i++)
      {
        TPyr R;

        for (size_t q = 0; q < n; q++)
          r[q] = clfx_local_laplacian_remap (L[q], G.v[l][i], p->detail,
                                             1.0 - p->range_compression,
                                             p->edge);
        tpyr_gauss (&R, w, h, r);
        tpyr_laplacian (&R);
        O.v[l][i] = R.v[l][i];
        tpyr_free (&R);
      }
  tpyr_collapse (&O);
  memcpy (out, O.v[0], n * sizeof (double));
  tpyr_free (&G);
  tpyr_free (&O);
  free (r);
}

static void
test_direct_windows (void)
{
  static const int sizes[][2] = { { 1, 9 }, { 11, 1 }, { 13, 9 }, { 17, 6 } };
  Params p = { .detail = 2.5, .range_compression = 0.6, .edge = 0.3 };

  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    {
      int     w = sizes[s][0], h = sizes[s][1];
      size_t  n = (size_t) w * h;
      double *L = random_image (w, h, -2.0, 1.0, 400 + s);
      double *a = xmalloc (n * sizeof (double)), *b = xmalloc (n * sizeof (double));
      double  lo, hi, d;

      min_max (L, n, &lo, &hi);
      clfx_local_laplacian_direct_log (w, h, L, a, &p, lo, hi, NULL);
      direct_whole (w, h, L, b, &p);
      d = max_diff (a, b, n);
      tap_ok (d < 1e-12, "%dx%d: the direct form's windows give what whole "
              "images give (max |d| %.2g)", w, h, d);
      free (L), free (a), free (b);
    }
}

/* ---- a plain copy of the fast form, and broken ones -------------------- */

typedef enum
{
  FAST_PLAIN,
  FAST_BETA_1,     /* the remap without range compression */
  FAST_SWAPPED,    /* the interpolation's weights swapped */
} FastBreak;

/* All K remapped images' Laplacian pyramids at once, then step 5. */
static void
fast_copy (int w, int h, const double *L, double *out, const Params *p,
           double lo, double hi, FastBreak brk)
{
  size_t  n = (size_t) w * h;
  int     K = 1;
  double  range = hi - lo, step = 0.0;
  double  beta = brk == FAST_BETA_1 ? 1.0 : 1.0 - p->range_compression;
  double *r = xmalloc (n * sizeof (double));
  TPyr    G, O, *R;

  if (range > 0.0)
    {
      K = p->samples ? p->samples : clfx_local_laplacian_samples (p->edge);
      step = range / (K - 1);
    }
  R = xmalloc ((size_t) K * sizeof (TPyr));
  for (int k = 0; k < K; k++)
    {
      for (size_t q = 0; q < n; q++)
        r[q] = clfx_local_laplacian_remap (L[q], lo + k * step, p->detail,
                                           beta, p->edge);
      tpyr_gauss (&R[k], w, h, r);
      tpyr_laplacian (&R[k]);
    }
  tpyr_gauss (&G, w, h, L);
  tpyr_gauss (&O, w, h, L);
  for (int l = 0; l < G.n; l++)
    for (size_t i = 0; i < (size_t) G.w[l] * G.h[l]; i++)
      {
        double g = fmin (fmax (G.v[l][i], lo), hi), t = 0.0, f;
        int    j = 0;

        if (K > 1)
          {
            t = (g - lo) / step;
            j = (int) fmin (floor (t), K - 2);
          }
        f = t - j;
        if (brk == FAST_SWAPPED)
          f = 1.0 - f;
        O.v[l][i] = (1.0 - f) * R[j].v[l][i]
                    + (K > 1 ? f * R[j + 1].v[l][i] : 0.0);
      }
  tpyr_collapse (&O);
  memcpy (out, O.v[0], n * sizeof (double));
  for (int k = 0; k < K; k++)
    tpyr_free (&R[k]);
  tpyr_free (&G);
  tpyr_free (&O);
  free (R);
  free (r);
}

/* ---- (d) fast against direct, (f) broken copies ------------------------ */

/* The bound on |fast - direct| in L' (log10).
 *
 * Per coefficient both forms apply one linear map, Lap_l at p, to images
 * remapped pixel by pixel: the direct form to r_g (L(q)), the fast one
 * (by linearity) to (1 - f) r_j (L(q)) + f r_{j+1} (L(q)), the linear
 * interpolation in g of g -> r_g (i) between samples g_j and g_{j+1}, s
 * apart, at g = g_j + f s (g is within [Lmin, Lmax] without the clamp: a
 * weighted mean of L).  As a function of g, r_g (i) = g + e (i - g) + h
 * (i - g), with h (d) = (alpha - 1) d exp (-d^2 / (2 sigma^2)):
 * - g itself: linear, interpolated exactly;
 * - e: linear but for kinks at k = i -+ sigma (d = +-sigma), where the
 *   slope jumps by 1 - beta = c.  Interpolating a kink at k in [g_j,
 *   g_{j+1}] errs at g by c (min (g, k) - g_j) (g_{j+1} - max (g, k)) /
 *   s, which is at most c (k - g_j) (g_{j+1} - k) / s (g = k) and at most
 *   c f (1 - f) s (either factor replaced by g's): both <= c s / 4; an
 *   interval holds one kink if s < 2 sigma, else at most both;
 * - h: smooth, interpolation errs by at most (g - g_j) (g_{j+1} - g) / 2
 *   max |h''| = f (1 - f) s^2 / 2 max |h''| (<= s^2 / 8 max |h''|) over
 *   the interval, where h'' (d) = (alpha - 1) / sigma u (u^2 - 3) exp
 *   (-u^2 / 2), u = d / sigma, whose largest magnitudes are at u^2 = 3 -+
 *   sqrt 6 (1.3803 and 0.3749).
 * The errors add.  Lap_l at p is G_l (p) minus up (G_{l+1}) (p), two
 * weighted means (weights >= 0, sum 1), so with |error (q)| <= X (q) the
 * coefficient errs by at most A[X] = G_l [X] (p) + up (G_{l+1} [X]) (p)
 * <= 2 max X.  Per coefficient (j and f known) the least of
 *   A[E_j], E_j (q) = sum of its kinks' c (k - g_j) (g_{j+1} - k) / s +
 *           s^2 / 8 max |h''|,
 *   f (1 - f) (c s A[n_j] + s^2 / 2 A[M_j]), n_j (q) its kinks in the
 *           interval, M_j (q) max |h''| over it.
 * The top level is the same in both; the collapse adds each level's error
 * brought up by up, again a weighted mean (weights >= 0): the
 * coefficients' bounds collapse as the coefficients do (bound_field,
 * per pixel), into at most 2 N max E (fast_bound, the global form: every
 * kink, the largest |h''|).  Plus 1e-10 for rounding. */
static double
hpp (double d, double sigma)
{
  double u = d / sigma;

  return fabs (u * (u * u - 3.0)) * exp (-u * u / 2.0) / sigma;
}

static double
hpp_max (double d0, double d1, double sigma)
{
  double m = fmax (hpp (d0, sigma), hpp (d1, sigma));
  double peaks[2] = { sqrt (3.0 - sqrt (6.0)), sqrt (3.0 + sqrt (6.0)) };

  for (int k = 0; k < 2; k++)
    for (int sg = -1; sg <= 1; sg += 2)
      if (sg * peaks[k] * sigma > d0 && sg * peaks[k] * sigma < d1)
        m = fmax (m, hpp (sg * peaks[k] * sigma, sigma));
  return m;
}

static double
fast_bound (const Params *p, int levels, double step)
{
  double c = p->range_compression, sigma = p->edge;
  double e_e = c * step / 4.0 * (step < 2.0 * sigma ? 1.0 : 2.0);
  double e_h = step * step / 8.0 * fabs (p->detail - 1.0)
               * hpp_max (-10.0 * sigma, 10.0 * sigma, sigma);

  return 2.0 * levels * (e_e + e_h) + 1e-10;
}

/* A[X] of every coefficient of levels 0..N-1 into A (G's shape). */
static void
abs_laplacian (int w, int h, const double *X, TPyr *A)
{
  TPyr P;

  tpyr_gauss (&P, w, h, X);
  for (int l = 0; l < P.n; l++)
    {
      clfx_local_laplacian_up (P.w[l], P.h[l], P.v[l + 1], A->v[l]);
      for (size_t i = 0; i < (size_t) P.w[l] * P.h[l]; i++)
        A->v[l][i] += P.v[l][i];
    }
  tpyr_free (&P);
}

/* The per-pixel bound on |fast - direct| into B (w*h). */
static void
bound_field (int w, int h, const double *L, const Params *p, double lo,
             double hi, double *B)
{
  size_t  n = (size_t) w * h;
  int     K = 1;
  double  range = hi - lo, step = 0.0, sigma = p->edge;
  double  c = p->range_compression, am1 = fabs (p->detail - 1.0);
  double *E = xmalloc (n * sizeof (double));
  double *Nk = xmalloc (n * sizeof (double));
  double *M = xmalloc (n * sizeof (double));
  TPyr    G, O, AE, AN, AM;

  if (range > 0.0)
    {
      K = p->samples ? p->samples : clfx_local_laplacian_samples (sigma);
      step = range / (K - 1);
    }
  tpyr_gauss (&G, w, h, L);
  tpyr_gauss (&O, w, h, L);
  tpyr_gauss (&AE, w, h, L);
  tpyr_gauss (&AN, w, h, L);
  tpyr_gauss (&AM, w, h, L);
  for (int l = 0; l <= O.n; l++)
    memset (O.v[l], 0, (size_t) O.w[l] * O.h[l] * sizeof (double));
  for (int j = 0; j < K - 1; j++)
    {
      double g0 = lo + j * step, g1 = lo + (j + 1) * step;

      for (size_t q = 0; q < n; q++)
        {
          double kinks[2] = { L[q] - sigma, L[q] + sigma }, e = 0.0;

          Nk[q] = 0.0;
          for (int k = 0; k < 2; k++)
            if (kinks[k] > g0 && kinks[k] < g1)
              {
                e += c * (kinks[k] - g0) * (g1 - kinks[k]) / step;
                Nk[q] += 1.0;
              }
          M[q] = am1 * hpp_max (L[q] - g1, L[q] - g0, sigma);
          E[q] = e + step * step / 8.0 * M[q];
        }
      abs_laplacian (w, h, E, &AE);
      abs_laplacian (w, h, Nk, &AN);
      abs_laplacian (w, h, M, &AM);
      for (int l = 0; l < G.n; l++)
        for (size_t i = 0; i < (size_t) G.w[l] * G.h[l]; i++)
          {
            double g = fmin (fmax (G.v[l][i], lo), hi);
            double t = (g - lo) / step;
            int    jj = (int) fmin (floor (t), K - 2);
            double f = fmin (fmax (t - jj, 0.0), 1.0);

            if (jj == j)
              O.v[l][i] = fmin (AE.v[l][i],
                                f * (1.0 - f)
                                  * (c * step * AN.v[l][i]
                                     + step * step / 2.0 * AM.v[l][i]));
          }
    }
  tpyr_collapse (&O);
  for (size_t q = 0; q < n; q++)
    B[q] = O.v[0][q] + 1e-10;
  tpyr_free (&G), tpyr_free (&O);
  tpyr_free (&AE), tpyr_free (&AN), tpyr_free (&AM);
  free (E), free (Nk), free (M);
}

/* max over pixels of |a - b| / B, and of B. */
static double
ratio_to (const double *a, const double *b, const double *B, size_t n,
          double *bmax)
{
  double r = 0.0;

  *bmax = 0.0;
  for (size_t i = 0; i < n; i++)
    {
      r = fmax (r, fabs (a[i] - b[i]) / B[i]);
      *bmax = fmax (*bmax, B[i]);
    }
  return r;
}

/* A smooth field, two edges (2 and 1.5 decades), a little noise. */
static double *
smooth_edges (int w, int h)
{
  double *v = xmalloc ((size_t) w * h * sizeof (double));

  rng_seed (7);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        double u = (x + 0.5) / w, t = (y + 0.5) / h;
        double s = 1.2 * sin (4.0 * u + 0.3) * cos (3.0 * t)
                   + (u > 0.55 + 0.2 * t ? 2.0 : 0.0)
                   - ((u - 0.3) * (u - 0.3) + (t - 0.6) * (t - 0.6) < 0.04
                      ? 1.5 : 0.0);

        v[(size_t) y * w + x] = s + 0.08 * (rng_uniform () - 0.5);
      }
  return v;
}

/* A step of 3 decades between two gradients, a lower band. */
static double *
step_gradient (int w, int h)
{
  double *v = xmalloc ((size_t) w * h * sizeof (double));

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      v[(size_t) y * w + x] = -2.0 + 1.5 * x / (w - 1.0)
                              + (x >= w / 2 ? 3.0 : 0.0)
                              + (y >= 2 * h / 3 ? -0.7 : 0.0);
  return v;
}

typedef struct
{
  const char *name;
  int         w, h;
  double   *(*make) (int w, int h);
} Image;

static const Image IMAGES[] = {
  { "smooth+edges", 48, 40, smooth_edges },
  { "step/gradient", 64, 48, step_gradient },
};

static const Params SETS[] = {
  { .detail = 1.5, .range_compression = 0.5, .edge = 0.2 },
  { .detail = 0.5, .range_compression = 0.0, .edge = 0.1 },
  { .detail = 3.0, .range_compression = 0.9, .edge = 0.5 },
  { .detail = 1.5, .range_compression = 0.9, .edge = 0.1 },
  { .detail = 3.0, .range_compression = 0.5, .edge = 0.2 },
};

static const int SAMPLES[] = { 4, 8, 16, 32 };
#define N_SAMPLES ((int) (sizeof SAMPLES / sizeof SAMPLES[0]))

/* A break is caught where the comparison fails: beyond the per-pixel
 * bound at some samples, or growing with samples. */
static bool
caught (const double *ratio, const double *d)
{
  bool c = false;

  for (int k = 0; k < N_SAMPLES; k++)
    c |= ratio[k] > 1.0 || (k > 0 && d[k] > d[k - 1] * 1.05 + 1e-12);
  return c;
}

static void
test_fast_direct (void)
{
  int swaps = 0, cases = 0;

  tap_diag ("fast against direct: per samples, K, max |fast - direct| (log10), "
            "the per-pixel bound's max, the global bound");
  for (size_t m = 0; m < sizeof IMAGES / sizeof IMAGES[0]; m++)
    {
      const Image *im = &IMAGES[m];
      size_t  n = (size_t) im->w * im->h;
      double *L = im->make (im->w, im->h);
      double *dir = xmalloc (n * sizeof (double));
      double *fast = xmalloc (n * sizeof (double));
      double *copy = xmalloc (n * sizeof (double));
      double *B = xmalloc (n * sizeof (double));
      double  lo, hi;

      min_max (L, n, &lo, &hi);
      for (size_t s = 0; s < sizeof SETS / sizeof SETS[0]; s++)
        {
          Params p = SETS[s];
          double d[N_SAMPLES], r[N_SAMPLES], bf[N_SAMPLES], bg[N_SAMPLES], dc = 0.0;
          double dbeta[N_SAMPLES], rbeta[N_SAMPLES], dswap[N_SAMPLES], rswap[N_SAMPLES];
          double unused;
          int    K[N_SAMPLES], levels = 0;
          bool   within = true, shrinks = true, global = true, runs = true;

          runs &= clfx_local_laplacian_direct_log (im->w, im->h, L, dir, &p,
                                                   lo, hi, NULL);
          for (int k = 0; k < N_SAMPLES; k++)
            {
              ClfxLocalLaplacianInfo info;

              p.samples = SAMPLES[k];
              runs &= clfx_local_laplacian_ref_log (im->w, im->h, L, fast, &p,
                                                    lo, hi, &info);
              bound_field (im->w, im->h, L, &p, lo, hi, B);
              d[k] = max_diff (fast, dir, n);
              r[k] = ratio_to (fast, dir, B, n, &bf[k]);
              bg[k] = fast_bound (&p, info.levels, info.step);
              K[k] = info.samples;
              levels = info.levels;
              within &= r[k] <= 1.0;
              global &= d[k] <= bg[k] && bf[k] <= bg[k];
              /* The samples of two K are not nested, so the largest
               * difference need not fall at every step: 5 % slack. */
              if (k > 0)
                shrinks &= d[k] <= d[k - 1] * 1.05 + 1e-12;
              fast_copy (im->w, im->h, L, copy, &p, lo, hi, FAST_PLAIN);
              dc = fmax (dc, max_diff (fast, copy, n));
              fast_copy (im->w, im->h, L, copy, &p, lo, hi, FAST_BETA_1);
              dbeta[k] = max_diff (copy, dir, n);
              rbeta[k] = ratio_to (copy, dir, B, n, &unused);
              fast_copy (im->w, im->h, L, copy, &p, lo, hi, FAST_SWAPPED);
              dswap[k] = max_diff (copy, dir, n);
              rswap[k] = ratio_to (copy, dir, B, n, &unused);
            }
          tap_diag ("%s %dx%d, detail %.1f c %.1f edge %.1f, N %d:", im->name,
                    im->w, im->h, p.detail, p.range_compression, p.edge,
                    levels);
          for (int k = 0; k < N_SAMPLES; k++)
            tap_diag ("  samples %2d K %2d: %.3g (%.2f of the per-pixel bound, "
                      "max %.3g; global %.3g); beta 1: %.3g (%.2f), swapped: "
                      "%.3g (%.2f)", SAMPLES[k], K[k], d[k], r[k], bf[k],
                      bg[k], dbeta[k], rbeta[k], dswap[k], rswap[k]);
          tap_ok (runs && dc < 1e-12, "%s set %zu: the fast form is the "
                  "plain copy's (max |d| %.2g)", im->name, s, dc);
          tap_ok (within && global, "%s set %zu: |fast - direct| within the "
                  "per-pixel bound for every samples (at most %.2f of it) and "
                  "that within the global one", im->name, s,
                  fmax (fmax (r[0], r[1]), fmax (r[2], r[3])));
          tap_ok (shrinks, "%s set %zu: |fast - direct| does not grow with "
                  "samples (%.3g %.3g %.3g %.3g)", im->name, s,
                  d[0], d[1], d[2], d[3]);
          if (p.range_compression > 0.0)
            tap_ok (caught (rbeta, dbeta), "%s set %zu: beta 1 for c %.1f is "
                    "caught", im->name, s, p.range_compression);
          /* Swapped weights err by |1 - 2 f| |Lap_{j+1} - Lap_j|, of
           * the order of s too: within the bound's slack where the bound
           * is loosest (s near sigma), so only counted. */
          swaps += caught (rswap, dswap);
          cases++;
        }
      free (L), free (dir), free (fast), free (copy), free (B);
    }
  tap_diag ("swapped weights caught in %d of %d cases", swaps, cases);
}

/* ---- (e) what detail and range compression do -------------------------- */

static void
test_effects (void)
{
  int     w = 64, h = 48;
  size_t  n = (size_t) w * h;
  double *L = xmalloc (n * sizeof (double)), *S = xmalloc (n * sizeof (double));
  double *o = xmalloc (n * sizeof (double)), *t = xmalloc (n * sizeof (double));
  double  lo, hi, amp[3], steps[3];
  static const double details[3] = { 0.5, 1.0, 2.0 };
  static const double cs[3] = { 0.0, 0.5, 0.9 };

  /* Fine texture (a checkerboard of +-0.03, below sigma) on a slow
   * ramp: L' - ramp against the texture. */
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        S[(size_t) y * w + x] = 0.004 * x + 0.003 * y;
        t[(size_t) y * w + x] = ((x + y) & 1) ? 0.03 : -0.03;
        L[(size_t) y * w + x] = S[(size_t) y * w + x] + t[(size_t) y * w + x];
      }
  /* The texture's amplitude in L' - ramp: its projection on t. */
  for (int k = 0; k < 3; k++)
    {
      Params p = { .detail = details[k], .range_compression = 0.0, .edge = 0.2 };
      double tt = 0.0, ot = 0.0;

      min_max (L, n, &lo, &hi);
      clfx_local_laplacian_ref_log (w, h, L, o, &p, lo, hi, NULL);
      for (size_t i = 0; i < n; i++)
        {
          ot += (o[i] - S[i]) * t[i];
          tt += t[i] * t[i];
        }
      amp[k] = ot / tt;
    }
  tap_diag ("the texture's amplitude after detail 0.5, 1, 2: %.4g %.4g %.4g",
            amp[0], amp[1], amp[2]);
  tap_ok (amp[2] > 1.5 && amp[0] < 0.75 && fabs (amp[1] - 1.0) < 1e-9,
          "detail 2 raises the fine texture's contrast, 0.5 lowers it, 1 "
          "keeps it");

  /* A step of 3 decades with texture: the mean of each side's inner
   * third, out against in. */
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      L[(size_t) y * w + x] = (x >= w / 2 ? 1.0 : -2.0)
                              + (((x + y) & 1) ? 0.03 : -0.03);
  min_max (L, n, &lo, &hi);
  for (int k = 0; k < 3; k++)
    {
      Params p = { .detail = 1.0, .range_compression = cs[k], .edge = 0.2 };
      double a = 0.0, b = 0.0;
      int    na = 0, nb = 0;

      clfx_local_laplacian_ref_log (w, h, L, o, &p, lo, hi, NULL);
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
          if (x < w / 3)
            a += o[(size_t) y * w + x], na++;
          else if (x >= w - w / 3)
            b += o[(size_t) y * w + x], nb++;
      steps[k] = b / nb - a / na;
    }
  tap_diag ("step of 3 decades after c 0, 0.5, 0.9: %.4g %.4g %.4g",
            steps[0], steps[1], steps[2]);
  tap_ok (fabs (steps[0] - 3.0) < 1e-9 && steps[1] < 0.8 * 3.0
          && steps[2] < steps[1] && steps[2] > 0.0,
          "range compression lowers a large edge, more as c grows");
  free (L), free (S), free (o), free (t);
}

/* ---- the RGBA path ----------------------------------------------------- */

static double *
rgba_image (int w, int h, uint64_t seed)
{
  double *px = xmalloc ((size_t) w * h * 4 * sizeof (double));

  rng_seed (seed);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        double  u = (x + 0.5) / w, v = (y + 0.5) / h;
        double  s = pow (10.0, 2.0 * sin (5.0 * u) * cos (3.0 * v)
                               + (u > 0.5 ? 1.5 : 0.0));
        double *p = px + 4 * ((size_t) y * w + x);

        for (int c = 0; c < 3; c++)
          p[c] = s * (0.3 + 0.7 * rng_uniform ());
        p[3] = 0.2 + 0.8 * v;
      }
  /* A black pixel and one far below the floor. */
  memset (px, 0, 3 * sizeof (double));
  px[4 * 5] = px[4 * 5 + 1] = px[4 * 5 + 2] = 1e-12;
  return px;
}

static void
test_rgba (void)
{
  int     w = 24, h = 17;
  size_t  n = (size_t) w * h;
  double *in = rgba_image (w, h, 5);
  float  *out = xmalloc (n * 4 * sizeof (float));
  float  *out2 = xmalloc (n * 4 * sizeof (float));
  Params  p = { .detail = 1.0, .range_compression = 0.0, .edge = 0.2 };
  ClfxLocalLaplacianInfo info;
  double  d = 0.0, chroma = 0.0, lg = 0.0, bound;
  bool    alpha = true, ok;

  ok = clfx_local_laplacian_ref (w, h, in, out, &p, NULL);
  for (size_t i = 0; i < 4 * n; i++)
    d = fmax (d, fabs (out[i] - in[i]) / (fabs (in[i]) + 1e-30));
  tap_ok (ok && d < 1e-6, "rgba: detail 1, c 0 gives the input (max rel %.2g)",
          d);

  p = (Params) { .detail = 2.0, .range_compression = 0.6, .edge = 0.2 };
  ok = clfx_local_laplacian_ref (w, h, in, out, &p, &info);
  for (size_t i = 0; i < n; i++)
    {
      const double *c = in + 4 * i;
      const float  *q = out + 4 * i;

      alpha &= q[3] == (float) c[3];
      if (c[0] > 0.0)
        for (int k = 1; k < 3; k++)
          chroma = fmax (chroma, fabs (q[k] / q[0] - c[k] / c[0])
                                 / (c[k] / c[0]));
    }
  tap_ok (ok && out[0] == 0.0f && out[1] == 0.0f && out[2] == 0.0f,
          "rgba: black pixel stays black");
  tap_ok (alpha, "rgba: alpha kept");
  tap_ok (chroma < 1e-6, "rgba: colour follows luminance (max rel ratio "
          "change %.2g)", chroma);
  tap_ok (info.l_max - info.l_min <= 6.0 + 1e-12
            && info.samples == clfx_local_laplacian_samples (p.edge),
          "rgba: samples over the floored range (%.4g to %.4g, K %d)",
          info.l_min, info.l_max, info.samples);

  /* The direct form through the same path: within the bound in log10. */
  p.direct = true;
  ok = clfx_local_laplacian_ref (w, h, in, out2, &p, NULL);
  for (size_t i = 0; i < n; i++)
    if (in[4 * i + 1] > 0.0)
      lg = fmax (lg, fabs (log10 ((double) out[4 * i + 1] / out2[4 * i + 1])));
  bound = fast_bound (&p, info.levels, info.step) + 1e-6;
  tap_ok (ok && lg <= bound, "rgba: direct within the fast form's bound "
          "(max |log10 ratio| %.3g <= %.3g)", lg, bound);

  /* Black image, refusals. */
  for (size_t i = 0; i < n; i++)
    in[4 * i] = in[4 * i + 1] = in[4 * i + 2] = 0.0;
  p.direct = false;
  ok = clfx_local_laplacian_ref (w, h, in, out, &p, NULL);
  d = 0.0;
  for (size_t i = 0; i < n; i++)
    d = fmax (d, fabs (out[4 * i]) + fabs (out[4 * i + 1]) + fabs (out[4 * i + 2])
                 + fabs (out[4 * i + 3] - (float) in[4 * i + 3]));
  tap_ok (ok && d == 0.0, "rgba: black image gives black, alpha kept");
  {
    static const Params bad[] = {
      { .detail = 1.0, .range_compression = 0.5, .edge = 0.0 },
      { .detail = 1.0, .range_compression = 0.5, .edge = -0.1 },
      { .detail = -0.1, .range_compression = 0.5, .edge = 0.2 },
      { .detail = 1.0, .range_compression = -0.01, .edge = 0.2 },
      { .detail = 1.0, .range_compression = 1.01, .edge = 0.2 },
      { .detail = 1.0, .range_compression = NAN, .edge = 0.2 },
      { .detail = 1.0, .range_compression = 0.5, .edge = 0.2, .samples = 1 },
    };
    bool refused = true;

    for (size_t i = 0; i < 4 * n; i++)
      out[i] = 42.0f;
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
      {
        double L[4] = { 0, 1, 2, 3 }, o[4] = { 7, 7, 7, 7 };

        refused &= ! clfx_local_laplacian_ref (w, h, in, out, &bad[k], NULL);
        refused &= ! clfx_local_laplacian_ref_log (2, 2, L, o, &bad[k], 0, 3,
                                                   NULL);
        refused &= ! clfx_local_laplacian_direct_log (2, 2, L, o, &bad[k], 0,
                                                      3, NULL);
        refused &= o[0] == 7 && o[3] == 7;
      }
    for (size_t i = 0; i < 4 * n; i++)
      refused &= out[i] == 42.0f;
    tap_ok (refused, "edge <= 0, detail < 0, c outside [0, 1], samples 1 "
            "refused, output untouched");
  }
  free (in), free (out), free (out2);
}

int
main (void)
{
  test_identity ();
  test_collapse ();
  test_down_up ();
  test_direct_windows ();
  test_fast_direct ();
  test_effects ();
  test_rgba ();
  return tap_done ();
}
