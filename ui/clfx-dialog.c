/* clfx-dialog.c: the resize dialog.  Settings holds the op's arguments
 * (built by GimpProcedureDialog from the config, whose properties come
 * from the engine's op table), the sampler with the spec's rule, the
 * device chooser and the live preview; Diagnostics is clfx-diagnostics.c. */
#include <gegl.h>

#include "clfx-dialog.h"
#include "clfx-ui.h"

#define CLFX_UI_BINARY "clfx"

/* ---- the sampler rule ---------------------------------------------------- */

static void
clfx_dialog_check_sampler (ClfxUi *ui)
{
  gboolean allowed = clfx_ui_sampler_allowed (ui);

  gtk_widget_set_visible (ui->sampler_note, ! allowed);
  gtk_dialog_set_response_sensitive (GTK_DIALOG (ui->dialog),
                                     GTK_RESPONSE_OK, allowed);
}

static void
clfx_dialog_config_changed (ClfxUi *ui)
{
  clfx_dialog_check_sampler (ui);
  clfx_preview_queue (ui);
}

static GtkWidget *
clfx_dialog_sampler_note_new (ClfxUi *ui)
{
  GtkWidget *label = gtk_label_new (NULL);
  gchar     *markup;

  markup = g_markup_printf_escaped ("<i><span foreground='#c01c28'>%s"
                                    "</span></i>",
                                    _("The OpenCL C spec defines repeat and "
                                      "mirrored-repeat only with normalized "
                                      "coordinates."));
  gtk_label_set_markup (GTK_LABEL (label), markup);
  g_free (markup);
  gtk_label_set_line_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 40);
  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_widget_set_no_show_all (label, TRUE);
  ui->sampler_note = label;
  return label;
}

/* ---- device chooser ---------------------------------------------------- */

static void
clfx_dialog_device_changed (GtkComboBox *combo,
                            ClfxUi      *ui)
{
  const gchar *id = gtk_combo_box_get_active_id (combo);

  if (id)
    g_object_set (ui->config, "device", id, NULL);
}

static void
clfx_dialog_device_fill (ClfxUi      *ui,
                         GtkWidget   *combo)
{
  GtkComboBoxText *text = GTK_COMBO_BOX_TEXT (combo);
  gchar           *current = clfx_ui_get_string (ui, "device");

  gtk_combo_box_text_append (text, "auto", _("auto (a GPU if there is one)"));
  for (gsize i = 0; i < ui->devices.n_devices; i++)
    {
      const ClfxDeviceInfo *d = &ui->devices.devices[i];
      gchar                *label;

      if (! d->usable)
        continue;
      label = g_strdup_printf ("%s — %s", d->name, d->platform_name);
      gtk_combo_box_text_append (text, d->name, label);
      g_free (label);
    }
  gtk_combo_box_text_append (text, "reference", _("CPU reference"));

  /* A request typed in Script-Fu (say "nvidia") is kept as it is. */
  if (! *current)
    g_free (current), current = g_strdup ("auto");
  if (! gtk_combo_box_set_active_id (GTK_COMBO_BOX (combo), current))
    {
      gtk_combo_box_text_append (text, current, current);
      gtk_combo_box_set_active_id (GTK_COMBO_BOX (combo), current);
    }
  g_free (current);
}

static GtkWidget *
clfx_dialog_device_new (ClfxUi *ui)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *label = gtk_label_new_with_mnemonic (_("Dev_ice:"));
  GtkWidget *combo = gtk_combo_box_text_new ();

  clfx_dialog_device_fill (ui, combo);
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), combo);
  gtk_widget_set_tooltip_text (combo, _("The OpenCL device; auto falls back "
                                        "to the CPU reference when OpenCL "
                                        "fails"));
  g_signal_connect (combo, "changed", G_CALLBACK (clfx_dialog_device_changed),
                    ui);
  gtk_box_pack_start (GTK_BOX (box), label, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (box), combo, TRUE, TRUE, 0);
  gtk_widget_show_all (box);
  return box;
}

/* ---- layout ------------------------------------------------------------ */

static void
clfx_dialog_frame (GimpProcedureDialog *pd,
                   const gchar         *id,
                   const gchar         *title)
{
  gchar *title_id = g_strconcat (id, "-title", NULL);
  gchar *box_id = g_strconcat (id, "-box", NULL);
  gchar *frame_id = g_strconcat (id, "-frame", NULL);

  gimp_procedure_dialog_get_label (pd, title_id, title, FALSE, FALSE);
  gimp_procedure_dialog_fill_frame (pd, frame_id, title_id, FALSE, box_id);
  g_free (title_id);
  g_free (box_id);
  g_free (frame_id);
}

