/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-tonemap.c: the tonemap family on the device against its CPU
 * reference (engine/ops/tonemap-global.c, durand02.c, fattal02.c,
 * mantiuk06.c, local-laplacian.c): every
 * operator on every depth and layout, odd sizes across the reductions'
 * blocks, with a guard band; the statistics as probes on their own; NaN,
 * infinities, negative and tiny values cleaned and counted (the counts
 * checked against this file's own; more extreme images in
 * test-tonemap-finite.c); a black image, a 1x1 image; two runs bit for
 * bit the same; alpha kept; out-of-range arguments refused; fattal02 also
 * on sizes with several pyramid levels and multigrid grids.  GEGL's
 * reinhard05 and models of pfstmo's operators are the other side in
 * tests/gegl/test-tonemap.py. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../device.h"
#include "clfx-params.h"
#include "clfx-run.h"

static const char *const operators[] = { "reinhard02", "reinhard05",
                                          "drago03", "aces", "durand02",
                                          "fattal02", "mantiuk06",
                                          "local-laplacian" };
#define N_OPS 8

/* Per operator, the arguments away from their defaults (NULL-terminated
 * pairs). */
static const char *const tweaks[N_OPS][10] = {
  { "key", "0.3", "white-point", "2.5", NULL },
  { "brightness", "-1.5", "chromatic", "0.4", "light", "0.6", NULL },
  { "bias", "0.7", NULL },
  { "exposure", "-1.25", NULL },
  { "spatial-sigma", "0.1", "range-sigma", "0.3", "sampler-filter",
    "linear", "detail", "1.5", NULL },
  { "alpha", "0.8", "beta", "0.8", "saturation", "0.6", "noise", "0.02",
    NULL },
  { "mantiuk-contrast", "0.4", "mantiuk-saturation", "1.3",
    "mantiuk-detail", "2", NULL },
  { "laplacian-detail", "2.5", "range-compression", "0.8", "edge", "0.15",
    NULL },
};

static ClfxDeviceInfo device;

/* High dynamic range from the synthetic pattern, for float and half:
 * colour c -> 2^(16 (c - 0.5)), 1/256 to 256. */
static void
hdr (ClfxImage *src)
{
  int colour = src->channels == 4 ? 3 : 1;

  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      for (int c = 0; c < colour; c++)
        clfx_image_set (src, x, y, c,
                        exp2f (16.0f * (clfx_image_get (src, x, y, c)
                                        - 0.5f)));
}

static bool
params_for (int op, bool tweak, ClfxParams *p, ClfxError *e)
{
  clfx_params_defaults (&clfx_family_tonemap, p);
  if (! clfx_params_set (p, "operator", operators[op], e))
    return false;
  for (int i = 0; tweak && tweaks[op][i]; i += 2)
    if (! clfx_params_set (p, tweaks[op][i], tweaks[op][i + 1], e))
      return false;
  return true;
}

/* One case run and validated; whether the hardware sampler filtered
 * (the report's execution.sampler). */
