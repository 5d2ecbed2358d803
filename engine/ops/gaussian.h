/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gaussian.h: the filter family's gaussian variant (gaussian.c): its
 * parameters, its rows of the family's table, its choice label and its
 * part of the family's help text. */
#ifndef CLFX_GAUSSIAN_H
#define CLFX_GAUSSIAN_H

#include "../clfx-family.h"

/* The method per axis, GEGL's: auto = FIR below sigma 1, IIR from 1. */
enum
{
  CLFX_GAUSS_AUTO,
  CLFX_GAUSS_FIR,
  CLFX_GAUSS_IIR
};

/* The variant's own parameters: member `gaussian` of the family's
 * struct. */
typedef struct
{
  double std_dev_x; /* sigma of each axis, GEGL's std-dev-x, std-dev-y */
  double std_dev_y;
  int    method;    /* CLFX_GAUSS_* */
} ClfxGaussianParams;

#define CLFX_GAUSSIAN_LABEL CLFX_N_ ("Gaussian blur")
#define CLFX_GAUSSIAN_HELP                                                   \
  CLFX_N_ ("gaussian (std-dev-x, std-dev-y, method auto/fir/iir, GEGL's "   \
           "filter, as gegl:gaussian-blur)")

/* As an operator of its own: GEGL's operation, categories and menu
 * (GIMP's Filters > Blur > Gaussian Blur). */
#define CLFX_GAUSSIAN_PLACE                                                  \
  { "gaussian-blur", "blur", "<Image>/Filters/Blur",                          \
    CLFX_N_ ("Gaussian Blur") }

/* The method's choices, in CLFX_GAUSS_* order. */
#define CLFX_GAUSS_METHOD_CHOICES                                            \
  ((const ClfxChoice[]) {                                                    \
    { "auto", CLFX_N_ ("Auto (FIR below sigma 1, IIR from 1)") },            \
    { "fir", CLFX_N_ ("FIR (sampled Gaussian)") },                           \
    { "iir", CLFX_N_ ("IIR (recursive)") },                                  \
    { NULL, NULL } })

/* The rows (F: the family's struct, G: their group). */
#define CLFX_GAUSSIAN_ROWS(F, G)                                             \
  CLFX_PARAM_DOUBLE_ROW (F, gaussian.std_dev_x, "std-dev-x",                 \
                         CLFX_N_ ("Size _X"),                                \
                         CLFX_N_ ("Standard deviation of the horizontal "    \
                                  "blur in pixels (GEGL's std-dev-x)"),      \
                         0, 1500, 1.5, 0.24, 100, 2, CLFX_UNIT_DISTANCE, G), \
  CLFX_PARAM_DOUBLE_ROW (F, gaussian.std_dev_y, "std-dev-y",                 \
                         CLFX_N_ ("Size _Y"),                                \
                         CLFX_N_ ("Standard deviation of the vertical blur " \
                                  "in pixels (GEGL's std-dev-y)"),           \
                         0, 1500, 1.5, 0.24, 100, 2, CLFX_UNIT_DISTANCE, G), \
  CLFX_PARAM_CHOICE_ROW_AS ("filter", F, gaussian.method, "method",         \
                            CLFX_N_ ("_Method"),                             \
                            CLFX_N_ ("How the Gaussian is computed, per "    \
                                     "axis, as GEGL's filter property"),     \
                            CLFX_GAUSS_METHOD_CHOICES, CLFX_GAUSS_AUTO, G)

extern const ClfxVariant clfx_variant_gaussian;

#endif
