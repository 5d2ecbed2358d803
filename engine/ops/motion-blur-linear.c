/* SPDX-License-Identifier: GPL-3.0-or-later */
/* motion-blur-linear.c: the filter family's motion-blur-linear variant,
 * gegl:motion-blur-linear of GEGL 0.4.62 (docs/FILTERS.md), in linear
 * light on premultiplied alpha (GEGL's RaGaBaA float).
 *
 * GEGL's definition: n = ceil (length) + 1 steps along the path
 * (length cos a, length sin a), step k at t = k / (n - 1) - 1/2 of it
 * from the pixel (t = 0 for n = 1), each a bilinear read at that
 * fractional position, the mean of the n reads.  The steps' positions
 * relative to the pixel are the same for every pixel, so their bilinear
 * weights make one stencil: each texel offset the steps touch, weighing
 * the sum of its four-way weights over n (in double, rounded once to
 * float).  The kernel (kernels/motion-blur-linear.cl) sums the stencil
 * over the source, about half the reads of GEGL's four per step.  Taps
 * of weight 0 (a step on a whole texel) are not read.
 *
 * GEGL reads outside the image as transparent black (abyss none): clfx's
 * clamp; the family's default, clamp-to-edge, extends the edge.  Edge
 * handling none leaves the texels outside out and divides by the weight
 * of those inside (the pixel's own weighs at least 1/4 of a step).
 *
 * The CPU reference: GEGL's steps in double, each step's four texels
 * read and mixed on its own, in GEGL's order. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/clfx-common.h"
#include "clfx-params.h"
#include "filter-common.h"
#include "motion-blur-common.h"
#include "motion-blur-linear.h"

/* GLib's G_PI, as GEGL turns the angle into radians. */
#define MOTION_PI 3.14159265358979323846

typedef struct
{
  cl_float4 *taps;   /* (dx, dy, weight, 0), offsets whole numbers */
  int        n_taps;
  int        steps;  /* GEGL's n */
  double     ox, oy; /* the path, in pixels */
  int        box[4]; /* the taps' extent: x0, y0, width, height */
  bool       none;
} State;

static void
state_free (void *data)
{
  State *st = data;

  if (st)
    free (st->taps);
  free (st);
}

/* GEGL's path: the angle brought to [0, 2 pi) as GEGL brings it, then
 * length times its cosine and sine, and the step count. */
static void
motion_path (const ClfxMotionLinearParams *mp, double *ox, double *oy,
             int *steps)
{
  double theta = mp->angle * MOTION_PI / 180.0;

  while (theta < 0.0)
    theta += 2 * MOTION_PI;
  *ox = mp->length * cos (theta);
  *oy = mp->length * sin (theta);
  *steps = (int) ceil (mp->length) + 1;
}

/* Step k's offset from the pixel along one axis of the path o. */
static double
motion_step (int k, int steps, double o)
{
  double t = steps == 1 ? 0.0 : k / (double) (steps - 1) - 0.5;

  return t * o;
}

/* The stencil: every step's four bilinear weights summed per texel
 * offset on a grid over the path's extent, in double. */
static bool
motion_stencil (State *st, ClfxError *error)
{
  int     x0 = (int) floor (-fabs (st->ox) / 2) - 1;
  int     y0 = (int) floor (-fabs (st->oy) / 2) - 1;
  int     w = 2 * -x0 + 2, h = 2 * -y0 + 2, n = 0;
  double *grid = calloc ((size_t) w * (size_t) h, sizeof *grid);
  int     bx0 = w, by0 = h, bx1 = -1, by1 = -1;

  if (! grid)
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  for (int k = 0; k < st->steps; k++)
    {
      double fx = motion_step (k, st->steps, st->ox);
      double fy = motion_step (k, st->steps, st->oy);
      double ix = floor (fx), iy = floor (fy), dx = fx - ix, dy = fy - iy;
      int    i = (int) ix - x0, j = (int) iy - y0;

      grid[j * w + i] += (1 - dx) * (1 - dy);
      grid[j * w + i + 1] += dx * (1 - dy);
      grid[(j + 1) * w + i] += (1 - dx) * dy;
      grid[(j + 1) * w + i + 1] += dx * dy;
    }
  for (int i = 0; i < w * h; i++)
    n += grid[i] > 0.0;
  if (! (st->taps = malloc (sizeof *st->taps * (size_t) n)))
    {
      free (grid);
      return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
    }
  for (int j = 0; j < h; j++)
    for (int i = 0; i < w; i++)
      if (grid[j * w + i] > 0.0)
        {
          cl_float4 *t = &st->taps[st->n_taps++];
          t->s[0] = (float) (i + x0);
          t->s[1] = (float) (j + y0);
          t->s[2] = (float) (grid[j * w + i] / st->steps);
          t->s[3] = 0.0f;
          bx0 = i < bx0 ? i : bx0;
          bx1 = i > bx1 ? i : bx1;
          by0 = j < by0 ? j : by0;
          by1 = j > by1 ? j : by1;
        }
  free (grid);
  st->box[0] = bx0 + x0;
  st->box[1] = by0 + y0;
  st->box[2] = bx1 - bx0 + 1;
  st->box[3] = by1 - by0 + 1;
  return true;
}

