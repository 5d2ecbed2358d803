/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-diagnostics.c: the Diagnostics tab.  It has the worker run the
 * engine with validation on the preview image and shows the devices, the
 * build of every program, the comparison with the CPU reference (table,
 * probes and the error heat-map of the run's own reference image), how
 * the run went (bands or tiles, devices, sampler, the image's transfer
 * curve) and the timings, and copies the JSON report or the Script-Fu
 * call to the clipboard. */
#include <math.h>

#include "clfx-diagnostics-private.h"

/* ---- devices ----------------------------------------------------------- */

static void
clfx_grid_cell (GtkWidget   *grid,
                const gchar *text,
                gint         col,
                gint         row,
                gboolean     bold)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_set_can_focus (label, FALSE);
  if (bold)
    gimp_label_set_attributes (GTK_LABEL (label),
                               PANGO_ATTR_WEIGHT, PANGO_WEIGHT_BOLD, -1);
  gtk_grid_attach (GTK_GRID (grid), label, col, row, 1, 1);
  gtk_widget_show (label);
}

static void
clfx_devices_row (GtkWidget            *grid,
                  const ClfxDeviceInfo *d,
                  gint                  row,
                  gboolean              used)
{
  gchar *units = g_strdup_printf ("%u", d->compute_units);
  gchar *image = g_strdup_printf ("%zu × %zu", d->image2d_max_width,
                                  d->image2d_max_height);
  gchar *memory = g_format_size (d->global_mem);
  const gchar *state = used ? _("used") : d->usable ? _("usable")
                                                    : d->skip_reason;

  clfx_grid_cell (grid, d->name, 0, row, used);
  clfx_grid_cell (grid, d->platform_name, 1, row, FALSE);
  clfx_grid_cell (grid, d->driver, 2, row, FALSE);
  clfx_grid_cell (grid, d->c_version, 3, row, FALSE);
  clfx_grid_cell (grid, units, 4, row, FALSE);
  clfx_grid_cell (grid, image, 5, row, FALSE);
  clfx_grid_cell (grid, memory, 6, row, FALSE);
  clfx_grid_cell (grid, state, 7, row, used);
  g_free (units);
  g_free (image);
  g_free (memory);
}

void
clfx_devices_show (ClfxUi              *ui,
                   const ClfxRunResult *r)
{
  static const gchar *const heads[] = {
    N_("Device"), N_("Platform"), N_("Driver"), N_("OpenCL C"),
    N_("Units"), N_("Max 2D image"), N_("Memory"), N_("State")
  };
  GtkWidget *grid = ui->diagnostics->devices;
  GList     *children = gtk_container_get_children (GTK_CONTAINER (grid));

  for (GList *l = children; l; l = l->next)
    gtk_widget_destroy (l->data);
  g_list_free (children);
  for (guint i = 0; i < G_N_ELEMENTS (heads); i++)
    clfx_grid_cell (grid, gettext (heads[i]), i, 0, TRUE);
  for (gsize i = 0; i < ui->devices.n_devices; i++)
    {
      const ClfxDeviceInfo *d = &ui->devices.devices[i];
      gboolean used = r && r->path == CLFX_PATH_OPENCL
                      && r->device.id == d->id;

      clfx_devices_row (grid, d, (gint) i + 1, used);
    }
  if (ui->devices.n_devices == 0)
    clfx_grid_cell (grid, ui->devices.notes[0] ? ui->devices.notes
                    : _("No OpenCL device was found."), 0, 1, FALSE);
}

/* ---- build log --------------------------------------------------------- */

static void
clfx_log_show (ClfxDiagnostics     *d,
               const ClfxRunResult *r)
{
  GString *s = g_string_new (NULL);

  if (r->n_builds == 0)
    g_string_append (s, _("No OpenCL program was built: the CPU path "
                          "ran.\n"));
  for (gint i = 0; i < r->n_builds; i++)
    {
      const ClfxBuildRecord *b = &r->builds[i];

      g_string_append_printf (s, _("Program: %s\nOptions: %s\nStatus: %s\n"
                                   "Cache: %s%s%s\nBuild: %.1f ms\nLog:\n"),
                              b->program, b->options,
                              b->ok ? _("built") : _("failed"),
                              b->cache ? b->cache : "off",
                              b->cache_note[0] ? " — " : "", b->cache_note,
                              b->ms);
      g_string_append (s, b->log && *b->log ? b->log : _("(empty)"));
      g_string_append (s, "\n\n");
    }
  gtk_text_buffer_set_text (d->log, s->str, -1);
  g_string_free (s, TRUE);
}

