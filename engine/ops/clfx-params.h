/* clfx-params.h: each family's parameter struct (the family table's rows
 * point into these by offset) and the variants of each family. */
#ifndef CLFX_PARAMS_H
#define CLFX_PARAMS_H

#include <stdbool.h>

#include "../clfx-graph.h"
#include "durand02.h"
#include "fattal02.h"
#include "tonemap-global.h"

/* resize: one variant. */
typedef struct
{
  int    width, height;
  double zoom_x, zoom_y;
  int    filter;      /* CLFX_RESAMPLE_* */
  int    addressing;  /* CLFX_ADDR_* */
  bool   normalized;
  int    target;      /* plug-in only: 0 the selected layers, 1 the image */
} ClfxResizeParams;

/* filter: the variant is a choice (CLFX_FILTER_*, the order of the
 * family's variants); each variant reads its own fields. */
enum
{
  CLFX_FILTER_GAUSSIAN,
  CLFX_FILTER_BOX,
  CLFX_FILTER_UNSHARP,
  CLFX_FILTER_MEDIAN,
  CLFX_FILTER_BILATERAL,
  CLFX_FILTER_SOBEL,
  CLFX_FILTER_CONVOLVE,
  CLFX_N_FILTER
};
/* gaussian's method per axis, GEGL's: auto = FIR below sigma 1, IIR from 1. */
enum
{
  CLFX_GAUSS_AUTO,
  CLFX_GAUSS_FIR,
  CLFX_GAUSS_IIR
};
/* median's window, GEGL's neighborhood (in its order). */
enum
{
  CLFX_MEDIAN_SQUARE,
  CLFX_MEDIAN_CIRCLE,
  CLFX_MEDIAN_DIAMOND
};

typedef struct
{
  int    filter;     /* CLFX_FILTER_* */
  double std_dev_x;  /* gaussian */
  double std_dev_y;
  int    method;     /* gaussian: CLFX_GAUSS_* */
  int    radius;     /* box, median */
  bool   horizontal; /* sobel */
  bool   vertical;
  bool   keep_sign;
  double std_dev;    /* unsharp: the blur's sigma */
  double amount;     /* unsharp: GEGL's scale */
  double threshold;  /* unsharp */
  char   matrix[640]; /* convolve: 9, 25 or 49 numbers, row by row */
  double divisor;    /* convolve */
  double offset;
  bool   normalize;
  bool   alpha_weight;
  double blur_radius; /* bilateral */
  double edge_preservation;
  double percentile;   /* median: 0-100 */
  int    neighborhood; /* median: CLFX_MEDIAN_* */
  int    addressing; /* the edge handling: CLFX_ADDR_* */
  int    sampler_filter; /* 0 nearest, 1 linear: FIR gaussian and box read
                          * two taps per fetch through the hardware */
  bool   in_process;      /* plug-in only: apply the GEGL module's
                           * operation inside GIMP's process */
  bool   non_destructive; /* plug-in only: in-process, as a layer filter */
} ClfxFilterParams;

/* tonemap: the operator is a choice, one of these variants in choice
 * order (X (name, NAME): tonemap-global.h, durand02.h, fattal02.h hold
 * each one's struct, CLFX_NAME_LABEL, CLFX_NAME_HELP and rows). */
#define CLFX_TONEMAP_VARIANTS(X)                                             \
  X (reinhard02, REINHARD02) X (reinhard05, REINHARD05)                      \
  X (drago03, DRAGO03) X (aces, ACES) X (durand02, DURAND02)                 \
  X (fattal02, FATTAL02)

/* The operators' choice indices (CLFX_TONEMAP_REINHARD02, ...). */
enum
{
#define CLFX_TONEMAP_INDEX_(v, V) CLFX_TONEMAP_##V,
  CLFX_TONEMAP_VARIANTS (CLFX_TONEMAP_INDEX_)
#undef CLFX_TONEMAP_INDEX_
  CLFX_N_TONEMAP
};

typedef struct
{
  int    op;          /* the operator: CLFX_TONEMAP_* */
  double exposure;    /* EV, every operator: colour times 2^exposure */
  ClfxReinhard02Params reinhard02;
  ClfxReinhard05Params reinhard05;
  ClfxDrago03Params    drago03;
  ClfxDurand02Params   durand02;
  ClfxFattal02Params   fattal02;
  bool   in_process;      /* plug-in only: as ClfxFilterParams' */
  bool   non_destructive;
} ClfxTonemapParams;

/* copy (internal): the pass-through roofline, no parameters. */
typedef struct
{
  int unused;
} ClfxCopyParams;

extern const ClfxVariant clfx_variant_resize;
extern const ClfxVariant clfx_variant_copy;
extern const ClfxVariant clfx_variant_gaussian;
extern const ClfxVariant clfx_variant_box;
extern const ClfxVariant clfx_variant_sobel;
extern const ClfxVariant clfx_variant_unsharp;
extern const ClfxVariant clfx_variant_convolve;
extern const ClfxVariant clfx_variant_bilateral;
extern const ClfxVariant clfx_variant_median;

/* The addressing modes, in CLFX_ADDR_* order (resize's sampler choice, and
 * the edge handling of the families to come). */
extern const ClfxChoice clfx_addressing_choices[];

#endif
