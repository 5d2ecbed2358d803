/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-pixel-format.c: the babl format a drawable's pixels cross in
 * (gegl-module/clfx-babl-format.c says which and why), and how the
 * Diagnostics tab describes it. */
#include <libintl.h>

#include "clfx-args.h"
#include "clfx-pixel-format.h"

#define _(s) gettext (s)

gboolean
clfx_pixel_format_of (GimpDrawable    *drawable,
                      ClfxPixelFormat *pf,
                      GError         **error)
{
  ClfxError e = { 0 };

  if (! clfx_pixel_format_of_babl (gimp_drawable_get_format (drawable), pf,
                                   &e))
    {
      clfx_set_gerror (error, &e);
      return FALSE;
    }
  return TRUE;
}

const gchar *
clfx_pixel_format_describe (const ClfxPixelFormat *pf)
{
  if (pf->wire == CLFX_WIRE_LINEAR)
    return _("the colour space's own curve: babl converts to linear light "
             "(float) and back");
  if (pf->transfer == CLFX_TRC_SRGB)
    return _("sRGB curve: decoded to linear light where pixels mix, "
             "encoded again on storing");
  return _("linear light");
}
