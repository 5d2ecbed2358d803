/* SPDX-License-Identifier: GPL-3.0-or-later */
/* families.c: the family table.  Every user-facing list (PDB arguments,
 * clfx-bench options, the dialog, the report, the self-test and the
 * parity matrix) is generated from these rows. */
#include <stdio.h>

#include "clfx-params.h"

#include "../blocks/clfx-blocks.h"

#include "../../kernels/clfx-common.h"

const ClfxChoice clfx_addressing_choices[] = {
  { "clamp-to-edge", CLFX_N_ ("Clamp to edge") },
  { "clamp", CLFX_N_ ("Clamp (border colour)") },
  { "repeat", CLFX_N_ ("Repeat") },
  { "mirrored-repeat", CLFX_N_ ("Mirrored repeat") },
  { "none", CLFX_N_ ("None (kernel guards reads)") },
  { NULL, NULL }
};
_Static_assert (CLFX_ADDR_CLAMP_TO_EDGE == 0 && CLFX_ADDR_CLAMP == 1
                  && CLFX_ADDR_REPEAT == 2 && CLFX_ADDR_MIRRORED == 3
                  && CLFX_ADDR_NONE == 4 && CLFX_N_ADDR == 5,
                "clfx_addressing_choices follows CLFX_ADDR_*");

/* ---- resize ----------------------------------------------------------------- */

static const ClfxChoice resample_choices[] = {
  { "nearest", CLFX_N_ ("Nearest (sampler)") },
  { "linear", CLFX_N_ ("Linear (sampler)") },
  { "cubic", CLFX_N_ ("Cubic (in kernel)") },
  { "lanczos3", CLFX_N_ ("Lanczos3 (in kernel)") },
  { NULL, NULL }
};
_Static_assert (CLFX_RESAMPLE_NEAREST == 0 && CLFX_RESAMPLE_LINEAR == 1
                  && CLFX_RESAMPLE_CUBIC == 2 && CLFX_RESAMPLE_LANCZOS3 == 3
                  && CLFX_N_RESAMPLE == 4,
                "resample_choices follows CLFX_RESAMPLE_*");

static const ClfxChoice target_choices[] = {
  { "layer", CLFX_N_ ("Selected layers") },
  { "image", CLFX_N_ ("Whole image") },
  { NULL, NULL }
};

enum { G_OUTPUT, G_SAMPLER };
static const ClfxParamGroup resize_groups[] = {
  { "output", CLFX_N_ ("Output") },
  { "sampler", CLFX_N_ ("Sampler") },
};

#define R ClfxResizeParams
static const ClfxParamSpec resize_params[] = {
  CLFX_PARAM_INT_ROW (R, width, "width", CLFX_N_ ("_Width"),
                      CLFX_N_ ("Output width in pixels"), 1, 65535, 1024, 1,
                      8192, CLFX_UNIT_PIXELS, G_OUTPUT),
  CLFX_PARAM_INT_ROW (R, height, "height", CLFX_N_ ("Hei_ght"),
                      CLFX_N_ ("Output height in pixels"), 1, 65535, 1024, 1,
                      8192, CLFX_UNIT_PIXELS, G_OUTPUT),
  CLFX_PARAM_DOUBLE_ROW (R, zoom_x, "zoom-x", CLFX_N_ ("_Zoom X"),
                         CLFX_N_ ("Horizontal zoom of the source inside the "
                                  "output (1 = fill; below 1 shows the "
                                  "addressing mode)"),
                         0.01, 100, 1, 0.1, 4, 3, CLFX_UNIT_NONE, G_OUTPUT),
  CLFX_PARAM_DOUBLE_ROW (R, zoom_y, "zoom-y", CLFX_N_ ("Zoom _Y"),
                         CLFX_N_ ("Vertical zoom of the source inside the "
                                  "output"),
                         0.01, 100, 1, 0.1, 4, 3, CLFX_UNIT_NONE, G_OUTPUT),
  CLFX_PARAM_CHOICE_ROW (R, filter, "filter", CLFX_N_ ("_Filter"),
                         CLFX_N_ ("Resampling filter"), resample_choices,
                         CLFX_RESAMPLE_LINEAR, G_SAMPLER),
  CLFX_PARAM_CHOICE_ROW (R, addressing, "addressing", CLFX_N_ ("_Addressing"),
                         CLFX_N_ ("Sampler addressing mode (outside the "
                                  "source)"),
                         clfx_addressing_choices, CLFX_ADDR_CLAMP_TO_EDGE,
                         G_SAMPLER),
  CLFX_PARAM_BOOL_ROW (R, normalized, "normalized-coords",
                       CLFX_N_ ("_Normalized coordinates"),
                       CLFX_N_ ("Sampler uses normalized coordinates "
                                "(required by repeat and mirrored-repeat)"),
                       1, G_SAMPLER),
  { "target", CLFX_N_ ("_Target"),
    CLFX_N_ ("What to resize: the selected layers, or the image (canvas and "
             "every layer)"),
    CLFX_PARAM_CHOICE, CLFX_FIELD_ (R, target, int), 0, 0, 0, 0, 0, 0,
    CLFX_UNIT_NONE, G_OUTPUT, target_choices, NULL, true, NULL },
};
#undef R
_Static_assert (sizeof (ClfxResizeParams) <= CLFX_PARAMS_BYTES,
                "ClfxResizeParams fits ClfxParams");

