/* clfx-procedures.c: the PDB procedures.
 *
 * A family's arguments are not written out by hand: they come from its
 * rows in the engine's family table (name, range, default, choice
 * nicks), so the PDB, the dialog, clfx-bench and the engine's checks
 * cannot disagree. */
#include <stdlib.h>
#include <string.h>

#include "clfx-args.h"
#include "clfx-plugin.h"
#include "clfx-procedures.h"

#define CLFX_AUTHORS   "clfx developers"
#define CLFX_COPYRIGHT "clfx developers, GPL-3.0-or-later"
#define CLFX_DATE      "2025"

const ClfxFamily *
clfx_family_of_procedure (const gchar *name)
{
  for (const ClfxFamily *const *f = clfx_families (); *f; f++)
    if ((*f)->procedure && ! g_strcmp0 ((*f)->procedure, name))
      return *f;
  return NULL;
}

/* ---- declaring arguments from the family table -------------------------- */

static GimpChoice *
clfx_choice_from_spec (const ClfxParamSpec *spec)
{
  GimpChoice *choice = gimp_choice_new ();

  /* The id is the index in the row: the engine's value for a choice. */
  for (gint i = 0; spec->choices[i].nick; i++)
    gimp_choice_add (choice, spec->choices[i].nick, i,
                     clfx_translate (spec->choices[i].label), NULL);
  return choice;
}

static void
clfx_add_row_argument (GimpProcedure       *procedure,
                       const ClfxParamSpec *s)
{
  const gchar *label = clfx_translate (s->label);
  const gchar *blurb = clfx_translate (s->blurb);

  switch (s->type)
    {
    case CLFX_PARAM_INT:
      gimp_procedure_add_int_argument (procedure, s->name, label, blurb,
                                       (gint) s->min, (gint) s->max,
                                       (gint) s->def, G_PARAM_READWRITE);
      break;
    case CLFX_PARAM_DOUBLE:
      gimp_procedure_add_double_argument (procedure, s->name, label, blurb,
                                          s->min, s->max, s->def,
                                          G_PARAM_READWRITE);
      break;
    case CLFX_PARAM_BOOL:
      gimp_procedure_add_boolean_argument (procedure, s->name, label, blurb,
                                           s->def != 0, G_PARAM_READWRITE);
      break;
    case CLFX_PARAM_CHOICE:
      gimp_procedure_add_choice_argument (procedure, s->name, label, blurb,
                                          clfx_choice_from_spec (s),
                                          s->choices[(gint) s->def].nick,
                                          G_PARAM_READWRITE);
      break;
    case CLFX_PARAM_STRING:
      gimp_procedure_add_string_argument (procedure, s->name, label, blurb,
                                          s->def_string ? s->def_string : "",
                                          G_PARAM_READWRITE);
      break;
    }
}

static void
clfx_add_device_argument (GimpProcedure *procedure)
{
  gimp_procedure_add_string_argument (procedure, "device", _("_Device"),
                                      _("OpenCL device: auto, all (every "
                                        "GPU), reference (the CPU path) or "
                                        "part of a platform, vendor or "
                                        "device name"),
                                      "auto", G_PARAM_READWRITE);
}

/* report-file (last argument) and the report return value. */
static void
clfx_add_report_arguments (GimpProcedure *procedure)
{
  gimp_procedure_add_string_argument (procedure, "report-file",
                                      _("Re_port file"),
                                      _("Also write the JSON report to this "
                                        "file (empty: do not)"), "",
                                      G_PARAM_READWRITE);
  gimp_procedure_add_string_return_value (procedure, "report", _("Report"),
                                          _("The JSON report"), NULL,
                                          G_PARAM_READWRITE);
}

/* device, validate, report-file, and the report return value: last on
 * every family procedure. */
static void
clfx_add_common_arguments (GimpProcedure *procedure)
{
  clfx_add_device_argument (procedure);
  gimp_procedure_add_boolean_argument (procedure, "validate", _("_Validate"),
                                       _("Also run the CPU reference and "
                                         "compare"), FALSE,
                                       G_PARAM_READWRITE);
  clfx_add_report_arguments (procedure);
}

