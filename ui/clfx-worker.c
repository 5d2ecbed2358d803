/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-worker.c: one thread that runs the dialog's engine requests.
 *
 * The GTK thread hands over copies of the values (ClfxArgs is plain data
 * plus two strings) and gets replies back through g_idle_add, so no GTK
 * call ever happens here.  Only the latest request of each kind waits;
 * the dialog drops replies of older generations.  The OpenCL context is
 * the thread's own and lives as long as the device request stays the
 * same, so only the first run pays for the device and the kernel builds.
 *
 * Lifetime: the worker is reference counted; every reply waiting in the
 * main loop holds a reference, so a reply delivered after
 * clfx_worker_stop finds the worker, sees it stopped and is dropped. */
#include <string.h>

#include "clfx-worker.h"

typedef struct
{
  gboolean     waiting;
  guint        generation;
  ClfxArgs     args;
  ClfxSource  *source;     /* a reference, or NULL: the worker's own */
} ClfxWorkRequest;

struct _ClfxWorker
{
  gint             refs;       /* atomic */
  GThread         *thread;
  GMutex           lock;
  GCond            wake;
  gboolean         quit;       /* under lock */
  ClfxWorkRequest  pending[CLFX_N_WORK]; /* under lock */
  ClfxWorkRequest  warm_up;    /* under lock; after the others */
  gboolean         warming;    /* under lock: warm_up waits or runs */
  const ClfxImage *source;
  ClfxWorkDone     done;
  gpointer         data;
  gboolean         stopped;    /* GTK thread only */

  /* The worker thread's own. */
  ClfxContext     *context;
  gchar           *context_device;
  GHashTable      *warm;       /* the settings already run on context */
};

typedef struct
{
  ClfxWorker   *worker;
  ClfxWorkReply reply;
} ClfxDelivery;

ClfxSource *
clfx_source_new (void)
{
  ClfxSource *s = g_new0 (ClfxSource, 1);

  s->refs = 1;
  return s;
}

ClfxSource *
clfx_source_ref (ClfxSource *s)
{
  if (s)
    g_atomic_int_inc (&s->refs);
  return s;
}

void
clfx_source_unref (ClfxSource *s)
{
  if (! s || ! g_atomic_int_dec_and_test (&s->refs))
    return;
  clfx_host_image_free (&s->image);
  g_free (s);
}

static void
clfx_request_clear (ClfxWorkRequest *req)
{
  clfx_args_clear (&req->args);
  g_clear_pointer (&req->source, clfx_source_unref);
  req->waiting = FALSE;
}

static void
clfx_worker_unref (ClfxWorker *w)
{
  if (! g_atomic_int_dec_and_test (&w->refs))
    return;
  g_mutex_clear (&w->lock);
  g_cond_clear (&w->wake);
  g_free (w);
}

/* ---- replies ------------------------------------------------------------ */

static gboolean
clfx_worker_deliver (gpointer data)
{
  ClfxDelivery *d = data;

  if (! d->worker->stopped)
    d->worker->done (&d->reply, d->worker->data);
  return G_SOURCE_REMOVE;
}

static void
clfx_delivery_free (gpointer data)
{
  ClfxDelivery *d = data;

  clfx_host_image_free (&d->reply.result);
  clfx_host_image_free (&d->reply.error_map);
  clfx_run_result_clear (&d->reply.run);
  clfx_args_clear (&d->reply.args);
  g_free (d->reply.report);
  clfx_worker_unref (d->worker);
  g_free (d);
}

static ClfxDelivery *
clfx_delivery_new (ClfxWorker            *w,
                   ClfxWorkKind           kind,
                   const ClfxWorkRequest *req)
{
  ClfxDelivery *d = g_new0 (ClfxDelivery, 1);

  g_atomic_int_inc (&w->refs);
  d->worker = w;
  d->reply.kind = kind;
  d->reply.generation = req->generation;
  clfx_args_copy (&d->reply.args, &req->args);
  return d;
}

static void
clfx_delivery_post (ClfxDelivery *d)
{
  g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, clfx_worker_deliver, d,
                   clfx_delivery_free);
}

/* ---- the thread --------------------------------------------------------- */

/* The settings that decide which kernels a run builds: the choices and
 * switches (sizes and factors are kernel arguments, not build options). */