static bool
motion_linear_plan (const ClfxParams *p, const ClfxImage *src,
                    ClfxPlan *plan, ClfxError *error)
{
  const ClfxFilterParams *fp = CLFX_PARAMS_OF (p, ClfxFilterParams);
  State                  *st;

  if (! clfx_filter_nearest_ok (fp->sampler_filter, "motion-blur-linear",
                                error))
    return false;
  if (! (st = calloc (1, sizeof *st)))
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  plan->state = st;
  plan->free_state = state_free;
  motion_path (&fp->motion_linear, &st->ox, &st->oy, &st->steps);
  st->none = fp->addressing == CLFX_ADDR_NONE;
  if (! motion_stencil (st, error))
    return false;
  plan->width = src->width;
  plan->height = src->height;
  /* none: the texels outside read as 0 (clamp) and the weights inside
   * renormalise. */
  plan->addressing = st->none ? CLFX_ADDR_CLAMP : fp->addressing;
  plan->mixes = true;
  plan->premultiply = clfx_plan_premultiplies (true, src);
  plan->decode = clfx_plan_decodes (true, src);
  plan->halo[0] = -st->box[0];
  plan->halo[1] = -st->box[1];
  plan->halo[2] = st->box[0] + st->box[2] - 1;
  plan->halo[3] = st->box[1] + st->box[3] - 1;
  plan->bytes_per_pixel = 0;
  plan->bytes_fixed = sizeof (cl_float4) * (size_t) st->n_taps;
  return true;
}

static bool
motion_linear_cl (ClfxGraph *g, const ClfxParams *p, ClfxError *error)
{
  const State    *st = clfx_graph_plan (g)->state;
  const ClfxTile *t = clfx_graph_tile (g);
  cl_int4         box = { { st->box[0], st->box[1], st->box[2],
                            st->box[3] } };
  cl_mem          taps;
  ClfxLaunch      l = { "motion_linear", NULL, NULL, 2,
                        { (size_t) t->out.width, (size_t) t->out.height },
                        { 0, 0 } };

  (void) p;
  return (taps = clfx_graph_table (g, "motion taps", st->taps,
                                   sizeof (cl_float4) * (size_t) st->n_taps,
                                   error))
         && CLFX_LAUNCH (g, &l, error, CLFX_SRC, CLFX_DST, CLFX_ARG (taps),
                         CLFX_INT (st->n_taps), CLFX_ARG (box),
                         CLFX_INT (st->none));
}

/* GEGL's steps in double: each step's position, its four texels and
 * their bilinear mix, summed in step order; none leaves texels outside
 * out of both the sum and the weight. */
static bool
motion_linear_cpu (const ClfxParams *p, const ClfxPlan *plan,
                   const ClfxImage *src, ClfxImage *dst, ClfxProbes *probes,
                   ClfxError *error)
{
  const State    *st = plan->state;
  ClfxSamplerDesc s = { true, plan->addressing, false, plan->premultiply,
                        plan->decode };

  (void) p;
  (void) probes;
  (void) error;
  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      {
        double sum[4] = { 0, 0, 0, 0 }, in = 0.0;

        for (int k = 0; k < st->steps; k++)
          {
            double fx = motion_step (k, st->steps, st->ox);
            double fy = motion_step (k, st->steps, st->oy);
            int    ix = x + (int) floor (fx), iy = y + (int) floor (fy);
            int    i[2] = { ix, ix + 1 }, j[2] = { iy, iy + 1 };

            clfx_motion_ref_step (src, s, i, j, fx - floor (fx),
                                  fy - floor (fy), st->none, true, sum, &in);
          }
        clfx_motion_ref_store (plan, dst, x, y, sum,
                               st->none ? in : st->steps);
      }
  return true;
}

static void
motion_linear_tolerance (const ClfxParams *p, const ClfxPlan *plan,
                         const ClfxDeviceInfo *dev, const ClfxImage *src,
                         const ClfxImage *dst, ClfxTolerance *tol)
{
  const State *st = plan->state;

  (void) p;
  (void) dev;
  /* The taps' float sum, and each weight rounded to float once (one more
   * term's rounding over weights that sum to 1); none: the inside
   * weight's own sum (its relative error carries to the quotient) and
   * the division. */
  clfx_motion_tolerance (plan, src, dst,
                         "the stencil's float sum and its float weights",
                         st->n_taps + 1, st->none ? st->n_taps + 1 : 0, tol);
}

static const char *const uses_motion_linear[] = { "filter", "length",
                                                  "angle", "addressing",
                                                  NULL };

const ClfxVariant clfx_variant_motion_blur_linear
  = { "motion-blur-linear", "motion-blur-linear",
      CLFX_N_ ("Linear motion blur (GEGL's motion-blur-linear)"),
      uses_motion_linear, motion_linear_plan, NULL, motion_linear_cl,
      motion_linear_cpu, motion_linear_tolerance, NULL, clfx_filter_describe,
      NULL, CLFX_MOTION_BLUR_LINEAR_PLACE, NULL, NULL };
