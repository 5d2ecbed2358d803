/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-blocks.c: the shared building blocks on the device against their
 * CPU references (engine/blocks/blocks.c): separable convolution (the
 * reference is the direct 2-D sum), reductions and histograms (validated
 * as probes, on their own), the pyramid through the sampler.  Several
 * sizes, so that reductions use every work-item and a partial last group;
 * every depth and layout; tiles for the convolution, bit for bit the
 * untiled result.  And the probe comparison itself must be able to fail. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "../device.h"
#include "clfx-blocks.h"
#include "clfx-run.h"

static void
one (ClfxContext *ctx, const char *block, const char *extra_name,
     const char *extra, int w, int h, int channels, ClfxDepth depth,
     bool srgb)
{
  ClfxRunOptions opt = { NULL, true, 48, &ctx, false, false };
  ClfxParams     p;
  ClfxRunResult  r;
  ClfxImage      src, dst;
  ClfxError      e = { 0 };
  bool           ok;
  int            probes_ok = 0;

  clfx_params_defaults (&clfx_family_blocks, &p);
  clfx_params_set (&p, "block", block, &e);
  if (extra_name)
    clfx_params_set (&p, extra_name, extra, &e);
  clfx_host_image_alloc (&src, w, h, channels, depth, &e);
  clfx_host_image_synthetic (&src, (unsigned) (w + h));
  src.straight_alpha = channels != 1;
  src.transfer = srgb ? CLFX_TRC_SRGB : CLFX_TRC_LINEAR;
  ctx->guard_bytes = 48;
  ok = clfx_run (&p, &src, &dst, &opt, &r, &e);
  for (int i = 0; ok && i < r.probes.n; i++)
    probes_ok += r.probes.probes[i].passed
                 && r.probes.probes[i].n_device
                      == r.probes.probes[i].n_reference
                 && r.probes.probes[i].n_device > 0;
  tap_ok (ok && r.path == CLFX_PATH_OPENCL && r.validation.passed
            && probes_ok == r.probes.n
            && r.probes.n == (! strcmp (block, "reduce") ? 4
                              : ! strcmp (block, "histogram") ? 1 : 0),
          "%s%s%s %dx%d ch%d %s%s: result and %d probes validated%s%s",
          block, extra_name ? " " : "", extra ? extra : "", w, h, channels,
          clfx_depth_name (depth), srgb ? " srgb" : "", r.probes.n,
          ok ? "" : ": ", ok ? "" : e.message);
  if (ok && ! r.validation.passed)
    tap_diag ("%zu mismatches, max abs %g (%s)", r.validation.mismatches,
              r.validation.max_abs, r.tolerance.basis);
  for (int i = 0; ok && i < r.probes.n; i++)
    if (! r.probes.probes[i].passed)
      tap_diag ("probe %s: %zu off, max abs %g > %g (%s)",
                r.probes.probes[i].name, r.probes.probes[i].mismatches,
                r.probes.probes[i].max_abs, r.probes.probes[i].abs_tol,
                r.probes.probes[i].basis);
  clfx_run_result_clear (&r);
  if (ok)
    clfx_host_image_free (&dst);
  clfx_host_image_free (&src);
}

