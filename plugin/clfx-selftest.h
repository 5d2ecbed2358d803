/* clfx-selftest.h: plug-in-clfx-selftest, the OpenCL-vs-reference check
 * a user can run from the PDB without an image. */
#ifndef CLFX_SELFTEST_H
#define CLFX_SELFTEST_H

#include <glib.h>

G_BEGIN_DECLS

/* Runs every case on device and returns the JSON summary in *report
 * (always, also when a case failed; g_free).  Returns FALSE with error set
 * when any case failed or nothing could run. */
gboolean clfx_selftest_run (const gchar *device,
                            gchar      **report,
                            GError     **error);

G_END_DECLS

#endif
