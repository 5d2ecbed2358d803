/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-filter.c: the filter family on the device against its CPU
 * references (each variant's engine/ops file): every variant and method,
 * every edge handling the variant accepts, every depth and layout, odd
 * sizes, with a guard band around the result; tiles and bands bit for bit
 * one piece.  The checks at the family's limits (extreme and non-finite
 * values, windows wider than the image, the refusals) are in
 * test-filter-extremes.c, run from main here.  GEGL itself is the other
 * side in tests/gegl/test-gegl.py. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../device.h"
#include "clfx-params.h"
#include "clfx-run.h"
#include "filter-cases.h"

static const Case cases[] = {
  { "gaussian auto 1.5 (IIR both)", { NULL } },
  { "gaussian fir 0.5 x 3", { "method", "fir", "std-dev-x", "0.5",
                              "std-dev-y", "3", NULL } },
  { "gaussian auto 0.7 x 4 (FIR, IIR)", { "std-dev-x", "0.7", "std-dev-y",
                                          "4", NULL } },
  { "gaussian auto 6 x 0.3 (IIR, FIR)", { "std-dev-x", "6", "std-dev-y",
                                          "0.3", NULL } },
  { "gaussian iir 40", { "method", "iir", "std-dev-x", "40", "std-dev-y",
                         "40", NULL } },
  { "gaussian 0 x 2 (identity, IIR)", { "std-dev-x", "0", "std-dev-y", "2",
                                        NULL } },
  { "box 0", { "filter", "box", "radius", "0", NULL } },
  { "box 3", { "filter", "box", "radius", "3", NULL } },
  { "box 20", { "filter", "box", "radius", "20", NULL } },
  { "sobel", { "filter", "sobel", NULL } },
  { "sobel horizontal, sign", { "filter", "sobel", "vertical", "false",
                                NULL } },
  { "sobel vertical, magnitude", { "filter", "sobel", "horizontal", "false",
                                   "keep-sign", "false", NULL } },
  { "unsharp 3 (IIR)", { "filter", "unsharp", NULL } },
  { "unsharp 0.7 x 2 (FIR)", { "filter", "unsharp", "std-dev", "0.7",
                               "amount", "2", NULL } },
  { "unsharp 2, threshold 0.05", { "filter", "unsharp", "std-dev", "2",
                                   "amount", "3", "threshold", "0.05",
                                   NULL } },
  { "convolve sharpen 3x3", { "filter", "convolve", "matrix",
                              "0 -1 0; -1 5 -1; 0 -1 0", NULL } },
  { "convolve 5x5 zero sum, normalized", { "filter", "convolve", "matrix",
                                           "1 0 0 0 0  0 1 0 0 0  0 0 -4 0 0"
                                           "  0 0 0 1 0  0 0 0 0 1",
                                           NULL } },
  { "convolve 7x7 divisor, offset, no alpha weight",
    { "filter", "convolve", "matrix",
      "1 0 0 0 0 0 2  0 0 0 0 0 0 0  0 0 1 1 1 0 0  0 0 1 3 1 0 0"
      "  0 0 1 1 1 0 0  0 0 0 0 0 0 0  -1 0 0 0 0 0 0.5",
      "normalize", "false", "divisor", "7", "offset", "0.1", "alpha-weight",
      "false" } },
  { "convolve negative sum, normalized", { "filter", "convolve", "matrix",
                                           "0 -1 0 -1 -2 -1 0 -1 0", NULL } },
  { "convolve divisor 0 (copy)", { "filter", "convolve", "matrix",
                                   "1 2 1 2 4 2 1 2 1", "divisor", "0",
                                   "normalize", "false", NULL } },
  { "convolve 5x5 shift (ring of zeros dropped)",
    { "filter", "convolve", "matrix",
      "0 0 0 0 0  0 0 0 0 0  0 1 0 0 0  0 0 0 0 0  0 0 0 0 0", NULL } },
  { "bilateral 4, 8", { "filter", "bilateral", NULL } },
  { "bilateral 1, 8", { "filter", "bilateral", "blur-radius", "1", NULL } },
  { "bilateral 2.5 (window 5), 8", { "filter", "bilateral", "blur-radius",
                                     "2.5", NULL } },
  { "bilateral 0.5 (copy)", { "filter", "bilateral", "blur-radius", "0.5",
                              NULL } },
  { "bilateral 3, 0 (spatial only)", { "filter", "bilateral",
                                       "blur-radius", "3",
                                       "edge-preservation", "0", NULL } },
  { "bilateral 2, 100", { "filter", "bilateral", "blur-radius", "2",
                          "edge-preservation", "100", NULL } },
  { "gaussian fir 0.5 x 3, linear sampler",
    { "method", "fir", "std-dev-x", "0.5", "std-dev-y", "3",
      "sampler-filter", "linear", NULL } },
  { "box 3, linear sampler", { "filter", "box", "radius", "3",
                               "sampler-filter", "linear", NULL } },
  { "gaussian auto 2, linear sampler (an IIR: refused)",
    { "std-dev-x", "2", "sampler-filter", "linear", NULL } },
  { "convolve, linear sampler (refused)",
    { "filter", "convolve", "sampler-filter", "linear", NULL } },
  { "median square 1", { "filter", "median", "radius", "1", "neighborhood",
                         "square", NULL } },
  { "median circle 3", { "filter", "median", "radius", "3", NULL } },
  { "median circle 32", { "filter", "median", "radius", "32", NULL } },
  { "median diamond 2, percentile 10", { "filter", "median", "radius", "2",
                                         "neighborhood", "diamond",
                                         "percentile", "10", NULL } },
  { "median square 4, percentile 90", { "filter", "median", "radius", "4",
                                        "neighborhood", "square",
                                        "percentile", "90", NULL } },
  { "median 0", { "filter", "median", "radius", "0", NULL } },
  { "median circle 2, percentile 0", { "filter", "median", "radius", "2",
                                       "percentile", "0", NULL } },
  { "box 9 (running sums on CPU devices)", { "filter", "box", "radius", "9",
                                             NULL } },
};

/* The box whose CPU form runs sums: last. */
const Case *const box_runs_case = &cases[sizeof cases / sizeof cases[0] - 1];

/* The motion blurs' cases (motions, pieces): each is built for fewer
 * formats than the sweep in main would build it for. */