/* The plug-in's two rows for families whose variants are also the GEGL
 * module's operations (gegl-module/): how the procedure applies them.
 * Not the engine's: no clfx-bench option, every variant has them. */
#define CLFX_IN_PROCESS_ROWS(st, group)                                      \
  { "in-process", CLFX_N_ ("_In GIMP's process"),                            \
    CLFX_N_ ("Apply the GEGL module's clfx: operation inside GIMP (no "     \
             "pixel transfer to the plug-in) when the module is "            \
             "installed; otherwise, or off, the plug-in runs the engine"),   \
    CLFX_PARAM_BOOL, CLFX_FIELD_ (st, in_process, bool), 0, 1, 1, 0, 1, 0,  \
    CLFX_UNIT_NONE, group, NULL, NULL, true, NULL },                         \
  { "non-destructive", CLFX_N_ ("_Non-destructive"),                         \
    CLFX_N_ ("In GIMP's process: add the operation as a layer filter that "  \
             "stays editable (saved in XCF files) instead of merging it"),   \
    CLFX_PARAM_BOOL, CLFX_FIELD_ (st, non_destructive, bool), 0, 1, 0, 0, 1, \
    0, CLFX_UNIT_NONE, group, NULL, NULL, true, NULL }

static const ClfxVariant *const resize_variants[] = { &clfx_variant_resize };
static const char *const resize_sweep[] = { "filter", "addressing",
                                            "normalized-coords", NULL };

/* Cases alternate between enlarging with zoom below 1 (so the addressing
 * mode shows) and shrinking by more than 2x (so the antialiasing paths
 * run), keeping each case small and quick (sources of 67x45). */
static void
resize_sweep_case (ClfxParams *p, int k)
{
  ClfxResizeParams *rp = CLFX_PARAMS_OF_MUT (p, ClfxResizeParams);
  bool              enlarge = k % 2 == 0;

  rp->width = enlarge ? 101 : 29;
  rp->height = enlarge ? 73 : 17;
  rp->zoom_x = enlarge ? 0.75 : 1.0;
  rp->zoom_y = enlarge ? 0.6 : 1.0;
}
static const char *const resize_menus[] = { "<Image>/Filters/OpenCL",
                                            /* Also beside GIMP's own Scale
                                             * Image, where users look. */
                                            "<Image>/Image", NULL };

const ClfxFamily clfx_family_resize = {
  "resize",
  "plug-in-clfx-resize",
  CLFX_N_ ("_Resize (OpenCL)..."),
  CLFX_N_ ("Resize (OpenCL)"),
  CLFX_N_ ("Resize layers or the image with an OpenCL image sampler"),
  CLFX_N_ ("Resamples the selected layers (target layer) or every layer and "
           "the canvas (target image) with nearest or linear filtering "
           "through the OpenCL sampler, or cubic or lanczos3 in the kernel, "
           "antialiased when shrinking, in linear light.  zoom below 1 shows "
           "what the addressing mode does outside the source.  With device "
           "auto a missing OpenCL falls back to the CPU reference; validate "
           "compares with that reference.  Returns a JSON report (device, "
           "build logs, timings, validation)."),
  resize_menus,
  CLFX_APPLY_GEOMETRY,
  resize_params,
  (int) (sizeof resize_params / sizeof resize_params[0]),
  resize_groups,
  (int) (sizeof resize_groups / sizeof resize_groups[0]),
  sizeof (ClfxResizeParams),
  -1,
  resize_variants,
  1,
  resize_sweep,
  resize_sweep_case,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
};

