/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-geometry.c: the apply step of families whose result has its own
 * size (resize), from the family's "width", "height" and "target" rows.
 *
 * target "layer": each selected layer becomes width x height (its offset
 * stays).  target "image": the canvas becomes width x height and every
 * layer scales with it, keeping its place relative to the canvas.
 * Layer masks are resized with their layer.  The selection does not limit
 * a resize (it replaces whole layers) and is kept as it was.
 *
 * All or nothing: every layer is copied before the image changes; when a
 * step fails, the layers get their size, offsets and pixels back from the
 * copies and the canvas its size, inside the same undo group, so the
 * group leaves no half-applied change.  The canvas changes last, once
 * every layer is done: resizing it crops the image's channels, which
 * nothing could give back. */
#include <string.h>

#include "clfx-call.h"
#include "clfx-drawable-io.h"
#include "clfx-plugin.h"

/* ---- which drawables, at which size ------------------------------------ */

static const ClfxParamSpec *
clfx_geometry_row (const ClfxFamily *family,
                   const gchar      *name,
                   ClfxParamType     type,
                   GError          **error)
{
  const ClfxParamSpec *s = clfx_family_param (family, name);

  if (s && s->type == type)
    return s;
  g_set_error (error, CLFX_PLUGIN_ERROR, CLFX_ERR_INVALID,
               "%s changes the geometry but has no %s parameter of the "
               "right type", family->name, name);
  return NULL;
}

static void
clfx_job_geometry (ClfxJob *job,
                   gint     width,
                   gint     height,
                   gint     off_x,
                   gint     off_y)
{
  const ClfxFamily *f = job->params.family;

  job->width = width;
  job->height = height;
  job->off_x = off_x;
  job->off_y = off_y;
  job->old_width = gimp_drawable_get_width (job->drawable);
  job->old_height = gimp_drawable_get_height (job->drawable);
  gimp_drawable_get_offsets (job->drawable, &job->old_x, &job->old_y);
  job->read = *GEGL_RECTANGLE (0, 0, job->old_width, job->old_height);
  clfx_param_set_int (&job->params, clfx_family_param (f, "width"), width);
  clfx_param_set_int (&job->params, clfx_family_param (f, "height"),
                      height);
  /* GIMP resizes a drawable to another size into a new buffer and keeps
   * the old one in the undo step (a layer's mask goes with its layer). */
  job->replaced = job->old_width != width || job->old_height != height;
}

/* A layer and its mask, scaled to width x height at (off_x, off_y). */
static gboolean
clfx_add_layer (ClfxCall *call,
                GimpItem *item,
                gint      width,
                gint      height,
                gint      off_x,
                gint      off_y,
                GError  **error)
{
  GimpLayerMask *mask;
  ClfxJob       *job;
  gint           owner;

  if (! gimp_item_is_layer (item))
    {
      g_set_error (error, CLFX_PLUGIN_ERROR, CLFX_ERR_INVALID,
                   _("'%s' is not a layer: only layers can be resized"),
                   gimp_item_get_name (item));
      return FALSE;
    }
  if (gimp_item_is_group (item))
    {
      g_set_error (error, CLFX_PLUGIN_ERROR, CLFX_ERR_INVALID,
                   _("'%s' is a layer group: groups are not supported yet"),
                   gimp_item_get_name (item));
      return FALSE;
    }
  owner = (gint) call->jobs->len;
  job = clfx_call_add_job (call, GIMP_DRAWABLE (item));
  job->layer = GIMP_LAYER (item);
  clfx_job_geometry (job, width, height, off_x, off_y);
  if (! clfx_pixel_format_of (job->drawable, &job->format, error))
    return FALSE;
  mask = gimp_layer_get_mask (GIMP_LAYER (item));
  if (! mask)
    return TRUE;
  job = clfx_call_add_job (call, GIMP_DRAWABLE (mask));
  job->owner = owner;
  clfx_job_geometry (job, width, height, 0, 0);
  return clfx_pixel_format_of (job->drawable, &job->format, error);
}

static gint
clfx_scale_coord (gint v,
                  gint to,
                  gint from)
{
  return (gint) ((gint64) v * to / from);
}