static bool
one (ClfxContext **ctx, int op, bool tweak, int w, int h, int channels,
     ClfxDepth depth, bool srgb)
{
  ClfxRunOptions opt = { NULL, true, 64, ctx, false, false };
  ClfxParams     p;
  ClfxRunResult  r;
  ClfxImage      src, dst;
  ClfxError      e = { 0 };
  bool           ok, hw;

  memset (&r, 0, sizeof r);
  if (! params_for (op, tweak, &p, &e))
    {
      tap_ok (false, "%s: %s", operators[op], e.message);
      return false;
    }
  if (! *ctx && ! (*ctx = clfx_context_new (&device, &e)))
    {
      tap_ok (false, "%s: a new context: %s", operators[op], e.message);
      return false;
    }
  clfx_host_image_alloc (&src, w, h, channels, depth, &e);
  clfx_host_image_synthetic (&src, (unsigned) (w * 7 + h));
  if (depth == CLFX_DEPTH_FLOAT || depth == CLFX_DEPTH_HALF)
    hdr (&src);
  src.straight_alpha = channels != 1;
  src.transfer = srgb ? CLFX_TRC_SRGB : CLFX_TRC_LINEAR;
  ok = clfx_run (&p, &src, &dst, &opt, &r, &e);
  tap_ok (ok && r.path == CLFX_PATH_OPENCL && r.validation.passed,
          "%s%s %dx%d ch%d %s%s: validated with %d probes (max abs %g, "
          "tolerance %g + %g rel)%s%s",
          operators[op], tweak ? " (arguments)" : "", w, h, channels,
          clfx_depth_name (depth), srgb ? " srgb" : "", ok ? r.probes.n : 0,
          ok ? r.validation.max_abs : 0.0, ok ? r.tolerance.abs_tol : 0.0,
          ok ? r.tolerance.rel_tol : 0.0, ok ? "" : ": ",
          ok ? "" : e.message);
  if (ok && ! r.validation.passed)
    tap_diag ("worst at (%d, %d) channel %d: device %.9g, reference %.9g, "
              "bound there %g, %zu values off; the bound: %s",
              r.validation.worst.x, r.validation.worst.y,
              r.validation.worst.channel, r.validation.worst.actual,
              r.validation.worst.expected, r.validation.worst.tol,
              r.validation.mismatches, r.tolerance.basis);
  if (ok)
    {
      /* Both histograms count every pixel once (before: the operators
       * with statistics). */
      const char *const names[2] = { "log2 Y histogram, before",
                                     "log2 Y histogram, after" };
      for (int k = 0; k < 2; k++)
        {
          const ClfxProbe *q = NULL;
          double           sum = 0.0;
          for (int i = 0; i < r.probes.n; i++)
            if (! strcmp (r.probes.probes[i].name, names[k]))
              q = &r.probes.probes[i];
          for (int i = 0; q && i < q->n_device; i++)
            sum += q->device[i];
          if (q || k == 1 || op != 3)
            tap_ok (q && sum == (double) w * h,
                    "%s %dx%d: %s counts %g pixels of %d", operators[op], w,
                    h, names[k], sum, w * h);
        }
    }
  for (int i = 0; ok && i < r.probes.n; i++)
    if (! r.probes.probes[i].passed)
      {
        const ClfxProbe *q = &r.probes.probes[i];
        int              k = q->worst;
        tap_diag ("probe %s: %zu values off, max abs %g at %d (device %g, "
                  "reference %g; %s)", q->name, q->mismatches, q->max_abs,
                  k, k < q->n_device ? q->device[k] : NAN,
                  k < q->n_reference ? q->reference[k] : NAN, q->basis);
      }
  hw = ok && r.timings.sampler;
  if (ok)
    clfx_host_image_free (&dst);
  clfx_run_result_clear (&r);
  clfx_host_image_free (&src);
  return hw;
}

/* NaN, -Inf, negative, +Inf and tiny colour in a float image: cleaned
 * (NaN, negative and tiny to 0, +Inf to the largest finite value),
 * counted as this test counts them, every result finite, alpha as it
 * was. */
