/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-fattal-ref.c: engine/ops/fattal-ref.c, the double reference of
 * fattal02's luminance pipeline, against what docs/TONEMAP.md's text
 * implies without running it: with beta = 1 every phi is 1, so the
 * equation's exact solution is H minus its mean; the counts of levels and
 * grids follow from the sizes; the percentile normalisation pins lo to
 * 1e-4 and hi to 1; and the multigrid's own error is small next to U.
 *
 * The restriction keeps the residual's total where an odd edge leaves a
 * coarse cell half full: 4 x the mean there (as if it covered four
 * cells) made the V-cycle diverge on sizes odd at several grids (error
 * growth per cycle 1.16 on 65 x 65, 1.89 on 257 x 129); the odd sizes
 * here are the check that it no longer does. */
#define _GNU_SOURCE /* M_PI */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../tap.h"
#include "../../engine/ops/fattal-ref.h"
#include "../rng.h"


/* A smooth HDR field (about e^-4 to e^4) times multiplicative noise, a few
 * zeros: the kind of luminance tone mapping meets. */
static double *
make_y (int w, int h, uint64_t seed)
{
  double *Y = malloc ((size_t) w * h * sizeof (double));

  if (! Y)
    abort ();
  rng_seed (seed);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        double u = (x + 0.5) / w, v = (y + 0.5) / h;
        double s = 2.5 * sin (6.0 * u + 1.0) * cos (4.0 * v)
                   + 1.5 * exp (-30.0 * ((u - 0.6) * (u - 0.6)
                                         + (v - 0.3) * (v - 0.3)));

        Y[(size_t) y * w + x] = exp (s) * (1.0 + 0.4 * (rng_uniform () - 0.5));
      }
  if (w * h > 50)
    Y[(size_t) (h / 2) * w + w / 3] = 0.0;
  return Y;
}

static double
H_of (double y, double ymax)
{
  return log (100.0 * y / ymax + 1e-4);
}

static double
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

static bool
run (int w, int h, const double *Y, double alpha, double beta, double noise,
     ClfxFattalRef *r)
{
  bool ok = clfx_fattal_ref (w, h, Y, alpha, beta, noise, r);

  if (! ok)
    tap_ok (false, "%dx%d: clfx_fattal_ref ran (out of memory?)", w, h);
  return ok;
}

/* beta = 1: phi = 1 everywhere, FI = 1, G = grad H and div = A H, so the
 * equation's solution with mean 0 is H - mean (H). */
