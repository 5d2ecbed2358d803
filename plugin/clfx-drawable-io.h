/* clfx-drawable-io.h: GIMP drawables to and from the engine's ClfxImage,
 * in the drawable's own precision and colour space. */
#ifndef CLFX_DRAWABLE_IO_H
#define CLFX_DRAWABLE_IO_H

#include <libgimp/gimp.h>

#include "clfx-host-image.h"

G_BEGIN_DECLS

/* The babl format the engine exchanges with drawable d, and the ClfxImage
 * layout it maps to.  Fails for indexed drawables. */
const Babl *clfx_drawable_io_format (GimpDrawable *drawable,
                                     gint         *channels,
                                     ClfxDepth    *depth,
                                     GError      **error);

/* Reads the whole drawable into a new image (free with
 * clfx_host_image_free) and returns the format used in *format. */
gboolean    clfx_drawable_read      (GimpDrawable *drawable,
                                     ClfxImage    *image,
                                     const Babl  **format,
                                     GError      **error);

/* Writes image over the whole drawable (call it after any geometry
 * change) and updates the display.  Normally through the shadow buffer,
 * merged with undo.  replaced: the drawable's buffer was just replaced
 * inside the open undo group (a resize to another size), so the undo step
 * already holds the old pixels; the new buffer is written directly, which
 * saves GIMP a shadow buffer and a second undo copy. */
gboolean    clfx_drawable_write     (GimpDrawable    *drawable,
                                     const ClfxImage *image,
                                     const Babl      *format,
                                     gboolean         replaced,
                                     GError         **error);

G_END_DECLS

#endif
