/* SPDX-License-Identifier: GPL-3.0-or-later */
/* convolve.h: the filter family's convolve variant (convolve.c): its
 * parameters, its rows of the family's table, its choice label and its
 * part of the family's help text. */
#ifndef CLFX_CONVOLVE_H
#define CLFX_CONVOLVE_H

#include <stdbool.h>

#include "../clfx-family.h"

/* The variant's own parameters: member `convolve` of the family's
 * struct. */
typedef struct
{
  char   matrix[640]; /* 9, 25 or 49 numbers, row by row */
  double divisor;
  double offset;
  bool   normalize;
  bool   alpha_weight;
} ClfxConvolveParams;

#define CLFX_CONVOLVE_LABEL CLFX_N_ ("Convolution matrix")
#define CLFX_CONVOLVE_HELP                                                   \
  CLFX_N_ ("convolve (matrix, divisor, offset, normalize, alpha-weight "     \
           "as GIMP's Convolution Matrix, 3x3 to 7x7)")

/* As an operator of its own: GEGL's operation, categories and menu
 * (GIMP's Filters > Generic > Convolution Matrix). */
#define CLFX_CONVOLVE_PLACE                                                  \
  { "convolution-matrix", "generic",                                         \
    "<Image>/Filters/Generic",                                               \
    CLFX_N_ ("Convolution Matrix") }

/* The rows (F: the family's struct, G: their group). */
#define CLFX_CONVOLVE_ROWS(F, G)                                             \
  CLFX_PARAM_STRING_ROW (F, convolve.matrix, "matrix", CLFX_N_ ("Matrix"),   \
                         CLFX_N_ ("Convolve: 9, 25 or 49 numbers (3x3, 5x5 " \
                                  "or 7x7), row by row; the number in row "  \
                                  "r, column c weighs the pixel c - n/2 "    \
                                  "across, r - n/2 down (not flipped, as "   \
                                  "GIMP's Convolution Matrix)"),             \
                         "0 0 0  0 1 0  0 0 0", G),                          \
  CLFX_PARAM_DOUBLE_ROW (F, convolve.divisor, "divisor",                     \
                         CLFX_N_ ("Divisor"),                                \
                         CLFX_N_ ("Convolve: the sum is divided by it "      \
                                  "(unless normalize); 0 copies the image, " \
                                  "as GIMP's does"),                         \
                         -1000, 1000, 1, -1000, 1000, 3, CLFX_UNIT_NONE, G), \
  CLFX_PARAM_DOUBLE_ROW (F, convolve.offset, "offset", CLFX_N_ ("Offset"),   \
                         CLFX_N_ ("Convolve: added after dividing (unless "  \
                                  "normalize), alpha included"),             \
                         -1, 1, 0, -1, 1, 3, CLFX_UNIT_NONE, G),             \
  CLFX_PARAM_BOOL_ROW (F, convolve.normalize, "normalize",                   \
                       CLFX_N_ ("Normali_ze"),                               \
                       CLFX_N_ ("Convolve: divide by the matrix's sum (by "  \
                                "minus it, offset 1, when negative; offset " \
                                "0.5 when 0)"),                              \
                       1, G),                                                \
  CLFX_PARAM_BOOL_ROW (F, convolve.alpha_weight, "alpha-weight",             \
                       CLFX_N_ ("Alpha-_weighting"),                         \
                       CLFX_N_ ("Convolve: weigh colour by alpha, so "       \
                                "transparent pixels do not bleed in"),       \
                       1, G)

extern const ClfxVariant clfx_variant_convolve;

#endif
