/* SPDX-License-Identifier: GPL-3.0-or-later */
/* noise-reduction.c: the filter family's noise-reduction variant,
 * gegl:noise-reduction of GEGL 0.4.62 (docs/FILTERS.md), GEGL's
 * anisotropic smoothing (Alsam, Rivertz, Kolås), on the stored values
 * with straight alpha (GEGL's "R~G~B~A float" for sRGB data).
 *
 * One iteration, per colour channel of each pixel: the four axes through
 * it (horizontal, vertical, both diagonals) each have a metric, the
 * square of its second difference (2 x - before - after); each of the
 * eight neighbours offers the mean of itself and the pixel, which is
 * taken into the sum unless it would raise the metric of some axis; the
 * result is the mean of the pixel and the offers taken.  Alpha stays.
 *
 * GEGL reads the source once over the result grown by `iterations` a
 * side (its abyss none: transparent black, clfx's clamp; the family's
 * default clamp-to-edge extends the edge) and iterates on that, each
 * iteration one pixel in from the last: a result pixel depends on the
 * source within `iterations` of it.  clfx does the same with the plan's
 * addressing, so tiles and bands, read with that halo, give the
 * one-piece result.  GEGL's CPU code updates its buffer in place in
 * raster order, so that within one of its chunks a pixel reads the
 * current iteration's values above and to its left (and the chunk's
 * right and bottom edge get fewer iterations); clfx iterates from one
 * buffer into another, every pixel reading the previous iteration, as
 * GEGL's own OpenCL form of it did (docs/FILTERS.md measures what that
 * changes).
 *
 * Every step is GEGL's float operation (the offer's mean GEGL forms in
 * double, which rounds to the float mean once): the decisions compare
 * float metrics, and a decision taken the other way moves a result by
 * up to a fraction of the neighbours' range, which no rounding bound
 * covers.  So the reference below repeats GEGL's float operations in
 * GEGL's order, and the kernels (kernels/noise-reduction.cl) make each
 * one the same IEEE operation: the two agree bit for bit. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/clfx-common.h"
#include "../clfx-tolerance.h"
#include "clfx-params.h"
#include "filter-common.h"
#include "noise-reduction.h"

static bool
nr_plan (const ClfxParams *p, const ClfxImage *src, ClfxPlan *plan,
         ClfxError *error)
{
  const ClfxFilterParams *fp = CLFX_PARAMS_OF (p, ClfxFilterParams);
  int                     n = fp->noise_reduction.iterations;

  if (fp->addressing == CLFX_ADDR_NONE)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "noise-reduction compares second differences, "
                           "which texels left out do not have: edge "
                           "handling none is for the blurs; use "
                           "clamp-to-edge, clamp (GEGL's transparent edge), "
                           "repeat or mirrored-repeat");
  if (! clfx_filter_nearest_ok (fp->sampler_filter, "noise-reduction", error))
    return false;
  if (n < 0 || n > 32)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "noise-reduction-iterations %d: 0 to 32 "
                           "(GEGL's range)", n);
  plan->width = src->width;
  plan->height = src->height;
  plan->addressing = fp->addressing;
  /* GEGL's R~G~B~A float: the stored values, straight alpha. */
  plan->mixes = false;
  plan->straight = true;
  plan->premultiply = false;
  plan->decode = false;
  plan->halo[0] = plan->halo[1] = plan->halo[2] = plan->halo[3] = n;
  /* Two float RGBA buffers over the piece and its halo. */
  plan->bytes_per_pixel = 2 * 16;
  plan->bytes_fixed = 0;
  return true;
}

static bool
nr_cl (ClfxGraph *g, const ClfxParams *p, ClfxError *error)
{
  const ClfxFilterParams *fp = CLFX_PARAMS_OF (p, ClfxFilterParams);

  return clfx_filter_iterate (g, "nr", fp->noise_reduction.iterations, NULL,
                              error);
}

/* GEGL's metric of an axis: the square of its second difference, each
 * step a float operation in GEGL's order. */
static float
ref_metric (float before, float centre, float after)
{
  float d = centre * 2 - before;

  d = d - after;
  return d * d;
}