static const Case motion_cases[] = {
  { "motion-blur-linear 10, 0", { "filter", "motion-blur-linear", NULL } },
  { "motion-blur-linear 7.3, 30", { "filter", "motion-blur-linear",
                                    "length", "7.3", "angle", "30", NULL } },
  { "motion-blur-linear 12.5, -135", { "filter", "motion-blur-linear",
                                       "length", "12.5", "angle", "-135",
                                       NULL } },
  { "motion-blur-linear 0 (copy)", { "filter", "motion-blur-linear",
                                     "length", "0", NULL } },
  { "motion-blur-linear 90, 97 (longer than the image)",
    { "filter", "motion-blur-linear", "length", "90", "angle", "97",
      NULL } },
  { "motion-blur-zoom 0.1", { "filter", "motion-blur-zoom", NULL } },
  { "motion-blur-zoom 0.6 to (0.2, 0.9)", { "filter", "motion-blur-zoom",
                                            "factor", "0.6", "center-x",
                                            "0.2", "center-y", "0.9",
                                            NULL } },
  { "motion-blur-zoom -0.4 from (1.3, -0.5)",
    { "filter", "motion-blur-zoom", "factor", "-0.4", "center-x", "1.3",
      "center-y", "-0.5", NULL } },
  { "motion-blur-zoom 1 (to the centre)", { "filter", "motion-blur-zoom",
                                            "factor", "1", NULL } },
  { "motion-blur-zoom -3 (past the image)", { "filter", "motion-blur-zoom",
                                              "factor", "-3", NULL } },
  { "motion-blur-circular 5", { "filter", "motion-blur-circular", NULL } },
  { "motion-blur-circular 40 around (0.3, 0.8)",
    { "filter", "motion-blur-circular", "circular-angle", "40", "center-x",
      "0.3", "center-y", "0.8", NULL } },
  { "motion-blur-circular 200 around (-0.5, 1.4)",
    { "filter", "motion-blur-circular", "circular-angle", "200",
      "center-x", "-0.5", "center-y", "1.4", NULL } },
  { "motion-blur-circular 0", { "filter", "motion-blur-circular",
                                "circular-angle", "0", NULL } },
};

/* The iterative filters (iterations, pieces): few iterations on small
 * images, and the default once. */
static const Case iter_cases[] = {
  { "noise-reduction 4 (default)", { "filter", "noise-reduction", NULL } },
  { "noise-reduction 1", { "filter", "noise-reduction",
                           "noise-reduction-iterations", "1", NULL } },
  { "noise-reduction 2", { "filter", "noise-reduction",
                           "noise-reduction-iterations", "2", NULL } },
  { "noise-reduction 0 (copy)", { "filter", "noise-reduction",
                                  "noise-reduction-iterations", "0",
                                  NULL } },
  { "mean-curvature-blur 20 (default)", { "filter", "mean-curvature-blur",
                                          NULL } },
  { "mean-curvature-blur 1", { "filter", "mean-curvature-blur",
                               "mean-curvature-iterations", "1", NULL } },
  { "mean-curvature-blur 3", { "filter", "mean-curvature-blur",
                               "mean-curvature-iterations", "3", NULL } },
  { "mean-curvature-blur 0 (copy)", { "filter", "mean-curvature-blur",
                                      "mean-curvature-iterations", "0",
                                      NULL } },
};

/* The selective gaussian's cases (selectives, pieces). */
static const Case selective_cases[] = {
  { "gaussian-blur-selective 5, 0.2", { "filter", "gaussian-blur-selective",
                                        NULL } },
  { "gaussian-blur-selective 2.5 (window 5), 0.05",
    { "filter", "gaussian-blur-selective", "selective-blur-radius", "2.5",
      "max-delta", "0.05", NULL } },
  { "gaussian-blur-selective 1, 1 (every tap)",
    { "filter", "gaussian-blur-selective", "selective-blur-radius", "1",
      "max-delta", "1", NULL } },
  { "gaussian-blur-selective 3, 0 (equal values only)",
    { "filter", "gaussian-blur-selective", "selective-blur-radius", "3",
      "max-delta", "0", NULL } },
  { "gaussian-blur-selective 20 (wider than the image), 0.3",
    { "filter", "gaussian-blur-selective", "selective-blur-radius", "20",
      "max-delta", "0.3", NULL } },
};

/* The symmetric nearest neighbour's cases (selectives, pieces). */
static const Case snn_cases[] = {
  { "snn-mean 8, 2 pairs", { "filter", "snn-mean", NULL } },
  { "snn-mean 3, 1 pair", { "filter", "snn-mean", "snn-radius", "3", "pairs",
                            "1", NULL } },
  { "snn-mean 1, 2 pairs", { "filter", "snn-mean", "snn-radius", "1",
                             NULL } },
  { "snn-mean 0 (copy)", { "filter", "snn-mean", "snn-radius", "0", NULL } },
  { "snn-mean 20 (wider than the image), 1 pair",
    { "filter", "snn-mean", "snn-radius", "20", "pairs", "1", NULL } },
};

/* Graphs of the gaussian block and point operations: every edge
 * handling on float, then a few depths and layouts each (not the whole
 * sweep: their blurs are the gaussian's, swept above, and each format
 * costs a program build). */
static const Case graph_cases[] = {
  { "highpass 4 (IIR)", { "filter", "highpass", NULL } },
  { "highpass 0.7 (FIR), contrast 2", { "filter", "highpass",
                                        "highpass-std-dev", "0.7",
                                        "contrast", "2", NULL } },
  { "dog 1, 2 (IIR)", { "filter", "dog", NULL } },
  { "dog 0.5, 3 (FIR, IIR)", { "filter", "dog", "radius1", "0.5",
                               "radius2", "3", NULL } },
  { "dog 0.6, 0.9 (FIR, two halos)", { "filter", "dog", "radius1", "0.6",
                                       "radius2", "0.9", NULL } },
};

/* The test device: a run that fails frees the context it ran on (it is
 * not trusted again), and the next case makes a new one. */
static ClfxDeviceInfo device;

/* Which cases this run makes (argv[1]): the median's alone ("median"),
 * all the others ("others"; the two are suites of their own, each far
 * from meson's time limit), or every case (no argument). */
static enum { ALL_CASES, OTHER_CASES, MEDIAN_CASES } part;

static bool
is_median (const Case *c)
{
  for (int i = 0; c->args[i]; i += 2)
    if (! strcmp (c->args[i], "filter") && ! strcmp (c->args[i + 1], "median"))
      return true;
  return false;
}

/* Whether this run makes case c (the median's or the others'). */
static bool
in_part (const Case *c)
{
  return part == ALL_CASES || is_median (c) == (part == MEDIAN_CASES);
}

/* Applied to each source after the synthetic pattern (NULL: none). */
static void (*touch) (ClfxImage *src);

const char *const edges[5] = { "clamp-to-edge", "clamp", "repeat",
                               "mirrored-repeat", "none" };

bool
params_for (const Case *c, const char *edge, ClfxParams *p, ClfxError *e)
{
  clfx_params_defaults (&clfx_family_filter, p);
  for (int i = 0; c->args[i]; i += 2)
    if (! clfx_params_set (p, c->args[i], c->args[i + 1], e))
      return false;
  return clfx_params_set (p, "addressing", edge, e);
}

/* Gaussian with an IIR axis, unsharp with an IIR blur or a threshold
 * (its mask's blur is the IIR of sigma 1), highpass and dog with an IIR
 * blur. */
