/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-procedures.h: the PDB procedures, declared from the engine's
 * family table. */
#ifndef CLFX_PROCEDURES_H
#define CLFX_PROCEDURES_H

#include <libgimp/gimp.h>

#include "clfx-args.h"

G_BEGIN_DECLS

/* Every procedure of the families: each public family's, then each
 * variant's of the families whose variants are operators of their own
 * (g_list_free_full with g_free). */
GList *           clfx_procedure_names      (void);
/* What the procedure called name runs; FALSE when it is none of the
 * families'. */
gboolean          clfx_proc_of_procedure    (const gchar       *name,
                                             ClfxProcSpec      *proc);

/* The image procedure of a family or of one variant: its rows as
 * arguments in table order (a variant's: only those it has, see
 * clfx_proc_has_row), then device, validate and report-file; the report
 * as return value.  A copy of proc is the run data. */
GimpProcedure *   clfx_procedure_new        (GimpPlugIn        *plug_in,
                                             const ClfxProcSpec *proc,
                                             GimpRunImageFunc   run);
GimpProcedure *   clfx_procedure_new_selftest (GimpPlugIn      *plug_in,
                                               GimpRunFunc      run);

/* Writes the report to path through a temporary file renamed over it. */
gboolean          clfx_report_write         (const gchar       *path,
                                             const gchar       *json,
                                             GError           **error);

G_END_DECLS

#endif