/* ---- validation -------------------------------------------------------- */

static void
clfx_value_set (ClfxDiagnostics *d,
                gint             which,
                gchar           *text)
{
  gtk_label_set_text (GTK_LABEL (d->values[which]), text);
  g_free (text);
}

static void
clfx_validation_verdict (ClfxDiagnostics     *d,
                         const ClfxRunResult *r)
{
  const gchar *markup;

  if (! r->validated)
    markup = _("<b>not compared</b> (the CPU reference itself ran)");
  else if (r->validation.passed)
    markup = _("<span foreground='#1a7f37'><b>PASS</b></span>");
  else
    markup = _("<span foreground='#c01c28'><b>FAIL</b></span>");
  gtk_label_set_markup (GTK_LABEL (d->values[V_RESULT]), markup);
}

/* One line per probe: a stage value the variant exposes (a reduction's
 * result, a histogram), validated on its own. */
static gchar *
clfx_probes_text (const ClfxProbes *probes)
{
  GString *s = g_string_new (NULL);

  if (probes->n == 0)
    g_string_append (s, _("none (this variant exposes no stage values)"));
  for (gint i = 0; i < probes->n; i++)
    {
      const ClfxProbe *p = &probes->probes[i];

      if (i)
        g_string_append_c (s, '\n');
      g_string_append_printf (s, _("%s: %d values, max abs %.6g, %s"),
                              p->name, p->n_reference, p->max_abs,
                              p->passed ? _("passed") : _("failed"));
    }
  return g_string_free (s, FALSE);
}

static void
clfx_validation_show (ClfxDiagnostics     *d,
                      const ClfxRunResult *r)
{
  const ClfxValidation *v = &r->validation;
  const ClfxTolerance  *t = &r->tolerance;

  clfx_validation_verdict (d, r);
  clfx_value_set (d, V_PIXELS, g_strdup_printf ("%zu", v->pixels));
  clfx_value_set (d, V_MISMATCHES, g_strdup_printf (_("%zu of %zu values"),
                                                    v->mismatches,
                                                    v->samples));
  clfx_value_set (d, V_AMBIGUOUS, g_strdup_printf ("%zu", v->ambiguous));
  clfx_value_set (d, V_NAN, g_strdup_printf ("%zu", v->nan));
  clfx_value_set (d, V_INF, g_strdup_printf ("%zu", v->inf));
  clfx_value_set (d, V_MAX_ABS, g_strdup_printf ("%.6g", v->max_abs));
  clfx_value_set (d, V_MAX_REL, g_strdup_printf ("%.6g", v->max_rel));
  clfx_value_set (d, V_RMSE, g_strdup_printf ("%.6g", v->rmse));
  clfx_value_set (d, V_PSNR, isfinite (v->psnr_db)
                  ? g_strdup_printf (_("%.2f dB"), v->psnr_db)
                  : g_strdup (_("∞ (identical)")));
  clfx_value_set (d, V_WORST,
                  g_strdup_printf (_("(%d, %d) channel %d: expected %.6g, "
                                     "actual %.6g, bound there %.3g"),
                                   v->worst.x, v->worst.y,
                                   v->worst.channel, v->worst.expected,
                                   v->worst.actual, v->worst.tol));
  /* A per-pixel bound (clfx-tolerance.h): its range over the image. */
  clfx_value_set (d, V_TOLERANCE,
                  v->per_pixel
                  ? g_strdup_printf (_("|actual − expected| ≤ a + %g × "
                                       "|expected|, a per pixel from %g "
                                       "to %g (the values it reads)"),
                                     t->rel_tol, v->abs_tol_min, t->abs_tol)
                  : g_strdup_printf (_("|actual − expected| ≤ %g + %g × "
                                       "|expected|"), t->abs_tol,
                                     t->rel_tol));
  clfx_value_set (d, V_BASIS, g_strdup (t->basis));
  clfx_value_set (d, V_PROBES, clfx_probes_text (&r->probes));
}

void
clfx_validation_clear (ClfxDiagnostics *d)
{
  for (gint i = 0; i < N_VALUES; i++)
    gtk_label_set_text (GTK_LABEL (d->values[i]), "—");
  gtk_image_clear (GTK_IMAGE (d->heat_map));
}

/* 0 = black, >= 1 (a mismatch) = red, linear between; NULL when memory
 * ran out. */
