/* SPDX-License-Identifier: GPL-3.0-or-later */
/* noise-reduction.h: the filter family's noise-reduction variant
 * (noise-reduction.c), GEGL's anisotropic smoothing: its parameters, its
 * row of the family's table, its choice label and its part of the
 * family's help text. */
#ifndef CLFX_NOISE_REDUCTION_H
#define CLFX_NOISE_REDUCTION_H

#include "../clfx-family.h"

/* The variant's own parameters: member `noise_reduction` of the family's
 * struct. */
typedef struct
{
  int iterations; /* GEGL's iterations ("Strength") */
} ClfxNoiseReductionParams;

#define CLFX_NOISE_REDUCTION_LABEL CLFX_N_ ("Noise reduction")
#define CLFX_NOISE_REDUCTION_HELP                                            \
  CLFX_N_ ("noise-reduction (noise-reduction-iterations (GEGL's "            \
           "iterations) as gegl:noise-reduction)")

/* As an operator of its own: GEGL's operation, categories and menu
 * (GIMP's Filters > Enhance > Noise Reduction). */
#define CLFX_NOISE_REDUCTION_PLACE                                           \
  { "noise-reduction", "enhance:noise-reduction", "<Image>/Filters/Enhance", \
    CLFX_N_ ("Noise Reduction") }

/* The row (F: the family's struct, G: its group): GEGL's range and
 * default.  Mean curvature blur's iterations differ in range and
 * default: this one takes GEGL's name in its own procedure. */
#define CLFX_NOISE_REDUCTION_ROWS(F, G)                                      \
  CLFX_PARAM_INT_ROW_AS ("iterations", F, noise_reduction.iterations,        \
                         "noise-reduction-iterations",                       \
                         CLFX_N_ ("_Strength"),                              \
                         CLFX_N_ ("Noise reduction: the number of "          \
                                  "iterations; lower values give less "      \
                                  "plastic results (GEGL's iterations)"),    \
                         0, 32, 4, 0, 8, CLFX_UNIT_NONE, G)

extern const ClfxVariant clfx_variant_noise_reduction;

#endif
