/* SPDX-License-Identifier: GPL-3.0-or-later */
/* mean-curvature-blur.c: the filter family's mean-curvature-blur
 * variant, gegl:mean-curvature-blur of GEGL 0.4.62 (docs/FILTERS.md),
 * on the stored values with straight alpha (GEGL's "R'G'B'A float" for
 * sRGB data).
 *
 * One iteration moves each colour channel's level lines at a speed of
 * their mean curvature: c + 1/4 |g| curv, with the gradient g from
 * central differences, curv = (dx^2 dyy + dy^2 dxx - 2 dx dy dxy) /
 * |g|^3 from the 3 x 3 neighbourhood; where g is 0 the pixel stays.
 * Alpha stays.  GEGL reads the source once over the result grown by
 * `iterations` a side (its abyss clamp: clfx's clamp-to-edge, the
 * family's default) and iterates from one buffer into another, one pixel
 * in each time: a result pixel depends on the source within
 * `iterations` of it, and tiles and bands, read with that halo, give the
 * one-piece result (clfx_filter_iterate).
 *
 * GEGL's arithmetic: the differences and sums of neighbours in float,
 * the rest in double, each iteration's value rounded to float.  The
 * kernel (kernels/mean-curvature-blur.cl) does the same operations in
 * the same order, in double where GEGL's are (cl_khr_fp64), with
 * pow (s, 3) as s^3 rounded once; the reference below is GEGL's
 * expressions in C with libm's pow. */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "../../kernels/clfx-common.h"
#include "../clfx-tolerance.h"
#include "clfx-params.h"
#include "filter-common.h"
#include "mean-curvature-blur.h"

static bool
mcb_plan (const ClfxParams *p, const ClfxImage *src, ClfxPlan *plan,
          ClfxError *error)
{
  const ClfxFilterParams *fp = CLFX_PARAMS_OF (p, ClfxFilterParams);
  int                     n = fp->mean_curvature.iterations;

  if (fp->addressing == CLFX_ADDR_NONE)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "mean-curvature-blur takes differences, which "
                           "texels left out do not have: edge handling none "
                           "is for the blurs; use clamp-to-edge (GEGL's), "
                           "clamp, repeat or mirrored-repeat");
  if (! clfx_filter_nearest_ok (fp->sampler_filter, "mean-curvature-blur",
                                error))
    return false;
  if (n < 0 || n > 500)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "mean-curvature-iterations %d: 0 to 500 "
                           "(GEGL's range)", n);
  plan->width = src->width;
  plan->height = src->height;
  plan->addressing = fp->addressing;
  /* GEGL's R'G'B'A float: the stored values, straight alpha. */
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
mcb_cl (ClfxGraph *g, const ClfxParams *p, ClfxError *error)
{
  const ClfxFilterParams *fp = CLFX_PARAMS_OF (p, ClfxFilterParams);

  if (! clfx_graph_device (g)->fp64)
    return clfx_error_set (error, CLFX_ERR_UNSUPPORTED,
                           "mean-curvature-blur computes in double, as "
                           "GEGL does, and this device has no cl_khr_fp64");
  return clfx_filter_iterate (g, "mcb", fp->mean_curvature.iterations, NULL,
                              error);
}

/* GEGL's expressions for a channel's value from the 3 x 3 values m
 * (rows top to bottom), each times scale: float where both operands are
 * float, double elsewhere. */
static float
ref_flow_scaled (const float m_in[9], float scale)
{
  float        m[9];
  float        left, right, top, bottom, centre;
  double       dx, dy, magnitude;
  float        out;

  for (int k = 0; k < 9; k++)
    m[k] = m_in[k] * scale;
  left = m[3];
  right = m[5];
  top = m[1];
  bottom = m[7];
  centre = m[4];
  out = centre;
  dx = right - left;
  dy = bottom - top;
  magnitude = sqrt (dx * dx + dy * dy);
  if (magnitude != 0.0)
    {
      double dx2 = dx * dx, dy2 = dy * dy;
      double dxx = (float) (right + left) - 2. * centre;
      double dyy = (float) (bottom + top) - 2. * centre;
      float  corners = m[8] - m[2];
      double dxy, n, d;

      corners = corners - m[6];
      corners = corners + m[0];
      dxy = 0.25 * corners;
      n = dx2 * dyy + dy2 * dxx - 2. * dx * dy * dxy;
      d = sqrt (pow (dx2 + dy2, 3.));
      out = (float) (centre + 0.25 * magnitude * (n / d));
    }
  return out;
}

/* ... at (x, y) of plane v (stride s).  The family's rule at float's
 * limits: a result that is not finite where its nine texels are is made
 * again from the texels times 2^-4, scaled back and clamped to
 * +-FLT_MAX. */
static float
ref_flow (const float *v, int s, int x, int y)
{
  float m[9], r;
  bool  finite = true;

  for (int j = 0; j < 3; j++)
    for (int i = 0; i < 3; i++)
      {
        m[j * 3 + i] = v[(size_t) (y + j - 1) * s + x + i - 1];
        finite = finite && isfinite (m[j * 3 + i]);
      }
  r = ref_flow_scaled (m, 1.0f);
  if (! isfinite (r) && finite)
    r = fminf (fmaxf (ref_flow_scaled (m, 0.0625f) * 16.0f, -FLT_MAX),
               FLT_MAX);
  return r;
}

static bool
mcb_cpu (const ClfxParams *p, const ClfxPlan *plan, const ClfxImage *src,
         ClfxImage *dst, ClfxProbes *probes, ClfxError *error)
{
  (void) probes;
  return clfx_filter_iterate_cpu (
    plan, src, dst,
    CLFX_PARAMS_OF (p, ClfxFilterParams)->mean_curvature.iterations,
    ref_flow, error);
}

static void
mcb_tolerance (const ClfxParams *p, const ClfxPlan *plan,
               const ClfxDeviceInfo *dev, const ClfxImage *src,
               const ClfxImage *dst, ClfxTolerance *tol)
{
  (void) p;
  (void) plan;
  (void) dev;
  (void) src;
  clfx_tol_init (tol);
  clfx_tol_clause (tol, "GEGL's float and double operations one by one on "
                        "both sides: bit for bit before the store");
  clfx_tol_store (tol, dst->depth, false);
}

static const char *const uses_mean_curvature[] = {
  "filter", "mean-curvature-iterations", "addressing", NULL
};

const ClfxVariant clfx_variant_mean_curvature_blur
  = { "mean-curvature-blur", "mean-curvature-blur",
      CLFX_N_ ("Mean curvature blur (GEGL's mean-curvature-blur)"),
      uses_mean_curvature, mcb_plan, NULL, mcb_cl, mcb_cpu, mcb_tolerance,
      NULL, clfx_filter_describe, NULL, CLFX_MEAN_CURVATURE_BLUR_PLACE, NULL,
      NULL };
