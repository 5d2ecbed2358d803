/* SPDX-License-Identifier: GPL-3.0-or-later */
/* motion-blur-circular.h: the filter family's motion-blur-circular
 * variant (motion-blur-circular.c): its parameters, its rows of the
 * family's table, its choice label and its part of the family's help
 * text.  The centre (center-x, center-y) is the family's, shared with the
 * zoom (families.c). */
#ifndef CLFX_MOTION_BLUR_CIRCULAR_H
#define CLFX_MOTION_BLUR_CIRCULAR_H

#include "../clfx-family.h"

/* The variant's own parameters: member `motion_circular` of the family's
 * struct. */
typedef struct
{
  double angle; /* the arc around the centre, in degrees */
} ClfxMotionCircularParams;

#define CLFX_MOTION_BLUR_CIRCULAR_LABEL CLFX_N_ ("Circular motion blur")
#define CLFX_MOTION_BLUR_CIRCULAR_HELP                                       \
  CLFX_N_ ("motion-blur-circular (center-x, center-y, circular-angle as "    \
           "gegl:motion-blur-circular's angle)")

/* As an operator of its own: GEGL's operation, categories and menu
 * (GIMP's Filters > Blur). */
#define CLFX_MOTION_BLUR_CIRCULAR_PLACE                                      \
  { "motion-blur-circular", "blur", "<Image>/Filters/Blur",                  \
    CLFX_N_ ("Circular Motion Blur") }

/* The rows (F: the family's struct, G: their group): GEGL's range and
 * default; the family's name differs from the linear blur's angle, the
 * variant's own procedure takes GEGL's. */
#define CLFX_MOTION_BLUR_CIRCULAR_ROWS(F, G)                                 \
  CLFX_PARAM_DOUBLE_ROW_AS ("angle", F, motion_circular.angle,               \
                            "circular-angle", CLFX_N_ ("A_ngle"),            \
                            CLFX_N_ ("Circular motion blur: the arc "        \
                                     "around the centre, in degrees"),       \
                            0, 360, 5, 0, 360, 2, CLFX_UNIT_NONE, G)

extern const ClfxVariant clfx_variant_motion_blur_circular;

#endif
