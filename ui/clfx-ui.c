/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-ui.c: the dialog's state and its way from the procedure config to
 * an engine request on a small copy of the drawable. */
#include <math.h>

#include <gegl.h>

#include "clfx-drawable-io.h"
#include "clfx-ui.h"

/* ---- the preview image ------------------------------------------------- */

/* Reads the drawable at most CLFX_UI_PREVIEW_SIZE pixels on its long
 * side; GEGL's mipmaps make the scaled read cheap.  sRGB-encoded 8 bits
 * whatever the drawable holds: what the screen shows. */
static gboolean
clfx_ui_read_thumb (ClfxUi       *ui,
                    GimpDrawable *drawable)
{
  GeglBuffer *buffer;
  ClfxError   e = { 0 };
  gint        w = gimp_drawable_get_width (drawable);
  gint        h = gimp_drawable_get_height (drawable);
  gdouble     scale = MIN (1.0, (gdouble) CLFX_UI_PREVIEW_SIZE / MAX (w, h));
  gint        tw = MAX (1, (gint) floor (w * scale));
  gint        th = MAX (1, (gint) floor (h * scale));

  if (! clfx_host_image_alloc (&ui->thumb, tw, th, 4, CLFX_DEPTH_U8, &e))
    {
      ui->thumb_note = g_strdup (e.message);
      return FALSE;
    }
  buffer = gimp_drawable_get_buffer (drawable);
  gegl_buffer_get (buffer, GEGL_RECTANGLE (0, 0, tw, th), scale,
                   babl_format ("R'G'B'A u8"), ui->thumb.data,
                   (gint) ui->thumb.stride, GEGL_ABYSS_NONE);
  g_object_unref (buffer);
  ui->thumb.straight_alpha = TRUE;
  ui->thumb.transfer = CLFX_TRC_SRGB;
  ui->thumb_scale = scale;
  return TRUE;
}

/* Replies come here on the GTK thread; older generations are stale: the
 * values changed since they were asked for. */
static void
clfx_ui_done (ClfxWorkReply *reply,
              gpointer       data)
{
  ClfxUi *ui = data;

  if (reply->generation != ui->generation[reply->kind])
    return;
  if (reply->kind == CLFX_WORK_PREVIEW)
    clfx_preview_reply (ui, reply);
  else
    clfx_diagnostics_reply (ui, reply);
}

/* The kernels the first preview needs, built on the worker thread while
 * the drawable is read and the dialog made, for the layout the previews
 * run on (the drawable's for a 1:1 view, else the 8-bit thumbnail's),
 * with the config's values. */
static void
clfx_ui_warm_up (ClfxUi *ui)
{
  ClfxArgs    args;
  ClfxSource *s;

  if (! clfx_ui_read_args (ui, &args, NULL)
      || clfx_device_is_reference (args.device))
    {
      clfx_args_clear (&args);
      return;
    }
  s = clfx_source_new ();
  if (ui->family->apply == CLFX_APPLY_SHADOW && ui->have_format)
    s->image = ui->source;
  else
    {
      s->image.channels = 4;
      s->image.depth = CLFX_DEPTH_U8;
      s->image.straight_alpha = TRUE;
      s->image.transfer = CLFX_TRC_SRGB;
    }
  clfx_worker_warm (ui->worker, &args, s);
  clfx_source_unref (s);
  clfx_args_clear (&args);
}