static bool
iir_case (const ClfxParams *p)
{
  const ClfxFilterParams *fp = CLFX_PARAMS_OF (p, ClfxFilterParams);
  const ClfxVariant      *v = clfx_params_variant (p);

  if (v == &clfx_variant_unsharp)
    return fp->unsharp.std_dev >= 1.0 || fp->unsharp.threshold > 0.0001;
  if (v == &clfx_variant_highpass)
    return fp->highpass.std_dev >= 1.0;
  if (v == &clfx_variant_dog)
    return fp->dog.radius1 >= 1.0 || fp->dog.radius2 >= 1.0;
  return v == &clfx_variant_gaussian
         && ((fp->gaussian.method == CLFX_GAUSS_IIR
              && (fp->gaussian.std_dev_x > 1e-5
                  || fp->gaussian.std_dev_y > 1e-5))
             || (fp->gaussian.method == CLFX_GAUSS_AUTO
                 && (fp->gaussian.std_dev_x >= 1.0
                     || fp->gaussian.std_dev_y >= 1.0)));
}

/* Variants that take edge handling none (the FIR blurs, the bilateral). */
static bool
none_case (const ClfxParams *p)
{
  const ClfxVariant *v = clfx_params_variant (p);

  return v == &clfx_variant_box || v == &clfx_variant_bilateral
         || v == &clfx_variant_motion_blur_linear
         || v == &clfx_variant_motion_blur_zoom
         || v == &clfx_variant_motion_blur_circular
         || v == &clfx_variant_gaussian_blur_selective
         || v == &clfx_variant_snn_mean
         || (v == &clfx_variant_gaussian && ! iir_case (p));
}

/* Variants that take sampler-filter linear (the FIR blurs). */
static bool
linear_case (const ClfxParams *p)
{
  const ClfxVariant *v = clfx_params_variant (p);

  return v == &clfx_variant_box
         || (v == &clfx_variant_gaussian && ! iir_case (p));
}

/* sampler-filter linear against nearest on the same device, on noise
 * (where a tap pair fetched at the wrong place shows at once): within
 * the hardware's weight precision on GPUs (8 fractional bits: 2^-9 of
 * the range per axis and fetch, and there are two axes), and within float
 * rounding on CPU devices, whose filter (PoCL's) computes its weights in
 * float. */
static void
linear_matches_nearest (ClfxContext *ctx)
{
  static const char *const filters[][2] = { { "gaussian", "2.3" },
                                            { "box", "3" } };

  for (size_t i = 0; i < 2; i++)
    {
      ClfxParams  p;
      ClfxImage   src, a = { 0 }, b = { 0 };
      ClfxTimings t, t2;
      ClfxError   e = { 0 };
      double      worst = 0.0, bound;
      unsigned    seed = 12345u;
      bool        ok;

      memset (&t, 0, sizeof t);
      memset (&t2, 0, sizeof t2);
      clfx_params_defaults (&clfx_family_filter, &p);
      clfx_params_set (&p, "filter", filters[i][0], &e);
      clfx_params_set (&p, "method", "fir", &e);
      clfx_params_set (&p, "std-dev-x", filters[i][1], &e);
      clfx_params_set (&p, "std-dev-y", "0.8", &e);
      clfx_params_set (&p, "radius", filters[i][1], &e);
      clfx_host_image_alloc (&src, 53, 41, 4, CLFX_DEPTH_FLOAT, &e);
      for (int y = 0; y < 41; y++)
        for (int x = 0; x < 53; x++)
          for (int c = 0; c < 4; c++)
            {
              seed = seed * 1664525u + 1013904223u;
              clfx_image_set (&src, x, y, c,
                              c == 3 ? 1.0f : (float) (seed >> 8) / 16777216.0f);
            }
      ok = clfx_host_image_alloc (&a, 53, 41, 4, CLFX_DEPTH_FLOAT, &e)
           && clfx_host_image_alloc (&b, 53, 41, 4, CLFX_DEPTH_FLOAT, &e)
           && clfx_run_on_context (ctx, &p, &src, &a, &t, NULL, NULL, &e)
           && clfx_params_set (&p, "sampler-filter", "linear", &e)
           && clfx_run_on_context (ctx, &p, &src, &b, &t2, NULL, NULL, &e);
      for (int y = 0; ok && y < 41; y++)
        for (int x = 0; x < 53; x++)
          for (int c = 0; c < 4; c++)
            worst = fmax (worst, fabs (clfx_image_get (&a, x, y, c)
                                       - clfx_image_get (&b, x, y, c)));
      bound = ctx->device.host_unified ? 1e-5 : 2.0 / 512.0;
      tap_ok (ok && worst <= bound,
              "%s %s, linear sampler against nearest on noise: worst %g "
              "(bound %g, %s)%s%s", filters[i][0], filters[i][1], worst,
              bound, ctx->device.host_unified ? "CPU device: float weights"
                                              : "8-bit hardware weights",
              ok ? "" : ": ", ok ? "" : e.message);
      clfx_timings_clear (&t);
      clfx_timings_clear (&t2);
      clfx_host_image_free (&src);
      clfx_host_image_free (&a);
      clfx_host_image_free (&b);
    }
}

/* Edge handling none renormalises the weights inside: a constant image
 * stays constant to the last pixel, where clamp (transparent outside)
 * darkens its edges. */
static void
none_keeps_constant (ClfxContext *ctx)
{
  static const char *const filters[][2] = { { "gaussian", "fir" },
                                            { "box", "fir" },
                                            { "bilateral", "fir" },
                                            { "motion-blur-linear", "fir" },
                                            { "motion-blur-zoom", "fir" },
                                            { "motion-blur-circular",
                                              "fir" } };

  for (size_t i = 0; i < sizeof filters / sizeof filters[0]; i++)
    for (int tiled = 0; tiled < 2; tiled++)
      {
        ClfxParams  p;
        ClfxImage   src, dst = { 0 };
        ClfxTimings t;
        ClfxError   e = { 0 };
        double      worst = 0.0;
        bool        ok;

        memset (&t, 0, sizeof t);
        clfx_params_defaults (&clfx_family_filter, &p);
        clfx_params_set (&p, "filter", filters[i][0], &e);
        clfx_params_set (&p, "method", filters[i][1], &e);
        clfx_params_set (&p, "std-dev-x", "4", &e);
        clfx_params_set (&p, "std-dev-y", "2.5", &e);
        clfx_params_set (&p, "radius", "6", &e);
        clfx_params_set (&p, "addressing", "none", &e);
        ctx->tuning.tile_width = tiled ? 16 : 0;
        ctx->tuning.tile_height = tiled ? 11 : 0;
        clfx_host_image_alloc (&src, 37, 23, 4, CLFX_DEPTH_FLOAT, &e);
        for (int y = 0; y < 23; y++)
          for (int x = 0; x < 37; x++)
            for (int c = 0; c < 4; c++)
              clfx_image_set (&src, x, y, c, c == 3 ? 1.0f : 0.7f);
        ok = clfx_host_image_alloc (&dst, 37, 23, 4, CLFX_DEPTH_FLOAT, &e)
             && clfx_run_on_context (ctx, &p, &src, &dst, &t, NULL, NULL,
                                     &e);
        for (int y = 0; ok && y < 23; y++)
          for (int x = 0; x < 37; x++)
            worst = fmax (worst, fabs (clfx_image_get (&dst, x, y, 0) - 0.7));
        tap_ok (ok && worst < 1e-6 && t.tiled == (tiled != 0),
                "%s, edge handling none%s: a constant stays constant "
                "(worst %g)%s%s", filters[i][0], tiled ? ", in tiles" : "",
                worst, ok ? "" : ": ", ok ? "" : e.message);
        ctx->tuning.tile_width = ctx->tuning.tile_height = 0;
        clfx_timings_clear (&t);
        clfx_host_image_free (&src);
        clfx_host_image_free (&dst);
      }
}

