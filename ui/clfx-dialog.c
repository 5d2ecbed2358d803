/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-dialog.c: the dialog of every family's and variant's procedure.
 * Settings holds one frame per group of the procedure's rows (widgets
 * built by GimpProcedureDialog from the config, whose properties come
 * from the rows; in a family's dialog the rows the selected variant does
 * not read are hidden), the engine's verdict on the values, the device
 * chooser and the live preview; Diagnostics is clfx-diagnostics.c. */
#include <string.h>

#include <gegl.h>

#include "clfx-dialog.h"
#include "clfx-ui.h"

#define CLFX_UI_BINARY "clfx"

/* ---- what the engine says about the values ---------------------------- */

/* clfx_run_check on the drawable: the spec's sampler rule for resize,
 * each family's own rules; OK stays insensitive while it refuses. */
static void
clfx_dialog_check (ClfxUi *ui)
{
  gchar *why = NULL;

  ui->refused = ! clfx_ui_check (ui, &why);
  if (ui->refused)
    {
      gchar *text = g_strdup_printf (_("These settings cannot run: %s"),
                                     why);
      gchar *markup = g_markup_printf_escaped ("<i><span "
                                               "foreground='#c01c28'>%s"
                                               "</span></i>", text);

      gtk_label_set_markup (GTK_LABEL (ui->check_note), markup);
      g_free (markup);
      g_free (text);
    }
  gtk_widget_set_visible (ui->check_note, ui->refused);
  gtk_dialog_set_response_sensitive (GTK_DIALOG (ui->dialog),
                                     GTK_RESPONSE_OK, ! ui->refused);
  g_free (why);
}

/* The config property the dialog shows for row s; NULL for none.  A
 * variant's own dialog offers GIMP's "Merge filter" in place of the
 * plug-in's in-process and non-destructive rows (clfx-args.h). */
static const gchar *
clfx_dialog_row_property (ClfxUi              *ui,
                          const ClfxParamSpec *s)
{
  GimpProcedure *procedure = gimp_procedure_config_get_procedure (ui->config);

  if (ui->proc.variant >= 0
      && gimp_procedure_find_aux_argument (procedure, CLFX_MERGE_FILTER))
    {
      if (! strcmp (s->name, "in-process"))
        return CLFX_MERGE_FILTER;
      if (! strcmp (s->name, "non-destructive"))
        return NULL;
    }
  return clfx_proc_arg_name (&ui->proc, s);
}

/* Only the rows the selected variant reads are shown, and a group's
 * frame only while it shows a row: a family's dialog follows its variant
 * choice; a variant's own dialog has no other rows.  The widget hidden is
 * the whole row, its label included (GimpProcedureDialog's labelled
 * widgets, check buttons). */
static void
clfx_dialog_rows_shown (ClfxUi *ui)
{
  const ClfxFamily  *f = ui->family;
  ClfxArgs           args;
  const ClfxVariant *v;
  gint              *rows, *group_rows, *group_shown;
  GString           *shown;
  gint               n;

  if (! clfx_ui_read_args (ui, &args, NULL))
    {
      clfx_args_clear (&args);
      return;
    }
  v = clfx_params_variant (&args.params);
  clfx_args_clear (&args);
  rows = g_new (gint, f->n_params);
  group_rows = g_new0 (gint, f->n_groups + 1);
  group_shown = g_new0 (gint, f->n_groups + 1);
  shown = g_string_new (NULL);
  n = clfx_proc_rows (&ui->proc, rows);
  for (gint k = 0; k < n; k++)
    {
      const ClfxParamSpec *s = &f->params[rows[k]];
      const gchar         *name = clfx_dialog_row_property (ui, s);
      gboolean             used = ! v || clfx_variant_uses (v, s);
      GtkWidget           *w;

      /* Only rows the dialog shows (asking for another would make it). */
      if (s->group < 0 || s->group >= f->n_groups || ! name)
        continue;
      w = gimp_procedure_dialog_get_widget (ui->dialog, name, G_TYPE_NONE);
      if (w)
        gtk_widget_set_visible (w, used);
      group_rows[s->group]++;
      if (used)
        {
          group_shown[s->group]++;
          g_string_append_printf (shown, " %s", name);
        }
    }
  for (gint g = 0; g < f->n_groups; g++)
    if (group_rows[g])
      {
        gchar     *frame_id = g_strdup_printf ("clfx-%s-frame",
                                               f->groups[g].id);
        GtkWidget *frame = gimp_procedure_dialog_get_widget (ui->dialog,
                                                             frame_id,
                                                             G_TYPE_NONE);

        if (frame)
          gtk_widget_set_visible (frame, group_shown[g] > 0);
        g_free (frame_id);
      }
  /* G_MESSAGES_DEBUG=clfx, when the set changes: the dialog test reads
   * which rows each dialog showed. */
  if (g_strcmp0 (ui->rows_shown, shown->str))
    {
      g_free (ui->rows_shown);
      ui->rows_shown = g_strdup (shown->str);
      g_debug ("%s: rows shown:%s", gimp_procedure_get_name
                 (gimp_procedure_config_get_procedure (ui->config)),
               shown->str);
    }
  g_string_free (shown, TRUE);
  g_free (group_shown);
  g_free (group_rows);
  g_free (rows);
}

