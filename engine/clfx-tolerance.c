/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-tolerance.c: tolerance bounds, one helper per source of error. */
#include "clfx-tolerance.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void
clfx_tol_init (ClfxTolerance *t)
{
  memset (t, 0, sizeof *t);
}

void
clfx_tol_clause (ClfxTolerance *t, const char *fmt, ...)
{
  size_t  n = strlen (t->basis);
  va_list ap;

  if (n && n + 2 < sizeof t->basis)
    {
      memcpy (t->basis + n, "; ", 3);
      n += 2;
    }
  va_start (ap, fmt);
  vsnprintf (t->basis + n, sizeof t->basis - n, fmt, ap);
  va_end (ap);
}

void
clfx_tol_magnitude (ClfxTolerance *t, double max_abs, double range)
{
  t->magnitude = max_abs;
  t->range = range;
}

void
clfx_tol_scaled (ClfxTolerance *t, double term)
{
  t->abs_tol += term;
  t->abs_mag += term;
}

void
clfx_tol_ranged (ClfxTolerance *t, double term)
{
  t->abs_tol += term;
  t->abs_range += term;
}

void
clfx_tol_read (ClfxTolerance *t, double max_abs)
{
  /* 1.5 ulp of the value, and the same again once the value enters a
   * product or sum (kept as 4 u as before). */
  clfx_tol_scaled (t, 4.0 * CLFX_FLOAT_EPS * max_abs);
  clfx_tol_clause (t, "texel read conversion (1.5 ulp)");
}

void
clfx_tol_sum (ClfxTolerance *t, const char *what, int n_terms,
              double abs_weight_sum, double max_abs)
{
  clfx_tol_scaled (t, (double) n_terms * CLFX_FLOAT_EPS * abs_weight_sum
                         * max_abs);
  /* A product and a sum per term, each off by up to half a denormal. */
  t->abs_tol += (double) n_terms * abs_weight_sum * CLFX_FLOAT_DENORM;
  clfx_tol_clause (t, "%s: %d-term float sum (n u sum|w| max|v|, sum|w| "
                   "%.3g; below FLT_MIN n 2^-149 sum|w|)", what, n_terms,
                   abs_weight_sum);
}

void
clfx_tol_builtin (ClfxTolerance *t, const char *builtin, double ulps,
                  double magnitude)
{
  clfx_tol_scaled (t, 2.0 * ulps * CLFX_FLOAT_EPS * magnitude);
  /* An ulp below FLT_MIN is the denormal spacing. */
  t->abs_tol += ulps * CLFX_FLOAT_DENORM;
  clfx_tol_clause (t, "%s within %g ulp", builtin, ulps);
}

void
clfx_tol_sampler_linear (ClfxTolerance *t, double range)
{
  clfx_tol_ranged (t, 2.0 * range / 256.0);
  clfx_tol_clause (t, "sampler linear filter: 2 x 2^-8 x texel range "
                   "(hardware weight precision)");
}

void
clfx_tol_srgb (ClfxTolerance *t, ClfxDepth depth, bool exact_tables)
{
  /* d(encode)/dv is at most 12.92 (the linear segment; the power segment
   * meets it at the joint and falls off above). */
  t->abs_tol *= 12.92;
  t->abs_mag *= 12.92;
  t->abs_range *= 12.92;
  if (depth == CLFX_DEPTH_U8 && exact_tables)
    clfx_tol_clause (t, "sRGB: linear-light bounds x 12.92 (largest slope "
                     "of the curve); exact 8-bit tables");
  else
    {
      /* powr's 16 ulp on the encoded value (at most ~1 for images in
       * range; relative for HDR values above).  8-bit results on NVIDIA
       * are encoded through native_exp2/native_log2, whose error
       * clfx-srgb-error measures within this bound. */
      t->abs_tol += 32.0 * CLFX_FLOAT_EPS;
      t->rel_tol += 32.0 * CLFX_FLOAT_EPS;
      clfx_tol_clause (t, "sRGB: linear-light bounds x 12.92 (largest slope "
                       "of the curve), decode and encode through powr "
                       "(16 ulp)");
    }
}

void
clfx_tol_store (ClfxTolerance *t, ClfxDepth depth, bool exact_path)
{
  switch (depth)
    {
    case CLFX_DEPTH_U8:
    case CLFX_DEPTH_U16:
      if (exact_path)
        return;
      /* Two float results a hair apart can round to neighbouring codes;
       * codes are compared as the floats code / 255.0f reads them, whose
       * difference is one code within a float rounding of each (1.0f /
       * 255.0f is 2.3e-10 above 1 / 255). */
      t->abs_tol += (depth == CLFX_DEPTH_U8 ? 1.0 / 255.0 : 1.0 / 65535.0)
                    + CLFX_FLOAT_EPS;
      clfx_tol_clause (t, "+ 1 output code (rounding)");
      break;
    case CLFX_DEPTH_HALF:
      t->rel_tol += 1.0 / 1024.0;
      t->abs_tol += CLFX_FLOAT_EPS;
      clfx_tol_clause (t, "+ 1 half ulp (rounding)");
      break;
    default:
      break;
    }
}
