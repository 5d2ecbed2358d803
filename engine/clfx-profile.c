/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-profile.c: tagged events of an operation and its timings. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "clfx-context.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clfx-array.h"

double
clfx_now_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec * 1e3 + (double) ts.tv_nsec * 1e-6;
}

void
clfx_timings_clear (ClfxTimings *t)
{
  free (t->kernels);
  free (t->events);
  memset (t, 0, sizeof *t);
}

/* A copy of n bytes at p (NULL when n is 0 or memory runs out). */
static void *
copy_bytes (const void *p, size_t n)
{
  void *d = n ? malloc (n) : NULL;

  if (d)
    memcpy (d, p, n);
  return d;
}

bool
clfx_timings_copy (ClfxTimings *dst, const ClfxTimings *src)
{
  *dst = *src;
  dst->kernels = copy_bytes (src->kernels,
                             (size_t) src->n_kernels * sizeof *src->kernels);
  dst->events = copy_bytes (src->events,
                            (size_t) src->n_events * sizeof *src->events);
  if ((src->n_kernels && ! dst->kernels) || (src->n_events && ! dst->events))
    {
      free (dst->kernels);
      free (dst->events);
      dst->kernels = NULL;
      dst->events = NULL;
      dst->n_kernels = dst->n_events = 0;
      return false;
    }
  return true;
}

/* Appends n commands to t's timeline, under device `device`. */
static bool
add_events (ClfxTimings *t, const ClfxEventTime *e, int n, int device)
{
  ClfxEventTime *grown;

  if (n <= 0)
    return true;
  grown = realloc (t->events, (size_t) (t->n_events + n) * sizeof *grown);
  if (! grown)
    return false;
  t->events = grown;
  memcpy (t->events + t->n_events, e, (size_t) n * sizeof *e);
  for (int i = 0; i < n; i++)
    t->events[t->n_events + i].device = device;
  t->n_events += n;
  return true;
}

/* Index of kernel `name`'s entry in t, made (zero) if missing; -1 when
 * there is no memory for it. */
static int
kernel_entry (ClfxTimings *t, const char *name)
{
  ClfxKernelTime *grown;
  int             k;

  for (k = 0; k < t->n_kernels; k++)
    if (strcmp (t->kernels[k].name, name) == 0)
      return k;
  grown = realloc (t->kernels, (size_t) (k + 1) * sizeof *grown);
  if (! grown)
    return -1;
  t->kernels = grown;
  memset (&t->kernels[k], 0, sizeof t->kernels[k]);
  snprintf (t->kernels[k].name, sizeof t->kernels[k].name, "%s", name);
  t->n_kernels++;
  return k;
}

bool
clfx_timings_add_kernel (ClfxTimings *t, const char *name, double ms)
{
  int k = kernel_entry (t, name);

  if (k < 0)
    return false;
  t->kernels[k].ms += ms;
  t->kernels[k].launches++;
  return true;
}

bool
clfx_timings_merge (ClfxTimings *a, const ClfxTimings *b)
{
  a->upload_ms += b->upload_ms;
  a->download_ms += b->download_ms;
  a->stage_ms += b->stage_ms;
  a->upload_bytes += b->upload_bytes;
  a->download_bytes += b->download_bytes;
  a->pieces += b->pieces;
  a->tiled |= b->tiled;
  a->sampler |= b->sampler;
  a->zero_copy |= b->zero_copy;
  a->pinned |= b->pinned;
  if (! add_events (a, b->events, b->n_events, a->devices))
    return false;
  a->devices += b->devices;
  for (int i = 0; i < b->n_kernels; i++)
    {
      int k = kernel_entry (a, b->kernels[i].name);
      if (k < 0)
        return false;
      a->kernels[k].ms += b->kernels[i].ms;
      a->kernels[k].launches += b->kernels[i].launches;
    }
  return true;
}

void
clfx_context_begin (ClfxContext *ctx)
{
  for (int i = 0; i < ctx->n_events; i++)
    if (ctx->events[i].event)
      clReleaseEvent (ctx->events[i].event);
  ctx->n_events = 0;
  ctx->n_used = 0;
  ctx->stage_ms = 0;
  ctx->zero_copy_ms = 0;
}

bool
clfx_context_track (ClfxContext *ctx, cl_event ev, ClfxEventKind kind,
                    const char *tag, ClfxError *error)
{
  ClfxTrackedEvent *e;

  if (! ev)
    return true;
  if (! clfx_array_reserve (&ctx->events, &ctx->cap_events, ctx->n_events + 1,
                            sizeof *ctx->events))
    {
      clReleaseEvent (ev);
      return clfx_error_set (error, CLFX_ERR_NOMEM,
                             "out of memory for an event record");
    }
  e = &ctx->events[ctx->n_events++];
  e->event = ev;
  e->kind = kind;
  snprintf (e->tag, sizeof e->tag, "%s", tag);
  return true;
}

bool
clfx_context_finish (ClfxContext *ctx, ClfxTimings *t, ClfxError *error)
{
  bool ok = false;

  CLFX_CHECK (error, out, NULL, clFinish, ctx->upload_queue);
  CLFX_CHECK (error, out, NULL, clFinish, ctx->queue);
  CLFX_CHECK (error, out, NULL, clFinish, ctx->download_queue);
  for (int i = 0; i < ctx->n_events; i++)
    {
      ClfxTrackedEvent *e = &ctx->events[i];
      cl_ulong          start = 0, end = 0;
      cl_int            status = CL_COMPLETE;
      double            ms;

      /* An asynchronous failure shows only in the event's status. */
      CLFX_CHECK (error, out, e->tag, clGetEventInfo, e->event,
                  CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                  NULL);
      if (status < 0)
        {
          clfx_error_set_cl (error, status, "command execution", e->tag,
                             __FILE__, __LINE__);
          goto out;
        }
      CLFX_CHECK (error, out, e->tag, clGetEventProfilingInfo, e->event,
                  CL_PROFILING_COMMAND_START, sizeof start, &start, NULL);
      CLFX_CHECK (error, out, e->tag, clGetEventProfilingInfo, e->event,
                  CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
      ms = (double) (end - start) * 1e-6;
      if (! t)
        continue;
      ClfxEventTime et = { "", e->kind == CLFX_EV_UPLOAD     ? 'u'
                               : e->kind == CLFX_EV_DOWNLOAD ? 'd'
                                                             : 'k',
                           0, start, end };
      snprintf (et.tag, sizeof et.tag, "%s", e->tag);
      if (! add_events (t, &et, 1, 0))
        {
          clfx_error_set (error, CLFX_ERR_NOMEM,
                          "out of memory for the timeline");
          goto out;
        }
      if (e->kind == CLFX_EV_UPLOAD)
        t->upload_ms += ms;
      else if (e->kind == CLFX_EV_DOWNLOAD)
        t->download_ms += ms;
      else if (! clfx_timings_add_kernel (t, e->tag, ms))
        {
          clfx_error_set (error, CLFX_ERR_NOMEM,
                          "out of memory for kernel timings");
          goto out;
        }
    }
  if (t)
    {
      t->stage_ms += ctx->stage_ms;
      t->upload_ms += ctx->zero_copy_ms;
      t->zero_copy = ctx->zero_copy;
    }
  ctx->stage_ms = 0;
  ctx->zero_copy_ms = 0;
  ok = true;
out:
  for (int i = 0; i < ctx->n_events; i++)
    clReleaseEvent (ctx->events[i].event);
  ctx->n_events = 0;
  return ok;
}
