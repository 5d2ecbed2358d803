/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-tonemap-finite.c: every tone mapper on images of extreme finite
 * values, on the device against its CPU reference (docs/TONEMAP.md,
 * "Common to every operator"): subnormal, tiny, huge and constant images,
 * one huge texel among ordinary ones, a black one.  Each result, the
 * device's and the reference's, must be finite and validate, the
 * cleaning's counts must be this file's own (tiny values included), and
 * what each case is must show: a subnormal or underexposed image is
 * black, a constant one constant, a tiny one mapped (not black), one
 * huge texel leaves the rest of the image mapped.  Small images: the
 * whole file takes a few seconds once the kernels are cached. */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
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
#define ACES  3
#define LOCAL_LAPLACIAN 7

/* Two blocks of the statistics (64 x 32) across and down. */
#define W 67
#define H 37

/* What a case's result must show besides being finite and validated. */
typedef enum
{
  SHOW_NOTHING,
  SHOW_BLACK,    /* every colour value 0 */
  SHOW_CONSTANT, /* every pixel's colour the same, within 1e-4 */
  SHOW_MAPPED,   /* some colour value above 0.01 (aces: any;
                  * local-laplacian: above 0) */
  SHOW_REST,     /* beside the huge texel, some value above 0.01 */
} Show;

typedef struct
{
  const char *name;
  Show        show;
  const char *exposure;
  ClfxDepth   depth;
} Case;

/* Uniform in log between lo and hi, from a small generator of our own
 * (the same values on every run). */
static float
log_uniform (unsigned *state, double lo, double hi)
{
  *state = *state * 1664525u + 1013904223u;
  return (float) exp (log (lo) + (log (hi) - log (lo))
                                   * ((*state >> 8) / 16777216.0));
}

/* The case's stored colour at (x, y), channel c. */
static float
value (const char *name, int x, int y, int c, unsigned *s)
{
  if (! strcmp (name, "subnormal"))
    return log_uniform (s, 1.5e-45, 1e-39);
  if (! strcmp (name, "tiny"))
    return log_uniform (s, 4e-37, 1e-33);
  if (! strcmp (name, "tiny blue"))
    return c == 2 ? log_uniform (s, 4e-37, 1e-36) : 0.0f;
  if (! strcmp (name, "underexposed"))
    return log_uniform (s, 1e-32, 3e-31);
  if (! strcmp (name, "huge"))
    return log_uniform (s, 1e30, FLT_MAX);
  if (! strcmp (name, "constant FLT_MAX"))
    return FLT_MAX;
  if (! strcmp (name, "constant 3e38"))
    return 3e38f;
  if (! strcmp (name, "constant 0.5"))
    return 0.5f;
  if (! strcmp (name, "constant 4e-37"))
    return 4e-37f;
  if (! strcmp (name, "one huge texel"))
    return x == 20 && y == 11 ? 3e38f : log_uniform (s, 1e-3, 1e3);
  if (! strcmp (name, "subnormal among ordinary"))
    return (x + y + c) % 3 ? log_uniform (s, 1e-3, 1e3)
                           : log_uniform (s, 1.5e-45, 1e-39);
  if (! strcmp (name, "FLT_MAX, the least subnormal and -0"))
    return (x * 7 + y * 3 + c) % 3 == 0   ? FLT_MAX
           : (x * 7 + y * 3 + c) % 3 == 1 ? 1.4e-45f
                                          : -0.0f;
  if (! strcmp (name, "one tiny blue texel"))
    return x == 20 && y == 11 && c == 2 ? 4e-37f : 0.0f;
  return 0.0f; /* black */
}

/* The stored image's counts (NaN, negative, +Inf, tiny) and largest
 * finite value, as the scan finds them. */
static void
count (const ClfxImage *src, double counts[4], double *largest)
{
  memset (counts, 0, 4 * sizeof *counts);
  *largest = 0.0;
  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      for (int c = 0; c < 3; c++)
        {
          float v = clfx_image_get (src, x, y, c);
          if (isnan (v))
            counts[0]++;
          else if (v < 0.0f)
            counts[1]++;
          else if (isinf (v))
            counts[2]++;
          else if (v > 0.0f && v < 0x1p-121f)
            counts[3]++;
          else
            *largest = fmax (*largest, v);
        }
}

