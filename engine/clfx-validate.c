/* clfx-validate.c: statistics of an OpenCL result against the reference. */
#include "clfx-validate.h"

#include <math.h>
#include <string.h>

static bool
same_value (double e, double a, double abs_tol, double rel_tol)
{
  if (isnan (e) || isnan (a))
    return isnan (e) && isnan (a);
  if (isinf (e) || isinf (a))
    return e == a;
  return fabs (a - e) <= abs_tol + rel_tol * fabs (e);
}

void
clfx_validate (const ClfxImage *expected, const ClfxImage *actual,
               double abs_tol, double rel_tol, ClfxValidation *v)
{
  clfx_validate_bounded (expected, NULL, NULL, actual, abs_tol, rel_tol, v);
}

static bool
inside_envelope (double lo, double hi, double e, double a, double abs_tol,
                 double rel_tol)
{
  double t = abs_tol + rel_tol * fabs (e);

  if (! isfinite (a) || ! isfinite (lo) || ! isfinite (hi))
    return false;
  return a >= fmin (lo, e) - t && a <= fmax (hi, e) + t;
}

void
clfx_validate_bounded (const ClfxImage *expected, const ClfxImage *lo,
                       const ClfxImage *hi, const ClfxImage *actual,
                       double abs_tol, double rel_tol, ClfxValidation *v)
{
  double sq = 0.0, peak = 1.0, worst = -1.0;
  size_t finite = 0;

  memset (v, 0, sizeof *v);
  v->abs_tol = abs_tol;
  v->rel_tol = rel_tol;
  if (expected->width != actual->width || expected->height != actual->height
      || expected->channels != actual->channels)
    {
      v->mismatches = 1;
      v->passed = false;
      return;
    }
  for (int y = 0; y < expected->height; y++)
    for (int x = 0; x < expected->width; x++)
      {
        v->pixels++;
        for (int c = 0; c < expected->channels; c++)
          {
            double e = clfx_image_get (expected, x, y, c);
            double a = clfx_image_get (actual, x, y, c);
            double d;

            v->samples++;
            if (isnan (a))
              v->nan++;
            else if (isinf (a))
              v->inf++;
            if (! same_value (e, a, abs_tol, rel_tol))
              {
                if (lo && hi
                    && inside_envelope (clfx_image_get (lo, x, y, c),
                                        clfx_image_get (hi, x, y, c), e, a,
                                        abs_tol, rel_tol))
                  v->ambiguous++;
                else
                  v->mismatches++;
              }
            if (! isfinite (e) || ! isfinite (a))
              {
                if (! same_value (e, a, 0, 0) && worst < INFINITY)
                  {
                    worst = INFINITY;
                    v->worst.x = x;
                    v->worst.y = y;
                    v->worst.channel = c;
                    v->worst.expected = e;
                    v->worst.actual = a;
                  }
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
            if (d > worst)
              {
                worst = d;
                v->worst.x = x;
                v->worst.y = y;
                v->worst.channel = c;
                v->worst.expected = e;
                v->worst.actual = a;
              }
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
                         double abs_tol, double rel_tol, ClfxImage *map,
                         ClfxError *error)
{
  if (! clfx_host_image_alloc (map, expected->width, expected->height, 1,
                               CLFX_DEPTH_FLOAT, error))
    return false;
  for (int y = 0; y < expected->height; y++)
    for (int x = 0; x < expected->width; x++)
      {
        double m = 0.0;
        for (int c = 0; c < expected->channels; c++)
          {
            double e = clfx_image_get (expected, x, y, c);
            double a = clfx_image_get (actual, x, y, c);
            double t = abs_tol + rel_tol * fabs (e);
            double r;
            if (same_value (e, a, 0, 0))
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
