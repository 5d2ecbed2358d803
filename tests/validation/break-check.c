/* SPDX-License-Identifier: GPL-3.0-or-later */
/* break-check.c: how validation judges broken results of one operator on
 * one image, against a CPU reference made once (test-breaks.py drives it).
 *
 *   break-check DEVICE INPUT BROKEN_KERNELS FAMILY [--NAME VALUE]...
 *
 * INPUT is WxH:DEPTH (the synthetic image clfx-bench makes) or a file.
 * The operator runs on DEVICE with the embedded kernels and is validated
 * as clfx-bench --validate does (the reference, the tolerance, the probes).
 * Then, against that same reference and tolerance:
 *   - that result with its colour times 1.3 and times 1.05 in linear light
 *     (encoded again, rounded to the result's depth): the bytes a kernel
 *     whose final store scaled its colour would give, made here so that
 *     each factor costs no kernel build;
 *   - the result of the kernels in BROKEN_KERNELS (CLFX_KERNEL_DIR), in
 *     which the driver has left one step of the operator out.
 * One JSON object a line per result: break ("none", "x1.3", "x1.05",
 * "structural"), whether validation passed, the values beyond the bound
 * (mismatches; ambiguous: inside what a tie allows), the largest
 * difference and the bound where it was.  The device's two runs also say
 * which kernels they launched (kernels: "none" the shipped kernels',
 * "structural" the broken ones'), and "structural" how many values differ
 * from the shipped kernels' result (differs): none at all means the break
 * never reached a kernel the device ran (a form of the operator the
 * driver did not break), which says nothing of validation.  The
 * reference is the costly part
 * at 2048 x 2048 (median, bilateral, fattal02): made once, it serves all
 * four.  Exit status 0 when every line was written, 1 otherwise. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clfx-imageio.h"
#include "clfx-params.h"
#include "clfx-run.h"

static bool
load_input (const char *input, ClfxImage *src, ClfxError *e)
{
  int       w, h, n, channels = 4;
  char      depth_name[16];
  ClfxDepth depth;

  if (sscanf (input, "%dx%d:%15s%n", &w, &h, depth_name, &n) != 3
      || input[n])
    return clfx_image_read (input, src, &channels, e);
  if (! clfx_depth_from_name (depth_name, &depth))
    return clfx_error_set (e, CLFX_ERR_INVALID, "unknown depth '%s'",
                           depth_name);
  if (! clfx_host_image_alloc (src, w, h, 4, depth, e))
    return false;
  /* clfx-bench's --synthetic, seed 1: its pixels, curve and alpha. */
  clfx_host_image_synthetic (src, 1);
  src->straight_alpha = false;
  src->transfer = depth == CLFX_DEPTH_U8 || depth == CLFX_DEPTH_U16
                    ? CLFX_TRC_SRGB : CLFX_TRC_LINEAR;
  return true;
}

/* A copy of img with every colour value times f in linear light. */
static bool
scaled (const ClfxImage *img, double f, ClfxImage *out, ClfxError *e)
{
  if (! clfx_host_image_alloc (out, img->width, img->height, img->channels,
                               img->depth, e))
    return false;
  out->straight_alpha = img->straight_alpha;
  out->transfer = img->transfer;
  for (int y = 0; y < img->height; y++)
    for (int x = 0; x < img->width; x++)
      for (int c = 0; c < img->channels; c++)
        if (clfx_image_is_colour (img, c))
          clfx_image_set_linear (out, x, y, c,
                                 (float) (f * clfx_image_get_linear (img, x,
                                                                     y, c)));
        else
          clfx_image_set (out, x, y, c, clfx_image_get (img, x, y, c));
  return true;
}

/* The kernels a run launched, as a JSON array of their names (t: that
 * run's timings; NULL: none). */
static void
print_kernels (const ClfxTimings *t)
{
  printf (", \"kernels\": [");
  for (int i = 0; t && i < t->n_kernels; i++)
    printf ("%s\"%s\"", i ? ", " : "", t->kernels[i].name);
  printf ("]");
}

/* One result's line; kernels, when given, the run's kernels, and differs,
 * when not negative, the values that differ from the shipped kernels'
 * result. */
static void
print_line (const char *input, const char *brk, const ClfxValidation *v,
            bool passed, double reference_ms, const ClfxTimings *kernels,
            long differs)
{
  printf ("{\"input\": \"%s\", \"break\": \"%s\", \"passed\": %s, "
          "\"mismatches\": %zu, \"ambiguous\": %zu, \"samples\": %zu, "
          "\"max_abs\": %.9g, \"abs_tol\": %.9g, \"abs_tol_min\": %.9g, "
          "\"rel_tol\": %.9g, \"worst\": [%d, %d, %d, %.9g, %.9g, %.9g], "
          "\"reference_ms\": %.1f",
          input, brk, passed ? "true" : "false", v->mismatches, v->ambiguous,
          v->samples, v->max_abs, v->abs_tol, v->abs_tol_min, v->rel_tol,
          v->worst.x, v->worst.y, v->worst.channel, v->worst.expected,
          v->worst.actual, v->worst.tol, reference_ms);
  if (kernels)
    print_kernels (kernels);
  if (differs >= 0)
    printf (", \"differs\": %ld", differs);
  printf ("}\n");
  fflush (stdout);
}

/* The values (samples) of a and b, of one size and layout, whose bytes
 * differ. */