static void
one (ClfxContext **ctx, const Case *c, const char *edge, int w, int h,
     int channels, ClfxDepth depth, bool srgb)
{
  ClfxRunOptions opt = { NULL, true, 64, ctx, false, false };
  ClfxParams     p;
  ClfxRunResult  r;
  ClfxImage      src, dst;
  ClfxError      e = { 0 };
  bool           ok, refused;
  const char    *why = NULL;

  if (! in_part (c))
    return;
  memset (&r, 0, sizeof r);
  if (! params_for (c, edge, &p, &e))
    {
      tap_ok (false, "%s %s: %s", c->name, edge, e.message);
      return;
    }
  if (! *ctx && ! (*ctx = clfx_context_new (&device, &e)))
    {
      tap_ok (false, "%s %s: a new context: %s", c->name, edge, e.message);
      return;
    }
  clfx_host_image_alloc (&src, w, h, channels, depth, &e);
  clfx_host_image_synthetic (&src, (unsigned) (w * 3 + h));
  src.straight_alpha = channels != 1;
  src.transfer = srgb ? CLFX_TRC_SRGB : CLFX_TRC_LINEAR;
  if (touch)
    touch (&src);
  (*ctx)->guard_bytes = 64;
  ok = clfx_run (&p, &src, &dst, &opt, &r, &e);
  /* The IIR handles the edges as GEGL's does: clamp-to-edge and clamp;
   * none (outside taps left out) is for the FIR blurs. */
  refused = true;
  if (! strcmp (edge, "none") && ! none_case (&p))
    why = "none";
  else if (iir_case (&p) && strcmp (edge, "clamp-to-edge")
           && strcmp (edge, "clamp"))
    why = "clamp-to-edge or clamp";
  else if (CLFX_PARAMS_OF (&p, ClfxFilterParams)->sampler_filter
           && ! linear_case (&p))
    why = "sampler-filter";
  else
    refused = false;
  if (refused)
    tap_ok (! ok && e.code == CLFX_ERR_INVALID && strstr (e.message, why),
            "%s %s: refused, naming the way out (%s)", c->name, edge,
            e.message);
  else
    tap_ok (ok && r.path == CLFX_PATH_OPENCL && r.validation.passed,
            "%s %s %dx%d ch%d %s%s: validated (max abs %g, tolerance %g)%s%s",
            c->name, edge, w, h, channels, clfx_depth_name (depth),
            srgb ? " srgb" : "", ok ? r.validation.max_abs : 0.0,
            ok ? r.tolerance.abs_tol : 0.0, ok ? "" : ": ",
            ok ? "" : e.message);
  if (ok && ! r.validation.passed)
    tap_diag ("%zu mismatches, worst (%d,%d) ch %d expected %g got %g (%s)",
              r.validation.mismatches, r.validation.worst.x,
              r.validation.worst.y, r.validation.worst.channel,
              r.validation.worst.expected, r.validation.worst.actual,
              r.tolerance.basis);
  clfx_run_result_clear (&r);
  if (ok)
    clfx_host_image_free (&dst);
  clfx_host_image_free (&src);
}

/* FIR variants in small tiles (their halos cross every tile border) and
 * in bands: the bytes of one piece.  An IIR reads whole lines: one piece
 * whatever the tuning, the same bytes. */
static void
pieces (ClfxContext *ctx)
{
  const Case  *which[32] = { &cases[1], &cases[7], &cases[0], &cases[9],
                             NULL, NULL, NULL, NULL, box_runs_case, NULL,
                             &graph_cases[1], &graph_cases[4] };
  size_t       n_which = 12;
  ClfxContext *many = clfx_context_new (&ctx->device, NULL);

  /* The bilateral's, the median's and the convolutions' cases by name (on
   * CPU devices the bilateral and the convolution make several results
   * per work-item, where a tile's edge can fall in a different place). */
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    if (! strcmp (cases[c].name, "bilateral 2.5 (window 5), 8"))
      which[4] = &cases[c];
    else if (! strcmp (cases[c].name, "median circle 3"))
      which[5] = &cases[c];
    else if (! strcmp (cases[c].name, "convolve sharpen 3x3"))
      which[6] = &cases[c];
    else if (! strcmp (cases[c].name,
                       "convolve 7x7 divisor, offset, no alpha weight"))
      which[7] = &cases[c];
    else if (! strcmp (cases[c].name, "convolve 5x5 zero sum, normalized"))
      which[9] = &cases[c];
  /* The motion blurs read at positions of the whole image's. */
  for (size_t c = 0; c < sizeof motion_cases / sizeof motion_cases[0]
                     && n_which < 32; c++)
    which[n_which++] = &motion_cases[c];
  /* The iterations' halo: a piece reads the source once, grown by the
   * iterations, and iterates on that. */
  for (size_t c = 0; c < sizeof iter_cases / sizeof iter_cases[0]
                     && n_which < 32; c++)
    if (! strstr (iter_cases[c].name, "(copy)"))
      which[n_which++] = &iter_cases[c];
  /* The selective gaussian: its loaded piece and its window's halo. */
  for (size_t c = 0; c < 2 && n_which < 32; c++)
    which[n_which++] = &selective_cases[c];
  /* The symmetric nearest neighbour: both pair counts. */
  for (size_t c = 0; c < 2 && n_which < 32; c++)
    which[n_which++] = &snn_cases[c];
  if (! many || ! which[4] || ! which[5] || ! which[6] || ! which[7]
      || ! which[9])
    {
      tap_ok (false, "a second context, and the cases named");
      clfx_context_free (many);
      return;
    }
  /* flt: straight linear float, which CPU devices read and write where
   * it lies, opaque on the left (where the convolution's lanes skip the
   * alpha weighting) and not on the right: the convolutions. */
  for (int run = 0; run < 4; run++)
    for (size_t i = 0; i < n_which; i++)
      {
        int         flt = run / 2, mode = run % 2;
        ClfxParams  p;
        ClfxImage   src, a = { 0 }, b = { 0 };
        ClfxTimings ta, tb;
        ClfxError   e = { 0 };
        ClfxDepth   depth = flt ? CLFX_DEPTH_FLOAT : CLFX_DEPTH_U8;
        bool        ok, iir;

        if ((flt && which[i] != which[6] && which[i] != which[7]
             && which[i] != which[9])
            || ! in_part (which[i]))
          continue;

        memset (&ta, 0, sizeof ta);
        memset (&tb, 0, sizeof tb);
        many->tuning.tile_width = mode == 0 ? 23 : 0;
        many->tuning.tile_height = mode == 0 ? 17 : 0;
        many->tuning.band_bytes = mode == 1 ? 4096 : 0;
        many->zero_copy = mode == 1 ? false : ctx->zero_copy;
        params_for (which[i], "mirrored-repeat", &p, &e);
        iir = iir_case (&p);
        if (iir)
          params_for (which[i], "clamp", &p, &e);
        clfx_host_image_alloc (&src, 97, 61, 4, depth, &e);
        clfx_host_image_synthetic (&src, 9);
        src.transfer = flt ? CLFX_TRC_LINEAR : CLFX_TRC_SRGB;
        src.straight_alpha = true;
        for (int y = 0; flt && y < 61; y++)
          for (int x = 0; x < 48; x++)
            clfx_image_set (&src, x, y, 3, 1.0f);
        ok = clfx_host_image_alloc (&a, 97, 61, 4, depth, &e)
             && clfx_host_image_alloc (&b, 97, 61, 4, depth, &e)
             && clfx_run_on_context (ctx, &p, &src, &a, &ta, NULL, NULL, &e)
             && clfx_run_on_context (many, &p, &src, &b, &tb, NULL, NULL,
                                     &e);
        tap_ok (ok && (iir ? tb.pieces == 1 : tb.pieces > 1)
                  && tb.tiled == (mode == 0 && ! iir)
                  && ! memcmp (a.data, b.data, a.stride * 61),
                "%s%s in %d %s: the bytes of one piece%s%s", which[i]->name,
                flt ? " (linear float, half opaque)" : "", tb.pieces,
                tb.tiled ? "tiles" : "bands", ok ? "" : ": ",
                ok ? "" : e.message);
        clfx_timings_clear (&ta);
        clfx_timings_clear (&tb);
        clfx_host_image_free (&src);
        clfx_host_image_free (&a);
        clfx_host_image_free (&b);
      }
  clfx_context_free (many);
}

