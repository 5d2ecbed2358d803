/* SPDX-License-Identifier: GPL-3.0-or-later */
/* snn-mean.h: the filter family's snn-mean variant (snn-mean.c): its
 * parameters, its rows of the family's table, its choice label and its
 * part of the family's help text. */
#ifndef CLFX_SNN_MEAN_H
#define CLFX_SNN_MEAN_H

#include "../clfx-family.h"

/* The variant's own parameters: member `snn` of the family's struct. */
typedef struct
{
  int radius; /* GEGL's radius */
  int pairs;  /* GEGL's pairs: 1 or 2 */
} ClfxSnnParams;

#define CLFX_SNN_MEAN_LABEL CLFX_N_ ("Symmetric nearest neighbour")
#define CLFX_SNN_MEAN_HELP                                                   \
  CLFX_N_ ("snn-mean (snn-radius (GEGL's radius), pairs as gegl:snn-mean, "  \
           "on straight colour)")

/* As an operator of its own: GEGL's operation, categories and menu
 * (GIMP 3.0's Filters > Enhance > Symmetric Nearest Neighbor, beside
 * its Noise Reduction: image-menu.ui). */
#define CLFX_SNN_MEAN_PLACE                                                  \
  { "snn-mean", "enhance:noise-reduction", "<Image>/Filters/Enhance",        \
    CLFX_N_ ("Symmetric Nearest Neighbor") }

/* The rows (F: the family's struct, G: their group): GEGL's ranges and
 * defaults.  "radius" is the box's and the median's row (another
 * default): this one takes GEGL's name in its own procedure. */
#define CLFX_SNN_MEAN_ROWS(F, G)                                             \
  CLFX_PARAM_INT_ROW_AS ("radius", F, snn.radius, "snn-radius",              \
                         CLFX_N_ ("Radius"),                                 \
                         CLFX_N_ ("Symmetric nearest neighbour: half the "   \
                                  "window's side, (2 radius + 1)^2 pixels "  \
                                  "(GEGL's radius; 0 a copy)"),              \
                         0, 100, 8, 0, 40, CLFX_UNIT_DISTANCE, G),           \
  CLFX_PARAM_INT_ROW (F, snn.pairs, "pairs", CLFX_N_ ("_Pairs"),             \
                      CLFX_N_ ("Symmetric nearest neighbour: 1, the nearer " \
                               "of each pair of opposite pixels; 2, the "    \
                               "nearest of each four (keeps more acute "     \
                               "features)"),                                 \
                      1, 2, 2, 1, 2, CLFX_UNIT_NONE, G)

extern const ClfxVariant clfx_variant_snn_mean;

#endif
