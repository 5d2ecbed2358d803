/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-inprocess.c: the apply step through the GEGL module
 * (gegl-module/), for families whose variants are its operations.
 *
 * With "in-process" on and the module installed where GEGL finds it (the
 * plug-in's GEGL loads the same folders as GIMP's), the procedure hands
 * each drawable to GIMP as a drawable filter running clfx:<variant> with
 * the call's values: GIMP renders it in its own process, so no pixel
 * crosses the plug-in wire.  "non-destructive" appends the filter to the
 * drawable (editable, saved in XCF files) instead of merging it.  The
 * values were checked against every drawable before (clfx_call_check_jobs),
 * so the engine refuses nothing there.
 *
 * The report is the operation's own, written by its run inside GIMP to a
 * temporary file.  A filter that is only appended has not run yet: its
 * report-file is then the call's, written at each render, and the call
 * returns a short report saying so. */
#include <string.h>

#include "clfx-call.h"
#include "clfx-plugin.h"
#include "clfx-procedures.h"

static gboolean
clfx_row_on (const ClfxCall *call,
             const char     *name)
{
  const ClfxParamSpec *s = clfx_family_param (call->family, name);

  return s && s->plugin_only && s->type == CLFX_PARAM_BOOL
         && clfx_param_get_bool (&call->args.params, s);
}

/* The variant's procedure (plug-in-clfx-gaussian-blur's, for a family
 * call with gaussian chosen too): its operation and title. */
static ClfxProcSpec
clfx_inprocess_proc (const ClfxCall *call)
{
  const ClfxVariant *v = clfx_params_variant (&call->args.params);
  ClfxProcSpec       proc = { call->family, -1 };

  for (gint k = 0; v && k < call->family->n_variants; k++)
    if (call->family->variants[k] == v)
      proc.variant = k;
  return proc;
}

/* The variant's operation name into buf; NULL when GEGL lacks it. */
static const gchar *
clfx_inprocess_operation (const ClfxCall *call,
                          gchar          *buf,
                          gsize           n)
{
  ClfxProcSpec proc = clfx_inprocess_proc (call);

  return clfx_proc_module_operation (&proc, buf, n);
}

gboolean
clfx_inprocess_wanted (const ClfxCall *call)
{
  gchar op[64];

  return clfx_row_on (call, "in-process")
         && clfx_inprocess_operation (call, op, sizeof op) != NULL;
}

/* The call's values on the filter's config: the variant's rows (choices
 * by their names, as GIMP hands GEGL's enums to plug-ins), the device,
 * validate and where to write the report. */
static void
clfx_inprocess_configure (const ClfxCall           *call,
                          GimpDrawableFilterConfig *config,
                          const gchar              *report_file)
{
  const ClfxFamily  *f = call->family;
  const ClfxParams  *p = &call->args.params;
  const ClfxVariant *v = clfx_params_variant (p);

  for (gint i = 0; i < f->n_params; i++)
    {
      const ClfxParamSpec *s = &f->params[i];

      if (i == f->variant_param || s->plugin_only
          || ! clfx_variant_uses (v, s))
        continue;
      switch (s->type)
        {
        case CLFX_PARAM_INT:
          g_object_set (config, s->name, clfx_param_get_int (p, s), NULL);
          break;
        case CLFX_PARAM_DOUBLE:
          g_object_set (config, s->name, clfx_param_get_double (p, s), NULL);
          break;
        case CLFX_PARAM_BOOL:
          g_object_set (config, s->name,
                        (gboolean) clfx_param_get_bool (p, s), NULL);
          break;
        case CLFX_PARAM_CHOICE:
          g_object_set (config, s->name, clfx_param_get_nick (p, s), NULL);
          break;
        case CLFX_PARAM_STRING:
          g_object_set (config, s->name, clfx_param_get_string (p, s), NULL);
          break;
        }
    }
  g_object_set (config, "device", call->args.device, "validate",
                call->args.validate, "report-file", report_file, NULL);
}

/* What every drawable's step shares. */
typedef struct
{
  const gchar *op;
  const gchar *title;       /* the filter's name in the layer's list */
  gboolean     keep;        /* append (non-destructive), not merge */
  const gchar *report_file; /* the first drawable's run writes it */
  GPtrArray   *appended;    /* taken off again when a later step fails */
} ClfxInprocessStep;

static gboolean
clfx_inprocess_step (ClfxCall *call,
                     ClfxJob  *job,
                     gpointer  data,
                     GError  **error)
{
  ClfxInprocessStep  *st = data;
  GimpDrawableFilter *filter = gimp_drawable_filter_new (job->drawable,
                                                         st->op, st->title);

  if (! filter)
    {
      g_set_error (error, CLFX_PLUGIN_ERROR, CLFX_ERR_IO,
                   _("GIMP could not make a %s filter on '%s'"), st->op,
                   gimp_item_get_name (GIMP_ITEM (job->drawable)));
      return FALSE;
    }
  clfx_inprocess_configure (call, gimp_drawable_filter_get_config (filter),
                            job == clfx_call_job (call, 0) ? st->report_file
                                                          : "");
  gimp_drawable_filter_update (filter);
  if (st->keep)
    {
      gimp_drawable_append_filter (job->drawable, filter);
      g_ptr_array_add (st->appended, filter);
    }
  else
    {
      /* Merged pixels are put back from the copy if a later step fails. */
      job->started = TRUE;
      gimp_drawable_merge_filter (job->drawable, filter);
    }
  return TRUE;
}

static void
clfx_inprocess_undo (gpointer data)
{
  ClfxInprocessStep *st = data;

  for (guint i = 0; i < st->appended->len; i++)
    gimp_drawable_filter_delete (g_ptr_array_index (st->appended, i));
}

gboolean
clfx_inprocess_apply (ClfxCall *call,
                      GError  **error)
{
  gchar             op[64];
  ClfxProcSpec      proc = clfx_inprocess_proc (call);
  gchar            *title = clfx_proc_title (&proc);
  GFile            *tmp = gimp_temp_file ("json");
  gchar            *tmp_path = g_file_get_path (tmp);
  ClfxInprocessStep st = { op, title, clfx_row_on (call, "non-destructive"),
                           tmp_path, g_ptr_array_new () };
  gboolean          ok;

  clfx_inprocess_operation (call, op, sizeof op);
  if (st.keep && *call->args.report_file)
    st.report_file = call->args.report_file;
  /* All or nothing, as the wire path. */
  ok = clfx_shadow_apply_each (call, clfx_inprocess_step,
                               clfx_inprocess_undo, &st, error);
  if (ok && st.keep)
    call->report = g_strdup_printf ("{\"operation\":\"%s\",\"in-process\":"
                                    "\"%s appended as a non-destructive "
                                    "filter; each render writes its report "
                                    "to report-file\"}",
                                    call->family->name, op);
  else if (ok && ! g_file_get_contents (tmp_path, &call->report, NULL, NULL))
    call->report = g_strdup_printf ("{\"operation\":\"%s\",\"in-process\":"
                                    "\"%s merged, no report\"}",
                                    call->family->name, op);
  if (ok && ! st.keep && *call->args.report_file)
    ok = clfx_report_write (call->args.report_file, call->report, error);
  g_ptr_array_free (st.appended, TRUE);
  g_file_delete (tmp, NULL, NULL);
  g_object_unref (tmp);
  g_free (tmp_path);
  g_free (title);
  return ok;
}
