/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bilateral.h: the filter family's bilateral variant (bilateral.c): its
 * parameters, its rows of the family's table, its choice label and its
 * part of the family's help text. */
#ifndef CLFX_BILATERAL_H
#define CLFX_BILATERAL_H

#include "../clfx-family.h"

/* The variant's own parameters: member `bilateral` of the family's
 * struct. */
typedef struct
{
  double blur_radius;       /* GEGL's blur-radius */
  double edge_preservation; /* GEGL's edge-preservation */
} ClfxBilateralParams;

#define CLFX_BILATERAL_LABEL CLFX_N_ ("Bilateral filter")
#define CLFX_BILATERAL_HELP                                                  \
  CLFX_N_ ("bilateral (blur-radius, edge-preservation as "                   \
           "gegl:bilateral-filter, centred, on straight colour)")

/* As an operator of its own: GEGL's operation, categories and menu
 * (GIMP has no menu entry for gegl:bilateral-filter: beside
 * Enhance's Noise Reduction, as GEGL's categories say). */
#define CLFX_BILATERAL_PLACE                                                 \
  { "bilateral-filter", "enhance:noise-reduction",                           \
    "<Image>/Filters/Enhance",                                               \
    CLFX_N_ ("Bilateral Filter") }

/* The rows (F: the family's struct, G: their group). */
#define CLFX_BILATERAL_ROWS(F, G)                                            \
  CLFX_PARAM_DOUBLE_ROW (F, bilateral.blur_radius, "blur-radius",            \
                         CLFX_N_ ("_Blur radius"),                           \
                         CLFX_N_ ("Bilateral: the window is (2 floor (r) + " \
                                  "1)^2 pixels, the spatial weight "         \
                                  "exp (-d^2 / 2r) (GEGL's blur-radius; "    \
                                  "below 1 a copy)"),                        \
                         0, 1000, 4, 0, 100, 2, CLFX_UNIT_DISTANCE, G),      \
  CLFX_PARAM_DOUBLE_ROW (F, bilateral.edge_preservation,                     \
                         "edge-preservation",                                \
                         CLFX_N_ ("Ed_ge preservation"),                     \
                         CLFX_N_ ("Bilateral: the colour weight "            \
                                  "exp (-|dRGB|^2 p) (GEGL's "               \
                                  "edge-preservation)"),                     \
                         0, 100, 8, 0, 100, 2, CLFX_UNIT_NONE, G)

extern const ClfxVariant clfx_variant_bilateral;

#endif
