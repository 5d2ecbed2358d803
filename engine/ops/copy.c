/* SPDX-License-Identifier: GPL-3.0-or-later */
/* copy.c: the pass-through variant.  Same upload, store and download path
 * as every other variant and no arithmetic: its bytes per second are the
 * roofline the others are measured against. */
#include <stdio.h>
#include <string.h>

#include "clfx-params.h"

static bool
copy_plan (const ClfxParams *p, const ClfxImage *src, ClfxPlan *plan,
           ClfxError *error)
{
  (void) p;
  (void) error;
  plan->width = src->width;
  plan->height = src->height;
  plan->addressing = 0;
  plan->mixes = false; /* texels pass as they are, bit for bit */
  return true;
}

static bool
copy_cl (ClfxGraph *g, const ClfxParams *p, ClfxError *error)
{
  const ClfxTile *t = clfx_graph_tile (g);
  int             rows = clfx_graph_rows_per_item (g);
  ClfxLaunch      l = { "copy_image", NULL, NULL, 2,
                        { (size_t) t->out.width,
                          (size_t) ((t->out.height + rows - 1) / rows) },
                        { 0, 0 } };

  (void) p;
  return CLFX_LAUNCH (g, &l, error, CLFX_SRC, CLFX_DST);
}

static bool
copy_cpu (const ClfxParams *p, const ClfxPlan *plan, const ClfxImage *src,
          ClfxImage *dst, ClfxProbes *probes, ClfxError *error)
{
  (void) p;
  (void) plan;
  (void) probes;
  (void) error;
  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      for (int c = 0; c < src->channels; c++)
        clfx_image_set (dst, x, y, c, clfx_image_get (src, x, y, c));
  return true;
}

static void
copy_tolerance (const ClfxParams *p, const ClfxPlan *plan,
                const ClfxDeviceInfo *dev, const ClfxImage *src,
                const ClfxImage *dst, ClfxTolerance *tol)
{
  (void) p;
  (void) plan;
  (void) dev;
  (void) src;
  (void) dst;
  clfx_tol_init (tol);
  clfx_tol_clause (tol, "copy: exact (a read and a store of the same "
                   "precision)");
}

const ClfxVariant clfx_variant_copy = {
  "copy",
  "copy",
  "Pass-through kernel over the image path (the roofline)",
  NULL,
  copy_plan,
  NULL,
  copy_cl,
  copy_cpu,
  copy_tolerance,
  NULL,
  NULL,
  NULL,
  { NULL, NULL, NULL, NULL },
  NULL,
  NULL,
};
