/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-devices.c: device "all".  The result's bands or tiles are spread
 * over every usable GPU (else every CPU device), each on its own context
 * and thread (with CLFX_DEV=peer-pinned=context, a platform's devices in one
 * OpenCL context); the result must be the one-device result, bit for
 * bit, however the other devices move pinned images, and a second run
 * loads every device's programs from the cache.
 *
 * $CLFX_TEST_DEVICES says how many devices "all" must find: meson runs
 * this test once as it is and once with POCL_DEVICES='cpu cpu', where
 * PoCL exposes two CPU devices. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../device.h"
#include "clfx-run.h"

static void
set_tuning (ClfxContext *ctx, bool staged, bool tiles)
{
  for (int i = -1; i < ctx->n_peers; i++)
    {
      ClfxContext *c = i < 0 ? ctx : ctx->peers[i];
      c->zero_copy = c->device.host_unified && ! staged;
      c->tuning.band_bytes = staged ? 4096 : 0;
      c->tuning.tile_width = tiles ? 29 : 0;
      c->tuning.tile_height = tiles ? 13 : 0;
      c->guard_bytes = 32;
    }
}

static bool
run (ClfxContext *ctx, const ClfxParams *p, const ClfxImage *src,
     ClfxImage *dst, ClfxTimings *t, ClfxError *e)
{
  int w, h;

  return clfx_run_check (p, src, &w, &h, e)
         && clfx_host_image_alloc (dst, w, h, src->channels, src->depth, e)
         && clfx_run_on_context (ctx, p, src, dst, t, NULL, NULL, e);
}

/* src again in pinned memory of ctx (*pin), its pixels and how they are
 * encoded. */
static bool
pinned_copy (ClfxContext *ctx, const ClfxImage *src, ClfxImage *pin,
             ClfxError *e)
{
  if (! clfx_context_pinned_image (ctx, pin, src->width, src->height,
                                   src->channels, src->depth, e))
    return false;
  memcpy (pin->data, src->data, src->stride * (size_t) src->height);
  pin->transfer = src->transfer;
  pin->straight_alpha = src->straight_alpha;
  return true;
}

/* Bands, staged bands and tiles of both resizes on device all give the
 * bytes of one device. */
static void
spread (ClfxContext *one, ClfxContext *all, const ClfxImage *src,
        const ClfxParams *params, const char *how)
{
  ClfxError e = { 0 };

  for (int mode = 0; mode < 3; mode++)
    {
      static const char *names[] = { "bands", "staged bands", "tiles" };
      set_tuning (one, mode == 1, mode == 2);
      set_tuning (all, mode == 1, mode == 2);
      for (int i = 0; i < 2; i++)
        {
          ClfxImage   a = { 0 }, b = { 0 };
          ClfxTimings ta, tb;
          bool        ok;

          memset (&ta, 0, sizeof ta);
          memset (&tb, 0, sizeof tb);
          ok = run (one, &params[i], src, &a, &ta, &e)
               && run (all, &params[i], src, &b, &tb, &e);
          tap_ok (ok && ! memcmp (a.data, b.data, a.stride * (size_t) a.height)
                    && tb.devices == 1 + all->n_peers
                    && tb.pieces >= tb.devices,
                  "%s%s, %s: %d pieces on %d devices give the bytes of one "
                  "device%s%s", how, names[mode],
                  clfx_run_variant_name (&params[i]), tb.pieces, tb.devices,
                  ok ? "" : ": ", ok ? "" : e.message);
          clfx_timings_clear (&ta);
          clfx_timings_clear (&tb);
          clfx_host_image_free (&a);
          clfx_host_image_free (&b);
        }
    }
}

/* Device all with images in pinned memory of its first context: the
 * other contexts stage them (stage), or move them where they lie (direct,
 * and context, where they share the first's OpenCL context); the same
 * bytes either way, and no staging copy at all unless staged. */
static void
pinned_spread (ClfxContext *one, ClfxContext *all, const ClfxImage *src,
               const ClfxParams *p, ClfxPeerPinned mode, const char *how)
{
  ClfxImage   heap = { 0 }, pin_src = { 0 }, pin_dst = { 0 };
  ClfxTimings th, t;
  ClfxError   e = { 0 };
  bool        ok, ran = false, staged_as_said;

  memset (&th, 0, sizeof th);
  memset (&t, 0, sizeof t);
  set_tuning (one, true, false);
  set_tuning (all, true, false);
  one->guard_bytes = all->guard_bytes = 0;
  for (int i = -1; i < all->n_peers; i++)
    (i < 0 ? all : all->peers[i])->tuning.peer_pinned = mode;
  ok = run (one, p, src, &heap, &th, &e)
       && pinned_copy (all, src, &pin_src, &e)
       && clfx_context_pinned_image (all, &pin_dst, heap.width, heap.height,
                                     4, CLFX_DEPTH_U8, &e);
  if (ok)
    ran = clfx_run_on_context (all, p, &pin_src, &pin_dst, &t, NULL, NULL,
                               &e);
  /* Staging copies only where a second context staged. */
  staged_as_said = mode != CLFX_PEER_STAGE || ! all->n_peers
                     ? t.stage_ms == 0.0
                     : t.stage_ms > 0.0;
  tap_ok (ran && staged_as_said && t.devices == 1 + all->n_peers
            && ! memcmp (heap.data, pin_dst.data,
                         heap.stride * (size_t) heap.height),
          "device all, images pinned by its first context, %s: %d devices, "
          "staging %.3f ms, the bytes of one device%s%s", how, t.devices,
          t.stage_ms, ran ? "" : ": ", ran ? "" : e.message);
  for (int i = -1; i < all->n_peers; i++)
    (i < 0 ? all : all->peers[i])->tuning.peer_pinned = CLFX_PEER_STAGE;
  clfx_timings_clear (&th);
  clfx_timings_clear (&t);
  clfx_host_image_free (&pin_src);
  clfx_host_image_free (&pin_dst);
  clfx_host_image_free (&heap);
}