/* One run of p on ctx with a guard band of guard bytes into *out (a
 * new float RGBA image of src's size); its number of pieces in *pieces. */
static bool
run_guarded (ClfxContext *ctx, size_t guard, const ClfxParams *p,
             const ClfxImage *src, ClfxImage *out, int *pieces, ClfxError *e)
{
  ClfxTimings t;
  bool        ok;

  memset (&t, 0, sizeof t);
  ctx->guard_bytes = guard;
  ok = clfx_host_image_alloc (out, src->width, src->height, 4,
                              CLFX_DEPTH_FLOAT, e)
       && clfx_run_on_context (ctx, p, src, out, &t, NULL, NULL, e);
  *pieces = t.pieces;
  clfx_timings_clear (&t);
  return ok;
}

/* Both-axes IIR into a float RGBA result in one piece, with no guard
 * band, keeps its rows in the result itself (clfx_graph_result_float4):
 * the same bytes as through a rows buffer of its own (with a guard band
 * the result is not that shape), with zero-copy and through device
 * buffers; unsharp's IIR blur the same. */
static void
iir_rows_in_result (ClfxContext *ctx)
{
  ClfxContext *other = clfx_context_new (&ctx->device, NULL);
  const Case  *which3[3] = { &cases[0], &cases[4], NULL };
  ClfxImage    src;
  ClfxError    e = { 0 };

  clfx_host_image_alloc (&src, 97, 61, 4, CLFX_DEPTH_FLOAT, &e);
  clfx_host_image_synthetic (&src, 11);
  src.transfer = CLFX_TRC_LINEAR;
  src.straight_alpha = true;
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    if (! strcmp (cases[c].name, "unsharp 3 (IIR)"))
      which3[2] = &cases[c];
  for (int zc = 0; other && which3[2] && zc < 2; zc++)
    for (int c = 0; c < 3; c++)
      {
        const Case *which = which3[c];
        ClfxParams  p;
        ClfxImage   a = { 0 }, b = { 0 };
        int         na = 0, nb = 0;
        bool        ok;

        other->zero_copy = zc ? false : ctx->zero_copy;
        ok = params_for (which, "clamp-to-edge", &p, &e)
             && run_guarded (other, 64, &p, &src, &a, &na, &e)
             && run_guarded (other, 0, &p, &src, &b, &nb, &e);
        tap_ok (ok && nb == 1 && ! memcmp (a.data, b.data, a.stride * 61),
                "%s, float RGBA, %s: the rows in the result give the bytes "
                "of a rows buffer of their own%s%s", which->name,
                other->zero_copy ? "zero-copy" : "device buffers",
                ok ? "" : ": ", ok ? "" : e.message);
        clfx_host_image_free (&a);
        clfx_host_image_free (&b);
      }
  if (! other || ! which3[2])
    tap_ok (false, "a second context, and the unsharp case named");
  clfx_host_image_free (&src);
  clfx_context_free (other);
}

/* Whether a run launched the kernel `name`. */
static bool
ran_kernel (const ClfxTimings *t, const char *name)
{
  for (int k = 0; k < t->n_kernels; k++)
    if (! strcmp (t->kernels[k].name, name))
      return true;
  return false;
}

/* The IIR's band rows (CPU devices, results that cannot hold the rows)
 * four lines a work-item, and one where four lines' forward values do
 * not fit in local memory: a device that reports 40 KiB of it takes the
 * one-line kernel, and both give the same bytes (the same arithmetic per
 * line); the gaussian's and unsharp's (the gaussian block's kernels,
 * unsharp's build mixing as it stores).  Devices that never run the band
 * rows have nothing to show. */
