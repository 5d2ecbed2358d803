/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-exec.c: how a variant's OpenCL path runs over the whole image: in
 * streamed bands of rows where the image fits the device
 * (clfx-exec-stream.c), else in tiles (clfx-exec-tiles.c), as
 * clfx-exec-plan.c cuts it.  Here: what both runs share, and the whole
 * run.
 *
 * Several devices (device "all"): the bands or tiles are split into one
 * contiguous run per device, each device on a thread of its own with its
 * own context, source image and result rows. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "clfx-exec-private.h"
#include "clfx-parallel.h"
#include "../kernels/clfx-common.h"

/* ---- small helpers --------------------------------------------------------- */

void
exec_release_event (cl_event *ev)
{
  if (*ev)
    clReleaseEvent (*ev);
  *ev = NULL;
}

/* Tracks *ev for the timings and keeps the caller's reference; on
 * failure both are gone and *ev is NULL. */
bool
exec_track_kept (ClfxContext *ctx, cl_event *ev, ClfxEventKind kind,
                 const char *tag, ClfxError *error)
{
  clRetainEvent (*ev);
  if (clfx_context_track (ctx, *ev, kind, tag, error))
    return true;
  exec_release_event (ev);
  return false;
}

bool
exec_wait_event (cl_event ev, const char *what, ClfxError *error)
{
  if (ev)
    CLFX_CHECK (error, fail, what, clWaitForEvents, 1, &ev);
  return true;
fail:
  return false;
}

/* Bytes of one source texel on the device (gray may travel as RGBA). */
size_t
exec_device_pixel (const ClfxImage *img, bool gray_in_rgba)
{
  return (gray_in_rgba ? 4 : (size_t) img->channels)
         * clfx_depth_size (img->depth);
}

/* Checks the guard bytes of result rows [y0, y1) as laid out in host
 * memory at p (p points at the first row's pixels; row pitch `pitch`, the
 * guard after each row), plus the g bytes before p when `lead`. */
bool
exec_check_rows (const unsigned char *p, size_t row, size_t pitch, size_t g,
                 int rows, bool lead, size_t base, ClfxError *error)
{
  if (! g)
    return true;
  if (lead && ! clfx_check_guard (p - g, g, base - g, error))
    return false;
  for (int y = 0; y < rows; y++)
    if (! clfx_check_guard (p + (size_t) y * pitch + row, g,
                            base + (size_t) y * pitch + row, error))
      return false;
  return true;
}

void
exec_copy_out_rows (ClfxContext *ctx, ClfxImage *dst, int x, int y, int width,
                    int rows, const unsigned char *p, size_t pitch)
{
  double t0 = clfx_now_ms ();
  size_t px = clfx_image_pixel_size (dst);

  clfx_parallel_copy_rows ((char *) dst->data + (size_t) y * dst->stride
                             + (size_t) x * px,
                           dst->stride, p, pitch, (size_t) width * px, rows);
  ctx->stage_ms += clfx_now_ms () - t0;
}

/* Runs the variant on the graph's current tile between a barrier on
 * `wait` (NULL: none) and a marker whose event is returned in *done. */
bool
exec_run_tile (ClfxGraph *g, cl_event wait, cl_event *done, ClfxError *error)
{
  ClfxContext *ctx = g->ctx;

  if (wait)
    CLFX_CHECK (error, fail, "kernel queue", clEnqueueBarrierWithWaitList,
                ctx->queue, 1, &wait, NULL);
  if (! g->variant->run_cl (g, g->params, error))
    return false;
  CLFX_CHECK (error, fail, "kernel queue", clEnqueueMarkerWithWaitList,
              ctx->queue, 0, NULL, done);
  return true;
fail:
  return false;
}

/* ---- the source on the device ----------------------------------------------- */

/* A read-only source object of width x height texels: an image of format
 * fmt, or a buffer of `pitch`-byte rows.  host: the caller's pixels to use
 * in place (a device that works in host memory), with their pitch. */
cl_mem
exec_source_object (ClfxContext *ctx, bool buffer, const cl_image_format *fmt,
                    int width, int height, void *host, size_t pitch,
                    bool writable, ClfxError *error)
{
  cl_mem_flags  flags = (writable ? CL_MEM_READ_WRITE : CL_MEM_READ_ONLY)
                        | (host ? CL_MEM_USE_HOST_PTR : 0);
  cl_image_desc desc = { .image_type = CL_MEM_OBJECT_IMAGE2D,
                         .image_width = (size_t) width,
                         .image_height = (size_t) height,
                         .image_row_pitch = host ? pitch : 0 };
  cl_mem        mem = NULL;

  /* READ_ONLY, so the cast of host drops no promise; writable only for a
   * run over its source, whose caller gave the pixels up. */
  if (buffer)
    CLFX_CREATE (mem, error, fail, "source", clCreateBuffer, ctx->context,
                 flags, pitch * (size_t) (height > 0 ? height : 1), host);
  else
    CLFX_CREATE (mem, error, fail, "source", clCreateImage, ctx->context,
                 flags, fmt, &desc, host);
fail:
  return mem;
}

/* Enqueues the write of `rows` rows from host (pitch from_pitch) into
 * rows y0 ... of the source object (device row pitch dev_row). */
