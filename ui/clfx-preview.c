/* clfx-preview.c: the live preview: the engine's result on the small copy
 * of the drawable, redone (debounced) when the config changes.  The run
 * happens on the worker thread; the caption says when it builds kernels
 * (seconds with a cold cache on PoCL), and the picture stays until the
 * new one arrives.
 *
 * The preview belongs to the family's apply kind.  GEOMETRY: the result
 * at the output's aspect, fitted to the preview size.  SHADOW: the same
 * small copy with distances scaled to it (clfx_ui_submit), until a 1:1
 * drawable preview comes with the first SHADOW family. */
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

static void
clfx_preview_show (ClfxUi              *ui,
                   const ClfxImage     *dst,
                   const ClfxRunResult *r)
{
  GdkPixbuf *pixbuf = clfx_ui_pixbuf (dst);
  gchar     *caption = clfx_preview_caption_text (r, dst);

  if (pixbuf)
    {
      gtk_image_set_from_pixbuf (GTK_IMAGE (ui->preview_image), pixbuf);
      g_object_unref (pixbuf);
    }
  gtk_widget_set_sensitive (ui->preview_image, pixbuf != NULL);
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

  gtk_widget_set_sensitive (ui->preview_image, FALSE);
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
      gtk_widget_set_sensitive (ui->preview_image, FALSE);
      gtk_label_set_text (GTK_LABEL (ui->preview_caption), "");
      clfx_preview_notice (ui, NULL);
      return;
    }
  if (! clfx_ui_submit (ui, CLFX_WORK_PREVIEW, &error))
    {
      clfx_preview_failed (ui, error->message);
      g_error_free (error);
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

/* A frame holding the picture, a caption (size, device, time) and the
 * fallback notice, shown only when there is something to say. */
GtkWidget *
clfx_preview_new (ClfxUi *ui)
{
  GtkWidget *frame = gimp_frame_new (_("Preview"));
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);

  ui->preview_image = gtk_image_new ();
  gtk_widget_set_size_request (ui->preview_image, CLFX_UI_PREVIEW_SIZE,
                               CLFX_UI_PREVIEW_SIZE);
  ui->preview_caption = gtk_label_new (NULL);
  gimp_label_set_attributes (GTK_LABEL (ui->preview_caption),
                             PANGO_ATTR_SCALE, PANGO_SCALE_SMALL, -1);
  gtk_label_set_line_wrap (GTK_LABEL (ui->preview_caption), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (ui->preview_caption), 36);
  gtk_box_pack_start (GTK_BOX (box), ui->preview_image, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (box), ui->preview_caption, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (box), clfx_preview_notice_new (ui), FALSE,
                      FALSE, 0);
  gtk_container_add (GTK_CONTAINER (frame), box);
  gtk_widget_show (ui->preview_image);
  gtk_widget_show (ui->preview_caption);
  gtk_widget_show (box);
  gtk_widget_show (frame);
  return frame;
}
