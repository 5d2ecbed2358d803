/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-exec-stream.c: a run in streamed bands, where the image fits the
 * device.
 *
 * The source is one image on the device, uploaded in bands of rows on the
 * upload queue; the result is cut into bands of rows, and each band's
 * kernels wait (a barrier on the kernel queue) only for the upload of the
 * last source row they read, and its download (on the download queue)
 * only for its kernels.  The host stages band k + 1 while the device
 * copies band k, and copies band b - 1 out while band b comes down: with
 * two slots per direction, every copy overlaps another.  Kernels see the
 * whole source, so a streamed run is the one-band run, bit for bit, the
 * hardware sampler included. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "clfx-exec-private.h"
#include "clfx-parallel.h"
#include "../kernels/clfx-common.h"

/* The source rows (after addressing) a source rectangle reads, as a range
 * [*lo, *hi) of rows of the source; conservative where addressing wraps. */
static void
addressed_rows (const ClfxRect *in, int height, int mode, int *lo, int *hi)
{
  int a = in->y, b = in->y + in->height; /* [a, b) before addressing */

  if (in->height <= 0)
    {
      *lo = *hi = 0;
      return;
    }
  if (a >= 0 && b <= height)
    {
      *lo = a;
      *hi = b;
      return;
    }
  if (mode == CLFX_ADDR_REPEAT || mode == CLFX_ADDR_MIRRORED)
    {
      *lo = 0;
      *hi = height;
      return;
    }
  /* clamp-to-edge and none clamp to the edge rows; clamp reads no row
   * outside (the border colour). */
  *lo = a < 0 ? 0 : a >= height ? height - 1 : a;
  *hi = b > height ? height : b <= 0 ? 1 : b;
  if (mode == CLFX_ADDR_CLAMP && (b <= 0 || a >= height))
    *lo = *hi = 0;
}

/* Source rows [y0, y1) (whole rows) in the device's layout at out. */
static void
copy_source_rows (const ClfxImage *src, bool gray_in_rgba, int y0, int y1,
                  void *out, size_t out_stride)
{
  if (gray_in_rgba)
    clfx_expand_gray (src, 0, y0, src->width, y1 - y0, out, out_stride);
  else
    clfx_parallel_copy_rows (out, out_stride,
                             (const char *) src->data
                               + (size_t) y0 * src->stride,
                             src->stride,
                             (size_t) src->width * clfx_image_pixel_size (src),
                             y1 - y0);
}

/* The result buffer for rows [r0, r1) of dst (whole rows), with the guard
 * band around every row; in place in dst where the device works in host
 * memory and nothing surrounds the rows. */
static cl_mem
result_buffer (ClfxContext *ctx, ClfxImage *dst, int r0, int r1, size_t g,
               bool *in_place, ClfxError *error)
{
  size_t row = (size_t) dst->width * clfx_image_pixel_size (dst);
  size_t bytes = g + (size_t) (r1 - r0) * (row + g);
  cl_mem buf = NULL;

  *in_place = false;
  if (bytes > ctx->device.max_alloc)
    {
      clfx_error_set (error, CLFX_ERR_UNSUPPORTED,
                      "the %dx%d result needs %zu bytes, more than the "
                      "device's largest allocation (%llu)", dst->width,
                      r1 - r0, bytes,
                      (unsigned long long) ctx->device.max_alloc);
      return NULL;
    }
  if (ctx->zero_copy && g == 0 && dst->stride == row)
    {
      /* The device writes into the caller's rows themselves (and may
       * read back what it wrote: reinhard05's map on CPU devices). */
      CLFX_CREATE (buf, error, fail, "result", clCreateBuffer, ctx->context,
                   CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes,
                   (char *) dst->data + (size_t) r0 * dst->stride);
      *in_place = true;
    }
  else
    /* On a device that works in host memory this is host memory that the
     * download only maps. */
    CLFX_CREATE (buf, error, fail, "result", clCreateBuffer, ctx->context,
                 CL_MEM_READ_WRITE
                   | (ctx->zero_copy ? CL_MEM_ALLOC_HOST_PTR : 0),
                 bytes, NULL);
  if (g)
    {
      unsigned char pattern = CLFX_GUARD_BYTE;
      cl_event      ev = NULL;
      CLFX_CHECK (error, fail, "guard band", clEnqueueFillBuffer, ctx->queue,
                  buf, &pattern, 1, 0, bytes, 0, NULL, &ev);
      clReleaseEvent (ev);
    }
  return buf;
fail:
  if (buf)
    clReleaseMemObject (buf);
  return NULL;
}

