/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-args.c: procedure configs to engine values through the family
 * table's rows, engine errors and text to GLib, values to Script-Fu. */
#include <stdlib.h>
#include <string.h>

#include <libintl.h>

#include "clfx-args.h"

#define _(s) gettext (s)

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

const gchar *
clfx_translate (const char *text)
{
  return text && *text ? gettext (text) : "";
}

gchar *
clfx_engine_text (char    *text,
                  GError **error)
{
  gchar *copy;

  if (! text)
    {
      g_set_error_literal (error, CLFX_PLUGIN_ERROR, CLFX_ERR_NOMEM,
                           _("out of memory for the report"));
      return NULL;
    }
  /* The engine allocates with malloc, GLib callers free with g_free. */
  copy = g_strdup (text);
  free (text);
  return copy;
}

/* ---- what a procedure runs ---------------------------------------------- */

gboolean
clfx_proc_has_row (const ClfxProcSpec *proc,
                   gint                i)
{
  if (proc->variant < 0)
    return i >= 0 && i < proc->family->n_params;
  return clfx_operator_has_row (proc->family, proc->variant, i);
}

gint
clfx_proc_rows (const ClfxProcSpec *proc,
                gint               *rows)
{
  const ClfxFamily *f = proc->family;
  gint              n = 0;

  /* A family keeps the table's order, which positional Script-Fu calls
   * depend on; a variant's procedure has its own rows, then the
   * plug-in's. */
  for (gint plugin_rows = 0; plugin_rows < 2; plugin_rows++)
    for (gint i = 0; i < f->n_params; i++)
      if (clfx_proc_has_row (proc, i)
          && (proc->variant < 0 ? plugin_rows == 1
                                : f->params[i].plugin_only == plugin_rows))
        rows[n++] = i;
  return n;
}

const gchar *
clfx_proc_arg_name (const ClfxProcSpec  *proc,
                    const ClfxParamSpec *s)
{
  /* The family procedure keeps the table's names, which scripts use. */
  return proc->variant < 0 ? s->name : clfx_operator_arg_name (s);
}

gchar *
clfx_proc_name (const ClfxProcSpec *proc)
{
  gchar name[128];

  if (proc->variant < 0
      || ! clfx_operator_procedure (proc->family, proc->variant, name,
                                    sizeof name))
    return g_strdup (proc->family->procedure);
  return g_strdup (name);
}

gchar *
clfx_proc_title (const ClfxProcSpec *proc)
{
  const ClfxFamily *f = proc->family;

  const ClfxVariant *v;

  if (proc->variant < 0 || f->variant_param < 0)
    return g_strdup (clfx_translate (f->title));
  v = f->variants[proc->variant];
  /* TRANSLATORS: a GEGL operation's title, %s its filter or tone mapper
   * ("Gaussian Blur (OpenCL)"). */
  return g_strdup_printf (_("%s (OpenCL)"),
                          clfx_translate (v->place.title
                                          ? v->place.title
                                          : f->params[f->variant_param]
                                              .choices[proc->variant].label));
}

const gchar *
clfx_proc_module_operation (const ClfxProcSpec *proc,
                            gchar              *buf,
                            gsize               n)
{
  if (proc->variant < 0 || proc->variant >= proc->family->n_variants
      || ! clfx_family_param (proc->family, "in-process"))
    return NULL;
  g_snprintf (buf, n, "clfx:%s", proc->family->variants[proc->variant]->name);
  return gegl_has_operation (buf) ? buf : NULL;
}

void
clfx_proc_apply_merge_choice (const ClfxProcSpec  *proc,
                              GimpProcedureConfig *config)
{
  GimpProcedure *procedure = gimp_procedure_config_get_procedure (config);
  gchar          op[64];
  gboolean       merge = TRUE, module;

  if (! gimp_procedure_find_aux_argument (procedure, CLFX_MERGE_FILTER))
    return;
  module = clfx_proc_module_operation (proc, op, sizeof op) != NULL;
  g_object_get (config, CLFX_MERGE_FILTER, &merge, NULL);
  g_object_set (config, "in-process", module, "non-destructive",
                module && ! merge, NULL);
}

/* ---- reading a config --------------------------------------------------- */

/* Row s from the config's property name (the row's argument name). */
static gboolean
clfx_args_read_row (GimpProcedureConfig *config,
                    const ClfxParamSpec *s,
                    const gchar         *name,
                    ClfxParams          *p,
                    GError             **error)
{
  gint     i;
  gdouble  d;
  gboolean b;
  gchar   *text = NULL;

  switch (s->type)
    {
    case CLFX_PARAM_INT:
      g_object_get (config, name, &i, NULL);
      clfx_param_set_int (p, s, i);
      break;
    case CLFX_PARAM_DOUBLE:
      g_object_get (config, name, &d, NULL);
      clfx_param_set_double (p, s, d);
      break;
    case CLFX_PARAM_BOOL:
      g_object_get (config, name, &b, NULL);
      clfx_param_set_bool (p, s, b != FALSE);
      break;
    case CLFX_PARAM_CHOICE:
      /* The id is the choice's index in the row: the engine's value. */
      clfx_param_set_int (p, s,
                          gimp_procedure_config_get_choice_id (config,
                                                               name));
      break;
    case CLFX_PARAM_STRING:
      g_object_get (config, name, &text, NULL);
      if (text && strlen (text) >= s->size)
        {
          g_set_error (error, CLFX_PLUGIN_ERROR, CLFX_ERR_INVALID,
                       _("%s: the text is %zu characters long, at most %zu "
                         "are allowed"), name, strlen (text),
                       s->size - 1);
          g_free (text);
          return FALSE;
        }
      clfx_param_set_string (p, s, text ? text : "");
      g_free (text);
      break;
    }
  return TRUE;
}

