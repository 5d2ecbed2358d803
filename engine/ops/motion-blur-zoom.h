/* SPDX-License-Identifier: GPL-3.0-or-later */
/* motion-blur-zoom.h: the filter family's motion-blur-zoom variant
 * (motion-blur-zoom.c): its parameters, its rows of the family's table,
 * its choice label and its part of the family's help text.  The centre
 * (center-x, center-y) is the family's, shared with the other motion
 * blurs (families.c). */
#ifndef CLFX_MOTION_BLUR_ZOOM_H
#define CLFX_MOTION_BLUR_ZOOM_H

#include "../clfx-family.h"

/* The variant's own parameters: member `motion_zoom` of the family's
 * struct. */
typedef struct
{
  double factor; /* the path: from the pixel this fraction of the way to
                  * the centre (negative: away from it) */
} ClfxMotionZoomParams;

#define CLFX_MOTION_BLUR_ZOOM_LABEL CLFX_N_ ("Zoom motion blur")
#define CLFX_MOTION_BLUR_ZOOM_HELP                                           \
  CLFX_N_ ("motion-blur-zoom (center-x, center-y, factor as "                \
           "gegl:motion-blur-zoom)")

/* As an operator of its own: GEGL's operation, categories and menu
 * (GIMP's Filters > Blur). */
#define CLFX_MOTION_BLUR_ZOOM_PLACE                                          \
  { "motion-blur-zoom", "blur", "<Image>/Filters/Blur",                      \
    CLFX_N_ ("Zoom Motion Blur") }

/* The rows (F: the family's struct, G: their group): GEGL's range and
 * default. */
#define CLFX_MOTION_BLUR_ZOOM_ROWS(F, G)                                     \
  CLFX_PARAM_DOUBLE_ROW (F, motion_zoom.factor, "factor",                    \
                         CLFX_N_ ("Blurring _factor"),                       \
                         CLFX_N_ ("Zoom motion blur: the path goes this "    \
                                  "fraction of the way from the pixel to "   \
                                  "the centre (negative: away from it)"),    \
                         -10, 1, 0.1, -0.5, 1, 3, CLFX_UNIT_NONE, G)

extern const ClfxVariant clfx_variant_motion_blur_zoom;

#endif
