/* SPDX-License-Identifier: GPL-3.0-or-later */
/* motion-blur-zoom.c: the filter family's motion-blur-zoom variant,
 * gegl:motion-blur-zoom of GEGL 0.4.62 (docs/FILTERS.md), in linear light
 * on premultiplied alpha (GEGL's RaGaBaA float).
 *
 * GEGL's definition, its arithmetic kept: the path from pixel x to
 * x_end = x + (c - x) factor (c the centre; in double, rounded to float),
 * n = max (ceil (|x_end - x| + 1), 3) steps (past 100, 100 + the whole
 * part of the root of the rest, at most 200), walked from the pixel in
 * float by (x_end - x) / n a step; each step a bilinear read at its
 * position (GEGL's float mix: m = dy (b - a) + a), the result the sum
 * times 1 / n.  kernels/motion-blur-zoom.cl does the same float steps in
 * the same order: where GEGL's reads are clfx's, the same bytes.
 *
 * Two departures.  GEGL samples pixel x at x but puts the centre at
 * center-x times the width: half a pixel right of (and below) the point
 * it names in pixel centres.  clfx takes the centre in the pixels' own
 * coordinates, c = center-x width - 1/2, so that 0.5 is the image's
 * middle.  And GEGL truncates a negative position towards 0 where it
 * picks its texels (one texel right of, or below, the position, left of
 * and above the image); clfx rounds down everywhere.  The neighbour's
 * index is GEGL's: the position plus one, in float, rounded down.
 *
 * Outside the image GEGL reads transparent black (abyss none): clfx's
 * clamp.  none leaves the texels outside out and divides by the weight
 * of those inside.
 *
 * The CPU reference walks the same float positions (they are the
 * definition) and mixes each step's texels with their bilinear weights
 * in double. */
#include <math.h>
#include <stdlib.h>

#include "../../kernels/clfx-common.h"
#include "../../kernels/motion-blur-shapes.h"
#include "clfx-params.h"
#include "filter-common.h"
#include "motion-blur-common.h"
#include "motion-blur-zoom.h"

typedef struct
{
  /* The path's end per column, then per row (width + height), in the
   * whole image's pixel coordinates. */
  float *x_end;
  float  inv[MOTION_ZOOM_MAX_STEPS + 1]; /* GEGL's 1 / n as float */
  double cx, cy, factor; /* the centre in the whole image's pixels */
  int    ox, oy;         /* the source's place in the whole image */
  int    max_steps;
  bool   none;
} State;

static void
state_free (void *data)
{
  State *st = data;

  if (st)
    free (st->x_end);
  free (st);
}

/* GEGL's step count from the path's squared length s (float), its
 * double arithmetic as GEGL writes it. */
static int
zoom_steps (float s)
{
  int n = (int) ceil (sqrt (s) + 1);

  n = n > 3 ? n : 3;
  if (n > MOTION_ZOOM_NOMINAL_STEPS)
    {
      n = MOTION_ZOOM_NOMINAL_STEPS
          + (int) sqrt (n - MOTION_ZOOM_NOMINAL_STEPS);
      n = n < MOTION_ZOOM_MAX_STEPS ? n : MOTION_ZOOM_MAX_STEPS;
    }
  return n;
}

/* A path's end along one axis: pixel index i, the centre c in pixel
 * indices (GEGL's expression, rounded to float). */
static float
zoom_end (int i, double c, double factor)
{
  return (float) (i + (c - (float) i) * factor);
}

static bool
motion_zoom_plan (const ClfxParams *p, const ClfxImage *src, ClfxPlan *plan,
                  ClfxError *error)
{
  const ClfxFilterParams *fp = CLFX_PARAMS_OF (p, ClfxFilterParams);
  double                  f = fp->motion_zoom.factor, cx, cy, rx, ry;
  int ew = src->extent_width ? src->extent_width : src->width;
  int eh = src->extent_height ? src->extent_height : src->height;
  State                  *st;

  if (! clfx_filter_nearest_ok (fp->sampler_filter, "motion-blur-zoom",
                                error))
    return false;
  if (! (st = calloc (1, sizeof *st)))
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  plan->state = st;
  plan->free_state = state_free;
  st->none = fp->addressing == CLFX_ADDR_NONE;
  st->cx = cx = fp->center_x * ew - 0.5;
  st->cy = cy = fp->center_y * eh - 0.5;
  st->factor = f;
  st->ox = src->origin_x;
  st->oy = src->origin_y;
  st->x_end = malloc (sizeof (float)
                      * ((size_t) src->width + (size_t) src->height));
  if (! st->x_end)
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  for (int x = 0; x < src->width; x++)
    st->x_end[x] = zoom_end (st->ox + x, cx, f);
  for (int y = 0; y < src->height; y++)
    st->x_end[src->width + y] = zoom_end (st->oy + y, cy, f);
  for (int n = 1; n <= MOTION_ZOOM_MAX_STEPS; n++)
    st->inv[n] = (float) (1.0 / (float) n);
  /* The farthest a path reaches from its pixel, per axis, and the most
   * steps a path takes (the longest path's). */
  rx = fmax (fabs (cx - st->ox), fabs (cx - (st->ox + src->width - 1)))
       * fabs (f);
  ry = fmax (fabs (cy - st->oy), fabs (cy - (st->oy + src->height - 1)))
       * fabs (f);
  st->max_steps = zoom_steps ((float) (rx * rx + ry * ry) * 1.0001f + 1);
  plan->width = src->width;
  plan->height = src->height;
  plan->addressing = st->none ? CLFX_ADDR_CLAMP : fp->addressing;
  plan->mixes = true;
  plan->premultiply = clfx_plan_premultiplies (true, src);
  plan->decode = clfx_plan_decodes (true, src);
  /* The float walk may pass its end by rounding: a texel more. */
  plan->halo[0] = plan->halo[2] = (int) ceil (rx) + 2;
  plan->halo[1] = plan->halo[3] = (int) ceil (ry) + 2;
  plan->bytes_per_pixel = 0;
  plan->bytes_fixed = sizeof (float)
                      * ((size_t) src->width + (size_t) src->height
                         + MOTION_ZOOM_MAX_STEPS + 1);
  return true;
}

