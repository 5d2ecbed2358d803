/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-preview.c: the live preview: the engine's result on the small copy
 * of the drawable, redone (debounced) when the config changes.  The run
 * happens on the worker thread; the caption says when it builds kernels
 * (seconds with a cold cache on PoCL), and the picture stays until the
 * new one arrives.
 *
 * The preview belongs to the family's apply kind.  GEOMETRY: the result
 * at the output's aspect, fitted to the preview size.  SHADOW on a
 * drawable: the drawable at 1:1 in GIMP's scrollable drawable preview,
 * the engine run on the part of it that the view reads, parameters as
 * given (a blur of 1.5 pixels looks like one); without a drawable, the
 * small copy with distances scaled to it (clfx_ui_submit).
 *
 * CLFX_DEV=preview-dump=FOLDER writes each 1:1 picture shown to
 * FOLDER/<family>.pam (a variant's own dialog: <family>-<variant>.pam;
 * 8-bit, the drawable's layout, its place on the drawable in a comment),
 * and the whole drawable's result before it is scaled down to
 * ...-whole.pam (RGBA): what the user saw, for bug reports and the
 * dialog tests. */
#include <stdio.h>

#include "clfx-tuning.h"
#include "clfx-ui.h"

/* Long enough to let a spin button's auto-repeat settle. */
#define CLFX_PREVIEW_DELAY_MS 150

static void
clfx_preview_notice (ClfxUi      *ui,
                     const gchar *text)
{
  if (text && *text)
    {
      gtk_label_set_text (GTK_LABEL (ui->preview_notice_label), text);
      gtk_widget_show (ui->preview_notice);
    }
  else
    {
      gtk_widget_hide (ui->preview_notice);
    }
}

static gchar *
clfx_preview_caption_text (const ClfxRunResult *r,
                           const ClfxImage     *dst)
{
  return g_strdup_printf (_("%d × %d on %s, %.1f ms"), dst->width,
                          dst->height, clfx_ui_ran_on (r),
                          r->timings.total_ms);
}

/* The widget that shows the picture. */
static GtkWidget *
clfx_preview_picture (ClfxUi *ui)
{
  if (ui->view)
    return ui->whole ? ui->whole_image
                     : gimp_preview_get_area (GIMP_PREVIEW (ui->view));
  return ui->preview_image;
}

static void
clfx_preview_dump (ClfxUi              *ui,
                   const GeglRectangle *view,
                   const guchar        *buf,
                   gint                 bpp)
{
  gchar        value[512];
  const gchar *dir = clfx_dev_switch ("preview-dump", value, sizeof value);
  static const gchar *const types[] = { "GRAYSCALE", "GRAYSCALE_ALPHA",
                                        "RGB", "RGB_ALPHA" };
  gchar       *path;
  FILE        *f;

  if (! dir || ! *dir)
    return;
  path = ui->proc.variant < 0
           ? g_strdup_printf ("%s/%s%s.pam", dir, ui->family->name,
                              ui->whole ? "-whole" : "")
           : g_strdup_printf ("%s/%s-%s%s.pam", dir, ui->family->name,
                              ui->family->variants[ui->proc.variant]->name,
                              ui->whole ? "-whole" : "");
  if ((f = fopen (path, "wb")))
    {
      fprintf (f, "P7\n# view %d %d\nWIDTH %d\nHEIGHT %d\nDEPTH %d\n"
               "MAXVAL 255\nTUPLTYPE %s\nENDHDR\n", view->x, view->y,
               view->width, view->height, bpp, types[bpp - 1]);
      fwrite (buf, (gsize) bpp, (gsize) view->width * view->height, f);
      if (fclose (f) != 0)
        g_warning ("CLFX_DEV preview-dump: cannot write %s", path);
    }
  else
    g_warning ("CLFX_DEV preview-dump: cannot write %s", path);
  g_free (path);
}

/* The whole drawable's result (RGBA u8) scaled down to fit the preview,
 * over a checkerboard: box-filtered (GdkPixbuf's tiles), as a zoomed-out
 * canvas averages. */
static void
clfx_preview_draw_whole (ClfxUi              *ui,
                         const GeglRectangle *v,
                         guchar              *rgba)
{
  ClfxImage  image = { 0 };
  GdkPixbuf *full, *fitted;
  gdouble    scale = MIN (1.0, MIN ((gdouble) CLFX_UI_PREVIEW_WIDTH
                                      / v->width,
                                    (gdouble) CLFX_UI_PREVIEW_HEIGHT
                                      / v->height));
  gint       w = MAX (1, (gint) (v->width * scale + 0.5));
  gint       h = MAX (1, (gint) (v->height * scale + 0.5));

  image.width = v->width;
  image.height = v->height;
  image.channels = 4;
  image.depth = CLFX_DEPTH_U8;
  image.stride = (size_t) v->width * 4;
  image.data = rgba;
  if (! (full = clfx_ui_pixbuf (&image)))
    return;
  fitted = gdk_pixbuf_scale_simple (full, w, h, GDK_INTERP_TILES);
  if (fitted)
    gtk_image_set_from_pixbuf (GTK_IMAGE (ui->whole_image), fitted);
  g_debug ("preview: the whole drawable, %d x %d, shown at %d x %d", v->width,
           v->height, w, h);
  g_clear_object (&fitted);
  g_object_unref (full);
}

/* The 1:1 view out of the engine's result (which covers the part of the
 * drawable the view read), in 8 bits and the drawable's layout, as
 * GimpDrawablePreview draws it.  FALSE when the result does not cover
 * the view (it always should) or memory ran out. */
static gboolean
clfx_preview_draw_view (ClfxUi          *ui,
                        const ClfxImage *dst)
{
  const GeglRectangle *v = &ui->view_rect[CLFX_WORK_PREVIEW];
  gint                 ox = v->x - ui->view_origin[CLFX_WORK_PREVIEW][0];
  gint                 oy = v->y - ui->view_origin[CLFX_WORK_PREVIEW][1];
  gboolean             rgb = gimp_drawable_is_rgb (ui->drawable);
  gboolean             alpha = gimp_drawable_has_alpha (ui->drawable);
  const Babl          *to, *fish;
  gint                 bpp;
  guchar              *buf;

  if (ox < 0 || oy < 0 || ox + v->width > dst->width
      || oy + v->height > dst->height)
    return FALSE;
  /* The whole drawable goes to a pixbuf: RGBA whatever the drawable. */
  if (ui->whole)
    rgb = alpha = TRUE;
  to = babl_format_with_space (rgb ? (alpha ? "R'G'B'A u8" : "R'G'B' u8")
                                   : (alpha ? "Y'A u8" : "Y' u8"),
                               babl_format_get_space (ui->format.format));
  fish = babl_fish (ui->format.format, to);
  bpp = babl_format_get_bytes_per_pixel (to);
  if (! (buf = g_try_malloc ((gsize) v->width * v->height * bpp)))
    return FALSE;
  for (gint y = 0; y < v->height; y++)
    babl_process (fish,
                  (const guchar *) dst->data
                    + (gsize) (oy + y) * dst->stride
                    + (gsize) ox * clfx_image_pixel_size (dst),
                  buf + (gsize) y * v->width * bpp, v->width);
  clfx_preview_dump (ui, v, buf, bpp);
  if (ui->whole)
    {
      clfx_preview_draw_whole (ui, v, buf);
      g_free (buf);
      return TRUE;
    }
  gimp_preview_draw_buffer (GIMP_PREVIEW (ui->view), buf, v->width * bpp);
  g_debug ("preview: 1:1 at %d,%d, %d x %d, from a run on %d x %d", v->x,
           v->y, v->width, v->height, dst->width, dst->height);
  /* Kept for an identical request (clfx_ui_submit). */
  g_free (ui->preview_pixels);
  ui->preview_pixels = buf;
  ui->preview_rowstride = v->width * bpp;
  ui->preview_view = *v;
  return TRUE;
}

static void
clfx_preview_show (ClfxUi              *ui,
                   const ClfxImage     *dst,
                   const ClfxRunResult *r)
{
  GdkPixbuf *pixbuf = NULL;
  gboolean   shown;
  gchar     *caption;

  if (ui->view)
    {
      const GeglRectangle *v = &ui->view_rect[CLFX_WORK_PREVIEW];
      shown = clfx_preview_draw_view (ui, dst);
      if (ui->whole)
        caption = g_strdup_printf (_("the whole %d × %d, zoomed out, on %s, "
                                     "%.1f ms"), v->width, v->height,
                                   clfx_ui_ran_on (r), r->timings.total_ms);
      else
        caption = g_strdup_printf (_("%d × %d at 1:1 (the engine ran on %d "
                                     "× %d) on %s, %.1f ms"), v->width,
                                   v->height, dst->width, dst->height,
                                   clfx_ui_ran_on (r), r->timings.total_ms);
    }
  else
    {
      pixbuf = clfx_ui_pixbuf (dst);
      shown = pixbuf != NULL;
      if (pixbuf)
        gtk_image_set_from_pixbuf (GTK_IMAGE (ui->preview_image), pixbuf);
      g_clear_object (&pixbuf);
      caption = clfx_preview_caption_text (r, dst);
    }
  gtk_widget_set_sensitive (clfx_preview_picture (ui), shown);
  gtk_label_set_text (GTK_LABEL (ui->preview_caption), caption);
  /* The engine's reason already says that the CPU path ran, and why. */
  clfx_preview_notice (ui, r->fallback[0] ? r->fallback : ui->thumb_note);
  g_free (caption);
}

static void
clfx_preview_failed (ClfxUi      *ui,
                     const gchar *message)
{
  gchar *text = g_strdup_printf (_("The preview failed: %s"), message);

  /* The same values may run well later (device memory freed). */
  clfx_ui_preview_forget (ui);

  gtk_widget_set_sensitive (clfx_preview_picture (ui), FALSE);
  gtk_label_set_text (GTK_LABEL (ui->preview_caption), "");
  clfx_preview_notice (ui, text);
  g_free (text);
}

void
clfx_preview_reply (ClfxUi        *ui,
                    ClfxWorkReply *reply)
{
  /* G_MESSAGES_DEBUG=clfx: the dialog test reads the order of these. */
  if (reply->started)
    {
      if (reply->cold)
        g_debug ("preview: building OpenCL kernels");
      gtk_label_set_text (GTK_LABEL (ui->preview_caption),
                          reply->cold ? _("Building OpenCL kernels…")
                                      : _("Updating the preview…"));
    }
  else if (reply->ok)
    {
      ui->preview_pending = FALSE;
      g_debug ("preview: shown (%.1f ms)", reply->run.timings.total_ms);
      clfx_preview_show (ui, &reply->result, &reply->run);
    }
  else
    {
      clfx_preview_failed (ui, reply->error.message);
    }
}

static void
clfx_preview_update (ClfxUi *ui)
{
  GError *error = NULL;

  /* The check's notice already says why; an old picture would mislead. */
  if (ui->refused)
    {
      /* The picture goes insensitive and its caption empty: values
       * taken again later must run again to restore them. */
      clfx_ui_preview_forget (ui);
      gtk_widget_set_sensitive (clfx_preview_picture (ui), FALSE);
      gtk_label_set_text (GTK_LABEL (ui->preview_caption), "");
      clfx_preview_notice (ui, NULL);
      return;
    }
  /* The drawable preview's own switch: off, it shows the drawable. */
  if (ui->view && ! gimp_preview_get_update (GIMP_PREVIEW (ui->view)))
    return;
  if (! clfx_ui_submit (ui, CLFX_WORK_PREVIEW, &error))
    {
      clfx_preview_failed (ui, error->message);
      g_error_free (error);
    }
  else if (clfx_worker_building (ui->worker))
    {
      /* The kernels built ahead are not done: the run waits for them. */
      g_debug ("preview: building OpenCL kernels");
      gtk_label_set_text (GTK_LABEL (ui->preview_caption),
                          _("Building OpenCL kernels…"));
    }
}

static gboolean
clfx_preview_timeout (gpointer data)
{
  ClfxUi *ui = data;

  ui->preview_source = 0;
  clfx_preview_update (ui);
  return G_SOURCE_REMOVE;
}

void
clfx_preview_queue (ClfxUi *ui)
{
  if (ui->preview_source)
    g_source_remove (ui->preview_source);
  ui->preview_source = g_timeout_add (CLFX_PREVIEW_DELAY_MS,
                                      clfx_preview_timeout, ui);
}

void
clfx_preview_stop (ClfxUi *ui)
{
  if (ui->preview_source)
    g_source_remove (ui->preview_source);
  ui->preview_source = 0;
}

static GtkWidget *
clfx_preview_notice_new (ClfxUi *ui)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-warning",
                                                  GTK_ICON_SIZE_BUTTON);
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_line_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 36);
  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_widget_set_valign (icon, GTK_ALIGN_START);
  gtk_box_pack_start (GTK_BOX (box), icon, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (box), label, TRUE, TRUE, 0);
  gtk_widget_show_all (box);
  gtk_widget_set_no_show_all (box, TRUE);
  gtk_widget_hide (box);
  ui->preview_notice = box;
  ui->preview_notice_label = label;
  return box;
}

