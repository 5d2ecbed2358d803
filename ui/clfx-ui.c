/* clfx-ui.c: the dialog's state and its way from the procedure config to
 * an engine run on a small copy of the drawable. */
#include <math.h>
#include <string.h>

#include <gegl.h>

#include "clfx-procedures.h"
#include "clfx-ui.h"

/* ---- the preview image ------------------------------------------------- */

/* Reads the drawable at most CLFX_UI_PREVIEW_SIZE pixels on its long
 * side; GEGL's mipmaps make the scaled read cheap. */
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
  ui->thumb.straight_alpha = TRUE; /* as the resize reads the drawable */
  return TRUE;
}

ClfxUi *
clfx_ui_new (GimpProcedureDialog *dialog,
             GimpProcedureConfig *config,
             GimpDrawable       **drawables)
{
  ClfxUi   *ui = g_new0 (ClfxUi, 1);
  ClfxError e = { 0 };

  ui->dialog = dialog;
  ui->config = config;
  ui->op = &clfx_op_resize;
  /* A failed enumeration leaves the list empty: the chooser then offers
   * auto and the reference, and Diagnostics says why. */
  if (! clfx_device_list (&ui->devices, &e))
    g_strlcpy (ui->devices.notes, e.message, sizeof ui->devices.notes);
  if (drawables && drawables[0] && clfx_ui_read_thumb (ui, drawables[0]))
    return ui;

  /* Without a drawable the preview still shows what the sampler does. */
  if (! ui->thumb_note)
    ui->thumb_note = g_strdup (_("No drawable: the preview shows a test "
                                 "picture."));
  clfx_host_image_free (&ui->thumb);
  if (clfx_host_image_alloc (&ui->thumb, 192, 128, 4, CLFX_DEPTH_U8, &e))
    clfx_host_image_synthetic (&ui->thumb, 1);
  return ui;
}

void
clfx_ui_free (ClfxUi *ui)
{
  clfx_host_image_free (&ui->thumb);
  clfx_device_list_free (&ui->devices);
  clfx_context_free (ui->context);
  g_free (ui->context_device);
  g_free (ui->thumb_note);
  g_free (ui);
}

/* ---- config to engine parameters --------------------------------------- */

void
clfx_ui_read_params (ClfxUi      *ui,
                     ClfxParams  *params,
                     gchar      **strings)
{
  clfx_params_defaults (ui->op, params);
  for (gint i = 0; i < ui->op->n_params; i++)
    {
      strings[i] = NULL;
      clfx_config_read_value (ui->config, &ui->op->params[i], &params->v[i],
                          &strings[i]);
    }
}

void
clfx_ui_params_clear (gchar **strings)
{
  for (gint i = 0; i < CLFX_MAX_PARAMS; i++)
    g_clear_pointer (&strings[i], g_free);
}

/* The output's aspect, no larger than the preview image's long side (and
 * no larger than the output itself), so zoom and addressing show as they
 * will in the result. */
void
clfx_ui_preview_params (ClfxUi      *ui,
                        ClfxParams  *params,
                        gchar      **strings)
{
  gint    iw = clfx_op_param_index (ui->op, "width");
  gint    ih = clfx_op_param_index (ui->op, "height");
  gint    w, h;
  gdouble scale;

  clfx_ui_read_params (ui, params, strings);
  if (iw < 0 || ih < 0)
    return;
  w = params->v[iw].i;
  h = params->v[ih].i;
  scale = MIN (1.0, (gdouble) MAX (ui->thumb.width, ui->thumb.height)
                    / MAX (w, h));
  params->v[iw].i = MAX (1, (gint) lround (w * scale));
  params->v[ih].i = MAX (1, (gint) lround (h * scale));
}

gchar *
clfx_ui_get_string (ClfxUi      *ui,
                    const gchar *property)
{
  gchar *value = NULL;

  g_object_get (ui->config, property, &value, NULL);
  return value ? value : g_strdup ("");
}

/* The engine's own rule, so the dialog and the PDB cannot disagree. */
gboolean
clfx_ui_sampler_allowed (ClfxUi *ui)
{
  gboolean normalized = TRUE;
  gint     addressing;

  g_object_get (ui->config, "normalized-coords", &normalized, NULL);
  addressing = gimp_procedure_config_get_choice_id (ui->config,
                                                    "addressing");
  return clfx_sampler_check (normalized != FALSE, addressing, NULL);
}

