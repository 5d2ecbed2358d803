/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-scratch.c: the host blocks a context keeps for a CPU device's
 * intermediates (clfx-scratch.c).  A block is whole 2 MiB pages, comes
 * back to the next request it fits, is not handed out twice, is freed on
 * return when the pool would pass its cap, and the pool is off with
 * CLFX_DEV=host-scratch=off.  A filter with whole-image intermediates gives
 * the same bytes with the pool and without, leaves its blocks free after
 * the run and takes no new ones the second time; devices that do not
 * work in host memory never use it. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../device.h"
#include "clfx-run.h"

#define MIB ((size_t) 1 << 20)

static bool
all_free (const ClfxContext *ctx)
{
  for (int i = 0; i < ctx->n_scratch; i++)
    if (ctx->scratch[i].busy)
      return false;
  return true;
}

static void
pool_rules (ClfxContext *ctx)
{
  size_t cap = (size_t) (ctx->device.global_mem / 4);
  int    n = ctx->n_scratch;
  void  *a = clfx_scratch_take (ctx, 3 * MIB), *b, *c, *big;

  tap_ok (a && (uintptr_t) a % (2 * MIB) == 0 && ctx->n_scratch == n + 1
            && ctx->scratch[n].bytes == 4 * MIB,
          "a 3 MiB block: whole 2 MiB pages, aligned to them");
  b = clfx_scratch_take (ctx, 3 * MIB);
  tap_ok (b && b != a, "a block in use is not handed out again");
  clfx_scratch_give (ctx, a);
  c = clfx_scratch_take (ctx, 4 * MIB);
  tap_ok (c == a, "a returned block serves the next request it fits");
  clfx_scratch_give (ctx, b);
  clfx_scratch_give (ctx, c);
  big = clfx_scratch_take (ctx, 64 * MIB);
  tap_ok (big && big != a && big != b,
          "a larger request takes a new block, not a 4 MiB one");
  clfx_scratch_give (ctx, big);
  n = ctx->n_scratch;
  c = clfx_scratch_take (ctx, 40 * MIB);
  tap_ok (c == big, "a block at most twice the request is reused (64 MiB "
                    "for 40)");
  clfx_scratch_give (ctx, c);
  c = clfx_scratch_take (ctx, 20 * MIB);
  tap_ok (c && c != big, "one more than twice the request is not (a new "
                         "block for 20)");
  clfx_scratch_give (ctx, c);
  tap_ok (ctx->n_scratch == n + 1 && all_free (ctx),
          "%d blocks kept, all free", ctx->n_scratch);
  n = ctx->n_scratch;
  /* Past the cap (a quarter of the device's memory): freed on return.
   * Only address space: the block is never touched. */
  big = clfx_scratch_take (ctx, cap + MIB);
  tap_ok (big != NULL, "a block past the cap (%zu MiB) is made",
          cap / MIB + 1);
  clfx_scratch_give (ctx, big);
  tap_ok (ctx->n_scratch == n, "and freed when given back (%d blocks kept)",
          ctx->n_scratch);
  clfx_scratch_give (ctx, (void *) &n);
  tap_ok (ctx->n_scratch == n && all_free (ctx),
          "a pointer the pool did not make is ignored");
}

/* Gaussian FIR (a whole-image intermediate between its two passes) on a
 * context; dst allocated here.  The IIR is no use here: on a CPU device
 * it works in bands of rows and keeps no whole-image buffer. */
static bool
blur (ClfxContext *ctx, const ClfxImage *src, ClfxImage *dst)
{
  ClfxParams  p;
  ClfxTimings t;
  ClfxError   e = { 0 };
  bool        ok;

  clfx_params_defaults (&clfx_family_filter, &p);
  if (! clfx_params_set (&p, "filter", "gaussian", &e)
      || ! clfx_params_set (&p, "std-dev-x", "3", &e)
      || ! clfx_params_set (&p, "std-dev-y", "3", &e)
      || ! clfx_params_set (&p, "method", "fir", &e)
      || ! clfx_host_image_alloc (dst, src->width, src->height, 4,
                                  src->depth, &e))
    return false;
  ok = clfx_run_on_context (ctx, &p, src, dst, &t, NULL, NULL, &e);
  clfx_timings_clear (&t);
  if (! ok)
    tap_diag ("gaussian failed: %s", e.message);
  return ok;
}

static bool
same (const ClfxImage *a, const ClfxImage *b)
{
  for (int y = 0; y < a->height; y++)
    if (memcmp (a->data + (size_t) y * a->stride,
                b->data + (size_t) y * b->stride,
                (size_t) a->width * clfx_image_pixel_size (a)))
      return false;
  return true;
}

static void
runs (ClfxContext *ctx, ClfxContext *off)
{
  ClfxImage src, d1, d2, d0;
  ClfxError e = { 0 };
  int       n0 = ctx->n_scratch, n;

  /* 512 x 600 8-bit RGBA: the FIR's float rows pass is 4.7 MiB. */
  clfx_host_image_alloc (&src, 512, 600, 4, CLFX_DEPTH_U8, &e);
  clfx_host_image_synthetic (&src, 7);
  src.straight_alpha = true;
  tap_ok (blur (ctx, &src, &d1), "gaussian FIR with the pool's context");
  n = ctx->n_scratch;
  if (ctx->device.host_unified)
    tap_ok (n > n0 && all_free (ctx),
            "a CPU device's run took host blocks (%d) and gave them back",
            n - n0);
  else
    tap_ok (n == n0, "a device with its own memory takes no host blocks");
  tap_ok (blur (ctx, &src, &d2) && ctx->n_scratch == n && all_free (ctx),
          "a second run takes no new blocks (%d)", ctx->n_scratch);
  tap_ok (blur (off, &src, &d0) && off->n_scratch == 0,
          "host-scratch=off: no blocks");
  tap_ok (same (&d1, &d2) && same (&d1, &d0),
          "the same bytes with the pool, again, and without it");
  clfx_host_image_free (&src);
  clfx_host_image_free (&d1);
  clfx_host_image_free (&d2);
  clfx_host_image_free (&d0);
}

int
main (void)
{
  ClfxDeviceList list = { 0 };
  ClfxContext   *ctx, *off;
  ClfxError      e = { 0 };
  int            skip = 0;

  if (! (ctx = test_context (&list, &skip)))
    return skip;
  setenv ("CLFX_DEV", "host-scratch=off", 1);
  off = clfx_context_new (&ctx->device, &e);
  unsetenv ("CLFX_DEV");
  if (! off)
    {
      tap_ok (false, "a second context: %s", e.message);
      return tap_done ();
    }
  tap_ok (clfx_scratch_take (off, MIB) == NULL && off->n_scratch == 0,
          "host-scratch=off: the pool gives nothing");
  runs (ctx, off);
  /* The rules on a pool of their own. */
  clfx_context_free (ctx);
  if (! (ctx = clfx_context_new (&off->device, &e)))
    tap_ok (false, "a third context: %s", e.message);
  else
    pool_rules (ctx);
  clfx_context_free (off);
  clfx_context_free (ctx);
  clfx_device_list_free (&list);
  return tap_done ();
}
