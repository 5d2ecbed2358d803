/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-resize.c: every resize sampler mode on the OpenCL device against
 * the CPU reference, with a guard band around every output; then the
 * framework's promises: tiled and streamed runs bit for bit the one-piece
 * run, linear light on the device, an image wider than the device's 2D
 * image limit.
 *
 * Matrix: addressing x normalized (without the spec-forbidden pairs) x
 * filter x depth (u8, u16, half, float) x sizes (1x1, odd, prime, not a
 * multiple of the 16x16 work-group, 3000x17) x zoom below and above 1,
 * plus gray and gray+alpha, sRGB-encoded data, straight alpha.  Each
 * tolerance comes from the variant (engine/ops/resize-ref.c), which states its
 * basis; it is printed with every failure.  The rows of the matrix come
 * from the family table (its choices), so a new choice is swept too. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../device.h"
#include "clfx-common.h"
#include "clfx-graph-private.h"
#include "clfx-run.h"

typedef struct
{
  int sw, sh, dw, dh;
  const char *what;
} Size;

static const Size sizes[] = {
  { 1, 1, 3, 2, "1x1" },
  { 37, 23, 20, 41, "odd" },
  { 127, 61, 251, 19, "prime, 3.2x shrink in y" },
  { 17, 33, 9, 100, "not a multiple of the work-group" },
  { 3000, 17, 700, 40, "3000x17, 4.3x shrink in x" },
};

static int n_cases, n_tiled, n_two_pass, n_strip, n_sweep;

static const ClfxParamSpec *
row (const char *name)
{
  return clfx_family_param (&clfx_family_resize, name);
}

static bool
make_params (ClfxParams *p, int dw, int dh, int addr, bool normalized,
             int filter, const char *zoom, ClfxError *e)
{
  char w[16], h[16];

  snprintf (w, sizeof w, "%d", dw);
  snprintf (h, sizeof h, "%d", dh);
  clfx_params_defaults (&clfx_family_resize, p);
  return clfx_params_set (p, "width", w, e)
         && clfx_params_set (p, "height", h, e)
         && clfx_params_set (p, "zoom-x", zoom, e)
         && clfx_params_set (p, "zoom-y", zoom, e)
         && clfx_params_set (p, "filter", row ("filter")->choices[filter].nick,
                             e)
         && clfx_params_set (p, "addressing",
                             row ("addressing")->choices[addr].nick, e)
         && clfx_params_set (p, "normalized-coords",
                             normalized ? "true" : "false", e);
}

static void
case_name (char *buf, size_t n, const ClfxParams *p, const ClfxImage *src,
           const char *what)
{
  const ClfxResizeParams *rp = CLFX_PARAMS_OF (p, ClfxResizeParams);
  char                    z[32];

  snprintf (buf, n, "%s %s %s %s%s ch%d %dx%d->%dx%d zoom %s (%s)",
            clfx_param_get_nick (p, row ("filter")),
            clfx_param_get_nick (p, row ("addressing")),
            rp->normalized ? "normalized" : "unnormalized",
            clfx_depth_name (src->depth),
            src->transfer == CLFX_TRC_SRGB ? " srgb" : "", src->channels,
            src->width, src->height, rp->width, rp->height,
            clfx_param_format (p, row ("zoom-x"), z, sizeof z), what);
}