static void
test_beta_one (int w, int h, bool even)
{
  size_t        n = (size_t) w * h;
  double       *Y = make_y (w, h, (uint64_t) w * 1000 + h);
  double       *H = malloc (n * sizeof (double));
  double        ymax = 0, hmean = 0, hmin = INFINITY, hmax = -INFINITY;
  double        e_exact = 0, e_mg = 0, res = 0, res2 = 0, dmax = 0, mean = 0;
  double        lambda1, bound;
  ClfxFattalRef r;

  if (! H)
    abort ();
  for (size_t i = 0; i < n; i++)
    ymax = fmax (ymax, Y[i]);
  for (size_t i = 0; i < n; i++)
    {
      H[i] = H_of (Y[i], ymax);
      hmean += H[i];
      hmin = fmin (hmin, H[i]);
      hmax = fmax (hmax, H[i]);
    }
  hmean /= (double) n;
  if (run (w, h, Y, 1.0, 1.0, 0.0, &r))
    {
      for (size_t i = 0; i < n; i++)
        {
          e_exact = fmax (e_exact, fabs (r.U_exact[i] - (H[i] - hmean)));
          e_mg = fmax (e_mg, fabs (r.U[i] - (H[i] - hmean)));
          mean += r.U[i];
        }
      mean /= (double) n;
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
          {
            double d = apply_a (H, w, h, x, y);

            double e = apply_a (r.U_exact, w, h, x, y) - d;

            dmax = fmax (dmax, fabs (d));
            res = fmax (res, fabs (e));
            res2 += e * e;
          }
      /* The stopping rule leaves a residual of up to 1e-11 max |div|; the
       * error it carries is at most its 2-norm over A's smallest nonzero
       * eigenvalue, 2 - 2 cos (pi / max (w, h)) (Neumann), which on large
       * images is well above 1e-9. */
      lambda1 = 2.0 - 2.0 * cos (M_PI / (w > h ? w : h));
      bound = 1e-9 + 1.01 * sqrt (res2) / lambda1;
      tap_ok (e_exact <= bound,
              "beta 1, %dx%d: U_exact = H - mean (H), max error %.3g (bound "
              "%.3g)", w, h, e_exact, bound);
      tap_ok (res <= 1e-10 * fmax (dmax, 1e-300),
              "beta 1, %dx%d: U_exact's residual against A H %.3g (max |A H| "
              "%.3g)", w, h, res, dmax);
      /* Two V-cycles per grid leave the full multigrid within a small
       * part of H's range, odd grids (half-full cells) included. */
      tap_ok (e_mg <= 0.02 * (hmax - hmin) || (hmax == hmin && e_mg == 0),
              "beta 1, %dx%d%s: the full multigrid's U within 2%% of H's "
              "range %.3g: %.3g (%.2g%%)", w, h, even ? "" : " (odd grids)",
              hmax - hmin, e_mg,
              hmax > hmin ? 100 * e_mg / (hmax - hmin) : 0.0);
      tap_ok (fabs (mean) <= 1e-12, "beta 1, %dx%d: mean of U %.3g", w, h,
              mean);
      /* Up to 8 x 8 the image is the coarsest grid, whose solve is exact
       * (docs/TONEMAP.md): H - mean (H) to double's rounding. */
      if (w <= 8 && h <= 8)
        tap_ok (e_mg <= 1e-12 * fmax (hmax - hmin, 1.0),
                "beta 1, %dx%d: the coarsest solve is exact: %.3g", w, h,
                e_mg);
      clfx_fattal_ref_free (&r);
    }
  free (H);
  free (Y);
}

static void
test_counts (void)
{
  static const int cases[][4] = {
    /* w, h, levels, grids.  levels: min (w, h) halved while the half is
     * >= 32 (1024x512: 256 128 64 32, 16 stops it); grids: ceil halving
     * down to max (w, h) <= 8. */
    { 1, 1, 1, 1 },
    { 8, 8, 1, 1 },
    { 9, 3, 1, 2 },
    { 8, 1, 1, 1 },
    { 17, 9, 1, 3 },
    { 64, 64, 1, 4 },
    { 127, 300, 1, 7 },
    { 128, 128, 2, 5 },
    { 300, 200, 2, 7 },
    { 200, 130, 2, 6 },
  };

  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    {
      int           w = cases[c][0], h = cases[c][1];
      double       *Y = make_y (w, h, 7);
      ClfxFattalRef r;

      if (run (w, h, Y, 1.0, 0.9, 0.0, &r))
        {
          tap_ok (r.levels == cases[c][2] && r.grids == cases[c][3],
                  "%dx%d: %d levels, %d grids (got %d, %d)", w, h,
                  cases[c][2], cases[c][3], r.levels, r.grids);
          clfx_fattal_ref_free (&r);
        }
      free (Y);
    }
}

/* H linear along x (a ramp of slope a, no variation along y): level 0's
 * central differences are a inside and a / 2 at the two clamped columns,
 * so avg_0 = a (w - 1) / w; coarser levels keep the slope inside. */
