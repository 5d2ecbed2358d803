/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-filter-extremes.c: the filter family's checks at its limits, the
 * second file of test-filter (filter-cases.h; test-filter.c runs them):
 * windows wider than the image, non-finite texels, values at float's
 * limits, and the parameters it refuses. */
#define _POSIX_C_SOURCE 200809L
/* The checks are numbered and counted with test-filter.c's (tap.h). */
#define TAP_COUNTED_ELSEWHERE
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../device.h"
#include "clfx-run.h"
#include "filter-cases.h"

/* Windows wider than the image, folded (filter-common.h, ClfxFold), in
 * tiles of 16 x 11 and in one piece: the same bytes, every edge handling
 * (a tile reads the folded offsets within its halo, the side at most),
 * 8-bit sRGB with straight alpha so that the loads decode. */
void
folded_pieces (ClfxContext *ctx)
{
  static const Case runs[] = {
    { "bilateral 1000", { "filter", "bilateral", "blur-radius", "1000",
                          NULL } },
    { "gaussian fir 1500 x 0.5", { "method", "fir", "std-dev-x", "1500",
                                   "std-dev-y", "0.5", NULL } },
    { "box 1000", { "filter", "box", "radius", "1000", NULL } },
  };
  ClfxContext *tiled = clfx_context_new (&ctx->device, NULL);

  if (! tiled)
    {
      tap_ok (false, "a second context");
      return;
    }
  tiled->tuning.tile_width = 16;
  tiled->tuning.tile_height = 11;
  for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++)
    for (size_t a = 0; a < sizeof edges / sizeof edges[0]; a++)
      {
        ClfxParams  p;
        ClfxImage   src, one = { 0 }, many = { 0 };
        ClfxTimings t1, tn;
        ClfxError   e = { 0 };
        bool        ok;

        memset (&t1, 0, sizeof t1);
        memset (&tn, 0, sizeof tn);
        ok = params_for (&runs[i], edges[a], &p, &e)
             && clfx_host_image_alloc (&src, 40, 30, 4, CLFX_DEPTH_U8, &e)
             && clfx_host_image_alloc (&one, 40, 30, 4, CLFX_DEPTH_U8, &e)
             && clfx_host_image_alloc (&many, 40, 30, 4, CLFX_DEPTH_U8, &e);
        if (ok)
          {
            clfx_host_image_synthetic (&src, 13);
            src.transfer = CLFX_TRC_SRGB;
            src.straight_alpha = true;
            ok = clfx_run_on_context (ctx, &p, &src, &one, &t1, NULL, NULL,
                                      &e)
                 && clfx_run_on_context (tiled, &p, &src, &many, &tn, NULL,
                                         NULL, &e);
          }
        tap_ok (ok && tn.tiled && tn.pieces > 1
                  && ! memcmp (one.data, many.data, one.stride * 30),
                "%s %s, folded: %d tiles give the bytes of one piece%s%s",
                runs[i].name, edges[a], tn.pieces, ok ? "" : ": ",
                ok ? "" : e.message);
        clfx_timings_clear (&t1);
        clfx_timings_clear (&tn);
        clfx_host_image_free (&src);
        clfx_host_image_free (&one);
        clfx_host_image_free (&many);
      }
  clfx_context_free (tiled);
}

/* Non-finite texels in the bilateral: a NaN or infinite neighbour weighs
 * nothing (the windows that hold it stay finite), a non-finite centre
 * passes through; the CPU reference does the same and validation
 * compares NaN with NaN. */
