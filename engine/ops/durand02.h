/* SPDX-License-Identifier: GPL-3.0-or-later */
/* durand02.h: the tonemap family's durand02 (durand02.c): its parameters
 * (ClfxTonemapParams' member durand02), choice label, sentence of the
 * family's help text and rows of its table (F: the family's struct; G:
 * the row group, G_SAMPLER: the sampler's). */
#ifndef CLFX_DURAND02_H
#define CLFX_DURAND02_H

#include "../clfx-family.h"

typedef struct
{
  double contrast;      /* the base's target log10 range */
  double detail;        /* 1 keeps the detail layer */
  double spatial_sigma; /* the grid's cell, a fraction of the image's
                         * larger side */
  double range_sigma;   /* the grid's range step, log10 units */
  int    sampler_filter; /* 0 trilinear in the kernel from nearest reads,
                          * 1 the sampler's trilinear where the framework
                          * takes the sampler (else the same in the
                          * kernel) */
} ClfxDurand02Params;

/* sampler-filter's choices. */
extern const ClfxChoice clfx_durand02_filter_choices[];

#define CLFX_DURAND02_LABEL CLFX_N_ ("Durand 2002 (bilateral, local)")
#define CLFX_DURAND02_HELP                                                   \
  CLFX_N_ ("durand02 (contrast, detail, spatial-sigma, range-sigma): "       \
           "base and detail through a bilateral grid sliced by the "         \
           "sampler-filter.")
/* As an operator of its own: GEGL has no durand02; beside GIMP's tone
 * mappers. */
#define CLFX_DURAND02_PLACE                                                  \
  { NULL, "tonemapping", "<Image>/Colors/Tone Mapping",                      \
    CLFX_N_ ("Durand 2002") }
#define CLFX_DURAND02_ROWS(F, G, G_SAMPLER)                                  \
  CLFX_PARAM_DOUBLE_ROW (F, durand02.contrast, "contrast",                   \
                         CLFX_N_ ("Co_ntrast"),                              \
                         CLFX_N_ ("Durand 2002: the base layer's range "     \
                                  "after mapping, in log10 units (0.7: "     \
                                  "5:1)"),                                   \
                         0, 10, 0.7, 0.1, 3, 2, CLFX_UNIT_NONE, G),          \
  CLFX_PARAM_DOUBLE_ROW (F, durand02.detail, "detail", CLFX_N_ ("De_tail"),  \
                         CLFX_N_ ("Durand 2002: the detail layer's gain "    \
                                  "(1 keeps it)"),                           \
                         0, 5, 1, 0, 3, 2, CLFX_UNIT_NONE, G),               \
  CLFX_PARAM_DOUBLE_ROW (F, durand02.spatial_sigma, "spatial-sigma",         \
                         CLFX_N_ ("Spatial si_gma"),                         \
                         CLFX_N_ ("Durand 2002: the base's spatial extent, " \
                                  "a fraction of the image's larger side"),  \
                         0, 1, 0.02, 0.005, 0.2, 3, CLFX_UNIT_NONE, G),      \
  CLFX_PARAM_DOUBLE_ROW (F, durand02.range_sigma, "range-sigma",             \
                         CLFX_N_ ("Range sigma"),                            \
                         CLFX_N_ ("Durand 2002: the base's edge-stopping "   \
                                  "range in log10 luminance"),               \
                         0, 5, 0.4, 0.1, 2, 2, CLFX_UNIT_NONE, G),           \
  CLFX_PARAM_CHOICE_ROW (F, durand02.sampler_filter, "sampler-filter",       \
                         CLFX_N_ ("Sampler _filter"),                        \
                         CLFX_N_ ("Durand 2002: how the bilateral grid is "  \
                                  "sliced (a 3D image)"),                    \
                         clfx_durand02_filter_choices, 0, G_SAMPLER)

extern const ClfxVariant clfx_variant_durand02;

#endif
