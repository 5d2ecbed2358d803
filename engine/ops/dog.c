/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dog.c: the filter family's dog variant, gegl:difference-of-gaussians of
 * GEGL 0.4.62 (docs/FILTERS.md).  GEGL's graph:
 *
 *   B1  = gaussian-blur (in, radius1)     auto FIR / IIR, premultiplied
 *   B2  = gaussian-blur (in, radius2)
 *   out = B1 - B2                         subtract, on straight colour
 *                                         (RGBA float), alpha B1's
 *
 * Nothing is clipped; a difference of finite values past float's range
 * is clamped to +-FLT_MAX.  On the device the source is loaded once
 * (twice where the two blurs' halos differ), blurred twice by the
 * gaussian block and the difference stored (dog.cl); an IIR blur (a
 * radius from 1) makes the run one piece.  The reference: the
 * gaussian's in double, then the difference in double. */
#include <math.h>
#include <stdlib.h>

#include "../../kernels/clfx-common.h"
#include "../blocks/gauss.h"
#include "clfx-params.h"
#include "dog.h"
#include "filter-common.h"

typedef struct
{
  ClfxGaussAxis x1, y1, x2, y2;
  bool          edge_zero;
} State;

static void
state_free (void *data)
{
  State *st = data;

  clfx_gauss_axis_clear (&st->x1);
  clfx_gauss_axis_clear (&st->y1);
  clfx_gauss_axis_clear (&st->x2);
  clfx_gauss_axis_clear (&st->y2);
  free (st);
}

static int
max_int (int a, int b)
{
  return a > b ? a : b;
}

static bool
dog_plan (const ClfxParams *p, const ClfxImage *src, ClfxPlan *plan,
          ClfxError *error)
{
  const ClfxFilterParams *fp = CLFX_PARAMS_OF (p, ClfxFilterParams);
  State                  *st;

  if (! (st = clfx_filter_mix_state (plan, sizeof *st, state_free,
                                     fp->addressing, fp->sampler_filter,
                                     "dog", error)))
    return false;
  st->edge_zero = fp->addressing == CLFX_ADDR_CLAMP;
  if (! clfx_gauss_axes_auto (&st->x1, &st->y1, fp->dog.radius1,
                              fp->addressing, "dog (radius1)", error)
      || ! clfx_gauss_axes_auto (&st->x2, &st->y2, fp->dog.radius2,
                                 fp->addressing, "dog (radius2)", error))
    return false;
  /* Two loaded sources, two blurs and their intermediate. */
  clfx_gauss_plan_mix (plan, src, fp->addressing,
                       max_int (clfx_gauss_half (&st->x1),
                                clfx_gauss_half (&st->x2)),
                       max_int (clfx_gauss_half (&st->y1),
                                clfx_gauss_half (&st->y2)),
                       st->x1.iir || st->x2.iir, 16 * 5);
  plan->bytes_fixed = sizeof (float)
                      * (size_t) (st->x1.n + st->y1.n + st->x2.n + st->y2.n);
  return true;
}

/* The source with the halos of axes x, y around the tile's result,
 * loaded as `name`. */
static cl_mem
load_for (ClfxGraph *g, const char *name, const ClfxGaussAxis *x,
          const ClfxGaussAxis *y, ClfxError *error)
{
  const ClfxTile *t = clfx_graph_tile (g);
  int             hx = clfx_gauss_half (x), hy = clfx_gauss_half (y);
  ClfxRect        r = { t->out.x - hx, t->out.y - hy, t->out.width + 2 * hx,
                        t->out.height + 2 * hy };

  return clfx_block_load (g, name, &r, error);
}

static bool
dog_cl (ClfxGraph *g, const ClfxParams *p, ClfxError *error)
{
  const State    *st = clfx_graph_plan (g)->state;
  const ClfxTile *t = clfx_graph_tile (g);
  int             w = t->out.width, h = t->out.height;
  bool            same = clfx_gauss_half (&st->x1) == clfx_gauss_half (&st->x2)
                         && clfx_gauss_half (&st->y1)
                              == clfx_gauss_half (&st->y2);
  ClfxLaunch      lx = { "dog_mix", NULL, NULL, 2,
                         { (size_t) w, (size_t) h }, { 0, 0 } };
  cl_mem          in1, in2, b1, b2;

  (void) p;
  return (in1 = load_for (g, "source", &st->x1, &st->y1, error))
         && (in2 = same ? in1
                        : load_for (g, "source 2", &st->x2, &st->y2, error))
         && (b1 = clfx_gauss_blur (g, "blurred 1", &st->x1, &st->y1, in1, w,
                                   h, st->edge_zero, error))
         && (b2 = clfx_gauss_blur (g, "blurred 2", &st->x2, &st->y2, in2, w,
                                   h, st->edge_zero, error))
         && CLFX_LAUNCH (g, &lx, error, CLFX_ARG (b1), CLFX_ARG (b2),
                         CLFX_DST);
}

/* ---- CPU reference ------------------------------------------------------------ */

/* The blur of src with axes x, y, w x h RGBA doubles; NULL on failure. */
static double *
ref_blur (const ClfxImage *src, ClfxSamplerDesc s, const ClfxGaussAxis *x,
          const ClfxGaussAxis *y, bool edge_zero, ClfxError *error)
{
  int     hx = clfx_gauss_half (x), hy = clfx_gauss_half (y);
  int     bw = src->width + 2 * hx, bh = src->height + 2 * hy;
  double *d = clfx_gauss_ref_load (src, s, hx, hy, error);

  if (d && ! clfx_gauss_ref (&d, &bw, &bh, x, y, edge_zero, error))
    {
      free (d);
      return NULL;
    }
  return d;
}

static bool
dog_cpu (const ClfxParams *p, const ClfxPlan *plan, const ClfxImage *src,
         ClfxImage *dst, ClfxProbes *probes, ClfxError *error)
{
  const State    *st = plan->state;
  ClfxSamplerDesc s = { true, plan->addressing, false, plan->premultiply,
                        plan->decode };
  int             w = src->width, h = src->height;
  int             ai = src->channels == 4 ? 3 : src->channels == 2 ? 1 : -1;
  ClfxImage       out = { 0 };
  double         *b1, *b2 = NULL;
  bool            ok = false;

  (void) p;
  (void) probes;
  if (! (b1 = ref_blur (src, s, &st->x1, &st->y1, st->edge_zero, error))
      || ! (b2 = ref_blur (src, s, &st->x2, &st->y2, st->edge_zero, error))
      || ! clfx_host_image_alloc (&out, w, h, 4, CLFX_DEPTH_FLOAT, error))
    goto done;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        double v1[4], v2[4];
        clfx_gauss_ref_straight (b1 + ((size_t) y * w + x) * 4, ai, v1);
        clfx_gauss_ref_straight (b2 + ((size_t) y * w + x) * 4, ai, v2);
        for (int c = 0; c < 3; c++)
          v1[c] -= v2[c];
        clfx_gauss_ref_put (&out, x, y, v1, ai);
      }
  clfx_ref_block_store (&out, 0, 0, dst, plan->premultiply, plan->decode);
  ok = true;
done:
  free (b1);
  free (b2);
  clfx_host_image_free (&out);
  return ok;
}

