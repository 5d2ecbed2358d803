/* SPDX-License-Identifier: GPL-3.0-or-later */
/* motion-blur-common.c: the motion blurs' shared reference steps and
 * tolerance (motion-blur-common.h). */
#include "clfx-params.h"
#include "filter-common.h"
#include "motion-blur-common.h"

void
clfx_motion_ref_step (const ClfxImage *src, ClfxSamplerDesc s,
                      const int i[2], const int j[2], double dx, double dy,
                      bool none, bool skip_zero, double sum[4], double *in)
{
  for (int q = 0; q < 4; q++)
    {
      double w = (q & 1 ? dx : 1 - dx) * (q & 2 ? dy : 1 - dy);
      int    a = i[q & 1], b = j[q >> 1];
      float  v[4];

      if ((skip_zero && w == 0.0)
          || (none && (a < 0 || b < 0 || a >= src->width
                       || b >= src->height)))
        continue;
      clfx_ref_fetch (src, s, a, b, v);
      for (int c = 0; c < 4; c++)
        sum[c] += w * v[c];
      *in += w;
    }
}

void
clfx_motion_ref_store (const ClfxPlan *plan, ClfxImage *dst, int x, int y,
                       const double sum[4], double divisor)
{
  float out[4];

  for (int c = 0; c < 4; c++)
    out[c] = clfx_filter_ref_float (sum[c] / divisor);
  clfx_ref_store (dst, x, y, out, plan->premultiply, plan->decode);
}

void
clfx_motion_tolerance (const ClfxPlan *plan, const ClfxImage *src,
                       const ClfxImage *dst, const char *what, int terms,
                       int none_terms, ClfxTolerance *tol)
{
  double max_abs = clfx_filter_max_abs (src, NULL);

  clfx_tol_init (tol);
  /* A result reads the texels along its path only. */
  clfx_tol_magnitude (tol, max_abs, 2.0 * max_abs);
  clfx_tol_read (tol, max_abs);
  clfx_tol_sum (tol, what, terms, 1.0, max_abs);
  if (none_terms)
    clfx_tol_sum (tol, "none: the inside weights' sum and the division",
                  none_terms, 1.0, max_abs);
  if (plan->decode)
    clfx_tol_srgb (tol, dst->depth, plan->srgb_tables);
  clfx_tol_store (tol, dst->depth, false);
}
