/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-tolerance.h: what validation accepts between the OpenCL result and
 * the CPU reference, built from small helpers that each add a bound and
 * the clause that justifies it (the report's tolerance_basis).
 *
 * A tolerance is |actual - expected| <= abs_tol + rel_tol * |expected| in
 * the stored values' units (u8 and u16 normalized to [0, 1]).  Bounds on
 * the computation are added in linear light first; clfx_tol_srgb then
 * carries them through the encoding curve, and clfx_tol_store adds the
 * rounding of the result's format last.
 *
 * Most bounds grow with the values the computation reads (a float sum's
 * rounding is relative to its terms).  Built from the image's largest
 * value, one outlier would widen them everywhere: a texel of 1e30 makes
 * 4 u x 1e30 = 2e23 the bound of every pixel, and a kernel that adds 0.25
 * to every result passes.  So the helpers keep the part of abs_tol that
 * scales with the values apart (abs_mag, abs_range), and validation
 * scales it per result pixel by the largest |value| that pixel's own
 * source footprint holds (clfx_tol_local_map): the outlier widens the
 * bound only of the pixels that read it. */
#ifndef CLFX_TOLERANCE_H
#define CLFX_TOLERANCE_H

#include <stdbool.h>

#include "clfx-host-image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 2^-24: the unit roundoff of float. */
#define CLFX_FLOAT_EPS (1.0 / 16777216.0)
/* 2^-149: float's smallest denormal.  Below FLT_MIN a rounding is off by
 * up to half of it whatever the value, so the helpers that bound float
 * arithmetic add this much per rounding beside their relative bound (for
 * devices that keep denormals, CL_FP_DENORM, as PoCL does). */
#define CLFX_FLOAT_DENORM 0x1p-149

typedef struct
{
  double abs_tol;   /* the bound where the largest values are read */
  double rel_tol;
  /* The parts of abs_tol that scale with the largest |value| read
   * (abs_mag) and with the range of the values read (abs_range), and the
   * image's largest |value| and range they were built from
   * (clfx_tol_magnitude).  magnitude 0: not declared, abs_tol holds
   * everywhere. */
  double abs_mag, abs_range;
  double magnitude, range;
  char   basis[512];
} ClfxTolerance;

void clfx_tol_init (ClfxTolerance *t);
/* Appends "; " and a clause to the basis (printf-style). */
void clfx_tol_clause (ClfxTolerance *t, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));
/* Declares the image's largest |value| and value range (in the units the
 * computation reads them: linear light where it decodes) from which the
 * value-scaled terms below are built, which lets validation scale them per
 * pixel.  Only for variants whose result pixel reads a bounded footprint
 * of the source (the plan's halo or source_rect) and whose error from
 * the values read is at most linear in their magnitude: a recursive
 * (IIR) filter or a whole-image statistic carries every value of the
 * image into every pixel, and does not declare it. */
void clfx_tol_magnitude (ClfxTolerance *t, double max_abs, double range);
/* Adds a term proportional to the largest |value| read, as the helpers
 * below do: term is its size for the image's largest value. */
void clfx_tol_scaled (ClfxTolerance *t, double term);
/* The same for a term proportional to the range of the values read. */
void clfx_tol_ranged (ClfxTolerance *t, double term);
/* The texel read conversion to float (OpenCL C spec 8.3.1: within 1.5
 * ulp for unorm formats) on values up to max_abs. */
void clfx_tol_read (ClfxTolerance *t, double max_abs);
/* An n-term float sum of weighted values (Higham: n u sum |w v|): the
 * largest sum of |weights| and the largest |value|. */
void clfx_tol_sum (ClfxTolerance *t, const char *what, int n_terms,
                   double abs_weight_sum, double max_abs);
/* An OpenCL C builtin's ulp bound (spec table 7.1) on results up to
 * magnitude. */
void clfx_tol_builtin (ClfxTolerance *t, const char *builtin, double ulps,
                       double magnitude);
/* The sampler's linear filter: the spec leaves its precision open; GPU
 * texture units blend with 8 fractional weight bits, up to 2^-8 of the
 * texel range per axis, 2 axes. */
void clfx_tol_sampler_linear (ClfxTolerance *t, double range);
/* The result is sRGB-encoded: the bounds so far (linear light) times the
 * curve's largest slope (12.92), plus its evaluation (8-bit data through
 * the exact tables: nothing; else powr, 16 ulp). */
void clfx_tol_srgb (ClfxTolerance *t, ClfxDepth depth, bool exact_tables);
/* The store's rounding: one code for u8/u16 unless the path copies texels
 * (exact), one half ulp relative for half. */
void clfx_tol_store (ClfxTolerance *t, ClfxDepth depth, bool exact_path);

#ifdef __cplusplus
}
#endif

#endif
