/* SPDX-License-Identifier: GPL-3.0-or-later */
/* device.h: shared set-up for the tests that need an OpenCL device. */
#ifndef CLFX_TEST_DEVICE_H
#define CLFX_TEST_DEVICE_H

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
