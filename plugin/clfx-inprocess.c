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

const gchar *
clfx_inprocess_operation (const ClfxCall *call,
                          gchar          *buf,
                          gsize           n)
{
  const ClfxVariant *v = clfx_params_variant (&call->args.params);

  if (! v || ! clfx_family_param (call->family, "in-process"))
    return NULL;
  g_snprintf (buf, n, "clfx:%s", v->name);
  return gegl_has_operation (buf) ? buf : NULL;
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

gboolean
clfx_inprocess_apply (ClfxCall *call,
                      GError  **error)
{
  gboolean     keep = clfx_row_on (call, "non-destructive");
  gchar        op[64];
  GFile       *tmp = gimp_temp_file ("json");
  gchar       *tmp_path = g_file_get_path (tmp);
  const gchar *report_file = keep && *call->args.report_file
                               ? call->args.report_file
                               : tmp_path;
  gboolean     ok = TRUE;
  GPtrArray   *appended = g_ptr_array_new ();

  clfx_inprocess_operation (call, op, sizeof op);
  /* All or nothing, as the wire path: the drawables are copied first,
   * and when a step fails those already changed get their pixels back
   * inside the same undo group. */
  if (! clfx_call_backup (call, error))
    ok = FALSE;
  else
    gimp_image_undo_group_start (call->image);
  for (guint i = 0; ok && i < call->jobs->len; i++)
    {
      ClfxJob            *job = clfx_call_job (call, i);
      GimpDrawableFilter *filter;

      /* The test hook of every apply step (CLFX_FAULT=clfx_apply_job). */
      if (! (ok = clfx_call_fault (job, error)))
        break;
      job->started = ! keep;
      filter = gimp_drawable_filter_new (job->drawable, op, NULL);
      if (! filter)
        {
          g_set_error (error, CLFX_PLUGIN_ERROR, CLFX_ERR_IO,
                       _("GIMP could not make a %s filter on '%s'"), op,
                       gimp_item_get_name (GIMP_ITEM (job->drawable)));
          ok = FALSE;
          break;
        }
      /* Each run writes the report; the first drawable's is returned. */
      clfx_inprocess_configure (call,
                                gimp_drawable_filter_get_config (filter),
                                i == 0 ? report_file : "");
      gimp_drawable_filter_update (filter);
      if (keep)
        {
          gimp_drawable_append_filter (job->drawable, filter);
          g_ptr_array_add (appended, filter);
        }
      else
        gimp_drawable_merge_filter (job->drawable, filter);
    }
  if (! ok && clfx_call_job (call, 0)->backup)
    {
      GError *restore_error = NULL;

      /* Appended filters are taken off again; merged ones put back. */
      for (guint i = 0; i < appended->len; i++)
        gimp_drawable_filter_delete (g_ptr_array_index (appended, i));
      clfx_shadow_restore (call, &restore_error);
      clfx_call_restored (error, restore_error);
    }
  if (clfx_call_job (call, 0)->backup)
    {
      gimp_image_undo_group_end (call->image);
      clfx_call_drop_backups (call);
    }

  if (ok && ! keep
      && ! g_file_get_contents (tmp_path, &call->report, NULL, NULL))
    call->report = g_strdup_printf ("{\"operation\":\"%s\",\"in-process\":"
                                    "\"%s merged, no report\"}",
                                    call->family->name, op);
  else if (ok && keep)
    call->report = g_strdup_printf ("{\"operation\":\"%s\",\"in-process\":"
                                    "\"%s appended as a non-destructive "
                                    "filter; each render writes its report "
                                    "to report-file\"}",
                                    call->family->name, op);
  if (ok && ! keep && *call->args.report_file)
    ok = clfx_report_write (call->args.report_file, call->report, error);
  g_ptr_array_free (appended, TRUE);
  g_file_delete (tmp, NULL, NULL);
  g_object_unref (tmp);
  g_free (tmp_path);
  return ok;
}
