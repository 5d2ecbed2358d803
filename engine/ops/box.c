/* SPDX-License-Identifier: GPL-3.0-or-later */
/* box.c: the filter family's box variant, gegl:box-blur as the mean of
 * the (2 radius + 1)^2 window (GEGL's float running sums drift:
 * docs/FILTERS.md), in linear light on premultiplied alpha.  Its taps are
 * 2 radius + 1 equal weights per axis through the family's FIR passes
 * (filter-common.c); CPU devices with cl_khr_fp64 run sums in double
 * instead, from radius BOX_RUNS_FROM, each started afresh at fixed places
 * (BOX_RUN, kernels/box.cl).
 *
 * A window wider than the image folds its taps (filter-common.h,
 * ClfxFold) and sums them, not running sums.
 *
 * The CPU reference is the exact mean: a double sum over each window, one
 * axis after the other (folded, for a window wider than the image). */
#include <stdlib.h>

#include "../../kernels/box-shapes.h"
#include "../../kernels/clfx-common.h"
#include "clfx-params.h"
#include "box.h"
#include "filter-common.h"

/* From radius BOX_RUNS_FROM the running sums: below it PoCL sums the
 * taps as fast (box.cl). */
#define BOX_RUNS_FROM 8

typedef struct
{
  ClfxFilterBlur blur;
  bool           runs;   /* running sums where the device takes them */
  int            ox, oy; /* the source's origin in the whole image */
} State;

static void
state_free (void *data)
{
  State *st = data;

  clfx_filter_blur_clear (&st->blur);
  free (st);
}

/* 2 radius + 1 equal taps. */
static bool
box_taps (ClfxGaussAxis *a, int radius, ClfxError *error)
{
  a->n = 2 * radius + 1;
  if (! (a->k = malloc ((size_t) a->n * sizeof *a->k)))
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory for taps");
  for (int i = 0; i < a->n; i++)
    a->k[i] = (float) (1.0 / (double) a->n);
  return true;
}

static bool
box_plan (const ClfxParams *p, const ClfxImage *src, ClfxPlan *plan,
          ClfxError *error)
{
  const ClfxFilterParams *fp = CLFX_PARAMS_OF (p, ClfxFilterParams);
  State                  *st;

  if (! (st = calloc (1, sizeof *st)))
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  plan->state = st;
  plan->free_state = state_free;
  if (! box_taps (&st->blur.x, fp->radius, error)
      || ! box_taps (&st->blur.y, fp->radius, error)
      || ! clfx_filter_blur_plan (&st->blur, fp->addressing,
                                  fp->sampler_filter, src, plan, error))
    return false;
  /* A run's results read back to its start, at most BOX_RUN - 1 before
   * them: the halo is the most any rectangle reads (box_source_rect gives
   * what one does).  GPUs sum the taps and read less. */
  st->runs = ! st->blur.linear && ! st->blur.folded
             && fp->radius >= BOX_RUNS_FROM;
  st->ox = src->origin_x;
  st->oy = src->origin_y;
  if (st->runs)
    {
      plan->halo[0] += BOX_RUN - 1;
      plan->halo[1] += BOX_RUN - 1;
    }
  return true;
}

/* The start of the run that holds position v of a source whose first
 * pixel is at o in the whole image: the multiple of BOX_RUN at or below
 * v + o, in the source's coordinates (v may be negative: a halo). */
static int
run_start (int v, int o)
{
  int a = v + o;

  return (a >= 0 ? a / BOX_RUN : -((-a + BOX_RUN - 1) / BOX_RUN)) * BOX_RUN
         - o;
}

/* What the result rectangle out reads: back to its first run's start and
 * the radius before it where the box runs sums, else the taps' halo. */
static void
box_source_rect (const ClfxPlan *plan, const ClfxImage *src,
                 const ClfxRect *out, ClfxRect *in)
{
  const State *st = plan->state;
  /* Folded, the taps' reach is the plan's halo (at most the side). */
  int          rx = st->blur.folded ? plan->halo[0] : st->blur.x.n / 2;
  int          ry = st->blur.folded ? plan->halo[1] : st->blur.y.n / 2;

  (void) src;
  in->x = (st->runs ? run_start (out->x, st->ox) : out->x) - rx;
  in->y = (st->runs ? run_start (out->y, st->oy) : out->y) - ry;
  in->width = out->x + out->width + rx - in->x;
  in->height = out->y + out->height + ry - in->y;
}

/* CPU devices: running sums along the rows (filter_box_hr, a work-item
 * per run and row) into a float4 buffer that holds the rows from the
 * first run's window on (rows iw texels apart, whole double16 lines for
 * the columns), then down the columns (filter_box_vr, a work-item per
 * strip of BV columns and run). */
