/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-histogram.c: the tone mappers' log-luminance histograms, before and
 * after the map (the probes "log2 Y histogram, before" and "... after"),
 * drawn with cairo on one log2 axis, with the scene's log-average (the
 * luminance the key maps to) and its largest luminance (white) marked on
 * the one, mid grey (0.18) and display white (1.0) on the other.  The
 * counts come from the device when it ran, else from the CPU reference.
 *
 * Bins are half octaves read from a float's exponent and first mantissa
 * bit (kernels/tonemap-common.h), so each octave splits at 1.5 x 2^e:
 * each bar is drawn over its true extent and its height is a density (count per
 * octave), so the two unequal halves read alike. */
#include <math.h>
#include <string.h>

#include "../kernels/tonemap-shapes.h"
#include "clfx-ui.h"

#define CLFX_HIST_HEIGHT 170
#define CLFX_HIST_MARGIN 8
#define CLFX_HIST_AXIS   18   /* the axis labels under the plot */

typedef struct
{
  gdouble before[128], after[128];
  gint    n_before, n_after;
  gdouble log_average, max_y; /* <= 0: not known */
  gdouble lo, hi;             /* the axis, in log2: what the bins span */
} ClfxHist;

/* The first and last bin of each histogram: what lies below and above. */
static const struct
{
  gint lo, n;
} clfx_hist_range[2] = { { TM_HB_LO, TM_HB_N }, { TM_HA_LO, TM_HA_N } };

static ClfxHist *
clfx_hist_of (GtkWidget *plot)
{
  return g_object_get_data (G_OBJECT (plot), "clfx-hist");
}

/* Bin k (1 .. n - 2) of a histogram from 2^lo covers [a, b) in log2. */
static void
clfx_hist_extent (gint     lo,
                  gint     k,
                  gdouble *a,
                  gdouble *b)
{
  gint octave = lo + (k - 1) / 2;

  *a = octave + ((k - 1) % 2 ? log2 (1.5) : 0.0);
  *b = (k - 1) % 2 ? octave + 1.0 : octave + log2 (1.5);
}

static gdouble
clfx_hist_x (const ClfxHist *h,
             gdouble         e,
             gdouble         width)
{
  return CLFX_HIST_MARGIN
         + (e - h->lo) / (h->hi - h->lo) * (width - 2 * CLFX_HIST_MARGIN);
}

static void
clfx_hist_bars (const ClfxHist *hist,
                cairo_t       *cr,
                const gdouble *counts,
                gint           n,
                gint           lo,
                gdouble        peak,
                gdouble        width,
                gdouble        height)
{
  for (gint k = 1; k < n - 1; k++)
    {
      gdouble a, b, h;

      if (counts[k] <= 0)
        continue;
      clfx_hist_extent (lo, k, &a, &b);
      h = (counts[k] / (b - a)) / peak * height;
      cairo_rectangle (cr, clfx_hist_x (hist, a, width),
                       CLFX_HIST_MARGIN + height - h,
                       clfx_hist_x (hist, b, width)
                         - clfx_hist_x (hist, a, width),
                       h);
    }
  cairo_fill (cr);
}

static void
clfx_hist_marker (GtkWidget   *plot,
                  const ClfxHist *h,
                  cairo_t     *cr,
                  gdouble      value,
                  const gchar *label,
                  gdouble      width,
                  gdouble      height,
                  gint         row)
{
  PangoLayout *layout;
  gdouble      x;

  if (! (value > 0))
    return;
  x = clfx_hist_x (h, CLAMP (log2 (value), h->lo, h->hi), width);
  cairo_move_to (cr, x + 0.5, CLFX_HIST_MARGIN);
  cairo_line_to (cr, x + 0.5, CLFX_HIST_MARGIN + height);
  cairo_stroke (cr);
  layout = gtk_widget_create_pango_layout (plot, label);
  cairo_move_to (cr, MIN (x + 3, width - 80), CLFX_HIST_MARGIN + 14 * row);
  pango_cairo_show_layout (cr, layout);
  g_object_unref (layout);
}

