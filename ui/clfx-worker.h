/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-worker.h: the dialog's engine runs (previews, diagnostics) on a
 * thread of their own, so that building kernels (seconds with a cold
 * cache) never blocks the GTK thread. */
#ifndef CLFX_WORKER_H
#define CLFX_WORKER_H

#include <glib.h>

#include "clfx-args.h"

G_BEGIN_DECLS

typedef enum
{
  CLFX_WORK_PREVIEW,
  CLFX_WORK_DIAGNOSTICS,
  CLFX_N_WORK
} ClfxWorkKind;

/* What a request came to, delivered on the GTK thread: first a reply
 * with started set (the run began; cold: it makes a context or builds
 * kernels it has not built here before), then the result. */
typedef struct
{
  ClfxWorkKind  kind;
  guint         generation;  /* the request's: older ones are stale */
  gboolean      started;
  gboolean      cold;
  gboolean      ok;
  ClfxArgs      args;        /* what ran */
  ClfxImage     result;
  ClfxRunResult run;
  ClfxError     error;
  /* DIAGNOSTICS: the JSON report (the callback may take it) and, when
   * validated, the error map of result against run.reference. */
  gchar        *report;
  ClfxImage     error_map;
} ClfxWorkReply;

typedef void (*ClfxWorkDone) (ClfxWorkReply *reply,
                              gpointer       data);

/* A source a request runs on instead of the worker's own: pixels read
 * from the drawable for one view (its rectangle there: x, y and the
 * image's size), shared by the dialog, which keeps it for the next
 * requests, and the runs that read it.  Reference counted (atomic). */
typedef struct
{
  gint      refs;
  gint      x, y;
  ClfxImage image;
} ClfxSource;

ClfxSource *clfx_source_new    (void);
ClfxSource *clfx_source_ref    (ClfxSource      *source);
void        clfx_source_unref  (ClfxSource      *source);

typedef struct _ClfxWorker ClfxWorker;

/* The worker runs requests on source, which must not change until
 * clfx_worker_stop returned; done is called on the GTK thread (from an
 * idle callback) for every reply until then. */
ClfxWorker *clfx_worker_new    (const ClfxImage *source,
                                ClfxWorkDone     done,
                                gpointer         data);
/* Replaces the waiting request of this kind, if any (only the latest
 * values matter).  source (NULL: the worker's own) is referenced until
 * the run is done. */
void        clfx_worker_submit (ClfxWorker      *worker,
                                ClfxWorkKind     kind,
                                guint            generation,
                                const ClfxArgs  *args,
                                ClfxSource      *source);
/* Builds ahead what a run of args builds (source: an image of the layout
 * the runs will have; its pixels are not read), when no other request
 * waits; nothing is
 * delivered.  The next request of the same values finds it built. */
void        clfx_worker_warm   (ClfxWorker      *worker,
                                const ClfxArgs  *args,
                                ClfxSource      *source);
/* Whether a build ahead waits or runs: a request now waits for it. */
gboolean    clfx_worker_building (ClfxWorker    *worker);
/* Drops waiting requests, waits for the running one (an engine run
 * cannot be interrupted) and ends the thread; replies not delivered yet
 * never are.  Frees the worker's side. */
void        clfx_worker_stop   (ClfxWorker      *worker);

G_END_DECLS

#endif