static void
band_rows_forms (ClfxContext *ctx)
{
  static const char *const runs[][6] = {
    { "gaussian", "std-dev-x", "6", "std-dev-y", "4", "gauss_iir" },
    { "unsharp", "std-dev", "3", "amount", "0.7", "gauss_iir" },
  };
  ClfxDeviceInfo small = ctx->device;
  ClfxContext   *other;
  ClfxImage      src;
  ClfxError      e = { 0 };

  small.local_mem = 40 * 1024;
  if (! (other = clfx_context_new (&small, &e)))
    {
      tap_ok (false, "a context whose device has 40 KiB of local memory: %s",
              e.message);
      return;
    }
  other->zero_copy = ctx->zero_copy;
  clfx_host_image_alloc (&src, 1001, 43, 4, CLFX_DEPTH_U8, &e);
  clfx_host_image_synthetic (&src, 5);
  src.transfer = CLFX_TRC_SRGB;
  src.straight_alpha = true;
  for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++)
    {
      ClfxParams  p;
      ClfxImage   a = { 0 }, b = { 0 };
      ClfxTimings ta, tb;
      char        four[64], one[64];
      bool        ok;

      memset (&ta, 0, sizeof ta);
      memset (&tb, 0, sizeof tb);
      snprintf (four, sizeof four, "%s_rows4_band", runs[i][5]);
      snprintf (one, sizeof one, "%s_rows_band", runs[i][5]);
      clfx_params_defaults (&clfx_family_filter, &p);
      ok = clfx_params_set (&p, "filter", runs[i][0], &e)
           && clfx_params_set (&p, runs[i][1], runs[i][2], &e)
           && clfx_params_set (&p, runs[i][3], runs[i][4], &e)
           && clfx_host_image_alloc (&a, 1001, 43, 4, CLFX_DEPTH_U8, &e)
           && clfx_host_image_alloc (&b, 1001, 43, 4, CLFX_DEPTH_U8, &e)
           && clfx_run_on_context (ctx, &p, &src, &a, &ta, NULL, NULL, &e)
           && clfx_run_on_context (other, &p, &src, &b, &tb, NULL, NULL,
                                   &e);
      if (! ok)
        tap_ok (false, "%s 8-bit on two contexts: %s", runs[i][0],
                e.message);
      else if (ran_kernel (&ta, four) || ran_kernel (&tb, one))
        tap_ok (ran_kernel (&ta, four) && ran_kernel (&tb, one)
                  && ! memcmp (a.data, b.data, a.stride * 43),
                "%s: the band rows four lines a work-item (%s) and one (40 "
                "KiB of local memory: %s), the same bytes", runs[i][0],
                four, one);
      clfx_timings_clear (&ta);
      clfx_timings_clear (&tb);
      clfx_host_image_free (&a);
      clfx_host_image_free (&b);
    }
  clfx_host_image_free (&src);
  clfx_context_free (other);
}

/* ClfxRunOptions.src_scratch (the GEGL module's runs): where the variant
 * allows it and the context is a CPU device working in host memory, the
 * result is made in the source's own memory, with the bytes of a run into
 * an image of its own; elsewhere the source is left as it was.  Odd
 * sizes, every depth; the gaussian's IIR (its rows in the result for
 * float RGBA, in bands otherwise) and the global tone mappers go over the
 * source, the FIR, unsharp and durand02 do not. */
static void
over_source (ClfxContext *ctx)
{
  static const struct
  {
    const char       *name;
    const ClfxFamily *family;
    const char       *args[7];
    bool              allows;
  } runs[] = {
    { "gaussian 5 x 3 (IIR)", &clfx_family_filter,
      { "std-dev-x", "5", "std-dev-y", "3", NULL }, true },
    { "gaussian 5 x 0.5 (IIR, FIR)", &clfx_family_filter,
      { "std-dev-x", "5", "std-dev-y", "0.5", NULL }, false },
    { "unsharp", &clfx_family_filter, { "filter", "unsharp", NULL }, false },
    { "reinhard05", &clfx_family_tonemap, { "operator", "reinhard05", NULL },
      true },
    { "drago03", &clfx_family_tonemap,
      { "operator", "drago03", "exposure", "1", NULL }, true },
    { "durand02", &clfx_family_tonemap, { "operator", "durand02", NULL },
      false },
  };
  static const ClfxDepth depths[] = { CLFX_DEPTH_U8, CLFX_DEPTH_U16,
                                      CLFX_DEPTH_HALF, CLFX_DEPTH_FLOAT };
  bool cpu_host = ctx->zero_copy && ! strcmp (ctx->device.type, "cpu");

  for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++)
    for (size_t d = 0; d < sizeof depths / sizeof depths[0]; d++)
      {
        int            ch = d == 1 ? 2 : 4, w = 203, h = 77;
        ClfxParams     p;
        ClfxImage      src = { 0 }, keep = { 0 }, a = { 0 }, b = { 0 };
        ClfxRunResult  ra, rb;
        ClfxRunOptions own = { NULL, false, 0, &ctx, false, false };
        ClfxRunOptions over = { NULL, false, 0, &ctx, false, true };
        ClfxError      e = { 0 };
        bool           ok, expect = runs[i].allows && cpu_host;

        memset (&ra, 0, sizeof ra);
        memset (&rb, 0, sizeof rb);
        clfx_params_defaults (runs[i].family, &p);
        ok = clfx_host_image_alloc (&src, w, h, ch, depths[d], &e)
             && clfx_host_image_alloc (&keep, w, h, ch, depths[d], &e);
        for (int k = 0; ok && runs[i].args[k]; k += 2)
          ok = clfx_params_set (&p, runs[i].args[k], runs[i].args[k + 1],
                                &e);
        if (ok)
          {
            clfx_host_image_synthetic (&src, (unsigned) (7 + d));
            src.straight_alpha = true;
            src.transfer = depths[d] == CLFX_DEPTH_U8 ? CLFX_TRC_SRGB
                                                      : CLFX_TRC_LINEAR;
            memcpy (keep.data, src.data, src.stride * (size_t) h);
            ok = clfx_run (&p, &src, &a, &own, &ra, &e)
                 && clfx_run (&p, &src, &b, &over, &rb, &e);
          }
        if (! ok)
          tap_ok (false, "over the source, %s %s: %s", runs[i].name,
                  clfx_depth_name (depths[d]), e.message);
        else
          tap_ok (rb.over_source == expect && ! ra.over_source
                    && (b.data == src.data) == expect
                    && ! memcmp (a.data, b.data, a.stride * (size_t) h)
                    && (expect
                        || ! memcmp (src.data, keep.data,
                                     src.stride * (size_t) h)),
                  "%s %s x%d, source given up: %s, the bytes of a result "
                  "of its own", runs[i].name, clfx_depth_name (depths[d]),
                  ch,
                  expect ? "made over the source" : "the source untouched");
        clfx_run_result_clear (&ra);
        clfx_run_result_clear (&rb);
        clfx_host_image_free (&a);
        clfx_host_image_free (&b);
        clfx_host_image_free (&src);
        clfx_host_image_free (&keep);
      }
  /* Validation reads the source after the run: never over it. */
  {
    ClfxParams     p;
    ClfxImage      src = { 0 }, b = { 0 };
    ClfxRunResult  rb;
    ClfxRunOptions over = { NULL, true, 0, &ctx, false, true };
    ClfxError      e = { 0 };
    bool           ok;

    memset (&rb, 0, sizeof rb);
    clfx_params_defaults (&clfx_family_filter, &p);
    ok = clfx_params_set (&p, "std-dev-x", "4", &e)
         && clfx_params_set (&p, "std-dev-y", "4", &e)
         && clfx_host_image_alloc (&src, 64, 48, 4, CLFX_DEPTH_FLOAT, &e);
    if (ok)
      clfx_host_image_synthetic (&src, 3);
    ok = ok && clfx_run (&p, &src, &b, &over, &rb, &e);
    tap_ok (ok && rb.validated && rb.validation.passed && ! rb.over_source
              && b.data != src.data,
            "over the source with validate: a result of its own, validated "
            "(%s)", e.message);
    clfx_run_result_clear (&rb);
    clfx_host_image_free (&b);
    clfx_host_image_free (&src);
  }
}

