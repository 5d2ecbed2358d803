/* SPDX-License-Identifier: GPL-3.0-or-later */
/* mantiuk06-ref.h: gegl:mantiuk06 (GEGL 0.4.62, pfstmo's contrast mapping
 * of Mantiuk et al. 2006) in double on the CPU, written from the
 * operator's definition (docs/TONEMAP.md, "mantiuk06"), as the reference
 * a later device version is measured against.  Needs only libc and libm. */
#ifndef CLFX_MANTIUK06_REF_H
#define CLFX_MANTIUK06_REF_H

#include <stdbool.h>

/* GEGL's solver: conjugate gradients stopped at 200 iterations or at a
 * relative residual of 1e-3. */
#define CLFX_MANTIUK06_ITMAX 200
#define CLFX_MANTIUK06_TOL   1e-3

typedef struct
{
  double contrast;      /* > 0 (GEGL's 0 takes a degenerate branch: refused) */
  double saturation;    /* >= 0 */
  /* pfstmo's detail factor d: the transducer reads 10^(d |G|) - 1 and
   * gives back log10 (W + 1) / d.  0 or 1: GEGL's (which ignores its
   * detail property, so GEGL's runs are all d = 1). */
  double detail;
  int    itmax;         /* 0: CLFX_MANTIUK06_ITMAX */
  double tol;           /* 0: CLFX_MANTIUK06_TOL */
  /* Round every stored value of the solve (x, r, p, A p, b, C) to float,
   * as a float solve stores them: the distance of such a run from the
   * plain one estimates a float solve's. */
  bool   emulate_float;
} ClfxMantiuk06RefParams;

typedef struct
{
  int    levels;        /* gradient pyramid levels (0: passed through) */
  int    iterations;    /* CG iterations made */
  double residual;      /* |b - A x| / |b| of the x kept (0 when b = 0) */
  bool   converged;     /* residual below tol */
  int    resets;        /* restarts after the residual grew 4 times running */
  double l_min, l_max;  /* the 0.1 % and 99.9 % points of the solved log10 Y */
  /* The largest distance, over pixels, of the result's normalised log
   * luminance t = (x - l_min) / (l_max - l_min) from the previous
   * iterate's: what a solve that stops one iteration sooner (or later,
   * whose step is smaller still) gives. */
  double step_error;
} ClfxMantiuk06Info;

/* in, out: w*h RGBA float, straight alpha, linear light, row-major (out
 * may be in).  Images narrower or lower than 3 pixels are copied, as GEGL
 * passes them through.  False when out of memory or contrast <= 0 (out
 * then untouched).  info may be NULL. */
bool clfx_mantiuk06_ref (int w, int h, const float *in, float *out,
                         const ClfxMantiuk06RefParams *p,
                         ClfxMantiuk06Info *info);
/* The same from RGBA in double (the tone-map family's reading of a
 * texel); t, when not NULL, receives w*h normalised log luminances (t of
 * ClfxMantiuk06Info.step_error: 0 at l_min, 1 at l_max). */
bool clfx_mantiuk06_ref_d (int w, int h, const double *in, float *out,
                           const ClfxMantiuk06RefParams *p,
                           ClfxMantiuk06Info *info, double *t);

#endif