/* The eight neighbours' offsets in GEGL's order; neighbour k and 7 - k
 * are point-symmetric, and neighbours 0 .. 3 with their opposites are
 * the four axes. */
static const int ref_dx[8] = { -1, 0, 1, -1, 1, -1, 0, 1 };
static const int ref_dy[8] = { -1, -1, -1, 0, 0, 1, 1, 1 };

/* One channel value of an iteration: the centre and its neighbours nb,
 * each times scale (1, or 2^-4 where values near FLT_MAX overflowed). */
static float
ref_smooth_scaled (float centre, const float nb_in[8], float scale)
{
  float nb[8], metric[4], sum;
  int   count = 1;

  centre *= scale;
  sum = centre;
  for (int k = 0; k < 8; k++)
    nb[k] = nb_in[k] * scale;
  for (int a = 0; a < 4; a++)
    metric[a] = ref_metric (nb[a], centre, nb[7 - a]);
  for (int k = 0; k < 8; k++)
    {
      /* GEGL's mean in double, stored as float. */
      float offer = (float) (nb[k] * 0.5 + centre * 0.5);
      int   a = 0;

      while (a < 4 && ! (ref_metric (nb[a], offer, nb[7 - a]) > metric[a]))
        a++;
      if (a == 4)
        {
          sum += offer;
          count++;
        }
    }
  return sum / (float) count;
}

/* ... at (x, y) of plane v (stride s).  The family's rule at float's
 * limits: a result that is not finite where its nine texels are is made
 * again from the texels times 2^-4, scaled back and clamped to
 * +-FLT_MAX. */
static float
ref_smooth (const float *v, int s, int x, int y)
{
  float centre = v[(size_t) y * s + x], nb[8], r;
  bool  finite = isfinite (centre);

  for (int k = 0; k < 8; k++)
    {
      nb[k] = v[(size_t) (y + ref_dy[k]) * s + x + ref_dx[k]];
      finite = finite && isfinite (nb[k]);
    }
  r = ref_smooth_scaled (centre, nb, 1.0f);
  if (! isfinite (r) && finite)
    r = fminf (fmaxf (ref_smooth_scaled (centre, nb, 0.0625f) * 16.0f,
                      -FLT_MAX), FLT_MAX);
  return r;
}

static bool
nr_cpu (const ClfxParams *p, const ClfxPlan *plan, const ClfxImage *src,
        ClfxImage *dst, ClfxProbes *probes, ClfxError *error)
{
  (void) probes;
  return clfx_filter_iterate_cpu (
    plan, src, dst,
    CLFX_PARAMS_OF (p, ClfxFilterParams)->noise_reduction.iterations,
    ref_smooth, error);
}

static void
nr_tolerance (const ClfxParams *p, const ClfxPlan *plan,
              const ClfxDeviceInfo *dev, const ClfxImage *src,
              const ClfxImage *dst, ClfxTolerance *tol)
{
  (void) p;
  (void) plan;
  (void) dev;
  (void) src;
  clfx_tol_init (tol);
  /* GEGL's operations are float operations taken one by one, the same
   * IEEE operation on the device (FP_CONTRACT off, the source's codes
   * read as code / 255 exactly, the quotient corrected to the nearest):
   * nothing differs before the store, whatever the iterations. */
  clfx_tol_clause (tol, "GEGL's float operations one by one on both "
                        "sides: bit for bit before the store");
  clfx_tol_store (tol, dst->depth, false);
}

static const char *const uses_noise_reduction[] = {
  "filter", "noise-reduction-iterations", "addressing", NULL
};

const ClfxVariant clfx_variant_noise_reduction
  = { "noise-reduction", "noise-reduction",
      CLFX_N_ ("Noise reduction (GEGL's noise-reduction, anisotropic "
               "smoothing)"),
      uses_noise_reduction, nr_plan, NULL, nr_cl, nr_cpu, nr_tolerance, NULL,
      clfx_filter_describe, NULL, CLFX_NOISE_REDUCTION_PLACE, NULL, NULL };
