/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fattal-ref.h: fattal02's luminance pipeline in double on the CPU, written
 * from docs/TONEMAP.md's fattal02 section alone (steps 1 to 7 and its
 * multigrid), as the reference the device's version is measured against.
 * Needs only libc and libm. */
#ifndef CLFX_FATTAL_REF_H
#define CLFX_FATTAL_REF_H

#include <stdbool.h>

typedef struct
{
  int     levels;        /* pyramid levels (step 2) */
  double  avg[32];       /* avg_k of each pyramid level (step 3) */
  int     grids;         /* multigrid grids, M + 1 */
  double *U;             /* w*h, row-major: the full multigrid's result, mean 0 (step 6) */
  double *U_exact;       /* w*h: the same equation solved to convergence, mean 0 */
  double  alg_err;       /* max |U - U_exact| */
  double  lo, hi;        /* step 7's percentile values of L */
  double *out;           /* w*h: step 7's out */
  double  max_abs_u;     /* max |U| */
  /* Step 3's decisions, per level and pixel: bit 0 set where |grad| >
   * 1e-4 took the formula (else phi is 1), bit 1 where |grad| was within
   * the run's tie band of 1e-4 (a float run may decide either way). */
  unsigned char *decided[32];
  long    ties;          /* pixels with bit 1, over every level */
} ClfxFattalRef;

/* How a run is made (clfx_fattal_ref_run). */
typedef struct
{
  /* Float's rounding emulated: every value stored moves by up to
   * `rounding` times the magnitude of its terms, in a direction drawn
   * from a generator seeded by seed (stochastic arithmetic: how far such
   * runs land from the plain one estimates how far a float run does).
   * 0: the plain double pipeline.  U_exact is U and alg_err 0 in such
   * runs and in those that follow another. */
  double               rounding;
  unsigned             seed;
  /* Per level (NULL: none): a pixel whose |grad| is within this of step
   * 3's threshold is a tie, marked in decided. */
  const double        *tie_band;
  /* NULL: decide at the threshold from this run's own |grad|.  Else take
   * the decisions of that earlier run of the same image (so that rounding
   * alone is measured), and with flip the other way at its ties: all of
   * them (-1), or those of one group (1 to 4: a tie at (x, y) of its
   * level is in group 1 + (x & 1) + 2 (y & 1), so that no two ties that
   * touch share one; 0: none). */
  const ClfxFattalRef *follow;
  int                  flip;
} ClfxFattalRefRun;

/* Y: w*h luminance values (>= 0, finite), row-major.  noise 0 means 0.1 alpha.
 * When max Y is 0 every out is 0 and U is 0 (lo = hi = 1 - 1e-4).  False only when out of memory
 * (r is then freed). */
bool clfx_fattal_ref (int w, int h, const double *Y, double alpha, double beta,
                      double noise, ClfxFattalRef *r);
/* The same with float's rounding emulated (ClfxFattalRefRun.rounding). */
bool clfx_fattal_ref_perturbed (int w, int h, const double *Y, double alpha,
                                double beta, double noise, double rounding,
                                unsigned seed, ClfxFattalRef *r);
/* The same made as run says (NULL: the plain pipeline).  The run a
 * follow names must be of the same image and still hold its decisions. */
bool clfx_fattal_ref_run (int w, int h, const double *Y, double alpha,
                          double beta, double noise,
                          const ClfxFattalRefRun *run, ClfxFattalRef *r);
void clfx_fattal_ref_free (ClfxFattalRef *r);

#endif
