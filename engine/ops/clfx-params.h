/* clfx-params.h: each family's parameter struct (the family table's rows
 * point into these by offset) and the variants of each family. */
#ifndef CLFX_PARAMS_H
#define CLFX_PARAMS_H

#include <stdbool.h>

#include "../clfx-graph.h"

/* resize: one variant. */
typedef struct
{
  int    width, height;
  double zoom_x, zoom_y;
  int    filter;      /* CLFX_RESAMPLE_* */
  int    addressing;  /* CLFX_ADDR_* */
  bool   normalized;
  int    target;      /* plug-in only: 0 the selected layers, 1 the image */
} ClfxResizeParams;

/* copy (internal): the pass-through roofline, no parameters. */
typedef struct
{
  int unused;
} ClfxCopyParams;

extern const ClfxVariant clfx_variant_resize;
extern const ClfxVariant clfx_variant_copy;

/* The addressing modes, in CLFX_ADDR_* order (resize's sampler choice, and
 * the edge handling of the families to come). */
extern const ClfxChoice clfx_addressing_choices[];

#endif