static void
test_avg_ramp (void)
{
  int           w = 200, h = 130;
  double        a = 0.03;
  double       *Y = malloc ((size_t) w * h * sizeof (double));
  ClfxFattalRef r;

  if (! Y)
    abort ();
  /* 100 Y / max Y + 1e-4 = e^(a x) exactly enough: Y = (e^(a x) - 1e-4)
   * / 100 times max's scale. */
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      Y[(size_t) y * w + x] = (exp (a * (x - (w - 1))) * (100 + 1e-4)
                               - 1e-4) / 100;
  if (run (w, h, Y, 1.0, 0.9, 0.0, &r))
    {
      double want = a * (w - 1) / w;

      tap_ok (r.levels == 2, "ramp %dx%d: 2 levels (got %d)", w, h, r.levels);
      tap_ok (fabs (r.avg[0] - want) <= 1e-12,
              "ramp: avg_0 = a (w - 1) / w = %.15g (got %.15g)", want,
              r.avg[0]);
      tap_ok (r.avg[1] > 0.9 * a && r.avg[1] < a,
              "ramp: avg_1 %.6g a little below a = %g (edges)", r.avg[1], a);
      clfx_fattal_ref_free (&r);
    }
  free (Y);
}

/* The multigrid's algebraic error on a compressing beta, and step 7. */
static void
test_image (int w, int h, bool check_alg, bool check_out)
{
  size_t        n = (size_t) w * h;
  double       *Y = make_y (w, h, 99);
  double       *L = malloc (n * sizeof (double));
  ClfxFattalRef r;

  if (! L)
    abort ();
  if (run (w, h, Y, 1.0, 0.9, 0.0, &r))
    {
      size_t nlo = 0, none = 0, nabove = 0, ilo, ihi;
      bool   finite = true;
      double mean = 0, mean_x = 0;

      if (check_alg)
        tap_ok (r.alg_err < 1e-2 * r.max_abs_u,
                "%dx%d: alg_err %.3g, max |U| %.3g: %.3g of it", w, h,
                r.alg_err, r.max_abs_u, r.alg_err / r.max_abs_u);
      else
        tap_diag ("%dx%d: alg_err %.3g, max |U| %.3g: %.3g of it", w, h,
                  r.alg_err, r.max_abs_u, r.alg_err / r.max_abs_u);
      for (size_t i = 0; i < n; i++)
        {
          mean += r.U[i];
          mean_x += r.U_exact[i];
        }
      mean /= (double) n;
      mean_x /= (double) n;
      tap_ok (fabs (mean) <= 1e-12 && fabs (mean_x) <= 1e-12,
              "%dx%d: U's mean %.3g, U_exact's %.3g", w, h, mean, mean_x);
      if (check_out)
        {
          /* lo and hi are the values of ranks floor (0.001 n) and
           * floor (0.995 n) of L = exp (U) - 1e-4 sorted: a value v has
           * rank k when fewer than k + 1 are below it and more than k are
           * at most it. */
          size_t lt_lo = 0, le_lo = 0, lt_hi = 0, le_hi = 0;

          ilo = (size_t) floor (0.001 * (double) n);
          ihi = (size_t) floor (0.995 * (double) n);
          for (size_t i = 0; i < n; i++)
            {
              L[i] = exp (r.U[i]) - 1e-4;
              lt_lo += L[i] < r.lo;
              le_lo += L[i] <= r.lo;
              lt_hi += L[i] < r.hi;
              le_hi += L[i] <= r.hi;
            }
          tap_ok (lt_lo <= ilo && le_lo > ilo && lt_hi <= ihi && le_hi > ihi
                  && r.lo < r.hi,
                  "%dx%d: lo %.9g, hi %.9g are ranks %zu, %zu of sorted L",
                  w, h, r.lo, r.hi, ilo, ihi);
          for (size_t i = 0; i < n; i++)
            {
              finite = finite && isfinite (r.out[i]) && r.out[i] > 0;
              nlo += r.out[i] == 1e-4;
              none += r.out[i] == 1.0;
              nabove += r.out[i] > 1.0;
            }
          tap_ok (finite, "%dx%d: every out finite and > 0", w, h);
          tap_ok (nlo >= ilo + 1,
                  "%dx%d: ranks 0..%zu map to <= 0, so 1e-4 (%zu do)", w, h,
                  ilo, nlo);
          tap_ok (none >= 1 && nabove <= n - 1 - ihi,
                  "%dx%d: hi maps to 1 (%zu do), at most %zu above (%zu, "
                  "not clipped)", w, h, none, n - 1 - ihi, nabove);
        }
      clfx_fattal_ref_free (&r);
    }
  free (L);
  free (Y);
}