void
bilateral_nonfinite (ClfxContext *ctx)
{
  static const Case c = { "bilateral 2, 8", { "filter", "bilateral",
                                              "blur-radius", "2", NULL } };
  ClfxRunOptions opt = { NULL, true, 64, &ctx, false, false };
  ClfxParams     p;
  ClfxImage      src, dst;
  ClfxRunResult  r;
  ClfxError      e = { 0 };
  bool           ok, kept = true;
  int            odd = 0;

  memset (&r, 0, sizeof r);
  params_for (&c, "clamp-to-edge", &p, &e);
  clfx_host_image_alloc (&src, 31, 23, 4, CLFX_DEPTH_FLOAT, &e);
  clfx_host_image_synthetic (&src, 5);
  src.straight_alpha = true;
  clfx_image_set (&src, 10, 10, 0, NAN);
  clfx_image_set (&src, 20, 5, 3, INFINITY);
  clfx_image_set (&src, 0, 22, 1, -INFINITY);
  ok = clfx_run (&p, &src, &dst, &opt, &r, &e);
  if (ok)
    {
      for (int y = 0; y < 23; y++)
        for (int x = 0; x < 31; x++)
          for (int k = 0; k < 4; k++)
            {
              float v = clfx_image_get (&dst, x, y, k);
              float s = clfx_image_get (&src, x, y, k);
              if (! isfinite (v))
                odd++;
              if (! isfinite (s) && ! (isnan (s) ? isnan (v) : v == s))
                kept = false;
            }
      clfx_host_image_free (&dst);
    }
  tap_ok (ok && r.path == CLFX_PATH_OPENCL && r.validation.passed
            && odd == 3 && kept,
          "bilateral, NaN and infinities in a float image: validated, the "
          "non-finite centres passed through, every other value finite "
          "(%d non-finite values)%s%s", odd, ok ? "" : ": ",
          ok ? "" : e.message);
  clfx_run_result_clear (&r);
  clfx_host_image_free (&src);
}

/* i clamped to 0 .. n - 1: clamp-to-edge. */
static int
clamp_index (int i, int n)
{
  return i < 0 ? 0 : i >= n ? n - 1 : i;
}

/* Non-finite texels in the box (a float image, channels alike): a result
 * is NaN or infinite exactly where its window holds a NaN or an infinity
 * of that channel, so none spreads beyond the windows that read it (a
 * running sum that carried one on would leave NaN behind it), and the
 * rest validates against the reference. */
void
box_nonfinite (ClfxContext *ctx)
{
  static const int W = 83, H = 47, R = 9;
  ClfxRunOptions   opt = { NULL, true, 64, &ctx, false, false };
  ClfxParams       p;
  ClfxImage        src, dst;
  ClfxRunResult    r;
  ClfxError        e = { 0 };
  bool             ok;
  int              wrong = 0, odd = 0;

  memset (&r, 0, sizeof r);
  params_for (box_runs_case, "clamp-to-edge", &p, &e);
  clfx_host_image_alloc (&src, W, H, 4, CLFX_DEPTH_FLOAT, &e);
  clfx_host_image_synthetic (&src, 7);
  src.straight_alpha = false;
  clfx_image_set (&src, 20, 10, 0, NAN);
  clfx_image_set (&src, 40, 30, 1, INFINITY);
  clfx_image_set (&src, 44, 33, 1, -INFINITY);
  clfx_image_set (&src, 70, 5, 2, INFINITY);
  ok = clfx_run (&p, &src, &dst, &opt, &r, &e);
  for (int y = 0; ok && y < H; y++)
    for (int x = 0; x < W; x++)
      for (int c = 0; c < 4; c++)
        {
          bool held = false;
          for (int j = -R; j <= R; j++)
            for (int i = -R; i <= R; i++)
              held |= ! isfinite (clfx_image_get (
                &src, clamp_index (x + i, W), clamp_index (y + j, H), c));
          bool got = ! isfinite (clfx_image_get (&dst, x, y, c));
          odd += got;
          wrong += got != held;
        }
  tap_ok (ok && r.path == CLFX_PATH_OPENCL && r.validation.passed
            && wrong == 0 && odd > 0,
          "box %d, NaN and infinities in a float image: validated, %d "
          "non-finite results, %d where the window holds no non-finite "
          "texel or the other way round%s%s", R, odd, wrong,
          ok ? "" : ": ", ok ? "" : e.message);
  clfx_run_result_clear (&r);
  if (ok)
    clfx_host_image_free (&dst);
  clfx_host_image_free (&src);
}

/* A bright texel (1e6) among dark ones (1e-3 .. 2e-3): results whose
 * window no longer holds it are within the float sum's own bound of the
 * exact mean, relative (n + 1) 2^-24 for positive terms.  GEGL's running
 * sum in float drifts there (docs/FILTERS.md), and so would a running sum
 * that let the bright value's rounding follow it along the row. */
