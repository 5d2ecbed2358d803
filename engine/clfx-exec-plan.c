/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-exec-plan.c: a run cut into pieces: bands of whole result rows
 * where the whole image fits the device, else a grid of tiles each of
 * which fits; and whether a run may make its result over its source. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "clfx-exec-private.h"

/* The most bands a streamed run is cut into. */
#define CLFX_MAX_BANDS 64

/* Whether a tile (or the whole image as one) fits the device: its source
 * rectangle as an image, its result as a buffer, and both with the
 * variant's intermediates inside the memory budget.  A tile's source and
 * result are there twice (the run keeps two tiles in flight), and on CPU
 * devices, whose memory is the host's, twice more (the staging copies). */
static bool
piece_fits (const ClfxContext *ctx, const ClfxPlan *plan,
            const ClfxImage *src, const ClfxImage *dst, const ClfxRect *in,
            const ClfxRect *out, bool tile, size_t budget)
{
  size_t in_bytes = (size_t) in->width * (size_t) in->height * 4
                    * clfx_depth_size (src->depth);
  size_t out_px = (size_t) out->width * (size_t) out->height;
  size_t out_bytes = out_px * clfx_image_pixel_size (dst)
                     + (size_t) out->height * 64 + 64;
  size_t copies = ! tile ? 1 : clfx_context_source_buffer (ctx) ? 4 : 2;
  size_t need = (in_bytes + out_bytes) * copies
                + out_px * plan->bytes_per_pixel
                + (size_t) plan->width * (size_t) plan->height
                    * plan->bytes_per_image_pixel
                + plan->bytes_fixed;

  bool   in_fits = clfx_context_source_buffer (ctx)
                   ? in_bytes <= ctx->device.max_alloc
                   : clfx_context_fits_image (ctx, in->width > 0 ? in->width
                                                                 : 1,
                                              in->height > 0 ? in->height : 1,
                                              in_bytes);

  return in_fits && out_bytes <= ctx->device.max_alloc && need <= budget;
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

ClfxTile *
exec_plan_tiles (const ClfxContext *ctx, const ClfxVariant *v,
                 const ClfxPlan *plan, const ClfxImage *src,
                 const ClfxImage *dst, int n_devices, bool *tiled, int *count,
                 ClfxError *error)
{
  size_t    budget = clfx_context_budget (ctx);
  ClfxRect  whole_out = { 0, 0, plan->width, plan->height };
  ClfxRect  whole_in = { 0, 0, src->width, src->height };
  int       tw = plan->width, th = plan->height, ax = 1, ay = 1;
  ClfxTile *tiles = NULL;

  *tiled = ctx->tuning.tile_width > 0
           || ! piece_fits (ctx, plan, src, dst, &whole_in, &whole_out,
                            false, budget);
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
      if (! piece_fits (ctx, plan, src, dst, &whole_in, &whole_out, false,
                        budget))
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
                          true, budget))
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
         && piece_fits (ctx, plan, src, src, &whole, &whole, false,
                        clfx_context_budget (ctx));
}
