/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gaussian.c: the filter family's gaussian variant, gegl:gaussian-blur of
 * GEGL 0.4.62 (docs/FILTERS.md): horizontal then vertical, each axis with
 * its own method, FIR (the sampled Gaussian, ceil (6.5 sigma) taps made
 * odd) or IIR (Young and van Vliet's recursion with Triggs and Sdika's
 * boundary); auto takes FIR below sigma 1 and IIR from 1, as GEGL does.
 * The axes are the gaussian block's (engine/blocks/gauss.c), in linear
 * light on premultiplied alpha (GEGL's RaGaBaA float).
 *
 * On the device: both axes FIR, the family's two FIR passes from the
 * source to the result or tap pairs through the sampler
 * (filter-common.c); both IIR, the block's recursion from the source to
 * the result; one of each, the source with its halo into a float image,
 * the block's blur of it, the store.  The IIR reads whole lines, so an
 * IIR axis makes the run one piece.
 *
 * The CPU reference is independent of the device plan: small FIR kernels
 * as a direct 2-D sum in double, larger ones (more than 32 x 32 taps) and
 * the IIR one axis after the other in double. */
#include <stdlib.h>

#include "../../kernels/clfx-common.h"
#include "clfx-params.h"
#include "filter-common.h"
#include "gaussian.h"

typedef struct
{
  ClfxFilterBlur blur;
  bool           edge_zero; /* addressing clamp: transparent outside */
} State;

static void
state_free (void *data)
{
  State *st = data;

  clfx_filter_blur_clear (&st->blur);
  free (st);
}

static bool
gaussian_plan (const ClfxParams *p, const ClfxImage *src, ClfxPlan *plan,
               ClfxError *error)
{
  const ClfxFilterParams *fp = CLFX_PARAMS_OF (p, ClfxFilterParams);
  State                  *st;
  ClfxGaussAxis          *x, *y;

  if (! (st = calloc (1, sizeof *st)))
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  plan->state = st;
  plan->free_state = state_free;
  st->edge_zero = fp->addressing == CLFX_ADDR_CLAMP;
  x = &st->blur.x;
  y = &st->blur.y;
  if (! clfx_gauss_axis (x, fp->gaussian.std_dev_x, fp->gaussian.method,
                         error)
      || ! clfx_gauss_axis (y, fp->gaussian.std_dev_y, fp->gaussian.method,
                            error))
    return false;
  if ((x->iir || y->iir) && fp->addressing != CLFX_ADDR_CLAMP_TO_EDGE
      && fp->addressing != CLFX_ADDR_CLAMP)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "the IIR gaussian (sigma 1 and more with method "
                           "auto) handles edges as clamp-to-edge or clamp, "
                           "as GEGL's does: use method fir for repeat, "
                           "mirrored-repeat or none");
  if ((x->iir || y->iir) && fp->sampler_filter)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "the IIR gaussian (sigma 1 and more with method "
                           "auto) reads no taps: sampler-filter linear needs "
                           "method fir");
  if (! clfx_filter_blur_plan (&st->blur, fp->addressing, fp->sampler_filter,
                               src, plan, error))
    return false;
  /* A recursion along whole lines: one piece (no bands, no tiles). */
  plan->whole_image_stats = x->iir || y->iir;
  /* Both axes IIR: the rows pass reads a row whole (its forward values)
   * before it writes it, and nothing reads the source after it (CPU
   * devices' bands: the columns' states, then each band's columns read
   * the band's own rows before its rows are stored, bands from the
   * bottom up).  The result can go over the source. */
  plan->in_place = x->iir && y->iir;
  return true;
}

static bool
gaussian_cl (ClfxGraph *g, const ClfxParams *p, ClfxError *error)
{
  const State         *st = clfx_graph_plan (g)->state;
  const ClfxGaussAxis *x = &st->blur.x, *y = &st->blur.y;
  const ClfxTile      *t = clfx_graph_tile (g);
  cl_mem               img, out;

  (void) p;
  if (! x->iir && ! y->iir)
    return clfx_filter_fir (g, &st->blur, error);
  if (x->iir && y->iir)
    return clfx_gauss_iir_both (g, x, y, st->edge_zero, NULL, 0.0f, error);
  /* One FIR axis and one IIR: through float images. */
  out = (img = clfx_block_load (g, "source", &t->in, error))
          ? clfx_gauss_blur (g, "filtered", x, y, img, t->out.width,
                             t->out.height, st->edge_zero, error)
          : NULL;
  return out && clfx_block_store (g, out, t->out.x, t->out.y, error);
}

static bool
gaussian_cpu (const ClfxParams *p, const ClfxPlan *plan,
              const ClfxImage *src, ClfxImage *dst, ClfxProbes *probes,
              ClfxError *error)
{
  const State         *st = plan->state;
  const ClfxGaussAxis *x = &st->blur.x, *y = &st->blur.y;
  ClfxImage            img = { 0 }, out = { 0 };
  double              *d = NULL;
  int                  dw, dh;
  bool                 ok;

  (void) p;
  (void) probes;
  if (st->blur.folded)
    return clfx_filter_ref_folded (plan, &st->blur, src, dst, error);
  if (! clfx_filter_ref_source (plan, &st->blur, src, &img, error))
    return false;
  /* Small FIR kernels: the direct 2-D sum (independent of the device's two
   * passes); larger ones and the IIR: one axis after the other, in
   * double. */
  if (! x->iir && ! y->iir && x->n * y->n <= 1024)
    ok = clfx_ref_sepconv (&img, src->width, src->height, x->k, x->n, y->k,
                           y->n, &out, error)
         && clfx_filter_ref_store (plan, &st->blur, NULL, 0, 0, &out, dst,
                                   error);
  else
    ok = (d = clfx_filter_ref_doubles (&img, &dw, &dh, error))
         && clfx_gauss_ref (&d, &dw, &dh, x, y, st->edge_zero, error)
         && clfx_filter_ref_store (plan, &st->blur, d, dw, dh, &out, dst,
                                   error);
  free (d);
  clfx_host_image_free (&img);
  clfx_host_image_free (&out);
  return ok;
}

static void
gaussian_tolerance (const ClfxParams *p, const ClfxPlan *plan,
                    const ClfxDeviceInfo *dev, const ClfxImage *src,
                    const ClfxImage *dst, ClfxTolerance *tol)
{
  const State *st = plan->state;

  (void) p;
  (void) dev;
  clfx_filter_blur_tolerance (plan, &st->blur, src, dst, tol);
}

static const char *const uses_gaussian[] = { "filter", "std-dev-x",
                                             "std-dev-y", "method",
                                             "addressing", "sampler-filter",
                                             NULL };

/* Its kernels are the gaussian block's (gauss-iir.cl and, with one FIR
 * axis, gauss-iir-image.cl) and the family's FIR (filter-fir.cl,
 * filter-fir-linear.cl), each launch naming its program. */
const ClfxVariant clfx_variant_gaussian
  = { "gaussian", "gauss-iir",
      CLFX_N_ ("Gaussian blur (GEGL's gaussian-blur: FIR below sigma 1, "
               "IIR from 1)"),
      uses_gaussian, gaussian_plan, NULL, gaussian_cl, gaussian_cpu,
      gaussian_tolerance, NULL, clfx_filter_describe, NULL,
      CLFX_GAUSSIAN_PLACE, NULL, NULL };