/* The median where GEGL's rules bite: a transparent block wider than the
 * window (colour of no weight: 0), alpha 0.3/1024 (quantized to 0) beside
 * opaque texels, NaN, infinities and -0 in the colour (NaN sorts last and
 * reaches only the results it is the order statistic of). */
static void
median_specials (ClfxImage *src)
{
  bool hdr = src->depth == CLFX_DEPTH_HALF || src->depth == CLFX_DEPTH_FLOAT;
  int  alpha = src->channels - 1;

  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      {
        if (src->channels > 1 && x >= 8 && x < 24 && y >= 6 && y < 20)
          clfx_image_set (src, x, y, alpha, 0.0f);
        if (src->channels > 1 && (x + y) % 5 == 0 && x >= 30)
          clfx_image_set (src, x, y, alpha, hdr ? 0.3f / 1024.0f : 0.0f);
        if (hdr && (x * 7 + y * 3) % 11 == 0)
          clfx_image_set (src, x, y, 0,
                          (x + y) % 3 == 0   ? NAN
                          : (x + y) % 3 == 1 ? -INFINITY
                                             : -0.0f);
        if (hdr && src->channels == 4 && (x + 2 * y) % 13 == 0)
          clfx_image_set (src, x, y, 2, INFINITY);
      }
}

/* Opaque but for a transparent block (colour of no weight) and a block of
 * alpha 0.5 throughout: the sorting networks' windows, where every texel
 * weighs the same (opaque: the ranks the kernels are built with;
 * transparent: colour 0), beside windows of one partial weight and of
 * mixed weights (the radix selection). */
static void
median_opaque (ClfxImage *src)
{
  int alpha = src->channels - 1;

  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      clfx_image_set (src, x, y, alpha,
                      x >= 10 && x < 20 && y >= 5 && y < 15   ? 0.0f
                      : x >= 40 && x < 55 && y >= 20 && y < 35 ? 0.5f
                                                               : 1.0f);
}

/* One partial alpha everywhere (0.3: 8-bit code 77, else 307 of 1024):
 * tiles whose texels all weigh the same but less than an opaque one, so
 * the sliding ranks count to ceil (t / w) of the window's weight's
 * target t; the transparent edges of "clamp" mix them with weight 0. */
static void
median_partial (ClfxImage *src)
{
  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      clfx_image_set (src, x, y, src->channels - 1, 0.3f);
}

static void
medians (ClfxContext **ctx)
{
  /* Every size of network (kernels/median-networks.h) at a few
   * percentiles. */
  static const Case nets[] = {
    { "median diamond 1, opaque", { "filter", "median", "radius", "1",
                                    "neighborhood", "diamond", NULL } },
    { "median square 1, percentile 20, opaque",
      { "filter", "median", "radius", "1", "neighborhood", "square",
        "percentile", "20", NULL } },
    { "median diamond 2, percentile 90, opaque",
      { "filter", "median", "radius", "2", "neighborhood", "diamond",
        "percentile", "90", NULL } },
    { "median circle 2, opaque", { "filter", "median", "radius", "2",
                                   NULL } },
    { "median square 2, opaque", { "filter", "median", "radius", "2",
                                   "neighborhood", "square", NULL } },
    { "median diamond 3, percentile 65, opaque",
      { "filter", "median", "radius", "3", "neighborhood", "diamond",
        "percentile", "65", NULL } },
    { "median circle 3, percentile 35, opaque",
      { "filter", "median", "radius", "3", "percentile", "35", NULL } },
    { "median diamond 4, percentile 20, opaque",
      { "filter", "median", "radius", "4", "neighborhood", "diamond",
        "percentile", "20", NULL } },
    { "median square 3, percentile 70, opaque",
      { "filter", "median", "radius", "3", "neighborhood", "square",
        "percentile", "70", NULL } },
    /* Past the networks: the sliding ranks (median_rank_tile,
     * median_rank_cpu). */
    { "median diamond 6, percentile 75, opaque",
      { "filter", "median", "radius", "6", "neighborhood", "diamond",
        "percentile", "75", NULL } },
    { "median square 5, opaque", { "filter", "median", "radius", "5",
                                   "neighborhood", "square", NULL } },
  };
  static const Case special[] = {
    { "median circle 2, specials", { "filter", "median", "radius", "2",
                                     NULL } },
    { "median circle 4, percentile 100, specials",
      { "filter", "median", "radius", "4", "percentile", "100", NULL } },
    /* The sliding ranks at their largest radius. */
    { "median circle 8, percentile 40, specials",
      { "filter", "median", "radius", "8", "percentile", "40", NULL } },
  };
  static const Case partial[] = {
    { "median circle 6, percentile 35, alpha 0.3",
      { "filter", "median", "radius", "6", "percentile", "35", NULL } },
    { "median square 4, percentile 61, alpha 0.3",
      { "filter", "median", "radius", "4", "neighborhood", "square",
        "percentile", "61", NULL } },
  };
  static const int channels[] = { 4, 2 };

  touch = median_specials;
  for (size_t k = 0; k < sizeof special / sizeof *special; k++)
    for (int d = 0; d < CLFX_N_DEPTHS; d++)
      for (int l = 0; l < 2; l++)
        if (test_layout_taken ((int) k, d, l, 2))
          one (ctx, &special[k], (d + k) % 2 ? "clamp" : "clamp-to-edge",
               41, 29, channels[l], (ClfxDepth) d, d < 2);
  touch = median_opaque;
  for (size_t k = 0; k < sizeof nets / sizeof *nets; k++)
    for (int l = 0; l < 2; l++)
      one (ctx, &nets[k], l ? "clamp" : "clamp-to-edge", 67, 45, channels[l],
           (ClfxDepth) ((k + (size_t) l) % CLFX_N_DEPTHS),
           (k + (size_t) l) % CLFX_N_DEPTHS < 2);
  touch = median_partial;
  for (size_t k = 0; k < sizeof partial / sizeof *partial; k++)
    for (int l = 0; l < 2; l++)
      one (ctx, &partial[k], l ? "clamp" : "clamp-to-edge", 83, 71,
           channels[(k + (size_t) l) % 2],
           (ClfxDepth) ((2 * k + (size_t) l) % CLFX_N_DEPTHS),
           (2 * k + (size_t) l) % CLFX_N_DEPTHS < 2);
  touch = NULL;
}

/* The motion blurs: every edge handling on float RGBA, then each case at
 * one size, depth and layout in turn with GEGL's edge handling (clamp),
 * so that every blur meets every depth and layout (their tiles and
 * bands: pieces). */