void
box_no_drift (ClfxContext *ctx)
{
  static const int W = 97, H = 29, R = 9;
  ClfxRunOptions   opt = { NULL, false, 0, &ctx, false, false };
  ClfxParams       p;
  ClfxImage        src, dst;
  ClfxRunResult    r;
  ClfxError        e = { 0 };
  double           worst = 0.0, bound = (2 * R + 2) / 16777216.0;
  bool             ok;

  memset (&r, 0, sizeof r);
  params_for (box_runs_case, "clamp-to-edge", &p, &e);
  clfx_host_image_alloc (&src, W, H, 4, CLFX_DEPTH_FLOAT, &e);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      for (int c = 0; c < 4; c++)
        clfx_image_set (&src, x, y, c,
                        1e-3f * (1.0f + (float) ((x * 7 + y * 3 + c) % 11)
                                          / 11.0f));
  src.straight_alpha = false;
  clfx_image_set (&src, 33, 14, 0, 1e6f);
  ok = clfx_run (&p, &src, &dst, &opt, &r, &e);
  for (int y = 0; ok && y < H; y++)
    for (int x = 0; x < W; x++)
      {
        double sum = 0.0, got = clfx_image_get (&dst, x, y, 0);
        if (abs (x - 33) <= R && abs (y - 14) <= R)
          continue;
        for (int j = -R; j <= R; j++)
          for (int i = -R; i <= R; i++)
            sum += clfx_image_get (&src, clamp_index (x + i, W),
                                   clamp_index (y + j, H), 0);
        sum /= (double) ((2 * R + 1) * (2 * R + 1));
        worst = fmax (worst, fabs (got - sum) / sum);
      }
  tap_ok (ok && r.path == CLFX_PATH_OPENCL && worst <= bound,
          "box %d, 1e6 among values near 1e-3: the results whose window "
          "does not hold it within %.3g of the mean, relative (worst %.3g)"
          "%s%s", R, bound, worst, ok ? "" : ": ", ok ? "" : e.message);
  clfx_run_result_clear (&r);
  if (ok)
    clfx_host_image_free (&dst);
  clfx_host_image_free (&src);
}

/* The images of extremes (): every channel (alpha too, unless straight)
 * near float's limits. */
typedef enum
{
  HUGE_SIGNED,   /* +-2.9e38 .. +-3.4e38 */
  HUGE_FLAT,     /* 3.4e38 everywhere */
  FLT_MAX_FLAT,  /* FLT_MAX everywhere */
  HUGE_STRAIGHT, /* colour as HUGE_SIGNED, straight alpha 0.3 .. 1 */
  MAX_STRAIGHT,  /* colour +-FLT_MAX, straight alpha 0.3 .. 1 */
  DENORMAL,      /* +-1e-40 and less: below float's normal range */
  TINY,          /* +-1e-30 .. 1e-31: normal, far below 1 */
  N_EXTREMES
} Extreme;

static const char *const extreme_names[] = {
  "values near +-3e38", "3.4e38 everywhere", "FLT_MAX everywhere",
  "colour near +-3e38 under straight alpha",
  "colour +-FLT_MAX under straight alpha", "denormals near 1e-40",
  "values near 1e-30"
};

static void
extreme_image (ClfxImage *src, Extreme kind)
{
  unsigned seed = 977u + (unsigned) kind;

  src->straight_alpha = kind == HUGE_STRAIGHT || kind == MAX_STRAIGHT;
  src->transfer = CLFX_TRC_LINEAR;
  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      for (int c = 0; c < 4; c++)
        {
          float u, v;
          seed = seed * 1664525u + 1013904223u;
          u = (float) (seed >> 8) / 16777216.0f; /* [0, 1) */
          v = (seed & 1) ? 1.0f : -1.0f;
          switch (kind)
            {
            case HUGE_SIGNED:
            case HUGE_STRAIGHT:
              v *= 2.9e38f + u * 0.5e38f;
              break;
            case HUGE_FLAT:
              v = 3.4e38f;
              break;
            case FLT_MAX_FLAT:
              v = FLT_MAX;
              break;
            case MAX_STRAIGHT:
              v *= FLT_MAX;
              break;
            case DENORMAL:
              v *= 1e-40f * u;
              break;
            default:
              v *= 1e-31f + u * 0.9e-30f;
              break;
            }
          if (src->straight_alpha && c == 3)
            v = 0.3f + 0.7f * u;
          clfx_image_set (src, x, y, c, v);
        }
}

/* Finite values at float's limits through every variant: near FLT_MAX,
 * where sums of weighted texels overflow float, the kernels sum again
 * scaled and a result past float's range is FLT_MAX, as the reference's;
 * denormals and tiny values, where products underflow.  Every result of
 * the device and of the reference is finite, and they agree within the
 * tolerance (validation counts NaN and infinities in the device's
 * result). */