/* Runs p on ctx, validates against the reference, reports one TAP line. */
static void
one_case (ClfxContext *ctx, const ClfxImage *src, const ClfxParams *p,
          const char *what)
{
  const ClfxResizeParams *rp = CLFX_PARAMS_OF (p, ClfxResizeParams);
  ClfxError               e = { 0 };
  ClfxImage               dst = { 0 };
  ClfxRunResult           r;
  char                    name[256];
  bool                    ok;

  memset (&r, 0, sizeof r);
  ok = clfx_host_image_alloc (&dst, rp->width, rp->height, src->channels,
                              src->depth, &e)
       && clfx_run_on_context (ctx, p, src, &dst, &r.timings, &r.probes,
                               &r.plan, &e)
       && clfx_run_validate (p, src, &dst, &r, &e);
  n_cases++;
  for (int k = 0; ok && k < r.timings.n_kernels; k++)
    {
      n_tiled += strcmp (r.timings.kernels[k].name, "resize_filter_tile") == 0;
      n_strip += strcmp (r.timings.kernels[k].name, "resize_filter_strip")
                 == 0;
      n_sweep += strcmp (r.timings.kernels[k].name, "resize_filter_sweep")
                 == 0;
      /* resize_filter_v, or resize_filter_vb through a buffer */
      n_two_pass += strncmp (r.timings.kernels[k].name, "resize_filter_v",
                             15) == 0;
    }
  case_name (name, sizeof name, p, src, what);
  if (! tap_ok (ok && r.validation.passed, "%s", name))
    {
      if (! ok)
        tap_diag ("error: %s", e.message);
      else
        {
          const ClfxValidation *v = &r.validation;
          tap_diag ("%zu of %zu values off; tolerance %g + %g|e| (%s)",
                    v->mismatches, v->samples, v->abs_tol, v->rel_tol,
                    r.tolerance.basis);
          tap_diag ("worst at (%d,%d) channel %d: expected %.9g (%a), got "
                    "%.9g (%a); max abs %g, NaN %zu",
                    v->worst.x, v->worst.y, v->worst.channel,
                    v->worst.expected, v->worst.expected, v->worst.actual,
                    v->worst.actual, v->max_abs, v->nan);
        }
    }
  clfx_run_result_clear (&r);
  clfx_host_image_free (&dst);
}

static void
sweep (ClfxContext *ctx, const ClfxImage *src, int dw, int dh,
       const char *what, const char *const *zooms, int n_zooms)
{
  for (int addr = 0; addr < clfx_choice_count (row ("addressing")); addr++)
    for (int norm = 0; norm < 2; norm++)
      {
        /* The spec defines repeat and mirrored-repeat only with normalized
         * coordinates; refusing them is tested in test-reference. */
        if (! clfx_sampler_check (norm, addr, NULL))
          continue;
        for (int f = 0; f < clfx_choice_count (row ("filter")); f++)
          for (int z = 0; z < n_zooms; z++)
            {
              ClfxParams p;
              ClfxError  e = { 0 };
              if (make_params (&p, dw, dh, addr, norm, f, zooms[z], &e))
                one_case (ctx, src, &p, what);
              else
                tap_ok (false, "parameters: %s", e.message);
            }
      }
}

static bool
synthetic (ClfxImage *img, int w, int h, int channels, ClfxDepth depth,
           unsigned seed)
{
  ClfxError e = { 0 };

  if (! clfx_host_image_alloc (img, w, h, channels, depth, &e))
    {
      tap_ok (false, "allocate source: %s", e.message);
      return false;
    }
  clfx_host_image_synthetic (img, seed);
  return true;
}

/* ---- one piece against many -------------------------------------------- */

static bool
run_into (ClfxContext *ctx, const ClfxParams *p, const ClfxImage *src,
          ClfxImage *dst, ClfxTimings *t, ClfxError *e)
{
  const ClfxResizeParams *rp = CLFX_PARAMS_OF (p, ClfxResizeParams);

  return clfx_host_image_alloc (dst, rp->width, rp->height, src->channels,
                                src->depth, e)
         && clfx_run_on_context (ctx, p, src, dst, t, NULL, NULL, e);
}

static bool
same_pixels (const ClfxImage *a, const ClfxImage *b, int *bad_x, int *bad_y)
{
  size_t row_bytes = (size_t) a->width * clfx_image_pixel_size (a);

  for (int y = 0; y < a->height; y++)
    for (size_t i = 0; i < row_bytes; i++)
      if (((unsigned char *) a->data)[y * a->stride + i]
          != ((unsigned char *) b->data)[y * b->stride + i])
        {
          *bad_x = (int) (i / clfx_image_pixel_size (a));
          *bad_y = y;
          return false;
        }
  return true;
}

/* How `many` splits a run that `one` makes in one piece. */
typedef enum
{
  SPLIT_TILES,
  SPLIT_BANDS,       /* streamed bands */
  SPLIT_INTERMEDIATE /* one piece, the two-pass intermediate in bands */
} Split;

static int
launches (const ClfxTimings *t, const char *kernel)
{
  for (int k = 0; k < t->n_kernels; k++)
    if (strcmp (t->kernels[k].name, kernel) == 0)
      return t->kernels[k].launches;
  return 0;
}

/* p on `one` (the reference run) and on `many` (split as `split` says)
 * must give the same bytes. */
