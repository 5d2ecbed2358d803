/* SPDX-License-Identifier: GPL-3.0-or-later */
/* device.h: shared set-up for the tests that need an OpenCL device. */
#ifndef CLFX_TEST_DEVICE_H
#define CLFX_TEST_DEVICE_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "clfx-context.h"
#include "clfx-device.h"
#include "clfx-run.h"

/* The device the tests use: $CLFX_TEST_DEVICE, default "auto". */
static inline const char *
test_device_request (void)
{
  const char *d = getenv ("CLFX_TEST_DEVICE");
  return d && *d ? d : "auto";
}

/* True in the suites that run the GPUs' kernel forms on the test device
 * (CLFX_DEV with source=image: the *-images suites).  Those forms read and
 * store every depth and layout through the same kernels/clfx-io.h as the
 * CPU form, which the plain suites cover in full; the images suites take
 * each operator at every depth with one layout per depth, rotated so that
 * each operator meets every layout and every depth meets every layout.
 * Each depth and layout is a program of its own to compile, and on a CPU
 * device the compiles are most of those suites' time. */
static inline bool
test_images_form (void)
{
  const char *d = getenv ("CLFX_DEV");
  return d && strstr (d, "source=image");
}

/* Whether the images suites take layout `layout` (of `n_layouts` the test
 * loops over) of case `item` at depth `depth` (see test_images_form); the
 * plain suites take every one. */
static inline bool
test_layout_taken (int item, int depth, int layout, int n_layouts)
{
  return ! test_images_form () || layout == (item + depth) % n_layouts;
}

/* A context on the test device, or NULL with *skip_status set to what
 * main() should return (0 after a TAP skip plan, 1 when the device is
 * required but missing). */
static inline ClfxContext *
test_context (ClfxDeviceList *list, int *skip_status)
{
  const ClfxDeviceInfo *dev = NULL;
  ClfxError             e = { 0 };
  ClfxContext          *ctx;

  if (! clfx_device_list (list, &e)
      || ! clfx_device_select (list, test_device_request (), &dev, &e)
      || ! (ctx = clfx_context_new (dev, &e)))
    {
      *skip_status = tap_skip_all (e.message[0] ? e.message
                                                : "no OpenCL device");
      return NULL;
    }
  tap_diag ("device: %s on %s (%s), %s", dev->name, dev->platform_name,
            dev->driver, ctx->zero_copy ? "zero-copy" : "staged");
  return ctx;
}

/* The probe `name` of r, or NULL. */
static inline const ClfxProbe *
test_probe (const ClfxRunResult *r, const char *name)
{
  for (int i = 0; i < r->probes.n; i++)
    if (! strcmp (r->probes.probes[i].name, name))
      return &r->probes.probes[i];
  return NULL;
}

#endif