static void
specials (ClfxContext **ctx)
{
  for (int op = 0; op < N_OPS; op++)
    {
      ClfxRunOptions   opt = { NULL, true, 64, ctx, false, false };
      ClfxParams       p;
      ClfxImage        src, dst;
      ClfxRunResult    r;
      ClfxError        e = { 0 };
      const ClfxProbe *pc;
      double           counts[4] = { 0, 0, 0, 0 }, largest = 0.0;
      int              odd = 0, alpha_moved = 0;
      bool             ok;

      memset (&r, 0, sizeof r);
      params_for (op, false, &p, &e);
      /* Doubled, the largest finite value overflows float: the cap keeps
       * every result finite. */
      clfx_params_set (&p, "exposure", "1", &e);
      clfx_host_image_alloc (&src, 83, 37, 4, CLFX_DEPTH_FLOAT, &e);
      clfx_host_image_synthetic (&src, 11);
      hdr (&src);
      clfx_image_set (&src, 40, 20, 0, 3.0e38f);
      clfx_image_set (&src, 41, 20, 1, 3.0e38f);
      clfx_image_set (&src, 41, 20, 2, 3.0e38f);
      src.straight_alpha = true;
      for (int y = 0; y < 37; y++)
        for (int x = 0; x < 83; x++)
          {
            int k = (x * 5 + y * 3) % 17;
            if (k < 7)
              clfx_image_set (&src, x, y, k % 3,
                              k == 0 ? NAN : k == 1 ? -INFINITY
                              : k == 2 ? INFINITY : k == 3 ? -0.25f
                              : k == 4 ? -0.0f : k == 5 ? 1e-40f : 1e-37f);
          }
      for (int y = 0; y < 37; y++)
        for (int x = 0; x < 83; x++)
          for (int c = 0; c < 3; c++)
            {
              float v = clfx_image_get (&src, x, y, c);
              if (isnan (v))
                counts[0]++;
              else if (v < 0.0f)
                counts[1]++;
              else if (isinf (v))
                counts[2]++;
              else if (v > 0.0f && v < 0x1p-121f)
                counts[3]++;
              else
                largest = fmax (largest, v);
            }
      ok = clfx_run (&p, &src, &dst, &opt, &r, &e);
      if (ok)
        {
          for (int y = 0; y < 37; y++)
            for (int x = 0; x < 83; x++)
              {
                for (int c = 0; c < 4; c++)
                  odd += ! isfinite (clfx_image_get (&dst, x, y, c));
                alpha_moved += clfx_image_get (&dst, x, y, 3)
                               != clfx_image_get (&src, x, y, 3);
              }
          clfx_host_image_free (&dst);
        }
      pc = test_probe (&r, "cleaned: NaN, negative, +Inf, tiny");
      /* A failed run leaves the reference's probe without the device's
       * values. */
      pc = pc && pc->n_device == 4 ? pc : NULL;
      tap_ok (ok && r.validation.passed && pc && pc->n_device == 4
                && pc->device[0] == counts[0] && pc->device[1] == counts[1]
                && pc->device[2] == counts[2] && pc->device[3] == counts[3]
                && odd == 0 && alpha_moved == 0,
              "%s, NaN, -Inf, +Inf, negative, tiny and 3e38 colour, "
              "exposure 1: validated, counted "
              "(%g NaN, %g negative, %g +Inf, %g tiny; device %g, %g, %g, "
              "%g), every result finite (%d not), alpha kept (%d moved)%s%s",
              operators[op], counts[0], counts[1], counts[2], counts[3],
              pc ? pc->device[0] : -1, pc ? pc->device[1] : -1,
              pc ? pc->device[2] : -1, pc ? pc->device[3] : -1, odd,
              alpha_moved, ok ? "" : ": ", ok ? "" : e.message);
      pc = test_probe (&r, "largest finite value");
      pc = pc && pc->n_device == 1 ? pc : NULL;
      tap_ok (pc && pc->n_device == 1 && pc->device[0] == largest,
              "%s: the largest finite value %g (device %g)", operators[op],
              largest, pc ? pc->device[0] : -1);
      clfx_run_result_clear (&r);
      clfx_host_image_free (&src);
    }
}

/* A black image maps to black (no 0/0), on every operator; a 1x1 image
 * maps. */
static void
black (ClfxContext **ctx)
{
  for (int op = 0; op < N_OPS; op++)
    {
      ClfxRunOptions opt = { NULL, true, 64, ctx, false, false };
      ClfxParams     p;
      ClfxImage      src, dst;
      ClfxRunResult  r;
      ClfxError      e = { 0 };
      double         worst = 0.0;
      bool           ok;

      memset (&r, 0, sizeof r);
      params_for (op, false, &p, &e);
      clfx_host_image_alloc (&src, 19, 7, 4, CLFX_DEPTH_FLOAT, &e);
      for (int y = 0; y < 7; y++)
        for (int x = 0; x < 19; x++)
          clfx_image_set (&src, x, y, 3, 0.5f);
      src.straight_alpha = true;
      ok = clfx_run (&p, &src, &dst, &opt, &r, &e);
      for (int y = 0; ok && y < 7; y++)
        for (int x = 0; x < 19; x++)
          for (int c = 0; c < 3; c++)
            {
              float v = clfx_image_get (&dst, x, y, c);
              worst = isfinite (v) ? fmax (worst, fabs (v)) : INFINITY;
            }
      /* ACES maps 0 to its curve's foot, clamped: 0 too. */
      tap_ok (ok && r.validation.passed && worst == 0.0,
              "%s, a black image: black, validated (largest %g)%s%s",
              operators[op], worst, ok ? "" : ": ", ok ? "" : e.message);
      if (ok)
        clfx_host_image_free (&dst);
      clfx_run_result_clear (&r);
      clfx_host_image_free (&src);
    }
}

