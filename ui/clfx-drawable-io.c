/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-drawable-io.c: GeglBuffer <-> ClfxImage.
 *
 * Which format pixels cross in is clfx-pixel-format.c's choice (the
 * drawable's own where the kernels can decode it).  Straight alpha as
 * GIMP stores it: 8-bit colour multiplied by a small alpha and rounded
 * would lose most of its bits; the engine weighs colour by alpha where a
 * filter mixes pixels (ClfxImage.straight_alpha).
 *
 * Pixels cross in bands of whole tile rows, each through a GeglBuffer of
 * its own.  A plug-in's GeglBuffer keeps every tile it fetched from GIMP
 * in the tile cache until the buffer goes; one buffer for the whole
 * drawable would hold a second copy of the image in memory that is all
 * touched for the first time, and first touches (page faults) are what a
 * large transfer costs; in bands the freed tiles of one band are reused
 * by the next (docs/notebook/performance-2026.md, "What made it faster:
 * memory touched for the first time"). */
#include <string.h>

#include <libintl.h>

#include "clfx-args.h"
#include "clfx-drawable-io.h"

#define _(s) gettext (s)

/* Rows per band: whole tile rows (a band never splits a tile, which
 * would be fetched twice), at least 8 MB of pixels so that narrow images
 * do not pay a buffer's set-up for every tile row. */
static gint
clfx_band_rows (gsize row_bytes)
{
  gint  tile_h = MAX ((gint) gimp_tile_height (), 1);
  gsize tile_row = row_bytes * (gsize) tile_h;
  gsize n = tile_row ? ((gsize) 8 << 20) / tile_row : 1;

  return tile_h * (gint) CLAMP (n, 1, 1024);
}


/* The end of the band that starts at y: band boundaries sit on multiples
 * of band in drawable coordinates, so a band of a rectangle that starts
 * off the tile grid still never splits a tile row. */
static gint
clfx_band_end (gint y,
               gint band,
               gint end)
{
  return MIN (end, (y / band + 1) * band);
}

static guchar *
clfx_image_at (const ClfxImage *image,
               gint             x,
               gint             y)
{
  return (guchar *) image->data + (gsize) y * image->stride
         + (gsize) x * clfx_image_pixel_size (image);
}

gboolean
clfx_drawable_read (GimpDrawable          *drawable,
                    const ClfxPixelFormat *pf,
                    const GeglRectangle   *rect,
                    ClfxContext           *pinned,
                    ClfxImage             *image,
                    GError               **error)
{
  ClfxError   e = { 0 };
  GeglBuffer *buffer;
  gint        band, end = rect->y + rect->height;

  if (! clfx_context_image_alloc (pinned, image, rect->width, rect->height,
                                  pf->channels, pf->depth, &e))
    {
      clfx_set_gerror (error, &e);
      return FALSE;
    }
  image->straight_alpha = pf->straight_alpha;
  image->transfer = pf->transfer;
  image->origin_x = rect->x;
  image->origin_y = rect->y;
  image->extent_width = gimp_drawable_get_width (drawable);
  image->extent_height = gimp_drawable_get_height (drawable);
  if ((gsize) babl_format_get_bytes_per_pixel (pf->format)
      != clfx_image_pixel_size (image))
    {
      /* A format mapping bug, but one that must not overrun the buffer. */
      g_set_error (error, CLFX_PLUGIN_ERROR, CLFX_ERR_UNSUPPORTED,
                   "'%s' does not match the engine's pixel size",
                   babl_get_name (pf->format));
      clfx_host_image_free (image);
      return FALSE;
    }

  band = clfx_band_rows (image->stride);
  for (gint y = rect->y, y1; y < end; y = y1)
    {
      y1 = clfx_band_end (y, band, end);
      buffer = gimp_drawable_get_buffer (drawable);
      gegl_buffer_get (buffer,
                       GEGL_RECTANGLE (rect->x, y, rect->width, y1 - y),
                       1.0, pf->format, clfx_image_at (image, 0,
                                                       y - rect->y),
                       (gint) image->stride, GEGL_ABYSS_NONE);
      g_object_unref (buffer);
    }
  return TRUE;
}

/* Writes image's pixels over rect in bands, into the shadow buffer or
 * the drawable's own. */
static void
clfx_drawable_put (GimpDrawable          *drawable,
                   const ClfxImage       *image,
                   gint                   origin_x,
                   gint                   origin_y,
                   const GeglRectangle   *rect,
                   const ClfxPixelFormat *pf,
                   gboolean               shadow)
{
  GeglBuffer *buffer;
  gint        band = clfx_band_rows (image->stride);
  gint        end = rect->y + rect->height;

  for (gint y = rect->y, y1; y < end; y = y1)
    {
      y1 = clfx_band_end (y, band, end);
      /* Unref flushes the band's tiles to GIMP. */
      buffer = shadow ? gimp_drawable_get_shadow_buffer (drawable)
                      : gimp_drawable_get_buffer (drawable);
      gegl_buffer_set (buffer,
                       GEGL_RECTANGLE (rect->x, y, rect->width, y1 - y), 0,
                       pf->format,
                       clfx_image_at (image, rect->x - origin_x,
                                      y - origin_y),
                       (gint) image->stride);
      g_object_unref (buffer);
    }
}

static gboolean
clfx_refused (GError **error)
{
  g_set_error_literal (error, CLFX_PLUGIN_ERROR, CLFX_ERR_IO,
                       _("GIMP refused the new pixels"));
  return FALSE;
}

gboolean
clfx_drawable_write (GimpDrawable          *drawable,
                     const ClfxImage       *image,
                     const ClfxPixelFormat *pf,
                     gboolean               replaced,
                     GError               **error)
{
  gint w = image->width, h = image->height;

  if (gimp_drawable_get_width (drawable) != w
      || gimp_drawable_get_height (drawable) != h)
    {
      g_set_error (error, CLFX_PLUGIN_ERROR, CLFX_ERR_INVALID,
                   _("drawable is %dx%d, the result %dx%d"),
                   gimp_drawable_get_width (drawable),
                   gimp_drawable_get_height (drawable), w, h);
      return FALSE;
    }
  clfx_drawable_put (drawable, image, 0, 0, GEGL_RECTANGLE (0, 0, w, h), pf,
                     ! replaced);
  if ((! replaced && ! gimp_drawable_merge_shadow (drawable, TRUE))
      || ! gimp_drawable_update (drawable, 0, 0, w, h))
    return clfx_refused (error);
  return TRUE;
}

gboolean
clfx_drawable_merge (GimpDrawable          *drawable,
                     const ClfxImage       *image,
                     gint                   origin_x,
                     gint                   origin_y,
                     const GeglRectangle   *rect,
                     const ClfxPixelFormat *pf,
                     GError               **error)
{
  if (rect->x < origin_x || rect->y < origin_y
      || rect->x + rect->width > origin_x + image->width
      || rect->y + rect->height > origin_y + image->height)
    {
      g_set_error (error, CLFX_PLUGIN_ERROR, CLFX_ERR_INVALID,
                   "the result does not cover %dx%d at (%d, %d)",
                   rect->width, rect->height, rect->x, rect->y);
      return FALSE;
    }
  clfx_drawable_put (drawable, image, origin_x, origin_y, rect, pf, TRUE);
  if (! gimp_drawable_merge_shadow (drawable, TRUE)
      || ! gimp_drawable_update (drawable, rect->x, rect->y, rect->width,
                                 rect->height))
    return clfx_refused (error);
  return TRUE;
}

gboolean
clfx_drawable_restore (GimpDrawable        *drawable,
                       GimpDrawable        *backup,
                       const GeglRectangle *rect,
                       GError             **error)
{
  GeglBuffer *from, *to;

  if (gimp_drawable_get_width (drawable) != gimp_drawable_get_width (backup)
      || gimp_drawable_get_height (drawable)
           != gimp_drawable_get_height (backup))
    {
      g_set_error (error, CLFX_PLUGIN_ERROR, CLFX_ERR_IO,
                   _("'%s' could not be given back its size"),
                   gimp_item_get_name (GIMP_ITEM (drawable)));
      return FALSE;
    }
  /* Both buffers have the drawable's format: tiles are copied as they
   * are, bit for bit.  Unref flushes them to GIMP. */
  from = gimp_drawable_get_buffer (backup);
  to = gimp_drawable_get_buffer (drawable);
  gegl_buffer_copy (from, rect, GEGL_ABYSS_NONE, to, rect);
  g_object_unref (from);
  g_object_unref (to);
  if (! gimp_drawable_update (drawable, rect->x, rect->y, rect->width,
                              rect->height))
    return clfx_refused (error);
  return TRUE;
}
