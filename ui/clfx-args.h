/* clfx-args.h: a family's procedure config read into engine values, the
 * one reader the plug-in and the dialog share; the boundary where engine
 * errors and engine text become GLib's; the Script-Fu call of a set of
 * values. */
#ifndef CLFX_ARGS_H
#define CLFX_ARGS_H

#include <libgimp/gimp.h>

#include "clfx-run.h"

G_BEGIN_DECLS

/* Engine errors become GErrors in this domain, with the ClfxErrorCode as
 * the code, so the PDB status can be chosen from it. */
#define CLFX_PLUGIN_ERROR (clfx_plugin_error_quark ())
GQuark            clfx_plugin_error_quark (void);
void              clfx_set_gerror         (GError         **error,
                                           const ClfxError *e);
/* CALLING_ERROR for bad arguments, EXECUTION_ERROR for the rest. */
GimpPDBStatusType clfx_error_status       (const GError    *error);

/* A string of the family table in the user's language; NULL and ""
 * (whose translation is the catalog's header) are given back as "". */
const gchar *     clfx_translate          (const char      *text);

/* The engine's text (malloc'ed, NULL when it ran out of memory) as GLib
 * memory: the one place engine text crosses over.  Frees text. */
gchar *           clfx_engine_text        (char            *text,
                                           GError         **error);

/* A family procedure's arguments: its rows' values and the common
 * arguments every family procedure ends with. */
typedef struct
{
  ClfxParams params;
  gchar     *device;      /* never NULL nor empty: "auto" when not given */
  gboolean   validate;
  gchar     *report_file; /* never NULL; empty: no file */
} ClfxArgs;

/* Reads every row of family from config (choices by their id, which is
 * the row's index) and the common arguments, then checks the values
 * against the rows.  args is always initialised (clear it). */
gboolean clfx_args_read        (const ClfxFamily    *family,
                                GimpProcedureConfig *config,
                                ClfxArgs            *args,
                                GError             **error);
void     clfx_args_copy        (ClfxArgs            *dst,
                                const ClfxArgs      *src);
void     clfx_args_clear       (ClfxArgs            *args);

/* The report's extra "parameters": the plug-in-only rows (resize's
 * target) as text, and "drawables" when n_drawables >= 0.  NULL-
 * terminated (name, value) pairs; g_strfreev. */
gchar ** clfx_args_report_extra (const ClfxArgs     *args,
                                 gint                n_drawables);

/* The Script-Fu v3 call with named arguments that repeats these values
 * (every row, then device, validate and report-file). */
gchar *  clfx_args_script_fu   (const ClfxArgs      *args);

G_END_DECLS

#endif
