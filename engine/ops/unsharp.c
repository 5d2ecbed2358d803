/* SPDX-License-Identifier: GPL-3.0-or-later */
/* unsharp.c: the filter family's unsharp variant, gegl:unsharp-mask of
 * GEGL 0.4.62 (docs/FILTERS.md), measured bit for bit against this model:
 *
 *   B   = gaussian-blur (in, std-dev, std-dev)   auto FIR / IIR, GEGL's
 *   d   = in - B                                  straight colour, linear
 *   out = in + amount d                           alpha: in's
 *   threshold above 0.0001: out = in + amount d M, with
 *   M   = gaussian-blur_1 ([threshold <= Y'(2 |d|) <= 1])
 *
 * where Y' is the sRGB-encoded luminance (babl's Y) and M is blurred with
 * its alpha premultiplied (GEGL's "YaA float") then made straight.
 * Nothing is clipped, but a result of finite values past float's range
 * is clamped to +-FLT_MAX (the kernels sum s + amount d again scaled
 * where it overflows: unsharp-mix.h).  The blur is the gaussian block's
 * (engine/blocks/gauss.h), premultiplied; the point operations are
 * unsharp.cl, or unsharp-iir.cl's store where both axes are IIR.
 * With an IIR (std-dev from 1, or any threshold: its blur has sigma 1)
 * the run is one piece.  The threshold's blur handles edges as the main
 * blur with clamp (transparent outside), else as GEGL's (clamp-to-edge).
 *
 * The CPU reference: the gaussian's reference in double, then the same
 * formulas in double. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/clfx-common.h"
#include "clfx-params.h"
#include "../blocks/gauss.h"
#include "filter-common.h"
#include "gaussian.h"
#include "unsharp.h"

typedef struct
{
  ClfxGaussAxis x, y;   /* the blur */
  ClfxGaussAxis mask;   /* the threshold's blur: sigma 1, both axes */
  bool          edge_zero;
  bool          use_mask;
  float         amount, threshold;
} State;

static void
state_free (void *data)
{
  State *st = data;

  clfx_gauss_axis_clear (&st->x);
  clfx_gauss_axis_clear (&st->y);
  clfx_gauss_axis_clear (&st->mask);
  free (st);
}

static bool
unsharp_plan (const ClfxParams *p, const ClfxImage *src, ClfxPlan *plan,
              ClfxError *error)
{
  const ClfxFilterParams *fp = CLFX_PARAMS_OF (p, ClfxFilterParams);
  State                  *st;

  if (! (st = clfx_filter_mix_state (plan, sizeof *st, state_free,
                                     fp->addressing, fp->sampler_filter,
                                     "unsharp", error)))
    return false;
  st->edge_zero = fp->addressing == CLFX_ADDR_CLAMP;
  st->use_mask = fp->unsharp.threshold > 0.0001;
  st->amount = (float) fp->unsharp.amount;
  st->threshold = (float) fp->unsharp.threshold;
  if (! clfx_gauss_axes_auto (&st->x, &st->y, fp->unsharp.std_dev,
                              fp->addressing, "unsharp", error)
      || ! clfx_gauss_axis (&st->mask, 1.0, CLFX_GAUSS_AUTO, error))
    return false;
  if (st->use_mask && fp->addressing != CLFX_ADDR_CLAMP_TO_EDGE
      && fp->addressing != CLFX_ADDR_CLAMP)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "the threshold's mask is blurred with GEGL's IIR "
                           "gaussian (sigma 1), which handles edges as "
                           "clamp-to-edge or clamp: use one of those, or "
                           "threshold 0");
  /* The loaded source, the blur, its intermediate and the IIR's forward
   * values; the mask and its blur. */
  clfx_gauss_plan_mix (plan, src, fp->addressing, clfx_gauss_half (&st->x),
                       clfx_gauss_half (&st->y), st->x.iir || st->use_mask,
                       16 * (st->use_mask ? 6 : 4));
  plan->bytes_fixed = sizeof (float) * (size_t) (st->x.n + st->y.n);
  return true;
}