/* ---- filter --------------------------------------------------------------- */

/* The choice list, the variants and the help text from the variants'
 * list (clfx-params.h) and their headers. */
#define FILTER_CHOICE_(v, V, name) { name, CLFX_##V##_LABEL },
static const ClfxChoice filter_choices[] = {
  CLFX_FILTER_VARIANTS (FILTER_CHOICE_)
  { NULL, NULL }
};
#undef FILTER_CHOICE_

enum { F_FILTER, F_EDGES, F_GIMP };
static const ClfxParamGroup filter_groups[] = {
  { "filter", CLFX_N_ ("Filter") },
  { "sampler", CLFX_N_ ("Sampler") },
  { "gimp", CLFX_N_ ("Inside GIMP") },
};

static const ClfxChoice sampler_filter_choices[] = {
  { "nearest", CLFX_N_ ("Nearest (one tap a fetch)") },
  { "linear", CLFX_N_ ("Linear (two taps a fetch, hardware weights)") },
  { NULL, NULL }
};

#define F ClfxFilterParams
static const ClfxParamSpec filter_params[] = {
  CLFX_PARAM_CHOICE_ROW (F, filter, "filter", CLFX_N_ ("_Filter"),
                         CLFX_N_ ("Which filter"), filter_choices,
                         0 /* gaussian */, F_FILTER),
  CLFX_GAUSSIAN_ROWS (F, F_FILTER),
  CLFX_PARAM_INT_ROW (F, radius, "radius", CLFX_N_ ("Radius"),
                      CLFX_N_ ("Box: half the window's side, the mean of "
                               "(2 radius + 1)^2 pixels; median: the "
                               "neighborhood's radius (up to 100)"),
                      0, 1000, 4, 0, 100, CLFX_UNIT_DISTANCE, F_FILTER),
  CLFX_SOBEL_ROWS (F, F_FILTER),
  CLFX_UNSHARP_ROWS (F, F_FILTER),
  CLFX_CONVOLVE_ROWS (F, F_FILTER),
  CLFX_BILATERAL_ROWS (F, F_FILTER),
  CLFX_MEDIAN_ROWS (F, F_FILTER),
  CLFX_PARAM_CHOICE_ROW (F, addressing, "addressing",
                         CLFX_N_ ("_Edge handling"),
                         CLFX_N_ ("Pixels outside the image: clamp-to-edge "
                                  "extends the edge (GEGL's clamp), clamp is "
                                  "transparent (GEGL's none), repeat wraps, "
                                  "mirrored-repeat mirrors"),
                         clfx_addressing_choices, CLFX_ADDR_CLAMP_TO_EDGE,
                         F_EDGES),
  CLFX_PARAM_CHOICE_ROW (F, sampler_filter, "sampler-filter",
                         CLFX_N_ ("Sampler filter"),
                         CLFX_N_ ("FIR gaussian and box: linear reads two "
                                  "taps with one fetch through the "
                                  "sampler's linear filter (half the "
                                  "reads, the hardware's weight precision)"),
                         sampler_filter_choices, 0, F_EDGES),
  CLFX_IN_PROCESS_ROWS (F, F_GIMP),
  CLFX_MOTION_BLUR_LINEAR_ROWS (F, F_FILTER),
  /* The centre of the circular and zoom motion blurs: GEGL's
   * motion-blur-zoom's range. */
  CLFX_PARAM_DOUBLE_ROW (F, center_x, "center-x", CLFX_N_ ("Center _X"),
                         CLFX_N_ ("Circular and zoom motion blur: the "
                                  "centre's x, a fraction of the width"),
                         -10, 10, 0.5, 0, 1, 3, CLFX_UNIT_NONE, F_FILTER),
  CLFX_PARAM_DOUBLE_ROW (F, center_y, "center-y", CLFX_N_ ("Center _Y"),
                         CLFX_N_ ("Circular and zoom motion blur: the "
                                  "centre's y, a fraction of the height"),
                         -10, 10, 0.5, 0, 1, 3, CLFX_UNIT_NONE, F_FILTER),
  CLFX_MOTION_BLUR_ZOOM_ROWS (F, F_FILTER),
  CLFX_HIGHPASS_ROWS (F, F_FILTER),
  CLFX_DOG_ROWS (F, F_FILTER),
  CLFX_MOTION_BLUR_CIRCULAR_ROWS (F, F_FILTER),
  CLFX_NOISE_REDUCTION_ROWS (F, F_FILTER),
  CLFX_MEAN_CURVATURE_BLUR_ROWS (F, F_FILTER),
  CLFX_GAUSSIAN_BLUR_SELECTIVE_ROWS (F, F_FILTER),
  CLFX_SNN_MEAN_ROWS (F, F_FILTER),
};
#undef F
_Static_assert (sizeof (ClfxFilterParams) <= CLFX_PARAMS_BYTES,
                "ClfxFilterParams fits ClfxParams");