/* The picture itself, not the widget with its scrollbars; no larger
 * than the drawable. */
static void
clfx_preview_size (GtkWidget *view)
{
  gint xmin, ymin, xmax, ymax;

  gimp_preview_get_bounds (GIMP_PREVIEW (view), &xmin, &ymin, &xmax, &ymax);
  gimp_preview_set_size (GIMP_PREVIEW (view),
                         MIN (CLFX_UI_PREVIEW_WIDTH, xmax - xmin),
                         MIN (CLFX_UI_PREVIEW_HEIGHT, ymax - ymin));
}

static void
clfx_preview_whole_toggled (GtkToggleButton *toggle,
                            ClfxUi          *ui)
{
  ui->whole = gtk_toggle_button_get_active (toggle);
  gtk_widget_set_visible (ui->view, ! ui->whole);
  gtk_widget_set_visible (ui->whole_image, ui->whole);
  clfx_preview_queue (ui);
}

/* The 1:1 view and, in its place when asked, the whole drawable. */
static GtkWidget *
clfx_preview_whole_new (ClfxUi *ui)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);

  ui->whole_image = gtk_image_new ();
  gtk_widget_set_size_request (ui->whole_image, CLFX_UI_PREVIEW_WIDTH,
                               CLFX_UI_PREVIEW_HEIGHT);
  gtk_widget_set_no_show_all (ui->whole_image, TRUE);
  ui->whole_toggle =
    gtk_check_button_new_with_mnemonic (_("_Whole image, zoomed out"));
  g_signal_connect (ui->whole_toggle, "toggled",
                    G_CALLBACK (clfx_preview_whole_toggled), ui);
  gtk_box_pack_start (GTK_BOX (box), ui->view, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (box), ui->whole_image, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (box), ui->whole_toggle, FALSE, FALSE, 0);
  gtk_widget_show (ui->view);
  gtk_widget_show (ui->whole_toggle);
  return box;
}

