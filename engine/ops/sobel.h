/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sobel.h: the filter family's sobel variant (sobel.c): its parameters,
 * its rows of the family's table, its choice label and its part of the
 * family's help text. */
#ifndef CLFX_SOBEL_H
#define CLFX_SOBEL_H

#include <stdbool.h>

#include "../clfx-family.h"

/* The variant's own parameters: member `sobel` of the family's struct. */
typedef struct
{
  bool horizontal; /* the horizontal gradient */
  bool vertical;   /* the vertical gradient */
  bool keep_sign;  /* one direction: 0.5 + G / 8 rather than |G| / 4 */
} ClfxSobelParams;

#define CLFX_SOBEL_LABEL CLFX_N_ ("Sobel edges")
#define CLFX_SOBEL_HELP                                                      \
  CLFX_N_ ("sobel (horizontal, vertical, keep-sign as gegl:edge-sobel, "     \
           "centred)")

/* As an operator of its own: GEGL's operation, categories and menu
 * (GIMP's Filters > Edge-Detect > Sobel). */
#define CLFX_SOBEL_PLACE                                                     \
  { "edge-sobel", "edge-detect",                                             \
    "<Image>/Filters/Edge-Detect",                                           \
    CLFX_N_ ("Sobel") }

/* The rows (F: the family's struct, G: their group). */
#define CLFX_SOBEL_ROWS(F, G)                                                \
  CLFX_PARAM_BOOL_ROW (F, sobel.horizontal, "horizontal",                    \
                       CLFX_N_ ("_Horizontal"),                              \
                       CLFX_N_ ("Sobel: the horizontal gradient"), 1, G),    \
  CLFX_PARAM_BOOL_ROW (F, sobel.vertical, "vertical", CLFX_N_ ("Vertical"),  \
                       CLFX_N_ ("Sobel: the vertical gradient"), 1, G),      \
  CLFX_PARAM_BOOL_ROW (F, sobel.keep_sign, "keep-sign",                      \
                       CLFX_N_ ("_Keep sign"),                               \
                       CLFX_N_ ("Sobel, one direction: keep negative "       \
                                "gradients (0.5 + G / 8) rather than their " \
                                "magnitude (|G| / 4)"),                      \
                       1, G)

extern const ClfxVariant clfx_variant_sobel;

#endif