static GdkPixbuf *
clfx_heat_pixbuf (const ClfxImage *map)
{
  GdkPixbuf *pixbuf = gdk_pixbuf_new (GDK_COLORSPACE_RGB, FALSE, 8,
                                      map->width, map->height);
  gdouble    scale = (gdouble) CLFX_HEAT_MAP_SIZE
                     / MAX (map->width, map->height);
  guchar    *pixels;
  gint       rowstride;
  GdkPixbuf *scaled;

  if (! pixbuf)
    return NULL;
  pixels = gdk_pixbuf_get_pixels (pixbuf);
  rowstride = gdk_pixbuf_get_rowstride (pixbuf);
  for (gint y = 0; y < map->height; y++)
    for (gint x = 0; x < map->width; x++)
      {
        gdouble v = clfx_image_get (map, x, y, 0);
        guchar *p = pixels + y * rowstride + x * 3;

        p[0] = (guchar) lround (255.0 * CLAMP (v, 0.0, 1.0));
        p[1] = p[2] = 0;
      }
  scaled = gdk_pixbuf_scale_simple (pixbuf,
                                    MAX (1, (gint) (map->width * scale)),
                                    MAX (1, (gint) (map->height * scale)),
                                    GDK_INTERP_NEAREST);
  g_object_unref (pixbuf);
  return scaled;
}

/* The worker made the map from the run's own reference image
 * (ClfxRunResult.reference): the CPU path does not run twice. */
static void
clfx_heat_map_show (ClfxDiagnostics *d,
                    const ClfxImage *map)
{
  GdkPixbuf *pixbuf;

  gtk_image_clear (GTK_IMAGE (d->heat_map));
  if (! map->data || ! (pixbuf = clfx_heat_pixbuf (map)))
    return;
  gtk_image_set_from_pixbuf (GTK_IMAGE (d->heat_map), pixbuf);
  g_object_unref (pixbuf);
}

/* ---- execution ---------------------------------------------------------- */

static void
clfx_execution_set (ClfxDiagnostics *d,
                    gint             which,
                    gchar           *text)
{
  gtk_label_set_text (GTK_LABEL (d->execution[which]), text);
  g_free (text);
}

static void
clfx_execution_show (ClfxUi              *ui,
                     const ClfxRunResult *r)
{
  ClfxDiagnostics   *d = ui->diagnostics;
  const ClfxTimings *t = &r->timings;
  gboolean           cl = r->path == CLFX_PATH_OPENCL;

  clfx_execution_set (d, E_MODE,
                      g_strdup (! cl        ? _("on the host (CPU reference)")
                                : t->tiled ? _("tiles (the image exceeds the "
                                               "device's limits)")
                                           : _("bands (upload, kernels and "
                                               "download overlap)")));
  clfx_execution_set (d, E_PIECES, g_strdup_printf ("%d", t->pieces));
  clfx_execution_set (d, E_DEVICES, g_strdup_printf ("%d",
                                                     cl ? t->devices : 0));
  clfx_execution_set (d, E_SAMPLER,
                      g_strdup (t->sampler ? _("hardware sampler")
                                           : _("in the kernel")));
  clfx_execution_set (d, E_DATA_PATH,
                      g_strdup (! cl           ? _("host memory")
                                : t->zero_copy ? _("zero-copy (the device "
                                                   "works in host memory)")
                                : t->pinned    ? _("pinned memory (GIMP's "
                                                   "pixels read and written "
                                                   "in place)")
                                               : _("staged through pinned "
                                                   "memory")));
  clfx_execution_set (d, E_TRANSFER,
                      ui->have_format
                      ? g_strdup_printf (_("the image: %s; the preview "
                                           "image: sRGB curve, 8 bits"),
                                         clfx_pixel_format_describe
                                           (&ui->format))
                      : g_strdup (_("the test picture: sRGB curve, 8 "
                                    "bits")));
}

static void
clfx_execution_clear (ClfxDiagnostics *d)
{
  for (gint i = 0; i < N_EXECUTION; i++)
    gtk_label_set_text (GTK_LABEL (d->execution[i]), "—");
}

/* ---- timings ----------------------------------------------------------- */