#define FILTER_VARIANT_(v, V, name) &clfx_variant_##v,
static const ClfxVariant *const filter_variants[] = {
  CLFX_FILTER_VARIANTS (FILTER_VARIANT_)
};
#undef FILTER_VARIANT_
static const char *const filter_sweep[] = { "filter", "addressing", NULL };

/* Small windows keep the self-test quick; sigma 2 runs the IIR, a
 * sigma below 1 the FIR (which takes every edge handling). */
static void
filter_sweep_case (ClfxParams *p, int k)
{
  ClfxFilterParams *fp = CLFX_PARAMS_OF_MUT (p, ClfxFilterParams);

  fp->gaussian.std_dev_x = k % 2 ? 2.0 : 0.8;
  fp->gaussian.std_dev_y = k % 2 ? 0.7 : 2.0;
  fp->radius = 2;
  fp->bilateral.blur_radius = k % 2 ? 2.0 : 1.5;
  fp->sobel.horizontal = true;
  fp->sobel.vertical = k % 3 != 0;
  fp->unsharp.std_dev = k % 2 ? 2.0 : 0.6;
  fp->unsharp.amount = 1.5;
  fp->unsharp.threshold = k % 4 == 1 ? 0.05 : 0.0;
  snprintf (fp->convolve.matrix, sizeof fp->convolve.matrix, "%s",
            k % 2 ? "0 -1 0  -1 5 -1  0 -1 0"
                  : "1 0 0 0 0  0 2 0 0 0  0 0 1 0 0  0 0 0 -2 0  0 0 0 0 "
                    "-1");
  fp->highpass.std_dev = k % 2 ? 2.0 : 0.7;
  fp->dog.radius1 = k % 2 ? 1.0 : 0.5;
  fp->dog.radius2 = k % 2 ? 2.0 : 0.9;
  fp->noise_reduction.iterations = k % 2 ? 2 : 1;
  fp->mean_curvature.iterations = k % 2 ? 3 : 1;
  fp->selective.blur_radius = k % 2 ? 2.0 : 1.5;
  fp->snn.radius = 2;
  fp->snn.pairs = k % 2 ? 1 : 2;
}
static const char *const filter_menus[] = { "<Image>/Filters/OpenCL", NULL };

/* Each variant's part of the help text, in choice order. */
static const char *const filter_help[] = {
#define FILTER_HELP_(v, V, name) CLFX_##V##_HELP,
  CLFX_FILTER_VARIANTS (FILTER_HELP_)
#undef FILTER_HELP_
  NULL
};

