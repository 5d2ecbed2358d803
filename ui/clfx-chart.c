/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-chart.c: the Diagnostics timings as horizontal bars, drawn with
 * cairo: one row per kernel, then upload, download, total and the CPU
 * reference, on one scale so the proportions read at a glance. */
#include "clfx-ui.h"

#define CLFX_CHART_ROW     22
#define CLFX_CHART_LABEL_W 170
#define CLFX_CHART_VALUE_W 80
#define CLFX_CHART_MARGIN  6

typedef struct
{
  gchar      *label;
  gdouble     ms;
  ClfxBarKind kind;
} ClfxBar;

static GArray *
clfx_chart_bars (GtkWidget *chart)
{
  return g_object_get_data (G_OBJECT (chart), "clfx-bars");
}

static void
clfx_chart_bar_clear (gpointer data)
{
  g_free (((ClfxBar *) data)->label);
}

static void
clfx_chart_kind_colour (cairo_t     *cr,
                        ClfxBarKind  kind)
{
  static const gdouble colours[CLFX_N_BARS][3] = {
    [CLFX_BAR_KERNEL] = { 0.20, 0.45, 0.80 },
    [CLFX_BAR_TRANSFER] = { 0.55, 0.55, 0.55 },
    [CLFX_BAR_TOTAL] = { 0.15, 0.15, 0.15 },
    [CLFX_BAR_REFERENCE] = { 0.90, 0.50, 0.10 },
  };

  cairo_set_source_rgb (cr, colours[kind][0], colours[kind][1],
                        colours[kind][2]);
}

static void
clfx_chart_text (GtkWidget   *chart,
                 cairo_t     *cr,
                 const gchar *text,
                 gdouble      x,
                 gdouble      y,
                 gdouble      width)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (chart, text);
  gint         h;

  pango_layout_set_width (layout, (gint) (width * PANGO_SCALE));
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  pango_layout_get_pixel_size (layout, NULL, &h);
  cairo_move_to (cr, x, y + (CLFX_CHART_ROW - h) / 2.0);
  pango_cairo_show_layout (cr, layout);
  g_object_unref (layout);
}

static gboolean
clfx_chart_draw (GtkWidget *chart,
                 cairo_t   *cr)
{
  GArray          *bars = clfx_chart_bars (chart);
  GtkStyleContext *style = gtk_widget_get_style_context (chart);
  GdkRGBA          fg;
  gdouble          max = 0.0, bar_w;
  gint             width = gtk_widget_get_allocated_width (chart);

  gtk_style_context_get_color (style, gtk_style_context_get_state (style),
                               &fg);
  for (guint i = 0; i < bars->len; i++)
    max = MAX (max, g_array_index (bars, ClfxBar, i).ms);
  bar_w = width - CLFX_CHART_LABEL_W - CLFX_CHART_VALUE_W
          - 2 * CLFX_CHART_MARGIN;
  for (guint i = 0; i < bars->len && bar_w > 0; i++)
    {
      ClfxBar *b = &g_array_index (bars, ClfxBar, i);
      gdouble  y = CLFX_CHART_MARGIN + i * CLFX_CHART_ROW;
      gdouble  len = max > 0 ? MAX (1.0, bar_w * b->ms / max) : 1.0;
      gchar   *value = g_strdup_printf (_("%.3f ms"), b->ms);

      gdk_cairo_set_source_rgba (cr, &fg);
      clfx_chart_text (chart, cr, b->label, CLFX_CHART_MARGIN, y,
                       CLFX_CHART_LABEL_W - 8);
      clfx_chart_kind_colour (cr, b->kind);
      cairo_rectangle (cr, CLFX_CHART_MARGIN + CLFX_CHART_LABEL_W, y + 4,
                       len, CLFX_CHART_ROW - 8);
      cairo_fill (cr);
      gdk_cairo_set_source_rgba (cr, &fg);
      clfx_chart_text (chart, cr, value,
                       CLFX_CHART_MARGIN + CLFX_CHART_LABEL_W + len + 6, y,
                       CLFX_CHART_VALUE_W);
      g_free (value);
    }
  return FALSE;
}

static void
clfx_chart_resize (GtkWidget *chart)
{
  guint n = clfx_chart_bars (chart)->len;

  gtk_widget_set_size_request (chart, 360,
                               2 * CLFX_CHART_MARGIN
                               + MAX (n, 1) * CLFX_CHART_ROW);
  gtk_widget_queue_draw (chart);
}

GtkWidget *
clfx_chart_new (void)
{
  GtkWidget *chart = gtk_drawing_area_new ();
  GArray    *bars = g_array_new (FALSE, TRUE, sizeof (ClfxBar));

  g_array_set_clear_func (bars, clfx_chart_bar_clear);
  g_object_set_data_full (G_OBJECT (chart), "clfx-bars", bars,
                          (GDestroyNotify) g_array_unref);
  g_signal_connect (chart, "draw", G_CALLBACK (clfx_chart_draw), NULL);
  clfx_chart_resize (chart);
  return chart;
}

void
clfx_chart_clear (GtkWidget *chart)
{
  g_array_set_size (clfx_chart_bars (chart), 0);
  clfx_chart_resize (chart);
}

void
clfx_chart_add (GtkWidget   *chart,
                const gchar *label,
                gdouble      ms,
                ClfxBarKind  kind)
{
  ClfxBar bar = { g_strdup (label), ms, kind };

  g_array_append_val (clfx_chart_bars (chart), bar);
  clfx_chart_resize (chart);
}
