/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-procedures.c: the PDB procedures.
 *
 * A family's arguments are not written out by hand: they come from its
 * rows in the engine's family table (name, range, default, choice
 * nicks), so the PDB, the dialog, clfx-bench and the engine's checks
 * cannot disagree.  So do the procedures of each variant of filter and
 * tonemap as an operator of its own (plug-in-clfx-gaussian-blur): the
 * variant's rows, under GEGL's names, in GIMP's menu for the kind. */
#include <stdlib.h>
#include <string.h>

#include "clfx-args.h"
#include "clfx-plugin.h"
#include "clfx-procedures.h"

#define CLFX_AUTHORS   "clfx developers"
#define CLFX_COPYRIGHT "clfx developers, GPL-3.0-or-later"
#define CLFX_DATE      "2025"

GList *
clfx_procedure_names (void)
{
  GList *names = NULL;

  /* The families' first, then their variants', in table order. */
  for (const ClfxFamily *const *f = clfx_families (); *f; f++)
    if ((*f)->procedure)
      names = g_list_append (names, g_strdup ((*f)->procedure));
  for (const ClfxFamily *const *f = clfx_families (); *f; f++)
    for (gint k = 0; clfx_family_has_operators (*f) && k < (*f)->n_variants;
         k++)
      {
        ClfxProcSpec proc = { *f, k };

        names = g_list_append (names, clfx_proc_name (&proc));
      }
  return names;
}

gboolean
clfx_proc_of_procedure (const gchar  *name,
                        ClfxProcSpec *proc)
{
  for (const ClfxFamily *const *f = clfx_families (); *f; f++)
    {
      if ((*f)->procedure && ! g_strcmp0 ((*f)->procedure, name))
        {
          *proc = (ClfxProcSpec) { *f, -1 };
          return TRUE;
        }
      for (gint k = 0; clfx_family_has_operators (*f) && k < (*f)->n_variants;
           k++)
        {
          gchar buf[128];

          if (clfx_operator_procedure (*f, k, buf, sizeof buf)
              && ! g_strcmp0 (buf, name))
            {
              *proc = (ClfxProcSpec) { *f, k };
              return TRUE;
            }
        }
    }
  return FALSE;
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
                       const ClfxParamSpec *s,
                       const gchar         *name)
{
  const gchar *label = clfx_translate (s->label);
  const gchar *blurb = clfx_translate (s->blurb);

  switch (s->type)
    {
    case CLFX_PARAM_INT:
      gimp_procedure_add_int_argument (procedure, name, label, blurb,
                                       (gint) s->min, (gint) s->max,
                                       (gint) s->def, G_PARAM_READWRITE);
      break;
    case CLFX_PARAM_DOUBLE:
      gimp_procedure_add_double_argument (procedure, name, label, blurb,
                                          s->min, s->max, s->def,
                                          G_PARAM_READWRITE);
      break;
    case CLFX_PARAM_BOOL:
      gimp_procedure_add_boolean_argument (procedure, name, label, blurb,
                                           s->def != 0, G_PARAM_READWRITE);
      break;
    case CLFX_PARAM_CHOICE:
      gimp_procedure_add_choice_argument (procedure, name, label, blurb,
                                          clfx_choice_from_spec (s),
                                          s->choices[(gint) s->def].nick,
                                          G_PARAM_READWRITE);
      break;
    case CLFX_PARAM_STRING:
      gimp_procedure_add_string_argument (procedure, name, label, blurb,
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
                                        "GPU), reference (the CPU path), a "
                                        "number (clfx-bench --list-devices' "
                                        "index) or part of a platform, "
                                        "vendor or device name"),
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
clfx_procedure_new (GimpPlugIn         *plug_in,
                    const ClfxProcSpec *proc,
                    GimpRunImageFunc    run)
{
  const ClfxFamily *family = proc->family;
  ClfxProcSpec     *data = g_memdup2 (proc, sizeof *proc);
  gchar            *name = clfx_proc_name (proc);
  GimpProcedure    *procedure;

  procedure = gimp_image_procedure_new (plug_in, name,
                                        GIMP_PDB_PROC_TYPE_PLUGIN, run, data,
                                        g_free);
  gimp_procedure_set_image_types (procedure, "RGB*, GRAY*");
  gimp_procedure_set_sensitivity_mask (procedure,
                                       GIMP_PROCEDURE_SENSITIVE_DRAWABLE
                                       | GIMP_PROCEDURE_SENSITIVE_DRAWABLES);
  if (proc->variant >= 0)
    {
      const ClfxVariant *v = family->variants[proc->variant];
      gchar             *title = clfx_proc_title (proc);
      /* As the GEGL module labels its operation of the variant. */
      gchar             *label = g_strdup_printf ("%s...", title);
      char              *help = clfx_operator_help (family, proc->variant,
                                                    clfx_translate);

      gimp_procedure_set_menu_label (procedure, label);
      if (v->place.menu_path)
        gimp_procedure_add_menu_path (procedure, v->place.menu_path);
      gimp_procedure_set_documentation (procedure,
                                        clfx_translate (v->blurb), help,
                                        name);
      free (help);
      g_free (label);
      g_free (title);
    }
  else
    {
      /* The help's pieces are translated one by one (each variant's
       * sentence lives in its own header). */
      char *help = clfx_family_help (family, clfx_translate);

      /* A family without a menu label is called from scripts only. */
      if (family->menu_label)
        {
          gimp_procedure_set_menu_label (procedure,
                                         clfx_translate (family->menu_label));
          for (gint i = 0; family->menu_paths && family->menu_paths[i]; i++)
            gimp_procedure_add_menu_path (procedure, family->menu_paths[i]);
        }
      gimp_procedure_set_documentation (procedure,
                                        clfx_translate (family->blurb), help,
                                        name);
      free (help);
    }
  gimp_procedure_set_attribution (procedure, CLFX_AUTHORS, CLFX_COPYRIGHT,
                                  CLFX_DATE);
  /* In the table's order, plug-in-only rows included: positional
   * Script-Fu calls depend on it.  A variant's own procedure has the rows
   * the variant reads, then the plug-in's rows. */
  {
    gint *rows = g_new (gint, family->n_params);
    gint  n = clfx_proc_rows (proc, rows);

    for (gint k = 0; k < n; k++)
      clfx_add_row_argument (procedure, &family->params[rows[k]],
                             clfx_proc_arg_name (proc,
                                                 &family->params[rows[k]]));
    g_free (rows);
  }
  clfx_add_common_arguments (procedure);
  /* The dialog's choice, as GIMP's own filters offer it; scripts say
   * in-process and non-destructive themselves. */
  if (proc->variant >= 0 && clfx_family_param (family, "in-process"))
    gimp_procedure_add_boolean_aux_argument (procedure, CLFX_MERGE_FILTER,
                                             _("_Merge filter"),
                                             _("Apply the filter to the "
                                               "layer's pixels now instead "
                                               "of adding it to the layer's "
                                               "filters, where it stays "
                                               "editable"),
                                             FALSE, G_PARAM_READWRITE);
  g_free (name);
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
