/* clfx-resize.h: plug-in-clfx-resize's work, from config to image. */
#ifndef CLFX_RESIZE_H
#define CLFX_RESIZE_H

#include <libgimp/gimp.h>

G_BEGIN_DECLS

/* Fails for images the plug-in cannot take (indexed), before anything is
 * read or changed. */
gboolean clfx_resize_check_image (GimpImage     *image,
                                  GError       **error);

/* Resizes as the config says.  The engine runs on every drawable first;
 * only when all succeeded does one undo group change the image, so a
 * failure leaves the image untouched.  *report: the JSON report of the
 * first drawable (g_free). */
gboolean clfx_resize_run         (GimpImage           *image,
                                  GimpDrawable       **drawables,
                                  GimpProcedureConfig *config,
                                  gchar              **report,
                                  GError             **error);

G_END_DECLS

#endif