ClfxUi *
clfx_ui_new (GimpProcedureDialog *dialog,
             const ClfxProcSpec  *proc,
             GimpProcedureConfig *config,
             GimpDrawable       **drawables)
{
  ClfxUi       *ui = g_new0 (ClfxUi, 1);
  GimpDrawable *drawable = drawables ? drawables[0] : NULL;
  ClfxError     e = { 0 };

  ui->dialog = dialog;
  ui->config = config;
  ui->proc = *proc;
  ui->family = proc->family;
  ui->drawable = drawable;
  if (drawable && clfx_pixel_format_of (drawable, &ui->format, NULL))
    {
      ui->have_format = TRUE;
      clfx_pixel_format_header (&ui->format,
                                gimp_drawable_get_width (drawable),
                                gimp_drawable_get_height (drawable),
                                &ui->source);
    }
  /* Before anything else is read: the worker builds meanwhile.  Its own
   * source, the thumbnail, is read before any request runs on it. */
  ui->worker = clfx_worker_new (&ui->thumb, clfx_ui_done, ui);
  clfx_ui_warm_up (ui);
  /* A failed enumeration leaves the list empty: the chooser then offers
   * auto and the reference, and Diagnostics says why. */
  if (! clfx_device_list (&ui->devices, &e))
    g_strlcpy (ui->devices.notes, e.message, sizeof ui->devices.notes);
  if (! drawable || ! clfx_ui_read_thumb (ui, drawable))
    {
      /* Without a drawable the preview still shows what the sampler
       * does. */
      if (! ui->thumb_note)
        ui->thumb_note = g_strdup (_("No drawable: the preview shows a test "
                                     "picture."));
      clfx_host_image_free (&ui->thumb);
      if (clfx_host_image_alloc (&ui->thumb, 192, 128, 4, CLFX_DEPTH_U8, &e))
        clfx_host_image_synthetic (&ui->thumb, 1);
      ui->thumb.straight_alpha = TRUE;
      ui->thumb.transfer = CLFX_TRC_SRGB;
      ui->thumb_scale = 1.0;
    }
  if (! ui->have_format)
    {
      /* The checks then see the test picture. */
      ClfxPixelFormat thumb_format = { NULL, 4, CLFX_DEPTH_U8, CLFX_TRC_SRGB,
                                       CLFX_WIRE_OWN, TRUE };

      clfx_pixel_format_header (&thumb_format, ui->thumb.width,
                                ui->thumb.height, &ui->source);
    }
  return ui;
}

void
clfx_ui_free (ClfxUi *ui)
{
  /* First: the worker reads the thumbnail until it has stopped. */
  clfx_worker_stop (ui->worker);
  clfx_host_image_free (&ui->thumb);
  clfx_source_unref (ui->view_source);
  clfx_ui_preview_forget (ui);
  clfx_device_list_free (&ui->devices);
  g_free (ui->thumb_note);
  g_free (ui->rows_shown);
  g_free (ui);
}

/* ---- config to engine values -------------------------------------------- */

gboolean
clfx_ui_read_args (ClfxUi   *ui,
                   ClfxArgs *args,
                   GError  **error)
{
  return clfx_args_read (&ui->proc, ui->config, args, error);
}

gboolean
clfx_ui_check (ClfxUi *ui,
               gchar **why)
{
  ClfxArgs  args;
  GError   *error = NULL;
  ClfxError e = { 0 };
  gint      w, h;
  gboolean  ok;

  *why = NULL;
  if (! clfx_ui_read_args (ui, &args, &error))
    {
      *why = g_strdup (error->message);
      g_error_free (error);
      clfx_args_clear (&args);
      return FALSE;
    }
  ok = clfx_run_check (&args.params, &ui->source, &w, &h, &e);
  if (! ok)
    *why = g_strdup (e.message);
  clfx_args_clear (&args);
  return ok;
}

/* GEOMETRY: the output's aspect, no larger than the preview image's long
 * side (and no larger than the output itself), so zoom and addressing
 * show as they will in the result. */
static void
clfx_ui_fit_geometry (ClfxUi     *ui,
                      ClfxParams *p)
{
  const ClfxParamSpec *ws = clfx_family_param (ui->family, "width");
  const ClfxParamSpec *hs = clfx_family_param (ui->family, "height");
  gint                 w, h;
  gdouble              scale;

  if (! ws || ! hs || ws->type != CLFX_PARAM_INT
      || hs->type != CLFX_PARAM_INT)
    return;
  w = clfx_param_get_int (p, ws);
  h = clfx_param_get_int (p, hs);
  scale = MIN (1.0, (gdouble) MAX (ui->thumb.width, ui->thumb.height)
                    / MAX (w, h));
  clfx_param_set_int (p, ws, MAX (1, (gint) lround (w * scale)));
  clfx_param_set_int (p, hs, MAX (1, (gint) lround (h * scale)));
}