GimpProcedure *
clfx_procedure_new_family (GimpPlugIn       *plug_in,
                           const ClfxFamily *family,
                           GimpRunImageFunc  run)
{
  GimpProcedure *procedure;

  procedure = gimp_image_procedure_new (plug_in, family->procedure,
                                        GIMP_PDB_PROC_TYPE_PLUGIN, run,
                                        (gpointer) family, NULL);
  gimp_procedure_set_image_types (procedure, "RGB*, GRAY*");
  gimp_procedure_set_sensitivity_mask (procedure,
                                       GIMP_PROCEDURE_SENSITIVE_DRAWABLE
                                       | GIMP_PROCEDURE_SENSITIVE_DRAWABLES);
  /* A family without a menu label is called from scripts only. */
  if (family->menu_label)
    {
      gimp_procedure_set_menu_label (procedure,
                                     clfx_translate (family->menu_label));
      for (gint i = 0; family->menu_paths && family->menu_paths[i]; i++)
        gimp_procedure_add_menu_path (procedure, family->menu_paths[i]);
    }
  {
    /* The help's pieces are translated one by one (each variant's
     * sentence lives in its own header). */
    gchar *help = clfx_family_help (family, clfx_translate);
    gimp_procedure_set_documentation (procedure,
                                      clfx_translate (family->blurb), help,
                                      family->procedure);
    free (help);
  }
  gimp_procedure_set_attribution (procedure, CLFX_AUTHORS, CLFX_COPYRIGHT,
                                  CLFX_DATE);
  /* In the table's order, plug-in-only rows included: positional
   * Script-Fu calls depend on it. */
  for (gint i = 0; i < family->n_params; i++)
    clfx_add_row_argument (procedure, &family->params[i]);
  clfx_add_common_arguments (procedure);
  return procedure;
}

GimpProcedure *
clfx_procedure_new_selftest (GimpPlugIn  *plug_in,
                             GimpRunFunc  run)
{
  GimpProcedure *procedure;

  procedure = gimp_procedure_new (plug_in, CLFX_PROC_SELFTEST,
                                  GIMP_PDB_PROC_TYPE_PLUGIN, run, NULL,
                                  NULL);
  /* Like darktable-cltest: one click tells whether OpenCL works here. */
  gimp_procedure_set_menu_label (procedure, _("OpenCL _Self-test"));
  gimp_procedure_add_menu_path (procedure, "<Image>/Filters/OpenCL");
  gimp_procedure_set_sensitivity_mask (procedure,
                                       GIMP_PROCEDURE_SENSITIVE_ALWAYS);
  gimp_procedure_set_documentation (procedure,
    _("Check clfx's OpenCL results against its CPU reference"),
    _("Runs every operation's sweep (for resize: every filter, addressing "
      "mode and coordinate mode the OpenCL spec allows) on synthetic "
      "images, with validation, on the chosen device.  Returns a JSON "
      "summary; fails when any case failed."),
    CLFX_PROC_SELFTEST);
  gimp_procedure_set_attribution (procedure, CLFX_AUTHORS, CLFX_COPYRIGHT,
                                  CLFX_DATE);
  gimp_procedure_add_enum_argument (procedure, "run-mode", _("Run mode"),
                                    _("The run mode"), GIMP_TYPE_RUN_MODE,
                                    GIMP_RUN_INTERACTIVE, G_PARAM_READWRITE);
  clfx_add_device_argument (procedure);
  clfx_add_report_arguments (procedure);
  return procedure;
}

gboolean
clfx_report_write (const gchar *path,
                   const gchar *json,
                   GError     **error)
{
  GError *e = NULL;

  /* g_file_set_contents writes a temporary file beside path and renames
   * it over path: a reader never sees half a report. */
  if (g_file_set_contents (path, json, -1, &e))
    return TRUE;
  g_set_error (error, CLFX_PLUGIN_ERROR, CLFX_ERR_IO,
               _("cannot write the report to '%s': %s"), path, e->message);
  g_error_free (e);
  return FALSE;
}
