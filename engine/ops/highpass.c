/* SPDX-License-Identifier: GPL-3.0-or-later */
/* highpass.c: the filter family's highpass variant, gegl:high-pass of
 * GEGL 0.4.62 (docs/FILTERS.md).  GEGL's graph, each node in its own
 * format:
 *
 *   B   = gaussian-blur (in, std-dev)        auto FIR / IIR, premultiplied
 *   i   = 1 - B~, alpha Ba / 2               invert-gamma, opacity 0.5
 *                                            (straight, sRGB-encoded ~)
 *   o   = i over in~                         over, srgb: premultiplied ~
 *   out = ((o^0.4545 - 0.5) contrast + 0.5)^2.2
 *                                            gamma, add, multiply, add,
 *                                            gamma on straight linear
 *                                            colour, powers odd for x < 0
 *
 * so alpha is Ba / 2 + a - a Ba / 2 and colour a mix of the inverted blur
 * and the input in sRGB-encoded values, taken back to linear light before
 * GEGL's two powers.  Nothing is clipped; a result of finite values past
 * float's range is clamped to +-FLT_MAX.
 *
 * On the device: both axes IIR (std-dev from 1), the gaussian block's
 * recursion from the source with each result mixed as it is stored
 * (highpass-iir.cl); otherwise the loaded source, its blur and a mix
 * (highpass.cl).  The reference: the gaussian's in double, then the same
 * formulas in double. */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "../../kernels/clfx-common.h"
#include "../blocks/gauss.h"
#include "clfx-params.h"
#include "filter-common.h"
#include "highpass.h"

typedef struct
{
  ClfxGaussAxis x, y;
  bool          edge_zero;
  float         contrast;
} State;

static void
state_free (void *data)
{
  State *st = data;

  clfx_gauss_axis_clear (&st->x);
  clfx_gauss_axis_clear (&st->y);
  free (st);
}

static bool
highpass_plan (const ClfxParams *p, const ClfxImage *src, ClfxPlan *plan,
               ClfxError *error)
{
  const ClfxFilterParams *fp = CLFX_PARAMS_OF (p, ClfxFilterParams);
  State                  *st;

  if (! (st = clfx_filter_mix_state (plan, sizeof *st, state_free,
                                     fp->addressing, fp->sampler_filter,
                                     "highpass", error)))
    return false;
  st->edge_zero = fp->addressing == CLFX_ADDR_CLAMP;
  st->contrast = (float) fp->highpass.contrast;
  if (! clfx_gauss_axes_auto (&st->x, &st->y, fp->highpass.std_dev,
                              fp->addressing, "highpass", error))
    return false;
  /* The loaded source, the blur, its intermediate (the IIR: the forward
   * values). */
  clfx_gauss_plan_mix (plan, src, fp->addressing, clfx_gauss_half (&st->x),
                       clfx_gauss_half (&st->y), st->x.iir, 16 * 4);
  plan->bytes_fixed = sizeof (float) * (size_t) (st->x.n + st->y.n);
  return true;
}

static bool
highpass_cl (ClfxGraph *g, const ClfxParams *p, ClfxError *error)
{
  const State    *st = clfx_graph_plan (g)->state;
  const ClfxTile *t = clfx_graph_tile (g);
  int             w = t->out.width, h = t->out.height;
  cl_int2         off = { { clfx_gauss_half (&st->x),
                            clfx_gauss_half (&st->y) } };
  ClfxLaunch      lx = { "highpass_mix", NULL, NULL, 2,
                         { (size_t) w, (size_t) h }, { 0, 0 } };
  cl_mem          in, b;

  (void) p;
  /* Both axes IIR: each result mixed as the recursion stores it, with
   * no loaded source and no float images. */
  if (st->x.iir)
    return clfx_gauss_iir_both (g, &st->x, &st->y, st->edge_zero,
                                "highpass-iir", st->contrast, error);
  return (in = clfx_block_load (g, "source", &t->in, error))
         && (b = clfx_gauss_blur (g, "blurred", &st->x, &st->y, in, w, h,
                                  st->edge_zero, error))
         && CLFX_LAUNCH (g, &lx, error, CLFX_ARG (in), CLFX_ARG (b),
                         CLFX_ARG (off), CLFX_FLOAT (st->contrast),
                         CLFX_DST);
}

/* ---- CPU reference ------------------------------------------------------------ */

/* GEGL's gamma: the power of |v|, with v's sign. */
static double
odd_pow (double v, double e)
{
  return v >= 0.0 ? pow (v, e) : -pow (-v, e);
}

/* GEGL's graph on one pixel: straight linear s and blur b into o. */
static void
highpass_pixel (const double s[4], const double b[4], double contrast,
                double o[4])
{
  double ab = b[3] * 0.5, oa = ab + s[3] - ab * s[3];

  for (int c = 0; c < 3; c++)
    {
      double inv = 1.0 - clfx_linear_to_srgb (b[c]);
      double oc = inv * ab + clfx_linear_to_srgb (s[c]) * s[3] * (1.0 - ab);
      double lin = clfx_srgb_to_linear (oa > 0.0 ? oc / oa : 0.0);
      o[c] = odd_pow ((odd_pow (lin, 0.4545) - 0.5) * contrast + 0.5, 2.2);
    }
  o[3] = oa;
}

