/* clfx-ui.h: what the dialog's files share: the dialog state, i18n
 * macros, and the helpers that turn the procedure config into an engine
 * run on the downscaled preview image. */
#ifndef CLFX_UI_H
#define CLFX_UI_H

#include <libintl.h>

#include <libgimp/gimp.h>
#include <libgimp/gimpui.h>

#include "clfx-run.h"

#ifndef _
#define _(s)  gettext (s)
#endif
#ifndef N_
#define N_(s) (s)
#endif

G_BEGIN_DECLS

/* The preview image's long side: big enough to see zoom and addressing,
 * small enough for the engine to run on the GTK thread. */
#define CLFX_UI_PREVIEW_SIZE 256

typedef struct _ClfxDiagnostics ClfxDiagnostics;

typedef struct
{
  GimpProcedureDialog *dialog;
  GimpProcedureConfig *config;
  const ClfxOpInfo    *op;
  ClfxImage            thumb;       /* the drawable, downscaled, RGBA u8 */
  gchar               *thumb_note;  /* why the thumbnail is synthetic */
  ClfxDeviceList       devices;
  ClfxContext         *context;     /* reused by every preview run ... */
  gchar               *context_device; /* ... for this device request */

  /* Settings tab */
  GtkWidget           *sampler_note;
  GtkWidget           *preview_image;
  GtkWidget           *preview_caption;
  GtkWidget           *preview_notice;
  GtkWidget           *preview_notice_label;
  guint                preview_source;

  ClfxDiagnostics     *diagnostics;
} ClfxUi;

/* clfx-ui.c */
ClfxUi    *clfx_ui_new              (GimpProcedureDialog *dialog,
                                     GimpProcedureConfig *config,
                                     GimpDrawable       **drawables);
void       clfx_ui_free             (ClfxUi              *ui);
/* The op's parameters as the config holds them; strings[] own the
 * string values (free with g_strfreev-like clfx_ui_params_clear). */
void       clfx_ui_read_params      (ClfxUi              *ui,
                                     ClfxParams          *params,
                                     gchar              **strings);
void       clfx_ui_params_clear     (gchar              **strings);
/* The same, with the output size fitted to the preview image. */
void       clfx_ui_preview_params   (ClfxUi              *ui,
                                     ClfxParams          *params,
                                     gchar              **strings);
gchar     *clfx_ui_get_string       (ClfxUi              *ui,
                                     const gchar         *property);
gboolean   clfx_ui_sampler_allowed  (ClfxUi              *ui);
/* Runs the op on the preview image with the config's device. */
gboolean   clfx_ui_run              (ClfxUi              *ui,
                                     gboolean             validate,
                                     ClfxParams          *params,
                                     ClfxImage           *dst,
                                     ClfxRunResult       *result,
                                     ClfxError           *error);
/* An RGBA u8 image over a checkerboard, so transparent border colour
 * (addressing clamp) is visible. */
GdkPixbuf *clfx_ui_pixbuf           (const ClfxImage     *image);
/* The Script-Fu v3 call with named arguments for the config's values. */
gchar     *clfx_ui_script_fu_call   (ClfxUi              *ui);
void       clfx_ui_copy_text        (const gchar         *text);

/* clfx-preview.c */
GtkWidget *clfx_preview_new         (ClfxUi              *ui);
void       clfx_preview_queue       (ClfxUi              *ui);
void       clfx_preview_stop        (ClfxUi              *ui);

/* clfx-diagnostics.c */
GtkWidget *clfx_diagnostics_new     (ClfxUi              *ui);
void       clfx_diagnostics_run     (ClfxUi              *ui);
/* Runs once when the tab is first shown. */
void       clfx_diagnostics_shown   (ClfxUi              *ui);
void       clfx_diagnostics_free    (ClfxUi              *ui);

/* clfx-chart.c: horizontal bars of timings. */
GtkWidget *clfx_chart_new           (void);
void       clfx_chart_clear         (GtkWidget           *chart);
/* kind: 0 kernel, 1 transfer, 2 total, 3 reference. */
void       clfx_chart_add           (GtkWidget           *chart,
                                     const gchar         *label,
                                     gdouble              ms,
                                     gint                 kind);

G_END_DECLS

#endif
