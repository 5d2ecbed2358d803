/* SPDX-License-Identifier: GPL-3.0-or-later */
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

/* What a procedure runs: a family (variant -1: every row of the table,
 * the variant a choice), or one variant of it as an operator of its own
 * (plug-in-clfx-gaussian-blur: the variant fixed, only the rows it reads
 * and the plug-in's, some under GEGL's names). */
typedef struct
{
  const ClfxFamily *family;
  gint              variant;
} ClfxProcSpec;

/* Whether the procedure has row i of the family as an argument. */
gboolean     clfx_proc_has_row  (const ClfxProcSpec  *proc,
                                 gint                 i);
/* The procedure's rows in argument order into rows (room for the
 * family's n_params); returns how many.  A family's: the table's order; a
 * variant's: the rows it reads in the table's order, then the plug-in's
 * rows. */
gint         clfx_proc_rows     (const ClfxProcSpec  *proc,
                                 gint                *rows);
/* The argument's (and its config property's) name for row s. */
const gchar *clfx_proc_arg_name (const ClfxProcSpec  *proc,
                                 const ClfxParamSpec *s);
/* The procedure's name (g_free). */
gchar *      clfx_proc_name     (const ClfxProcSpec  *proc);
/* The variant's title, "Gaussian Blur (OpenCL)", as the GEGL module titles
 * its operation; the family's title for a family (g_free). */
gchar *      clfx_proc_title    (const ClfxProcSpec  *proc);

/* The GEGL module's operation of the procedure's variant ("clfx:gaussian")
 * into buf when GEGL has loaded it here (the plug-in's GEGL loads the
 * folders GIMP's does), else NULL: what running in GIMP's process and
 * non-destructive filters need. */
const gchar *clfx_proc_module_operation (const ClfxProcSpec *proc,
                                         gchar              *buf,
                                         gsize               n);
/* The aux argument of a variant's procedure that GIMP's own filters call
 * "Merge filter": off, the dialog's OK adds a non-destructive filter. */
#define CLFX_MERGE_FILTER "merge-filter"
/* After a variant's dialog: in GIMP's process where the module is there,
 * non-destructive unless merge-filter; else the plug-in's engine. */
void         clfx_proc_apply_merge_choice (const ClfxProcSpec  *proc,
                                           GimpProcedureConfig *config);

/* A procedure's arguments: its rows' values and the common arguments
 * every family procedure ends with. */
typedef struct
{
  ClfxProcSpec proc;       /* the procedure they are for */
  ClfxParams   params;
  gchar       *device;      /* never NULL nor empty: "auto" when not given */
  gboolean     validate;
  gchar       *report_file; /* never NULL; empty: no file */
} ClfxArgs;

/* Reads the procedure's rows from config (choices by their id, which is
 * the row's index; a variant's own procedure: the variant fixed, the rows
 * it lacks at their defaults) and the common arguments, then checks the
 * values against the rows.  args is always initialised (clear it). */
gboolean clfx_args_read        (const ClfxProcSpec  *proc,
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
 * through the procedure they are for (its rows by their argument names,
 * then device, validate and report-file). */
gchar *  clfx_args_script_fu   (const ClfxArgs      *args);

G_END_DECLS

#endif
