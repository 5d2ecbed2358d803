/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-call.c: the one run every family procedure goes through: check,
 * config, jobs, engine, report, apply (its kind's), with the backups that
 * make the apply step all or nothing. */
#include <string.h>

#include "clfx-call.h"
#include "clfx-drawable-io.h"
#include "clfx-plugin.h"
#include "clfx-procedures.h"

gboolean
clfx_call_check_image (GimpImage *image,
                       GError   **error)
{
  if (gimp_image_get_base_type (image) == GIMP_INDEXED)
    {
      g_set_error_literal (error, CLFX_PLUGIN_ERROR, CLFX_ERR_INVALID,
                           _("indexed images are not supported: convert "
                             "to RGB first"));
      return FALSE;
    }
  return TRUE;
}

ClfxJob *
clfx_call_add_job (ClfxCall     *call,
                   GimpDrawable *drawable)
{
  ClfxJob job;

  memset (&job, 0, sizeof job);
  job.drawable = drawable;
  job.owner = -1;
  job.params = call->args.params;
  g_array_append_val (call->jobs, job);
  return clfx_call_job (call, call->jobs->len - 1);
}

static void
clfx_call_clear (ClfxCall *call)
{
  if (call->jobs)
    {
      for (guint i = 0; i < call->jobs->len; i++)
        clfx_host_image_free (&clfx_call_job (call, i)->result);
      g_array_free (call->jobs, TRUE);
    }
  clfx_context_free (call->context);
  clfx_args_clear (&call->args);
  g_free (call->report);
}

/* ---- checks before any pixel moves -------------------------------------- */

/* The engine's argument checks on each job's source, so that bad values
 * are refused before GIMP sends a pixel; and the result must have the
 * size the apply step expects. */
static gboolean
clfx_call_check_jobs (ClfxCall *call,
                      GError  **error)
{
  for (guint i = 0; i < call->jobs->len; i++)
    {
      ClfxJob  *job = clfx_call_job (call, i);
      ClfxImage header;
      ClfxError e = { 0 };
      gint      w, h, want_w, want_h;

      clfx_pixel_format_header (&job->format, job->read.width,
                                job->read.height, &header);
      if (! clfx_run_check (&job->params, &header, &w, &h, &e))
        {
          clfx_set_gerror (error, &e);
          return FALSE;
        }
      want_w = call->family->apply == CLFX_APPLY_GEOMETRY ? job->width
                                                          : job->read.width;
      want_h = call->family->apply == CLFX_APPLY_GEOMETRY ? job->height
                                                          : job->read.height;
      if (w != want_w || h != want_h)
        {
          g_set_error (error, CLFX_PLUGIN_ERROR, CLFX_ERR_INVALID,
                       "%s makes %dx%d from '%s', the apply step expects "
                       "%dx%d", call->family->name, w, h,
                       gimp_item_get_name (GIMP_ITEM (job->drawable)),
                       want_w, want_h);
          return FALSE;
        }
    }
  return TRUE;
}

/* ---- engine ------------------------------------------------------------ */

static gboolean
clfx_call_report (ClfxCall             *call,
                  ClfxJob              *job,
                  const ClfxImage      *src,
                  const ClfxRunOptions *opt,
                  const ClfxRunResult  *r,
                  GError              **error)
{
  gchar **extra = clfx_args_report_extra (&call->args,
                                          (gint) call->jobs->len);

  call->report = clfx_engine_text (clfx_report_json (&job->params, src, opt,
                                                     r,
                                                     (const char *const *)
                                                       extra),
                                   error);
  g_strfreev (extra);
  return call->report != NULL;
}

static gboolean
clfx_call_run_job (ClfxCall *call,
                   ClfxJob  *job,
                   GError  **error)
{
  ClfxRunOptions opt = { call->args.device, call->args.validate != FALSE, 0,
                         &call->context, TRUE, false };
  ClfxRunResult  r;
  ClfxImage      src;
  ClfxError      e = { 0 };
  gboolean       ok;
  gint64         t0, t1;

  /* A discrete GPU copies host memory through pinned staging buffers;
   * pixels that GIMP writes straight into pinned memory of the context
   * (and results downloaded straight into it) skip those copies. */
  t0 = g_get_monotonic_time ();
  if (! clfx_drawable_read (job->drawable, &job->format, &job->read,
                            call->context, &src, error))
    return FALSE;
  t1 = g_get_monotonic_time ();
  ok = clfx_run (&job->params, &src, &job->result, &opt, &r, &e);
  /* Where the time goes (G_MESSAGES_DEBUG=clfx): the engine's report has
   * its own part only, GIMP's transfers are measured here. */
  g_debug ("'%s': read %dx%d as %s in %.1f ms; engine %.1f ms",
           gimp_item_get_name (GIMP_ITEM (job->drawable)), src.width,
           src.height, babl_get_name (job->format.format),
           (t1 - t0) / 1000.0, (g_get_monotonic_time () - t1) / 1000.0);
  /* The device's result is what failed: the reference's is applied. */
  if (ok && clfx_run_keep_reference (&r, &job->result))
    g_message (_("'%s': %s"), gimp_item_get_name (GIMP_ITEM (job->drawable)),
               r.fallback);
  if (! ok)
    clfx_set_gerror (error, &e);
  else if (! call->report)
    ok = clfx_call_report (call, job, &src, &opt, &r, error);
  clfx_run_result_clear (&r);
  clfx_host_image_free (&src);
  return ok;
}

static gboolean
clfx_call_engine (ClfxCall *call,
                  GError  **error)
{
  ClfxError e = { 0 };

  /* One context for every job.  It is made before any pixel is read (a
   * discrete GPU's pixels are read into its pinned memory, see
   * clfx_call_run_job).  A failure leaves NULL: clfx_run then tries once
   * more itself and reports why (and falls back where the device request
   * allows). */
  if (! clfx_device_is_reference (call->args.device))
    call->context = clfx_run_context_new (call->args.device, NULL, &e);
  for (guint i = 0; i < call->jobs->len; i++)
    {
      if (! clfx_call_run_job (call, clfx_call_job (call, i), error))
        return FALSE;
      gimp_progress_update ((gdouble) (i + 1) / (call->jobs->len + 1));
    }
  return TRUE;
}

/* ---- all or nothing ----------------------------------------------------- */

gboolean
clfx_call_fault (ClfxJob *job,
                 GError **error)
{
  cl_int status = clfx_fault_take ("clfx_apply_job");

  if (status == CL_SUCCESS)
    return TRUE;
  g_set_error (error, CLFX_PLUGIN_ERROR, CLFX_ERR_IO,
               _("applying the result to '%s' failed: %s (injected by "
                 "CLFX_DEV's fault)"),
               gimp_item_get_name (GIMP_ITEM (job->drawable)),
               clfx_cl_error_name (status));
  return FALSE;
}

static GimpItem *
clfx_copy_item (GimpDrawable *drawable)
{
  if (gimp_item_is_layer (GIMP_ITEM (drawable)))
    return GIMP_ITEM (gimp_layer_copy (GIMP_LAYER (drawable)));
  if (gimp_item_is_channel (GIMP_ITEM (drawable)))
    return GIMP_ITEM (gimp_channel_copy (GIMP_CHANNEL (drawable)));
  return NULL;
}

gboolean
clfx_call_backup (ClfxCall *call,
                  GError  **error)
{
  for (guint i = 0; i < call->jobs->len; i++)
    {
      ClfxJob *job = clfx_call_job (call, i);

      if (job->owner >= 0)
        {
          /* A layer copy carries a copy of the layer's mask. */
          GimpItem *owner = clfx_call_job (call, job->owner)->backup_item;
          GimpLayerMask *mask = owner ? gimp_layer_get_mask (GIMP_LAYER
                                                             (owner))
                                      : NULL;

          job->backup = mask ? GIMP_DRAWABLE (mask) : NULL;
        }
      else if ((job->backup_item = clfx_copy_item (job->drawable)))
        job->backup = GIMP_DRAWABLE (job->backup_item);
      if (! job->backup)
        {
          g_set_error (error, CLFX_PLUGIN_ERROR, CLFX_ERR_IO,
                       _("GIMP could not copy '%s' before changing it"),
                       gimp_item_get_name (GIMP_ITEM (job->drawable)));
          clfx_call_drop_backups (call);
          return FALSE;
        }
    }
  return TRUE;
}

void
clfx_call_drop_backups (ClfxCall *call)
{
  for (guint i = 0; i < call->jobs->len; i++)
    {
      ClfxJob *job = clfx_call_job (call, i);

      /* Never added to the image: deleting is the only way to free it. */
      if (job->backup_item)
        gimp_item_delete (job->backup_item);
      job->backup_item = NULL;
      job->backup = NULL;
    }
}

void
clfx_call_restored (GError **error,
                    GError  *restore_error)
{
  GError *e;

  if (! error || ! *error)
    {
      g_clear_error (&restore_error);
      return;
    }
  e = *error;
  *error = NULL;
  if (restore_error)
    g_set_error (error, e->domain, e->code,
                 _("%s; putting the image back failed too (%s): undo the "
                   "step to get it back"), e->message,
                 restore_error->message);
  else
    g_set_error (error, e->domain, e->code,
                 _("%s; the image was put back as it was"), e->message);
  g_error_free (e);
  g_clear_error (&restore_error);
}

/* ---- the procedure ----------------------------------------------------- */

gboolean
clfx_call_run (const ClfxProcSpec  *proc,
               GimpImage           *image,
               GimpDrawable       **drawables,
               GimpProcedureConfig *config,
               gchar              **report,
               GError             **error)
{
  const ClfxFamily *family = proc->family;
  ClfxCall          call;
  gboolean          geometry = family->apply == CLFX_APPLY_GEOMETRY;
  gboolean          ok;

  memset (&call, 0, sizeof call);
  call.family = family;
  call.image = image;
  call.jobs = g_array_new (FALSE, TRUE, sizeof (ClfxJob));
  ok = clfx_call_check_image (image, error)
       && clfx_args_read (proc, config, &call.args, error)
       && (geometry ? clfx_geometry_collect (&call, drawables, error)
                    : clfx_shadow_collect (&call, drawables, error))
       && clfx_call_check_jobs (&call, error);
  if (ok)
    {
      gchar *title = clfx_proc_title (proc);

      gimp_progress_init (title);
      g_free (title);
      if (! geometry && clfx_inprocess_wanted (&call))
        /* GIMP runs the module's operation itself: no engine here. */
        ok = clfx_inprocess_apply (&call, error);
      else
        ok = clfx_call_engine (&call, error)
             /* Before the image changes, so that failing to write it
              * leaves the image as it was. */
             && (! *call.args.report_file
                 || clfx_report_write (call.args.report_file, call.report,
                                       error))
             && (geometry ? clfx_geometry_apply (&call, error)
                          : clfx_shadow_apply (&call, error));
      gimp_progress_update (1.0);
      gimp_progress_end ();
    }
  if (ok)
    *report = g_steal_pointer (&call.report);
  clfx_call_clear (&call);
  return ok;
}