static void
test_flat_and_black (void)
{
  int           w = 40, h = 23;
  size_t        n = (size_t) w * h;
  double       *Y = malloc (n * sizeof (double));
  ClfxFattalRef r;
  bool          ok;

  if (! Y)
    abort ();
  for (size_t i = 0; i < n; i++)
    Y[i] = 3.5;
  if (run (w, h, Y, 1.0, 0.9, 0.0, &r))
    {
      ok = r.lo == r.hi && r.max_abs_u == 0 && r.alg_err == 0;
      for (size_t i = 0; i < n; i++)
        ok = ok && r.out[i] == 1.0 && r.U[i] == 0 && r.U_exact[i] == 0;
      tap_ok (ok, "constant Y: U 0, out 1 everywhere");
      clfx_fattal_ref_free (&r);
    }
  for (size_t i = 0; i < n; i++)
    Y[i] = 0.0;
  if (run (w, h, Y, 1.0, 0.9, 0.0, &r))
    {
      ok = r.max_abs_u == 0;
      for (size_t i = 0; i < n; i++)
        ok = ok && r.out[i] == 0 && r.U[i] == 0 && r.U_exact[i] == 0;
      tap_ok (ok, "max Y = 0: U 0, out 0 everywhere");
      clfx_fattal_ref_free (&r);
    }
  Y[0] = 2.0;
  if (run (1, 1, Y, 1.0, 0.9, 0.0, &r))
    {
      tap_ok (r.out[0] == 1.0 && r.U[0] == 0,
              "1x1: out 1 (lo = hi), U 0 (got %g, %g)", r.out[0], r.U[0]);
      clfx_fattal_ref_free (&r);
    }
  free (Y);
}

/* noise 0 means 0.1 alpha; and Y's scale is divided out by max Y. */
static void
test_noise_and_scale (void)
{
  int           w = 70, h = 45;
  size_t        n = (size_t) w * h;
  double       *Y = make_y (w, h, 5);
  double        d_noise = 0, d_scale = 0, d_other = 0;
  ClfxFattalRef a, b, c, d;

  if (! run (w, h, Y, 0.5, 0.8, 0.0, &a))
    goto done;
  if (run (w, h, Y, 0.5, 0.8, 0.05, &b))
    {
      for (size_t i = 0; i < n; i++)
        d_noise = fmax (d_noise, fabs (a.U[i] - b.U[i]));
      tap_ok (d_noise == 0, "noise 0 is 0.1 alpha (max |dU| %g)", d_noise);
      clfx_fattal_ref_free (&b);
    }
  if (run (w, h, Y, 0.5, 0.8, 0.3, &d))
    {
      for (size_t i = 0; i < n; i++)
        d_other = fmax (d_other, fabs (a.U[i] - d.U[i]));
      tap_ok (d_other > 1e-3, "another noise changes U (max |dU| %g)",
              d_other);
      clfx_fattal_ref_free (&d);
    }
  for (size_t i = 0; i < n; i++)
    Y[i] *= 1000.0;
  if (run (w, h, Y, 0.5, 0.8, 0.0, &c))
    {
      for (size_t i = 0; i < n; i++)
        d_scale = fmax (d_scale, fabs (a.U[i] - c.U[i]));
      tap_ok (d_scale <= 1e-10, "1000 Y gives the same U (max |dU| %g)",
              d_scale);
      clfx_fattal_ref_free (&c);
    }
  clfx_fattal_ref_free (&a);
done:
  free (Y);
}

/* The emulated rounding: 0 is the plain run bit for bit; float's (2^-24
 * of the terms) moves U a little, a seed's own way, and far less than
 * the multigrid's algebraic error; the same seed repeats exactly. */