/* The reductions and durand02's grid add in a fixed order: two runs give
 * the same bits. */
static void
deterministic (ClfxContext *ctx)
{
  for (int op = 0; op < N_OPS; op++)
    {
      ClfxParams  p;
      ClfxImage   src, a = { 0 }, b = { 0 };
      ClfxTimings ta, tb;
      ClfxError   e = { 0 };
      bool        ok;

      memset (&ta, 0, sizeof ta);
      memset (&tb, 0, sizeof tb);
      params_for (op, true, &p, &e);
      clfx_host_image_alloc (&src, 301, 211, 4, CLFX_DEPTH_FLOAT, &e);
      clfx_host_image_synthetic (&src, 3);
      hdr (&src);
      ok = clfx_host_image_alloc (&a, 301, 211, 4, CLFX_DEPTH_FLOAT, &e)
           && clfx_host_image_alloc (&b, 301, 211, 4, CLFX_DEPTH_FLOAT, &e)
           && clfx_run_on_context (ctx, &p, &src, &a, &ta, NULL, NULL, &e)
           && clfx_run_on_context (ctx, &p, &src, &b, &tb, NULL, NULL, &e);
      tap_ok (ok && ! memcmp (a.data, b.data, (size_t) a.stride * 211),
              "%s: two runs give the same bits%s%s", operators[op],
              ok ? "" : ": ", ok ? "" : e.message);
      clfx_timings_clear (&ta);
      clfx_timings_clear (&tb);
      clfx_host_image_free (&src);
      clfx_host_image_free (&a);
      clfx_host_image_free (&b);
    }
}

/* Tiles: the global operators gather their statistics tile by tile
 * (blocks at fixed image positions) and the local operators make their
 * fields whole, so a run forced into tiles is the one-piece run bit for
 * bit, statistics and probes included. */
static void
tiled (ClfxContext *ctx)
{
  for (int op = 0; op < N_OPS; op++)
    for (int d = 0; d < 2; d++)
      {
        ClfxDepth   depth = d ? CLFX_DEPTH_U8 : CLFX_DEPTH_FLOAT;
        ClfxParams  p;
        ClfxImage   src, a = { 0 }, b = { 0 };
        ClfxTimings ta, tb;
        ClfxProbes  pa = { 0 }, pb = { 0 };
        ClfxError   e = { 0 };
        bool        ok, same_probes = true;
        ClfxSamplerPolicy keep;
        /* Statistics: tiles grown to the blocks (128 x 64: 2 x 2), the
         * local operators' field pass likewise (tm_plan_fields); aces on
         * 8-bit data has none and tiles as asked (3 x 3). */
        int         pieces = op == 3 && d ? 9 : 4;

        memset (&ta, 0, sizeof ta);
        memset (&tb, 0, sizeof tb);
        params_for (op, true, &p, &e);
        clfx_host_image_alloc (&src, 203, 101, 4, depth, &e);
        clfx_host_image_synthetic (&src, 17);
        if (! d)
          {
            hdr (&src);
            clfx_image_set (&src, 150, 80, 1, INFINITY);
            clfx_image_set (&src, 10, 90, 0, NAN);
            clfx_image_set (&src, 100, 20, 2, 1e-40f);
          }
        src.straight_alpha = true;
        src.transfer = d ? CLFX_TRC_SRGB : CLFX_TRC_LINEAR;
        /* Tiles never take the hardware sampler (durand02's sampler-filter
         * linear: the texture unit's 8-bit weights, validated on their
         * own), so the one-piece run filters in the kernel too. */
        keep = ctx->tuning.sampler;
        ctx->tuning.sampler = CLFX_SAMPLER_KERNEL;
        ok = clfx_host_image_alloc (&a, 203, 101, 4, depth, &e)
             && clfx_host_image_alloc (&b, 203, 101, 4, depth, &e)
             && clfx_run_on_context (ctx, &p, &src, &a, &ta, &pa, NULL, &e);
        ctx->tuning.tile_width = 70;
        ctx->tuning.tile_height = 40;
        ok = ok && clfx_run_on_context (ctx, &p, &src, &b, &tb, &pb, NULL,
                                        &e);
        ctx->tuning.tile_width = ctx->tuning.tile_height = 0;
        ctx->tuning.sampler = keep;
        for (int i = 0; ok && i < pa.n; i++)
          same_probes = same_probes && i < pb.n
                        && pa.probes[i].n_device == pb.probes[i].n_device
                        && ! memcmp (pa.probes[i].device,
                                     pb.probes[i].device,
                                     sizeof (double)
                                       * (size_t) pa.probes[i].n_device);
        tap_ok (ok && ! memcmp (a.data, b.data, (size_t) a.stride * 101)
                  && same_probes && pa.n == pb.n
                  && tb.tiled && tb.pieces == pieces,
                "%s %s: in tiles of 70x40 (%d pieces, %s) the one-piece "
                "result and probes, bit for bit%s%s",
                operators[op], d ? "u8" : "float", tb.pieces,
                tb.tiled ? "tiled" : "one piece", ok ? "" : ": ",
                ok ? "" : e.message);
        clfx_probes_clear (&pa);
        clfx_probes_clear (&pb);
        clfx_timings_clear (&ta);
        clfx_timings_clear (&tb);
        clfx_host_image_free (&src);
        clfx_host_image_free (&a);
        clfx_host_image_free (&b);
      }
}

