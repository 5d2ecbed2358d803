/* test-parity.c: every resize sampler mode on the OpenCL device against
 * the CPU reference, with a guard band around every output.
 *
 * Matrix: addressing x normalized (without the spec-forbidden pairs) x
 * filter x depth (u8, u16, half, float) x sizes (1x1, odd, prime, not a
 * multiple of the 16x16 work-group, 3000x17) x zoom below and above 1,
 * plus gray and gray+alpha.  Each tolerance comes from the op's model
 * (engine/ops/resize.c, resize_tolerance), which states its basis in the
 * OpenCL C spec; it is printed with every failure. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../device.h"
#include "clfx-common.h"
#include "clfx-run.h"

static const char *addr_names[] = { "clamp-to-edge", "clamp", "repeat",
                                     "mirrored-repeat", "none" };
static const char *filter_names[] = { "nearest", "linear", "cubic",
                                      "lanczos3" };

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

static int n_cases, n_tiled, n_two_pass;

static void
one_case (ClfxContext *ctx, const ClfxImage *src, int dw, int dh, int addr,
          bool normalized, int filter, const char *zoom, const char *what)
{
  ClfxParams    p;
  ClfxError     e = { 0 };
  ClfxImage     dst = { 0 };
  ClfxTimings   t;
  ClfxRunResult r;
  char          w[16], h[16];
  bool          ok;

  memset (&r, 0, sizeof r);
  snprintf (w, sizeof w, "%d", dw);
  snprintf (h, sizeof h, "%d", dh);
  clfx_params_defaults (&clfx_op_resize, &p);
  ok = clfx_params_set (&clfx_op_resize, &p, "width", w, &e)
       && clfx_params_set (&clfx_op_resize, &p, "height", h, &e)
       && clfx_params_set (&clfx_op_resize, &p, "zoom-x", zoom, &e)
       && clfx_params_set (&clfx_op_resize, &p, "zoom-y", zoom, &e)
       && clfx_params_set (&clfx_op_resize, &p, "filter",
                           filter_names[filter], &e)
       && clfx_params_set (&clfx_op_resize, &p, "addressing",
                           addr_names[addr], &e)
       && clfx_params_set (&clfx_op_resize, &p, "normalized-coords",
                           normalized ? "true" : "false", &e)
       && clfx_host_image_alloc (&dst, dw, dh, src->channels, src->depth, &e)
       && clfx_run_on_context (ctx, &clfx_op_resize, &p, src, &dst, &t, &e)
       && clfx_run_validate (&clfx_op_resize, &p, src, &dst, &r, &e);
  n_cases++;
  for (int k = 0; ok && k < t.n_kernels; k++)
    {
      n_tiled += strcmp (t.kernels[k].name, "resize_filter_tile") == 0;
      n_two_pass += strcmp (t.kernels[k].name, "resize_filter_v") == 0;
    }
  if (! tap_ok (ok && r.validation.passed,
                "%s %s %s %s %s ch%d %dx%d->%dx%d zoom %s (%s)",
                filter_names[filter], addr_names[addr],
                normalized ? "normalized" : "unnormalized",
                clfx_depth_name (src->depth), "", src->channels, src->width,
                src->height, dw, dh, zoom, what))
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
  for (int addr = 0; addr < CLFX_N_ADDR; addr++)
    for (int norm = 0; norm < 2; norm++)
      {
        /* The spec defines repeat and mirrored-repeat only with normalized
         * coordinates; refusing them is tested in test-reference. */
        if (! norm && (addr == CLFX_ADDR_REPEAT || addr == CLFX_ADDR_MIRRORED))
          continue;
        for (int f = 0; f < CLFX_N_FILTERS; f++)
          for (int z = 0; z < n_zooms; z++)
            one_case (ctx, src, dw, dh, addr, norm, f, zooms[z], what);
      }
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

  if (! src_dir || ! mkdtemp (dir))
    {
      tap_ok (false, "guard band test needs CLFX_KERNEL_SRC and a temp dir");
      return;
    }
  snprintf (cmd, sizeof cmd,
            "cp '%s'/*.cl '%s'/*.h '%s'/ && sed -i 's/dst_pitch, x, y,/"
            "dst_pitch, x + 1, y,/' '%s'/copy.cl", src_dir, src_dir, dir, dir);
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
  clfx_params_defaults (&clfx_op_copy, &p);
  ok = ctx && clfx_host_image_alloc (&src, 33, 7, 4, CLFX_DEPTH_U8, &e)
       && clfx_host_image_alloc (&dst, 33, 7, 4, CLFX_DEPTH_U8, &e);
  if (ok)
    clfx_host_image_synthetic (&src, 3);
  ok = ok && ! clfx_run_on_context (ctx, &clfx_op_copy, &p, &src, &dst, &t,
                                    &e);
  tap_ok (ok && e.code == CLFX_ERR_GUARD && strstr (e.message, "guard band"),
          "a kernel writing one pixel past its row is caught by the guard "
          "band: %s", e.message);
  unsetenv ("CLFX_KERNEL_DIR");
  snprintf (cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system (cmd) != 0)
    tap_diag ("could not remove %s", dir);
  clfx_context_free (ctx);
  clfx_host_image_free (&src);
  clfx_host_image_free (&dst);
}