static gchar *
clfx_worker_build_key (const ClfxParams *p)
{
  const ClfxFamily *f = p->family;
  GString          *s = g_string_new (f->name);
  gchar             text[64];

  for (gint i = 0; i < f->n_params; i++)
    if (f->params[i].type == CLFX_PARAM_CHOICE
        || f->params[i].type == CLFX_PARAM_BOOL)
      g_string_append_printf (s, " %s", clfx_param_format (p, &f->params[i],
                                                           text,
                                                           sizeof text));
  return g_string_free (s, FALSE);
}

static void
clfx_worker_forget_context (ClfxWorker *w)
{
  g_clear_pointer (&w->context, clfx_context_free);
  g_hash_table_remove_all (w->warm);
}

/* A new device request gets a new context. */
static void
clfx_worker_use_device (ClfxWorker  *w,
                        const gchar *device)
{
  if (g_strcmp0 (w->context_device, device) != 0)
    {
      clfx_worker_forget_context (w);
      g_free (w->context_device);
      w->context_device = g_strdup (device);
    }
}

/* What a run of these values builds, built for the request's layout
 * before the first preview asks for it: the compiler works while the
 * dialog is made and drawn.  Nothing is delivered. */
static void
clfx_worker_warm_up (ClfxWorker            *w,
                     const ClfxWorkRequest *req)
{
  ClfxRunOptions opt = { 0 };
  ClfxRunResult  r;
  ClfxError      e = { 0 };
  gchar         *key = clfx_worker_build_key (&req->args.params);
  gint64         t0 = g_get_monotonic_time ();
  gboolean       ok;

  clfx_worker_use_device (w, req->args.device);
  opt.device = req->args.device;
  opt.context = &w->context;
  ok = clfx_run_build_ahead (&req->args.params, &req->source->image, &opt,
                             &r, &e);
  g_debug ("worker: built ahead for '%s' in %.0f ms: %s", key,
           (g_get_monotonic_time () - t0) / 1000.0,
           ! ok ? e.message : r.fallback[0] ? r.fallback : "ok");
  if (ok && w->context)
    g_hash_table_add (w->warm, g_steal_pointer (&key));
  else if (! w->context)
    g_hash_table_remove_all (w->warm);
  g_free (key);
  clfx_run_result_clear (&r);
}

static void
clfx_worker_run (ClfxWorker            *w,
                 ClfxWorkKind           kind,
                 const ClfxWorkRequest *req)
{
  ClfxDelivery  *started = clfx_delivery_new (w, kind, req);
  ClfxDelivery  *d = clfx_delivery_new (w, kind, req);
  ClfxWorkReply *r = &d->reply;
  ClfxRunOptions opt = { 0 };
  gchar         *key = clfx_worker_build_key (&req->args.params);
  ClfxError      e = { 0 };
  const ClfxImage *source = req->source ? &req->source->image : w->source;

  clfx_worker_use_device (w, req->args.device);
  started->reply.started = TRUE;
  started->reply.cold = ! clfx_device_is_reference (req->args.device)
                        && (! w->context
                            || ! g_hash_table_contains (w->warm, key));
  clfx_delivery_post (started);

  opt.device = req->args.device;
  opt.validate = req->args.validate != FALSE;
  opt.context = &w->context;
  r->ok = clfx_run (&req->args.params, source, &r->result, &opt, &r->run,
                    &r->error);
  /* A context a run failed on is gone (clfx_run freed it). */
  if (! w->context)
    g_hash_table_remove_all (w->warm);
  else
    g_hash_table_add (w->warm, g_steal_pointer (&key));
  g_free (key);

  if (r->ok && kind == CLFX_WORK_DIAGNOSTICS)
    {
      gchar **extra = clfx_args_report_extra (&req->args, -1);

      r->report = clfx_engine_text (clfx_report_json (&req->args.params,
                                                      source, &opt,
                                                      &r->run,
                                                      (const char *const *)
                                                        extra),
                                    NULL);
      g_strfreev (extra);
      /* Compared as the validation compared them; no map is no error. */
      if (r->run.validated
          && ! clfx_validate_error_map (&r->run.reference, &r->result,
                                        r->run.tolerance.abs_tol,
                                        r->run.abs_map.data
                                          ? &r->run.abs_map : NULL,
                                        r->run.tolerance.rel_tol,
                                        &r->error_map, &e))
        memset (&r->error_map, 0, sizeof r->error_map);
    }
  clfx_delivery_post (d);
}

