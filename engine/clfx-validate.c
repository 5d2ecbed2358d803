/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-validate.c: statistics of an OpenCL result against the reference. */
#include "clfx-validate.h"

#include <math.h>
#include <string.h>

static bool
same_value (double e, double a, double t)
{
  if (isnan (e) || isnan (a))
    return isnan (e) && isnan (a);
  if (isinf (e) || isinf (a))
    return e == a;
  return fabs (a - e) <= t;
}

/* Channel c of (x, y) as compared.  Images with straight alpha compare
 * colour multiplied by its alpha (each image by its own), which is what
 * the pixel shows: where alpha is near 0 the colour is invisible and, once
 * divided by that alpha, as uncertain as the division makes it.  The
 * tolerance follows: |ca*aa - ce*ae| <= tc*aa + |ce|*ta + tc*ta when the
 * colour differs by up to tc and the alpha by up to ta.  lo and hi, where
 * given, become the range of the product over their intervals. */
typedef struct
{
  double e, a, t, lo, hi;
  double t_env; /* the bound at the envelope's ends (rel_tol of them) */
} Sample;

static double
tol_of (double e, double abs_tol, double rel_tol)
{
  return abs_tol + rel_tol * fabs (e);
}

static Sample
sample_at (const ClfxImage *expected, const ClfxImage *actual,
           const ClfxImage *lo, const ClfxImage *hi, int x, int y, int c,
           double abs_tol, const ClfxImage *abs_map, double rel_tol)
{
  Sample s;
  int    alpha = expected->channels - 1;

  if (abs_map)
    abs_tol = clfx_image_get (abs_map, x, y, 0);

  s.e = clfx_image_get (expected, x, y, c);
  s.a = clfx_image_get (actual, x, y, c);
  s.lo = lo ? clfx_image_get (lo, x, y, c) : s.e;
  s.hi = hi ? clfx_image_get (hi, x, y, c) : s.e;
  s.t = tol_of (s.e, abs_tol, rel_tol);
  if (expected->straight_alpha && alpha > 0 && c != alpha)
    {
      double ae = clfx_image_get (expected, x, y, alpha);
      double aa = clfx_image_get (actual, x, y, alpha);
      double ta = tol_of (ae, abs_tol, rel_tol);
      double alo = lo ? clfx_image_get (lo, x, y, alpha) : ae;
      double ahi = hi ? clfx_image_get (hi, x, y, alpha) : ae;
      double p[4] = { s.lo * alo, s.lo * ahi, s.hi * alo, s.hi * ahi };

      s.t = s.t * fmax (fabs (aa), fabs (ae)) + fabs (s.e) * ta + s.t * ta;
      s.e *= ae;
      s.a *= aa;
      s.lo = fmin (fmin (p[0], p[1]), fmin (p[2], p[3]));
      s.hi = fmax (fmax (p[0], p[1]), fmax (p[2], p[3]));
    }
  /* A value the envelope allows is as uncertain as the reference would
   * be there: its relative part is taken of the envelope's ends too (an
   * end far from a reference near 0 is otherwise held to 0's bound). */
  s.t_env = s.t + rel_tol * fmax (fabs (s.lo - s.e), fabs (s.hi - s.e));
  return s;
}

void
clfx_validate (const ClfxImage *expected, const ClfxImage *actual,
               double abs_tol, double rel_tol, ClfxValidation *v)
{
  clfx_validate_per_pixel (expected, NULL, NULL, actual, abs_tol, NULL,
                           rel_tol, v);
}

void
clfx_validate_bounded (const ClfxImage *expected, const ClfxImage *lo,
                       const ClfxImage *hi, const ClfxImage *actual,
                       double abs_tol, double rel_tol, ClfxValidation *v)
{
  clfx_validate_per_pixel (expected, lo, hi, actual, abs_tol, NULL, rel_tol,
                           v);
}

static bool
inside_envelope (const Sample *s)
{
  if (! isfinite (s->a) || ! isfinite (s->lo) || ! isfinite (s->hi))
    return false;
  return s->a >= fmin (s->lo, s->e) - s->t_env
         && s->a <= fmax (s->hi, s->e) + s->t_env;
}

/* Keeps the largest difference so far and where it was. */
static void
note_worst (ClfxValidation *v, double *worst, double d, int x, int y,
            int c, const Sample *s)
{
  if (! (d > *worst))
    return;
  *worst = d;
  v->worst.x = x;
  v->worst.y = y;
  v->worst.channel = c;
  v->worst.expected = s->e;
  v->worst.actual = s->a;
  v->worst.tol = s->t;
}

static bool
same_shape (const ClfxImage *a, const ClfxImage *b)
{
  return a->width == b->width && a->height == b->height;
}

