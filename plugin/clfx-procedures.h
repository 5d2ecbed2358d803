/* clfx-procedures.h: the PDB procedures, declared from the engine's
 * family table. */
#ifndef CLFX_PROCEDURES_H
#define CLFX_PROCEDURES_H

#include <libgimp/gimp.h>

#include "clfx-run.h"

G_BEGIN_DECLS

/* The family whose procedure is called name, or NULL. */
const ClfxFamily *clfx_family_of_procedure  (const gchar       *name);

/* The family's image procedure: its rows as arguments in table order,
 * then device, validate and report-file; the report as return value.
 * The family is the run data. */
GimpProcedure *   clfx_procedure_new_family (GimpPlugIn        *plug_in,
                                             const ClfxFamily  *family,
                                             GimpRunImageFunc   run);
GimpProcedure *   clfx_procedure_new_selftest (GimpPlugIn      *plug_in,
                                               GimpRunFunc      run);

/* Writes the report to path through a temporary file renamed over it. */
gboolean          clfx_report_write         (const gchar       *path,
                                             const gchar       *json,
                                             GError           **error);

G_END_DECLS

#endif
