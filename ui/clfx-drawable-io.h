/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-drawable-io.h: GIMP drawables to and from the engine's ClfxImage,
 * in the format clfx_pixel_format_of chose (the plug-in's runs, and the
 * dialog's 1:1 previews, which read as the plug-in reads). */
#ifndef CLFX_DRAWABLE_IO_H
#define CLFX_DRAWABLE_IO_H

#include <libgimp/gimp.h>

#include "clfx-context.h"
#include "clfx-pixel-format.h"

G_BEGIN_DECLS

/* Reads rect of the drawable into a new image (free with
 * clfx_host_image_free) with pf's layout, alpha and transfer curve, made
 * by clfx_context_image_alloc for `pinned` (may be NULL): in its pinned
 * memory where that saves the device copies, so that it reads the pixels
 * where GIMP wrote them. */
gboolean clfx_drawable_read    (GimpDrawable          *drawable,
                                const ClfxPixelFormat *pf,
                                const GeglRectangle   *rect,
                                ClfxContext           *pinned,
                                ClfxImage             *image,
                                GError               **error);

/* Writes image over the whole drawable (call it after any geometry
 * change) and updates the display.  Normally through the shadow buffer,
 * merged with undo.  replaced: the drawable's buffer was just replaced
 * inside the open undo group (a resize to another size), so the undo step
 * already holds the old pixels; the new buffer is written directly, which
 * saves GIMP a shadow buffer and a second undo copy. */
gboolean clfx_drawable_write   (GimpDrawable          *drawable,
                                const ClfxImage       *image,
                                const ClfxPixelFormat *pf,
                                gboolean               replaced,
                                GError               **error);

/* Writes the part of image that lies over rect (image's pixel (0, 0) is
 * the drawable's (origin_x, origin_y)) into the shadow buffer, merges it
 * with undo (through the selection, so a feathered selection blends) and
 * updates rect. */
gboolean clfx_drawable_merge   (GimpDrawable          *drawable,
                                const ClfxImage       *image,
                                gint                   origin_x,
                                gint                   origin_y,
                                const GeglRectangle   *rect,
                                const ClfxPixelFormat *pf,
                                GError               **error);

/* Copies rect of backup (a copy of drawable made before it changed, of
 * the same size) over drawable's own buffer, byte for byte in the
 * drawable's format, and updates it. */
gboolean clfx_drawable_restore (GimpDrawable          *drawable,
                                GimpDrawable          *backup,
                                const GeglRectangle   *rect,
                                GError               **error);

G_END_DECLS

#endif
