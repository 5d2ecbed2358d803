/* SPDX-License-Identifier: GPL-3.0-or-later */
/* local-laplacian.h: the tonemap family's local-laplacian
 * (local-laplacian.c): its parameters (ClfxTonemapParams' member
 * local_laplacian), choice label, sentence of the family's help text and
 * rows of its table (F: the family's struct; G: the row group).  The
 * family has a detail of other operators: the row is laplacian-detail,
 * which the variant's own procedure and the GEGL operation take as
 * detail. */
#ifndef CLFX_LOCAL_LAPLACIAN_H
#define CLFX_LOCAL_LAPLACIAN_H

#include "../clfx-family.h"

typedef struct
{
  double detail;            /* the slope of differences below edge (1
                             * keeps them) */
  double range_compression; /* 0 keeps differences above edge, 1 flattens
                             * them */
  double edge;              /* sigma_r, log10 units: detail below, edges
                             * above */
} ClfxLocalLaplacianParams;

#define CLFX_LOCAL_LAPLACIAN_LABEL                                           \
  CLFX_N_ ("Local Laplacian (Paris 2011, local)")
#define CLFX_LOCAL_LAPLACIAN_HELP                                            \
  CLFX_N_ ("local-laplacian (laplacian-detail, range-compression, edge): "   \
           "Paris, Hasinoff and Kautz's local Laplacian filter in Aubry et " \
           "al.'s fast form, on log luminance: detail below edge, range "    \
           "compressed above it.")
/* As an operator of its own: not in GEGL or GIMP; beside GIMP's tone
 * mappers. */
#define CLFX_LOCAL_LAPLACIAN_PLACE                                           \
  { NULL, "tonemapping", "<Image>/Colors/Tone Mapping",                      \
    CLFX_N_ ("Local Laplacian") }
#define CLFX_LOCAL_LAPLACIAN_ROWS(F, G)                                      \
  CLFX_PARAM_DOUBLE_ROW_AS ("detail", F, local_laplacian.detail,             \
                            "laplacian-detail", CLFX_N_ ("De_tail"),         \
                            CLFX_N_ ("Local Laplacian: the gain of "         \
                                     "differences smaller than edge (1 "     \
                                     "keeps them, 2 doubles them, 0 "        \
                                     "smooths them away)"),                  \
                            0, 10, 1.5, 0, 4, 2, CLFX_UNIT_NONE, G),         \
  CLFX_PARAM_DOUBLE_ROW (F, local_laplacian.range_compression,               \
                         "range-compression", CLFX_N_ ("_Range compression"), \
                         CLFX_N_ ("Local Laplacian: how much differences "   \
                                  "larger than edge are compressed (0 "      \
                                  "keeps them, 1 flattens them)"),           \
                         0, 1, 0.5, 0, 1, 2, CLFX_UNIT_NONE, G),             \
  CLFX_PARAM_DOUBLE_ROW (F, local_laplacian.edge, "edge", CLFX_N_ ("_Edge"), \
                         CLFX_N_ ("Local Laplacian: the log10 luminance "    \
                                  "difference that separates detail from "   \
                                  "edges (0.2: a factor of 1.6)"),           \
                         0.01, 2, 0.2, 0.05, 1, 2, CLFX_UNIT_NONE, G)

extern const ClfxVariant clfx_variant_local_laplacian;

#endif