/* SHADOW: distances in source pixels (radii, sigmas) shrink with the
 * preview image, so that it shows what the drawable will look like. */
static void
clfx_ui_fit_distances (ClfxUi     *ui,
                       ClfxParams *p)
{
  for (gint i = 0; i < ui->family->n_params; i++)
    {
      const ClfxParamSpec *s = &ui->family->params[i];

      if (s->unit != CLFX_UNIT_DISTANCE)
        continue;
      if (s->type == CLFX_PARAM_DOUBLE)
        clfx_param_set_double (p, s,
                               CLAMP (clfx_param_get_double (p, s)
                                      * ui->thumb_scale, s->min, s->max));
      else if (s->type == CLFX_PARAM_INT)
        clfx_param_set_int (p, s,
                            (gint) CLAMP (lround (clfx_param_get_int (p, s)
                                                  * ui->thumb_scale),
                                          s->min, s->max));
    }
}

/* SHADOW at 1:1: the part of the drawable that the view's result reads,
 * at the drawable's own precision, as the plug-in reads it for the
 * selection's bounds.  The same part is read once: a variant that runs
 * in one piece reads the whole drawable for every view, and scrolling
 * then only runs the engine again. */
static gboolean
clfx_ui_view_source (ClfxUi          *ui,
                     const ClfxParams *p,
                     ClfxWorkKind     kind,
                     GError         **error)
{
  GeglRectangle *view = &ui->view_rect[kind];
  ClfxRect       out, read;
  ClfxError      e = { 0 };
  ClfxSource    *s = ui->view_source;

  if (ui->whole && kind == CLFX_WORK_PREVIEW)
    gegl_rectangle_set (view, 0, 0, (guint) ui->source.width,
                        (guint) ui->source.height);
  else
    {
      gimp_preview_get_position (GIMP_PREVIEW (ui->view), &view->x,
                                 &view->y);
      gimp_preview_get_size (GIMP_PREVIEW (ui->view), &view->width,
                             &view->height);
    }
  gegl_rectangle_intersect (view, view,
                            GEGL_RECTANGLE (0, 0, ui->source.width,
                                            ui->source.height));
  out = (ClfxRect) { view->x, view->y, view->width, view->height };
  if (view->width < 1 || view->height < 1)
    {
      g_set_error_literal (error, CLFX_PLUGIN_ERROR, CLFX_ERR_INVALID,
                           _("the preview shows no part of the drawable"));
      return FALSE;
    }
  if (! clfx_plan_read_rect (p, &ui->source, &out, &read, &e))
    {
      clfx_set_gerror (error, &e);
      return FALSE;
    }
  if (! s || s->x != read.x || s->y != read.y
      || s->image.width != read.width || s->image.height != read.height)
    {
      s = clfx_source_new ();
      s->x = read.x;
      s->y = read.y;
      if (! clfx_drawable_read (ui->drawable, &ui->format,
                                GEGL_RECTANGLE (read.x, read.y, read.width,
                                                read.height),
                                NULL, &s->image, error))
        {
          clfx_source_unref (s);
          return FALSE;
        }
      clfx_source_unref (ui->view_source);
      ui->view_source = s;
    }
  ui->view_origin[kind][0] = s->x;
  ui->view_origin[kind][1] = s->y;
  return TRUE;
}

void
clfx_ui_preview_forget (ClfxUi *ui)
{
  clfx_args_clear (&ui->preview_args);
  clfx_source_unref (ui->preview_read);
  ui->preview_read = NULL;
  g_clear_pointer (&ui->preview_pixels, g_free);
  ui->preview_pending = FALSE;
}

/* Whether the 1:1 preview request (args, the pixels read) is the latest
 * one again: the engine would make the same result.  Params are compared
 * bytewise: they are read into a zeroed struct each time
 * (clfx_params_defaults). */
static gboolean
clfx_ui_same_preview (ClfxUi         *ui,
                      const ClfxArgs *args,
                      ClfxSource     *source)
{
  const ClfxArgs *last = &ui->preview_args;

  return ui->preview_read && source == ui->preview_read
         && ! memcmp (&last->params, &args->params, sizeof args->params)
         && ! g_strcmp0 (last->device, args->device)
         && last->validate == args->validate
         && ! g_strcmp0 (last->report_file, args->report_file);
}