gboolean
clfx_args_read (const ClfxProcSpec  *proc,
                GimpProcedureConfig *config,
                ClfxArgs            *args,
                GError             **error)
{
  const ClfxFamily *family = proc->family;
  ClfxError         e = { 0 };

  memset (args, 0, sizeof *args);
  args->proc = *proc;
  clfx_params_defaults (family, &args->params);
  /* A variant's own procedure has no choice of variant: it is fixed. */
  if (proc->variant >= 0 && family->variant_param >= 0)
    clfx_param_set_int (&args->params, &family->params[family->variant_param],
                        proc->variant);
  g_object_get (config, "device", &args->device, "validate",
                &args->validate, "report-file", &args->report_file, NULL);
  if (! args->device || ! *args->device)
    {
      g_free (args->device);
      args->device = g_strdup ("auto");
    }
  if (! args->report_file)
    args->report_file = g_strdup ("");
  for (gint i = 0; i < family->n_params; i++)
    if (clfx_proc_has_row (proc, i)
        && ! clfx_args_read_row (config, &family->params[i],
                                 clfx_proc_arg_name (proc,
                                                     &family->params[i]),
                                 &args->params, error))
      return FALSE;
  if (! clfx_params_check (&args->params, &e))
    {
      clfx_set_gerror (error, &e);
      return FALSE;
    }
  return TRUE;
}

void
clfx_args_copy (ClfxArgs       *dst,
                const ClfxArgs *src)
{
  dst->proc = src->proc;
  dst->params = src->params;
  dst->device = g_strdup (src->device);
  dst->validate = src->validate;
  dst->report_file = g_strdup (src->report_file);
}

void
clfx_args_clear (ClfxArgs *args)
{
  g_free (args->device);
  g_free (args->report_file);
  memset (args, 0, sizeof *args);
}

/* A row's value as text, as clfx_params_set reads it back. */
static gchar *
clfx_row_text (const ClfxParams    *p,
               const ClfxParamSpec *s)
{
  gchar text[64];

  /* A string may be longer than any number or nick. */
  if (s->type == CLFX_PARAM_STRING)
    return g_strdup (clfx_param_get_string (p, s));
  return g_strdup (clfx_param_format (p, s, text, sizeof text));
}

gchar **
clfx_args_report_extra (const ClfxArgs *args,
                        gint            n_drawables)
{
  const ClfxFamily *f = args->params.family;
  GPtrArray        *pairs = g_ptr_array_new ();

  for (gint i = 0; i < f->n_params; i++)
    {
      const ClfxParamSpec *s = &f->params[i];

      /* The engine reports its own rows; these are the apply step's. */
      if (! s->plugin_only)
        continue;
      g_ptr_array_add (pairs, g_strdup (s->name));
      g_ptr_array_add (pairs, clfx_row_text (&args->params, s));
    }
  if (n_drawables >= 0)
    {
      g_ptr_array_add (pairs, g_strdup ("drawables"));
      g_ptr_array_add (pairs, g_strdup_printf ("%d", n_drawables));
    }
  g_ptr_array_add (pairs, NULL);
  return (gchar **) g_ptr_array_free (pairs, FALSE);
}

/* ---- Script-Fu ---------------------------------------------------------- */

static void
clfx_append_scheme_string (GString     *s,
                           const gchar *text)
{
  g_string_append_c (s, '"');
  for (const gchar *p = text; *p; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_c (s, '\\');
      g_string_append_c (s, *p);
    }
  g_string_append_c (s, '"');
}

gchar *
clfx_args_script_fu (const ClfxArgs *args)
{
  const ClfxFamily *f = args->params.family;
  /* Values made without a procedure are the family procedure's. */
  ClfxProcSpec      proc = args->proc.family ? args->proc
                                             : (ClfxProcSpec) { f, -1 };
  GString          *s = g_string_new (NULL);
  gchar            *name = clfx_proc_name (&proc);
  gint             *rows = g_new (gint, f->n_params);
  gint              n;

  g_string_append_printf (s, "(%s #:run-mode RUN-NONINTERACTIVE #:image img "
                          "#:drawables (vector drw)", name);
  g_free (name);
  /* The procedure's own arguments only, by their names there. */
  n = clfx_proc_rows (&proc, rows);
  for (gint k = 0; k < n; k++)
    {
      const ClfxParamSpec *r = &f->params[rows[k]];
      gchar               *text = clfx_row_text (&args->params, r);

      g_string_append_printf (s, " #:%s ", clfx_proc_arg_name (&proc, r));
      if (r->type == CLFX_PARAM_BOOL)
        g_string_append (s, clfx_param_get_bool (&args->params, r) ? "#t"
                                                                   : "#f");
      else if (r->type == CLFX_PARAM_INT || r->type == CLFX_PARAM_DOUBLE)
        /* The engine's text: C locale, reads back as the same number. */
        g_string_append (s, text);
      else
        /* Choices travel as their nick strings, like plain strings. */
        clfx_append_scheme_string (s, text);
      g_free (text);
    }
  g_string_append (s, " #:device ");
  clfx_append_scheme_string (s, args->device);
  g_string_append_printf (s, " #:validate %s #:report-file ",
                          args->validate ? "#t" : "#f");
  clfx_append_scheme_string (s, args->report_file);
  g_string_append_c (s, ')');
  g_free (rows);
  return g_string_free (s, FALSE);
}