int
main (void)
{
  static const char *const zooms[] = { "0.7", "1.3" };
  ClfxDeviceList list;
  int            skip = 0;
  ClfxContext   *ctx = test_context (&list, &skip);

  if (! ctx)
    return skip;
  ctx->guard_bytes = 64;

  for (int d = 0; d < CLFX_N_DEPTHS; d++)
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
      {
        ClfxImage src;
        ClfxError e = { 0 };
        if (! clfx_host_image_alloc (&src, sizes[s].sw, sizes[s].sh, 4,
                                     (ClfxDepth) d, &e))
          {
            tap_ok (false, "allocate source: %s", e.message);
            continue;
          }
        clfx_host_image_synthetic (&src, (unsigned) (d * 16 + s));
        sweep (ctx, &src, sizes[s].dw, sizes[s].dh, sizes[s].what, zooms, 2);
        clfx_host_image_free (&src);
      }
  /* Gray and gray+alpha (CL_R, CL_RG, or RGBA where the device lacks or
   * misreads them) in every depth. */
  for (int ch = 1; ch <= 2; ch++)
    for (int d = 0; d < CLFX_N_DEPTHS; d++)
      {
        ClfxImage src;
        ClfxError e = { 0 };
        if (! clfx_host_image_alloc (&src, 37, 23, ch, (ClfxDepth) d, &e))
          continue;
        clfx_host_image_synthetic (&src, 99);
        sweep (ctx, &src, 50, 15, ch == 1 ? "gray" : "gray+alpha", zooms + 0,
               1);
        clfx_host_image_free (&src);
      }
  /* The two-pass kernels run where a tile's footprint does not fit in
   * local memory; force them so both paths are covered on every device. */
  setenv ("CLFX_RESIZE_TWO_PASS", "1", 1);
  for (int d = 0; d < CLFX_N_DEPTHS; d += 3)
    for (size_t s = 1; s < sizeof sizes / sizeof sizes[0]; s += 3)
      {
        ClfxImage src;
        ClfxError e = { 0 };
        if (! clfx_host_image_alloc (&src, sizes[s].sw, sizes[s].sh, 4,
                                     (ClfxDepth) d, &e))
          continue;
        clfx_host_image_synthetic (&src, 7);
        sweep (ctx, &src, sizes[s].dw, sizes[s].dh, "two-pass forced", zooms,
               2);
        clfx_host_image_free (&src);
      }
  unsetenv ("CLFX_RESIZE_TWO_PASS");
  /* Straight alpha (GIMP's and PNG's): filters that mix texels premultiply
   * each read and divide at the store; linear is then filtered in the
   * kernel from nearest reads.  RGBA and gray+alpha in every depth. */
  for (int ch = 2; ch <= 4; ch += 2)
    for (int d = 0; d < CLFX_N_DEPTHS; d++)
      {
        ClfxImage src;
        ClfxError e = { 0 };
        if (! clfx_host_image_alloc (&src, sizes[1].sw, sizes[1].sh, ch,
                                     (ClfxDepth) d, &e))
          continue;
        clfx_host_image_synthetic (&src, 23);
        src.straight_alpha = true;
        sweep (ctx, &src, sizes[1].dw, sizes[1].dh,
               ch == 2 ? "straight gray+alpha" : "straight RGBA", zooms, 2);
        clfx_host_image_free (&src);
      }
  /* Without a guard band the result has the caller's own layout, and a
   * device that works in host memory writes into the caller's image
   * itself (the plug-in's case). */
  ctx->guard_bytes = 0;
  for (int d = 0; d < CLFX_N_DEPTHS; d++)
    {
      ClfxImage src;
      ClfxError e = { 0 };
      if (! clfx_host_image_alloc (&src, sizes[1].sw, sizes[1].sh, 4,
                                   (ClfxDepth) d, &e))
        continue;
      clfx_host_image_synthetic (&src, 11);
      sweep (ctx, &src, sizes[1].dw, sizes[1].dh, "no guard band", zooms, 1);
      clfx_host_image_free (&src);
    }
  ctx->guard_bytes = 64;
  tap_ok (n_tiled > 0 && n_two_pass > 0,
          "both the tiled and the two-pass cubic/lanczos kernels ran (%d "
          "tiled, %d two-pass cases)", n_tiled, n_two_pass);
  tap_diag ("%d parity cases", n_cases);
  guard_band_catches_stray_write (&ctx->device);
  clfx_context_free (ctx);
  clfx_device_list_free (&list);
  return tap_done ();
}