/* A frame holding the picture, a caption (size, device, time) and the
 * fallback notice, shown only when there is something to say. */
GtkWidget *
clfx_preview_new (ClfxUi *ui)
{
  GtkWidget *frame = gimp_frame_new (_("Preview"));
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *picture;

  if (ui->family->apply == CLFX_APPLY_SHADOW && ui->drawable
      && ui->have_format)
    {
      /* Scrolling asks for a new run on the part now in view. */
      ui->view = gimp_drawable_preview_new_from_drawable (ui->drawable);
      /* GimpDrawablePreview sizes its picture from its style (200
       * pixels square) whenever the style changes: ours after it. */
      g_signal_connect (ui->view, "style-updated",
                        G_CALLBACK (clfx_preview_size), NULL);
      clfx_preview_size (ui->view);
      g_signal_connect_swapped (ui->view, "invalidated",
                                G_CALLBACK (clfx_preview_queue), ui);
      picture = clfx_preview_whole_new (ui);
    }
  else
    {
      ui->preview_image = gtk_image_new ();
      gtk_widget_set_size_request (ui->preview_image, CLFX_UI_PREVIEW_WIDTH,
                                   CLFX_UI_PREVIEW_HEIGHT);
      picture = ui->preview_image;
    }
  ui->preview_caption = gtk_label_new (NULL);
  gimp_label_set_attributes (GTK_LABEL (ui->preview_caption),
                             PANGO_ATTR_SCALE, PANGO_SCALE_SMALL, -1);
  gtk_label_set_line_wrap (GTK_LABEL (ui->preview_caption), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (ui->preview_caption), 36);
  gtk_box_pack_start (GTK_BOX (box), picture, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (box), ui->preview_caption, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (box), clfx_preview_notice_new (ui), FALSE,
                      FALSE, 0);
  gtk_container_add (GTK_CONTAINER (frame), box);
  gtk_widget_show (picture);
  gtk_widget_show (ui->preview_caption);
  gtk_widget_show (box);
  gtk_widget_show (frame);
  return frame;
}