static void
test_perturbed (void)
{
  int           w = 97, h = 61;
  size_t        n = (size_t) w * h;
  double       *Y = make_y (w, h, 11);
  double        d0 = 0, d1 = 0, d12 = 0, drep = 0;
  ClfxFattalRef a, z, p1, p2, p1b;
  bool          ok;

  if (! run (w, h, Y, 1.0, 0.9, 0.0, &a))
    goto done;
  ok = clfx_fattal_ref_perturbed (w, h, Y, 1.0, 0.9, 0.0, 0.0, 1, &z)
       && clfx_fattal_ref_perturbed (w, h, Y, 1.0, 0.9, 0.0, 0x1p-24, 1, &p1)
       && clfx_fattal_ref_perturbed (w, h, Y, 1.0, 0.9, 0.0, 0x1p-24, 2, &p2)
       && clfx_fattal_ref_perturbed (w, h, Y, 1.0, 0.9, 0.0, 0x1p-24, 1,
                                     &p1b);
  tap_ok (ok, "perturbed runs ran");
  if (ok)
    {
      for (size_t i = 0; i < n; i++)
        {
          d0 = fmax (d0, fabs (z.U[i] - a.U[i]) + fabs (z.out[i] - a.out[i]));
          d1 = fmax (d1, fabs (p1.U[i] - a.U[i]));
          d12 = fmax (d12, fabs (p1.U[i] - p2.U[i]));
          drep = fmax (drep, fabs (p1.U[i] - p1b.U[i]));
        }
      tap_ok (d0 == 0, "rounding 0: the plain run bit for bit (%g)", d0);
      tap_ok (d1 > 0 && d1 < 1e-2 * a.alg_err && d12 > 0 && drep == 0,
              "rounding 2^-24: U moves by %.3g (seeds apart %.3g, the same "
              "seed %.3g), well under the algebraic error %.3g", d1, d12,
              drep, a.alg_err);
      clfx_fattal_ref_free (&z);
      clfx_fattal_ref_free (&p1);
      clfx_fattal_ref_free (&p2);
      clfx_fattal_ref_free (&p1b);
    }
  clfx_fattal_ref_free (&a);
done:
  free (Y);
}

/* Ties at phi's threshold: a band only marks them (U bit for bit the
 * same), a run that follows the plain one's decisions repeats it bit for
 * bit, and one that flips them decides the other way at every tie and
 * nowhere else, which moves U. */
