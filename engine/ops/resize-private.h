/* SPDX-License-Identifier: GPL-3.0-or-later */
/* resize-private.h: what the resize variant's files share: the plan's
 * state with its tap tables and the footprints they read (made in
 * resize-taps.c), and the CPU side the variant names (resize-ref.c);
 * resize.c holds the plan and the OpenCL launches. */
#ifndef CLFX_RESIZE_PRIVATE_H
#define CLFX_RESIZE_PRIVATE_H

#include <stdbool.h>

#include "clfx-params.h"

typedef struct
{
  float  scale, offset;  /* clfx_resize_pos */
  double texels_per_px;  /* source texels under one result pixel */
  int    nsub;           /* linear supersamples on this axis */
  float  first, step;    /* their offsets, in sampler coordinate units */
  float  inv_size;       /* 1 / source size, for texel centres */
  int    size;           /* source texels on this axis */
  int    ntaps;          /* cubic/lanczos: taps per result pixel */
  int   *start;          /* first tap, INT_MIN = outside (guard) */
  float *weights;        /* ntaps per result pixel, normalized to sum 1 */
  float *weights_t;      /* the same, tap-major (k * n + d), as kernels read */
  double weight_abs_sum; /* max over pixels of sum |w| (tolerance) */
  bool   uniform;        /* cubic/lanczos: every pixel has the first's
                          * weights (axis_uniform) */
} ResizeAxis;

typedef struct
{
  int  filter, addressing;
  bool normalized, guard;
  bool premul; /* straight alpha and a filter that mixes texels */
  bool decode; /* sRGB data and a filter that mixes texels */
  bool decode8; /* the same in 8 bits */
  ResizeAxis x, y;
} ResizeState;

/* ---- resize-taps.c ------------------------------------------------------- */

/* Fills a for an axis of src source texels and dst result pixels at the
 * given zoom: its position mapping, linear's supersamples and, for the
 * filters that mix texels, the tap tables. */
bool resize_axis_setup (ResizeAxis *a, int src, int dst, double zoom,
                        const ResizeState *st, ClfxError *error);
void resize_axis_free (ResizeAxis *a);
/* Taps [*lo, *hi] of result pixels [d0, d1); false when all are outside
 * (guard). */
bool resize_tap_span (const ResizeAxis *a, int d0, int d1, int *lo,
                      int *hi);
/* Every texel any kernel form reads for result pixels [d0, d1), as
 * [*lo, *hi] before addressing. */
void resize_axis_span (const ResizeAxis *a, const ResizeState *st, int d0,
                       int d1, int *lo, int *hi);

/* ---- resize-ref.c -------------------------------------------------------- */

bool resize_cpu (const ClfxParams *p, const ClfxPlan *plan,
                 const ClfxImage *src, ClfxImage *dst, ClfxProbes *probes,
                 ClfxError *error);
bool resize_bounds (const ClfxParams *p, const ClfxPlan *plan,
                    const ClfxImage *src, const ClfxImage *ref,
                    ClfxImage *lo, ClfxImage *hi, ClfxError *error);
void resize_tolerance (const ClfxParams *p, const ClfxPlan *plan,
                       const ClfxDeviceInfo *dev, const ClfxImage *src,
                       const ClfxImage *dst, ClfxTolerance *tol);

#endif