static bool
motion_zoom_cl (ClfxGraph *g, const ClfxParams *p, ClfxError *error)
{
  const ClfxPlan *plan = clfx_graph_plan (g);
  const State    *st = plan->state;
  const ClfxTile *t = clfx_graph_tile (g);
  cl_int2         origin = { { st->ox, st->oy } };
  cl_mem          ends, inv;
  ClfxLaunch      l = { "motion_zoom", NULL, NULL, 2,
                        { (size_t) t->out.width, (size_t) t->out.height },
                        { 0, 0 } };

  (void) p;
  return (ends = clfx_graph_table (g, "zoom ends", st->x_end,
                                   sizeof (float)
                                   * (size_t) (plan->width + plan->height),
                                   error))
         && (inv = clfx_graph_table (g, "zoom inverses", st->inv,
                                     sizeof st->inv, error))
         && CLFX_LAUNCH (g, &l, error, CLFX_SRC, CLFX_DST, CLFX_ARG (ends),
                         CLFX_ARG (inv), CLFX_ARG (origin),
                         CLFX_INT (st->none));
}

/* GEGL's float walk; each step's four texels weighed bilinearly in
 * double (none: those outside left out of the sum and of the weight). */
static bool
motion_zoom_cpu (const ClfxParams *p, const ClfxPlan *plan,
                 const ClfxImage *src, ClfxImage *dst, ClfxProbes *probes,
                 ClfxError *error)
{
  const State            *st = plan->state;
  ClfxSamplerDesc         s = { true, plan->addressing, false,
                                plan->premultiply, plan->decode };

  (void) p;
  (void) probes;
  (void) error;
  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      {
        int    px = st->ox + x, py = st->oy + y;
        float  ddx = zoom_end (px, st->cx, st->factor) - (float) px;
        float  ddy = zoom_end (py, st->cy, st->factor) - (float) py;
        int    n = zoom_steps (ddx * ddx + ddy * ddy);
        float  inv = (float) (1.0 / (float) n);
        float  sx = ddx * inv, sy = ddy * inv, ix = (float) px;
        float  iy = (float) py;
        double sum[4] = { 0, 0, 0, 0 }, in = 0.0;

        for (int k = 0; k < n; k++, ix += sx, iy += sy)
          {
            int i[2] = { (int) floorf (ix) - st->ox,
                         (int) floorf (ix + 1.0f) - st->ox };
            int j[2] = { (int) floorf (iy) - st->oy,
                         (int) floorf (iy + 1.0f) - st->oy };

            clfx_motion_ref_step (src, s, i, j, ix - floorf (ix),
                                  iy - floorf (iy), st->none, false, sum,
                                  &in);
          }
        clfx_motion_ref_store (plan, dst, x, y, sum, st->none ? in : n);
      }
  return true;
}

static void
motion_zoom_tolerance (const ClfxParams *p, const ClfxPlan *plan,
                       const ClfxDeviceInfo *dev, const ClfxImage *src,
                       const ClfxImage *dst, ClfxTolerance *tol)
{
  const State *st = plan->state;

  (void) p;
  (void) dev;
  /* The steps' float sum (n terms), each step's float mix (three levels
   * of a difference, a product and a sum, on differences up to twice the
   * values: 6 roundings of the largest value a step), and the scale by
   * the float 1 / n (2); none: the float sum of 4 weights a step, and the
   * division. */
  clfx_motion_tolerance (plan, src, dst,
                         "the steps' float sum, their float mixes and the "
                         "scale", st->max_steps + 8,
                         st->none ? 4 * st->max_steps + 2 : 0, tol);
}

static const char *const uses_motion_zoom[] = { "filter", "center-x",
                                                "center-y", "factor",
                                                "addressing", NULL };

const ClfxVariant clfx_variant_motion_blur_zoom
  = { "motion-blur-zoom", "motion-blur-zoom",
      CLFX_N_ ("Zoom motion blur (GEGL's motion-blur-zoom, centred on the "
               "pixels)"),
      uses_motion_zoom, motion_zoom_plan, NULL, motion_zoom_cl,
      motion_zoom_cpu, motion_zoom_tolerance, NULL, clfx_filter_describe,
      NULL, CLFX_MOTION_BLUR_ZOOM_PLACE, NULL, NULL };