static void
motions (ClfxContext **ctx)
{
  static const int sizes[][2] = { { 67, 45 }, { 1, 1 }, { 5, 130 } };
  static const int channels[] = { 4, 2, 1 };

  for (size_t m = 0; m < sizeof motion_cases / sizeof motion_cases[0]; m++)
    {
      int d = (int) (m % CLFX_N_DEPTHS), l = (int) (m % 3);
      for (size_t a = 0; a < sizeof edges / sizeof edges[0]; a++)
        one (ctx, &motion_cases[m], edges[a], 67, 45, 4, CLFX_DEPTH_FLOAT,
             false);
      one (ctx, &motion_cases[m], "clamp", sizes[l][0], sizes[l][1],
           channels[l], (ClfxDepth) d, d < 2);
    }
}

/* The iterative filters: every edge handling on float RGBA at 37 x 23
 * (none refused), then the other depths, each layout and odd sizes with
 * GEGL's edge handling (noise-reduction's clamp, two iterations;
 * mean-curvature-blur's clamp-to-edge, three); their tiles and bands
 * (8-bit RGBA): pieces.  Each format is a program build, the most of
 * these cases' time: both variants read the source through the same
 * loader (stencil-iterate.h), so each meets every depth and layout once
 * and the two together every pairing but float's. */
static void
iterations (ClfxContext **ctx)
{
  static const int sizes[][2] = { { 37, 23 }, { 1, 1 }, { 5, 64 } };
  static const int channels[] = { 4, 2, 1 };

  for (size_t m = 0; m < sizeof iter_cases / sizeof iter_cases[0]; m++)
    for (size_t a = 0; a < sizeof edges / sizeof edges[0]; a++)
      one (ctx, &iter_cases[m], edges[a], 37, 23, 4, CLFX_DEPTH_FLOAT,
           false);
  for (int k = 0; k < 3; k++)
    {
      one (ctx, &iter_cases[2], "clamp", sizes[k][0], sizes[k][1],
           channels[k], (ClfxDepth) k, k == 0);
      one (ctx, &iter_cases[6], "clamp-to-edge", sizes[(k + 2) % 3][0],
           sizes[(k + 2) % 3][1], channels[k == 0 ? 0 : 3 - k],
           (ClfxDepth) k, k == 0);
    }
}

/* The selective gaussian's and the symmetric nearest neighbour's cases
 * (the first the defaults, the last a window wider than the image): those
 * two in every edge handling on float RGBA, the others in one each; then
 * every depth and layout once, each with the next case in turn, on small
 * odd sizes, sRGB-encoded and linear, GEGL's edge handling and the
 * family's default (tiles and bands: pieces).  Each run costs about a
 * tenth of a second, so only these. */
static void
small_cases (ClfxContext **ctx, const Case *cs, size_t n)
{
  static const int sizes[][2] = { { 37, 23 }, { 1, 1 }, { 5, 13 } };
  static const int channels[] = { 4, 2, 1 };

  for (size_t m = 0; m < n; m++)
    for (size_t a = 0; a < sizeof edges / sizeof edges[0]; a++)
      if (m == 0 || m + 1 == n || a == m % 2)
        one (ctx, &cs[m], edges[a], 37, 23, 4, CLFX_DEPTH_FLOAT, false);
  for (int d = 0; d < CLFX_N_DEPTHS; d++)
    for (int l = 0; l < 3; l++)
      {
        size_t k = (size_t) (d * 3 + l);
        one (ctx, &cs[k % n], k % 2 ? "clamp" : "clamp-to-edge",
             sizes[k % 3][0], sizes[k % 3][1], channels[l], (ClfxDepth) d,
             (k / 2) % 2 == 0);
      }
}

int
main (int argc, char **argv)
{
  ClfxDeviceList list;
  int            skip = 0;
  ClfxContext   *ctx = test_context (&list, &skip);
  static const int sizes[][2] = { { 67, 45 }, { 1, 1 }, { 5, 130 } };

  if (argc > 1)
    part = ! strcmp (argv[1], "median") ? MEDIAN_CASES : OTHER_CASES;
  if (! ctx)
    return skip;
  device = ctx->device;
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    for (size_t a = 0; a < sizeof edges / sizeof edges[0]; a++)
      one (&ctx, &cases[c], edges[a], 67, 45, 4, CLFX_DEPTH_FLOAT, false);
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    for (int d = 0; d < CLFX_N_DEPTHS; d++)
      for (int layout = 0; layout < 3; layout++)
        {
          static const int channels[] = { 4, 2, 1 };
          for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c += 3)
            if (test_layout_taken ((int) c / 3, d, layout, 3))
              one (&ctx, &cases[c], "clamp-to-edge", sizes[s][0],
                   sizes[s][1], channels[layout], (ClfxDepth) d, d < 2);
          if (test_layout_taken (0, d, layout, 3))
            one (&ctx, box_runs_case, "clamp-to-edge", sizes[s][0],
                 sizes[s][1], channels[layout], (ClfxDepth) d, d < 2);
        }
  for (size_t c = 0; c < sizeof graph_cases / sizeof *graph_cases; c++)
    {
      for (size_t a = 0; a < sizeof edges / sizeof edges[0]; a++)
        one (&ctx, &graph_cases[c], edges[a], 67, 45, 4, CLFX_DEPTH_FLOAT,
             false);
      /* The IIR forms, whose store mixes (highpass) or not (dog), at two
       * depths and layouts each, every size; the FIR forms at one. */
      for (int k = 0; k < (c % 2 ? 1 : 2); k++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
          {
            int d = (int) (c + 2 * (size_t) k) % CLFX_N_DEPTHS;
            one (&ctx, &graph_cases[c], "clamp-to-edge", sizes[s][0],
                 sizes[s][1], (int[]) { 2, 1, 4 }[(c + (size_t) k) % 3],
                 (ClfxDepth) d, d < 2);
          }
    }
  if (ctx)
    pieces (ctx);
  if (ctx && part != MEDIAN_CASES)
    {
      iir_rows_in_result (ctx);
      band_rows_forms (ctx);
      over_source (ctx);
      none_keeps_constant (ctx);
      folded_pieces (ctx);
      linear_matches_nearest (ctx);
      bilateral_nonfinite (ctx);
      box_nonfinite (ctx);
      box_no_drift (ctx);
      extremes (ctx);
      motions (&ctx);
      iterations (&ctx);
      small_cases (&ctx, selective_cases,
                   sizeof selective_cases / sizeof selective_cases[0]);
      small_cases (&ctx, snn_cases, sizeof snn_cases / sizeof snn_cases[0]);
    }
  /* Last: the median's large networks take a GPU's compiler longest. */
  if (part != OTHER_CASES)
    medians (&ctx);
  if (part != MEDIAN_CASES)
    refusals ();
  clfx_context_free (ctx);
  clfx_device_list_free (&list);
  return tap_done ();
}