static bool
unsharp_cl (ClfxGraph *g, const ClfxParams *p, ClfxError *error)
{
  const State    *st = clfx_graph_plan (g)->state;
  const ClfxTile *t = clfx_graph_tile (g);
  int             w = t->out.width, h = t->out.height;
  cl_int2         off = { { clfx_gauss_half (&st->x),
                            clfx_gauss_half (&st->y) } };
  cl_mem          in, b, mask = NULL;
  ClfxLaunch      lm = { "unsharp_mask", NULL, NULL, 2,
                         { (size_t) w, (size_t) h }, { 0, 0 } };
  ClfxLaunch      lx = { "unsharp_mix", NULL, NULL, 2,
                         { (size_t) w, (size_t) h }, { 0, 0 } };

  (void) p;
  /* Both axes IIR and no threshold: the block's blur from the source,
   * each pixel mixed as it is stored (unsharp-iir.cl), with no loaded
   * source and no float images; the rows may live in a float RGBA result
   * (the columns read all of their rows before they store into them). */
  if (st->x.iir && st->y.iir && ! st->use_mask)
    return clfx_gauss_iir_both (g, &st->x, &st->y, st->edge_zero,
                                "unsharp-iir", st->amount, error);
  if (! (in = clfx_block_load (g, "source", &t->in, error))
      || ! (b = clfx_gauss_blur (g, "blurred", &st->x, &st->y, in, w, h,
                                 st->edge_zero, error)))
    return false;
  if (st->use_mask
      && (! (mask = clfx_graph_image (g, "mask", w, h, error))
          || ! CLFX_LAUNCH (g, &lm, error, CLFX_ARG (in), CLFX_ARG (b),
                            CLFX_ARG (off), CLFX_FLOAT (st->threshold),
                            CLFX_ARG (mask), CLFX_INT (w), CLFX_INT (h))
          || ! (mask = clfx_gauss_blur (g, "mask blurred", &st->mask,
                                        &st->mask, mask, w, h, st->edge_zero,
                                        error))))
    return false;
  /* Without a mask the kernel still takes an image there: the blur. */
  if (! mask)
    mask = b;
  return CLFX_LAUNCH (g, &lx, error, CLFX_ARG (in), CLFX_ARG (b),
                      CLFX_ARG (mask), CLFX_ARG (off),
                      CLFX_FLOAT (st->amount), CLFX_INT (st->use_mask),
                      CLFX_DST);
}

/* ---- CPU reference ------------------------------------------------------------ */

static bool
unsharp_cpu (const ClfxParams *p, const ClfxPlan *plan, const ClfxImage *src,
             ClfxImage *dst, ClfxProbes *probes, ClfxError *error)
{
  const State    *st = plan->state;
  ClfxSamplerDesc s = { true, plan->addressing, false, plan->premultiply,
                        plan->decode };
  int             hx = clfx_gauss_half (&st->x), hy = clfx_gauss_half (&st->y);
  int             w = src->width, h = src->height;
  int             ai = src->channels == 4 ? 3 : src->channels == 2 ? 1 : -1;
  ClfxRect        rect = { -hx, -hy, w + 2 * hx, h + 2 * hy };
  ClfxImage       img = { 0 }, out = { 0 };
  double         *in = NULL, *b = NULL, *m = NULL;
  int             bw = rect.width, bh = rect.height, mw = w, mh = h;
  size_t          n_in = (size_t) bw * (size_t) bh * 4;
  bool            ok = false;

  (void) p;
  (void) probes;
  if (! clfx_ref_block_load (src, s, &rect, &img, error))
    return false;
  if (! (in = malloc (n_in * sizeof *in)) || ! (b = malloc (n_in * sizeof *b))
      || (st->use_mask
          && ! (m = malloc ((size_t) w * (size_t) h * 4 * sizeof *m)))
      || ! clfx_host_image_alloc (&out, w, h, 4, CLFX_DEPTH_FLOAT, error))
    {
      clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
      goto done;
    }
  for (int y = 0; y < bh; y++)
    for (int x = 0; x < bw; x++)
      for (int c = 0; c < 4; c++)
        in[((size_t) y * bw + x) * 4 + c] = clfx_image_get (&img, x, y, c);
  memcpy (b, in, n_in * sizeof *b);
  if (! clfx_gauss_ref (&b, &bw, &bh, &st->x, &st->y, st->edge_zero, error))
    goto done;
  if (st->use_mask)
    {
      double lo = st->threshold;
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
          {
            double sv[4], bv[4], d[3], lum, mv;
            clfx_gauss_ref_straight (in + ((size_t) (y + hy) * rect.width + x + hx) * 4,
                           ai, sv);
            clfx_gauss_ref_straight (b + ((size_t) y * w + x) * 4, ai, bv);
            for (int c = 0; c < 3; c++)
              d[c] = 2.0 * fabs (sv[c] - bv[c]);
            lum = ai == 3
                    ? 0.2224879400 * d[0] + 0.7169038389 * d[1]
                        + 0.0606082572 * d[2]
                    : d[0];
            mv = clfx_linear_to_srgb (lum) >= lo && lum <= 1.0 ? sv[3] : 0.0;
            for (int c = 0; c < 3; c++)
              m[((size_t) y * w + x) * 4 + c] = mv;
            m[((size_t) y * w + x) * 4 + 3] = sv[3];
          }
      if (! clfx_gauss_ref (&m, &mw, &mh, &st->mask, &st->mask, st->edge_zero,
                            error))
        goto done;
    }
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        double sv[4], bv[4], k = st->amount;
        clfx_gauss_ref_straight (in + ((size_t) (y + hy) * rect.width + x + hx) * 4, ai,
                       sv);
        clfx_gauss_ref_straight (b + ((size_t) y * w + x) * 4, ai, bv);
        if (m)
          {
            const double *mv = m + ((size_t) y * w + x) * 4;
            k *= mv[3] > 0.0 ? mv[0] / mv[3] : 0.0;
          }
        /* Past float's range clamped (straight, before alpha), back to
         * the canonical layout, premultiplied. */
        for (int c = 0; c < 3; c++)
          sv[c] += k * (sv[c] - bv[c]);
        clfx_gauss_ref_put (&out, x, y, sv, ai);
      }
  clfx_ref_block_store (&out, 0, 0, dst, plan->premultiply, plan->decode);
  ok = true;
