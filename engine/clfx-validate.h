/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-validate.h: compare an OpenCL result with the CPU reference. */
#ifndef CLFX_VALIDATE_H
#define CLFX_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>

#include "clfx-host-image.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct
{
  size_t pixels;     /* pixels compared */
  size_t samples;    /* channel values compared */
  size_t mismatches; /* channel values outside the tolerance */
  size_t ambiguous;  /* off the reference, but inside the envelope of
                        results the spec allows there (see below) */
  size_t nan;        /* NaN in the OpenCL result */
  size_t inf;        /* Inf in the OpenCL result */
  double max_abs;
  double max_rel;
  double rmse;
  double psnr_db;    /* against peak 1 (or the largest |expected| if > 1) */
  struct
  {
    int    x, y, channel;
    double expected, actual;
    double tol;      /* the bound there, as compared */
  } worst;           /* largest |actual - expected| */
  double abs_tol, rel_tol;
  /* With a per-pixel bound: its smallest absolute part, and true. */
  double abs_tol_min;
  bool   per_pixel;
  bool   passed;
} ClfxValidation;

/* Channel values match when |a - e| <= abs_tol + rel_tol * |e|; NaN
 * matches only NaN, Inf only the same Inf.  Relative error uses a floor of
 * 1e-6 on |e| so zeros do not divide.  Images must have the same shape. */
void clfx_validate (const ClfxImage *expected, const ClfxImage *actual,
                    double abs_tol, double rel_tol, ClfxValidation *v);

/* The same, where some reference values are ambiguous: lo and hi (shaped
 * like expected) bound per channel what the spec allows, e.g. either
 * texel when a nearest sample sits on a texel boundary within the
 * sampler's coordinate precision.  A value inside [lo - t, hi + t] is not
 * a mismatch but is counted in `ambiguous` when it is off `expected`;
 * max_abs, RMSE and the worst pixel are still measured against
 * `expected`, so the report shows the real difference. */
void clfx_validate_bounded (const ClfxImage *expected, const ClfxImage *lo,
                            const ClfxImage *hi, const ClfxImage *actual,
                            double abs_tol, double rel_tol,
                            ClfxValidation *v);

/* The same, where the absolute part of the bound is per result pixel:
 * abs_map (a float gray image shaped like expected; NULL: abs_tol
 * everywhere) holds it, e.g. from clfx_tol_local_map.  abs_tol is then
 * only reported, as the largest bound. */
void clfx_validate_per_pixel (const ClfxImage *expected, const ClfxImage *lo,
                              const ClfxImage *hi, const ClfxImage *actual,
                              double abs_tol, const ClfxImage *abs_map,
                              double rel_tol, ClfxValidation *v);

/* Widens lo and hi (shaped like v) to hold v too, channel by channel:
 * the bounds of clfx_validate_bounded from every result the spec allows,
 * one at a time. */
void clfx_validate_widen (ClfxImage *lo, ClfxImage *hi, const ClfxImage *v);

/* Per-pixel largest |actual - expected| / (tolerance), as a float gray map
 * (for the Diagnostics heat-map); values > 1 are mismatches.  abs_map as
 * for clfx_validate_per_pixel (may be NULL). */
bool clfx_validate_error_map (const ClfxImage *expected,
                              const ClfxImage *actual, double abs_tol,
                              const ClfxImage *abs_map, double rel_tol,
                              ClfxImage *map, ClfxError *error);

#ifdef __cplusplus
}
#endif

#endif
