/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-shadow.c: the apply step of families whose result has the
 * source's size (filters, tone-map), as GIMP's own filters do it.
 *
 * The engine runs on the selection's bounds grown by the variant's halo
 * (the source pixels an output pixel reads around it, from the plan),
 * clamped to the drawable: beyond the drawable's edge the variant's
 * addressing decides, as it would for the whole drawable.  Only the
 * selection's bounds go into the shadow buffer, merged with undo through
 * the selection, so that a feathered selection blends the result with
 * the original.  A variant that runs in one piece (a recursion along
 * whole lines, whole-image statistics) reads the whole drawable, as
 * GEGL's operations ask for their whole input there: an IIR gaussian's
 * edge values are the first and last pixels of the drawable's rows and
 * columns, not of the selection's.
 *
 * All or nothing, as for geometry: each drawable is copied before the
 * image changes, and when a merge fails the drawables already merged get
 * their pixels back from the copies inside the same undo group. */
#include "clfx-call.h"
#include "clfx-drawable-io.h"
#include "clfx-plugin.h"

/* The selection's bounds on the drawable grown by the plan's halo,
 * clamped to the drawable. */
static gboolean
clfx_shadow_region (ClfxJob *job,
                    GError **error)
{
  ClfxImage header;
  ClfxError e = { 0 };
  ClfxRect  out = { job->write.x, job->write.y, job->write.width,
                    job->write.height }, read;

  clfx_pixel_format_header (&job->format,
                            gimp_drawable_get_width (job->drawable),
                            gimp_drawable_get_height (job->drawable),
                            &header);
  if (! clfx_plan_read_rect (&job->params, &header, &out, &read, &e))
    {
      clfx_set_gerror (error, &e);
      return FALSE;
    }
  job->read = *GEGL_RECTANGLE (read.x, read.y, read.width, read.height);
  return TRUE;
}

gboolean
clfx_shadow_collect (ClfxCall      *call,
                     GimpDrawable **drawables,
                     GError       **error)
{
  for (gint i = 0; drawables && drawables[i]; i++)
    {
      ClfxJob *job;
      gint     x, y, w, h;

      /* A drawable the selection misses is left alone, as GIMP's own
       * filters leave it. */
      if (! gimp_drawable_mask_intersect (drawables[i], &x, &y, &w, &h)
          || w < 1 || h < 1)
        continue;
      job = clfx_call_add_job (call, drawables[i]);
      job->write = *GEGL_RECTANGLE (x, y, w, h);
      if (! clfx_pixel_format_of (job->drawable, &job->format, error)
          || ! clfx_shadow_region (job, error))
        return FALSE;
    }
  if (call->jobs->len == 0)
    {
      g_set_error_literal (error, CLFX_PLUGIN_ERROR, CLFX_ERR_INVALID,
                           _("the selection does not touch any selected "
                             "drawable"));
      return FALSE;
    }
  return TRUE;
}

/* Puts back the pixels of every drawable whose merge began; goes on
 * after a failure, to put back what it can. */
static gboolean
clfx_shadow_restore (ClfxCall *call,
                     GError  **error)
{
  gboolean ok = TRUE;

  for (guint i = 0; i < call->jobs->len; i++)
    {
      ClfxJob *job = clfx_call_job (call, i);

      if (job->started
          && ! clfx_drawable_restore (job->drawable, job->backup,
                                      &job->write, ok ? error : NULL))
        ok = FALSE;
    }
  return ok;
}

gboolean
clfx_shadow_apply_each (ClfxCall       *call,
                        ClfxShadowStep  step,
                        void          (*undo) (gpointer data),
                        gpointer        data,
                        GError        **error)
{
  GError  *restore_error = NULL;
  gboolean ok = TRUE;

  if (! clfx_call_backup (call, error))
    return FALSE;
  gimp_image_undo_group_start (call->image);
  for (guint i = 0; ok && i < call->jobs->len; i++)
    {
      ClfxJob *job = clfx_call_job (call, i);

      ok = clfx_call_fault (job, error) && step (call, job, data, error);
    }
  if (! ok)
    {
      if (undo)
        undo (data);
      clfx_shadow_restore (call, &restore_error);
      clfx_call_restored (error, restore_error);
    }
  gimp_image_undo_group_end (call->image);
  clfx_call_drop_backups (call);
  return ok;
}

/* The wire path's step: the engine's result through the shadow buffer. */
static gboolean
clfx_shadow_merge_step (ClfxCall *call,
                        ClfxJob  *job,
                        gpointer  data,
                        GError  **error)
{
  (void) call;
  (void) data;
  job->started = TRUE;
  return clfx_drawable_merge (job->drawable, &job->result, job->read.x,
                              job->read.y, &job->write, &job->format, error);
}

gboolean
clfx_shadow_apply (ClfxCall *call,
                   GError  **error)
{
  return clfx_shadow_apply_each (call, clfx_shadow_merge_step, NULL, NULL,
                                 error);
}
