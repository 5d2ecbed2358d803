/* clfx-params.h: each family's parameter struct (the family table's rows
 * point into these by offset) and the variants of each family. */
#ifndef CLFX_PARAMS_H
#define CLFX_PARAMS_H

#include <stdbool.h>

#include "../clfx-graph.h"
#include "bilateral.h"
#include "box.h"
#include "convolve.h"
#include "gaussian.h"
#include "median.h"
#include "sobel.h"
#include "unsharp.h"

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

/* filter: the variant is a choice; each variant owns its parameters
 * (its header), the family's struct holds them as members named after
 * the variant, and the fields several variants read.  The variants, in
 * choice order (the choice list, the variants array and the help text
 * come from this list, families.c). */
#define CLFX_FILTER_VARIANTS(X)                                              \
  X (gaussian, GAUSSIAN) X (box, BOX) X (unsharp, UNSHARP)                   \
  X (median, MEDIAN) X (bilateral, BILATERAL) X (sobel, SOBEL)               \
  X (convolve, CONVOLVE)

typedef struct
{
  int                 filter;    /* the variant, in CLFX_FILTER_VARIANTS
                                  * order */
  ClfxGaussianParams  gaussian;
  int                 radius;    /* box, median */
  ClfxSobelParams     sobel;
  ClfxUnsharpParams   unsharp;
  ClfxConvolveParams  convolve;
  ClfxBilateralParams bilateral;
  ClfxMedianParams    median;
  int    addressing; /* the edge handling: CLFX_ADDR_* */
  int    sampler_filter; /* 0 nearest, 1 linear: FIR gaussian and box read
                          * two taps per fetch through the hardware */
  bool   in_process;      /* plug-in only: apply the GEGL module's
                           * operation inside GIMP's process */
  bool   non_destructive; /* plug-in only: in-process, as a layer filter */
} ClfxFilterParams;

/* tonemap: the operator is a choice (CLFX_TONEMAP_*, the order of the
 * family's variants). */
enum
{
  CLFX_TONEMAP_REINHARD02,
  CLFX_TONEMAP_REINHARD05,
  CLFX_TONEMAP_DRAGO03,
  CLFX_TONEMAP_ACES,
  CLFX_TONEMAP_DURAND02,
  CLFX_TONEMAP_FATTAL02,
  CLFX_N_TONEMAP
};

typedef struct
{
  int    op;          /* CLFX_TONEMAP_* */
  double exposure;    /* EV, every operator: colour times 2^exposure */
  double key;         /* reinhard02 */
  double white_point; /* reinhard02: 0 = the largest scaled luminance */
  double brightness;  /* reinhard05 */
  double chromatic;
  double light;
  double bias;        /* drago03 */
  double contrast;    /* durand02: the base's target log10 range */
  double detail;      /* durand02: 1 keeps the detail layer */
  double spatial_sigma; /* durand02: the grid's cell, a fraction of the
                         * image's larger side */
  double range_sigma; /* durand02: the grid's range step, log10 units */
  int    sampler_filter; /* durand02: 0 trilinear in the kernel from
                          * nearest reads, 1 the sampler's trilinear
                          * where the framework takes the sampler (else
                          * the same in the kernel) */
  double alpha;       /* fattal02: the gradient threshold, times each
                       * pyramid level's average gradient */
  double beta;        /* fattal02: the attenuation exponent */
  double saturation;  /* fattal02: colour is (c / Y)^saturation */
  double noise;       /* fattal02: 0 = 0.1 alpha */
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
extern const ClfxVariant clfx_variant_reinhard02;
extern const ClfxVariant clfx_variant_reinhard05;
extern const ClfxVariant clfx_variant_drago03;
extern const ClfxVariant clfx_variant_aces;
extern const ClfxVariant clfx_variant_durand02;
extern const ClfxVariant clfx_variant_fattal02;

/* The addressing modes, in CLFX_ADDR_* order (resize's sampler choice, and
 * the edge handling of the families to come). */
extern const ClfxChoice clfx_addressing_choices[];

#endif
