/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-plugin.c: the GimpPlugIn.  It registers one procedure per public
 * family of the engine's table, one per variant of the families whose
 * variants are operators of their own, and the self-test, handles the
 * run modes and hands the work to clfx-call.c and clfx-selftest.c. */
#include <libgimp/gimp.h>
#include <libgimp/gimpui.h>

#include "clfx-args.h"
#include "clfx-call.h"
#include "clfx-dialog.h"
#include "clfx-plugin.h"
#include "clfx-procedures.h"
#include "clfx-selftest.h"

#define CLFX_TYPE_PLUG_IN (clfx_plug_in_get_type ())
G_DECLARE_FINAL_TYPE (ClfxPlugIn, clfx_plug_in, CLFX, PLUG_IN, GimpPlugIn)

struct _ClfxPlugIn
{
  GimpPlugIn parent_instance;
};

G_DEFINE_TYPE (ClfxPlugIn, clfx_plug_in, GIMP_TYPE_PLUG_IN)

GIMP_MAIN (CLFX_TYPE_PLUG_IN)

static GimpValueArray *
clfx_error_values (GimpProcedure *procedure,
                   GError        *error)
{
  return gimp_procedure_new_return_values (procedure,
                                           clfx_error_status (error),
                                           error);
}

static GimpValueArray *
clfx_report_values (GimpProcedure *procedure,
                    gchar         *report)
{
  GimpValueArray *values;

  values = gimp_procedure_new_return_values (procedure, GIMP_PDB_SUCCESS,
                                             NULL);
  GIMP_VALUES_TAKE_STRING (values, 1, report);
  return values;
}

gboolean
clfx_plugin_have_display (void)
{
  const gchar *x11 = g_getenv ("DISPLAY");
  const gchar *wayland = g_getenv ("WAYLAND_DISPLAY");

  if ((! x11 || ! *x11) && (! wayland || ! *wayland))
    return FALSE;
  /* The variable may name a display that is gone. */
  return gtk_init_check (NULL, NULL);
}

/* The run of every family's and variant's procedure; what it runs
 * (ClfxProcSpec) is the run data. */
static GimpValueArray *
clfx_run_procedure (GimpProcedure        *procedure,
                    GimpRunMode           run_mode,
                    GimpImage            *image,
                    GimpDrawable        **drawables,
                    GimpProcedureConfig  *config,
                    gpointer              run_data)
{
  const ClfxProcSpec *proc = run_data;
  GError             *error = NULL;
  gchar              *report = NULL;

  gegl_init (NULL, NULL);
  if (! clfx_call_check_image (image, &error))
    return clfx_error_values (procedure, error);
  if (run_mode == GIMP_RUN_INTERACTIVE)
    {
      if (! clfx_plugin_have_display ())
        return clfx_error_values (procedure,
          g_error_new_literal (CLFX_PLUGIN_ERROR, CLFX_ERR_UNSUPPORTED,
                               _("interactive mode needs a display; call "
                                 "with RUN-NONINTERACTIVE from scripts")));
      if (! clfx_dialog_run (procedure, proc, config, image, drawables))
        return gimp_procedure_new_return_values (procedure, GIMP_PDB_CANCEL,
                                                 NULL);
      clfx_proc_apply_merge_choice (proc, config);
    }
  if (! clfx_call_run (proc, image, drawables, config, &report, &error))
    return clfx_error_values (procedure, error);
  return clfx_report_values (procedure, report);
}

/* From the menu the result is a message; failures already arrive as the
 * procedure's error, which GIMP shows. */
static void
clfx_selftest_message (const ClfxSelftestSummary *summary)
{
  gchar *text = g_strdup_printf (_("OpenCL self-test on %s: all %d cases "
                                   "agree with the CPU reference."),
                                 summary->device, summary->passed);

  gimp_message (text);
  g_free (text);
}

static GimpValueArray *
clfx_run_selftest (GimpProcedure       *procedure,
                   GimpProcedureConfig *config,
                   gpointer             run_data)
{
  GError             *error = NULL;
  gchar              *device = NULL, *report_file = NULL, *report = NULL;
  GimpRunMode         run_mode = GIMP_RUN_NONINTERACTIVE;
  ClfxSelftestSummary summary;
  gboolean            ok;

  (void) run_data;
  g_object_get (config, "run-mode", &run_mode, "device", &device,
                "report-file", &report_file, NULL);
  ok = clfx_selftest_run (device, &report, &summary, &error);
  /* The report is kept even when a case failed: it says which. */
  if (report && report_file && *report_file)
    {
      GError *write_error = NULL;

      if (! clfx_report_write (report_file, report, &write_error))
        {
          ok = FALSE;
          if (error)
            {
              /* Both: the write's failure is not hidden behind the
               * self-test's. */
              g_prefix_error (&write_error, "%s; ", error->message);
              g_clear_error (&error);
            }
          error = write_error;
        }
    }
  g_free (device);
  g_free (report_file);
  if (ok && run_mode == GIMP_RUN_INTERACTIVE)
    clfx_selftest_message (&summary);
  clfx_selftest_summary_clear (&summary);
  if (! ok)
    {
      g_free (report);
      return clfx_error_values (procedure, error);
    }
  return clfx_report_values (procedure, report);
}

/* Every family with a procedure (internal ones, such as copy, have
 * none) and its variants', then the self-test. */
static GList *
clfx_plug_in_query (GimpPlugIn *plug_in)
{
  (void) plug_in;
  return g_list_append (clfx_procedure_names (),
                        g_strdup (CLFX_PROC_SELFTEST));
}

static GimpProcedure *
clfx_plug_in_create (GimpPlugIn  *plug_in,
                     const gchar *name)
{
  ClfxProcSpec proc;

  if (clfx_proc_of_procedure (name, &proc))
    return clfx_procedure_new (plug_in, &proc, clfx_run_procedure);
  if (! g_strcmp0 (name, CLFX_PROC_SELFTEST))
    return clfx_procedure_new_selftest (plug_in, clfx_run_selftest);
  return NULL;
}

/* The catalogs install beside the binary, in locale/ (po/meson.build). */
static gboolean
clfx_plug_in_set_i18n (GimpPlugIn  *plug_in,
                       const gchar *procedure_name,
                       gchar      **gettext_domain,
                       gchar      **catalog_dir)
{
  (void) plug_in;
  (void) procedure_name;
  *gettext_domain = g_strdup (GETTEXT_PACKAGE);
  *catalog_dir = g_strdup ("locale");
  return TRUE;
}

static void
clfx_plug_in_class_init (ClfxPlugInClass *klass)
{
  GimpPlugInClass *plug_in_class = GIMP_PLUG_IN_CLASS (klass);

  plug_in_class->query_procedures = clfx_plug_in_query;
  plug_in_class->create_procedure = clfx_plug_in_create;
  plug_in_class->set_i18n = clfx_plug_in_set_i18n;
}

static void
clfx_plug_in_init (ClfxPlugIn *self)
{
  (void) self;
}