done:
  free (in);
  free (b);
  free (m);
  clfx_host_image_free (&img);
  clfx_host_image_free (&out);
  return ok;
}

/* ---- tolerance ---------------------------------------------------------------- */

static void
unsharp_tolerance (const ClfxParams *p, const ClfxPlan *plan,
                   const ClfxDeviceInfo *dev, const ClfxImage *src,
                   const ClfxImage *dst, ClfxTolerance *tol)
{
  const State  *st = plan->state;
  ClfxTolerance blur;
  double        max_abs, f, k = fabs (st->amount);

  (void) p;
  (void) dev;
  f = clfx_gauss_tol_straight (tol, src, ! st->x.iir && ! st->y.iir,
                               &max_abs);
  clfx_tol_init (&blur);
  clfx_gauss_tolerance (&blur, &st->x, &st->y, max_abs);
  clfx_tol_scaled (tol, blur.abs_tol * (1.0 + k) * f);
  clfx_tol_clause (tol, "the blur's float error (%.3g) times 1 + amount, "
                        "over the smallest alpha (%g)",
                   blur.abs_tol, 1.0 / f);
  /* Dividing and multiplying by alpha, the difference, the product and
   * the sum: six roundings of values up to (1 + 2 amount) max. */
  clfx_tol_sum (tol, "the straight colour, d, amount d, in + amount d", 6,
                (1.0 + 2.0 * k) * f, max_abs);
  if (st->use_mask)
    {
      /* The mask's blur (values up to 1), then its straight value times
       * amount |d|. */
      clfx_tol_init (&blur);
      clfx_gauss_tolerance (&blur, &st->mask, &st->mask, 1.0);
      clfx_tol_scaled (tol, (blur.abs_tol + 2.0 * CLFX_FLOAT_EPS) * f * f
                            * k * 2.0 * max_abs);
      clfx_tol_clause (tol, "the threshold mask's blur times amount |d|");
    }
  if (plan->decode)
    clfx_tol_srgb (tol, dst->depth, plan->srgb_tables);
  clfx_tol_store (tol, dst->depth, false);
}

static const char *const uses_unsharp[] = { "filter", "std-dev", "amount",
                                            "threshold", "addressing", NULL };

const ClfxVariant clfx_variant_unsharp
  = { "unsharp", "unsharp",
      CLFX_N_ ("Unsharp mask (GEGL's unsharp-mask: in + amount (in - "
               "gaussian blur))"),
      uses_unsharp, unsharp_plan, NULL, unsharp_cl, unsharp_cpu,
      unsharp_tolerance, NULL, NULL, NULL, CLFX_UNSHARP_PLACE,
      NULL, NULL };
