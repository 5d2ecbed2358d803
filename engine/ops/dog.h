/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dog.h: the filter family's dog variant (dog.c), a difference of
 * gaussians: its parameters, its rows of the family's table, its choice
 * label and its part of the family's help text. */
#ifndef CLFX_DOG_H
#define CLFX_DOG_H

#include "../clfx-family.h"

/* The variant's own parameters: member `dog` of the family's struct. */
typedef struct
{
  double radius1; /* the two blurs' sigmas (GEGL's radius1, radius2) */
  double radius2;
} ClfxDogParams;

#define CLFX_DOG_LABEL CLFX_N_ ("Difference of Gaussians")
#define CLFX_DOG_HELP                                                        \
  CLFX_N_ ("dog (radius1, radius2 as gegl:difference-of-gaussians)")

/* As an operator of its own: GEGL's operation, categories and menu
 * (GIMP's Filters > Edge-Detect > Difference of Gaussians). */
#define CLFX_DOG_PLACE                                                       \
  { "difference-of-gaussians", "edge-detect",                                \
    "<Image>/Filters/Edge-Detect", CLFX_N_ ("Difference of Gaussians") }

/* The rows (F: the family's struct, G: their group). */
#define CLFX_DOG_ROWS(F, G)                                                  \
  CLFX_PARAM_DOUBLE_ROW (F, dog.radius1, "radius1", CLFX_N_ ("Radius _1"),   \
                         CLFX_N_ ("Difference of Gaussians: standard "       \
                                  "deviation of the blur subtracted from"),  \
                         0, 1000, 1, 0, 10, 2, CLFX_UNIT_DISTANCE, G),       \
  CLFX_PARAM_DOUBLE_ROW (F, dog.radius2, "radius2", CLFX_N_ ("Radius _2"),   \
                         CLFX_N_ ("Difference of Gaussians: standard "       \
                                  "deviation of the blur subtracted"),       \
                         0, 1000, 2, 0, 20, 2, CLFX_UNIT_DISTANCE, G)

extern const ClfxVariant clfx_variant_dog;

#endif
