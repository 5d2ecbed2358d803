/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-diagnostics-private.h: the Diagnostics tab's widgets, shared by
 * clfx-diagnostics.c (running and showing) and clfx-diagnostics-page.c
 * (layout and buttons). */
#ifndef CLFX_DIAGNOSTICS_PRIVATE_H
#define CLFX_DIAGNOSTICS_PRIVATE_H

#include "clfx-ui.h"

G_BEGIN_DECLS

#define CLFX_HEAT_MAP_SIZE 192

/* The validation grid's rows. */
enum
{
  V_RESULT, V_PIXELS, V_MISMATCHES, V_AMBIGUOUS, V_NAN, V_INF, V_MAX_ABS,
  V_MAX_REL, V_RMSE, V_PSNR, V_WORST, V_TOLERANCE, V_BASIS, V_PROBES,
  N_VALUES
};

/* The execution grid's rows. */
enum
{
  E_MODE, E_PIECES, E_DEVICES, E_SAMPLER, E_DATA_PATH, E_TRANSFER,
  N_EXECUTION
};

struct _ClfxDiagnostics
{
  GtkWidget     *status;
  GtkWidget     *devices;
  GtkTextBuffer *log;
  GtkWidget     *values[N_VALUES];
  GtkWidget     *execution[N_EXECUTION];
  GtkWidget     *heat_map;
  GtkWidget     *chart;
  GtkWidget     *speedup;
  GtkWidget     *histogram;       /* the tone mappers' (hidden otherwise) */
  GtkWidget     *histogram_frame;
  gchar         *report;    /* JSON of the last run */
  gboolean       ran;       /* a run was asked for */
  gboolean       running;   /* and has not answered yet */
  gboolean       copy_when_done; /* Copy JSON was pressed before a report */
};

/* clfx-diagnostics.c: shows a run's devices, or the list alone (r NULL). */
void clfx_devices_show     (ClfxUi              *ui,
                            const ClfxRunResult *r);
void clfx_validation_clear (ClfxDiagnostics     *d);

G_END_DECLS

#endif