static long
count_differing (const ClfxImage *a, const ClfxImage *b)
{
  size_t bps = clfx_depth_size (a->depth);
  size_t row = (size_t) a->width * (size_t) a->channels * bps;
  long   n = 0;

  for (int y = 0; y < a->height; y++)
    {
      const unsigned char *p = (const unsigned char *) a->data
                               + (size_t) y * a->stride;
      const unsigned char *q = (const unsigned char *) b->data
                               + (size_t) y * b->stride;
      if (! memcmp (p, q, row))
        continue;
      for (size_t i = 0; i < row; i += bps)
        n += memcmp (p + i, q + i, bps) != 0;
    }
  return n;
}

/* dst against the good run's reference, tolerance, per-pixel bound and
 * the variant's envelope lo and hi (may be empty). */
static void
judge (const char *input, const char *brk, const ClfxRunResult *r,
       const ClfxImage *lo, const ClfxImage *hi, const ClfxImage *dst,
       const ClfxTimings *kernels, long differs)
{
  ClfxValidation v;

  clfx_validate_per_pixel (&r->reference, lo->data ? lo : NULL,
                           hi->data ? hi : NULL, dst, r->tolerance.abs_tol,
                           r->abs_map.data ? &r->abs_map : NULL,
                           r->tolerance.rel_tol, &v);
  print_line (input, brk, &v, v.passed, 0.0, kernels, differs);
}

int
main (int argc, char **argv)
{
  const char        *device, *input, *broken;
  const ClfxFamily  *fam;
  const ClfxVariant *var;
  ClfxParams         p;
  ClfxImage          src = { 0 }, dst = { 0 }, bad = { 0 }, lo = { 0 },
                     hi = { 0 }, tmp = { 0 };
  ClfxRunResult      r;
  ClfxContext       *ctx = NULL, *bctx = NULL;
  ClfxError          e = { 0 };
  ClfxRunOptions     opt = { NULL, true, 0, &ctx, false, false };
  ClfxTimings        t;
  int                status = 1;

  memset (&r, 0, sizeof r);
  memset (&t, 0, sizeof t);
  if (argc < 5 || ! (fam = clfx_family_find (argv[4])))
    {
      fprintf (stderr, "usage: break-check DEVICE INPUT BROKEN_KERNELS "
               "FAMILY [--NAME VALUE]...\n");
      return 64;
    }
  device = argv[1];
  input = argv[2];
  broken = argv[3];
  clfx_params_defaults (fam, &p);
  for (int i = 5; i + 1 < argc; i += 2)
    if (strncmp (argv[i], "--", 2) != 0
        || ! clfx_params_set (&p, argv[i] + 2, argv[i + 1], &e))
      {
        fprintf (stderr, "break-check: %s: %s\n", argv[i],
                 e.message[0] ? e.message : "expected --NAME VALUE");
        return 64;
      }
  var = clfx_params_variant (&p);
  opt.device = device;
  /* The shipped kernels first, and no binary cache of clfx's own: a
   * broken program must never be taken for a good one, or the reverse. */
  unsetenv ("CLFX_KERNEL_DIR");
  setenv ("CLFX_CACHE_DIR", "off", 1);
  if (! load_input (input, &src, &e) || ! clfx_run (&p, &src, &dst, &opt, &r, &e))
    goto out;
  if (r.path != CLFX_PATH_OPENCL)
    {
      clfx_error_set (&e, CLFX_ERR_INVALID, "the result is not the "
                      "device's: %s", r.fallback);
      goto out;
    }
  print_line (input, "none", &r.validation, r.validation.passed,
              r.timings.reference_ms, &r.timings, -1);
  if (var->bounds)
    {
      if (! clfx_host_image_alloc (&lo, dst.width, dst.height, dst.channels,
                                   dst.depth, &e)
          || ! clfx_host_image_alloc (&hi, dst.width, dst.height,
                                      dst.channels, dst.depth, &e)
          || ! var->bounds (&p, &r.plan, &src, &r.reference, &lo, &hi, &e))
        goto out;
      lo.straight_alpha = hi.straight_alpha = dst.straight_alpha;
    }
  for (int k = 0; k < 2; k++)
    {
      if (! scaled (&dst, k ? 1.05 : 1.3, &tmp, &e))
        goto out;
      judge (input, k ? "x1.05" : "x1.3", &r, &lo, &hi, &tmp, NULL, -1);
      clfx_host_image_free (&tmp);
    }
  setenv ("CLFX_KERNEL_DIR", broken, 1);
  if (! (bctx = clfx_run_context_new (device, NULL, &e))
      || ! clfx_host_image_alloc (&bad, dst.width, dst.height, dst.channels,
                                  dst.depth, &e))
    goto out;
  bad.straight_alpha = dst.straight_alpha;
  bad.transfer = dst.transfer;
  if (! clfx_run_on_context (bctx, &p, &src, &bad, &t, NULL, NULL, &e))
    goto out;
  judge (input, "structural", &r, &lo, &hi, &bad, &t,
         count_differing (&dst, &bad));
  status = 0;
out:
  if (status)
    fprintf (stderr, "break-check: %s\n", e.message);
  clfx_timings_clear (&t);
  clfx_run_result_clear (&r);
  clfx_host_image_free (&dst);
  clfx_host_image_free (&bad);
  clfx_host_image_free (&lo);
  clfx_host_image_free (&hi);
  clfx_host_image_free (&src);
  if (ctx)
    clfx_context_free (ctx);
  if (bctx)
    clfx_context_free (bctx);
  return status;
}
