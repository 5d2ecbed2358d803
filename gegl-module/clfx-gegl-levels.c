/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-gegl-levels.c: the operations at GEGL's lower mipmap levels
 * (clfx-gegl-levels.h): which way each operator takes, the level's
 * rectangles and parameters, GEGL's downscale of a full-size result, and
 * the full-size statistics kept for the tone mappers. */
#include <string.h>

#include <gegl.h>

#include "clfx-gegl-levels.h"

/* Operators with distances that no scaled distance reproduces at a
 * lower level.  bilateral: its blur-radius r is both the window (2 floor
 * (r) + 1 pixels) and the spatial weights' variance (exp (-d^2 / 2r)),
 * which would need r / 2^L and r / 4^L; and its colour weights compare
 * neighbours 2^L pixels apart.  Measured, the scaled radius came barely
 * nearer the downscaled result than the unscaled one (docs/FILTERS.md). */
static const char *const full_size_only[] = { "bilateral", NULL };

ClfxLevelWay
clfx_level_way (const ClfxVariant *v,
                const ClfxFamily  *f,
                const int         *rows,
                int                n_rows)
{
  gboolean distances = FALSE;

  if (v->take_stats)
    return CLFX_LEVEL_STATS;
  for (int i = 0; full_size_only[i]; i++)
    if (! strcmp (v->name, full_size_only[i]))
      return CLFX_LEVEL_FULL;
  for (int i = 0; i < n_rows; i++)
    distances |= f->params[rows[i]].unit == CLFX_UNIT_DISTANCE;
  /* Without a distance (sobel's and convolve's fixed matrices, fattal02's
   * pyramid from the pixel up) the operator works at the pixel's scale. */
  return distances ? CLFX_LEVEL_SCALED : CLFX_LEVEL_FULL;
}

const char *
clfx_level_way_name (ClfxLevelWay way)
{
  switch (way)
    {
    case CLFX_LEVEL_SCALED:
      return "distances scaled";
    case CLFX_LEVEL_STATS:
      return "full-size statistics";
    default:
      return "full size, downscaled";
    }
}

GeglRectangle
clfx_level_rect (const GeglRectangle *r,
                 gint                 level)
{
  GeglRectangle l;

  /* >> rounds towards minus infinity, also left of the origin. */
  l.x = r->x >> level;
  l.y = r->y >> level;
  l.width = ((r->x + r->width) >> level) - l.x;
  l.height = ((r->y + r->height) >> level) - l.y;
  return l;
}

GeglRectangle
clfx_level_rect_up (const GeglRectangle *r,
                    gint                 level)
{
  return *GEGL_RECTANGLE (r->x * (1 << level), r->y * (1 << level),
                          r->width * (1 << level), r->height * (1 << level));
}

void
clfx_level_params (const ClfxFamily *f,
                   const int        *rows,
                   int               n_rows,
                   const ClfxParams *p,
                   gint              level,
                   ClfxParams       *out)
{
  *out = *p;
  for (int i = 0; i < n_rows; i++)
    {
      const ClfxParamSpec *s = &f->params[rows[i]];

      if (s->unit != CLFX_UNIT_DISTANCE)
        continue;
      if (s->type == CLFX_PARAM_DOUBLE)
        clfx_param_set_double (out, s, clfx_param_get_double (p, s)
                                         / (double) (1 << level));
      else if (s->type == CLFX_PARAM_INT)
        clfx_param_set_int (out, s,
                            (2 * clfx_param_get_int (p, s) + 1)
                              >> (level + 1));
    }
}

gboolean
clfx_level_downscale (const Babl          *format,
                      const ClfxImage     *img,
                      const GeglRectangle *img_rect,
                      gint                 level,
                      const GeglRectangle *out_rect,
                      ClfxImage           *out,
                      ClfxError           *error)
{
  GeglBuffer *buffer;

  if (! clfx_host_image_alloc (out, out_rect->width, out_rect->height,
                               img->channels, img->depth, error))
    return FALSE;
  out->straight_alpha = img->straight_alpha;
  out->transfer = img->transfer;
  /* The buffer's tiles at level 0; reading it at 1/2^level builds its
   * mipmap as GEGL builds every buffer's (the 2 x 2 box of
   * gegl_downscale_2x2, in the buffer's format). */
  buffer = gegl_buffer_new (img_rect, format);
  gegl_buffer_set (buffer, img_rect, 0, format, img->data,
                   (gint) img->stride);
  gegl_buffer_get (buffer, out_rect, 1.0 / (1 << level), format, out->data,
                   (gint) out->stride, GEGL_ABYSS_NONE);
  g_object_unref (buffer);
  return TRUE;
}

/* ---- the full-size statistics ------------------------------------------ */

void
clfx_stats_cache_init (ClfxStatsCache *cache)
{
  memset (cache, 0, sizeof *cache);
  g_mutex_init (&cache->lock);
}

void
clfx_stats_cache_clear (ClfxStatsCache *cache)
{
  g_mutex_clear (&cache->lock);
}

void
clfx_stats_cache_invalidate (ClfxStatsCache *cache)
{
  g_atomic_int_inc (&cache->generation);
}

gint
clfx_stats_cache_generation (ClfxStatsCache *cache)
{
  return g_atomic_int_get (&cache->generation);
}

gboolean
clfx_stats_cache_lookup (ClfxStatsCache      *cache,
                         gint                 generation,
                         const ClfxParams    *params,
                         const Babl          *format,
                         const GeglRectangle *extent,
                         ClfxStats           *stats)
{
  gboolean hit;

  g_mutex_lock (&cache->lock);
  /* The parameters compared as stored: every copy comes from the same
   * zeroed struct (clfx_params_defaults), padding included. */
  hit = cache->valid && cache->valid_generation == generation
        && cache->format == format
        && gegl_rectangle_equal (&cache->extent, extent)
        && ! memcmp (&cache->params, params, sizeof *params);
  if (hit)
    *stats = cache->stats;
  g_mutex_unlock (&cache->lock);
  return hit;
}

void
clfx_stats_cache_store (ClfxStatsCache      *cache,
                        gint                 generation,
                        const ClfxParams    *params,
                        const Babl          *format,
                        const GeglRectangle *extent,
                        const ClfxStats     *stats)
{
  g_mutex_lock (&cache->lock);
  cache->valid = TRUE;
  cache->valid_generation = generation;
  memcpy (&cache->params, params, sizeof *params);
  cache->format = format;
  cache->extent = *extent;
  cache->stats = *stats;
  g_mutex_unlock (&cache->lock);
}
