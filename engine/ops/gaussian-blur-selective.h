/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gaussian-blur-selective.h: the filter family's gaussian-blur-selective
 * variant (gaussian-blur-selective.c): its parameters, its rows of the
 * family's table, its choice label and its part of the family's help
 * text. */
#ifndef CLFX_GAUSSIAN_BLUR_SELECTIVE_H
#define CLFX_GAUSSIAN_BLUR_SELECTIVE_H

#include "../clfx-family.h"

/* The variant's own parameters: member `selective` of the family's
 * struct. */
typedef struct
{
  double blur_radius; /* GEGL's blur-radius */
  double max_delta;   /* GEGL's max-delta */
} ClfxSelectiveParams;

#define CLFX_GAUSSIAN_BLUR_SELECTIVE_LABEL CLFX_N_ ("Selective gaussian blur")
#define CLFX_GAUSSIAN_BLUR_SELECTIVE_HELP                                    \
  CLFX_N_ ("gaussian-blur-selective (selective-blur-radius (GEGL's "         \
           "blur-radius), max-delta as gegl:gaussian-blur-selective, on "    \
           "sRGB-encoded straight colour)")

/* As an operator of its own: GEGL's operation, categories and menu
 * (GIMP's Filters > Blur > Selective Gaussian Blur). */
#define CLFX_GAUSSIAN_BLUR_SELECTIVE_PLACE                                   \
  { "gaussian-blur-selective", "enhance:noise-reduction",                    \
    "<Image>/Filters/Blur", CLFX_N_ ("Selective Gaussian Blur") }

/* The rows (F: the family's struct, G: their group): GEGL's ranges and
 * defaults.  "blur-radius" is the bilateral's row (another range and
 * default): this one takes GEGL's name in its own procedure. */
#define CLFX_GAUSSIAN_BLUR_SELECTIVE_ROWS(F, G)                              \
  CLFX_PARAM_DOUBLE_ROW_AS ("blur-radius", F, selective.blur_radius,         \
                            "selective-blur-radius",                         \
                            CLFX_N_ ("_Blur radius"),                        \
                            CLFX_N_ ("Selective gaussian blur: the window "  \
                                     "is (2 floor (r) + 1)^2 pixels, the "   \
                                     "weight exp (-d^2 / 2r) (GEGL's "       \
                                     "blur-radius)"),                        \
                            1, 1000, 5, 1, 100, 2, CLFX_UNIT_DISTANCE, G),   \
  CLFX_PARAM_DOUBLE_ROW (F, selective.max_delta, "max-delta",                \
                         CLFX_N_ ("Max. _delta"),                            \
                         CLFX_N_ ("Selective gaussian blur: a neighbour's "  \
                                  "channel counts where it differs from "    \
                                  "the centre's by at most this much "       \
                                  "(sRGB-encoded)"),                         \
                         0, 1, 0.2, 0, 1, 3, CLFX_UNIT_NONE, G)

extern const ClfxVariant clfx_variant_gaussian_blur_selective;

#endif