gboolean
clfx_ui_submit (ClfxUi      *ui,
                ClfxWorkKind kind,
                GError     **error)
{
  ClfxArgs    args;
  ClfxSource *source = NULL;

  if (! clfx_ui_read_args (ui, &args, error))
    {
      clfx_args_clear (&args);
      return FALSE;
    }
  switch (ui->family->apply)
    {
    case CLFX_APPLY_GEOMETRY:
      clfx_ui_fit_geometry (ui, &args.params);
      break;
    case CLFX_APPLY_SHADOW:
      if (ui->view)
        {
          if (! clfx_ui_view_source (ui, &args.params, kind, error))
            {
              clfx_args_clear (&args);
              return FALSE;
            }
          source = ui->view_source;
        }
      else
        clfx_ui_fit_distances (ui, &args.params);
      break;
    }
  args.validate = kind == CLFX_WORK_DIAGNOSTICS;
  if (kind == CLFX_WORK_PREVIEW && ui->view)
    {
      const GeglRectangle *v = &ui->view_rect[CLFX_WORK_PREVIEW];
      gboolean             same = clfx_ui_same_preview (ui, &args, source);

      if (same && (ui->preview_pending
                   || (ui->preview_pixels
                       && gegl_rectangle_equal (&ui->preview_view, v))))
        {
          /* G_MESSAGES_DEBUG=clfx: the dialog test counts these. */
          g_debug ("preview: the same request again, not run");
          /* The whole drawable's picture stays in its image. */
          if (! ui->preview_pending && ! ui->whole)
            gimp_preview_draw_buffer (GIMP_PREVIEW (ui->view),
                                      ui->preview_pixels,
                                      ui->preview_rowstride);
          clfx_args_clear (&args);
          return TRUE;
        }
      clfx_ui_preview_forget (ui);
      clfx_args_copy (&ui->preview_args, &args);
      ui->preview_read = clfx_source_ref (source);
      ui->preview_pending = TRUE;
      g_debug ("preview: run %u asked for (view %d,%d %d x %d)",
               ui->generation[kind] + 1, v->x, v->y, v->width, v->height);
    }
  clfx_worker_submit (ui->worker, kind, ++ui->generation[kind], &args,
                      source);
  clfx_args_clear (&args);
  return TRUE;
}

const gchar *
clfx_ui_ran_on (const ClfxRunResult *r)
{
  return r->path == CLFX_PATH_OPENCL ? r->device.name : _("CPU reference");
}

/* ---- pixels to the screen ---------------------------------------------- */

GdkPixbuf *
clfx_ui_pixbuf (const ClfxImage *image)
{
  GdkPixbuf *pixbuf = gdk_pixbuf_new (GDK_COLORSPACE_RGB, FALSE, 8,
                                      image->width, image->height);
  guchar    *pixels;
  gint       rowstride;

  if (! pixbuf)
    return NULL;
  pixels = gdk_pixbuf_get_pixels (pixbuf);
  rowstride = gdk_pixbuf_get_rowstride (pixbuf);
  for (gint y = 0; y < image->height; y++)
    for (gint x = 0; x < image->width; x++)
      {
        const guchar *s = (const guchar *) image->data + y * image->stride
                          + x * 4;
        guchar       *d = pixels + y * rowstride + x * 3;
        guint         check = ((x / 8) + (y / 8)) % 2 ? 0x99 : 0x66;

        for (gint c = 0; c < 3; c++)
          d[c] = (guchar) ((s[c] * s[3] + check * (255 - s[3]) + 127) / 255);
      }
  return pixbuf;
}

/* ---- clipboard ---------------------------------------------------------- */

void
clfx_ui_copy_text (const gchar *text)
{
  GtkClipboard *clipboard = gtk_clipboard_get (GDK_SELECTION_CLIPBOARD);

  gtk_clipboard_set_text (clipboard, text, -1);
  /* The plug-in process ends with the dialog: hand the text to a
   * clipboard manager, where there is one, so it outlives us. */
  gtk_clipboard_store (clipboard);
}