int
main (void)
{
  const char    *want = getenv ("CLFX_TEST_DEVICES");
  int            expect = want ? atoi (want) : 0;
  ClfxDeviceList list;
  int            skip = 0;
  ClfxContext   *one = test_context (&list, &skip), *all;
  ClfxError      e = { 0 };
  ClfxImage      src;
  ClfxParams     params[2];

  if (! one)
    return skip;
  all = clfx_run_context_new ("all", NULL, &e);
  if (! tap_ok (all != NULL, "device all makes its contexts: %s", e.message))
    return tap_done ();
  tap_diag ("device all: %s and %d more", all->device.name, all->n_peers);
  if (expect)
    tap_ok (1 + all->n_peers == expect, "device all finds the %d devices "
            "expected (found %d)", expect, 1 + all->n_peers);
  /* A number is the device of that index, names repeating or not. */
  for (size_t i = 0; i <= list.n_devices; i++)
    {
      const ClfxDeviceInfo *d = NULL;
      ClfxError             se = { 0 };
      char                  k[24];
      bool                  ok;
      snprintf (k, sizeof k, "%zu", i);
      ok = clfx_device_select (&list, k, &d, &se);
      if (i < list.n_devices)
        tap_ok (list.devices[i].usable ? ok && d == &list.devices[i]
                                       : ! ok && strstr (se.message, k),
                "device \"%s\" is the list's device %zu ('%s')%s%s", k, i,
                list.devices[i].name, se.message[0] ? ": " : "", se.message);
      else
        tap_ok (! ok && d == NULL && strstr (se.message, "no OpenCL device"),
                "device \"%s\" past the list's %zu is refused: %s", k,
                list.n_devices, se.message);
    }
  clfx_host_image_alloc (&src, 211, 97, 4, CLFX_DEPTH_U8, &e);
  clfx_host_image_synthetic (&src, 17);
  src.transfer = CLFX_TRC_SRGB;
  src.straight_alpha = true;
  for (int i = 0; i < 2; i++)
    {
      clfx_params_defaults (&clfx_family_resize, &params[i]);
      clfx_params_set (&params[i], "width", i ? "320" : "101", &e);
      clfx_params_set (&params[i], "height", i ? "41" : "150", &e);
      clfx_params_set (&params[i], "filter", i ? "lanczos3" : "linear", &e);
    }
  spread (one, all, &src, params, "");
  /* Images in the context's pinned memory go up and come down without a
   * staging copy (streamed, through staging for everything else): the
   * same bytes as ordinary memory. */
  {
    ClfxImage   heap = { 0 }, pin_src, pin_dst;
    ClfxTimings ta, tb;
    bool        ok;

    memset (&ta, 0, sizeof ta);
    memset (&tb, 0, sizeof tb);
    set_tuning (one, true, false);
    ok = pinned_copy (one, &src, &pin_src, &e)
         && clfx_context_pinned_image (one, &pin_dst, 320, 41, 4,
                                       CLFX_DEPTH_U8, &e);
    if (ok)
      {
        one->guard_bytes = 0; /* results straight into pinned rows */
        ok = clfx_context_owns_pinned (one, &pin_src)
             && ! clfx_context_owns_pinned (one, &src)
             && run (one, &params[1], &src, &heap, &ta, &e)
             && clfx_run_on_context (one, &params[1], &pin_src, &pin_dst,
                                     &tb, NULL, NULL, &e);
        tap_ok (ok && tb.stage_ms == 0.0 && tb.pieces > 1 && tb.pinned
                  && ! ta.pinned && ! memcmp (heap.data, pin_dst.data, heap.stride * 41),
                "pinned images stream in %d bands without staging copies, "
                "the bytes of ordinary memory%s%s", tb.pieces,
                ok ? "" : ": ", ok ? "" : e.message);
        clfx_host_image_free (&pin_src);
        clfx_host_image_free (&pin_dst);
      }
    else
      tap_ok (false, "pinned images: %s", e.message);
    clfx_timings_clear (&ta);
    clfx_timings_clear (&tb);
    clfx_host_image_free (&heap);
  }
  pinned_spread (one, all, &src, &params[1], CLFX_PEER_STAGE,
                 "the others staging them");
  pinned_spread (one, all, &src, &params[1], CLFX_PEER_DIRECT,
                 "the others moving them where they lie");
  /* CLFX_DEV=peer-pinned=context: the devices of a platform in one OpenCL
   * context (each keeping its own programs and queues). */
  {
    ClfxContext *shared;
    bool         one_cl;

    setenv ("CLFX_DEV", "peer-pinned=context", 1);
    shared = clfx_run_context_new ("all", NULL, &e);
    unsetenv ("CLFX_DEV");
    one_cl = shared && shared->n_peers == all->n_peers;
    for (int i = 0; one_cl && i < shared->n_peers; i++)
      one_cl = (shared->peers[i]->context == shared->context)
               == (shared->peers[i]->device.platform
                   == shared->device.platform);
    tap_ok (one_cl, "peer-pinned=context: device all's %d devices of "
            "one platform share one OpenCL context%s%s",
            shared ? 1 + shared->n_peers : 0, shared ? "" : ": ",
            shared ? "" : e.message);
    if (shared)
      {
        spread (one, shared, &src, params, "one context: ");
        pinned_spread (one, shared, &src, &params[1], CLFX_PEER_CONTEXT,
                       "in one OpenCL context");
        clfx_context_free (shared);
      }
  }
  /* The plug-in's way: a source in pinned memory of a context that
   * stages (a discrete GPU; here zero-copy=off's), the result made
   * there by clfx_run, the report saying "pinned".  The owner lets the
   * context go before the images: they keep it alive (ASan checks). */
  {
    ClfxContext   *own = clfx_context_new (&one->device, &e);
    ClfxRunOptions opt = { "auto", true, 0, &own, true, false };
    ClfxRunResult  r;
    ClfxTimings    th;
    ClfxImage      pin_src = { 0 }, dst = { 0 }, heap = { 0 };
    char          *json = NULL;
    bool           ok = own != NULL;

    memset (&r, 0, sizeof r);
    memset (&th, 0, sizeof th);
    if (ok)
      {
        own->zero_copy = false;
        ok = clfx_context_wants_pinned (own)
             && pinned_copy (own, &src, &pin_src, &e);
      }
    if (ok)
      {
        ok = clfx_run (&params[1], &pin_src, &dst, &opt, &r, &e)
             && (json = clfx_report_json (&params[1], &pin_src, &opt, &r,
                                          NULL));
      }
    clfx_context_free (own);
    set_tuning (one, true, false);
    ok = ok && run (one, &params[1], &src, &heap, &th, &e);
    tap_ok (ok && clfx_context_owns_pinned (own, &dst) && r.validation.passed
              && strstr (json, "\"data_path\":\"pinned\"")
              && ! memcmp (heap.data, dst.data, heap.stride * 41),
            "clfx_run makes the result in the context's pinned memory; "
            "the report says pinned; the images outlive their context%s%s",
            ok ? "" : ": ", ok ? "" : e.message);
    free (json);
    clfx_run_result_clear (&r);
    clfx_timings_clear (&th);
    clfx_host_image_free (&dst);
    clfx_host_image_free (&pin_src);
    clfx_host_image_free (&heap);
  }
  /* Through the front door, validated, with the report saying so. */
  {
    ClfxRunOptions opt = { "all", true, 0, NULL, false, false };
    ClfxRunResult  r;
    ClfxImage      dst;
    char          *json = NULL;
    bool           ok = clfx_run (&params[1], &src, &dst, &opt, &r, &e);
    char           count[32];

    snprintf (count, sizeof count, "\"count\":%d", 1 + all->n_peers);
    if (ok)
      json = clfx_report_json (&params[1], &src, &opt, &r, NULL);
    tap_ok (ok && r.path == CLFX_PATH_OPENCL && r.validation.passed && json
              && strstr (json, count),
            "clfx_run with device all validates and reports %s devices",
            count);
    free (json);
    clfx_run_result_clear (&r);
    if (ok)
      clfx_host_image_free (&dst);
  }
  /* Again: every device's programs come from the cache the run above
   * filled, devices of one kind included, whose threads load the same
   * entries at once (they used to take each other's mark for a crashed
   * load's and delete the entry). */
  {
    ClfxRunOptions opt = { "all", false, 0, NULL, false, false };
    ClfxRunResult  r;
    ClfxImage      dst;
    bool           ok = clfx_run (&params[1], &src, &dst, &opt, &r, &e);
    int            hits = 0, off = 0;

    for (int i = 0; ok && i < r.n_builds; i++)
      {
        hits += ! strcmp (r.builds[i].cache, "hit");
        off += ! strcmp (r.builds[i].cache, "off");
      }
    tap_ok (ok && r.n_builds >= 1 + all->n_peers
              && (hits == r.n_builds || off == r.n_builds),
            "device all again: %d of its %d builds hit the cache (%d with "
            "it off)", hits, ok ? r.n_builds : 0, off);
    clfx_run_result_clear (&r);
    if (ok)
      clfx_host_image_free (&dst);
  }
  clfx_host_image_free (&src);
  clfx_context_free (all);
  clfx_context_free (one);
  clfx_device_list_free (&list);
  return tap_done ();
}