/* Exposure is a factor 2^EV on colour before the operator: aces at
 * exposure 1 equals aces of the image doubled (the reference's own
 * arithmetic, so within float rounding of the device's). */
static void
exposure (ClfxContext *ctx)
{
  ClfxParams  p;
  ClfxImage   src, twice, a = { 0 }, b = { 0 };
  ClfxTimings ta, tb;
  ClfxError   e = { 0 };
  double      worst = 0.0;
  bool        ok;

  memset (&ta, 0, sizeof ta);
  memset (&tb, 0, sizeof tb);
  params_for (3, false, &p, &e);
  clfx_host_image_alloc (&src, 41, 23, 4, CLFX_DEPTH_FLOAT, &e);
  clfx_host_image_alloc (&twice, 41, 23, 4, CLFX_DEPTH_FLOAT, &e);
  clfx_host_image_synthetic (&src, 9);
  hdr (&src);
  for (int y = 0; y < 23; y++)
    for (int x = 0; x < 41; x++)
      for (int c = 0; c < 4; c++)
        clfx_image_set (&twice, x, y, c,
                        clfx_image_get (&src, x, y, c) * (c < 3 ? 2 : 1));
  ok = clfx_host_image_alloc (&a, 41, 23, 4, CLFX_DEPTH_FLOAT, &e)
       && clfx_host_image_alloc (&b, 41, 23, 4, CLFX_DEPTH_FLOAT, &e)
       && clfx_run_on_context (ctx, &p, &twice, &a, &ta, NULL, NULL, &e)
       && clfx_params_set (&p, "exposure", "1", &e)
       && clfx_run_on_context (ctx, &p, &src, &b, &tb, NULL, NULL, &e);
  for (int y = 0; ok && y < 23; y++)
    for (int x = 0; x < 41; x++)
      for (int c = 0; c < 4; c++)
        worst = fmax (worst, fabs (clfx_image_get (&a, x, y, c)
                                   - clfx_image_get (&b, x, y, c)));
  tap_ok (ok && worst == 0.0,
          "aces: exposure 1 is the image doubled, bit for bit (worst %g)%s%s",
          worst, ok ? "" : ": ", ok ? "" : e.message);
  clfx_timings_clear (&ta);
  clfx_timings_clear (&tb);
  clfx_host_image_free (&src);
  clfx_host_image_free (&twice);
  clfx_host_image_free (&a);
  clfx_host_image_free (&b);
}

/* durand02's linear filter takes part in the framework's sampler choice:
 * with the source as an image, CLFX_SAMPLER=hardware filters through the
 * device's sampler and CLFX_SAMPLER=kernel computes the trilinear in the
 * kernels (as every source in buffers does); both validate (one), and the
 * report says which filtered. */