/* Colour values of img not finite. */
static int
not_finite (const ClfxImage *img)
{
  int n = 0;

  for (int y = 0; img->data && y < img->height; y++)
    for (int x = 0; x < img->width; x++)
      for (int c = 0; c < 4; c++)
        n += ! isfinite (clfx_image_get (img, x, y, c));
  return n;
}

/* Whether the result shows what the case must (Show); *what says what it
 * found. */
static bool
shows (const ClfxImage *dst, Show show, int op, double *what)
{
  double lo = INFINITY, hi = -INFINITY, rest = 0.0;

  for (int y = 0; y < dst->height; y++)
    for (int x = 0; x < dst->width; x++)
      for (int c = 0; c < 3; c++)
        {
          double v = clfx_image_get (dst, x, y, c);
          lo = fmin (lo, v);
          hi = fmax (hi, v);
          if (! (x == 20 && y == 11))
            rest = fmax (rest, v);
        }
  switch (show)
    {
    case SHOW_BLACK:
      *what = hi;
      return lo == 0.0 && hi == 0.0;
    case SHOW_CONSTANT:
      *what = hi - lo;
      return hi - lo <= 1e-4 * fmax (1.0, hi);
    case SHOW_MAPPED:
      *what = hi;
      /* aces maps tiny values to its curve's foot: 0; local-laplacian
       * keeps the image's level. */
      return op == ACES || (op == LOCAL_LAPLACIAN && hi > 0.0) || hi > 0.01;
    case SHOW_REST:
      *what = rest;
      return rest > 0.01;
    default:
      *what = 0.0;
      return true;
    }
}

static const char *const show_names[] = { "finite", "black", "constant",
                                           "mapped", "mapped beside it" };

static void
one (ClfxContext **ctx, const Case *k, int op, const char *const *args)
{
  ClfxRunOptions   opt = { NULL, true, 64, ctx, false, false };
  ClfxParams       p;
  ClfxImage        src, dst = { 0 };
  ClfxRunResult    r;
  ClfxError        e = { 0 };
  const ClfxProbe *pc, *pl;
  double           counts[4], largest, what = 0.0;
  unsigned         seed = 7;
  int              odd_dev = 0, odd_ref = -1;
  bool             ok, counted, shown = false;

  memset (&r, 0, sizeof r);
  clfx_params_defaults (&clfx_family_tonemap, &p);
  ok = clfx_params_set (&p, "operator", operators[op], &e)
       && clfx_params_set (&p, "exposure", k->exposure, &e);
  for (int i = 0; ok && args && args[i]; i += 2)
    ok = clfx_params_set (&p, args[i], args[i + 1], &e);
  if (! ok || ! clfx_host_image_alloc (&src, W, H, 4, k->depth, &e))
    {
      tap_ok (false, "%s, %s: %s", operators[op], k->name, e.message);
      return;
    }
  src.straight_alpha = true;
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      {
        for (int c = 0; c < 3; c++)
          clfx_image_set (&src, x, y, c, value (k->name, x, y, c, &seed));
        clfx_image_set (&src, x, y, 3, 1.0f);
      }
  count (&src, counts, &largest);
  ok = clfx_run (&p, &src, &dst, &opt, &r, &e);
  if (ok)
    {
      odd_dev = not_finite (&dst);
      odd_ref = r.validated ? not_finite (&r.reference) : -1;
      shown = shows (&dst, k->show, op, &what);
    }
  pc = test_probe (&r, "cleaned: NaN, negative, +Inf, tiny");
  pl = test_probe (&r, "largest finite value");
  counted = pc && pl && pc->n_device == 4 && pc->n_reference == 4
            && pl->n_device == 1 && pl->device[0] == largest;
  for (int i = 0; counted && i < 4; i++)
    counted = pc->device[i] == counts[i] && pc->reference[i] == counts[i];
  tap_ok (ok && r.path == CLFX_PATH_OPENCL && r.validation.passed
            && odd_dev == 0 && odd_ref == 0 && counted && shown,
          "%s%s%s on %s %s (exposure %s): validated, every value finite "
          "(not: device %d, reference %d), %g tiny values counted (device "
          "%g), %s (%g)%s%s",
          operators[op], args ? " " : "", args ? args[0] : "", k->name,
          clfx_depth_name (k->depth), k->exposure, odd_dev, odd_ref,
          counts[3], pc && pc->n_device == 4 ? pc->device[3] : -1.0,
          show_names[k->show], what, ok ? "" : ": ", ok ? "" : e.message);
  for (int i = 0; ok && i < r.probes.n; i++)
    if (! r.probes.probes[i].passed)
      tap_diag ("probe %s: %zu values off, max abs %g (%s)",
                r.probes.probes[i].name, r.probes.probes[i].mismatches,
                r.probes.probes[i].max_abs, r.probes.probes[i].basis);
  if (ok)
    clfx_host_image_free (&dst);
  clfx_run_result_clear (&r);
  clfx_host_image_free (&src);
}