/* ---- streaming ------------------------------------------------------------- */

typedef struct
{
  DevRun     *r;
  ClfxGraph   g;
  bool        gray_in_rgba;
  size_t      dev_row;       /* bytes of a source row on the device */
  int         band_rows;     /* source rows per upload band */
  int         need_lo, need_hi, uploaded; /* source rows */
  int         n_uploads;
  cl_event    up_last;       /* the last upload (NULL: none yet) */
  cl_event    up_slot[2];    /* the upload from each staging slot */
  bool        pinned_src, pinned_dst;
  int         r0, r1;        /* result rows of this device */
  size_t      row, pitch, guard;
  cl_mem      result;
  bool        in_place;
  /* The result is made over the source (clfx_exec_over_source_ok): one
   * buffer, the caller's pixels, is both. */
  bool        over_source;
  cl_event   *kernels, *downloads;
} Stream;

static bool
stream_upload (Stream *s, int y1, ClfxError *error)
{
  ClfxContext     *ctx = s->r->ctx;
  const ClfxImage *src = s->r->src;

  if (y1 > s->need_hi)
    y1 = s->need_hi;
  while (s->uploaded < y1)
    {
      int         a = s->uploaded;
      int         z = a + s->band_rows < s->need_hi ? a + s->band_rows
                                                    : s->need_hi;
      int         slot = s->n_uploads % 2;
      const void *from;
      size_t      from_pitch;
      cl_event    ev = NULL;

      if (s->pinned_src)
        {
          from = (const char *) src->data + (size_t) a * src->stride;
          from_pitch = src->stride;
        }
      else
        {
          void  *stage;
          double t0;
          /* The slot's previous upload must have left it. */
          if (! exec_wait_event (s->up_slot[slot], "upload", error))
            return false;
          exec_release_event (&s->up_slot[slot]);
          stage = clfx_context_staging (ctx, 0, slot,
                                        s->dev_row * (size_t) s->band_rows,
                                        error);
          if (! stage)
            return false;
          t0 = clfx_now_ms ();
          copy_source_rows (src, s->gray_in_rgba, a, z, stage, s->dev_row);
          ctx->stage_ms += clfx_now_ms () - t0;
          from = stage;
          from_pitch = s->dev_row;
        }
      if (! exec_write_source_rows (ctx, s->g.src_mem, s->g.src_buffer,
                                    src->width, a, z - a, from, from_pitch,
                                    s->dev_row, &ev, error))
        return false;
      if (! exec_track_kept (ctx, &ev, CLFX_EV_UPLOAD, "upload", error))
        return false;
      exec_release_event (&s->up_last);
      s->up_last = ev;
      if (! s->pinned_src)
        {
          clRetainEvent (ev);
          s->up_slot[slot] = ev;
        }
      s->uploaded = z;
      s->n_uploads++;
    }
  return true;
}

/* Bytes [*start, *end) of the result buffer that band b's download
 * brings: its rows with their guards (and the leading guard for the
 * first band). */
static void
band_bytes (const Stream *s, const ClfxTile *t, size_t *start, size_t *end)
{
  *start = t->out.y == s->r0 ? 0
                             : s->guard + (size_t) (t->out.y - s->r0)
                                            * s->pitch;
  *end = s->guard + (size_t) (t->out.y + t->out.height - s->r0) * s->pitch;
}

static bool
stream_download (Stream *s, int b, ClfxError *error)
{
  ClfxContext    *ctx = s->r->ctx;
  const ClfxTile *t = &s->r->tiles[b];
  size_t          start, end;
  void           *to;
  cl_event        ev = NULL;

  band_bytes (s, t, &start, &end);
  if (s->pinned_dst)
    to = (char *) s->r->dst->data + (size_t) t->out.y * s->r->dst->stride;
  else if (! (to = clfx_context_staging (ctx, 1, b % 2, end - start, error)))
    return false;
  CLFX_CHECK (error, fail, "result", clEnqueueReadBuffer,
              ctx->download_queue, s->result, CL_FALSE, start, end - start,
              to, 1, &s->kernels[b], &ev);
  if (! exec_track_kept (ctx, &ev, CLFX_EV_DOWNLOAD, "download", error))
    return false;
  s->downloads[b] = ev;
  return true;
fail:
  return false;
}

