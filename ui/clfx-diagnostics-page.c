/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-diagnostics-page.c: the Diagnostics tab's layout and buttons. */
#include "clfx-diagnostics-private.h"

static const gchar *const value_names[N_VALUES] = {
  N_("Result"), N_("Pixels"), N_("Mismatches"), N_("Ambiguous"), N_("NaN"),
  N_("Inf"), N_("Max abs error"), N_("Max rel error"), N_("RMSE"),
  N_("PSNR"), N_("Worst pixel"), N_("Tolerance"), N_("Basis"), N_("Probes")
};

static const gchar *const execution_names[N_EXECUTION] = {
  N_("Mode"), N_("Pieces"), N_("Devices"), N_("Filtering"), N_("Data path"),
  N_("Transfer curve")
};

static GtkWidget *
clfx_page_frame (GtkWidget   *box,
                 const gchar *title,
                 GtkWidget   *contents,
                 gboolean     expand)
{
  GtkWidget *frame = gimp_frame_new (title);

  gtk_container_add (GTK_CONTAINER (frame), contents);
  gtk_box_pack_start (GTK_BOX (box), frame, expand, expand, 0);
  gtk_widget_show_all (frame);
  return frame;
}

/* ---- buttons ------------------------------------------------------------ */

static void
clfx_page_run_clicked (GtkButton *button,
                       ClfxUi    *ui)
{
  (void) button;
  clfx_diagnostics_run (ui);
}

static void
clfx_page_copy_json (GtkButton *button,
                     ClfxUi    *ui)
{
  ClfxDiagnostics *d = ui->diagnostics;

  (void) button;
  if (! d->report)
    {
      /* Copied when the run answers. */
      d->copy_when_done = TRUE;
      if (! d->running)
        clfx_diagnostics_run (ui);
      return;
    }
  clfx_ui_copy_text (d->report);
  gtk_label_set_text (GTK_LABEL (d->status),
                      _("The JSON report is on the clipboard."));
}

static void
clfx_page_copy_script_fu (GtkButton *button,
                          ClfxUi    *ui)
{
  ClfxArgs args;
  GError  *error = NULL;
  gchar   *call;

  (void) button;
  if (! clfx_ui_read_args (ui, &args, &error))
    {
      gtk_label_set_text (GTK_LABEL (ui->diagnostics->status),
                          error->message);
      g_error_free (error);
      clfx_args_clear (&args);
      return;
    }
  call = clfx_args_script_fu (&args);
  clfx_ui_copy_text (call);
  gtk_label_set_text (GTK_LABEL (ui->diagnostics->status),
                      _("The Script-Fu call is on the clipboard."));
  gtk_widget_set_tooltip_text (ui->diagnostics->status, call);
  g_free (call);
  clfx_args_clear (&args);
}

static GtkWidget *
clfx_page_button (GtkWidget   *box,
                  const gchar *label,
                  GCallback    callback,
                  ClfxUi      *ui)
{
  GtkWidget *button = gtk_button_new_with_mnemonic (label);

  g_signal_connect (button, "clicked", callback, ui);
  gtk_box_pack_start (GTK_BOX (box), button, FALSE, FALSE, 0);
  return button;
}

/* "R_un": the dialog's Reset button owns R. */
static GtkWidget *
clfx_page_buttons (ClfxUi *ui)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  clfx_page_button (box, _("R_un diagnostics"),
                    G_CALLBACK (clfx_page_run_clicked), ui);
  clfx_page_button (box, _("Copy _JSON report"),
                    G_CALLBACK (clfx_page_copy_json), ui);
  clfx_page_button (box, _("Copy Script-_Fu call"),
                    G_CALLBACK (clfx_page_copy_script_fu), ui);
  gtk_widget_show_all (box);
  return box;
}

/* ---- sections ----------------------------------------------------------- */

static GtkWidget *
clfx_page_grid (void)
{
  GtkWidget *grid = gtk_grid_new ();

  gtk_grid_set_row_spacing (GTK_GRID (grid), 2);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  return grid;
}

/* A grid of (name, value) rows; values[i] receives row i's value label. */
static GtkWidget *
clfx_page_values (const gchar *const *names,
                  gint                n,
                  GtkWidget         **values)
{
  GtkWidget *grid = clfx_page_grid ();

  for (gint i = 0; i < n; i++)
    {
      GtkWidget *name = gtk_label_new (gettext (names[i]));
      GtkWidget *value = gtk_label_new ("—");

      gtk_label_set_xalign (GTK_LABEL (name), 0.0);
      gtk_label_set_xalign (GTK_LABEL (value), 0.0);
      gtk_label_set_selectable (GTK_LABEL (value), TRUE);
      gtk_widget_set_can_focus (value, FALSE);
      gtk_label_set_line_wrap (GTK_LABEL (value), TRUE);
      gtk_label_set_max_width_chars (GTK_LABEL (value), 48);
      gimp_label_set_attributes (GTK_LABEL (name), PANGO_ATTR_WEIGHT,
                                 PANGO_WEIGHT_BOLD, -1);
      gtk_widget_set_valign (name, GTK_ALIGN_START);
      gtk_grid_attach (GTK_GRID (grid), name, 0, i, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), value, 1, i, 1, 1);
      values[i] = value;
    }
  return grid;
}