static gpointer
clfx_worker_main (gpointer data)
{
  ClfxWorker *w = data;

  for (;;)
    {
      ClfxWorkRequest req;
      gint            kind = -1;

      gboolean        warm_up = FALSE;

      g_mutex_lock (&w->lock);
      while (! w->quit && ! w->pending[CLFX_WORK_PREVIEW].waiting
             && ! w->pending[CLFX_WORK_DIAGNOSTICS].waiting
             && ! w->warm_up.waiting)
        g_cond_wait (&w->wake, &w->lock);
      /* The preview first: it follows every change the user makes. */
      for (gint k = 0; ! w->quit && kind < 0 && k < CLFX_N_WORK; k++)
        if (w->pending[k].waiting)
          {
            kind = k;
            req = w->pending[k];
            memset (&w->pending[k], 0, sizeof w->pending[k]);
          }
      if (! w->quit && kind < 0 && w->warm_up.waiting)
        {
          warm_up = TRUE;
          req = w->warm_up;
          memset (&w->warm_up, 0, sizeof w->warm_up);
        }
      g_mutex_unlock (&w->lock);
      if (kind < 0 && ! warm_up)
        break;
      if (warm_up)
        {
          clfx_worker_warm_up (w, &req);
          g_mutex_lock (&w->lock);
          w->warming = w->warm_up.waiting;
          g_mutex_unlock (&w->lock);
        }
      else
        clfx_worker_run (w, (ClfxWorkKind) kind, &req);
      clfx_request_clear (&req);
    }
  clfx_worker_forget_context (w);
  g_free (w->context_device);
  g_hash_table_destroy (w->warm);
  return NULL;
}

/* ---- the GTK thread's side ---------------------------------------------- */

ClfxWorker *
clfx_worker_new (const ClfxImage *source,
                 ClfxWorkDone     done,
                 gpointer         data)
{
  ClfxWorker *w = g_new0 (ClfxWorker, 1);

  w->refs = 1;
  g_mutex_init (&w->lock);
  g_cond_init (&w->wake);
  w->source = source;
  w->done = done;
  w->data = data;
  w->warm = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  w->thread = g_thread_new ("clfx-dialog", clfx_worker_main, w);
  return w;
}

void
clfx_worker_submit (ClfxWorker     *w,
                    ClfxWorkKind    kind,
                    guint           generation,
                    const ClfxArgs *args,
                    ClfxSource     *source)
{
  ClfxWorkRequest *req = &w->pending[kind];

  g_mutex_lock (&w->lock);
  clfx_request_clear (req);
  clfx_args_copy (&req->args, args);
  req->source = clfx_source_ref (source);
  req->generation = generation;
  req->waiting = TRUE;
  g_cond_signal (&w->wake);
  g_mutex_unlock (&w->lock);
}

void
clfx_worker_warm (ClfxWorker     *w,
                  const ClfxArgs *args,
                  ClfxSource     *source)
{
  g_mutex_lock (&w->lock);
  clfx_request_clear (&w->warm_up);
  clfx_args_copy (&w->warm_up.args, args);
  w->warm_up.source = clfx_source_ref (source);
  w->warm_up.waiting = TRUE;
  w->warming = TRUE;
  g_cond_signal (&w->wake);
  g_mutex_unlock (&w->lock);
}

gboolean
clfx_worker_building (ClfxWorker *w)
{
  gboolean warming;

  g_mutex_lock (&w->lock);
  warming = w->warming;
  g_mutex_unlock (&w->lock);
  return warming;
}

void
clfx_worker_stop (ClfxWorker *w)
{
  if (! w)
    return;
  g_mutex_lock (&w->lock);
  w->quit = TRUE;
  for (gint k = 0; k < CLFX_N_WORK; k++)
    clfx_request_clear (&w->pending[k]);
  clfx_request_clear (&w->warm_up);
  g_cond_signal (&w->wake);
  g_mutex_unlock (&w->lock);
  g_thread_join (w->thread);
  w->stopped = TRUE;
  clfx_worker_unref (w);
}
