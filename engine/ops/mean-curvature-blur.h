/* SPDX-License-Identifier: GPL-3.0-or-later */
/* mean-curvature-blur.h: the filter family's mean-curvature-blur variant
 * (mean-curvature-blur.c): its parameters, its row of the family's
 * table, its choice label and its part of the family's help text. */
#ifndef CLFX_MEAN_CURVATURE_BLUR_H
#define CLFX_MEAN_CURVATURE_BLUR_H

#include "../clfx-family.h"

/* The variant's own parameters: member `mean_curvature` of the family's
 * struct. */
typedef struct
{
  int iterations; /* GEGL's iterations */
} ClfxMeanCurvatureParams;

#define CLFX_MEAN_CURVATURE_BLUR_LABEL CLFX_N_ ("Mean curvature blur")
#define CLFX_MEAN_CURVATURE_BLUR_HELP                                        \
  CLFX_N_ ("mean-curvature-blur (mean-curvature-iterations (GEGL's "         \
           "iterations) as gegl:mean-curvature-blur)")

/* As an operator of its own: GEGL's operation, categories and menu
 * (GIMP's Filters > Blur > Mean Curvature Blur). */
#define CLFX_MEAN_CURVATURE_BLUR_PLACE                                       \
  { "mean-curvature-blur", "blur", "<Image>/Filters/Blur",                   \
    CLFX_N_ ("Mean Curvature Blur") }

/* The row (F: the family's struct, G: its group): GEGL's range and
 * default.  Noise reduction's iterations differ in range and default:
 * this one takes GEGL's name in its own procedure. */
#define CLFX_MEAN_CURVATURE_BLUR_ROWS(F, G)                                  \
  CLFX_PARAM_INT_ROW_AS ("iterations", F, mean_curvature.iterations,         \
                         "mean-curvature-iterations",                        \
                         CLFX_N_ ("_Iterations"),                            \
                         CLFX_N_ ("Mean curvature blur: the number of "      \
                                  "iterations (GEGL's iterations)"),         \
                         0, 500, 20, 0, 60, CLFX_UNIT_NONE, G)

extern const ClfxVariant clfx_variant_mean_curvature_blur;

#endif
