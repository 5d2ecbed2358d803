/* SPDX-License-Identifier: GPL-3.0-or-later */
/* box.h: the filter family's box variant (box.c): its choice label and
 * its part of the family's help text.  Its one parameter, radius, is the
 * family's (the median reads it too). */
#ifndef CLFX_BOX_H
#define CLFX_BOX_H

#include "../clfx-family.h"

#define CLFX_BOX_LABEL CLFX_N_ ("Box blur")
#define CLFX_BOX_HELP CLFX_N_ ("box (radius)")

/* As an operator of its own: GEGL's operation, categories and menu
 * (GIMP has no menu entry for gegl:box-blur: beside the other blurs). */
#define CLFX_BOX_PLACE                                                       \
  { "box-blur", "blur", "<Image>/Filters/Blur",                               \
    CLFX_N_ ("Box Blur") }

extern const ClfxVariant clfx_variant_box;

#endif
