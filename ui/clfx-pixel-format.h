/* clfx-pixel-format.h: how a drawable's pixels cross to the engine: the
 * babl format they travel in, the ClfxImage layout it maps to and the
 * transfer curve of the colour values. */
#ifndef CLFX_PIXEL_FORMAT_H
#define CLFX_PIXEL_FORMAT_H

#include <libgimp/gimp.h>

#include "clfx-host-image.h"

G_BEGIN_DECLS

typedef enum
{
  CLFX_WIRE_OWN,      /* the drawable's own encoding: GeglBuffer only copies;
                       * the kernels decode sRGB where they read */
  CLFX_WIRE_LINEAR    /* linear float that babl converts to and from: the
                       * image's colour space has a curve the kernels do
                       * not know */
} ClfxWire;

typedef struct
{
  const Babl  *format;   /* with the drawable's colour space */
  gint         channels; /* 1 gray, 2 gray + alpha, 4 RGB(A) */
  ClfxDepth    depth;
  ClfxTransfer transfer;
  ClfxWire     wire;
  gboolean     straight_alpha;
} ClfxPixelFormat;

/* The format pixels of drawable cross in.  Fails for indexed drawables
 * and types the engine has no depth for. */
gboolean     clfx_pixel_format_of        (GimpDrawable          *drawable,
                                          ClfxPixelFormat       *pf,
                                          GError               **error);
/* An image of this format and size without pixels (data NULL): what
 * clfx_run_check and clfx_plan_make need to know about a source. */
void         clfx_pixel_format_header    (const ClfxPixelFormat *pf,
                                          gint                   width,
                                          gint                   height,
                                          ClfxImage             *header);
/* One line for the Diagnostics tab: how colour is encoded and where it
 * is decoded (translated). */
const gchar *clfx_pixel_format_describe  (const ClfxPixelFormat *pf);

/* Whether every colour curve of space is trc (babl hands out one object
 * per curve, so sRGB-curved spaces made from ICC profiles compare equal
 * to babl_trc ("sRGB")). */
gboolean     clfx_babl_space_has_trc     (const Babl            *space,
                                          const Babl            *trc);

G_END_DECLS

#endif