/* ---- tolerance ---------------------------------------------------------------- */

static void
dog_tolerance (const ClfxParams *p, const ClfxPlan *plan,
               const ClfxDeviceInfo *dev, const ClfxImage *src,
               const ClfxImage *dst, ClfxTolerance *tol)
{
  const State  *st = plan->state;
  ClfxTolerance b1, b2;
  double        m, f;

  (void) p;
  (void) dev;
  f = clfx_gauss_tol_straight (tol, src, ! st->x1.iir && ! st->x2.iir, &m);
  clfx_tol_init (&b1);
  clfx_tol_init (&b2);
  clfx_gauss_tolerance (&b1, &st->x1, &st->y1, m);
  clfx_gauss_tolerance (&b2, &st->x2, &st->y2, m);
  clfx_tol_scaled (tol, (b1.abs_tol + b2.abs_tol) * f);
  clfx_tol_clause (tol, "the two blurs' float errors (%.3g, %.3g) over the "
                        "smallest alpha (%g)",
                   b1.abs_tol, b2.abs_tol, 1.0 / f);
  /* The straight colours, their difference and the product by alpha. */
  clfx_tol_sum (tol, "the straight colours, B1 - B2, times alpha", 4,
                2.0 * f, m);
  if (plan->decode)
    clfx_tol_srgb (tol, dst->depth, plan->srgb_tables);
  clfx_tol_store (tol, dst->depth, false);
}

static const char *const uses_dog[] = { "filter", "radius1", "radius2",
                                        "addressing", NULL };

const ClfxVariant clfx_variant_dog
  = { "dog", "dog",
      CLFX_N_ ("Difference of Gaussians (GEGL's difference-of-gaussians: "
               "the blur of radius1 less that of radius2)"),
      uses_dog, dog_plan, NULL, dog_cl, dog_cpu, dog_tolerance, NULL, NULL,
      NULL, CLFX_DOG_PLACE, NULL, NULL };
