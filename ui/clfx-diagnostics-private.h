/* clfx-diagnostics-private.h: the Diagnostics tab's widgets, shared by
 * clfx-diagnostics.c (running and showing) and clfx-diagnostics-page.c
 * (layout and buttons). */
#ifndef CLFX_DIAGNOSTICS_PRIVATE_H
#define CLFX_DIAGNOSTICS_PRIVATE_H

#include "clfx-ui.h"

G_BEGIN_DECLS

#define CLFX_HEAT_MAP_SIZE 192

enum
{
  V_RESULT, V_PIXELS, V_MISMATCHES, V_AMBIGUOUS, V_NAN, V_INF, V_MAX_ABS,
  V_MAX_REL, V_RMSE, V_PSNR, V_WORST, V_TOLERANCE, V_BASIS, N_VALUES
};

struct _ClfxDiagnostics
{
  GtkWidget     *status;
  GtkWidget     *devices;
  GtkTextBuffer *log;
  GtkWidget     *values[N_VALUES];
  GtkWidget     *heat_map;
  GtkWidget     *chart;
  GtkWidget     *speedup;
  gchar         *report;  /* JSON of the last run */
  gboolean       ran;
  guint          idle;
};

/* clfx-diagnostics.c: shows a run's devices, or the list alone (r NULL). */
void clfx_devices_show     (ClfxUi              *ui,
                            const ClfxRunResult *r);
void clfx_validation_clear (ClfxDiagnostics     *d);

G_END_DECLS

#endif