int
main (void)
{
  static const Case cases[] = {
    { "subnormal", SHOW_BLACK, "0", CLFX_DEPTH_FLOAT },
    /* Subnormals made normal by the exposure are still 0. */
    { "subnormal", SHOW_BLACK, "20", CLFX_DEPTH_FLOAT },
    { "tiny", SHOW_MAPPED, "0", CLFX_DEPTH_FLOAT },
    { "tiny blue", SHOW_MAPPED, "0", CLFX_DEPTH_FLOAT },
    { "constant 4e-37", SHOW_CONSTANT, "0", CLFX_DEPTH_FLOAT },
    { "underexposed", SHOW_BLACK, "-20", CLFX_DEPTH_FLOAT },
    { "huge", SHOW_NOTHING, "0", CLFX_DEPTH_FLOAT },
    { "constant FLT_MAX", SHOW_CONSTANT, "0", CLFX_DEPTH_FLOAT },
    { "constant 3e38", SHOW_CONSTANT, "20", CLFX_DEPTH_FLOAT },
    { "constant 0.5", SHOW_CONSTANT, "0", CLFX_DEPTH_FLOAT },
    { "one huge texel", SHOW_REST, "0", CLFX_DEPTH_FLOAT },
    { "subnormal among ordinary", SHOW_MAPPED, "0", CLFX_DEPTH_FLOAT },
    { "FLT_MAX, the least subnormal and -0", SHOW_NOTHING, "0",
      CLFX_DEPTH_FLOAT },
    { "black", SHOW_BLACK, "0", CLFX_DEPTH_FLOAT },
  };
  /* Arguments that reach the extremes of an operator's own arithmetic:
   * reinhard02's smallest white point (its L / white^2 up to 1e30 on a
   * huge image; a half result saturates), durand02's largest detail
   * (e / Y past FLT_MAX at a tiny texel). */
  static const char *const r02_white[] = { "white-point", "0.001", "key",
                                           "1", NULL };
  static const char *const d02_detail[] = { "detail", "5", NULL };
  static const struct
  {
    int         op;
    const char *const *args;
    Case        k;
  } extras[] = {
    { 0, r02_white, { "huge", SHOW_NOTHING, "0", CLFX_DEPTH_FLOAT } },
    { 0, r02_white, { "constant 0.5", SHOW_CONSTANT, "10",
                      CLFX_DEPTH_HALF } },
    { 0, r02_white, { "one huge texel", SHOW_REST, "0", CLFX_DEPTH_FLOAT } },
    { 4, d02_detail, { "one tiny blue texel", SHOW_NOTHING, "0",
                       CLFX_DEPTH_FLOAT } },
    { 4, d02_detail, { "tiny blue", SHOW_MAPPED, "0", CLFX_DEPTH_FLOAT } },
  };
  ClfxDeviceList list;
  int            skip = 0;
  ClfxContext   *ctx = test_context (&list, &skip);

  if (! ctx)
    return skip;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    for (int op = 0; op < N_OPS; op++)
      one (&ctx, &cases[i], op, NULL);
  for (size_t i = 0; i < sizeof extras / sizeof extras[0]; i++)
    one (&ctx, &extras[i].k, extras[i].op, extras[i].args);
  clfx_context_free (ctx);
  clfx_device_list_free (&list);
  return tap_done ();
}