static gboolean
clfx_collect_image_layers (ClfxCall *call,
                           gint      width,
                           gint      height,
                           GError  **error)
{
  GimpLayer **layers = gimp_image_get_layers (call->image);
  gint        iw = call->old_width, ih = call->old_height;
  gboolean    ok = TRUE;

  for (gint i = 0; ok && layers && layers[i]; i++)
    {
      GimpDrawable *d = GIMP_DRAWABLE (layers[i]);
      gint          ox, oy, w, h;

      gimp_drawable_get_offsets (d, &ox, &oy);
      /* A layer that fills the canvas fills it exactly afterwards. */
      w = MAX (1, clfx_scale_coord (gimp_drawable_get_width (d), width, iw));
      h = MAX (1, clfx_scale_coord (gimp_drawable_get_height (d), height,
                                    ih));
      ok = clfx_add_layer (call, GIMP_ITEM (layers[i]), w, h,
                           clfx_scale_coord (ox, width, iw),
                           clfx_scale_coord (oy, height, ih), error);
    }
  g_free (layers);
  return ok;
}

gboolean
clfx_geometry_collect (ClfxCall      *call,
                       GimpDrawable **drawables,
                       GError       **error)
{
  const ClfxFamily    *f = call->family;
  const ClfxParamSpec *ws, *hs, *ts;
  gint                 width, height;

  if (! (ws = clfx_geometry_row (f, "width", CLFX_PARAM_INT, error))
      || ! (hs = clfx_geometry_row (f, "height", CLFX_PARAM_INT, error))
      || ! (ts = clfx_geometry_row (f, "target", CLFX_PARAM_CHOICE, error)))
    return FALSE;
  call->width = width = clfx_param_get_int (&call->args.params, ws);
  call->height = height = clfx_param_get_int (&call->args.params, hs);
  call->whole_image = ! strcmp (clfx_param_get_nick (&call->args.params, ts),
                                "image");
  call->old_width = gimp_image_get_width (call->image);
  call->old_height = gimp_image_get_height (call->image);
  if (call->whole_image)
    return clfx_collect_image_layers (call, width, height, error);

  for (gint i = 0; drawables && drawables[i]; i++)
    {
      gint ox, oy;

      gimp_drawable_get_offsets (drawables[i], &ox, &oy);
      if (! clfx_add_layer (call, GIMP_ITEM (drawables[i]), width, height, ox,
                            oy, error))
        return FALSE;
    }
  if (call->jobs->len == 0)
    {
      g_set_error_literal (error, CLFX_PLUGIN_ERROR, CLFX_ERR_INVALID,
                           _("no layer selected"));
      return FALSE;
    }
  return TRUE;
}

/* ---- applying ---------------------------------------------------------- */

static gboolean
clfx_apply_job (ClfxCall *call,
                ClfxJob  *job,
                GError  **error)
{
  gint64   t0 = g_get_monotonic_time ();
  gboolean ok;

  if (job->layer)
    {
      if (! gimp_layer_resize (job->layer, job->width, job->height, 0, 0)
          || (call->whole_image
              && ! gimp_layer_set_offsets (job->layer, job->off_x,
                                           job->off_y)))
        {
          g_set_error (error, CLFX_PLUGIN_ERROR, CLFX_ERR_IO,
                       _("GIMP could not resize layer '%s'"),
                       gimp_item_get_name (GIMP_ITEM (job->layer)));
          return FALSE;
        }
    }
  ok = clfx_drawable_write (job->drawable, &job->result, &job->format,
                            job->replaced, error);
  g_debug ("'%s': resized and written (%s) in %.1f ms",
           gimp_item_get_name (GIMP_ITEM (job->drawable)),
           job->replaced ? "in place" : "through the shadow buffer",
           (g_get_monotonic_time () - t0) / 1000.0);
  return ok;
}

/* Whether job i was touched: its own step began, or its layer's did (a
 * layer's resize resizes its mask). */
static gboolean
clfx_job_touched (ClfxCall *call,
                  ClfxJob  *job)
{
  return job->started
         || (job->owner >= 0 && clfx_call_job (call, job->owner)->started);
}

/* Puts back the canvas size and every touched drawable's size, offsets
 * and pixels; goes on after a failure, to put back what it can. */
