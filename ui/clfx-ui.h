/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-ui.h: what the dialog's files share: the dialog state, i18n
 * macros, and the way from the procedure config to an engine request on
 * the downscaled preview image. */
#ifndef CLFX_UI_H
#define CLFX_UI_H

#include <libintl.h>

#include <libgimp/gimp.h>
#include <libgimp/gimpui.h>

#include "clfx-args.h"
#include "clfx-pixel-format.h"
#include "clfx-worker.h"

#ifndef _
#define _(s)  gettext (s)
#endif
#ifndef N_
#define N_(s) (s)
#endif

G_BEGIN_DECLS

/* The preview's picture: big enough to judge a filter at 1:1 and to see
 * zoom and addressing, small enough for a run to follow the controls and
 * for the dialog to fit a 1280x720 screen.  The preview image (resize's,
 * and the test picture) has the width as its long side. */
#define CLFX_UI_PREVIEW_WIDTH  480
#define CLFX_UI_PREVIEW_HEIGHT 360
#define CLFX_UI_PREVIEW_SIZE   CLFX_UI_PREVIEW_WIDTH

typedef struct _ClfxDiagnostics ClfxDiagnostics;

typedef struct
{
  GimpProcedureDialog *dialog;
  GimpProcedureConfig *config;
  ClfxProcSpec         proc;        /* the procedure's rows are the
                                     * config's properties */
  const ClfxFamily    *family;      /* proc's */
  ClfxImage            thumb;       /* the drawable, downscaled, RGBA u8
                                     * sRGB, straight alpha */
  /* SHADOW families on a drawable: the preview shows the drawable at 1:1
   * (GimpDrawablePreview, scrollable), and previews and diagnostics run
   * on the part of it that its view reads (clfx_plan_read_rect), at the
   * drawable's own precision, the parameters unscaled. */
  GimpDrawable        *drawable;
  GtkWidget           *view;
  /* The whole drawable, zoomed out to the preview's size, in place of
   * the 1:1 view while whole is on (the engine runs on all of it, the
   * result is scaled down for the screen: what the filter gives, at any
   * zoom). */
  GtkWidget           *whole_toggle;
  GtkWidget           *whole_image;
  gboolean             whole;
  ClfxSource          *view_source;  /* the pixels the latest request read */
  GeglRectangle        view_rect[CLFX_N_WORK];  /* what each kind's latest
                                                 * request shows */
  gint                 view_origin[CLFX_N_WORK][2]; /* its source's place */
  gdouble              thumb_scale; /* thumb pixels per drawable pixel */
  gchar               *thumb_note;  /* why the thumbnail is synthetic */
  /* How the drawable's pixels cross to the engine, and an image of its
   * size and layout without pixels: the parameters are checked against
   * what the real run will get. */
  ClfxPixelFormat      format;
  gboolean             have_format;
  ClfxImage            source;
  ClfxDeviceList       devices;
  ClfxWorker          *worker;      /* runs previews and diagnostics */
  guint                generation[CLFX_N_WORK]; /* of the latest request */

  /* Settings tab */
  gchar               *rows_shown;  /* the rows' names, as last shown */
  GtkWidget           *check_note;  /* why the engine refuses the values */
  gboolean             refused;
  GtkWidget           *preview_image;
  GtkWidget           *preview_caption;
  GtkWidget           *preview_notice;
  GtkWidget           *preview_notice_label;
  guint                preview_source;
  /* The latest 1:1 preview request (its values and the pixels it read)
   * and the 8-bit picture drawn from its result (preview_view: where):
   * GimpDrawablePreview says "invalidated" several times while the
   * dialog opens.  The same request again waits for the run in flight
   * (its reply draws the view as it is then) or redraws that picture
   * where the view has not moved, rather than running the engine
   * again. */
  ClfxSource          *preview_read;    /* NULL: no request to repeat */
  gboolean             preview_pending; /* its reply has not come */
  ClfxArgs             preview_args;
  guchar              *preview_pixels;  /* NULL until a picture is drawn */
  gint                 preview_rowstride;
  GeglRectangle        preview_view;

  ClfxDiagnostics     *diagnostics;
} ClfxUi;

/* clfx-ui.c */
ClfxUi    *clfx_ui_new              (GimpProcedureDialog *dialog,
                                     const ClfxProcSpec  *proc,
                                     GimpProcedureConfig *config,
                                     GimpDrawable       **drawables);
/* Stops the worker (waits for a run in progress) before anything goes. */
void       clfx_ui_free             (ClfxUi              *ui);
/* The config's values, read with the plug-in's own reader. */
gboolean   clfx_ui_read_args        (ClfxUi              *ui,
                                     ClfxArgs            *args,
                                     GError             **error);
/* Whether the engine takes the config's values for the drawable
 * (clfx_run_check); *why: the engine's reason when not (g_free). */
gboolean   clfx_ui_check            (ClfxUi              *ui,
                                     gchar              **why);
/* Sends the config's values, fitted to the preview image, to the worker
 * (validate forced on for diagnostics).  FALSE when the config could not
 * be read (*error). */
gboolean   clfx_ui_submit           (ClfxUi              *ui,
                                     ClfxWorkKind         kind,
                                     GError             **error);
/* Forgets the latest 1:1 preview request, so that the next one runs even
 * when it asks for the same (after a refusal or a failure). */
void       clfx_ui_preview_forget   (ClfxUi              *ui);
/* An RGBA u8 image over a checkerboard, so transparent border colour
 * (addressing clamp) is visible; NULL when memory ran out. */
GdkPixbuf *clfx_ui_pixbuf           (const ClfxImage     *image);
void       clfx_ui_copy_text        (const gchar         *text);
/* Where a run made its pixels: the device, or the CPU reference. */
const gchar *clfx_ui_ran_on         (const ClfxRunResult *r);

/* clfx-preview.c: the preview belongs to the family's apply kind. */
GtkWidget *clfx_preview_new         (ClfxUi              *ui);
void       clfx_preview_queue       (ClfxUi              *ui);
void       clfx_preview_stop        (ClfxUi              *ui);
void       clfx_preview_reply       (ClfxUi              *ui,
                                     ClfxWorkReply       *reply);

/* clfx-diagnostics.c */
GtkWidget *clfx_diagnostics_new     (ClfxUi              *ui);
void       clfx_diagnostics_run     (ClfxUi              *ui);
/* Runs once when the tab is first shown. */
void       clfx_diagnostics_shown   (ClfxUi              *ui);
void       clfx_diagnostics_reply   (ClfxUi              *ui,
                                     ClfxWorkReply       *reply);
void       clfx_diagnostics_free    (ClfxUi              *ui);

/* clfx-chart.c: horizontal bars of timings. */
typedef enum
{
  CLFX_BAR_KERNEL,
  CLFX_BAR_TRANSFER,
  CLFX_BAR_TOTAL,
  CLFX_BAR_REFERENCE,
  CLFX_N_BARS
} ClfxBarKind;

GtkWidget *clfx_chart_new           (void);
void       clfx_chart_clear         (GtkWidget           *chart);
void       clfx_chart_add           (GtkWidget           *chart,
                                     const gchar         *label,
                                     gdouble              ms,
                                     ClfxBarKind          kind);

/* clfx-histogram.c: the tone mappers' log-luminance histograms; show
 * returns whether the probes held any. */
GtkWidget *clfx_histogram_new       (void);
gboolean   clfx_histogram_show      (GtkWidget           *plot,
                                     const ClfxProbes    *probes);

G_END_DECLS

#endif
