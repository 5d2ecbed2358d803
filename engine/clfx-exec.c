/* clfx-exec.c: how a variant's OpenCL path runs over the whole image.
 *
 * Streaming (the image fits the device): the source is one image on the
 * device, uploaded in bands of rows on the upload queue; the result is cut
 * into bands of rows, and each band's kernels wait (a barrier on the
 * kernel queue) only for the upload of the last source row they read, and
 * its download (on the download queue) only for its kernels.  The host
 * stages band k + 1 while the device copies band k, and copies band b - 1
 * out while band b comes down: with two slots per direction, every copy
 * overlaps another.  Kernels see the whole source, so a streamed run is
 * the one-band run, bit for bit, the hardware sampler included.
 *
 * Tiles (the image does not fit: the device's 2D image limit, its largest
 * allocation, a memory budget; or CLFX_TILE): each tile's source rectangle,
 * halo included, is gathered by the host with clfx_address (what lies
 * outside the source is filled in as the addressing mode says), uploaded
 * into an image of its own and read by the kernels as it is.  Kernels index
 * texels in source coordinates either way, so a tiled run computes the same
 * sums from the same texels: bit for bit the untiled result.  The hardware
 * sampler, whose arithmetic depends on the image it reads, is not used for
 * tiles.
 *
 * Several devices (device "all"): the bands or tiles are split into one
 * contiguous run per device, each device on a thread of its own with its
 * own context, source image and result rows. */
#define _POSIX_C_SOURCE 200809L
#include "clfx-exec.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clfx-graph-private.h"
#include "clfx-parallel.h"
#include "../kernels/clfx-common.h"

/* Bytes per streamed band unless CLFX_BAND_BYTES says otherwise: large
 * enough that a band's enqueues (a few microseconds each) are noise next
 * to its transfer (0.6 ms at the H200's 55 GB/s), small enough that the
 * first band's upload and the last band's download, which nothing
 * overlaps, are a small part of the whole. */
#define CLFX_BAND_BYTES_DEFAULT ((size_t) 32 << 20)
#define CLFX_MAX_BANDS 64

typedef struct
{
  ClfxContext      *ctx;
  const ClfxParams *p;
  const ClfxPlan   *plan;
  const ClfxImage  *src;
  ClfxImage        *dst;
  const ClfxTile   *tiles;
  int               n_tiles;
  bool              tiled;
  ClfxProbes       *probes;
  ClfxTimings       t;
  ClfxError         error;
  bool              ok;
} DevRun;

/* ---- small helpers --------------------------------------------------------- */

static void
release_event (cl_event *ev)
{
  if (*ev)
    clReleaseEvent (*ev);
  *ev = NULL;
}

/* Tracks *ev for the timings and keeps the caller's reference; on
 * failure both are gone and *ev is NULL. */
static bool
track_kept (ClfxContext *ctx, cl_event *ev, ClfxEventKind kind,
            const char *tag, ClfxError *error)
{
  clRetainEvent (*ev);
  if (clfx_context_track (ctx, *ev, kind, tag, error))
    return true;
  release_event (ev);
  return false;
}

static bool
wait_event (cl_event ev, const char *what, ClfxError *error)
{
  if (ev)
    CLFX_CHECK (error, fail, what, clWaitForEvents, 1, &ev);
  return true;
fail:
  return false;
}

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

