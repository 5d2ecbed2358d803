/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-gegl-levels.h: what the module's operations do at GEGL's lower
 * mipmap levels (clfx-gegl-levels.c; docs/FILTERS.md, "Zoomed out: GEGL's
 * mipmap levels").  At level L (GEGL rendering a view zoomed out) an
 * operation's result rectangle is in full-size coordinates, its input is
 * read at scale 1/2^L, its output written at level L. */
#ifndef CLFX_GEGL_LEVELS_H
#define CLFX_GEGL_LEVELS_H

#include <gegl.h>

#include "clfx-run.h"

G_BEGIN_DECLS

/* GEGL renders levels 0 to 7 (GEGL_CACHE_VALID_MIPMAPS - 1). */
#define CLFX_LEVEL_MAX 7

/* How an operator gives its result at a lower level. */
typedef enum
{
  /* On the input's level, its distances (std-dev, radius) scaled by
   * 1/2^L: the blurs, unsharp and median. */
  CLFX_LEVEL_SCALED,
  /* On the input's level, with the full-size image's whole-image
   * statistics: the tone mappers that take them (ClfxVariant.take_stats),
   * whose maps are pointwise or sized by the image. */
  CLFX_LEVEL_STATS,
  /* The full-size result, downscaled as GEGL downscales its mipmaps: the
   * operators whose result at a smaller scale no parameter gives (fixed
   * matrices, bilateral's window and weights, fattal02's pyramid). */
  CLFX_LEVEL_FULL
} ClfxLevelWay;

/* The way of variant v, whose GEGL properties are the family rows rows[0
 * .. n_rows - 1]. */
ClfxLevelWay  clfx_level_way       (const ClfxVariant   *v,
                                    const ClfxFamily    *f,
                                    const int           *rows,
                                    int                  n_rows);
const char   *clfx_level_way_name  (ClfxLevelWay         way);

/* r, in full-size coordinates, at level `level`: the level's pixels whose
 * blocks of 2^level x 2^level start inside r (as gegl:gblur-1d takes
 * them), so that neighbouring rectangles meet. */
GeglRectangle clfx_level_rect      (const GeglRectangle *r,
                                    gint                 level);
/* The full-size pixels a rectangle of level `level` covers. */
GeglRectangle clfx_level_rect_up   (const GeglRectangle *r,
                                    gint                 level);

/* p at level `level` (CLFX_LEVEL_SCALED): every distance row among rows
 * divided by 2^level; an integer radius r keeps its window's width,
 * 2r + 1 pixels, as the nearest odd number of the level's pixels:
 * (2r + 1) >> (level + 1). */
void          clfx_level_params    (const ClfxFamily    *f,
                                    const int           *rows,
                                    int                  n_rows,
                                    const ClfxParams    *p,
                                    gint                 level,
                                    ClfxParams          *out);

/* The full-size pixels of img (format, its origin at img_rect's corner)
 * downscaled to level `level` over out_rect (level coordinates) into out,
 * through a GeglBuffer: GEGL's own mipmap, as a full-size result shows
 * at that level.  img_rect must cover clfx_level_rect_up (out_rect). */
gboolean      clfx_level_downscale (const Babl          *format,
                                    const ClfxImage     *img,
                                    const GeglRectangle *img_rect,
                                    gint                 level,
                                    const GeglRectangle *out_rect,
                                    ClfxImage           *out,
                                    ClfxError           *error);

/* The full-size image's statistics an operation keeps for its lower
 * levels (CLFX_LEVEL_STATS): gathered once for a state of its input (a
 * generation its node's "invalidated" signal moves on), its parameters,
 * its pixel format and extent.  Locked: GEGL may render an operation
 * from several threads. */
typedef struct
{
  GMutex        lock;
  gint          generation;
  gboolean      valid;
  gint          valid_generation;
  ClfxParams    params;
  const Babl   *format;
  GeglRectangle extent;
  ClfxStats     stats;
} ClfxStatsCache;

void          clfx_stats_cache_init       (ClfxStatsCache       *cache);
void          clfx_stats_cache_clear      (ClfxStatsCache       *cache);
/* The input or the parameters changed: what is kept is for an earlier
 * state (any thread). */
void          clfx_stats_cache_invalidate (ClfxStatsCache       *cache);
gint          clfx_stats_cache_generation (ClfxStatsCache       *cache);
gboolean      clfx_stats_cache_lookup     (ClfxStatsCache       *cache,
                                           gint                  generation,
                                           const ClfxParams     *params,
                                           const Babl           *format,
                                           const GeglRectangle  *extent,
                                           ClfxStats            *stats);
void          clfx_stats_cache_store      (ClfxStatsCache       *cache,
                                           gint                  generation,
                                           const ClfxParams     *params,
                                           const Babl           *format,
                                           const GeglRectangle  *extent,
                                           const ClfxStats      *stats);

G_END_DECLS

#endif
