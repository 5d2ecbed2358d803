/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-babl-format.h: the babl format pixels cross to the engine in, and
 * the ClfxImage layout it maps to.  GIMP-free (babl and GLib only): the
 * plug-in maps a drawable's format through it, the GEGL module an input
 * pad's. */
#ifndef CLFX_BABL_FORMAT_H
#define CLFX_BABL_FORMAT_H

#include <babl/babl.h>
#include <glib.h>

#include "clfx-error.h"
#include "clfx-host-image.h"

G_BEGIN_DECLS

typedef enum
{
  CLFX_WIRE_OWN,      /* the pixels' own encoding: GeglBuffer only copies;
                       * the kernels decode sRGB where they read */
  CLFX_WIRE_LINEAR    /* linear float that babl converts to and from: the
                       * colour space has a curve the kernels do not know */
} ClfxWire;

typedef struct
{
  const Babl  *format;   /* with the source's colour space */
  gint         channels; /* 1 gray, 2 gray + alpha, 4 RGB(A) */
  ClfxDepth    depth;
  ClfxTransfer transfer;
  ClfxWire     wire;
  gboolean     straight_alpha;
} ClfxPixelFormat;

/* The format pixels stored as `own` cross in.  Fails (CLFX_ERR_INVALID)
 * for palette formats and (CLFX_ERR_UNSUPPORTED) for types the engine has
 * no depth for. */
gboolean     clfx_pixel_format_of_babl   (const Babl            *own,
                                          ClfxPixelFormat       *pf,
                                          ClfxError             *error);
/* An image of this format and size without pixels (data NULL): what
 * clfx_run_check and clfx_plan_make need to know about a source. */
void         clfx_pixel_format_header    (const ClfxPixelFormat *pf,
                                          gint                   width,
                                          gint                   height,
                                          ClfxImage             *header);

/* Whether every colour curve of space is trc (babl hands out one object
 * per curve, so sRGB-curved spaces made from ICC profiles compare equal
 * to babl_trc ("sRGB")). */
gboolean     clfx_babl_space_has_trc     (const Babl            *space,
                                          const Babl            *trc);

G_END_DECLS

#endif