static void
clfx_dialog_config_changed (ClfxUi *ui)
{
  clfx_dialog_rows_shown (ui);
  clfx_dialog_check (ui);
  clfx_preview_queue (ui);
}

static GtkWidget *
clfx_dialog_check_note_new (ClfxUi *ui)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_line_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 40);
  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_widget_set_no_show_all (label, TRUE);
  ui->check_note = label;
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
  gchar           *current = NULL;

  g_object_get (ui->config, "device", &current, NULL);
  gtk_combo_box_text_append (text, "auto", _("auto (a GPU if there is one)"));
  gtk_combo_box_text_append (text, "all", _("all (every GPU)"));
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
  if (! current || ! *current)
    {
      g_free (current);
      current = g_strdup ("auto");
    }
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

/* A frame titled title around the box box_id; ids are prefixed so that
 * they never meet a property's name. */
static void
clfx_dialog_frame (GimpProcedureDialog *pd,
                   const gchar         *id,
                   const gchar         *title,
                   GPtrArray           *frames)
{
  gchar *title_id = g_strdup_printf ("clfx-%s-title", id);
  gchar *box_id = g_strdup_printf ("clfx-%s-box", id);
  gchar *frame_id = g_strdup_printf ("clfx-%s-frame", id);

  gimp_procedure_dialog_get_label (pd, title_id, title, FALSE, FALSE);
  gimp_procedure_dialog_fill_frame (pd, frame_id, title_id, FALSE, box_id);
  g_free (title_id);
  g_free (box_id);
  g_ptr_array_add (frames, frame_id);
}

/* Without the GEGL module GIMP cannot keep the filter editable: Merge
 * filter stays on, and a note says why and what to install. */
static void
clfx_dialog_merge_row (ClfxUi  *ui,
                       GList  **names)
{
  gchar      op[64];
  GtkWidget *note;

  if (clfx_proc_module_operation (&ui->proc, op, sizeof op))
    return;
  g_object_set (ui->config, CLFX_MERGE_FILTER, TRUE, NULL);
  gimp_procedure_dialog_set_sensitive (ui->dialog, CLFX_MERGE_FILTER, FALSE,
                                       NULL, NULL, FALSE);
  note = gimp_procedure_dialog_get_label (ui->dialog, "clfx-merge-note",
    _("Non-destructive needs clfx's GEGL module, which GEGL did not find "
      "here (README: Install): the filter is merged."), FALSE, FALSE);
  gtk_label_set_line_wrap (GTK_LABEL (note), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (note), 36);
  *names = g_list_append (*names, (gpointer) "clfx-merge-note");
}

/* One frame per group of the procedure's rows, its rows in argument
 * order: only the properties the config has. */
static void
clfx_dialog_groups (ClfxUi    *ui,
                    GPtrArray *frames)
{
  const ClfxFamily *f = ui->family;
  gint             *rows = g_new (gint, f->n_params);
  gint              n = clfx_proc_rows (&ui->proc, rows);

  for (gint g = 0; g < f->n_groups; g++)
    {
      GList *names = NULL;
      gchar *box_id;

      for (gint k = 0; k < n; k++)
        {
          const ClfxParamSpec *s = &f->params[rows[k]];

          const gchar         *name = clfx_dialog_row_property (ui, s);

          if (s->group != g || ! name)
            continue;
          names = g_list_append (names, (gpointer) name);
          if (! strcmp (name, CLFX_MERGE_FILTER))
            clfx_dialog_merge_row (ui, &names);
        }
      if (! names)
        continue;
      box_id = g_strdup_printf ("clfx-%s-box", f->groups[g].id);
      gimp_procedure_dialog_fill_box_list (ui->dialog, box_id, names);
      clfx_dialog_frame (ui->dialog, f->groups[g].id,
                         clfx_translate (f->groups[g].title), frames);
      g_free (box_id);
      g_list_free (names);
    }
  g_free (rows);
}