void
clfx_validate_per_pixel (const ClfxImage *expected, const ClfxImage *lo,
                         const ClfxImage *hi, const ClfxImage *actual,
                         double abs_tol, const ClfxImage *abs_map,
                         double rel_tol, ClfxValidation *v)
{
  double sq = 0.0, peak = 1.0, worst = -1.0;
  size_t finite = 0;

  memset (v, 0, sizeof *v);
  v->abs_tol = abs_tol;
  v->rel_tol = rel_tol;
  v->abs_tol_min = abs_tol;
  v->per_pixel = abs_map != NULL;
  if (expected->width != actual->width || expected->height != actual->height
      || expected->channels != actual->channels
      || (abs_map && ! same_shape (abs_map, expected)))
    {
      v->mismatches = 1;
      v->passed = false;
      return;
    }
  for (int y = 0; y < expected->height; y++)
    for (int x = 0; x < expected->width; x++)
      {
        v->pixels++;
        if (abs_map && clfx_image_get (abs_map, x, y, 0) < v->abs_tol_min)
          v->abs_tol_min = clfx_image_get (abs_map, x, y, 0);
        for (int c = 0; c < expected->channels; c++)
          {
            Sample s = sample_at (expected, actual, lo && hi ? lo : NULL,
                                  lo && hi ? hi : NULL, x, y, c, abs_tol,
                                  abs_map, rel_tol);
            double e = s.e, a = s.a;
            double d;

            v->samples++;
            if (isnan (a))
              v->nan++;
            else if (isinf (a))
              v->inf++;
            if (! same_value (e, a, s.t))
              {
                if (lo && hi && inside_envelope (&s))
                  v->ambiguous++;
                else
                  v->mismatches++;
              }
            if (! isfinite (e) || ! isfinite (a))
              {
                /* A NaN or Inf where another value belongs is the worst
                 * difference there is. */
                if (! same_value (e, a, 0))
                  note_worst (v, &worst, INFINITY, x, y, c, &s);
                continue;
              }
            d = fabs (a - e);
            finite++;
            sq += d * d;
            if (fabs (e) > peak)
              peak = fabs (e);
            if (d > v->max_abs)
              v->max_abs = d;
            if (d / fmax (fabs (e), 1e-6) > v->max_rel)
              v->max_rel = d / fmax (fabs (e), 1e-6);
            note_worst (v, &worst, d, x, y, c, &s);
          }
      }
  v->rmse = finite ? sqrt (sq / (double) finite) : 0.0;
  /* Identical images have infinite PSNR; JSON has no Inf, so cap it at a
   * value no real difference reaches (float epsilon is ~138 dB). */
  v->psnr_db = v->rmse > 0.0 ? 20.0 * log10 (peak / v->rmse) : 999.0;
  v->passed = v->mismatches == 0;
}

bool
clfx_validate_error_map (const ClfxImage *expected, const ClfxImage *actual,
                         double abs_tol, const ClfxImage *abs_map,
                         double rel_tol, ClfxImage *map, ClfxError *error)
{
  if (abs_map && ! same_shape (abs_map, expected))
    return clfx_error_set (error, CLFX_ERR_INVALID, "the per-pixel bound "
                           "is %dx%d, the result %dx%d", abs_map->width,
                           abs_map->height, expected->width,
                           expected->height);
  if (! clfx_host_image_alloc (map, expected->width, expected->height, 1,
                               CLFX_DEPTH_FLOAT, error))
    return false;
  for (int y = 0; y < expected->height; y++)
    for (int x = 0; x < expected->width; x++)
      {
        double m = 0.0;
        for (int c = 0; c < expected->channels; c++)
          {
            Sample s = sample_at (expected, actual, NULL, NULL, x, y, c,
                                  abs_tol, abs_map, rel_tol);
            double e = s.e, a = s.a, t = s.t;
            double r;
            if (same_value (e, a, 0))
              continue;
            if (! isfinite (e) || ! isfinite (a))
              r = 1e30;
            else
              r = fabs (a - e) / (t > 0 ? t : 1e-30);
            m = r > m ? r : m;
          }
        clfx_image_set (map, x, y, 0, (float) m);
      }
  return true;
}

void
clfx_validate_widen (ClfxImage *lo, ClfxImage *hi, const ClfxImage *v)
{
  for (int y = 0; y < v->height; y++)
    for (int x = 0; x < v->width; x++)
      for (int c = 0; c < v->channels; c++)
        {
          float b = clfx_image_get (v, x, y, c);
          if (b < clfx_image_get (lo, x, y, c))
            clfx_image_set (lo, x, y, c, b);
          if (b > clfx_image_get (hi, x, y, c))
            clfx_image_set (hi, x, y, c, b);
        }
}