static void
bit_identical (ClfxContext *one, ClfxContext *many, const ClfxImage *src,
               const ClfxParams *p, const char *what, Split split)
{
  ClfxImage   a = { 0 }, b = { 0 };
  ClfxTimings ta, tb;
  ClfxError   e = { 0 };
  char        name[256];
  int         bx = -1, by = -1, n = 0;
  bool        ok, split_ok;

  memset (&ta, 0, sizeof ta);
  memset (&tb, 0, sizeof tb);
  ok = run_into (one, p, src, &a, &ta, &e)
       && run_into (many, p, src, &b, &tb, &e);
  case_name (name, sizeof name, p, src, what);
  if (split == SPLIT_INTERMEDIATE)
    split_ok = launches (&ta, "resize_filter_hb") == 1
               && (n = launches (&tb, "resize_filter_hb")) > 1;
  else
    split_ok = ta.pieces == 1 && (n = tb.pieces) > 1
               && tb.tiled == (split == SPLIT_TILES);
  tap_ok (ok && split_ok && same_pixels (&a, &b, &bx, &by),
          "%s: %d %s give the bytes of one%s%s", name, n,
          split == SPLIT_INTERMEDIATE ? "intermediate bands"
          : tb.tiled                  ? "tiles"
                                      : "bands",
          ok ? "" : ": ", ok ? "" : e.message);
  if (ok && bx >= 0)
    tap_diag ("first difference at result pixel (%d, %d)", bx, by);
  clfx_timings_clear (&ta);
  clfx_timings_clear (&tb);
  clfx_host_image_free (&a);
  clfx_host_image_free (&b);
}

static void
pieces_sweep (ClfxContext *one, ClfxContext *many, bool tiles)
{
  static const struct
  {
    int         sw, sh, dw, dh, channels;
    ClfxDepth   depth;
    bool        straight;
    ClfxTransfer transfer;
    const char *zoom;
  } cases[] = {
    { 97, 61, 53, 149, 4, CLFX_DEPTH_U8, true, CLFX_TRC_SRGB, "1" },
    { 97, 61, 301, 37, 4, CLFX_DEPTH_FLOAT, false, CLFX_TRC_LINEAR, "0.7" },
    { 131, 45, 40, 90, 2, CLFX_DEPTH_U16, true, CLFX_TRC_SRGB, "1.3" },
    { 64, 64, 37, 29, 1, CLFX_DEPTH_HALF, false, CLFX_TRC_LINEAR, "0.4" },
  };

  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    {
      ClfxImage src;
      if (! synthetic (&src, cases[c].sw, cases[c].sh, cases[c].channels,
                       cases[c].depth, 31 + (unsigned) c))
        continue;
      src.straight_alpha = cases[c].straight;
      src.transfer = cases[c].transfer;
      for (int addr = 0; addr < CLFX_N_ADDR; addr++)
        for (int f = 0; f < CLFX_N_RESAMPLE; f++)
          {
            ClfxParams p;
            ClfxError  e = { 0 };
            /* Normalized except once per mode that allows both. */
            bool norm = addr == CLFX_ADDR_REPEAT
                        || addr == CLFX_ADDR_MIRRORED || (f + c) % 2 == 0;
            if (make_params (&p, cases[c].dw, cases[c].dh, addr, norm, f,
                             cases[c].zoom, &e))
              bit_identical (one, many, &src, &p, tiles ? "tiled" : "banded",
                             tiles ? SPLIT_TILES : SPLIT_BANDS);
            else
              tap_ok (false, "parameters: %s", e.message);
          }
      clfx_host_image_free (&src);
    }
}

/* CPU devices run linear, cubic and lanczos3 in two passes through one
 * small intermediate, band by band (CLFX_BAND_BYTES sets a band's size):
 * many small bands must give the bytes of one. */
