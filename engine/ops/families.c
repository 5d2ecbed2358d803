/* families.c: the family table.  Every user-facing list (PDB arguments,
 * clfx-bench options, the dialog, the report, the self-test and the
 * parity matrix) is generated from these rows. */
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
    CLFX_UNIT_NONE, G_OUTPUT, target_choices, NULL, true },
};
#undef R
_Static_assert (sizeof (ClfxResizeParams) <= CLFX_PARAMS_BYTES,
                "ClfxResizeParams fits ClfxParams");

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
};

static const ClfxFamily *const all_families[] = {
  &clfx_family_resize, &clfx_family_copy, &clfx_family_blocks, NULL
};

const ClfxFamily *const *
clfx_families (void)
{
  return all_families;
}
