/* SPDX-License-Identifier: GPL-3.0-or-later */
/* motion-blur-circular.c: the filter family's motion-blur-circular
 * variant, gegl:motion-blur-circular of GEGL 0.4.62 (docs/FILTERS.md), in
 * linear light on premultiplied alpha (GEGL's RaGaBaA float).
 *
 * GEGL's definition: around the centre c, the arc through the pixel at
 * radius r, from half the angle a beyond the pixel's direction back
 * through n steps of a / n, n = max (ceil (1.41 r a), 3) (past 100, 100
 * and the whole part of the root of the rest); a step's position rounded
 * to float, and only the steps inside the image count: each a bilinear
 * read in GEGL's float form, the result their mean (none inside: the
 * pixel itself).  GEGL takes each step's cosine and sine from libm in
 * double; the kernel turns the pixel's direction by half the angle, then
 * by -a / n a step, in double with the host's cosines and sines, which
 * gives the same float positions but where a double rounding lands within
 * 1e-14 of a float's rounding boundary.
 *
 * Departures, as the zoom's: the centre is taken in the pixels' own
 * coordinates, c = center-x width - 1/2 (GEGL's is half a pixel right of
 * and below the point it names); and GEGL's halo is too small for large
 * angles (its chunks read a clamped texel where a path leaves it), which
 * clfx's is not.  Edge handling decides a step's texels beyond the image
 * (GEGL's: transparent, clfx's clamp); none leaves them out and divides by
 * the weight of those inside.
 *
 * The CPU reference makes the same positions (they are the definition;
 * the same double operations, so the same bits) and weighs each step's
 * four texels bilinearly in double. */
#include <math.h>
#include <stdlib.h>

#include "../../kernels/clfx-common.h"
#include "../../kernels/motion-blur-shapes.h"
#include "clfx-params.h"
#include "filter-common.h"
#include "motion-blur-circular.h"
#include "motion-blur-common.h"

/* GLib's G_PI, as GEGL turns the angle into radians. */
#define CIRCULAR_PI 3.14159265358979323846

typedef struct
{
  cl_double2 *steps;     /* cos, sin of angle / n, n = 0 .. max_steps */
  double      cx, cy;    /* the centre in the whole image's pixels */
  double      angle;     /* radians */
  double      half[2];   /* cos, sin of angle / 2 */
  int         max_steps;
  int         ox, oy, ew, eh; /* origin, the whole image's size */
  bool        none;
} State;

static void
state_free (void *data)
{
  State *st = data;

  if (st)
    free (st->steps);
  free (st);
}

/* GEGL's step count at radius r. */
static int
circular_steps (const State *st, double r)
{
  int n = (int) fmax (ceil (r * st->angle * MOTION_CIRCULAR_ARC), 3.0);

  if (n > MOTION_CIRCULAR_NOMINAL_STEPS)
    n = MOTION_CIRCULAR_NOMINAL_STEPS
        + (int) sqrt ((double) (n - MOTION_CIRCULAR_NOMINAL_STEPS));
  return n;
}

static bool
motion_circular_plan (const ClfxParams *p, const ClfxImage *src,
                      ClfxPlan *plan, ClfxError *error)
{
  const ClfxFilterParams *fp = CLFX_PARAMS_OF (p, ClfxFilterParams);
  State                  *st;
  double                  rx, ry, chord;

  if (! clfx_filter_nearest_ok (fp->sampler_filter, "motion-blur-circular",
                                error))
    return false;
  if (! (st = calloc (1, sizeof *st)))
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  plan->state = st;
  plan->free_state = state_free;
  st->ew = src->extent_width ? src->extent_width : src->width;
  st->eh = src->extent_height ? src->extent_height : src->height;
  st->ox = src->origin_x;
  st->oy = src->origin_y;
  st->cx = fp->center_x * st->ew - 0.5;
  st->cy = fp->center_y * st->eh - 0.5;
  st->angle = fp->motion_circular.angle * CIRCULAR_PI / 180.0;
  st->half[0] = cos (st->angle / 2.0);
  st->half[1] = sin (st->angle / 2.0);
  st->none = fp->addressing == CLFX_ADDR_NONE;
  /* The largest radius this source's pixels have, and its step count. */
  rx = fmax (fabs (st->cx - st->ox),
             fabs (st->cx - (st->ox + src->width - 1)));
  ry = fmax (fabs (st->cy - st->oy),
             fabs (st->cy - (st->oy + src->height - 1)));
  st->max_steps = circular_steps (st, sqrt (rx * rx + ry * ry) * 1.000001);
  if (! (st->steps = malloc (sizeof *st->steps
                             * ((size_t) st->max_steps + 1))))
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  for (int n = 0; n <= st->max_steps; n++)
    {
      st->steps[n].s[0] = n ? cos (st->angle / n) : 1.0;
      st->steps[n].s[1] = n ? sin (st->angle / n) : 0.0;
    }
  plan->width = src->width;
  plan->height = src->height;
  plan->addressing = st->none ? CLFX_ADDR_CLAMP : fp->addressing;
  plan->mixes = true;
  plan->premultiply = clfx_plan_premultiplies (true, src);
  plan->decode = clfx_plan_decodes (true, src);
  /* An arc of angle a at radius r stays within the chord 2 r sin (a / 2)
   * of its pixel (a up to a half turn; past it, the circle's diameter),
   * then a texel for the neighbour and one for the float rounding; and no
   * farther than the image's own texels (steps outside it do not count
   * but for a neighbour one beyond its edge). */
  chord = 2.0 * sqrt (rx * rx + ry * ry)
          * sin (fmin (st->angle, CIRCULAR_PI) / 2.0);
  plan->halo[0] = plan->halo[2] = (int) fmin (ceil (chord) + 2,
                                              src->width + 1);
  plan->halo[1] = plan->halo[3] = (int) fmin (ceil (chord) + 2,
                                              src->height + 1);
  plan->bytes_per_pixel = 0;
  plan->bytes_fixed = sizeof (cl_double2) * ((size_t) st->max_steps + 1);
  return true;
}

