/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-babl-format.c: the babl format pixels cross to the engine in.
 *
 * Pixels travel in the drawable's own encoding (u8, u16, half, float; u32
 * and double become float), straight alpha as GIMP stores it, so that
 * GeglBuffer only copies: no precision is lost and babl has no conversion
 * to build in each new plug-in process, which cost more than a small
 * image's pixels (docs/notebook/performance-2026.md, "What made it
 * faster: memory touched for the first time").  RGB without alpha is read
 * with an opaque alpha, the one conversion left.
 *
 * Variants that mix pixels work in linear light.  Which curve encodes
 * the colour values is read from the format's model:
 *   - linear models ("RGBA float"): linear light as they are;
 *   - "~" models: babl's perceptual curve, which is sRGB's in every
 *     colour space, so the kernels decode them;
 *   - "'" models: the colour space's own curve.  The space's curve
 *     objects are compared with babl_trc ("sRGB") and babl_trc
 *     ("linear"): babl 0.1.114 returns those very objects for spaces whose
 *     curves are sRGB's or linear, also when the space comes from an ICC
 *     profile (checked with GIMP's built-in sRGB, Ghostscript's srgb.icc,
 *     default_rgb.icc and default_gray.icc, which all yield the sRGB
 *     curve, and with a98.icc (gamma 2.2), rommrgb.icc (1.8) and
 *     esrgb.icc (a sampled curve), which do not).  A curve the kernels do
 *     not know is left to babl: the pixels then cross as linear float in
 *     the image's space ("RGBA float", "YA float", "Y float"), converted
 *     on the way in and out.  Comparing spaces (babl_space ("sRGB")) would
 *     not do: an sRGB-curved space with other primaries is a different
 *     space with the same curve, and linear mixing does not depend on the
 *     primaries. */
#include <string.h>

#include <libintl.h>

#include "clfx-babl-format.h"

/* The catalog is the plug-in's; inside GEGL's process nothing binds it
 * and messages stay in English. */
#define _(s) dgettext ("clfx", s)

gboolean
clfx_babl_space_has_trc (const Babl *space,
                         const Babl *trc)
{
  const Babl *r = NULL, *g = NULL, *b = NULL;

  if (! space || ! trc)
    return FALSE;
  babl_space_get (space, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, &r,
                  &g, &b);
  /* Green and blue may be left out when they are red's. */
  return r == trc && (! g || g == trc) && (! b || b == trc);
}

static gboolean
clfx_depth_for_type (const Babl *format,
                     ClfxDepth  *depth,
                     ClfxError  *error)
{
  const gchar *type = babl_get_name (babl_format_get_type (format, 0));

  if (! strcmp (type, "u8"))
    *depth = CLFX_DEPTH_U8;
  else if (! strcmp (type, "u16"))
    *depth = CLFX_DEPTH_U16;
  else if (! strcmp (type, "half"))
    *depth = CLFX_DEPTH_HALF;
  else if (! strcmp (type, "float") || ! strcmp (type, "u32")
           || ! strcmp (type, "double"))
    *depth = CLFX_DEPTH_FLOAT; /* no u32/double kernels: float keeps them */
  else
    {
      clfx_error_set (error, CLFX_ERR_UNSUPPORTED,
                      _("unsupported pixel type '%s'"), type);
      return FALSE;
    }
  return TRUE;
}

/* "R'G'B'A u16", "RGBA float", "Y'A u8", "Y~ half", ... */
static gchar *
clfx_format_name (gboolean     gray,
                  gboolean     alpha,
                  const gchar *trc,
                  const gchar *type)
{
  if (gray)
    return g_strdup_printf (alpha ? "Y%sA %s" : "Y%s %s", trc, type);
  /* RGB with or without alpha: without, an opaque alpha is added that the
   * kernels carry along and that is dropped again on writing. */
  return g_strdup_printf ("R%sG%sB%sA %s", trc, trc, trc, type);
}

/* The curve mark of the own format, and its transfer; FALSE when the
 * kernels cannot decode it (the pixels then cross as linear float). */
static gboolean
clfx_own_curve (const Babl   *own,
                const gchar **mark,
                ClfxTransfer *transfer)
{
  BablModelFlag flags = babl_get_model_flags (babl_format_get_model (own));

  /* GIMP's drawables hold straight alpha; anything else goes through
   * babl rather than be misread. */
  if (flags & BABL_MODEL_FLAG_ASSOCIATED)
    return FALSE;
  if (flags & BABL_MODEL_FLAG_LINEAR)
    {
      *mark = "";
      *transfer = CLFX_TRC_LINEAR;
      return TRUE;
    }
  if (flags & BABL_MODEL_FLAG_PERCEPTUAL)
    {
      *mark = "~";
      *transfer = CLFX_TRC_SRGB;
      return TRUE;
    }
  if (flags & BABL_MODEL_FLAG_NONLINEAR)
    {
      const Babl *space = babl_format_get_space (own);

      *mark = "'";
      if (clfx_babl_space_has_trc (space, babl_trc ("sRGB")))
        *transfer = CLFX_TRC_SRGB;
      else if (clfx_babl_space_has_trc (space, babl_trc ("linear")))
        *transfer = CLFX_TRC_LINEAR; /* a "'" that encodes nothing */
      else
        return FALSE;
      return TRUE;
    }
  return FALSE;
}

gboolean
clfx_pixel_format_of_babl (const Babl      *own,
                           ClfxPixelFormat *pf,
                           ClfxError       *error)
{
  const gchar *mark = "";
  gboolean     gray, alpha;
  gchar       *name;

  memset (pf, 0, sizeof *pf);
  if (! own || babl_format_is_palette (own))
    {
      clfx_error_set (error, CLFX_ERR_INVALID, "%s",
                      _("indexed images are not supported: convert "
                        "to RGB first"));
      return FALSE;
    }
  alpha = babl_format_has_alpha (own);
  gray = babl_format_get_n_components (own) - (alpha ? 1 : 0) == 1;
  pf->channels = gray ? (alpha ? 2 : 1) : 4;
  pf->straight_alpha = alpha;
  if (clfx_own_curve (own, &mark, &pf->transfer))
    {
      if (! clfx_depth_for_type (own, &pf->depth, error))
        return FALSE;
      pf->wire = CLFX_WIRE_OWN;
    }
  else
    {
      pf->depth = CLFX_DEPTH_FLOAT;
      pf->transfer = CLFX_TRC_LINEAR;
      pf->wire = CLFX_WIRE_LINEAR;
      mark = "";
    }
  name = clfx_format_name (gray, alpha, mark, clfx_depth_name (pf->depth));
  if (babl_format_exists (name))
    pf->format = babl_format_with_space (name, own);
  else
    clfx_error_set (error, CLFX_ERR_UNSUPPORTED,
                    _("babl has no pixel format '%s'"), name);
  g_free (name);
  return pf->format != NULL;
}

void
clfx_pixel_format_header (const ClfxPixelFormat *pf,
                          gint                   width,
                          gint                   height,
                          ClfxImage             *header)
{
  memset (header, 0, sizeof *header);
  header->width = width;
  header->height = height;
  header->channels = pf->channels;
  header->depth = pf->depth;
  header->straight_alpha = pf->straight_alpha;
  header->transfer = pf->transfer;
}

