/* SPDX-License-Identifier: GPL-3.0-or-later */
/* mantiuk06.h: the tonemap family's mantiuk06 (mantiuk06.c): its
 * parameters (ClfxTonemapParams' member mantiuk06), choice label,
 * sentence of the family's help text and rows of its table (F: the
 * family's struct; G: the row group).  The rows' names carry the
 * operator's (the family has a contrast, a detail and a saturation of
 * other operators); the variant's own procedure and the GEGL operation
 * take them under GEGL's names. */
#ifndef CLFX_MANTIUK06_H
#define CLFX_MANTIUK06_H

#include "../clfx-family.h"

typedef struct
{
  double contrast;   /* the response's scale (GEGL's contrast) */
  double saturation; /* colour is (c / Y)^saturation */
  double detail;     /* pfstmo's detail factor (GEGL ignores its own) */
} ClfxMantiuk06Params;

#define CLFX_MANTIUK06_LABEL                                                 \
  CLFX_N_ ("Mantiuk 2006 (contrast domain, local)")
#define CLFX_MANTIUK06_HELP                                                  \
  CLFX_N_ ("mantiuk06 (mantiuk-contrast, mantiuk-saturation, "               \
           "mantiuk-detail): as gegl:mantiuk06, contrast mapped in a "       \
           "gradient pyramid, the luminance solved by conjugate gradients "  \
           "on the device.")
/* As an operator of its own: gegl:mantiuk06, beside GIMP's Colors >
 * Tone Mapping > Mantiuk 2006. */
#define CLFX_MANTIUK06_PLACE                                                 \
  { "mantiuk06", "tonemapping", "<Image>/Colors/Tone Mapping",               \
    CLFX_N_ ("Mantiuk 2006") }
#define CLFX_MANTIUK06_ROWS(F, G)                                            \
  CLFX_PARAM_DOUBLE_ROW_AS ("contrast", F, mantiuk06.contrast,               \
                            "mantiuk-contrast", CLFX_N_ ("Co_ntrast"),       \
                            CLFX_N_ ("Mantiuk 2006: the contrast "           \
                                     "response's scale (below 1 "            \
                                     "compresses)"),                         \
                            0, 1, 0.1, 0, 1, 3, CLFX_UNIT_NONE, G),          \
  CLFX_PARAM_DOUBLE_ROW_AS ("saturation", F, mantiuk06.saturation,           \
                            "mantiuk-saturation", CLFX_N_ ("Sat_uration"),   \
                            CLFX_N_ ("Mantiuk 2006: colour saturation, "     \
                                     "colour is (c / Y)^saturation"),        \
                            0, 2, 0.8, 0, 2, 3, CLFX_UNIT_NONE, G),          \
  CLFX_PARAM_DOUBLE_ROW_AS ("detail", F, mantiuk06.detail,                   \
                            "mantiuk-detail", CLFX_N_ ("De_tail"),           \
                            CLFX_N_ ("Mantiuk 2006: pfstmo's detail "        \
                                     "factor, gradients read d times as "    \
                                     "steep by the transducer (1: GEGL's, "  \
                                     "which ignores its detail)"),           \
                            1, 99, 1, 1, 99, 2, CLFX_UNIT_NONE, G)

extern const ClfxVariant clfx_variant_mantiuk06;

#endif