static gboolean
clfx_geometry_restore (ClfxCall *call,
                       GError  **error)
{
  gboolean ok = TRUE;

  if ((gimp_image_get_width (call->image) != call->old_width
       || gimp_image_get_height (call->image) != call->old_height)
      && ! gimp_image_resize (call->image, call->old_width, call->old_height,
                              0, 0))
    {
      g_set_error_literal (error, CLFX_PLUGIN_ERROR, CLFX_ERR_IO,
                           _("GIMP could not resize the canvas"));
      ok = FALSE;
    }
  for (guint i = 0; i < call->jobs->len; i++)
    {
      ClfxJob  *job = clfx_call_job (call, i);
      GError  **e = ok ? error : NULL;
      gint      x, y;

      if (! clfx_job_touched (call, job))
        continue;
      if (job->layer)
        {
          gimp_drawable_get_offsets (job->drawable, &x, &y);
          if ((gimp_drawable_get_width (job->drawable) != job->old_width
               || gimp_drawable_get_height (job->drawable)
                    != job->old_height)
              && ! gimp_layer_resize (job->layer, job->old_width,
                                      job->old_height, 0, 0))
            ok = FALSE;
          if ((x != job->old_x || y != job->old_y)
              && ! gimp_layer_set_offsets (job->layer, job->old_x,
                                           job->old_y))
            ok = FALSE;
        }
      if (! clfx_drawable_restore (job->drawable, job->backup,
                                   GEGL_RECTANGLE (0, 0, job->old_width,
                                                   job->old_height), e))
        ok = FALSE;
      if (! ok && e && ! *e)
        g_set_error (e, CLFX_PLUGIN_ERROR, CLFX_ERR_IO,
                     _("GIMP could not resize layer '%s'"),
                     gimp_item_get_name (GIMP_ITEM (job->drawable)));
    }
  return ok;
}

/* merge_shadow composites through the selection, as filters should; a
 * resize replaces whole layers, so the selection is set aside for the
 * merge and put back afterwards, inside the same undo group.  Returns the
 * saved selection, or NULL when there was none. */
static GimpChannel *
clfx_selection_set_aside (GimpImage *image)
{
  GimpChannel *saved;

  if (gimp_selection_is_empty (image))
    return NULL;
  saved = gimp_selection_save (image);
  gimp_selection_none (image);
  return saved;
}

static void
clfx_selection_restore (GimpImage   *image,
                        GimpChannel *saved)
{
  if (! saved)
    return;
  gimp_image_select_item (image, GIMP_CHANNEL_OP_REPLACE, GIMP_ITEM (saved));
  gimp_image_remove_channel (image, saved);
}

gboolean
clfx_geometry_apply (ClfxCall *call,
                     GError  **error)
{
  GimpChannel *selection;
  GError      *restore_error = NULL;
  gboolean     ok = TRUE;
  gint64       t0 = g_get_monotonic_time ();

  if (! clfx_call_backup (call, error))
    return FALSE;
  g_debug ("copies of %u drawables made in %.1f ms", call->jobs->len,
           (g_get_monotonic_time () - t0) / 1000.0);
  gimp_image_undo_group_start (call->image);
  selection = clfx_selection_set_aside (call->image);
  for (guint i = 0; ok && i < call->jobs->len; i++)
    {
      ClfxJob *job = clfx_call_job (call, i);

      ok = clfx_call_fault (job, error);
      if (ok)
        {
          job->started = TRUE;
          ok = clfx_apply_job (call, job, error);
        }
    }
  if (ok && call->whole_image
      && ! gimp_image_resize (call->image, call->width, call->height, 0, 0))
    {
      g_set_error_literal (error, CLFX_PLUGIN_ERROR, CLFX_ERR_IO,
                           _("GIMP could not resize the canvas"));
      ok = FALSE;
    }
  if (! ok)
    {
      clfx_geometry_restore (call, &restore_error);
      clfx_call_restored (error, restore_error);
    }
  clfx_selection_restore (call->image, selection);
  gimp_image_undo_group_end (call->image);
  clfx_call_drop_backups (call);
  g_debug ("applied in %.1f ms (copies included)",
           (g_get_monotonic_time () - t0) / 1000.0);
  return ok;
}
