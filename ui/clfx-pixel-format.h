/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-pixel-format.h: how a drawable's pixels cross to the engine: the
 * babl format they travel in, the ClfxImage layout it maps to and the
 * transfer curve of the colour values. */
#ifndef CLFX_PIXEL_FORMAT_H
#define CLFX_PIXEL_FORMAT_H

#include <libgimp/gimp.h>

#include "clfx-babl-format.h"

G_BEGIN_DECLS

/* The format pixels of drawable cross in.  Fails for indexed drawables
 * and types the engine has no depth for. */
gboolean     clfx_pixel_format_of        (GimpDrawable          *drawable,
                                          ClfxPixelFormat       *pf,
                                          GError               **error);
/* One line for the Diagnostics tab: how colour is encoded and where it
 * is decoded (translated). */
const gchar *clfx_pixel_format_describe  (const ClfxPixelFormat *pf);

G_END_DECLS

#endif