static GtkWidget *
clfx_page_heat_map (ClfxDiagnostics *d)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *legend = gtk_label_new (_("black: equal, red: at or over the "
                                       "tolerance"));

  d->heat_map = gtk_image_new ();
  gtk_widget_set_valign (box, GTK_ALIGN_START);
  gtk_widget_set_size_request (d->heat_map, CLFX_HEAT_MAP_SIZE,
                               CLFX_HEAT_MAP_SIZE);
  gimp_label_set_attributes (GTK_LABEL (legend), PANGO_ATTR_SCALE,
                             PANGO_SCALE_SMALL, -1);
  gtk_label_set_line_wrap (GTK_LABEL (legend), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (legend), 24);
  gtk_box_pack_start (GTK_BOX (box), d->heat_map, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (box), legend, FALSE, FALSE, 0);
  return box;
}

static GtkWidget *
clfx_page_timings (ClfxDiagnostics *d)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);

  d->chart = clfx_chart_new ();
  d->speedup = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (d->speedup), 0.0);
  gtk_box_pack_start (GTK_BOX (box), d->chart, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (box), d->speedup, FALSE, FALSE, 0);
  return box;
}

static GtkWidget *
clfx_page_log (ClfxDiagnostics *d)
{
  GtkWidget *scrolled = gtk_scrolled_window_new (NULL, NULL);
  GtkWidget *view = gtk_text_view_new ();

  gtk_text_view_set_editable (GTK_TEXT_VIEW (view), FALSE);
  gtk_text_view_set_monospace (GTK_TEXT_VIEW (view), TRUE);
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (view), GTK_WRAP_WORD_CHAR);
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scrolled),
                                              160);
  gtk_scrolled_window_set_shadow_type (GTK_SCROLLED_WINDOW (scrolled),
                                       GTK_SHADOW_IN);
  gtk_container_add (GTK_CONTAINER (scrolled), view);
  d->log = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));
  return scrolled;
}

static GtkWidget *
clfx_page_contents (ClfxUi *ui)
{
  ClfxDiagnostics *d = ui->diagnostics;
  GtkWidget       *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget       *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);

  gtk_container_set_border_width (GTK_CONTAINER (box), 6);
  gtk_box_pack_start (GTK_BOX (box), clfx_page_buttons (ui), FALSE, FALSE,
                      0);
  d->status = gtk_label_new (_("Not run yet."));
  gtk_label_set_xalign (GTK_LABEL (d->status), 0.0);
  gtk_label_set_line_wrap (GTK_LABEL (d->status), TRUE);
  gtk_box_pack_start (GTK_BOX (box), d->status, FALSE, FALSE, 0);
  d->devices = clfx_page_grid ();
  clfx_page_frame (box, _("Devices"), d->devices, FALSE);
  clfx_page_frame (row, _("Validation"),
                   clfx_page_values (value_names, N_VALUES, d->values),
                   TRUE);
  clfx_page_frame (row, _("Error map"), clfx_page_heat_map (d), FALSE);
  gtk_box_pack_start (GTK_BOX (box), row, FALSE, FALSE, 0);
  clfx_page_frame (box, _("Execution"),
                   clfx_page_values (execution_names, N_EXECUTION,
                                     d->execution),
                   FALSE);
  clfx_page_frame (box, _("Timings"), clfx_page_timings (d), FALSE);
  d->histogram = clfx_histogram_new ();
  d->histogram_frame = clfx_page_frame (box, _("Log2 luminance: before "
                                               "(blue), after (orange)"),
                                        d->histogram, FALSE);
  clfx_page_frame (box, _("Build log"), clfx_page_log (d), TRUE);
  gtk_widget_show_all (box);
  /* Shown once a run has histograms (the tone mappers). */
  gtk_widget_hide (d->histogram_frame);
  clfx_devices_show (ui, NULL);
  return box;
}

/* Scrolled, so the tab does not make the dialog taller than a screen. */
GtkWidget *
clfx_diagnostics_new (ClfxUi *ui)
{
  GtkWidget *scrolled = gtk_scrolled_window_new (NULL, NULL);

  ui->diagnostics = g_new0 (ClfxDiagnostics, 1);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled),
                                  GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  /* No taller than the Settings tab with its preview. */
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scrolled),
                                              CLFX_UI_PREVIEW_HEIGHT + 60);
  gtk_container_add (GTK_CONTAINER (scrolled), clfx_page_contents (ui));
  gtk_widget_show (scrolled);
  return scrolled;
}

void
clfx_diagnostics_free (ClfxUi *ui)
{
  ClfxDiagnostics *d = ui->diagnostics;

  if (! d)
    return;
  g_free (d->report);
  g_free (d);
  ui->diagnostics = NULL;
}