static bool
need_fp64 (ClfxGraph *g, ClfxError *error)
{
  if (clfx_graph_device (g)->fp64)
    return true;
  return clfx_error_set (error, CLFX_ERR_UNSUPPORTED,
                         "motion-blur-circular makes its arc's positions in "
                         "double, as GEGL does, and this device has no "
                         "cl_khr_fp64");
}

static bool
motion_circular_cl (ClfxGraph *g, const ClfxParams *p, ClfxError *error)
{
  const State    *st = clfx_graph_plan (g)->state;
  const ClfxTile *t = clfx_graph_tile (g);
  cl_double4      geo = { { st->cx, st->cy, st->half[0], st->half[1] } };
  cl_int4         whole = { { st->ox, st->oy, st->ew, st->eh } };
  cl_double       angle = st->angle;
  cl_mem          steps;
  ClfxLaunch      l = { "motion_circular", NULL, NULL, 2,
                        { (size_t) t->out.width, (size_t) t->out.height },
                        { 0, 0 } };

  (void) p;
  return need_fp64 (g, error)
         && (steps = clfx_graph_table (g, "circular steps", st->steps,
                                       sizeof (cl_double2)
                                       * ((size_t) st->max_steps + 1),
                                       error))
         && CLFX_LAUNCH (g, &l, error, CLFX_SRC, CLFX_DST, CLFX_ARG (steps),
                         CLFX_ARG (geo), CLFX_ARG (angle), CLFX_ARG (whole),
                         CLFX_INT (st->none));
}

/* The arc's float positions as the kernel makes them; each step inside
 * the image weighs its four texels bilinearly in double (none: those
 * outside left out of the sum and the weight). */
static bool
motion_circular_cpu (const ClfxParams *p, const ClfxPlan *plan,
                     const ClfxImage *src, ClfxImage *dst,
                     ClfxProbes *probes, ClfxError *error)
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
        double xr = (double) (x + st->ox) - st->cx;
        double yr = (double) (y + st->oy) - st->cy;
        double r = sqrt (xr * xr + yr * yr), sum[4] = { 0, 0, 0, 0 };
        double in = 0.0;
        int    n = circular_steps (st, r), count = 0;
        bool   axis = fabs (xr) <= 0.00001;
        double u = axis ? 0.0 : xr / r;
        double v = axis ? (yr >= 0.0 ? 1.0 : -1.0) : yr / r;
        double c = u * st->half[0] - v * st->half[1];
        double sn = v * st->half[0] + u * st->half[1];

        for (int k = 0; k < n; k++)
          {
            float  ix = (float) (st->cx + r * (double) (float) c);
            float  iy = (float) (st->cy + r * (double) (float) sn);
            double t = c * st->steps[n].s[0] + sn * st->steps[n].s[1];

            sn = sn * st->steps[n].s[0] - c * st->steps[n].s[1];
            c = t;
            int    i[2] = { (int) floorf (ix) - st->ox,
                            (int) floorf (ix + 1.0f) - st->ox };
            int    j[2] = { (int) floorf (iy) - st->oy,
                            (int) floorf (iy + 1.0f) - st->oy };

            if (! (ix >= 0.0f && ix < (float) st->ew && iy >= 0.0f
                   && iy < (float) st->eh))
              continue;
            count++;
            clfx_motion_ref_step (src, s, i, j, ix - floorf (ix),
                                  iy - floorf (iy), st->none, false, sum,
                                  &in);
          }
        if (count == 0)
          {
            float out[4];
            clfx_ref_fetch (src, s, x, y, out);
            clfx_ref_store (dst, x, y, out, plan->premultiply, plan->decode);
          }
        else
          clfx_motion_ref_store (plan, dst, x, y, sum, st->none ? in : count);
      }
  return true;
}

static void
motion_circular_tolerance (const ClfxParams *p, const ClfxPlan *plan,
                           const ClfxDeviceInfo *dev, const ClfxImage *src,
                           const ClfxImage *dst, ClfxTolerance *tol)
{
  const State *st = plan->state;

  (void) p;
  (void) dev;
  /* The steps' float sum (n terms), each step's float mix (three levels
   * of a difference, a product and a sum, on differences up to twice the
   * values: 6 roundings of the largest value a step), and the division
   * by the count (OpenCL C: 2.5 ulp); none: the float sum of 4 weights a
   * step, and the division. */
  clfx_motion_tolerance (plan, src, dst,
                         "the steps' float sum, their float mixes and the "
                         "division", st->max_steps + 9,
                         st->none ? 4 * st->max_steps + 2 : 0, tol);
}

static const char *const uses_motion_circular[] = { "filter", "center-x",
                                                    "center-y",
                                                    "circular-angle",
                                                    "addressing", NULL };

const ClfxVariant clfx_variant_motion_blur_circular
  = { "motion-blur-circular", "motion-blur-circular",
      CLFX_N_ ("Circular motion blur (GEGL's motion-blur-circular, centred "
               "on the pixels)"),
      uses_motion_circular, motion_circular_plan, NULL, motion_circular_cl,
      motion_circular_cpu, motion_circular_tolerance, NULL,
      clfx_filter_describe, NULL, CLFX_MOTION_BLUR_CIRCULAR_PLACE, NULL,
      NULL };