static void
durand_sampler (ClfxContext *ctx)
{
  static const ClfxSamplerPolicy policies[2] = { CLFX_SAMPLER_HARDWARE,
                                                  CLFX_SAMPLER_KERNEL };
  ClfxSamplerPolicy keep = ctx->tuning.sampler;
  ClfxSourceForm    keep_source = ctx->tuning.source;

  for (int i = 0; i < 2; i++)
    {
      ctx->tuning.sampler = policies[i];
      ctx->tuning.source = CLFX_SOURCE_IMAGE;
      bool hw = one (&ctx, 4, true, 131, 70, 4, CLFX_DEPTH_FLOAT, false);
      tap_ok (hw == (i == 0),
              "durand02 sampler-filter linear, CLFX_SAMPLER=%s: the %s "
              "filtered", i == 0 ? "hardware" : "kernel",
              hw ? "sampler" : "kernel");
    }
  ctx->tuning.sampler = keep;
  ctx->tuning.source = keep_source;
}

/* local-laplacian's samples in chunks (a memory budget that holds three
 * samples' pyramids, ll_chunk): the same bytes as all at once, the
 * coefficients' terms added in the same order. */
static void
ll_chunks (ClfxContext *ctx)
{
  ClfxParams  p;
  ClfxImage   src, a = { 0 }, b = { 0 };
  ClfxTimings ta, tb;
  ClfxError   e = { 0 };
  size_t      keep = ctx->tuning.budget;
  int         once = 0, chunks = 0;
  bool        ok;

  memset (&ta, 0, sizeof ta);
  memset (&tb, 0, sizeof tb);
  params_for (7, true, &p, &e);
  clfx_host_image_alloc (&src, 301, 211, 4, CLFX_DEPTH_FLOAT, &e);
  clfx_host_image_synthetic (&src, 5);
  hdr (&src);
  src.straight_alpha = true;
  ok = clfx_host_image_alloc (&a, 301, 211, 4, CLFX_DEPTH_FLOAT, &e)
       && clfx_host_image_alloc (&b, 301, 211, 4, CLFX_DEPTH_FLOAT, &e)
       && clfx_run_on_context (ctx, &p, &src, &a, &ta, NULL, NULL, &e);
  /* 5.33 bytes a pixel a sample: a quarter of 4 MB holds 3. */
  ctx->tuning.budget = 4u << 20;
  ok = ok && clfx_run_on_context (ctx, &p, &src, &b, &tb, NULL, NULL, &e);
  ctx->tuning.budget = keep;
  for (int i = 0; i < ta.n_kernels; i++)
    if (! strcmp (ta.kernels[i].name, "ll_down_remap"))
      once = ta.kernels[i].launches;
  for (int i = 0; i < tb.n_kernels; i++)
    if (! strcmp (tb.kernels[i].name, "ll_down_remap"))
      chunks = tb.kernels[i].launches;
  tap_ok (ok && ! tb.tiled && once == 1 && chunks == 11
            && ! memcmp (a.data, b.data, (size_t) a.stride * 211),
          "local-laplacian's 31 samples in %d chunks (%d at once): the "
          "result of all at once, bit for bit%s%s", chunks, once,
          ok ? "" : ": ", ok ? "" : e.message);
  clfx_timings_clear (&ta);
  clfx_timings_clear (&tb);
  clfx_host_image_free (&src);
  clfx_host_image_free (&a);
  clfx_host_image_free (&b);
}