static bool
stream_copy_out (Stream *s, int b, ClfxError *error)
{
  ClfxContext         *ctx = s->r->ctx;
  const ClfxTile      *t = &s->r->tiles[b];
  size_t               start, end, lead;
  const unsigned char *p;

  if (! exec_wait_event (s->downloads[b], "download", error))
    return false;
  if (s->pinned_dst)
    return true;
  band_bytes (s, t, &start, &end);
  lead = t->out.y == s->r0 ? s->guard : 0;
  p = (const unsigned char *) ctx->staging[1][b % 2].ptr + lead;
  if (! exec_check_rows (p, s->row, s->pitch, s->guard, t->out.height,
                         lead > 0, start + lead, error))
    return false;
  exec_copy_out_rows (ctx, s->r->dst, 0, t->out.y, s->r->dst->width,
                      t->out.height, p, s->pitch);
  return true;
}

/* Device that works in host memory: one mapping of the whole result. */
static bool
stream_map_result (Stream *s, ClfxError *error)
{
  ClfxContext   *ctx = s->r->ctx;
  size_t         bytes = s->guard + (size_t) (s->r1 - s->r0) * s->pitch;
  unsigned char *p = NULL;
  cl_event       ev = NULL;
  bool           ok = false;

  CLFX_CREATE (p, error, fail, "result", clEnqueueMapBuffer, ctx->queue,
               s->result, CL_TRUE, CL_MAP_READ, 0, bytes, 0, NULL, &ev);
  clfx_maps_opened ();
  if (! clfx_context_track (ctx, ev, CLFX_EV_DOWNLOAD, "download", error))
    goto out;
  if (! exec_check_rows (p + s->guard, s->row, s->pitch, s->guard,
                         s->r1 - s->r0, true, s->guard, error))
    goto out;
  if (! s->in_place)
    exec_copy_out_rows (ctx, s->r->dst, 0, s->r0, s->r->dst->width,
                        s->r1 - s->r0, p + s->guard, s->pitch);
  ok = true;
out:
  {
    /* An error above stays the one reported. */
    ClfxError  later = { 0 };
    ClfxError *e = ok ? error : &later;
    CLFX_CHECK (e, unmap_failed, "result", clEnqueueUnmapMemObject,
                ctx->queue, s->result, p, 0, NULL, NULL);
    clfx_maps_closed ();
  }
  return ok;
unmap_failed:
  clfx_context_unmap_again (ctx, s->result, p);
fail:
  return false;
}

static bool
stream_source (Stream *s, bool buffer, cl_mem *mem, ClfxError *error)
{
  ClfxContext     *ctx = s->r->ctx;
  const ClfxImage *src = s->r->src;
  cl_image_format  fmt = { 0, 0 };

  s->gray_in_rgba = false;
  if (! buffer
      && ! clfx_context_image_format (ctx, src->width, src->height,
                                      src->channels, src->depth, &fmt,
                                      &s->gray_in_rgba, error))
    return false;
  s->dev_row = (size_t) src->width * exec_device_pixel (src, s->gray_in_rgba);
  if (ctx->zero_copy && ! s->gray_in_rgba)
    {
      /* The device reads the caller's pixels where they are. */
      double t0 = clfx_now_ms ();
      *mem = exec_source_object (ctx, buffer, &fmt, src->width,
                                 src->height, src->data, src->stride,
                                 s->over_source, error);
      ctx->zero_copy_ms += clfx_now_ms () - t0;
      s->uploaded = s->need_hi;
      s->dev_row = src->stride;
      return *mem != NULL;
    }
  *mem = exec_source_object (ctx, buffer, &fmt, src->width, src->height, NULL,
                             s->dev_row, false, error);
  return *mem != NULL;
}

