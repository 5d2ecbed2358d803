/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-tonemap-stats.c: whole-image statistics taken from outside a run
 * (clfx_run_with_stats, ClfxRunResult.stats; docs/TONEMAP.md, "Statistics
 * from outside"), as the GEGL module maps a lower mipmap level with the
 * full image's.  A run on an image gathers its statistics; a run on the
 * same image halved, given them, must use exactly those: its own
 * statistics say so, its constants are the full image's bit for bit on
 * the device, its result validates against the reference given the same,
 * and the halved image's own statistics would have made other constants.
 * The operators without statistics refuse them, and so does an image
 * that needs a part the given ones lack. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../device.h"
#include "clfx-params.h"
#include "clfx-run.h"

/* The operators with statistics, and the arguments that make each one's
 * constants depend on more of them (reinhard05's channel means). */
static const char *const operators[][5] = {
  { "reinhard02", NULL },
  { "reinhard05", "chromatic", "0.4", "light", "0.6" },
  { "drago03", NULL },
  { "aces", NULL },
  { "durand02", NULL },
};
#define N_OPS 5

/* The probes holding a run's constants (all but the histograms). */
static const char *const constants[] = { "log-average, mean Y",
                                         "scale a, white",
                                         "f, contrast m, key k",
                                         "range",
                                         "1/Lavg, 1/max Y, 1/log10, exponent",
                                         "base range (log10)",
                                         "largest finite value" };
#define N_CONSTANTS 7

#define W 256
#define H 160

static void
params_for (int op, ClfxParams *p)
{
  ClfxError e = { 0 };

  clfx_params_defaults (&clfx_family_tonemap, p);
  clfx_params_set (p, "operator", operators[op][0], &e);
  for (int i = 1; i < 5 && operators[op][i]; i += 2)
    clfx_params_set (p, operators[op][i], operators[op][i + 1], &e);
}

/* A high dynamic range image (2^-8 to 2^8 from the synthetic pattern) of
 * float RGBA, with a few values the cleaning finds; or 8-bit sRGB. */
static void
image (ClfxImage *img, int w, int h, ClfxDepth depth)
{
  ClfxError e = { 0 };

  clfx_host_image_alloc (img, w, h, 4, depth, &e);
  clfx_host_image_synthetic (img, 5);
  img->straight_alpha = true;
  img->transfer = depth == CLFX_DEPTH_U8 ? CLFX_TRC_SRGB : CLFX_TRC_LINEAR;
  if (depth != CLFX_DEPTH_FLOAT)
    return;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      for (int c = 0; c < 3; c++)
        clfx_image_set (img, x, y, c,
                        exp2f (16.0f * (clfx_image_get (img, x, y, c)
                                        - 0.5f)));
  clfx_image_set (img, 17 % w, 9 % h, 0, INFINITY);
  clfx_image_set (img, 90 % w, 33 % h, 1, NAN);
  clfx_image_set (img, 3 % w, 100 % h, 2, -1.0f);
}

/* src halved: each pixel the mean of a 2 x 2 block (in the stored
 * values). */
static void
halve (const ClfxImage *src, ClfxImage *dst)
{
  ClfxError e = { 0 };

  clfx_host_image_alloc (dst, src->width / 2, src->height / 2, 4, src->depth,
                         &e);
  dst->straight_alpha = src->straight_alpha;
  dst->transfer = src->transfer;
  for (int y = 0; y < dst->height; y++)
    for (int x = 0; x < dst->width; x++)
      for (int c = 0; c < 4; c++)
        {
          float s = clfx_image_get (src, 2 * x, 2 * y, c)
                    + clfx_image_get (src, 2 * x + 1, 2 * y, c)
                    + clfx_image_get (src, 2 * x, 2 * y + 1, c)
                    + clfx_image_get (src, 2 * x + 1, 2 * y + 1, c);
          clfx_image_set (dst, x, y, c, 0.25f * s);
        }
}

/* Whether a and b are the same statistics, value for value. */
static bool
same_stats (const ClfxStats *a, const ClfxStats *b)
{
  bool same = a->has_scan == b->has_scan && a->has_sums == b->has_sums
              && a->has_range == b->has_range && a->largest == b->largest
              && a->n == b->n && a->sum_y == b->sum_y
              && a->sum_log == b->sum_log && a->min_y == b->min_y
              && a->max_y == b->max_y;

  for (int k = 0; k < 4; k++)
    same = same && a->counts[k] == b->counts[k];
  for (int k = 0; k < 3; k++)
    same = same && a->sum_c[k] == b->sum_c[k];
  for (int k = 0; k < 2; k++)
    same = same && a->range[k] == b->range[k];
  return same;
}

/* Whether every constant probe of a (the device's values) is b's, bit
 * for bit; *n counts those compared. */
static bool
same_constants (const ClfxRunResult *a, const ClfxRunResult *b, int *n)
{
  *n = 0;
  for (int k = 0; k < N_CONSTANTS; k++)
    {
      const ClfxProbe *pa = test_probe (a, constants[k]);
      const ClfxProbe *pb = test_probe (b, constants[k]);
      if (! pa && ! pb)
        continue;
      if (! pa || ! pb || ! pa->device || ! pb->device
          || pa->n_device != pb->n_device
          || memcmp (pa->device, pb->device,
                     (size_t) pa->n_device * sizeof *pa->device))
        return false;
      ++*n;
    }
  return true;
}

static void
given (ClfxContext **ctx, int op, ClfxDepth depth)
{
  ClfxRunOptions opt = { NULL, true, 0, ctx, false, false };
  ClfxParams     p;
  ClfxImage      full, half, a = { 0 }, b = { 0 }, c = { 0 };
  ClfxRunResult  ra, rb, rc;
  ClfxError      e = { 0 };
  const char    *name = operators[op][0];
  bool           ok_a, ok_b, ok_c, same;
  int            n = 0, m = 0;

  memset (&ra, 0, sizeof ra);
  memset (&rb, 0, sizeof rb);
  memset (&rc, 0, sizeof rc);
  params_for (op, &p);
  image (&full, W, H, depth);
  halve (&full, &half);
  ok_a = clfx_run (&p, &full, &a, &opt, &ra, &e);
  tap_ok (ok_a && ra.has_stats && ra.stats.n == (double) W * H
            && ra.stats.has_scan == (depth == CLFX_DEPTH_FLOAT)
            && ra.stats.has_sums == (op != 3),
          "%s %s %dx%d: its statistics gathered (scan %d, sums %d, range "
          "%d)%s%s", name, clfx_depth_name (depth), W, H,
          ra.stats.has_scan, ra.stats.has_sums, ra.stats.has_range,
          ok_a ? "" : ": ", ok_a ? "" : e.message);
  ok_b = ok_a
         && clfx_run_with_stats (&p, &half, &b, &opt, &ra.stats, &rb, &e);
  same = ok_b && same_constants (&ra, &rb, &n);
  tap_ok (ok_b && rb.path == CLFX_PATH_OPENCL && rb.validation.passed
            && rb.has_stats && same_stats (&rb.stats, &ra.stats) && same,
          "%s %s, halved and given them: validated against the reference "
          "given the same, the same statistics, %d constant probes the "
          "full image's bit for bit%s%s", name, clfx_depth_name (depth), n,
          ok_b ? "" : ": ", ok_b ? "" : e.message);
  /* Its own statistics: other constants (aces on 8-bit data has none to
   * differ). */
  ok_c = ok_a && clfx_run (&p, &half, &c, &opt, &rc, &e);
  if (n > 0)
    tap_ok (ok_c && ! same_constants (&ra, &rc, &m),
            "%s %s, halved with its own statistics: other constants", name,
            clfx_depth_name (depth));
  {
    ClfxRunOptions ref = { "reference", false, 0, NULL, false, false };
    ClfxImage      d = { 0 };
    ClfxRunResult  rd;
    bool           ok_d;

    memset (&rd, 0, sizeof rd);
    ok_d = ok_a
           && clfx_run_with_stats (&p, &half, &d, &ref, &ra.stats, &rd, &e);
    tap_ok (ok_d && rd.path == CLFX_PATH_REFERENCE && rd.has_stats
              && same_stats (&rd.stats, &ra.stats),
            "%s %s, halved, on the CPU reference given them: they are its "
            "statistics%s%s", name, clfx_depth_name (depth),
            ok_d ? "" : ": ", ok_d ? "" : e.message);
    if (ok_d)
      clfx_host_image_free (&d);
    clfx_run_result_clear (&rd);
  }
  if (ok_a)
    clfx_host_image_free (&a);
  if (ok_b)
    clfx_host_image_free (&b);
  if (ok_c)
    clfx_host_image_free (&c);
  clfx_run_result_clear (&ra);
  clfx_run_result_clear (&rb);
  clfx_run_result_clear (&rc);
  clfx_host_image_free (&full);
  clfx_host_image_free (&half);
}

/* What must be refused: statistics given to a filter, and given ones
 * lacking a part the image needs (the scan of a float image, durand02's
 * range). */
static void
refusals (void)
{
  ClfxRunOptions ref = { "reference", false, 0, NULL, false, false };
  ClfxParams     p;
  ClfxStats      s;
  ClfxImage      src, dst;
  ClfxRunResult  r;
  ClfxError      e = { 0 };
  bool           ok;

  memset (&s, 0, sizeof s);
  s.has_scan = s.has_sums = s.has_range = true;
  s.n = 64.0;
  s.sum_y = s.max_y = 64.0;
  image (&src, 16, 8, CLFX_DEPTH_FLOAT);
  clfx_params_defaults (&clfx_family_filter, &p);
  ok = clfx_run_with_stats (&p, &src, &dst, &ref, &s, &r, &e);
  tap_ok (! ok && e.code == CLFX_ERR_INVALID,
          "statistics given to the gaussian: refused (%s)", e.message);
  clfx_run_result_clear (&r);

  params_for (0, &p);
  s.has_scan = false;
  memset (&e, 0, sizeof e);
  ok = clfx_run_with_stats (&p, &src, &dst, &ref, &s, &r, &e);
  tap_ok (! ok && e.code == CLFX_ERR_INVALID,
          "reinhard02 on float given statistics without the scan: refused "
          "(%s)", e.message);
  clfx_run_result_clear (&r);

  params_for (4, &p);
  s.has_scan = true;
  s.has_range = false;
  memset (&e, 0, sizeof e);
  ok = clfx_run_with_stats (&p, &src, &dst, &ref, &s, &r, &e);
  tap_ok (! ok && e.code == CLFX_ERR_INVALID,
          "durand02 given statistics without its range: refused (%s)",
          e.message);
  clfx_run_result_clear (&r);
  clfx_host_image_free (&src);
}

int
main (void)
{
  ClfxDeviceList list;
  int            skip = 0;
  ClfxContext   *ctx = test_context (&list, &skip);

  if (! ctx)
    return skip;
  for (int op = 0; op < N_OPS; op++)
    {
      given (&ctx, op, CLFX_DEPTH_FLOAT);
      given (&ctx, op, CLFX_DEPTH_U8);
    }
  refusals ();
  clfx_context_free (ctx);
  clfx_device_list_free (&list);
  return tap_done ();
}
