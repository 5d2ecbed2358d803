/* SPDX-License-Identifier: GPL-3.0-or-later */
/* median.h: the filter family's median variant (median.c): its
 * parameters, its rows of the family's table, its choice label and its
 * part of the family's help text.  Its radius is the family's (the box
 * reads it too). */
#ifndef CLFX_MEDIAN_H
#define CLFX_MEDIAN_H

#include "../clfx-family.h"

/* The window's shape, GEGL's neighborhood (in its order). */
enum
{
  CLFX_MEDIAN_SQUARE,
  CLFX_MEDIAN_CIRCLE,
  CLFX_MEDIAN_DIAMOND
};

/* The variant's own parameters: member `median` of the family's struct. */
typedef struct
{
  double percentile;   /* 0-100 */
  int    neighborhood; /* CLFX_MEDIAN_* */
} ClfxMedianParams;

#define CLFX_MEDIAN_LABEL CLFX_N_ ("Median blur")
#define CLFX_MEDIAN_HELP                                                     \
  CLFX_N_ ("median (radius, percentile, neighborhood as "                    \
           "gegl:median-blur in high precision, on the stored values)")

/* As an operator of its own: GEGL's operation, categories and menu
 * (GIMP's Filters > Blur > Median Blur). */
#define CLFX_MEDIAN_PLACE                                                    \
  { "median-blur", "blur:noise-reduction",                                   \
    "<Image>/Filters/Blur",                                                  \
    CLFX_N_ ("Median Blur") }

/* The neighborhood's choices, in CLFX_MEDIAN_* order. */
#define CLFX_MEDIAN_NEIGHBORHOOD_CHOICES                                     \
  ((const ClfxChoice[]) { { "square", CLFX_N_ ("Square") },                  \
                          { "circle", CLFX_N_ ("Circle") },                  \
                          { "diamond", CLFX_N_ ("Diamond") },                \
                          { NULL, NULL } })

/* The rows (F: the family's struct, G: their group). */
#define CLFX_MEDIAN_ROWS(F, G)                                               \
  CLFX_PARAM_DOUBLE_ROW (F, median.percentile, "percentile",                 \
                         CLFX_N_ ("_Percentile"),                            \
                         CLFX_N_ ("Median: the neighborhood's colour "       \
                                  "percentile (50: the median; GEGL's "      \
                                  "percentile)"),                            \
                         0, 100, 50, 0, 100, 1, CLFX_UNIT_NONE, G),          \
  CLFX_PARAM_CHOICE_ROW (F, median.neighborhood, "neighborhood",             \
                         CLFX_N_ ("_Neighborhood"),                          \
                         CLFX_N_ ("Median: the window's shape (GEGL's "      \
                                  "neighborhood)"),                          \
                         CLFX_MEDIAN_NEIGHBORHOOD_CHOICES,                   \
                         CLFX_MEDIAN_CIRCLE, G)

extern const ClfxVariant clfx_variant_median;

#endif