static void
clfx_dialog_settings_page (ClfxUi *ui)
{
  GimpProcedureDialog *pd = ui->dialog;
  GtkWidget           *box, *device;

  gimp_procedure_dialog_fill_box (pd, "output-box", "width", "height",
                                  "zoom-x", "zoom-y", "target", NULL);
  clfx_dialog_frame (pd, "output", _("Output"));

  box = gimp_procedure_dialog_fill_box (pd, "sampler-box", "addressing",
                                        "normalized-coords", "filter", NULL);
  gtk_box_pack_start (GTK_BOX (box), clfx_dialog_sampler_note_new (ui),
                      FALSE, FALSE, 0);
  clfx_dialog_frame (pd, "sampler", _("Sampler"));

  box = gimp_procedure_dialog_fill_box (pd, "device-box", "validate", NULL);
  device = clfx_dialog_device_new (ui);
  gtk_box_pack_start (GTK_BOX (box), device, FALSE, FALSE, 0);
  gtk_box_reorder_child (GTK_BOX (box), device, 0);
  clfx_dialog_frame (pd, "device", _("Device"));

  gimp_procedure_dialog_fill_box (pd, "controls-box", "output-frame",
                                  "sampler-frame", "device-frame", NULL);
  box = gimp_procedure_dialog_fill_box (pd, "settings-box", "controls-box",
                                        NULL);
  gtk_orientable_set_orientation (GTK_ORIENTABLE (box),
                                  GTK_ORIENTATION_HORIZONTAL);
  gtk_box_set_spacing (GTK_BOX (box), 12);
  gtk_box_pack_start (GTK_BOX (box), clfx_preview_new (ui), FALSE, FALSE, 0);
}

static void
clfx_dialog_diagnostics_page (ClfxUi *ui)
{
  GtkWidget *box;

  gimp_procedure_dialog_get_label (ui->dialog, "diagnostics-intro",
    _("The engine runs with validation on, for the current settings, on "
      "the preview image, and reports what happened."), FALSE, FALSE);
  box = gimp_procedure_dialog_fill_box (ui->dialog, "diagnostics-box",
                                        "diagnostics-intro", NULL);
  gtk_box_pack_start (GTK_BOX (box), clfx_diagnostics_new (ui), TRUE, TRUE,
                      0);
}

static void
clfx_dialog_page_switched (GtkNotebook *notebook,
                           GtkWidget   *page,
                           guint        page_num,
                           ClfxUi      *ui)
{
  (void) notebook;
  (void) page;
  if (page_num == 1)
    clfx_diagnostics_shown (ui);
}

static void
clfx_dialog_build (ClfxUi *ui)
{
  GimpProcedureDialog *pd = ui->dialog;
  GtkWidget           *notebook;

  clfx_dialog_settings_page (ui);
  clfx_dialog_diagnostics_page (ui);
  /* Tab mnemonics must not clash with the dialog's buttons (L S R C O H)
   * nor with _Target, _Diagnostics' neighbours on the pages. */
  gimp_procedure_dialog_get_label (pd, "settings-tab", _("S_ettings"),
                                   FALSE, TRUE);
  gimp_procedure_dialog_get_label (pd, "diagnostics-tab", _("_Diagnostics"),
                                   FALSE, TRUE);
  notebook = gimp_procedure_dialog_fill_notebook (pd, "main-notebook",
                                                  "settings-tab",
                                                  "settings-box",
                                                  "diagnostics-tab",
                                                  "diagnostics-box", NULL);
  g_signal_connect (notebook, "switch-page",
                    G_CALLBACK (clfx_dialog_page_switched), ui);
  gimp_procedure_dialog_fill (pd, "main-notebook", NULL);
}

gboolean
clfx_dialog_run (GimpProcedure       *procedure,
                 GimpProcedureConfig *config,
                 GimpImage           *image,
                 GimpDrawable       **drawables)
{
  GtkWidget *dialog;
  ClfxUi    *ui;
  gboolean   ok;

  (void) image;
  gimp_ui_init (CLFX_UI_BINARY);
  /* The preview reads the drawable's buffer; gegl_init is idempotent. */
  gegl_init (NULL, NULL);
  dialog = gimp_procedure_dialog_new (procedure, config,
                                      _("Resize (OpenCL)"));
  ui = clfx_ui_new (GIMP_PROCEDURE_DIALOG (dialog), config, drawables);
  clfx_dialog_build (ui);
  g_signal_connect_swapped (config, "notify",
                            G_CALLBACK (clfx_dialog_config_changed), ui);
  clfx_dialog_check_sampler (ui);
  clfx_preview_queue (ui);

  ok = gimp_procedure_dialog_run (GIMP_PROCEDURE_DIALOG (dialog));

  /* The config outlives the dialog: nothing may call back into ui. */
  g_signal_handlers_disconnect_by_data (config, ui);
  clfx_preview_stop (ui);
  clfx_diagnostics_free (ui);
  gtk_widget_destroy (dialog);
  clfx_ui_free (ui);
  return ok;
}
