/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-params.h: each family's parameter struct (the family table's rows
 * point into these by offset) and the variants of each family. */
#ifndef CLFX_PARAMS_H
#define CLFX_PARAMS_H

#include <stdbool.h>

#include "../clfx-graph.h"
#include "bilateral.h"
#include "box.h"
#include "convolve.h"
#include "durand02.h"
#include "fattal02.h"
#include "mantiuk06.h"
#include "local-laplacian.h"
#include "gaussian.h"
#include "gaussian-blur-selective.h"
#include "median.h"
#include "motion-blur-circular.h"
#include "motion-blur-linear.h"
#include "motion-blur-zoom.h"
#include "snn-mean.h"
#include "sobel.h"
#include "tonemap-global.h"
#include "unsharp.h"
#include "highpass.h"
#include "dog.h"
#include "noise-reduction.h"
#include "mean-curvature-blur.h"

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
 * come from this list, families.c): X (v, V, "choice"), v naming
 * clfx_variant_v and V the header's CLFX_V_LABEL and CLFX_V_HELP. */
#define CLFX_FILTER_VARIANTS(X)                                              \
  X (gaussian, GAUSSIAN, "gaussian") X (box, BOX, "box")                     \
  X (unsharp, UNSHARP, "unsharp") X (median, MEDIAN, "median")               \
  X (bilateral, BILATERAL, "bilateral") X (sobel, SOBEL, "sobel")            \
  X (convolve, CONVOLVE, "convolve")                                         \
  X (motion_blur_linear, MOTION_BLUR_LINEAR, "motion-blur-linear")         \
  X (motion_blur_zoom, MOTION_BLUR_ZOOM, "motion-blur-zoom")               \
  X (motion_blur_circular, MOTION_BLUR_CIRCULAR, "motion-blur-circular")   \
  X (highpass, HIGHPASS, "highpass") X (dog, DOG, "dog")                     \
  X (noise_reduction, NOISE_REDUCTION, "noise-reduction")                   \
  X (mean_curvature_blur, MEAN_CURVATURE_BLUR, "mean-curvature-blur")       \
  X (gaussian_blur_selective, GAUSSIAN_BLUR_SELECTIVE,                       \
     "gaussian-blur-selective")                                              \
  X (snn_mean, SNN_MEAN, "snn-mean")

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
  ClfxMotionLinearParams motion_linear;
  ClfxMotionZoomParams   motion_zoom;
  ClfxMotionCircularParams motion_circular;
  double center_x, center_y; /* the motion blurs' centre, relative to the
                              * image's width and height */
  ClfxHighpassParams  highpass;
  ClfxDogParams       dog;
  ClfxNoiseReductionParams noise_reduction;
  ClfxMeanCurvatureParams  mean_curvature;
  ClfxSelectiveParams selective;
  ClfxSnnParams       snn;
  int    addressing; /* the edge handling: CLFX_ADDR_* */
  int    sampler_filter; /* 0 nearest, 1 linear: FIR gaussian and box read
                          * two taps per fetch through the hardware */
  bool   in_process;      /* plug-in only: apply the GEGL module's
                           * operation inside GIMP's process */
  bool   non_destructive; /* plug-in only: in-process, as a layer filter */
} ClfxFilterParams;

/* tonemap: the operator is a choice, one of these variants in choice
 * order (X (member, NAME, "choice"): tonemap-global.h, durand02.h,
 * fattal02.h, mantiuk06.h, local-laplacian.h hold each one's struct,
 * CLFX_NAME_LABEL, CLFX_NAME_HELP and rows). */
#define CLFX_TONEMAP_VARIANTS(X)                                             \
  X (reinhard02, REINHARD02, "reinhard02")                                   \
  X (reinhard05, REINHARD05, "reinhard05")                                   \
  X (drago03, DRAGO03, "drago03") X (aces, ACES, "aces")                     \
  X (durand02, DURAND02, "durand02") X (fattal02, FATTAL02, "fattal02")      \
  X (mantiuk06, MANTIUK06, "mantiuk06")                                      \
  X (local_laplacian, LOCAL_LAPLACIAN, "local-laplacian")

/* The operators' choice indices (CLFX_TONEMAP_REINHARD02, ...). */
enum
{
#define CLFX_TONEMAP_INDEX_(v, V, name) CLFX_TONEMAP_##V,
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
  ClfxMantiuk06Params  mantiuk06;
  ClfxLocalLaplacianParams local_laplacian;
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

/* The addressing modes, in CLFX_ADDR_* order (resize's sampler choice, and
 * the edge handling of the families to come). */
extern const ClfxChoice clfx_addressing_choices[];

#endif
