/* clfx-procedures.h: the PDB procedures, declared from the engine's op
 * table, and the way back from a procedure config to engine parameters. */
#ifndef CLFX_PROCEDURES_H
#define CLFX_PROCEDURES_H

#include <libgimp/gimp.h>

#include "clfx-run.h"

G_BEGIN_DECLS

/* Engine errors become GErrors in this domain, with the ClfxErrorCode as
 * the code, so the PDB status can be chosen from it. */
#define CLFX_PLUGIN_ERROR (clfx_plugin_error_quark ())
GQuark            clfx_plugin_error_quark  (void);
void              clfx_set_gerror          (GError         **error,
                                            const ClfxError *e);
/* CALLING_ERROR for bad arguments, EXECUTION_ERROR for the rest. */
GimpPDBStatusType clfx_error_status        (const GError    *error);

GimpProcedure *   clfx_procedure_new_resize   (GimpPlugIn       *plug_in,
                                               GimpRunImageFunc  run);
GimpProcedure *   clfx_procedure_new_selftest (GimpPlugIn       *plug_in,
                                               GimpRunFunc       run);

/* An op's arguments as read from a config: its parameters and the
 * common ones. */
typedef struct
{
  const ClfxOpInfo *op;
  ClfxParams        params;
  gchar            *strings[CLFX_MAX_PARAMS]; /* owners of params' s */
  gchar            *device;
  gboolean          validate;
  gchar            *report_file;
} ClfxPdbArgs;

/* One op parameter from the config; a STRING's copy goes to *string
 * (g_free) and v->s points into it. */
void     clfx_config_read_value (GimpProcedureConfig *config,
                                 const ClfxParamSpec *spec,
                                 ClfxValue           *value,
                                 gchar              **string);

gboolean clfx_pdb_args_read   (const ClfxOpInfo    *op,
                               GimpProcedureConfig *config,
                               ClfxPdbArgs         *args,
                               GError             **error);
void     clfx_pdb_args_clear  (ClfxPdbArgs         *args);

/* Writes the report to path through a temporary file renamed over it. */
gboolean clfx_report_write    (const gchar         *path,
                               const gchar         *json,
                               GError             **error);

G_END_DECLS

#endif