static bool
launch_runs (ClfxGraph *g, const State *st, ClfxError *error)
{
  const ClfxTile      *t = clfx_graph_tile (g);
  const ClfxPlan      *plan = clfx_graph_plan (g);
  const ClfxGaussAxis *x = &st->blur.x, *y = &st->blur.y;
  int                  w = t->out.width, h = t->out.height, r = y->n / 2;
  int                  x0 = run_start (t->out.x, st->ox);
  int                  y0 = run_start (t->out.y, st->oy);
  int                  iy0 = y0 - r, ih = t->out.y + h + r - iy0;
  int                  iw = (w + 3) / 4 * 4;
  cl_int4              rect = { { t->out.x, iy0, w, ih } };
  cl_int4              renorm = { { st->blur.renorm, plan->width,
                                    plan->height, 0 } };
  cl_mem               inter, kx, ky;
  ClfxLaunch           l_h = { "filter_box_hr", NULL, NULL, 2,
                               { (size_t) ((t->out.x + w - 1 - x0) / BOX_RUN
                                           + 1),
                                 ((size_t) ih + 3) / 4 },
                               { 0, 0 } };
  ClfxLaunch           l_v = { "filter_box_vr", NULL, NULL, 2,
                               { ((size_t) w + BV - 1) / BV,
                                 (size_t) ((t->out.y + h - 1 - y0) / BOX_RUN
                                           + 1) },
                               { 0, 0 } };

  return (inter = clfx_graph_buffer (g, "rows",
                                     (size_t) iw * (size_t) ih * 16, error))
         && (kx = clfx_graph_table (g, "taps x", x->k,
                                    sizeof (float) * (size_t) x->n, error))
         && (ky = clfx_graph_table (g, "taps y", y->k,
                                    sizeof (float) * (size_t) y->n, error))
         && CLFX_LAUNCH (g, &l_h, error, CLFX_SRC, CLFX_ARG (inter),
                         CLFX_INT (iw), CLFX_ARG (rect), CLFX_INT (x0),
                         CLFX_FLOAT (x->k[0]), CLFX_INT (x->n))
         && CLFX_LAUNCH (g, &l_v, error, CLFX_ARG (inter), CLFX_INT (w),
                         CLFX_INT (iw), CLFX_INT (iy0), CLFX_INT (y0),
                         CLFX_DST, CLFX_FLOAT (y->k[0]), CLFX_INT (y->n),
                         CLFX_ARG (renorm), CLFX_ARG (kx), CLFX_ARG (ky));
}

static bool
box_cl (ClfxGraph *g, const ClfxParams *p, ClfxError *error)
{
  const State *st = clfx_graph_plan (g)->state;

  (void) p;
  /* The running sums are in double: devices without it sum the taps, as
   * GPUs do (their passes read the taps' texels from local memory). */
  if (st->runs && clfx_graph_device (g)->fp64
      && ! clfx_filter_fir_local (g, &st->blur))
    return launch_runs (g, st, error);
  return clfx_filter_fir (g, &st->blur, error);
}

/* The box along one axis of the double image d (dw x dh RGBA) in place:
 * the exact mean of n values, a double sum over the window, shrinking
 * that axis by n - 1. */
static bool
ref_mean_axis (double **d, int *dw, int *dh, int n, bool vertical,
               ClfxError *error)
{
  int     w = *dw, h = *dh;
  int     ow = vertical ? w : w - n + 1, oh = vertical ? h - n + 1 : h;
  double *out;

  if (! (out = calloc ((size_t) ow * (size_t) oh * 4, sizeof *out)))
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  for (int y = 0; y < oh; y++)
    for (int x = 0; x < ow; x++)
      for (int c = 0; c < 4; c++)
        {
          double acc = 0.0;
          for (int i = 0; i < n; i++)
            acc += vertical ? (*d)[((size_t) (y + i) * w + x) * 4 + c]
                            : (*d)[((size_t) y * w + x + i) * 4 + c];
          acc /= n;
          out[((size_t) y * ow + x) * 4 + c] = acc;
        }
  free (*d);
  *d = out;
  *dw = ow;
  *dh = oh;
  return true;
}

static bool
box_cpu (const ClfxParams *p, const ClfxPlan *plan, const ClfxImage *src,
         ClfxImage *dst, ClfxProbes *probes, ClfxError *error)
{
  const State *st = plan->state;
  ClfxImage    img = { 0 }, out = { 0 };
  double      *d = NULL;
  int          dw, dh;
  bool         ok;

  (void) p;
  (void) probes;
  if (st->blur.folded)
    return clfx_filter_ref_folded (plan, &st->blur, src, dst, error);
  if (! clfx_filter_ref_source (plan, &st->blur, src, &img, error))
    return false;
  ok = (d = clfx_filter_ref_doubles (&img, &dw, &dh, error))
       && ref_mean_axis (&d, &dw, &dh, st->blur.x.n, false, error)
       && ref_mean_axis (&d, &dw, &dh, st->blur.y.n, true, error)
       && clfx_filter_ref_store (plan, &st->blur, d, dw, dh, &out, dst,
                                 error);
  free (d);
  clfx_host_image_free (&img);
  clfx_host_image_free (&out);
  return ok;
}

static void
box_tolerance (const ClfxParams *p, const ClfxPlan *plan,
               const ClfxDeviceInfo *dev, const ClfxImage *src,
               const ClfxImage *dst, ClfxTolerance *tol)
{
  const State *st = plan->state;

  (void) p;
  (void) dev;
  clfx_filter_blur_tolerance (plan, &st->blur, src, dst, tol);
}

static const char *const uses_box[] = { "filter", "radius", "addressing",
                                        "sampler-filter", NULL };

/* Its running sums are box.cl; its taps the family's FIR passes
 * (filter-fir.cl, filter-fir-linear.cl), which name their programs. */
const ClfxVariant clfx_variant_box
  = { "box", "box", CLFX_N_ ("Box blur (the mean of a square window)"),
      uses_box, box_plan, box_source_rect, box_cl, box_cpu, box_tolerance,
      NULL, clfx_filter_describe, NULL, CLFX_BOX_PLACE, NULL, NULL };