gboolean
clfx_ui_run (ClfxUi        *ui,
             gboolean       validate,
             ClfxParams    *params,
             ClfxImage     *dst,
             ClfxRunResult *result,
             ClfxError     *error)
{
  gchar         *device = clfx_ui_get_string (ui, "device");
  ClfxRunOptions opt = { 0 };
  gboolean       ok;

  opt.device = *device ? device : "auto";
  opt.validate = validate != FALSE;
  /* Every preview after the first skips device set-up and program loads;
   * a new device choice gets a new context. */
  if (g_strcmp0 (ui->context_device, opt.device) != 0)
    {
      g_clear_pointer (&ui->context, clfx_context_free);
      g_free (ui->context_device);
      ui->context_device = g_strdup (opt.device);
    }
  opt.context = &ui->context;
  ok = clfx_run (ui->op, params, &ui->thumb, dst, &opt, result, error);
  g_free (device);
  return ok;
}

/* ---- pixels to the screen ---------------------------------------------- */

GdkPixbuf *
clfx_ui_pixbuf (const ClfxImage *image)
{
  GdkPixbuf *pixbuf = gdk_pixbuf_new (GDK_COLORSPACE_RGB, FALSE, 8,
                                      image->width, image->height);
  guchar    *pixels = gdk_pixbuf_get_pixels (pixbuf);
  gint       rowstride = gdk_pixbuf_get_rowstride (pixbuf);

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

/* ---- clipboard and Script-Fu ------------------------------------------- */

static void
clfx_ui_append_scheme_string (GString     *s,
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

static void
clfx_ui_append_argument (ClfxUi              *ui,
                         GString             *s,
                         const gchar         *name,
                         const ClfxParamSpec *spec)
{
  gchar    number[G_ASCII_DTOSTR_BUF_SIZE];
  gchar   *text;
  gint     i;
  gdouble  d;
  gboolean b;

  g_string_append_printf (s, " #:%s ", name);
  if (spec && spec->type == CLFX_PARAM_INT)
    {
      g_object_get (ui->config, name, &i, NULL);
      g_string_append_printf (s, "%d", i);
    }
  else if (spec && spec->type == CLFX_PARAM_DOUBLE)
    {
      g_object_get (ui->config, name, &d, NULL);
      g_string_append (s, g_ascii_dtostr (number, sizeof number, d));
    }
  else if (spec && spec->type == CLFX_PARAM_BOOL)
    {
      g_object_get (ui->config, name, &b, NULL);
      g_string_append (s, b ? "#t" : "#f");
    }
  else
    {
      /* Choices travel as their nick strings, like plain strings. */
      text = clfx_ui_get_string (ui, name);
      clfx_ui_append_scheme_string (s, text);
      g_free (text);
    }
}

gchar *
clfx_ui_script_fu_call (ClfxUi *ui)
{
  static const ClfxParamSpec validate_spec = { "validate", NULL, NULL,
                                               CLFX_PARAM_BOOL, 0, 1, 0,
                                               NULL, NULL };
  GString *s = g_string_new ("(plug-in-clfx-resize #:run-mode "
                             "RUN-NONINTERACTIVE #:image img "
                             "#:drawables (vector drw)");

  for (gint i = 0; i < ui->op->n_params; i++)
    clfx_ui_append_argument (ui, s, ui->op->params[i].name,
                             &ui->op->params[i]);
  clfx_ui_append_argument (ui, s, "target", NULL);
  clfx_ui_append_argument (ui, s, "device", NULL);
  clfx_ui_append_argument (ui, s, "validate", &validate_spec);
  clfx_ui_append_argument (ui, s, "report-file", NULL);
  g_string_append_c (s, ')');
  return g_string_free (s, FALSE);
}

void
clfx_ui_copy_text (const gchar *text)
{
  GtkClipboard *clipboard = gtk_clipboard_get (GDK_SELECTION_CLIPBOARD);

  gtk_clipboard_set_text (clipboard, text, -1);
  /* The plug-in process ends with the dialog: hand the text to a
   * clipboard manager, where there is one, so it outlives us. */
  gtk_clipboard_store (clipboard);
}
