/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fattal02.h: the tonemap family's fattal02 (fattal02.c): its parameters
 * (ClfxTonemapParams' member fattal02), choice label, sentence of the
 * family's help text and rows of its table (F: the family's struct; G:
 * the row group). */
#ifndef CLFX_FATTAL02_H
#define CLFX_FATTAL02_H

#include "../clfx-family.h"

typedef struct
{
  double alpha;      /* the gradient threshold, times each pyramid
                      * level's average gradient */
  double beta;       /* the attenuation exponent */
  double saturation; /* colour is (c / Y)^saturation */
  double noise;      /* 0 = 0.1 alpha */
} ClfxFattal02Params;

#define CLFX_FATTAL02_LABEL CLFX_N_ ("Fattal 2002 (gradient domain, local)")
#define CLFX_FATTAL02_HELP                                                   \
  CLFX_N_ ("fattal02 (alpha, beta, saturation, noise): as "                  \
           "gegl:fattal02, gradients attenuated, a Poisson equation "        \
           "solved by multigrid on the device.")
/* As an operator of its own: gegl:fattal02, beside GIMP's Colors >
 * Tone Mapping > Fattal et al. 2002. */
#define CLFX_FATTAL02_PLACE                                                  \
  { "fattal02", "tonemapping", "<Image>/Colors/Tone Mapping",                \
    CLFX_N_ ("Fattal et al. 2002") }
#define CLFX_FATTAL02_ROWS(F, G)                                             \
  CLFX_PARAM_DOUBLE_ROW (F, fattal02.alpha, "alpha", CLFX_N_ ("Al_pha"),     \
                         CLFX_N_ ("Fattal 2002: the gradient threshold, "    \
                                  "times each level's average gradient "     \
                                  "(gegl:fattal02's)"),                      \
                         0, 2, 1, 0, 2, 3, CLFX_UNIT_NONE, G),               \
  CLFX_PARAM_DOUBLE_ROW (F, fattal02.beta, "beta", CLFX_N_ ("Beta"),         \
                         CLFX_N_ ("Fattal 2002: how strongly large "         \
                                  "gradients are attenuated (below 1 "       \
                                  "compresses)"),                            \
                         0.1, 2, 0.9, 0.1, 2, 3, CLFX_UNIT_NONE, G),         \
  CLFX_PARAM_DOUBLE_ROW (F, fattal02.saturation, "saturation",               \
                         CLFX_N_ ("Sat_uration"),                            \
                         CLFX_N_ ("Fattal 2002: colour saturation, "         \
                                  "colour is (c / Y)^saturation"),           \
                         0, 1, 0.8, 0, 1, 3, CLFX_UNIT_NONE, G),             \
  CLFX_PARAM_DOUBLE_ROW (F, fattal02.noise, "noise", CLFX_N_ ("Noise"),      \
                         CLFX_N_ ("Fattal 2002: the gradient below which "   \
                                  "detail is not enhanced (0: 0.1 alpha)"),  \
                         0, 1, 0, 0, 1, 3, CLFX_UNIT_NONE, G)

extern const ClfxVariant clfx_variant_fattal02;

#endif