static bool
highpass_cpu (const ClfxParams *p, const ClfxPlan *plan, const ClfxImage *src,
              ClfxImage *dst, ClfxProbes *probes, ClfxError *error)
{
  const State    *st = plan->state;
  ClfxSamplerDesc s = { true, plan->addressing, false, plan->premultiply,
                        plan->decode };
  int             hx = clfx_gauss_half (&st->x), hy = clfx_gauss_half (&st->y);
  int             w = src->width, h = src->height, bw = w + 2 * hx;
  int             bh = h + 2 * hy;
  int             ai = src->channels == 4 ? 3 : src->channels == 2 ? 1 : -1;
  ClfxImage       out = { 0 };
  double         *in, *b = NULL;
  size_t          n = (size_t) bw * (size_t) bh * 4;
  bool            ok = false;

  (void) p;
  (void) probes;
  if (! (in = clfx_gauss_ref_load (src, s, hx, hy, error)))
    return false;
  if (! (b = malloc (n * sizeof *b)))
    {
      clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
      goto done;
    }
  for (size_t i = 0; i < n; i++)
    b[i] = in[i];
  if (! clfx_gauss_ref (&b, &bw, &bh, &st->x, &st->y, st->edge_zero, error)
      || ! clfx_host_image_alloc (&out, w, h, 4, CLFX_DEPTH_FLOAT, error))
    goto done;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        double sv[4], bv[4], o[4];
        clfx_gauss_ref_straight (
          in + ((size_t) (y + hy) * (size_t) (w + 2 * hx) + x + hx) * 4, ai,
          sv);
        clfx_gauss_ref_straight (b + ((size_t) y * w + x) * 4, ai, bv);
        highpass_pixel (sv, bv, st->contrast, o);
        clfx_gauss_ref_put (&out, x, y, o, ai);
      }
  clfx_ref_block_store (&out, 0, 0, dst, plan->premultiply, plan->decode);
  ok = true;
done:
  free (in);
  free (b);
  clfx_host_image_free (&out);
  return ok;
}

/* ---- tolerance ---------------------------------------------------------------- */

/* GEGL's two powers and the contrast, from linear light: increasing in
 * lin for contrast >= 0. */
static double
powers (double lin, double c)
{
  return odd_pow ((odd_pow (lin, 0.4545) - 0.5) * c + 0.5, 2.2);
}

/* t = (lin^0.4545 - 0.5) contrast + 0.5, GEGL's powers' middle. */
static double
powers_t (double lin, double c)
{
  return (odd_pow (lin, 0.4545) - 0.5) * c + 0.5;
}

/* sup (F (x + e) - F (x)) for x in [a, b], F = powers (): it is
 * increasing, so F (b + e) - F (a) bounds it; away from 0 (a and b + e of
 * one sign, at least e from it) e times the largest slope, 2.2 |t|^1.2 c
 * 0.4545 |x|^-0.5455, taken at the smallest |x| and the ends' largest
 * |t| (t is monotone). */
static double
powers_step (double a, double b, double e, double c)
{
  double lo = fmin (fabs (a), fabs (b + e)), tt;

  if (a * (b + e) <= 0.0 || lo < e)
    return powers (b + e, c) - powers (a, c);
  tt = fmax (fabs (powers_t (a, c)), fabs (powers_t (b + e, c)));
  return e * 2.2 * pow (tt, 1.2) * c * 0.4545 * pow (lo, -0.5455);
}

/* How far powers () moves when lin moves by e, anywhere in [-l, l], over
 * a grid geometric from 0 both ways.  Near 0, x^0.4545 is not Lipschitz:
 * where the contrast is not 1 (so t is not 0 there) the bound grows as
 * e^0.4545. */
static double
powers_modulus (double e, double l, double c)
{
  double worst = 0.0, lo = 1e-3 * e;

  worst = powers_step (-lo, lo, e, c);
  for (double d = lo; d < l + e; d *= 1.05)
    worst = fmax (worst, fmax (powers_step (d, d * 1.05, e, c),
                               powers_step (-d * 1.05, -d, e, c)));
  return worst;
}

/* The absolute error of the kernels' |x|^e (exp2 (e log2 |x|)) for |x|
 * up to x_max: exp2's 3 ulp and the argument's error, log2's 3 ulp and
 * the product's rounding relative to e log2 |x|, which exp2 turns into
 * ln 2 times that, relative.  Below 1, x^e e |log2 x| is at most 1 / (e
 * ln 2) (e: Euler's), whatever the exponent. */