/* Bytes of one source texel on the device (gray may travel as RGBA). */
static size_t
device_pixel (const ClfxImage *img, bool gray_in_rgba)
{
  return (gray_in_rgba ? 4 : (size_t) img->channels)
         * clfx_depth_size (img->depth);
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

/* The tile's source rectangle, addressed texel by texel as the kernels'
 * clfx_fetch would, in the device's layout at out: the tile then holds
 * exactly what an untiled run reads. */
static void
gather_tile (const ClfxImage *src, const ClfxRect *in, int mode,
             bool gray_in_rgba, unsigned char *out, size_t out_stride)
{
  size_t px = clfx_image_pixel_size (src);
  size_t dpx = device_pixel (src, gray_in_rgba);
  int    inside0 = in->x < 0 ? 0 : in->x;
  int    inside1 = in->x + in->width > src->width ? src->width
                                                  : in->x + in->width;

  for (int r = 0; r < in->height; r++)
    {
      int            j = clfx_address (in->y + r, src->height, mode);
      unsigned char *o = out + (size_t) r * out_stride;

      if (j < 0)
        {
          memset (o, 0, (size_t) in->width * dpx);
          continue;
        }
      for (int x = in->x; x < in->x + in->width;)
        {
          if (x >= inside0 && x < inside1)
            {
              /* The run inside the source, in one copy. */
              int n = inside1 - x;
              if (gray_in_rgba)
                clfx_expand_gray (src, x, j, n, 1, o + (size_t) (x - in->x)
                                                     * dpx, 0);
              else
                memcpy (o + (size_t) (x - in->x) * dpx,
                        (const char *) src->data + (size_t) j * src->stride
                          + (size_t) x * px,
                        (size_t) n * px);
              x += n;
              continue;
            }
          {
            int            i = clfx_address (x, src->width, mode);
            unsigned char *p = o + (size_t) (x - in->x) * dpx;
            if (i < 0)
              memset (p, 0, dpx);
            else if (gray_in_rgba)
              clfx_expand_gray (src, i, j, 1, 1, p, 0);
            else
              memcpy (p, (const char *) src->data + (size_t) j * src->stride
                           + (size_t) i * px, px);
            x++;
          }
        }
    }
}

/* Checks the guard bytes of result rows [y0, y1) as laid out in host
 * memory at p (p points at the first row's pixels; row pitch `pitch`, the
 * guard after each row), plus the g bytes before p when `lead`. */
static bool
check_rows (const unsigned char *p, size_t row, size_t pitch, size_t g,
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

static void
copy_out_rows (ClfxContext *ctx, ClfxImage *dst, int x, int y, int width,
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
static bool
run_tile (ClfxGraph *g, cl_event wait, cl_event *done, ClfxError *error)
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

/* ---- the source on the device ----------------------------------------------- */

/* A read-only source object of width x height texels: an image of format
 * fmt, or a buffer of `pitch`-byte rows.  host: the caller's pixels to use
 * in place (a device that works in host memory), with their pitch. */
static cl_mem
source_object (ClfxContext *ctx, bool buffer, const cl_image_format *fmt,
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
static bool
write_source_rows (ClfxContext *ctx, cl_mem mem, bool buffer, int width,
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
          if (! wait_event (s->up_slot[slot], "upload", error))
            return false;
          release_event (&s->up_slot[slot]);
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
      if (! write_source_rows (ctx, s->g.src_mem, s->g.src_buffer,
                               src->width, a, z - a, from, from_pitch,
                               s->dev_row, &ev, error))
        return false;
      if (! track_kept (ctx, &ev, CLFX_EV_UPLOAD, "upload", error))
        return false;
      release_event (&s->up_last);
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
  if (! track_kept (ctx, &ev, CLFX_EV_DOWNLOAD, "download", error))
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

  if (! wait_event (s->downloads[b], "download", error))
    return false;
  if (s->pinned_dst)
    return true;
  band_bytes (s, t, &start, &end);
  lead = t->out.y == s->r0 ? s->guard : 0;
  p = (const unsigned char *) ctx->staging[1][b % 2].ptr + lead;
  if (! check_rows (p, s->row, s->pitch, s->guard, t->out.height, lead > 0,
                    start + lead, error))
    return false;
  copy_out_rows (ctx, s->r->dst, 0, t->out.y, s->r->dst->width,
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
  if (! check_rows (p + s->guard, s->row, s->pitch, s->guard, s->r1 - s->r0,
                    true, s->guard, error))
    goto out;
  if (! s->in_place)
    copy_out_rows (ctx, s->r->dst, 0, s->r0, s->r->dst->width, s->r1 - s->r0,
                   p + s->guard, s->pitch);
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
  s->dev_row = (size_t) src->width * device_pixel (src, s->gray_in_rgba);
  if (ctx->zero_copy && ! s->gray_in_rgba)
    {
      /* The device reads the caller's pixels where they are. */
      double t0 = clfx_now_ms ();
      *mem = source_object (ctx, buffer, &fmt, src->width, src->height,
                            src->data, src->stride, s->over_source, error);
      ctx->zero_copy_ms += clfx_now_ms () - t0;
      s->uploaded = s->need_hi;
      s->dev_row = src->stride;
      return *mem != NULL;
    }
  *mem = source_object (ctx, buffer, &fmt, src->width, src->height, NULL,
                        s->dev_row, false, error);
  return *mem != NULL;
}

static bool
stream_run (DevRun *r)
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
      if (! run_tile (&s.g, s.up_last, &s.kernels[b], error))
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
      release_event (&s.kernels[b]);
      if (s.downloads)
        release_event (&s.downloads[b]);
    }
  free (s.kernels);
  free (s.downloads);
  release_event (&s.up_last);
  release_event (&s.up_slot[0]);
  release_event (&s.up_slot[1]);
  if (s.g.src_mem)
    clReleaseMemObject (s.g.src_mem);
  if (s.result)
    clReleaseMemObject (s.result);
  clfx_graph_release (&s.g);
  return ok;
}

/* ---- tiles ---------------------------------------------------------------- */

typedef struct
{
  cl_event up, kernels, down;
  cl_mem   result;
} TileSlot;

static bool
tile_copy_out (DevRun *r, const ClfxTile *t, TileSlot *slot, int index,
               ClfxError *error)
{
  ClfxContext         *ctx = r->ctx;
  size_t               g = clfx_context_guard (ctx);
  size_t               row = (size_t) t->out.width
                             * clfx_image_pixel_size (r->dst);
  const unsigned char *p;

  if (! wait_event (slot->down, "download", error))
    return false;
  p = (const unsigned char *) ctx->staging[1][index % 2].ptr + g;
  if (! check_rows (p, row, row + g, g, t->out.height, true, g, error))
    return false;
  copy_out_rows (ctx, r->dst, t->out.x, t->out.y, t->out.width,
                 t->out.height, p, row + g);
  return true;
}

/* The kernel queue waits for ev (an upload on its own queue). */
static bool
queue_wait (ClfxContext *ctx, cl_event ev, ClfxError *error)
{
  CLFX_CHECK (error, fail, "kernel queue", clEnqueueBarrierWithWaitList,
              ctx->queue, 1, &ev, NULL);
  return true;
fail:
  return false;
}

/* The variant's statistics passes over every tile (plan->stats_passes),
 * before the pass that writes results: each tile is gathered, uploaded
 * and handed to stats_cl; nothing comes back but what the variant keeps
 * on the device. */
static bool
stats_passes (DevRun *r, ClfxGraph *g, const cl_image_format *fmt,
              bool gray_in_rgba, bool buffer)
{
  ClfxContext *ctx = r->ctx;
  ClfxError   *error = &r->error;

  if (! r->plan->whole_image_stats || r->plan->stats_passes <= 0)
    return true;
  if (! g->variant->stats_cl)
    return clfx_error_set (error, CLFX_ERR_INVALID, "%s plans %d statistics "
                           "passes but has no stats_cl", g->variant->name,
                           r->plan->stats_passes);
  for (int pass = 0; pass < r->plan->stats_passes; pass++)
    for (int k = 0; k < r->n_tiles; k++)
      {
        const ClfxTile *t = &r->tiles[k];
        size_t          in_row = (size_t) t->in.width
                                 * device_pixel (r->src, gray_in_rgba);
        cl_mem          image = NULL;
        cl_event        up = NULL;
        void           *stage;
        double          t0;
        bool            ok;

        if (! (stage = clfx_context_staging (ctx, 0, 0,
                                             in_row * (size_t) t->in.height,
                                             error)))
          return false;
        t0 = clfx_now_ms ();
        gather_tile (r->src, &t->in, r->plan->addressing, gray_in_rgba,
                     stage, in_row);
        ctx->stage_ms += clfx_now_ms () - t0;
        g->pass = pass;
        g->tile = *t;
        g->tile_index = k;
        g->dst_mem = NULL;
        ok = (image = source_object (ctx, buffer, fmt, t->in.width,
                                     t->in.height, NULL, in_row, false,
                                     error))
             && write_source_rows (ctx, image, buffer, t->in.width, 0,
                                   t->in.height, stage, in_row, in_row, &up,
                                   error)
             && track_kept (ctx, &up, CLFX_EV_UPLOAD, "upload", error);
        if (ok)
          {
            g->src_mem = image;
            g->src_pitch = (cl_long) in_row;
            g->src_view = (cl_int4) { { t->in.x, t->in.y, r->src->width,
                                        r->src->height } };
            ok = queue_wait (ctx, up, error)
                 && g->variant->stats_cl (g, g->params, pass, error)
                 /* The staging memory is the next tile's. */
                 && wait_event (up, "upload", error);
          }
        release_event (&up);
        /* Queued kernels keep the image alive until they complete. */
        if (image)
          clReleaseMemObject (image);
        if (! ok)
          return false;
      }
  return true;
}

static bool
tiles_run (DevRun *r)
{
  ClfxContext    *ctx = r->ctx;
  ClfxError      *error = &r->error;
  ClfxGraph       g;
  TileSlot        slots[2];
  cl_image_format fmt = { 0, 0 };
  bool            gray_in_rgba, ok = false;
  size_t          guard = clfx_context_guard (ctx);
  size_t          px_out = clfx_image_pixel_size (r->dst);

  bool            buffer = clfx_context_source_buffer (ctx);

  memset (slots, 0, sizeof slots);
  /* The format (and whether gray travels as RGBA) of the whole source;
   * the limits are checked per tile below. */
  gray_in_rgba = false;
  if (! buffer
      && ! clfx_context_image_format (ctx, 1, 1, r->src->channels,
                                      r->src->depth, &fmt, &gray_in_rgba,
                                      error))
    return false;
  clfx_graph_init (&g, ctx, r->p, r->plan, r->src, r->dst, gray_in_rgba,
                   buffer, r->probes);
  g.src_flags = r->plan->addressing | CLFX_SRC_TILED;
  if (! stats_passes (r, &g, &fmt, gray_in_rgba, buffer))
    goto out;
  if (r->plan->stats_passes > 0)
    g.pass = r->plan->stats_passes;

  for (int k = 0; k < r->n_tiles; k++)
    {
      const ClfxTile *t = &r->tiles[k];
      TileSlot       *slot = &slots[k % 2];
      size_t          dpx = device_pixel (r->src, gray_in_rgba);
      size_t          in_row = (size_t) t->in.width * dpx;
      size_t          out_pitch = (size_t) t->out.width * px_out + guard;
      size_t          out_bytes = guard + (size_t) t->out.height * out_pitch;
      unsigned char   pattern = CLFX_GUARD_BYTE;
      cl_mem          image = NULL;
      void           *stage;
      double          t0;
      bool            step = false;

      /* The slot's previous tile: its upload has left the staging memory,
       * and the host has its result (copied out one tile later). */
      if (! wait_event (slot->up, "upload", error))
        goto out;
      release_event (&slot->up);
      release_event (&slot->kernels);
      release_event (&slot->down);
      if (slot->result)
        clReleaseMemObject (slot->result);
      slot->result = NULL;

      if (! (stage = clfx_context_staging (ctx, 0, k % 2,
                                           in_row * (size_t) t->in.height,
                                           error)))
        goto out;
      t0 = clfx_now_ms ();
      gather_tile (r->src, &t->in, r->plan->addressing, gray_in_rgba, stage,
                   in_row);
      ctx->stage_ms += clfx_now_ms () - t0;
      if (! (image = source_object (ctx, buffer, &fmt, t->in.width,
                                    t->in.height, NULL, in_row, false,
                                    error))
          || ! write_source_rows (ctx, image, buffer, t->in.width, 0,
                                  t->in.height, stage, in_row, in_row,
                                  &slot->up, error))
        goto tile_fail;
      if (! track_kept (ctx, &slot->up, CLFX_EV_UPLOAD, "upload", error))
        goto tile_fail;
      CLFX_CREATE (slot->result, error, tile_fail, "tile result",
                   clCreateBuffer, ctx->context, CL_MEM_READ_WRITE,
                   out_bytes, NULL);
      if (guard)
        {
          cl_event fill = NULL;
          CLFX_CHECK (error, tile_fail, "guard band", clEnqueueFillBuffer,
                      ctx->queue, slot->result, &pattern, 1, 0, out_bytes, 0,
                      NULL, &fill);
          clReleaseEvent (fill);
        }
      g.tile = *t;
      g.tile_index = k;
      g.src_mem = image;
      g.src_pitch = (cl_long) in_row;
      g.src_view = (cl_int4) { { t->in.x, t->in.y, r->src->width,
                                 r->src->height } };
      g.dst_mem = slot->result;
      g.dst_offset = (cl_long) guard;
      g.dst_pitch = (cl_long) out_pitch;
      if (! run_tile (&g, slot->up, &slot->kernels, error))
        goto tile_fail;
      if (! (stage = clfx_context_staging (ctx, 1, k % 2, out_bytes, error)))
        goto tile_fail;
      CLFX_CHECK (error, tile_fail, "tile result", clEnqueueReadBuffer,
                  ctx->download_queue, slot->result, CL_FALSE, 0, out_bytes,
                  stage, 1, &slot->kernels, &slot->down);
      if (! track_kept (ctx, &slot->down, CLFX_EV_DOWNLOAD, "download",
                        error))
        goto tile_fail;
      step = true;
    tile_fail:
      /* Queued commands keep the image alive until they complete. */
      if (image)
        clReleaseMemObject (image);
      if (! step)
        goto out;
      if (k > 0 && ! tile_copy_out (r, &r->tiles[k - 1], &slots[(k - 1) % 2],
                                    k - 1, error))
        goto out;
    }
  ok = tile_copy_out (r, &r->tiles[r->n_tiles - 1],
                      &slots[(r->n_tiles - 1) % 2], r->n_tiles - 1, error);
out:
  clFinish (ctx->upload_queue);
  clFinish (ctx->queue);
  clFinish (ctx->download_queue);
  for (int i = 0; i < 2; i++)
    {
      release_event (&slots[i].up);
      release_event (&slots[i].kernels);
      release_event (&slots[i].down);
      if (slots[i].result)
        clReleaseMemObject (slots[i].result);
    }
  clfx_graph_release (&g);
  return ok;
}

/* ---- planning the pieces -------------------------------------------------- */

/* Whether a tile (or the whole image as one) fits the device: its source
 * rectangle as an image, its result as a buffer, and both with the
 * variant's intermediates inside the memory budget. */
static bool
piece_fits (const ClfxContext *ctx, const ClfxPlan *plan,
            const ClfxImage *src, const ClfxImage *dst, const ClfxRect *in,
            const ClfxRect *out, size_t budget)
{
  size_t in_bytes = (size_t) in->width * (size_t) in->height * 4
                    * clfx_depth_size (src->depth);
  size_t out_px = (size_t) out->width * (size_t) out->height;
  size_t out_bytes = out_px * clfx_image_pixel_size (dst)
                     + (size_t) out->height * 64 + 64;
  size_t need = in_bytes + out_bytes + out_px * plan->bytes_per_pixel
                + plan->bytes_fixed;

  bool   in_fits = clfx_context_source_buffer (ctx)
                   ? in_bytes <= ctx->device.max_alloc
                   : clfx_context_fits_image (ctx, in->width > 0 ? in->width
                                                                 : 1,
                                              in->height > 0 ? in->height : 1,
                                              in_bytes);

  return in_fits && out_bytes <= ctx->device.max_alloc && need <= budget;
}

static size_t
run_budget (const ClfxContext *ctx)
{
  if (ctx->tuning.budget)
    return ctx->tuning.budget;
  return (size_t) (ctx->device.global_mem / 2);
}

/* Bands of whole result rows: n of them, with their source rectangles. */
static ClfxTile *
make_bands (const ClfxVariant *v, const ClfxPlan *plan, const ClfxImage *src,
            int n, int *count)
{
  ClfxTile *tiles = calloc ((size_t) n, sizeof *tiles);

  if (! tiles)
    return NULL;
  for (int b = 0; b < n; b++)
    {
      int y0 = (int) ((long long) plan->height * b / n);
      int y1 = (int) ((long long) plan->height * (b + 1) / n);
      tiles[b].out = (ClfxRect) { 0, y0, plan->width, y1 - y0 };
      clfx_plan_source_rect (v, plan, src, &tiles[b].out, &tiles[b].in);
    }
  *count = n;
  return tiles;
}

/* A grid of tiles of at most tw x th result pixels. */
static ClfxTile *
make_grid (const ClfxVariant *v, const ClfxPlan *plan, const ClfxImage *src,
           int tw, int th, int *count)
{
  int       nx = (plan->width + tw - 1) / tw, ny = (plan->height + th - 1) / th;
  ClfxTile *tiles;

  if ((long long) nx * ny > INT32_MAX / (int) sizeof *tiles
      || ! (tiles = calloc ((size_t) nx * (size_t) ny, sizeof *tiles)))
    return NULL;
  for (int j = 0; j < ny; j++)
    for (int i = 0; i < nx; i++)
      {
        ClfxTile *t = &tiles[j * nx + i];
        int       x0 = i * tw, y0 = j * th;
        t->out = (ClfxRect) { x0, y0,
                              x0 + tw > plan->width ? plan->width - x0 : tw,
                              y0 + th > plan->height ? plan->height - y0
                                                     : th };
        clfx_plan_source_rect (v, plan, src, &t->out, &t->in);
      }
  *count = nx * ny;
  return tiles;
}

/* v rounded up to a multiple of a (at least a). */
static int
align_up (int v, int a)
{
  return v <= a ? a : (int) (((long long) v + a - 1) / a * a);
}

static ClfxTile *
plan_tiles (const ClfxContext *ctx, const ClfxVariant *v,
            const ClfxPlan *plan, const ClfxImage *src, const ClfxImage *dst,
            int n_devices, bool *tiled, int *count, ClfxError *error)
{
  size_t    budget = run_budget (ctx);
  ClfxRect  whole_out = { 0, 0, plan->width, plan->height };
  ClfxRect  whole_in = { 0, 0, src->width, src->height };
  int       tw = plan->width, th = plan->height, ax = 1, ay = 1;
  ClfxTile *tiles = NULL;

  *tiled = ctx->tuning.tile_width > 0
           || ! piece_fits (ctx, plan, src, dst, &whole_in, &whole_out,
                            budget);
  if (plan->whole_image_stats && plan->stats_passes > 0 && *tiled)
    {
      /* Statistics gathered tile by tile: tiles aligned to the
       * statistics' blocks (the grid below keeps them aligned). */
      ax = plan->stats_align[0] > 0 ? plan->stats_align[0] : 1;
      ay = plan->stats_align[1] > 0 ? plan->stats_align[1] : 1;
    }
  else if (plan->whole_image_stats)
    {
      /* One piece, the whole image at once. */
      if (! piece_fits (ctx, plan, src, dst, &whole_in, &whole_out, budget))
        {
          clfx_error_set (error, CLFX_ERR_UNSUPPORTED,
                          "%s works on the whole %dx%d image at once, which "
                          "does not fit the device (%s)", v->name,
                          src->width, src->height, ctx->device.name);
          return NULL;
        }
      *tiled = false;
      tiles = make_bands (v, plan, src, 1, count);
      if (! tiles)
        clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
      return tiles;
    }
  if (! *tiled)
    {
      size_t bytes = (size_t) src->width * (size_t) src->height
                     * clfx_image_pixel_size (src);
      size_t out_bytes = (size_t) plan->width * (size_t) plan->height
                         * clfx_image_pixel_size (dst);
      size_t band = ctx->tuning.band_bytes ? ctx->tuning.band_bytes
                                           : CLFX_BAND_BYTES_DEFAULT;
      size_t most = bytes > out_bytes ? bytes : out_bytes;
      int    n = ctx->zero_copy ? 1 : (int) ((most + band - 1) / band);
      if (n < n_devices)
        n = n_devices;
      n = n > CLFX_MAX_BANDS ? CLFX_MAX_BANDS : n;
      n = n > plan->height ? plan->height : n;
      tiles = make_bands (v, plan, src, n < 1 ? 1 : n, count);
      if (! tiles)
        clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
      return tiles;
    }
  if (ctx->tuning.tile_width > 0)
    {
      tw = ctx->tuning.tile_width < tw ? ctx->tuning.tile_width : tw;
      th = ctx->tuning.tile_height < th ? ctx->tuning.tile_height : th;
    }
  for (;;)
    {
      bool fits = true, wide = false;
      tw = align_up (tw, ax);
      th = align_up (th, ay);
      free (tiles);
      if (! (tiles = make_grid (v, plan, src, tw, th, count)))
        {
          clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory for tiles");
          return NULL;
        }
      for (int i = 0; fits && i < *count; i++)
        if (! piece_fits (ctx, plan, src, dst, &tiles[i].in, &tiles[i].out,
                          budget))
          {
            fits = false;
            wide = (double) tiles[i].in.width
                     / (double) ctx->device.image2d_max_width
                   >= (double) tiles[i].in.height
                        / (double) ctx->device.image2d_max_height;
          }
      if (fits)
        return tiles;
      if (tw <= ax && th <= ay)
        break;
      /* Halve the side that exceeds most. */
      if ((wide && tw > ax) || th <= ay)
        tw = (tw + 1) / 2;
      else
        th = (th + 1) / 2;
    }
  free (tiles);
  clfx_error_set (error, CLFX_ERR_UNSUPPORTED,
                  "no tiling of the %dx%d result fits the device (%s)",
                  plan->width, plan->height, ctx->device.name);
  return NULL;
}

bool
clfx_exec_over_source_ok (const ClfxContext *ctx, const ClfxPlan *plan,
                          const ClfxImage *src)
{
  ClfxRect whole = { 0, 0, src->width, src->height };

  return plan->in_place && ctx->zero_copy && ctx->n_peers == 0
         && ! clfx_context_guard (ctx) && clfx_context_source_buffer (ctx)
         && ! strcmp (ctx->device.type, "cpu")
         && ctx->tuning.tile_width == 0 && plan->width == src->width
         && plan->height == src->height
         && src->stride == (size_t) src->width * clfx_image_pixel_size (src)
         && piece_fits (ctx, plan, src, src, &whole, &whole,
                        run_budget (ctx));
}

/* ---- the whole run ----------------------------------------------------------- */

static void *
dev_thread (void *data)
{
  DevRun *r = data;

  clfx_context_begin (r->ctx);
  r->ok = r->tiled ? tiles_run (r) : stream_run (r);
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
  tiles = plan_tiles (ctx, v, plan, src, dst, n_dev, &tiled, &n_tiles, error);
  if (! tiles)
    return false;
  if (n_dev > n_tiles)
    n_dev = n_tiles;
  /* The hardware sampler where the variant allows it and it is the fast
   * path (a GPU's texture units), never for tiles (see the top). */
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
