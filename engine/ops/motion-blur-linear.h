/* SPDX-License-Identifier: GPL-3.0-or-later */
/* motion-blur-linear.h: the filter family's motion-blur-linear variant
 * (motion-blur-linear.c): its parameters, its rows of the family's table,
 * its choice label and its part of the family's help text. */
#ifndef CLFX_MOTION_BLUR_LINEAR_H
#define CLFX_MOTION_BLUR_LINEAR_H

#include "../clfx-family.h"

/* The variant's own parameters: member `motion_linear` of the family's
 * struct. */
typedef struct
{
  double length; /* the path's length in pixels */
  double angle;  /* its direction in degrees */
} ClfxMotionLinearParams;

#define CLFX_MOTION_BLUR_LINEAR_LABEL CLFX_N_ ("Linear motion blur")
#define CLFX_MOTION_BLUR_LINEAR_HELP                                         \
  CLFX_N_ ("motion-blur-linear (length, angle as "                           \
           "gegl:motion-blur-linear)")

/* As an operator of its own: GEGL's operation, categories and menu
 * (GIMP's Filters > Blur > Motion Blur runs GEGL's three). */
#define CLFX_MOTION_BLUR_LINEAR_PLACE                                        \
  { "motion-blur-linear", "blur", "<Image>/Filters/Blur",                    \
    CLFX_N_ ("Linear Motion Blur") }

/* The rows (F: the family's struct, G: their group): GEGL's ranges and
 * defaults. */
#define CLFX_MOTION_BLUR_LINEAR_ROWS(F, G)                                   \
  CLFX_PARAM_DOUBLE_ROW (F, motion_linear.length, "length",                  \
                         CLFX_N_ ("_Length"),                                \
                         CLFX_N_ ("Linear motion blur: the path's length "   \
                                  "in pixels, centred on the pixel"),        \
                         0, 1000, 10, 0, 300, 2, CLFX_UNIT_DISTANCE, G),     \
  CLFX_PARAM_DOUBLE_ROW (F, motion_linear.angle, "angle",                    \
                         CLFX_N_ ("_Angle"),                                 \
                         CLFX_N_ ("Linear motion blur: the path's "          \
                                  "direction in degrees"),                   \
                         -180, 180, 0, -180, 180, 2, CLFX_UNIT_NONE, G)

extern const ClfxVariant clfx_variant_motion_blur_linear;

#endif