static double
pow_error (double x_max, double e)
{
  double p = pow (x_max, e);

  return CLFX_FLOAT_EPS
         * (6.0 * p
            + 7.0 * log (2.0)
                * fmax (1.0 / (exp (1.0) * log (2.0)),
                        p * e * log2 (fmax (x_max, 1.0))));
}

static void
highpass_tolerance (const ClfxParams *p, const ClfxPlan *plan,
                    const ClfxDeviceInfo *dev, const ClfxImage *src,
                    const ClfxImage *dst, ClfxTolerance *tol)
{
  const State  *st = plan->state;
  ClfxTolerance blur;
  double        u = CLFX_FLOAT_EPS, c = st->contrast, m, pe, pr, le, lr;
  double        lmax, tmax, t1, a, r, k, min_alpha;

  (void) p;
  (void) dev;
  /* The powers are not linear in the values: no magnitude declared.  The
   * read's bound goes into the blur's, through the chain below.  Errors
   * of straight colour grow by 1 / its alpha, but validation weighs the
   * result's colour by its alpha, which is at least half the blur's and
   * at least the input's: they come back multiplied by at least half of
   * it (k, 2 where the source has alpha below 1), where unsharp's 1 / the
   * smallest alpha would make the bound 255 times what it is on GIMP's
   * 8-bit layers. */
  clfx_gauss_tol_straight (&blur, src, false, &m);
  clfx_filter_max_abs (src, &min_alpha);
  k = min_alpha < 1.0 ? 2.0 : 1.0;
  clfx_gauss_tolerance (&blur, &st->x, &st->y, m);
  /* p, the mean of the encoded inverted blur and input: absolute errors
   * (the encode's slope, 12.92 at most, on the blur's error; its power
   * below 1) and relative ones (its power above 1, the mix's roundings). */
  pe = k * (12.92 * blur.abs_tol + 1.055 * pow_error (1.0, 1.0 / 2.4))
       + 8.0 * u;
  pr = k * u * (6.0 + 4.9 * fabs (log2 (fmax (m, 1.0))) / 2.4) + 8.0 * u;
  /* lin, the decode of p: slope at most 2.3 for p up to 1; above, 2.4
   * lin / p, so relative (an absolute error in p >= 1 is a relative one
   * at most as large); its power's error, relative above 1. */
  lmax = clfx_srgb_to_linear (fmax (1.0, clfx_linear_to_srgb (m)));
  lr = 2.3 * pe + 2.4 * pr
       + u * (6.0 + 4.9 * 2.4 * log2 (fmax (1.0, (clfx_linear_to_srgb (m)
                                                  + 0.055)
                                                 / 1.055)));
  le = 2.3 * pe + pow_error (1.0, 2.4) + lr;
  /* The powers: absolute errors through their modulus of continuity on
   * [-lmax, lmax] (x^0.4545 is not Lipschitz at 0: with a contrast other
   * than 1 it grows as e^0.4545), with their own errors on values up to
   * 1; relative ones above 1, where out's elasticity in lin is at most
   * 2 c / (c + 1) (0.9999 c g / t at g = 1; 1 for a contrast up to 1),
   * with the powers' errors there and the roundings of t and of alpha. */
  tmax = (pow (lmax, 0.4545) + 0.5) * c + 0.5;
  t1 = 1.5 * c + 0.5;
  a = powers_modulus (le, lmax, c)
      + 2.2 * pow (t1, 1.2) * (pow_error (1.0, 0.4545) * c + 3.0 * u * t1)
      + pow_error (t1, 2.2) + 2.0 * u * pow (t1, 2.2);
  r = fmax (1.0, 2.0 * c / (c + 1.0)) * lr + 2.0 * u * (6.0 + 4.9 * 0.4545 * fabs (log2 (fmax (lmax, 1.0))))
      + u * (6.0 + 4.9 * 2.2 * log2 (fmax (tmax, 1.0))) + 6.0 * u;
  clfx_tol_init (tol);
  clfx_tol_scaled (tol, a);
  tol->rel_tol += r;
  clfx_tol_clause (tol,
                   "the blur's float error (%.3g) through the sRGB encode, "
                   "the mix and the decode, then GEGL's powers with "
                   "contrast %g (their modulus of continuity: e^0.4545 "
                   "near 0 where the contrast is not 1): %.3g, and %.3g "
                   "relative where the values exceed 1",
                   blur.abs_tol, c, a, r);
  if (plan->decode)
    clfx_tol_srgb (tol, dst->depth, plan->srgb_tables);
  clfx_tol_store (tol, dst->depth, false);
}

static const char *const uses_highpass[] = { "filter", "highpass-std-dev",
                                             "contrast", "addressing", NULL };

const ClfxVariant clfx_variant_highpass
  = { "highpass", "highpass",
      CLFX_N_ ("High pass (GEGL's high-pass: the inverted blur over the "
               "image at half opacity, in sRGB-encoded values)"),
      uses_highpass, highpass_plan, NULL, highpass_cl, highpass_cpu,
      highpass_tolerance, NULL, NULL, NULL, CLFX_HIGHPASS_PLACE, NULL,
      NULL };