static void
test_ties (void)
{
  int           w = 97, h = 61;
  size_t        n = (size_t) w * h;
  double       *Y = make_y (w, h, 5);
  double        band[32], d_mark = 0, d_follow = 0, d_flip = 0;
  long          wrong = 0;
  ClfxFattalRef a, marked, followed, flipped;
  bool          ok;

  for (int k = 0; k < 32; k++)
    band[k] = 1e-2;
  if (! run (w, h, Y, 1.0, 0.9, 0.0, &a))
    goto done;
  {
    ClfxFattalRefRun mark = { 0.0, 0, band, NULL, 0 };
    ok = clfx_fattal_ref_run (w, h, Y, 1.0, 0.9, 0.0, &mark, &marked);
  }
  if (ok)
    {
      ClfxFattalRefRun follow = { 0.0, 0, NULL, &marked, 0 };
      ClfxFattalRefRun flip = { 0.0, 0, NULL, &marked, -1 };
      ok = clfx_fattal_ref_run (w, h, Y, 1.0, 0.9, 0.0, &follow, &followed)
           && clfx_fattal_ref_run (w, h, Y, 1.0, 0.9, 0.0, &flip, &flipped);
    }
  tap_ok (ok, "runs with a tie band, following and flipping ran");
  if (ok)
    {
      for (size_t i = 0; i < n; i++)
        {
          d_mark = fmax (d_mark, fabs (marked.U[i] - a.U[i]));
          d_follow = fmax (d_follow, fabs (followed.U[i] - a.U[i]));
          d_flip = fmax (d_flip, fabs (flipped.U[i] - a.U[i]));
        }
      for (int k = 0; k < a.levels; k++)
        for (size_t i = 0; i < (size_t) (w >> k) * (h >> k); i++)
          {
            unsigned char m = marked.decided[k][i];
            wrong += (m & 1) != (a.decided[k][i] & 1)
                     || flipped.decided[k][i] != (m ^ (m >> 1));
          }
      tap_ok (marked.ties > 0 && a.ties == 0 && d_mark == 0 && d_follow == 0,
              "a band of 1e-2 marks %ld ties and changes nothing (%g); "
              "following its decisions repeats it (%g)", marked.ties,
              d_mark, d_follow);
      tap_ok (wrong == 0 && d_flip > 0,
              "flipped: the other decision at every tie and only there "
              "(%ld wrong), U moves by %.3g", wrong, d_flip);
      /* The four groups: each tie flipped in exactly one of them, the one
       * its place at its level gives (no two touching ties share one). */
      {
        long wrong_group = 0, flips = 0;
        for (int group = 1; group <= 4 && ok; group++)
          {
            ClfxFattalRefRun run = { 0.0, 0, NULL, &marked, group };
            ClfxFattalRef    q;
            if (! (ok = clfx_fattal_ref_run (w, h, Y, 1.0, 0.9, 0.0, &run,
                                             &q)))
              break;
            for (int k = 0; k < a.levels; k++)
              for (size_t i = 0; i < (size_t) (w >> k) * (h >> k); i++)
                {
                  int  x = (int) (i % (size_t) (w >> k));
                  int  y = (int) (i / (size_t) (w >> k));
                  bool mine = (marked.decided[k][i] & 2)
                              && group == 1 + (x & 1) + 2 * (y & 1);
                  bool flipped_here = (q.decided[k][i] & 1)
                                      != (marked.decided[k][i] & 1);
                  wrong_group += mine != flipped_here;
                  flips += flipped_here;
                }
            clfx_fattal_ref_free (&q);
          }
        tap_ok (ok && wrong_group == 0 && flips == marked.ties,
                "four groups: %ld flips over %ld ties, %ld outside their "
                "group", flips, marked.ties, wrong_group);
      }
      clfx_fattal_ref_free (&marked);
      clfx_fattal_ref_free (&followed);
      clfx_fattal_ref_free (&flipped);
    }
  clfx_fattal_ref_free (&a);
done:
  free (Y);
}

int
main (void)
{
  /* w, h, and whether every grid above the coarsest is even. */
  static const int sizes[][3] = {
    { 1, 1, 1 }, { 2, 3, 1 }, { 8, 8, 1 }, { 64, 64, 1 }, { 96, 64, 1 },
    { 256, 256, 1 }, { 50, 1, 0 }, { 1, 37, 0 }, { 17, 9, 0 },
    { 100, 37, 0 }, { 300, 200, 0 }, { 65, 65, 0 }, { 97, 61, 0 },
    { 257, 129, 0 },
  };

  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    test_beta_one (sizes[s][0], sizes[s][1], sizes[s][2]);
  test_counts ();
  test_avg_ramp ();
  test_flat_and_black ();
  test_noise_and_scale ();
  test_perturbed ();
  test_ties ();
  test_image (97, 61, false, true);
  test_image (256, 256, true, true);
  {
    /* 1024x512: the size the device tests use; the counts from the text
     * and the algebraic error there. */
    double       *Y = make_y (1024, 512, 3);
    ClfxFattalRef r;

    if (run (1024, 512, Y, 1.0, 0.9, 0.0, &r))
      {
        tap_ok (r.levels == 4 && r.grids == 8,
                "1024x512: 4 levels, 8 grids (got %d, %d)", r.levels,
                r.grids);
        tap_ok (r.alg_err < 1e-2 * r.max_abs_u,
                "1024x512: alg_err %.3g, max |U| %.3g: %.3g of it",
                r.alg_err, r.max_abs_u, r.alg_err / r.max_abs_u);
        clfx_fattal_ref_free (&r);
      }
    free (Y);
  }
  return tap_done ();
}