static void
intermediate_bands (ClfxContext *one, ClfxContext *many)
{
  static const struct
  {
    int          sw, sh, dw, dh, channels;
    ClfxDepth    depth;
    ClfxTransfer transfer;
    size_t       band;
  } cases[] = {
    { 97, 61, 53, 29, 4, CLFX_DEPTH_U8, CLFX_TRC_SRGB, 4096 },
    { 97, 61, 53, 149, 4, CLFX_DEPTH_FLOAT, CLFX_TRC_LINEAR, 16384 },
    { 131, 45, 40, 30, 2, CLFX_DEPTH_U16, CLFX_TRC_SRGB, 8192 },
    { 64, 64, 37, 17, 1, CLFX_DEPTH_HALF, CLFX_TRC_LINEAR, 3000 },
  };

  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    {
      ClfxImage src;
      if (! synthetic (&src, cases[c].sw, cases[c].sh, cases[c].channels,
                       cases[c].depth, 53 + (unsigned) c))
        continue;
      src.straight_alpha = cases[c].channels % 2 == 0;
      src.transfer = cases[c].transfer;
      many->tuning.band_bytes = cases[c].band;
      for (int addr = 0; addr < CLFX_N_ADDR; addr++)
        for (int f = CLFX_RESAMPLE_LINEAR; f <= CLFX_RESAMPLE_LANCZOS3; f++)
          {
            ClfxParams p;
            ClfxError  e = { 0 };
            bool       norm = addr == CLFX_ADDR_REPEAT
                              || addr == CLFX_ADDR_MIRRORED;
            if (make_params (&p, cases[c].dw, cases[c].dh, addr, norm, f,
                             "1", &e))
              bit_identical (one, many, &src, &p, "intermediate bands",
                             SPLIT_INTERMEDIATE);
            else
              tap_ok (false, "parameters: %s", e.message);
          }
      clfx_host_image_free (&src);
    }
  many->tuning.band_bytes = 0;
}

/* ---- linear light and the device's limits ------------------------------ */

static void
checkerboard_on_device (ClfxContext *ctx)
{
  ClfxImage  src, dst = { 0 };
  ClfxParams p;
  ClfxError  e = { 0 };
  ClfxTimings t;
  int        lo = 255, hi = 0;
  bool       ok;

  memset (&t, 0, sizeof t);
  clfx_host_image_alloc (&src, 64, 32, 4, CLFX_DEPTH_U8, &e);
  src.transfer = CLFX_TRC_SRGB;
  src.straight_alpha = true;
  for (int y = 0; y < 32; y++)
    for (int x = 0; x < 64; x++)
      for (int c = 0; c < 4; c++)
        clfx_image_set (&src, x, y, c, c == 3 || (x + y) % 2 ? 1.0f : 0.0f);
  ok = make_params (&p, 32, 16, CLFX_ADDR_CLAMP_TO_EDGE, true,
                    CLFX_RESAMPLE_LINEAR, "1", &e)
       && run_into (ctx, &p, &src, &dst, &t, &e);
  for (int y = 0; ok && y < 16; y++)
    for (int x = 0; x < 32; x++)
      for (int c = 0; c < 3; c++)
        {
          int v = ((unsigned char *) dst.data)[y * dst.stride + x * 4 + c];
          lo = v < lo ? v : lo;
          hi = v > hi ? v : hi;
        }
  tap_ok (ok && lo == 188 && hi == 188, "on the device, a 1-pixel "
          "checkerboard halved in linear light is sRGB 188 (got %d..%d)%s%s",
          lo, hi, ok ? "" : ": ", ok ? "" : e.message);
  clfx_timings_clear (&t);
  clfx_host_image_free (&src);
  clfx_host_image_free (&dst);
}

/* An image wider than the device's largest 2D image runs in tiles on the
 * device, validated, without a fallback: the device's real limit when the
 * image can be made that wide, and a limit lowered by hand on a copy of
 * the context's description otherwise. */
static void
wider_than_the_device (const ClfxDeviceInfo *dev)
{
  ClfxDeviceInfo  small = *dev;
  ClfxContext    *ctx;
  ClfxImage       src;
  ClfxParams      p;
  ClfxError       e = { 0 };
  int             w = (int) dev->image2d_max_width + 1000;
  char            what[128];

  if (w > 20000)
    {
      /* A GPU's limit (32768 on the H200) would make a 4 GB test. */
      small.image2d_max_width = 1500;
      w = 2500;
    }
  if (! (ctx = clfx_context_new (&small, &e)))
    {
      tap_ok (false, "context: %s", e.message);
      return;
    }
  if (! synthetic (&src, w, 60, 4, CLFX_DEPTH_U8, 5))
    {
      clfx_context_free (ctx);
      return;
    }
  src.transfer = CLFX_TRC_SRGB;
  snprintf (what, sizeof what, "%d wide, the device's 2D images at most "
            "%zu", w, small.image2d_max_width);
  for (int f = 0; f < CLFX_N_RESAMPLE; f += 1)
    if (make_params (&p, w / 2, 30, CLFX_ADDR_CLAMP_TO_EDGE, true, f, "1",
                     &e))
      one_case (ctx, &src, &p, what);
  clfx_host_image_free (&src);
  clfx_context_free (ctx);
}

