/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-exec-tiles.c: a run in tiles, where the image does not fit the
 * device (its 2D image limit, its largest allocation, a memory budget; or
 * CLFX_DEV tile=).
 *
 * Each tile's source rectangle, halo included, is gathered by the host
 * with clfx_address (what lies outside the source is filled in as the
 * addressing mode says), uploaded into an image of its own and read by
 * the kernels as it is.  Kernels index texels in source coordinates either
 * way, so a tiled run computes the same sums from the same texels: bit for
 * bit the untiled result.  The hardware sampler, whose arithmetic depends
 * on the image it reads, is not used for tiles. */
#define _POSIX_C_SOURCE 200809L
#include <string.h>

#include "clfx-exec-private.h"
#include "../kernels/clfx-common.h"

/* The tile's source rectangle, addressed texel by texel as the kernels'
 * clfx_fetch would, in the device's layout at out: the tile then holds
 * exactly what an untiled run reads. */
static void
gather_tile (const ClfxImage *src, const ClfxRect *in, int mode,
             bool gray_in_rgba, unsigned char *out, size_t out_stride)
{
  size_t px = clfx_image_pixel_size (src);
  size_t dpx = exec_device_pixel (src, gray_in_rgba);
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

  if (! exec_wait_event (slot->down, "download", error))
    return false;
  p = (const unsigned char *) ctx->staging[1][index % 2].ptr + g;
  if (! exec_check_rows (p, row, row + g, g, t->out.height, true, g, error))
    return false;
  exec_copy_out_rows (ctx, r->dst, t->out.x, t->out.y, t->out.width,
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
                                 * exec_device_pixel (r->src, gray_in_rgba);
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
        ok = (image = exec_source_object (ctx, buffer, fmt, t->in.width,
                                          t->in.height, NULL, in_row, false,
                                          error))
             && exec_write_source_rows (ctx, image, buffer, t->in.width, 0,
                                        t->in.height, stage, in_row, in_row,
                                        &up, error)
             && exec_track_kept (ctx, &up, CLFX_EV_UPLOAD, "upload", error);
        if (ok)
          {
            g->src_mem = image;
            g->src_pitch = (cl_long) in_row;
            g->src_view = (cl_int4) { { t->in.x, t->in.y, r->src->width,
                                        r->src->height } };
            ok = queue_wait (ctx, up, error)
                 && g->variant->stats_cl (g, g->params, pass, error)
                 /* The staging memory is the next tile's. */
                 && exec_wait_event (up, "upload", error);
          }
        exec_release_event (&up);
        /* Queued kernels keep the image alive until they complete. */
        if (image)
          clReleaseMemObject (image);
        if (! ok)
          return false;
      }
  return true;
}

bool
exec_tiles_run (DevRun *r)
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
      size_t          dpx = exec_device_pixel (r->src, gray_in_rgba);
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
      if (! exec_wait_event (slot->up, "upload", error))
        goto out;
      exec_release_event (&slot->up);
      exec_release_event (&slot->kernels);
      exec_release_event (&slot->down);
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
      if (! (image = exec_source_object (ctx, buffer, &fmt, t->in.width,
                                         t->in.height, NULL, in_row, false,
                                         error))
          || ! exec_write_source_rows (ctx, image, buffer, t->in.width, 0,
                                       t->in.height, stage, in_row, in_row,
                                       &slot->up, error))
        goto tile_fail;
      if (! exec_track_kept (ctx, &slot->up, CLFX_EV_UPLOAD, "upload", error))
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
      if (! exec_run_tile (&g, slot->up, &slot->kernels, error))
        goto tile_fail;
      if (! (stage = clfx_context_staging (ctx, 1, k % 2, out_bytes, error)))
        goto tile_fail;
      CLFX_CHECK (error, tile_fail, "tile result", clEnqueueReadBuffer,
                  ctx->download_queue, slot->result, CL_FALSE, 0, out_bytes,
                  stage, 1, &slot->kernels, &slot->down);
      if (! exec_track_kept (ctx, &slot->down, CLFX_EV_DOWNLOAD, "download",
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
      exec_release_event (&slots[i].up);
      exec_release_event (&slots[i].kernels);
      exec_release_event (&slots[i].down);
      if (slots[i].result)
        clReleaseMemObject (slots[i].result);
    }
  clfx_graph_release (&g);
  return ok;
}