void
extremes (ClfxContext *ctx)
{
  static const Case runs[] = {
    { "gaussian fir 2", { "method", "fir", "std-dev-x", "2", "std-dev-y",
                          "2", NULL } },
    { "gaussian 3 (IIR)", { "std-dev-x", "3", "std-dev-y", "3", NULL } },
    { "box 3", { "filter", "box", "radius", "3", NULL } },
    { "box 9 (running sums on CPU devices)", { "filter", "box", "radius",
                                               "9", NULL } },
    { "unsharp 3 (IIR), amount 300", { "filter", "unsharp", "amount", "300",
                                       NULL } },
    { "unsharp 0.7 (FIR), amount 3", { "filter", "unsharp", "std-dev",
                                       "0.7", "amount", "3", NULL } },
    { "unsharp 2, amount 300, threshold 0.05",
      { "filter", "unsharp", "std-dev", "2", "amount", "300", "threshold",
        "0.05", NULL } },
    { "median circle 3", { "filter", "median", "radius", "3", NULL } },
    { "bilateral 4, 8", { "filter", "bilateral", NULL } },
    { "bilateral 3, 0", { "filter", "bilateral", "blur-radius", "3",
                          "edge-preservation", "0", NULL } },
    { "bilateral 12, 100", { "filter", "bilateral", "blur-radius", "12",
                             "edge-preservation", "100", NULL } },
    { "bilateral 1000 (folded)", { "filter", "bilateral", "blur-radius",
                                   "1000", NULL } },
    { "highpass 4 (IIR), contrast 5", { "filter", "highpass", "contrast",
                                        "5", NULL } },
    { "highpass 0.7 (FIR)", { "filter", "highpass", "highpass-std-dev",
                              "0.7", NULL } },
    { "dog 0.5, 3 (FIR, IIR)", { "filter", "dog", "radius1", "0.5",
                                 "radius2", "3", NULL } },
    { "noise-reduction 2", { "filter", "noise-reduction",
                             "noise-reduction-iterations", "2", NULL } },
    { "mean-curvature-blur 2", { "filter", "mean-curvature-blur",
                                 "mean-curvature-iterations", "2", NULL } },
    { "sobel", { "filter", "sobel", NULL } },
    { "sobel horizontal, sign", { "filter", "sobel", "vertical", "false",
                                  NULL } },
    { "sobel vertical, magnitude", { "filter", "sobel", "horizontal",
                                     "false", "keep-sign", "false", NULL } },
    { "convolve sharpen 3x3", { "filter", "convolve", "matrix",
                                "0 -1 0; -1 5 -1; 0 -1 0", NULL } },
    { "convolve 1e30 everywhere", { "filter", "convolve", "matrix",
                                    "1e30 1e30 1e30 1e30 1e30 1e30 1e30 "
                                    "1e30 1e30", NULL } },
    { "convolve 1e30 everywhere, not normalized",
      { "filter", "convolve", "matrix",
        "1e30 1e30 1e30 1e30 1e30 1e30 1e30 1e30 1e30", "normalize",
        "false", NULL } },
    { "convolve 5x5 zero sum, no alpha weight, divisor 1e-3",
      { "filter", "convolve", "matrix",
        "1 0 0 0 0  0 1 0 0 0  0 0 -4 0 0  0 0 0 1 0  0 0 0 0 1",
        "normalize", "false", "alpha-weight", "false", "divisor", "0.001",
        NULL } },
  };

  for (int kind = 0; kind < N_EXTREMES; kind++)
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++)
      {
        ClfxRunOptions opt = { NULL, true, 64, &ctx, false, false };
        ClfxParams     p;
        ClfxImage      src, dst = { 0 };
        ClfxRunResult  r;
        ClfxError      e = { 0 };
        int            odd = 0, odd_ref = 0;
        bool           ok;

        memset (&r, 0, sizeof r);
        ok = params_for (&runs[i], kind % 2 ? "clamp" : "clamp-to-edge", &p,
                         &e)
             && clfx_host_image_alloc (&src, 37, 23, 4, CLFX_DEPTH_FLOAT,
                                       &e);
        if (! ok)
          {
            tap_ok (false, "%s: %s", runs[i].name, e.message);
            continue;
          }
        extreme_image (&src, (Extreme) kind);
        ok = clfx_run (&p, &src, &dst, &opt, &r, &e);
        for (int y = 0; ok && y < 23; y++)
          for (int x = 0; x < 37; x++)
            for (int c = 0; c < 4; c++)
              {
                odd += ! isfinite (clfx_image_get (&dst, x, y, c));
                odd_ref += r.validated
                           && ! isfinite (clfx_image_get (&r.reference, x, y,
                                                          c));
              }
        tap_ok (ok && r.path == CLFX_PATH_OPENCL && r.validated
                  && r.validation.passed && r.validation.nan == 0
                  && r.validation.inf == 0 && odd == 0 && odd_ref == 0,
                "%s, %s: finite results (%d not on the device, %d not in "
                "the reference), validated (max abs %g, tolerance %g)%s%s",
                runs[i].name, extreme_names[kind], odd, odd_ref,
                ok ? r.validation.max_abs : 0.0,
                ok ? r.tolerance.abs_tol : 0.0, ok ? "" : ": ",
                ok ? "" : e.message);
        if (ok && ! r.validation.passed)
          tap_diag ("%zu mismatches, worst (%d,%d) ch %d expected %a got %a "
                    "(tolerance %g: %s)",
                    r.validation.mismatches, r.validation.worst.x,
                    r.validation.worst.y, r.validation.worst.channel,
                    r.validation.worst.expected, r.validation.worst.actual,
                    r.validation.worst.tol, r.tolerance.basis);
        clfx_run_result_clear (&r);
        if (ok)
          clfx_host_image_free (&dst);
        clfx_host_image_free (&src);
      }
}