/* A kernel that writes one pixel to the right of its output must be
 * caught by the guard band (and nothing else may catch it first). */
static void
guard_band_catches_stray_write (const ClfxDeviceInfo *dev)
{
  const char *src_dir = getenv ("CLFX_KERNEL_SRC");
  char        dir[] = "/tmp/clfx-guard-XXXXXX";
  char        cmd[1024];
  ClfxContext *ctx = NULL;
  ClfxImage   src = { 0 }, dst = { 0 };
  ClfxParams  p;
  ClfxTimings t;
  ClfxError   e = { 0 };
  bool        ok;

  memset (&t, 0, sizeof t);
  if (! src_dir || ! mkdtemp (dir))
    {
      tap_ok (false, "guard band test needs CLFX_KERNEL_SRC and a temp dir");
      return;
    }
  snprintf (cmd, sizeof cmd,
            "cp '%s'/*.cl '%s'/*.h '%s'/ && sed -i 's/CLFX_STORE (x, y,/"
            "CLFX_STORE (x + 1, y,/' '%s'/copy.cl", src_dir, src_dir, dir,
            dir);
  if (system (cmd) != 0)
    {
      tap_ok (false, "could not prepare a broken copy kernel");
      return;
    }
  setenv ("CLFX_KERNEL_DIR", dir, 1);
  ctx = clfx_context_new (dev, &e);
  if (ctx)
    {
      clfx_context_set_cache_dir (ctx, "off");
      ctx->guard_bytes = 64;
    }
  clfx_params_defaults (&clfx_family_copy, &p);
  ok = ctx && clfx_host_image_alloc (&src, 33, 7, 4, CLFX_DEPTH_U8, &e)
       && clfx_host_image_alloc (&dst, 33, 7, 4, CLFX_DEPTH_U8, &e);
  if (ok)
    clfx_host_image_synthetic (&src, 3);
  ok = ok && ! clfx_run_on_context (ctx, &p, &src, &dst, &t, NULL, NULL, &e);
  tap_ok (ok && e.code == CLFX_ERR_GUARD && strstr (e.message, "guard band"),
          "a kernel writing one pixel past its row is caught by the guard "
          "band: %s", e.message);
  unsetenv ("CLFX_KERNEL_DIR");
  snprintf (cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system (cmd) != 0)
    tap_diag ("could not remove %s", dir);
  clfx_timings_clear (&t);
  clfx_context_free (ctx);
  clfx_host_image_free (&src);
  clfx_host_image_free (&dst);
}

/* CLFX_RESIZE_STRIP=sweep: shrinks by whole factors in every depth (8-bit
 * with straight alpha), every addressing mode, validated; where sources
 * are images some must have gone down the sweep kernel. */
static void
sweep_shrinks (ClfxContext *ctx, const int (*shrinks)[4], int n)
{
  static const char *const one[] = { "1" };
  int                      before = n_sweep;

  for (int d = 0; d < CLFX_N_DEPTHS; d++)
    for (int s = 0; s <= n; s++)
      {
        /* The last: 256x128 to 128x64, every pixel's weights the same. */
        int       sw = s < n ? shrinks[s][0] : 256;
        int       sh = s < n ? shrinks[s][1] : 128;
        ClfxImage src;
        if (! synthetic (&src, sw, sh, 4, (ClfxDepth) d, 23 + (unsigned) s))
          continue;
        src.transfer = d % 2 ? CLFX_TRC_LINEAR : CLFX_TRC_SRGB;
        src.straight_alpha = d == 0;
        sweep (ctx, &src, s < n ? shrinks[s][2] : 128,
               s < n ? shrinks[s][3] : 64, "whole-factor shrink, sweep", one,
               1);
        clfx_host_image_free (&src);
      }
  if (! clfx_context_source_buffer (ctx))
    tap_ok (n_sweep > before, "CLFX_RESIZE_STRIP=sweep: %d cases down the "
            "sweep kernel", n_sweep - before);
}

/* The strip and sweep kernels of 8-bit shrinks by whole factors
 * (built-in tap counts, as on GPUs) in tiles: the bytes of one piece. */