static gboolean
clfx_hist_draw (GtkWidget *plot,
                cairo_t   *cr)
{
  ClfxHist        *h = clfx_hist_of (plot);
  GtkStyleContext *style = gtk_widget_get_style_context (plot);
  GdkRGBA          fg;
  gdouble          width = gtk_widget_get_allocated_width (plot);
  gdouble          height = CLFX_HIST_HEIGHT - 2 * CLFX_HIST_MARGIN
                            - CLFX_HIST_AXIS;
  gdouble          peak = 0;
  const gdouble   *counts[2] = { h->before, h->after };
  const gint       n[2] = { h->n_before, h->n_after };

  gtk_style_context_get_color (style, gtk_style_context_get_state (style),
                               &fg);
  for (gint s = 0; s < 2; s++)
    for (gint k = 1; k < n[s] - 1; k++)
      {
        gdouble a, b;
        clfx_hist_extent (clfx_hist_range[s].lo, k, &a, &b);
        peak = MAX (peak, counts[s][k] / (b - a));
      }
  if (peak <= 0)
    return FALSE;
  /* Before in blue, after in orange, both half transparent. */
  cairo_set_source_rgba (cr, 0.20, 0.45, 0.80, 0.55);
  clfx_hist_bars (h, cr, h->before, h->n_before, clfx_hist_range[0].lo,
                  peak, width, height);
  cairo_set_source_rgba (cr, 0.90, 0.50, 0.10, 0.55);
  clfx_hist_bars (h, cr, h->after, h->n_after, clfx_hist_range[1].lo,
                  peak, width, height);

  /* The axis: a tick and label every 2 or 4 stops. */
  gdk_cairo_set_source_rgba (cr, &fg);
  cairo_set_line_width (cr, 1.0);
  cairo_move_to (cr, CLFX_HIST_MARGIN, CLFX_HIST_MARGIN + height + 0.5);
  cairo_line_to (cr, width - CLFX_HIST_MARGIN,
                 CLFX_HIST_MARGIN + height + 0.5);
  cairo_stroke (cr);
  for (gint step = h->hi - h->lo > 16 ? 4 : 2,
            e = (gint) ceil (h->lo / step) * step;
       e <= h->hi; e += step)
    {
      gchar       *text = g_strdup_printf ("%d", e);
      PangoLayout *layout = gtk_widget_create_pango_layout (plot, text);
      gdouble      x = clfx_hist_x (h, e, width);
      gint         tw;

      pango_layout_get_pixel_size (layout, &tw, NULL);
      cairo_move_to (cr, x + 0.5, CLFX_HIST_MARGIN + height);
      cairo_line_to (cr, x + 0.5, CLFX_HIST_MARGIN + height + 4);
      cairo_stroke (cr);
      cairo_move_to (cr, x - tw / 2.0, CLFX_HIST_MARGIN + height + 4);
      pango_cairo_show_layout (cr, layout);
      g_object_unref (layout);
      g_free (text);
    }

  /* Markers: dashed for the scene, solid for the result. */
  cairo_set_source_rgb (cr, 0.10, 0.30, 0.65);
  cairo_set_dash (cr, (const gdouble[]) { 3.0, 3.0 }, 2, 0);
  clfx_hist_marker (plot, h, cr, h->log_average, _("key: log-average"),
                    width, height, 0);
  clfx_hist_marker (plot, h, cr, h->max_y, _("white: max Y"), width, height,
                    1);
  cairo_set_dash (cr, NULL, 0, 0);
  cairo_set_source_rgb (cr, 0.70, 0.35, 0.05);
  clfx_hist_marker (plot, h, cr, 0.18, "0.18", width, height, 2);
  clfx_hist_marker (plot, h, cr, 1.0, "1.0", width, height, 3);
  return FALSE;
}

GtkWidget *
clfx_histogram_new (void)
{
  GtkWidget *plot = gtk_drawing_area_new ();

  g_object_set_data_full (G_OBJECT (plot), "clfx-hist", g_new0 (ClfxHist, 1),
                          g_free);
  gtk_widget_set_size_request (plot, 360, CLFX_HIST_HEIGHT);
  g_signal_connect (plot, "draw", G_CALLBACK (clfx_hist_draw), NULL);
  return plot;
}

/* The probe's values (the device's, else the reference's) into out;
 * their count, 0 when absent. */
static gint
clfx_hist_probe (const ClfxProbes *probes,
                 const gchar      *name,
                 gdouble          *out,
                 gint              max)
{
  for (gint i = 0; probes && i < probes->n; i++)
    {
      const ClfxProbe *p = &probes->probes[i];
      const gdouble   *v = p->device ? p->device : p->reference;
      gint             n = p->device ? p->n_device : p->n_reference;

      if (strcmp (p->name, name) || ! v || n > max)
        continue;
      memcpy (out, v, sizeof (gdouble) * n);
      return n;
    }
  return 0;
}

gboolean
clfx_histogram_show (GtkWidget        *plot,
                     const ClfxProbes *probes)
{
  ClfxHist *h = clfx_hist_of (plot);
  gdouble   pair[2];

  memset (h, 0, sizeof *h);
  h->n_before = clfx_hist_probe (probes, "log2 Y histogram, before",
                                 h->before, G_N_ELEMENTS (h->before));
  h->n_after = clfx_hist_probe (probes, "log2 Y histogram, after", h->after,
                                G_N_ELEMENTS (h->after));
  /* Only the sizes the kernels write (kernels/tonemap-shapes.h). */
  if (h->n_before != clfx_hist_range[0].n)
    h->n_before = 0;
  if (h->n_after != clfx_hist_range[1].n)
    h->n_after = 0;
  if (clfx_hist_probe (probes, "log-average, mean Y", pair, 2) == 2)
    h->log_average = pair[0];
  if (clfx_hist_probe (probes, "min Y, max Y", pair, 2) == 2)
    h->max_y = pair[1];
  /* The axis spans the bins that hold pixels and 1.0 (display white),
   * a stop more each side, at least 8 stops. */
  h->lo = 0.0;
  h->hi = 0.0;
  for (gint s = 0; s < 2; s++)
    {
      const gdouble *c = s ? h->after : h->before;
      gint           n = s ? h->n_after : h->n_before;
      for (gint k = 1; k < n - 1; k++)
        if (c[k] > 0)
          {
            gdouble a, b;
            clfx_hist_extent (clfx_hist_range[s].lo, k, &a, &b);
            h->lo = MIN (h->lo, a);
            h->hi = MAX (h->hi, b);
          }
    }
  h->lo = floor (h->lo) - 1.0;
  h->hi = ceil (h->hi) + 1.0;
  if (h->hi - h->lo < 8.0)
    h->lo = h->hi - 8.0;
  gtk_widget_queue_draw (plot);
  return h->n_before > 0 || h->n_after > 0;
}