const ClfxFamily clfx_family_filter = {
  "filter",
  "plug-in-clfx-filter",
  CLFX_N_ ("_Filter (OpenCL)..."),
  CLFX_N_ ("Filter (OpenCL)"),
  CLFX_N_ ("Blur, sharpen or edge-detect the selected layers with OpenCL "
           "kernels, as GIMP's own filters do"),
  CLFX_N_ ("Filters the selected layers (within the selection) with GEGL's "
           "definitions, in linear light (the blurs on premultiplied "
           "alpha): "),
  filter_menus,
  CLFX_APPLY_SHADOW,
  filter_params,
  (int) (sizeof filter_params / sizeof filter_params[0]),
  filter_groups,
  (int) (sizeof filter_groups / sizeof filter_groups[0]),
  sizeof (ClfxFilterParams),
  0,
  filter_variants,
  (int) (sizeof filter_variants / sizeof filter_variants[0]),
  filter_sweep,
  filter_sweep_case,
  filter_help,
  /* TRANSLATORS: between the filters' parts of the procedure's help. */
  CLFX_N_ (", "),
  CLFX_N_ (", all with addressing as the edge handling.  sampler-filter "
           "linear reads two taps a fetch (FIR gaussian, box).  With device "
           "auto a missing OpenCL falls back to the CPU reference; validate "
           "compares with that reference.  Returns a JSON report (device, "
           "build logs, timings, validation)."),
  /* A filter's own procedure: one definition, so no "all". */
  CLFX_N_ ("Filters the selected layers (within the selection) with GEGL's "
           "definition, in linear light (the blurs on premultiplied alpha), "
           "addressing as the edge handling: "),
  CLFX_N_ (".  With device auto a missing OpenCL falls back to the CPU "
           "reference; validate compares with that reference.  Returns a "
           "JSON report (device, build logs, timings, validation)."),
};

/* ---- tonemap ---------------------------------------------------------------- */

static const ClfxChoice operator_choices[] = {
#define TM_CHOICE(v, V, name) { name, CLFX_##V##_LABEL },
  CLFX_TONEMAP_VARIANTS (TM_CHOICE)
#undef TM_CHOICE
  { NULL, NULL }
};

enum { T_OPERATOR, T_SAMPLER, T_GIMP };
static const ClfxParamGroup tonemap_groups[] = {
  { "operator", CLFX_N_ ("Tone mapping") },
  { "sampler", CLFX_N_ ("Sampler") },
  { "gimp", CLFX_N_ ("Inside GIMP") },
};

#define T ClfxTonemapParams
static const ClfxParamSpec tonemap_params[] = {
  CLFX_PARAM_CHOICE_ROW (T, op, "operator", CLFX_N_ ("O_perator"),
                         CLFX_N_ ("Which tone mapping operator"),
                         operator_choices, CLFX_TONEMAP_REINHARD05,
                         T_OPERATOR),
  CLFX_PARAM_DOUBLE_ROW (T, exposure, "exposure", CLFX_N_ ("E_xposure"),
                         CLFX_N_ ("Exposure in EV, applied first: colour "
                                  "times 2^exposure"),
                         -20, 20, 0, -10, 10, 2, CLFX_UNIT_NONE,
                         T_OPERATOR),
  CLFX_REINHARD02_ROWS (T, T_OPERATOR),
  CLFX_REINHARD05_ROWS (T, T_OPERATOR),
  CLFX_DRAGO03_ROWS (T, T_OPERATOR),
  CLFX_DURAND02_ROWS (T, T_OPERATOR, T_SAMPLER),
  CLFX_FATTAL02_ROWS (T, T_OPERATOR),
  CLFX_IN_PROCESS_ROWS (T, T_GIMP),
  CLFX_MANTIUK06_ROWS (T, T_OPERATOR),
  CLFX_LOCAL_LAPLACIAN_ROWS (T, T_OPERATOR),
};
#undef T
_Static_assert (sizeof (ClfxTonemapParams) <= CLFX_PARAMS_BYTES,
                "ClfxTonemapParams fits ClfxParams");

static const ClfxVariant *const tonemap_variants[] = {
#define TM_VARIANT(v, V, name) &clfx_variant_##v,
  CLFX_TONEMAP_VARIANTS (TM_VARIANT)
#undef TM_VARIANT
};
static const char *const tonemap_sweep[] = { "operator", NULL };

/* An exposure that moves the statistics, and each operator's argument
 * off its default. */
