/* SPDX-License-Identifier: GPL-3.0-or-later */
/* unsharp.h: the filter family's unsharp variant (unsharp.c): its
 * parameters, its rows of the family's table, its choice label and its
 * part of the family's help text. */
#ifndef CLFX_UNSHARP_H
#define CLFX_UNSHARP_H

#include "../clfx-family.h"

/* The variant's own parameters: member `unsharp` of the family's
 * struct. */
typedef struct
{
  double std_dev;   /* the blur's sigma (GEGL's std-dev) */
  double amount;    /* GEGL's scale */
  double threshold;
} ClfxUnsharpParams;

#define CLFX_UNSHARP_LABEL CLFX_N_ ("Unsharp mask (sharpen)")
#define CLFX_UNSHARP_HELP                                                    \
  CLFX_N_ ("unsharp (std-dev, amount (GEGL's scale), threshold as "          \
           "gegl:unsharp-mask)")

/* As an operator of its own: GEGL's operation, categories and menu
 * (GIMP's Filters > Enhance > Sharpen (Unsharp Mask)). */
#define CLFX_UNSHARP_PLACE                                                   \
  { "unsharp-mask", "enhance:sharpen",                                       \
    "<Image>/Filters/Enhance",                                               \
    CLFX_N_ ("Sharpen (Unsharp Mask)") }

/* The rows (F: the family's struct, G: their group). */
#define CLFX_UNSHARP_ROWS(F, G)                                              \
  CLFX_PARAM_DOUBLE_ROW (F, unsharp.std_dev, "std-dev", CLFX_N_ ("Ra_dius"), \
                         CLFX_N_ ("Unsharp: standard deviation of the blur " \
                                  "in pixels (GEGL's std-dev, its "          \
                                  "\"Radius\")"),                            \
                         0, 1500, 3, 0, 40, 2, CLFX_UNIT_DISTANCE, G),       \
  CLFX_PARAM_DOUBLE_ROW_AS ("scale", F, unsharp.amount, "amount",           \
                            CLFX_N_ ("_Amount"),                             \
                            CLFX_N_ ("Unsharp: strength, out = in + amount " \
                                     "(in - blur) (GEGL's scale)"),          \
                            0, 300, 0.5, 0, 10, 3, CLFX_UNIT_NONE, G),       \
  CLFX_PARAM_DOUBLE_ROW (F, unsharp.threshold, "threshold",                  \
                         CLFX_N_ ("_Threshold"),                             \
                         CLFX_N_ ("Unsharp: sharpen only where the "         \
                                  "difference's luminance is at least this " \
                                  "(GEGL's threshold mask)"),                \
                         0, 1, 0, 0, 1, 3, CLFX_UNIT_NONE, G)

extern const ClfxVariant clfx_variant_unsharp;

#endif