bool
exec_stream_run (DevRun *r)
{
  ClfxContext *ctx = r->ctx;
  ClfxError   *error = &r->error;
  Stream       s;
  size_t       band;
  bool         ok = false;

  memset (&s, 0, sizeof s);
  s.r = r;
  s.over_source = r->dst->data == r->src->data;
  s.kernels = calloc ((size_t) r->n_tiles, sizeof *s.kernels);
  s.downloads = calloc ((size_t) r->n_tiles, sizeof *s.downloads);
  if (! s.kernels || ! s.downloads)
    {
      clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
      goto out;
    }
  /* The source rows this device's bands read. */
  s.need_lo = r->src->height;
  s.need_hi = 0;
  for (int b = 0; b < r->n_tiles; b++)
    {
      int lo, hi;
      addressed_rows (&r->tiles[b].in, r->src->height, r->plan->addressing,
                      &lo, &hi);
      if (lo < hi)
        {
          s.need_lo = lo < s.need_lo ? lo : s.need_lo;
          s.need_hi = hi > s.need_hi ? hi : s.need_hi;
        }
    }
  if (s.need_lo >= s.need_hi)
    s.need_lo = s.need_hi = 0;
  s.uploaded = s.need_lo;
  {
    cl_mem mem = NULL;
    bool   buffer = clfx_context_source_buffer (ctx);
    bool   made = stream_source (&s, buffer, &mem, error);
    clfx_graph_init (&s.g, ctx, r->p, r->plan, r->src, r->dst,
                     s.gray_in_rgba, buffer, r->probes);
    s.g.src_mem = mem;
    s.g.src_pitch = (cl_long) s.dev_row;
    if (! made)
      goto out;
  }
  band = ctx->tuning.band_bytes ? ctx->tuning.band_bytes
                                : CLFX_BAND_BYTES_DEFAULT;
  s.band_rows = (int) (band / (s.dev_row ? s.dev_row : 1));
  s.band_rows = s.band_rows < 1 ? 1 : s.band_rows;
  s.pinned_src = clfx_context_reads_pinned (ctx, r->src) && ! s.gray_in_rgba;
  s.r0 = r->tiles[0].out.y;
  s.r1 = r->tiles[r->n_tiles - 1].out.y + r->tiles[r->n_tiles - 1].out.height;
  s.row = (size_t) r->dst->width * clfx_image_pixel_size (r->dst);
  s.guard = clfx_context_guard (ctx);
  s.pitch = s.row + s.guard;
  s.pinned_dst = clfx_context_reads_pinned (ctx, r->dst) && ! s.guard
                 && ! ctx->zero_copy && r->dst->stride == s.row;
  r->t.pinned = s.pinned_src && s.pinned_dst;
  if (s.over_source)
    {
      /* clfx_exec checked that this is the whole image in one piece, in
       * host memory, without a guard band. */
      CLFX_CHECK (error, out, "result over the source", clRetainMemObject,
                  s.g.src_mem);
      s.result = s.g.src_mem;
      s.in_place = true;
    }
  else if (! (s.result = result_buffer (ctx, r->dst, s.r0, s.r1, s.guard,
                                        &s.in_place, error)))
    goto out;
  s.g.dst_mem = s.result;
  s.g.dst_pitch = (cl_long) s.pitch;
  s.g.src_view = (cl_int4) { { 0, 0, r->src->width, r->src->height } };
  s.g.src_flags = r->plan->addressing;

  for (int b = 0; b < r->n_tiles; b++)
    {
      const ClfxTile *t = &r->tiles[b];
      int             lo, hi;

      addressed_rows (&t->in, r->src->height, r->plan->addressing, &lo, &hi);
      if (! stream_upload (&s, hi, error))
        goto out;
      s.g.tile = *t;
      s.g.tile_index = b;
      s.g.dst_offset = (cl_long) (s.guard + (size_t) (t->out.y - s.r0)
                                              * s.pitch);
      if (! exec_run_tile (&s.g, s.up_last, &s.kernels[b], error))
        goto out;
      if (! ctx->zero_copy && ! stream_download (&s, b, error))
        goto out;
      if (! ctx->zero_copy && b > 0 && ! stream_copy_out (&s, b - 1, error))
        goto out;
    }
  if (ctx->zero_copy)
    ok = stream_map_result (&s, error);
  else
    ok = stream_copy_out (&s, r->n_tiles - 1, error);
out:
  /* Nothing may still write into staging or the caller's rows. */
  clFinish (ctx->upload_queue);
  clFinish (ctx->queue);
  clFinish (ctx->download_queue);
  for (int b = 0; b < r->n_tiles && s.kernels; b++)
    {
      exec_release_event (&s.kernels[b]);
      if (s.downloads)
        exec_release_event (&s.downloads[b]);
    }
  free (s.kernels);
  free (s.downloads);
  exec_release_event (&s.up_last);
  exec_release_event (&s.up_slot[0]);
  exec_release_event (&s.up_slot[1]);
  if (s.g.src_mem)
    clReleaseMemObject (s.g.src_mem);
  if (s.result)
    clReleaseMemObject (s.result);
  clfx_graph_release (&s.g);
  return ok;
}