static void
strip_pieces (ClfxContext *one, ClfxContext *many)
{
  ClfxImage src;

  if (! synthetic (&src, 150, 40, 4, CLFX_DEPTH_U8, 43))
    return;
  src.transfer = CLFX_TRC_SRGB;
  src.straight_alpha = true;
  one->tuning.fixed_taps = many->tuning.fixed_taps = true;
  for (int sw = 0; sw < 2; sw++)
    {
      one->tuning.strip = many->tuning.strip
        = sw ? CLFX_STRIP_SWEEP : CLFX_STRIP_AUTO;
      for (int addr = 0; addr < CLFX_N_ADDR; addr++)
        for (int f = CLFX_RESAMPLE_CUBIC; f <= CLFX_RESAMPLE_LANCZOS3; f++)
          {
            ClfxParams p;
            ClfxError  e = { 0 };
            if (make_params (&p, 75, 20, addr, true, f, "1", &e))
              bit_identical (one, many, &src, &p,
                             sw ? "whole-factor shrink, sweep, tiled"
                                : "whole-factor shrink, tiled",
                             SPLIT_TILES);
            else
              tap_ok (false, "parameters: %s", e.message);
          }
    }
  one->tuning.strip = many->tuning.strip = CLFX_STRIP_AUTO;
  one->tuning.fixed_taps = many->tuning.fixed_taps = false;
  clfx_host_image_free (&src);
}