/* The convolution with its halo in tiles: the untiled bytes. */
static void
tiled_convolution (ClfxContext *ctx)
{
  ClfxContext *tiled;
  ClfxParams   p;
  ClfxImage    src, a = { 0 }, b = { 0 };
  ClfxTimings  ta, tb;
  ClfxError    e = { 0 };
  bool         ok;

  memset (&ta, 0, sizeof ta);
  memset (&tb, 0, sizeof tb);
  if (! (tiled = clfx_context_new (&ctx->device, &e)))
    {
      tap_ok (false, "context: %s", e.message);
      return;
    }
  tiled->tuning.tile_width = 19;
  tiled->tuning.tile_height = 11;
  clfx_params_defaults (&clfx_family_blocks, &p);
  clfx_params_set (&p, "radius", "7", &e);
  clfx_host_image_alloc (&src, 83, 51, 4, CLFX_DEPTH_U8, &e);
  clfx_host_image_synthetic (&src, 4);
  src.transfer = CLFX_TRC_SRGB;
  src.straight_alpha = true;
  ok = clfx_host_image_alloc (&a, 83, 51, 4, CLFX_DEPTH_U8, &e)
       && clfx_host_image_alloc (&b, 83, 51, 4, CLFX_DEPTH_U8, &e)
       && clfx_run_on_context (ctx, &p, &src, &a, &ta, NULL, NULL, &e)
       && clfx_run_on_context (tiled, &p, &src, &b, &tb, NULL, NULL, &e);
  tap_ok (ok && tb.tiled && tb.pieces > 4 && ! memcmp (a.data, b.data,
                                                      a.stride * 51),
          "sepconv radius 7 in %d tiles of 19x11 with halos: the untiled "
          "bytes%s%s", tb.pieces, ok ? "" : ": ", ok ? "" : e.message);
  clfx_timings_clear (&ta);
  clfx_timings_clear (&tb);
  clfx_host_image_free (&src);
  clfx_host_image_free (&a);
  clfx_host_image_free (&b);
  clfx_context_free (tiled);
}

/* A probe that differs from its reference fails the validation. */
static void
probes_can_fail (void)
{
  ClfxProbes probes = { 0 };
  double     ref[3] = { 1.0, 2.0, 3.0 }, dev[3] = { 1.0, 2.0, 3.5 };
  bool       ok = clfx_probes_add (&probes, "x", ref, 3, true, 0.1, 0, "t")
                  && clfx_probes_add (&probes, "x", dev, 3, false, 0, 0,
                                      NULL);

  tap_ok (ok && probes.n == 1 && ! clfx_probes_compare (&probes)
            && probes.probes[0].mismatches == 1
            && probes.probes[0].worst == 2
            && probes.probes[0].max_abs == 0.5,
          "a probe value 0.5 off with tolerance 0.1 fails, named at its "
          "index");
  dev[2] = 3.05;
  ok = clfx_probes_add (&probes, "x", dev, 3, false, 0, 0, NULL);
  tap_ok (ok && clfx_probes_compare (&probes),
          "within its tolerance it passes");
  ok = clfx_probes_add (&probes, "y", ref, 3, true, 1, 0, "t");
  tap_ok (ok && ! clfx_probes_compare (&probes),
          "a probe without the device's side fails");
  clfx_probes_clear (&probes);
}

int
main (void)
{
  ClfxDeviceList list;
  int            skip = 0;
  ClfxContext   *ctx = test_context (&list, &skip);
  static const int sizes[][2] = { { 67, 45 }, { 1, 1 }, { 300, 217 } };

  if (! ctx)
    return skip;
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    for (int d = 0; d < CLFX_N_DEPTHS; d++)
      {
        int ch = d == 1 ? 2 : d == 2 ? 1 : 4;
        bool srgb = d < 2;
        one (ctx, "sepconv", NULL, NULL, sizes[s][0], sizes[s][1], ch,
             (ClfxDepth) d, srgb);
        one (ctx, "reduce", NULL, NULL, sizes[s][0], sizes[s][1], ch,
             (ClfxDepth) d, srgb);
        one (ctx, "histogram", NULL, NULL, sizes[s][0], sizes[s][1], ch,
             (ClfxDepth) d, srgb);
        one (ctx, "pyramid", NULL, NULL, sizes[s][0], sizes[s][1], ch,
             (ClfxDepth) d, srgb);
      }
  one (ctx, "sepconv", "radius", "32", 150, 90, 4, CLFX_DEPTH_FLOAT, false);
  one (ctx, "histogram", "bins", "4096", 640, 480, 4, CLFX_DEPTH_U16, true);
  one (ctx, "histogram", "channel", "3", 200, 100, 4, CLFX_DEPTH_U8, true);
  one (ctx, "reduce", NULL, NULL, 1023, 769, 4, CLFX_DEPTH_FLOAT, false);
  tiled_convolution (ctx);
  probes_can_fail ();
  clfx_context_free (ctx);
  clfx_device_list_free (&list);
  return tap_done ();
}
