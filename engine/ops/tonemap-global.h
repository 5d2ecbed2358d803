/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tonemap-global.h: the tonemap family's global operators
 * (tonemap-global.c): reinhard02, reinhard05, drago03 and aces, their
 * parameters (members of ClfxTonemapParams named after each), choice
 * labels, sentences of the family's help text and rows of its table (F:
 * the family's struct; G: the row group). */
#ifndef CLFX_TONEMAP_GLOBAL_H
#define CLFX_TONEMAP_GLOBAL_H

#include "../clfx-family.h"

typedef struct
{
  double key;         /* the luminance the log-average maps to */
  double white_point; /* 0 = the largest scaled luminance */
} ClfxReinhard02Params;

typedef struct
{
  double brightness;
  double chromatic;
  double light;
} ClfxReinhard05Params;

typedef struct
{
  double bias;
} ClfxDrago03Params;

#define CLFX_REINHARD02_LABEL CLFX_N_ ("Reinhard 2002 (photographic)")
#define CLFX_REINHARD02_HELP                                                 \
  CLFX_N_ ("reinhard02 (key, white-point): pfstmo's photographic operator.")
/* As an operator of its own: GEGL has no reinhard02; beside GIMP's
 * tone mappers (Colors > Tone Mapping). */
#define CLFX_REINHARD02_PLACE                                                \
  { NULL, "tonemapping", "<Image>/Colors/Tone Mapping",                      \
    CLFX_N_ ("Reinhard 2002") }
#define CLFX_REINHARD02_ROWS(F, G)                                           \
  CLFX_PARAM_DOUBLE_ROW (F, reinhard02.key, "key", CLFX_N_ ("_Key"),         \
                         CLFX_N_ ("Reinhard 2002: the key, the luminance "   \
                                  "the log-average maps to"),                \
                         0, 1, 0.18, 0.01, 1, 3, CLFX_UNIT_NONE, G),         \
  CLFX_PARAM_DOUBLE_ROW (F, reinhard02.white_point, "white-point",           \
                         CLFX_N_ ("_White point"),                           \
                         CLFX_N_ ("Reinhard 2002: the scaled luminance "     \
                                  "that maps to white (0: the image's "      \
                                  "largest)"),                               \
                         0, 1e6, 0, 0, 100, 3, CLFX_UNIT_NONE, G)

#define CLFX_REINHARD05_LABEL CLFX_N_ ("Reinhard 2005")
#define CLFX_REINHARD05_HELP                                                 \
  CLFX_N_ ("reinhard05 (brightness, chromatic, light): as gegl:reinhard05.")
/* As an operator of its own: gegl:reinhard05, beside GIMP's Colors >
 * Tone Mapping > Reinhard 2005. */
#define CLFX_REINHARD05_PLACE                                                \
  { "reinhard05", "tonemapping", "<Image>/Colors/Tone Mapping",              \
    CLFX_N_ ("Reinhard 2005") }
#define CLFX_REINHARD05_ROWS(F, G)                                           \
  CLFX_PARAM_DOUBLE_ROW (F, reinhard05.brightness, "brightness",             \
                         CLFX_N_ ("_Brightness"),                            \
                         CLFX_N_ ("Reinhard 2005: overall brightness "       \
                                  "(gegl:reinhard05's)"),                    \
                         -100, 100, 0, -10, 10, 2, CLFX_UNIT_NONE, G),       \
  CLFX_PARAM_DOUBLE_ROW (F, reinhard05.chromatic, "chromatic",               \
                         CLFX_N_ ("Chro_matic adaptation"),                  \
                         CLFX_N_ ("Reinhard 2005: adapt to each colour "     \
                                  "channel (1) or to luminance (0)"),        \
                         0, 1, 0, 0, 1, 3, CLFX_UNIT_NONE, G),               \
  CLFX_PARAM_DOUBLE_ROW (F, reinhard05.light, "light",                       \
                         CLFX_N_ ("Light _adaptation"),                      \
                         CLFX_N_ ("Reinhard 2005: adapt to each pixel (1) "  \
                                  "or to the whole image (0)"),              \
                         0, 1, 1, 0, 1, 3, CLFX_UNIT_NONE, G)

#define CLFX_DRAGO03_LABEL CLFX_N_ ("Drago 2003 (adaptive logarithmic)")
#define CLFX_DRAGO03_HELP CLFX_N_ ("drago03 (bias): as pfstmo's.")
/* As an operator of its own: GEGL has no drago03; beside GIMP's tone
 * mappers. */
#define CLFX_DRAGO03_PLACE                                                   \
  { NULL, "tonemapping", "<Image>/Colors/Tone Mapping",                      \
    CLFX_N_ ("Drago 2003") }
#define CLFX_DRAGO03_ROWS(F, G)                                              \
  CLFX_PARAM_DOUBLE_ROW (F, drago03.bias, "bias", CLFX_N_ ("Bias"),          \
                         CLFX_N_ ("Drago 2003: contrast in the darks "       \
                                  "against the brights (0.85 usual)"),       \
                         0, 1, 0.85, 0.5, 1, 3, CLFX_UNIT_NONE, G)

/* aces has no parameters of its own. */
#define CLFX_ACES_LABEL CLFX_N_ ("ACES filmic")
#define CLFX_ACES_HELP CLFX_N_ ("aces: Hill's fit of the ACES filmic curve.")
/* As an operator of its own: GEGL has no ACES curve; beside GIMP's
 * tone mappers. */
#define CLFX_ACES_PLACE                                                      \
  { NULL, "tonemapping", "<Image>/Colors/Tone Mapping",                      \
    CLFX_N_ ("ACES Filmic") }

extern const ClfxVariant clfx_variant_reinhard02;
extern const ClfxVariant clfx_variant_reinhard05;
extern const ClfxVariant clfx_variant_drago03;
extern const ClfxVariant clfx_variant_aces;

#endif
