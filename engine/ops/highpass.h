/* SPDX-License-Identifier: GPL-3.0-or-later */
/* highpass.h: the filter family's highpass variant (highpass.c): its
 * parameters, its rows of the family's table, its choice label and its
 * part of the family's help text. */
#ifndef CLFX_HIGHPASS_H
#define CLFX_HIGHPASS_H

#include "../clfx-family.h"

/* The variant's own parameters: member `highpass` of the family's
 * struct. */
typedef struct
{
  double std_dev;  /* the blur's sigma (GEGL's std-dev) */
  double contrast;
} ClfxHighpassParams;

#define CLFX_HIGHPASS_LABEL CLFX_N_ ("High pass")
#define CLFX_HIGHPASS_HELP                                                   \
  CLFX_N_ ("highpass (highpass-std-dev (GEGL's std-dev), contrast as "       \
           "gegl:high-pass)")

/* As an operator of its own: GEGL's operation, categories and menu
 * (GIMP's Filters > Enhance > High Pass). */
#define CLFX_HIGHPASS_PLACE                                                  \
  { "high-pass", "frequency", "<Image>/Filters/Enhance",                     \
    CLFX_N_ ("High Pass") }

/* The rows (F: the family's struct, G: their group).  "std-dev" is
 * unsharp's row: this one takes GEGL's name in its own procedure. */
#define CLFX_HIGHPASS_ROWS(F, G)                                             \
  CLFX_PARAM_DOUBLE_ROW_AS ("std-dev", F, highpass.std_dev,                  \
                            "highpass-std-dev", CLFX_N_ ("Std. _Dev."),      \
                            CLFX_N_ ("High pass: standard deviation of the " \
                                     "blur in pixels (GEGL's std-dev)"),     \
                            0, 10000, 4, 0, 1000, 2, CLFX_UNIT_DISTANCE, G), \
  CLFX_PARAM_DOUBLE_ROW (F, highpass.contrast, "contrast",                   \
                         CLFX_N_ ("_Contrast"),                              \
                         CLFX_N_ ("High pass: contrast of the difference "   \
                                  "around 0.5"),                             \
                         0, 5, 1, 0, 5, 2, CLFX_UNIT_NONE, G)

extern const ClfxVariant clfx_variant_highpass;

#endif
