/* clfx-procedures.c: the PDB procedures.
 *
 * An op's arguments are not written out by hand: they come from its row
 * in the engine's op table (name, range, default, choice nicks), so the
 * PDB, the dialog, clfx-bench and the engine's checks cannot disagree. */
#include <string.h>

#include "clfx-plugin.h"
#include "clfx-procedures.h"

#define CLFX_AUTHORS   "clfx developers"
#define CLFX_COPYRIGHT "clfx developers, GPL-3.0-or-later"
#define CLFX_DATE      "2025"

G_DEFINE_QUARK (clfx-plugin-error-quark, clfx_plugin_error)

void
clfx_set_gerror (GError         **error,
                 const ClfxError *e)
{
  g_set_error_literal (error, CLFX_PLUGIN_ERROR, e->code,
                       e->message[0] ? e->message : _("unknown error"));
}

GimpPDBStatusType
clfx_error_status (const GError *error)
{
  if (error && error->domain == CLFX_PLUGIN_ERROR
      && error->code == CLFX_ERR_INVALID)
    return GIMP_PDB_CALLING_ERROR;
  return GIMP_PDB_EXECUTION_ERROR;
}

/* ---- declaring arguments from the op table ----------------------------- */

static GimpChoice *
clfx_choice_from_spec (const ClfxParamSpec *spec)
{
  GimpChoice *choice = gimp_choice_new ();

  /* The id is the index in the table: the engine's value for a choice. */
  for (gint i = 0; spec->choices[i].nick; i++)
    gimp_choice_add (choice, spec->choices[i].nick, i,
                     gettext (spec->choices[i].label), NULL);
  return choice;
}

static void
clfx_add_op_argument (GimpProcedure       *procedure,
                      const ClfxParamSpec *s)
{
  const gchar *label = gettext (s->label), *blurb = gettext (s->blurb);

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
                                          s->def_string, G_PARAM_READWRITE);
      break;
    }
}

static void
clfx_add_device_argument (GimpProcedure *procedure)
{
  gimp_procedure_add_string_argument (procedure, "device", _("_Device"),
                                      _("OpenCL device: auto, reference "
                                        "(the CPU path) or part of a "
                                        "platform, vendor or device name"),
                                      "auto", G_PARAM_READWRITE);
}

/* device, validate, report-file, and the report return value: last on
 * every op procedure. */
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
clfx_procedure_new_resize (GimpPlugIn       *plug_in,
                           GimpRunImageFunc  run)
{
  const ClfxOpInfo *op = &clfx_op_resize;
  GimpProcedure    *procedure;

  procedure = gimp_image_procedure_new (plug_in, CLFX_PROC_RESIZE,
                                        GIMP_PDB_PROC_TYPE_PLUGIN, run,
                                        NULL, NULL);
  gimp_procedure_set_image_types (procedure, "RGB*, GRAY*");
  gimp_procedure_set_sensitivity_mask (procedure,
                                       GIMP_PROCEDURE_SENSITIVE_DRAWABLE
                                       | GIMP_PROCEDURE_SENSITIVE_DRAWABLES);
  gimp_procedure_set_menu_label (procedure, _("_Resize (OpenCL)..."));
  gimp_procedure_add_menu_path (procedure, "<Image>/Filters/OpenCL");
  /* Also beside GIMP's own Scale Image, where users look for scaling. */
  gimp_procedure_add_menu_path (procedure, "<Image>/Image");
  gimp_procedure_set_documentation (procedure,
    _("Resize layers or the image with an OpenCL image sampler"),
    _("Resamples the selected layers (target layer) or every layer and "
      "the canvas (target image) with nearest or linear filtering through "
      "the OpenCL sampler, or cubic or lanczos3 in the kernel, antialiased "
      "when shrinking.  zoom below 1 shows what the addressing mode does "
      "outside the source.  With device auto a missing OpenCL falls back "
      "to the CPU reference; validate compares with that reference.  "
      "Returns a JSON report (device, build logs, timings, validation)."),
    CLFX_PROC_RESIZE);
  gimp_procedure_set_attribution (procedure, CLFX_AUTHORS, CLFX_COPYRIGHT,
                                  CLFX_DATE);

  for (gint i = 0; i < op->n_params; i++)
    clfx_add_op_argument (procedure, &op->params[i]);
  gimp_procedure_add_choice_argument (procedure, "target", _("_Target"),
    _("What to resize: the selected layers, or the image (canvas and "
      "every layer)"),
    gimp_choice_new_with_values ("layer", 0, _("Selected layers"), NULL,
                                 "image", 1, _("Whole image"), NULL,
                                 NULL),
    "layer", G_PARAM_READWRITE);
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
    _("Runs resize on synthetic images for every filter, addressing mode "
      "and coordinate mode the OpenCL spec allows, with validation, on "
      "the chosen device.  Returns a JSON summary; fails when any case "
      "failed."),
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

/* ---- reading a config back --------------------------------------------- */

void
clfx_config_read_value (GimpProcedureConfig *config,
                        const ClfxParamSpec *s,
                        ClfxValue           *v,
                        gchar              **string)
{
  gboolean b;

  switch (s->type)
    {
    case CLFX_PARAM_INT:
      g_object_get (config, s->name, &v->i, NULL);
      break;
    case CLFX_PARAM_DOUBLE:
      g_object_get (config, s->name, &v->d, NULL);
      break;
    case CLFX_PARAM_BOOL:
      g_object_get (config, s->name, &b, NULL);
      v->b = b != FALSE;
      break;
    case CLFX_PARAM_CHOICE:
      v->i = gimp_procedure_config_get_choice_id (config, s->name);
      break;
    case CLFX_PARAM_STRING:
      g_object_get (config, s->name, string, NULL);
      v->s = *string ? *string : "";
      break;
    }
}

gboolean
clfx_pdb_args_read (const ClfxOpInfo    *op,
                    GimpProcedureConfig *config,
                    ClfxPdbArgs         *args,
                    GError             **error)
{
  ClfxError e = { 0 };

  memset (args, 0, sizeof *args);
  args->op = op;
  clfx_params_defaults (op, &args->params);
  for (gint i = 0; i < op->n_params; i++)
    clfx_config_read_value (config, &op->params[i], &args->params.v[i],
                           &args->strings[i]);
  g_object_get (config, "device", &args->device, "validate",
                &args->validate, "report-file", &args->report_file, NULL);
  if (! args->device || ! *args->device)
    {
      g_free (args->device);
      args->device = g_strdup ("auto");
    }
  if (! args->report_file)
    args->report_file = g_strdup ("");
  if (! clfx_params_check (op, &args->params, &e))
    {
      clfx_set_gerror (error, &e);
      return FALSE;
    }
  return TRUE;
}

void
clfx_pdb_args_clear (ClfxPdbArgs *args)
{
  for (gint i = 0; i < CLFX_MAX_PARAMS; i++)
    g_free (args->strings[i]);
  g_free (args->device);
  g_free (args->report_file);
  memset (args, 0, sizeof *args);
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