int
main (void)
{
  static const char *const zooms[] = { "0.7", "1.3" };
  ClfxDeviceList list;
  int            skip = 0;
  ClfxContext   *ctx = test_context (&list, &skip), *many;
  ClfxError      e = { 0 };

  if (! ctx)
    return skip;
  ctx->guard_bytes = 64;

  for (int d = 0; d < CLFX_N_DEPTHS; d++)
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
      {
        ClfxImage src;
        if (! synthetic (&src, sizes[s].sw, sizes[s].sh, 4, (ClfxDepth) d,
                         (unsigned) (d * 16 + s)))
          continue;
        sweep (ctx, &src, sizes[s].dw, sizes[s].dh, sizes[s].what, zooms, 2);
        clfx_host_image_free (&src);
      }
  /* Gray and gray+alpha (CL_R, CL_RG, or RGBA where the device lacks or
   * misreads them) in every depth. */
  for (int ch = 1; ch <= 2; ch++)
    for (int d = 0; d < CLFX_N_DEPTHS; d++)
      {
        ClfxImage src;
        if (! synthetic (&src, 37, 23, ch, (ClfxDepth) d, 99))
          continue;
        sweep (ctx, &src, 50, 15, ch == 1 ? "gray" : "gray+alpha", zooms, 1);
        clfx_host_image_free (&src);
      }
  /* The two-pass kernels run where a tile's footprint does not fit in
   * local memory; force them so both paths are covered on every device. */
  ctx->tuning.two_pass = true;
  for (int d = 0; d < CLFX_N_DEPTHS; d += 3)
    for (size_t s = 1; s < sizeof sizes / sizeof sizes[0]; s += 3)
      {
        ClfxImage src;
        if (! synthetic (&src, sizes[s].sw, sizes[s].sh, 4, (ClfxDepth) d, 7))
          continue;
        sweep (ctx, &src, sizes[s].dw, sizes[s].dh, "two-pass forced", zooms,
               2);
        clfx_host_image_free (&src);
      }
  ctx->tuning.two_pass = false;
  /* GPUs build the tiled kernel with its tap counts as constants; force
   * that so CPU devices cover it too wherever they run the tiled kernel,
   * and check that such a program was built. */
  {
    int tiled = n_tiled, fixed = 0;
    ctx->tuning.fixed_taps = true;
    for (int d = 0; d < CLFX_N_DEPTHS; d += 3)
      for (size_t s = 1; s <= 2; s++)
        {
          ClfxImage src;
          if (! synthetic (&src, sizes[s].sw, sizes[s].sh, 4, (ClfxDepth) d,
                           13))
            continue;
          sweep (ctx, &src, sizes[s].dw, sizes[s].dh, "fixed taps", zooms,
                 2);
          clfx_host_image_free (&src);
        }
    /* 8-bit sRGB shrinks by whole factors go down strips there
     * (resize_filter_strip, or resize_filter_sweep where every pixel's
     * weights are the same): 2x both ways, 4x by 2x, and a result whose
     * width is not a multiple of the strips' 64 columns; straight and
     * premultiplied alpha, every addressing mode, zoom 1. */
    {
      static const char *const one[] = { "1" };
      static const int         shrinks[][4] = { { 128, 96, 64, 48 },
                                                { 128, 96, 32, 48 },
                                                { 150, 40, 75, 20 } };
      /* Result rows a work-group makes: the device's choice (here a
       * few compute units and small results: the fewest, 8), the most
       * it chooses (32, a GPU's for large results) and 5, which leaves
       * a group's last rows past the result's end. */
      static const struct
      {
        int         rows;
        const char *what;
      } group_rows[] = { { 0, "whole-factor shrink" },
                         { 32, "whole-factor shrink, 32 rows a group" },
                         { 5, "whole-factor shrink, 5 rows a group" } };
      int strip = n_strip;
      for (size_t g = 0; g < 3; g++)
        for (size_t s = 0; s < 3; s++)
          for (int straight = 0; straight < 2; straight++)
            {
              ClfxImage src;
              if (! synthetic (&src, shrinks[s][0], shrinks[s][1], 4,
                               CLFX_DEPTH_U8, 17 + (unsigned) s))
                continue;
              src.transfer = CLFX_TRC_SRGB;
              src.straight_alpha = straight;
              ctx->tuning.strip_rows = group_rows[g].rows;
              sweep (ctx, &src, shrinks[s][2], shrinks[s][3],
                     group_rows[g].what, one, 1);
              ctx->tuning.strip_rows = 0;
              clfx_host_image_free (&src);
            }
      if (! clfx_context_source_buffer (ctx))
        tap_ok (n_strip > strip, "8-bit shrinks by whole factors went down "
                "strips: %d cases", n_strip - strip);
      /* Where every result pixel has the same weights (power-of-two
       * sizes), down the sweep kernel instead. */
      {
        int       swept = n_sweep;
        ClfxImage src;
        if (synthetic (&src, 256, 128, 4, CLFX_DEPTH_U8, 29))
          {
            src.transfer = CLFX_TRC_SRGB;
            sweep (ctx, &src, 128, 32, "whole-factor shrink, same weights",
                   one, 1);
            clfx_host_image_free (&src);
          }
        if (! clfx_context_source_buffer (ctx))
          tap_ok (n_sweep > swept, "8-bit shrinks whose pixels all have the "
                  "same weights went down the sweep kernel: %d cases",
                  n_sweep - swept);
      }
      /* CLFX_RESIZE_STRIP=all: the other depths' such shrinks down
       * strips too (sRGB and linear), validated like the rest; =off:
       * none, the tiled kernel. */
      strip = n_strip;
      ctx->tuning.strip = CLFX_STRIP_ALL;
      for (int d = 1; d < CLFX_N_DEPTHS; d++)
        {
          ClfxImage src;
          if (! synthetic (&src, shrinks[0][0], shrinks[0][1], 4,
                           (ClfxDepth) d, 19 + (unsigned) d))
            continue;
          src.transfer = d % 2 ? CLFX_TRC_SRGB : CLFX_TRC_LINEAR;
          sweep (ctx, &src, shrinks[0][2], shrinks[0][3],
                 "whole-factor shrink, strips in every depth", one, 1);
          clfx_host_image_free (&src);
        }
      {
        int       all = n_strip - strip;
        ClfxImage src;
        ctx->tuning.strip = CLFX_STRIP_OFF;
        strip = n_strip;
        if (synthetic (&src, shrinks[0][0], shrinks[0][1], 4, CLFX_DEPTH_U8,
                       17))
          {
            src.transfer = CLFX_TRC_SRGB;
            sweep (ctx, &src, shrinks[0][2], shrinks[0][3],
                   "whole-factor shrink, strips off", one, 1);
            clfx_host_image_free (&src);
          }
        /* =sweep: such shrinks in every depth down the sweep kernel,
         * with every pixel's weights the same (power-of-two sizes) or
         * not; 8-bit with straight alpha and every addressing mode. */
        ctx->tuning.strip = CLFX_STRIP_SWEEP;
        sweep_shrinks (ctx, shrinks, 3);
        ctx->tuning.strip = CLFX_STRIP_AUTO;
        if (! clfx_context_source_buffer (ctx))
          tap_ok (all > 0 && n_strip == strip,
                  "CLFX_RESIZE_STRIP=all sends 16-bit, half and float "
                  "shrinks down strips (%d cases); off sends none (%d)", all,
                  n_strip - strip);
      }
    }
    ctx->tuning.fixed_taps = false;
    for (int i = 0; i < ctx->n_programs; i++)
      fixed += strstr (ctx->programs[i].key, "-DRESIZE_NTX=") != NULL;
    if (n_tiled > tiled)
      tap_ok (fixed > 0, "the tiled kernel with its tap counts built in: %d "
              "programs", fixed);
  }
  /* Straight alpha (GIMP's and PNG's) and sRGB-encoded colour (GIMP's 8-
   * and 16-bit images): filters that mix texels decode to linear light,
   * premultiply each read and divide and encode at the store.  RGBA and
   * gray+alpha in every depth, then sRGB without alpha. */
  for (int ch = 2; ch <= 4; ch += 2)
    for (int d = 0; d < CLFX_N_DEPTHS; d++)
      for (int srgb = 0; srgb < 2; srgb++)
        {
          ClfxImage src;
          if (! synthetic (&src, sizes[1].sw, sizes[1].sh, ch, (ClfxDepth) d,
                           23))
            continue;
          src.straight_alpha = true;
          src.transfer = srgb ? CLFX_TRC_SRGB : CLFX_TRC_LINEAR;
          sweep (ctx, &src, sizes[1].dw, sizes[1].dh,
                 ch == 2 ? "straight gray+alpha" : "straight RGBA", zooms,
                 srgb ? 1 : 2);
          clfx_host_image_free (&src);
        }
  for (int d = 0; d < CLFX_N_DEPTHS; d++)
    {
      ClfxImage src;
      if (! synthetic (&src, sizes[2].sw, sizes[2].sh, d % 2 ? 1 : 4,
                       (ClfxDepth) d, 41))
        continue;
      src.transfer = CLFX_TRC_SRGB;
      sweep (ctx, &src, sizes[2].dw, sizes[2].dh, "sRGB", zooms, 1);
      clfx_host_image_free (&src);
    }
  /* Without a guard band the result has the caller's own layout, and a
   * device that works in host memory writes into the caller's image
   * itself (the plug-in's case). */
  ctx->guard_bytes = 0;
  for (int d = 0; d < CLFX_N_DEPTHS; d++)
    {
      ClfxImage src;
      if (! synthetic (&src, sizes[1].sw, sizes[1].sh, 4, (ClfxDepth) d, 11))
        continue;
      sweep (ctx, &src, sizes[1].dw, sizes[1].dh, "no guard band", zooms, 1);
      clfx_host_image_free (&src);
    }
  ctx->guard_bytes = 64;
  /* CPU devices read sources as buffers and filter in two passes, band by
   * band, at every scale; images are filtered in tiles where a tile's
   * footprint fits in local memory (parity-staged runs PoCL so). */
  if (clfx_context_source_buffer (ctx))
    tap_ok (n_tiled == 0 && n_two_pass > 0,
            "sources as buffers: the two-pass kernels ran (%d cases), the "
            "tiled one never (%d)", n_two_pass, n_tiled);
  else
    tap_ok (n_tiled > 0 && n_two_pass > 0,
            "both the tiled and the two-pass cubic/lanczos kernels ran (%d "
            "tiled, %d two-pass cases)", n_tiled, n_two_pass);

  /* Tiles: forced small (the halos cross tile borders everywhere), the
   * bytes of the untiled run; the same for streamed bands through staging
   * (several per image). */
  if ((many = clfx_context_new (&ctx->device, &e)))
    {
      many->guard_bytes = 64;
      many->tuning.tile_width = 23;
      many->tuning.tile_height = 17;
      /* Tiles never use the hardware sampler (its arithmetic depends on
       * the image it reads): compare with the in-kernel form. */
      ClfxSamplerPolicy policy = ctx->tuning.sampler;
      ctx->tuning.sampler = CLFX_SAMPLER_KERNEL;
      pieces_sweep (ctx, many, true);
      ctx->tuning.sampler = policy;
      strip_pieces (ctx, many);
      many->tuning.tile_width = many->tuning.tile_height = 0;
      if (clfx_context_source_buffer (ctx))
        intermediate_bands (ctx, many);
      many->zero_copy = false;
      many->tuning.band_bytes = 2048;
      pieces_sweep (ctx, many, false);
      clfx_context_free (many);
    }
  else
    tap_ok (false, "second context: %s", e.message);

  checkerboard_on_device (ctx);
  wider_than_the_device (&ctx->device);
  tap_diag ("%d validated cases", n_cases);
  guard_band_catches_stray_write (&ctx->device);
  clfx_context_free (ctx);
  clfx_device_list_free (&list);
  return tap_done ();
}