static void
clfx_dialog_settings_page (ClfxUi *ui)
{
  GimpProcedureDialog *pd = ui->dialog;
  GPtrArray           *frames = g_ptr_array_new_with_free_func (g_free);
  GList               *ids = NULL;
  GtkWidget           *box, *device, *preview;

  clfx_dialog_groups (ui, frames);

  box = gimp_procedure_dialog_fill_box (pd, "clfx-device-box", "validate",
                                        NULL);
  device = clfx_dialog_device_new (ui);
  gtk_box_pack_start (GTK_BOX (box), device, FALSE, FALSE, 0);
  gtk_box_reorder_child (GTK_BOX (box), device, 0);
  clfx_dialog_frame (pd, "device", _("Device"), frames);

  for (guint i = 0; i < frames->len; i++)
    ids = g_list_append (ids, g_ptr_array_index (frames, i));
  box = gimp_procedure_dialog_fill_box_list (pd, "clfx-controls-box", ids);
  gtk_box_pack_start (GTK_BOX (box), clfx_dialog_check_note_new (ui), FALSE,
                      FALSE, 0);
  g_list_free (ids);
  g_ptr_array_free (frames, TRUE);

  box = gimp_procedure_dialog_fill_box (pd, "clfx-settings-box",
                                        "clfx-controls-box", NULL);
  gtk_orientable_set_orientation (GTK_ORIENTABLE (box),
                                  GTK_ORIENTATION_HORIZONTAL);
  gtk_box_set_spacing (GTK_BOX (box), 12);
  preview = clfx_preview_new (ui);
  gtk_box_pack_start (GTK_BOX (box), preview, FALSE, FALSE, 0);
}

static void
clfx_dialog_diagnostics_page (ClfxUi *ui)
{
  GtkWidget *box;

  gimp_procedure_dialog_get_label (ui->dialog, "clfx-diagnostics-intro",
    _("The engine runs with validation on, for the current settings, on "
      "the preview image, and reports what happened."), FALSE, FALSE);
  box = gimp_procedure_dialog_fill_box (ui->dialog, "clfx-diagnostics-box",
                                        "clfx-diagnostics-intro", NULL);
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
  g_debug ("the %s tab is shown", page_num == 1 ? "Diagnostics"
                                                : "Settings");
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
  gimp_procedure_dialog_get_label (pd, "clfx-settings-tab", _("S_ettings"),
                                   FALSE, TRUE);
  gimp_procedure_dialog_get_label (pd, "clfx-diagnostics-tab",
                                   _("_Diagnostics"), FALSE, TRUE);
  notebook = gimp_procedure_dialog_fill_notebook (pd, "clfx-notebook",
                                                  "clfx-settings-tab",
                                                  "clfx-settings-box",
                                                  "clfx-diagnostics-tab",
                                                  "clfx-diagnostics-box",
                                                  NULL);
  g_signal_connect (notebook, "switch-page",
                    G_CALLBACK (clfx_dialog_page_switched), ui);
  gimp_procedure_dialog_fill (pd, "clfx-notebook", NULL);
}

gboolean
clfx_dialog_run (GimpProcedure       *procedure,
                 const ClfxProcSpec  *proc,
                 GimpProcedureConfig *config,
                 GimpImage           *image,
                 GimpDrawable       **drawables)
{
  GtkWidget *dialog;
  ClfxUi    *ui;
  gchar     *title = clfx_proc_title (proc);
  gboolean   ok;

  (void) image;
  /* G_MESSAGES_DEBUG=clfx: the dialog test times open to first preview
   * from here. */
  g_debug ("dialog: %s opening", gimp_procedure_get_name (procedure));
  gimp_ui_init (CLFX_UI_BINARY);
  /* The preview reads the drawable's buffer; gegl_init is idempotent. */
  gegl_init (NULL, NULL);
  dialog = gimp_procedure_dialog_new (procedure, config, title);
  g_free (title);
  ui = clfx_ui_new (GIMP_PROCEDURE_DIALOG (dialog), proc, config,
                    drawables);
  clfx_dialog_build (ui);
  g_signal_connect_swapped (config, "notify",
                            G_CALLBACK (clfx_dialog_config_changed), ui);
  clfx_dialog_config_changed (ui);

  ok = gimp_procedure_dialog_run (GIMP_PROCEDURE_DIALOG (dialog));

  /* The config outlives the dialog: nothing may call back into ui. */
  g_signal_handlers_disconnect_by_data (config, ui);
  clfx_preview_stop (ui);
  /* Gone from the screen while a run in progress ends (it cannot be
   * interrupted); its reply is dropped. */
  gtk_widget_hide (dialog);
  gdk_display_flush (gtk_widget_get_display (dialog));
  clfx_worker_stop (ui->worker);
  ui->worker = NULL;
  clfx_diagnostics_free (ui);
  gtk_widget_destroy (dialog);
  clfx_ui_free (ui);
  return ok;
}