static void
tonemap_sweep_case (ClfxParams *p, int k)
{
  ClfxTonemapParams *tp = CLFX_PARAMS_OF_MUT (p, ClfxTonemapParams);

  tp->exposure = 1.5;
  tp->reinhard02.key = 0.36;
  tp->reinhard05.brightness = k % 2 ? -1.0 : 0.0;
  tp->reinhard05.chromatic = 0.25;
  tp->reinhard05.light = 0.75;
  tp->drago03.bias = 0.7;
  tp->durand02.spatial_sigma = 0.1;
  tp->durand02.range_sigma = 0.3;
  tp->durand02.detail = 1.2;
  tp->durand02.sampler_filter = k % 2;
  tp->fattal02.alpha = 0.8;
  tp->fattal02.beta = 0.85;
  tp->fattal02.saturation = 0.6;
  tp->fattal02.noise = k % 2 ? 0.05 : 0.0;
  tp->mantiuk06.contrast = 0.3;
  tp->mantiuk06.saturation = 1.2;
  tp->mantiuk06.detail = k % 2 ? 1.5 : 1.0;
  tp->local_laplacian.detail = k % 2 ? 0.6 : 2.0;
  tp->local_laplacian.range_compression = k % 2 ? 0.0 : 0.7;
  tp->local_laplacian.edge = 0.3;
}

/* Each operator's sentence of the help text, in choice order. */
static const char *const tonemap_help[] = {
#define TM_HELP(v, V, name) CLFX_##V##_HELP,
  CLFX_TONEMAP_VARIANTS (TM_HELP)
#undef TM_HELP
  NULL
};
static const char *const tonemap_menus[] = { "<Image>/Colors/Tone Mapping",
                                             "<Image>/Filters/OpenCL", NULL };

const ClfxFamily clfx_family_tonemap = {
  "tonemap",
  "plug-in-clfx-tonemap",
  CLFX_N_ ("_Tone Map (OpenCL)..."),
  CLFX_N_ ("Tone Map (OpenCL)"),
  CLFX_N_ ("Map high dynamic range colour into the displayable range with "
           "OpenCL kernels"),
  CLFX_N_ ("Tone-maps the selected layers (within the selection) in linear "
           "light, alpha kept, with one of these operators.  "),
  tonemap_menus,
  CLFX_APPLY_SHADOW,
  tonemap_params,
  (int) (sizeof tonemap_params / sizeof tonemap_params[0]),
  tonemap_groups,
  (int) (sizeof tonemap_groups / sizeof tonemap_groups[0]),
  sizeof (ClfxTonemapParams),
  0,
  tonemap_variants,
  (int) (sizeof tonemap_variants / sizeof tonemap_variants[0]),
  tonemap_sweep,
  tonemap_sweep_case,
  tonemap_help,
  /* TRANSLATORS: between the tone mappers' sentences of the procedure's
   * help. */
  CLFX_N_ ("  "),
  CLFX_N_ ("  exposure (EV) is applied first.  NaN, negative and tiny "
           "(below 2^-121) colour become 0, +Inf the image's largest finite "
           "value; the report counts each.  The statistics (log-average, "
           "min, max, means) are reductions on the device, shown and "
           "validated on their own.  "
           "With device auto a missing OpenCL falls back to the CPU "
           "reference; validate compares with that reference.  Returns a "
           "JSON report (device, build logs, timings, statistics, "
           "validation)."),
  /* A tone mapper's own procedure: one operator, not "one of these". */
  CLFX_N_ ("Tone-maps the selected layers (within the selection) in linear "
           "light, alpha kept.  "),
  NULL,
};

/* ---- copy (internal) ------------------------------------------------------ */

static const ClfxVariant *const copy_variants[] = { &clfx_variant_copy };

const ClfxFamily clfx_family_copy = {
  "copy",
  NULL,
  NULL,
  NULL,
  "Pass-through kernel over the image path (the roofline)",
  NULL,
  NULL,
  CLFX_APPLY_SHADOW,
  NULL,
  0,
  NULL,
  0,
  sizeof (ClfxCopyParams),
  -1,
  copy_variants,
  1,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
  NULL,
};

static const ClfxFamily *const all_families[] = {
  &clfx_family_resize, &clfx_family_filter, &clfx_family_tonemap,
  &clfx_family_copy,
  &clfx_family_blocks, NULL
};

const ClfxFamily *const *
clfx_families (void)
{
  return all_families;
}