static void
clfx_timings_show (ClfxDiagnostics     *d,
                   const ClfxRunResult *r)
{
  const ClfxTimings *t = &r->timings;
  gchar             *text;

  clfx_chart_clear (d->chart);
  for (gint i = 0; i < t->n_kernels; i++)
    clfx_chart_add (d->chart, t->kernels[i].name, t->kernels[i].ms,
                    CLFX_BAR_KERNEL);
  if (r->path == CLFX_PATH_OPENCL)
    {
      /* Zero-copy: the device reads the pixels in place; the bar is the
       * cost of wrapping them in an image. */
      clfx_chart_add (d->chart,
                      t->zero_copy ? _("Upload (zero-copy)") : _("Upload"),
                      t->upload_ms, CLFX_BAR_TRANSFER);
      clfx_chart_add (d->chart, _("Download"), t->download_ms,
                      CLFX_BAR_TRANSFER);
    }
  clfx_chart_add (d->chart, _("Total (wall)"), t->total_ms, CLFX_BAR_TOTAL);
  if (t->reference_ms > 0)
    clfx_chart_add (d->chart, _("CPU reference"), t->reference_ms,
                    CLFX_BAR_REFERENCE);

  if (r->path == CLFX_PATH_OPENCL && t->reference_ms > 0 && t->total_ms > 0)
    text = g_strdup_printf (_("Speed-up over the CPU reference: %.2f× "
                              "(whole run, transfers included)"),
                            t->reference_ms / t->total_ms);
  else
    text = g_strdup (_("No speed-up to show: the CPU reference made the "
                       "result."));
  gtk_label_set_text (GTK_LABEL (d->speedup), text);
  g_free (text);
}

/* ---- running ------------------------------------------------------------ */

static gchar *
clfx_status_of_run (const ClfxRunResult *r)
{
  if (r->fallback[0])
    return g_strdup (r->fallback);
  if (r->path != CLFX_PATH_OPENCL)
    return g_strdup (_("The CPU reference ran (device \"reference\")."));
  return g_strdup_printf (_("Ran on %s (%s) in %.1f ms."), r->device.name,
                          r->device.platform_name, r->timings.total_ms);
}

static void
clfx_diagnostics_show (ClfxUi        *ui,
                       ClfxWorkReply *reply)
{
  ClfxDiagnostics     *d = ui->diagnostics;
  const ClfxRunResult *r = &reply->run;
  gchar               *status = clfx_status_of_run (r);

  clfx_devices_show (ui, r);
  clfx_log_show (d, r);
  clfx_validation_show (d, r);
  clfx_heat_map_show (d, &reply->error_map);
  clfx_execution_show (ui, r);
  clfx_timings_show (d, r);
  gtk_widget_set_visible (d->histogram_frame,
                          clfx_histogram_show (d->histogram, &r->probes));
  g_free (d->report);
  d->report = g_steal_pointer (&reply->report);
  gtk_label_set_text (GTK_LABEL (d->status), status);
  g_free (status);
}

static void
clfx_diagnostics_failed (ClfxDiagnostics *d,
                         const gchar     *message)
{
  gchar *text = g_strdup_printf (_("The run failed: %s"), message);

  gtk_label_set_text (GTK_LABEL (d->status), text);
  gtk_text_buffer_set_text (d->log, message, -1);
  clfx_validation_clear (d);
  clfx_execution_clear (d);
  clfx_chart_clear (d->chart);
  gtk_widget_hide (d->histogram_frame);
  gtk_label_set_text (GTK_LABEL (d->speedup), "");
  g_clear_pointer (&d->report, g_free);
  g_free (text);
}

void
clfx_diagnostics_reply (ClfxUi        *ui,
                        ClfxWorkReply *reply)
{
  ClfxDiagnostics *d = ui->diagnostics;

  if (reply->started)
    {
      gtk_label_set_text (GTK_LABEL (d->status),
                          reply->cold ? _("Building OpenCL kernels…")
                                      : _("Running diagnostics…"));
      return;
    }
  d->running = FALSE;
  if (reply->ok)
    clfx_diagnostics_show (ui, reply);
  else
    clfx_diagnostics_failed (d, reply->error.message);
  if (d->copy_when_done && d->report)
    {
      clfx_ui_copy_text (d->report);
      gtk_label_set_text (GTK_LABEL (d->status),
                          _("The JSON report is on the clipboard."));
    }
  d->copy_when_done = FALSE;
}

/* The run goes to the worker; the tab stays live and shows the result
 * when it comes. */
void
clfx_diagnostics_run (ClfxUi *ui)
{
  ClfxDiagnostics *d = ui->diagnostics;
  GError          *error = NULL;

  d->ran = TRUE;
  if (! clfx_ui_submit (ui, CLFX_WORK_DIAGNOSTICS, &error))
    {
      clfx_diagnostics_failed (d, error->message);
      g_error_free (error);
      return;
    }
  d->running = TRUE;
  gtk_label_set_text (GTK_LABEL (d->status), _("Running diagnostics…"));
}

void
clfx_diagnostics_shown (ClfxUi *ui)
{
  if (! ui->diagnostics->ran)
    clfx_diagnostics_run (ui);
}
