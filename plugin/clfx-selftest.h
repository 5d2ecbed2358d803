/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-selftest.h: plug-in-clfx-selftest, the OpenCL-vs-reference check
 * a user can run from the PDB without an image. */
#ifndef CLFX_SELFTEST_H
#define CLFX_SELFTEST_H

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  gint   cases, passed, failed;
  gchar *device;   /* what ran the cases: a device, or the CPU reference */
  gchar *fallback; /* why the CPU reference ran instead (NULL: it did not) */
} ClfxSelftestSummary;

/* Runs every case on device and returns the JSON summary in *report
 * (always, also when a case failed; g_free) and the counts in *summary
 * (clear it).  Returns FALSE with error set when any case failed or
 * nothing could run. */
gboolean clfx_selftest_run           (const gchar         *device,
                                      gchar              **report,
                                      ClfxSelftestSummary *summary,
                                      GError             **error);
void     clfx_selftest_summary_clear (ClfxSelftestSummary *summary);

G_END_DECLS

#endif