bool
exec_write_source_rows (ClfxContext *ctx, cl_mem mem, bool buffer, int width,
                        int y0, int rows, const void *from, size_t from_pitch,
                        size_t dev_row, cl_event *ev, ClfxError *error)
{
  size_t origin[3] = { 0, (size_t) y0, 0 };
  size_t region[3] = { (size_t) width, (size_t) rows, 1 };

  if (! buffer)
    CLFX_CHECK (error, fail, "source", clEnqueueWriteImage,
                ctx->upload_queue, mem, CL_FALSE, origin, region, from_pitch,
                0, from, 0, NULL, ev);
  else if (from_pitch == dev_row)
    CLFX_CHECK (error, fail, "source", clEnqueueWriteBuffer,
                ctx->upload_queue, mem, CL_FALSE, (size_t) y0 * dev_row,
                (size_t) rows * dev_row, from, 0, NULL, ev);
  else
    {
      size_t buf_origin[3] = { 0, (size_t) y0, 0 };
      size_t host_origin[3] = { 0, 0, 0 };
      size_t bytes[3] = { dev_row, (size_t) rows, 1 };
      CLFX_CHECK (error, fail, "source", clEnqueueWriteBufferRect,
                  ctx->upload_queue, mem, CL_FALSE, buf_origin, host_origin,
                  bytes, dev_row, 0, from_pitch, 0, from, 0, NULL, ev);
    }
  return true;
fail:
  return false;
}

/* ---- the whole run ----------------------------------------------------------- */

static void *
dev_thread (void *data)
{
  DevRun *r = data;

  clfx_context_begin (r->ctx);
  r->ok = r->tiled ? exec_tiles_run (r) : exec_stream_run (r);
  /* Finish even after a failure: it waits for queued work and releases
   * the events. */
  r->ok = clfx_context_finish (r->ctx, r->ok ? &r->t : NULL,
                               r->ok ? &r->error : NULL)
          && r->ok;
  r->t.devices = 1;
  r->t.pieces = r->n_tiles;
  r->t.tiled = r->tiled;
  return NULL;
}

bool
clfx_exec (ClfxContext *ctx, const ClfxParams *p, ClfxPlan *plan,
           const ClfxImage *src, ClfxImage *dst, ClfxTimings *t,
           ClfxProbes *probes, ClfxError *error)
{
  const ClfxVariant *v = clfx_params_variant (p);
  int                n_dev = 1 + ctx->n_peers, n_tiles = 0;
  bool               tiled = false, ok = true;
  ClfxTile          *tiles;
  DevRun            *runs;
  pthread_t         *threads;
  bool              *started;

  memset (t, 0, sizeof *t);
  if (dst->data == src->data && ! clfx_exec_over_source_ok (ctx, plan, src))
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "the result shares the source's pixels, and %s "
                           "cannot be made over its source on %s", v->name,
                           ctx->device.name);
  tiles = exec_plan_tiles (ctx, v, plan, src, dst, n_dev, &tiled, &n_tiles,
                           error);
  if (! tiles)
    return false;
  if (n_dev > n_tiles)
    n_dev = n_tiles;
  /* The hardware sampler where the variant allows it and it is the fast
   * path (a GPU's texture units), never for tiles (clfx-exec-tiles.c
   * says why). */
  plan->use_sampler
    = plan->sampler_ok && ! tiled && ! clfx_context_source_buffer (ctx)
      && (ctx->tuning.sampler == CLFX_SAMPLER_HARDWARE
          || (ctx->tuning.sampler == CLFX_SAMPLER_AUTO
              && ! strcmp (ctx->device.type, "gpu")));
  plan->srgb_tables = clfx_context_source_buffer (ctx);
  runs = calloc ((size_t) n_dev, sizeof *runs);
  threads = calloc ((size_t) n_dev, sizeof *threads);
  started = calloc ((size_t) n_dev, sizeof *started);
  if (! runs || ! threads || ! started)
    {
      free (tiles);
      free (runs);
      free (threads);
      free (started);
      return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
    }
  for (int d = 0; d < n_dev; d++)
    {
      int first = (int) ((long long) n_tiles * d / n_dev);
      int last = (int) ((long long) n_tiles * (d + 1) / n_dev);
      runs[d].ctx = d == 0 ? ctx : ctx->peers[d - 1];
      runs[d].ctx->guard_bytes = ctx->guard_bytes;
      runs[d].p = p;
      runs[d].plan = plan;
      runs[d].src = src;
      runs[d].dst = dst;
      runs[d].tiles = tiles + first;
      runs[d].n_tiles = last - first;
      runs[d].tiled = tiled;
      /* Probes come from the first device (the same values elsewhere). */
      runs[d].probes = d == 0 ? probes : NULL;
    }
  for (int d = 1; d < n_dev; d++)
    started[d] = pthread_create (&threads[d], NULL, dev_thread, &runs[d]) == 0;
  dev_thread (&runs[0]);
  for (int d = 1; d < n_dev; d++)
    {
      if (started[d])
        pthread_join (threads[d], NULL);
      else
        dev_thread (&runs[d]);
    }
  for (int d = 0; d < n_dev; d++)
    {
      if (! runs[d].ok && ok)
        {
          *error = runs[d].error;
          ok = false;
        }
      if (ok && ! clfx_timings_merge (t, &runs[d].t))
        ok = clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
      clfx_timings_clear (&runs[d].t);
    }
  t->sampler = plan->use_sampler;
  free (tiles);
  free (runs);
  free (threads);
  free (started);
  return ok;
}