static void
refusals (void)
{
  static const char *const bad[][2] = {
    { "operator", "reinhard" }, { "key", "-0.1" },     { "key", "1.5" },
    { "bias", "1.1" },          { "exposure", "21" },  { "light", "-0.1" },
    { "chromatic", "1.01" },    { "white-point", "-1" },
    { "brightness", "101" },    { "spatial-sigma", "1.5" },
    { "range-sigma", "-1" },    { "contrast", "11" },
    { "alpha", "2.5" },         { "beta", "0.05" },    { "saturation", "1.5" },
    { "noise", "-0.1" },        { "mantiuk-contrast", "1.5" },
    { "mantiuk-saturation", "2.5" }, { "mantiuk-detail", "0.5" },
    { "laplacian-detail", "-0.1" }, { "range-compression", "1.1" },
    { "edge", "0.005" },
  };
  /* In range for the dialog, refused by the operator's plan. */
  static const char *const zero[][3] = {
    { "reinhard02", "key", "0" },
    { "reinhard02", "white-point", "0.0005" },
    { "drago03", "bias", "0" },
    { "durand02", "range-sigma", "0.01" },
    { "fattal02", "alpha", "0" },
    { "mantiuk06", "mantiuk-contrast", "0" },
  };
  ClfxParams p;

  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    {
      ClfxError e = { 0 };
      clfx_params_defaults (&clfx_family_tonemap, &p);
      tap_ok (! clfx_params_set (&p, bad[i][0], bad[i][1], &e)
                && strstr (e.message, bad[i][0]),
              "%s %s is refused, naming it (%s)", bad[i][0], bad[i][1],
              e.message);
    }
  for (size_t i = 0; i < sizeof zero / sizeof zero[0]; i++)
    {
      ClfxError e = { 0 };
      ClfxImage src;
      ClfxPlan  plan;
      clfx_params_defaults (&clfx_family_tonemap, &p);
      clfx_params_set (&p, "operator", zero[i][0], &e);
      clfx_params_set (&p, zero[i][1], zero[i][2], &e);
      clfx_host_image_alloc (&src, 8, 8, 4, CLFX_DEPTH_FLOAT, &e);
      tap_ok (! clfx_plan_make (&p, &src, &plan, &e)
                && e.code == CLFX_ERR_INVALID && strstr (e.message, zero[i][1]),
              "%s with %s %s is refused by its plan (%s)", zero[i][0],
              zero[i][1], zero[i][2], e.message);
      clfx_host_image_free (&src);
    }
}

int
main (void)
{
  ClfxDeviceList list;
  int            skip = 0;
  ClfxContext   *ctx = test_context (&list, &skip);
  /* One block, blocks cut at both edges, one pixel, a thin column. */
  static const int sizes[][2] = { { 67, 45 }, { 131, 70 }, { 1, 1 },
                                  { 5, 130 } };
  static const int channels[] = { 4, 2, 1 };

  if (! ctx)
    return skip;
  device = ctx->device;
  for (int op = 0; op < N_OPS; op++)
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
      for (int d = 0; d < CLFX_N_DEPTHS; d++)
        for (int l = 0; l < 3; l++)
          if (test_layout_taken (op, d, l, 3))
            one (&ctx, op, (s + d + l) % 2 == 1, sizes[s][0], sizes[s][1],
                 channels[l], (ClfxDepth) d, d < 2);
  /* sRGB-encoded float (GIMP's perceptual float), RGBA: CPU devices read
   * linear float RGBA eight pixels at a time, this one pixel by pixel. */
  for (int op = 0; op < N_OPS; op++)
    one (&ctx, op, false, 67, 45, 4, CLFX_DEPTH_FLOAT, true);
  /* fattal02 on sizes with a pyramid of 2 and 3 levels and 7 to 9
   * multigrid grids (the sizes above have one level). */
  one (&ctx, 5, false, 301, 211, 4, CLFX_DEPTH_FLOAT, false);
  one (&ctx, 5, true, 520, 260, 4, CLFX_DEPTH_FLOAT, false);
  one (&ctx, 5, false, 257, 129, 1, CLFX_DEPTH_U8, true);
  /* mantiuk06 with pyramids of 6 and 7 levels, sides halving evenly and
   * not (GEGL's area averages with partial pixels). */
  one (&ctx, 6, false, 301, 211, 4, CLFX_DEPTH_FLOAT, false);
  one (&ctx, 6, true, 256, 192, 4, CLFX_DEPTH_HALF, false);
  /* local-laplacian with 9 levels, sides halving evenly and not, and
   * sides down to 1 x 1 at different levels. */
  one (&ctx, 7, false, 301, 211, 4, CLFX_DEPTH_FLOAT, false);
  one (&ctx, 7, true, 256, 192, 4, CLFX_DEPTH_HALF, false);
  one (&ctx, 7, false, 513, 3, 4, CLFX_DEPTH_FLOAT, false);
  specials (&ctx);
  black (&ctx);
  if (ctx)
    deterministic (ctx);
  if (ctx)
    exposure (ctx);
  if (ctx)
    tiled (ctx);
  if (ctx)
    durand_sampler (ctx);
  if (ctx)
    ll_chunks (ctx);
  refusals ();
  clfx_context_free (ctx);
  clfx_device_list_free (&list);
  return tap_done ();
}