/* Matrices the convolution refuses, and what its refusal names. */
static const struct
{
  const char *text, *says;
} bad_matrices[] = {
  { "1 2 3 4", "4 values" },
  { "0 0 0 0 1 0 0 0 x", "\"x\" (value 9)" },
  { "1 1 1 1 1e999 1 1 1 1", "value 5 is not finite" },
  { "", "0 values" },
};

/* What the family refuses, before any pixel moves. */
void
refusals (void)
{
  ClfxParams p;
  ClfxError  e = { 0 };

  clfx_params_defaults (&clfx_family_filter, &p);
  tap_ok (! clfx_params_set (&p, "filter", "gauss", &e)
            && strstr (e.message, "gaussian") && strstr (e.message, "box"),
          "a misspelt filter lists the real ones (%s)", e.message);
  e = (ClfxError) { 0 };
  tap_ok (! clfx_params_set (&p, "std-dev-x", "1501", &e),
          "std-dev-x past 1500 is refused (%s)", e.message);
  e = (ClfxError) { 0 };
  tap_ok (! clfx_params_set (&p, "radius", "-1", &e),
          "a negative radius is refused (%s)", e.message);
  e = (ClfxError) { 0 };
  tap_ok (! clfx_params_set (&p, "blur-radius", "1000.5", &e)
            && ! clfx_params_set (&p, "edge-preservation", "-0.1", &e),
          "blur-radius past 1000 and a negative edge-preservation are "
          "refused (%s)", e.message);
  for (size_t i = 0; i < sizeof bad_matrices / sizeof bad_matrices[0]; i++)
    {
      ClfxImage     src, dst;
      ClfxRunResult r;
      ClfxRunOptions opt = { "reference", false, 0, NULL, false, false };

      memset (&r, 0, sizeof r);
      e = (ClfxError) { 0 };
      clfx_params_defaults (&clfx_family_filter, &p);
      clfx_params_set (&p, "filter", "convolve", &e);
      clfx_params_set (&p, "matrix", bad_matrices[i].text, &e);
      clfx_host_image_alloc (&src, 8, 8, 4, CLFX_DEPTH_U8, &e);
      tap_ok (! clfx_run (&p, &src, &dst, &opt, &r, &e)
                && e.code == CLFX_ERR_INVALID
                && strstr (e.message, bad_matrices[i].says),
              "matrix \"%s\" is refused, naming \"%s\" (%s)",
              bad_matrices[i].text, bad_matrices[i].says, e.message);
      clfx_run_result_clear (&r);
      clfx_host_image_free (&src);
    }
  {
    ClfxImage src;
    ClfxPlan  plan;

    e = (ClfxError) { 0 };
    clfx_host_image_alloc (&src, 8, 8, 4, CLFX_DEPTH_FLOAT, &e);
    clfx_params_set (&p, "filter", "median", &e);
    clfx_params_set (&p, "radius", "101", &e);
    tap_ok (! clfx_plan_make (&p, &src, &plan, &e)
              && e.code == CLFX_ERR_INVALID && strstr (e.message, "100"),
            "a median radius past 100 is refused (%s)", e.message);
    clfx_host_image_free (&src);
  }
}
