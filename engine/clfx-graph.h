/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-graph.h: what a variant is made of, and the device-resident graph
 * its OpenCL path runs on.
 *
 * The framework uploads the source once, allocates the (guard-banded)
 * result once and downloads it once; a variant declares its intermediate
 * images and buffers and launches named kernels, each with one checked
 * call that sets every argument.  When the source or the result exceeds
 * what the device holds (its 2D image limits, its largest allocation, a
 * memory budget) the framework runs the variant tile by tile, each tile
 * with the halo the variant's plan asks for, and the result is bit for bit
 * the untiled one: kernels index texels in source coordinates, and a
 * tile's texels beyond the source are filled in by the host with the same
 * addressing function the kernels use.  When it fits, the framework
 * streams: the source goes up in bands and the result comes down in
 * bands, each band's kernels start when the source rows they read have
 * arrived, so transfers, kernels and host copies overlap. */
#ifndef CLFX_GRAPH_H
#define CLFX_GRAPH_H

#include <stdbool.h>
#include <stddef.h>

#include "clfx-cl.h"
#include "clfx-device.h"
#include "clfx-error.h"
#include "clfx-family.h"
#include "clfx-host-image.h"
#include "clfx-tolerance.h"
#include "clfx-tuning.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct
{
  int x, y, width, height;
} ClfxRect;

/* Whole-image statistics of a source, as a variant that has them (the
 * tone mappers, docs/TONEMAP.md) gathers them before its map: a run
 * reports the ones it used (ClfxRunResult.stats), and a run given some
 * (clfx_run_with_stats) takes them instead of its source's, so that a
 * smaller copy of an image (GEGL's lower mipmap levels) is mapped with
 * the whole image's statistics.  They hold for the parameters they were
 * gathered with (the exposure, and the operator's own where a range
 * depends on them). */
typedef struct
{
  bool   has_scan;  /* float and half sources: what the cleaning found */
  bool   has_sums;  /* the luminance and colour statistics */
  bool   has_range; /* reinhard05's range of its mapped colour, durand02's
                     * of its base */
  double counts[4]; /* NaN, negative, +Inf and tiny colour values */
  double largest;   /* the largest finite colour value */
  double n;         /* the pixels the sums are over */
  double sum_y, sum_log, sum_c[3], min_y, max_y;
  double range[2];
} ClfxStats;

/* What a variant needs, decided once per run from the parameters and the
 * source (both paths and the tolerance read it). */
typedef struct
{
  int    width, height;  /* the result */
  /* Source pixels an output pixel reads beyond its own position, per
   * side (left, top, right, bottom), for area variants whose result has
   * the source's size.  Resampling variants give source_rect instead. */
  int    halo[4];
  /* Device memory the variant's intermediates need per result pixel, and
   * fixed (tables), beyond the source and result themselves. */
  size_t bytes_per_pixel;
  size_t bytes_fixed;
  /* ... and per pixel of the whole image whether the run is in one piece
   * or in tiles (whole-image buffers a tiled run keeps: the local tone
   * mappers' fields, tm_plan_fields). */
  size_t bytes_per_image_pixel;
  /* The result at one position depends on the whole image (statistics,
   * a pyramid): the framework runs it in one piece, neither banded nor
   * tiled, and says so when the image does not fit the device that way.
   * (A first statistics pass over tiles is for the variants that need
   * both.) */
  bool   whole_image_stats;
  /* The kernels may write the result over the source (set by the
   * variant): in one piece and an in-order queue, every source texel a
   * kernel reads is read before any kernel writes it (each work-item
   * reads whole lines of its own before it writes them, or only the
   * texels it writes).  clfx_exec_over_source_ok says where it is used. */
  bool   in_place;
  /* ... and the variant can gather them tile by tile instead: this many
   * passes of stats_cl over every tile come before run_cl's, each tile's
   * result rectangle aligned to stats_align (x, y) pixels in the image
   * (the statistics' blocks), so that the tiled run adds exactly what the
   * one-piece run adds.  0: one piece only. */
  int    stats_passes;
  int    stats_align[2];
  /* The addressing mode (CLFX_ADDR_*) that decides texels outside the
   * source, for the tiles' halos and the kernels' reads. */
  int    addressing;
  /* Straight alpha and a variant that mixes pixels: premultiply on read.
   * Also: the variant mixes pixels, so sRGB data are decoded to linear
   * light (mixes = false copies texels as they are). */
  bool   premultiply;
  bool   mixes;
  /* The variant mixes colour as it is stored, alpha aside (GEGL ops that
   * work in straight "RGBA float", as edge-sobel): no premultiply, decode
   * still.  Set by the variant. */
  bool   straight;
  bool   decode;      /* mixes sRGB-encoded data: linear light */
  /* Use the hardware sampler (the variant asks for `sampler_ok` and the
   * framework decides): filled in by the framework before run_cl. */
  bool   sampler_ok;
  bool   use_sampler;
  /* 8-bit sRGB through exact tables (CPU devices) rather than the
   * formula (GPUs, where divergent table reads serialize): set by the
   * framework, read by tolerances. */
  bool   srgb_tables;
  /* The statistics the run takes from outside (clfx_plan_give_stats)
   * rather than gathering its source's. */
  bool      given_stats;
  ClfxStats stats;
  /* Private state of the variant (tap tables), freed with free_state. */
  void  *state;
  void (*free_state) (void *state);
} ClfxPlan;

/* The part of the work one launch sequence covers. */
typedef struct
{
  ClfxRect out;      /* result pixels, in result coordinates */
  /* Source texels it reads, in source coordinates before addressing (may
   * reach outside the source). */
  ClfxRect in;
} ClfxTile;

typedef struct ClfxGraph ClfxGraph;

/* ---- kernel arguments ---------------------------------------------------- */

typedef enum
{
  CLFX_ARG_VALUE, /* size bytes at value */
  CLFX_ARG_LOCAL, /* __local memory of size bytes */
  CLFX_ARG_SRC,   /* the source: image or buffer, int4 view, int flags,
                   * long pitch, the 16-bit sRGB table (5 arguments) */
  CLFX_ARG_DST    /* the result: buffer, long offset, long pitch, int4 rect
                   * (4 arguments) */
} ClfxArgKind;

typedef struct
{
  ClfxArgKind kind;
  size_t      size;
  const void *value;
} ClfxArg;

#define CLFX_ARG(v)    ((ClfxArg) { CLFX_ARG_VALUE, sizeof (v), &(v) })
#define CLFX_INT(x)    ((ClfxArg) { CLFX_ARG_VALUE, sizeof (cl_int), &(cl_int) { (x) } })
#define CLFX_FLOAT(x)  ((ClfxArg) { CLFX_ARG_VALUE, sizeof (cl_float), &(cl_float) { (x) } })
#define CLFX_LOCAL(n)  ((ClfxArg) { CLFX_ARG_LOCAL, (n), NULL })
#define CLFX_SRC       ((ClfxArg) { CLFX_ARG_SRC, 0, NULL })
#define CLFX_DST       ((ClfxArg) { CLFX_ARG_DST, 0, NULL })

typedef struct
{
  const char *kernel;   /* in the variant's program */
  const char *options;  /* build options beyond the images' (may be NULL) */
  const char *program;  /* NULL: the variant's; else a shared block's */
  int         dims;     /* 1 or 2 */
  size_t      global[2];/* work-items; rounded up to the local size */
  size_t      local[2]; /* 0: the graph picks within the kernel's limit */
} ClfxLaunch;

/* Builds (once per context) and launches a kernel of the variant's
 * program: sets every argument with one check each, checks their number
 * and, where the driver reports argument types, each one's size against
 * the kernel's declaration, and tracks the launch under the kernel's name.
 * The error names the kernel, the argument and the call. */
bool clfx_graph_launch (ClfxGraph *g, const ClfxLaunch *launch,
                        const ClfxArg *args, int n_args, ClfxError *error);
#define CLFX_LAUNCH(g, launch, error, ...)                                   \
  clfx_graph_launch ((g), (launch), (const ClfxArg[]) { __VA_ARGS__ },       \
                     (int) (sizeof ((const ClfxArg[]) { __VA_ARGS__ })       \
                            / sizeof (ClfxArg)),                             \
                     (error))

/* ---- what a variant reads from the graph ------------------------------- */

const ClfxDeviceInfo *clfx_graph_device (const ClfxGraph *g);
const ClfxPlan       *clfx_graph_plan (const ClfxGraph *g);
const ClfxTile       *clfx_graph_tile (const ClfxGraph *g);
/* Rows each work-item of a pixel kernel handles (a build option too). */
int                   clfx_graph_rows_per_item (const ClfxGraph *g);
/* The hardware sampler for this run (cached per context), with the plan's
 * addressing mode or another one. */
cl_sampler            clfx_graph_sampler (ClfxGraph *g, bool normalized,
                                          bool linear, ClfxError *error);
cl_sampler            clfx_graph_sampler_for (ClfxGraph *g, bool normalized,
                                              int addressing, bool linear,
                                              ClfxError *error);
/* The pass over the tiles: -1 when the run is one piece or in tiles or
 * bands without statistics passes (run_cl does everything each time),
 * else 0 .. plan->stats_passes - 1 in stats_cl and stats_passes in
 * run_cl; and the current tile's or band's index in its pass (0: the
 * first, where a pass finishes the previous one's reductions and where
 * counts over the whole image start). */
int                   clfx_graph_pass (const ClfxGraph *g);
int                   clfx_graph_tile_index (const ClfxGraph *g);
/* Whether the source reaches kernels as a buffer (CPU devices) rather
 * than an image: variants pick the kernel form that is fast there. */
bool                  clfx_graph_source_is_buffer (const ClfxGraph *g);
/* The run's device memory budget (CLFX_DEV budget, else half the
 * device's memory), which the plan's pieces fit. */
size_t                clfx_graph_budget (const ClfxGraph *g);
/* Whether a test forces the two-pass form of a variant (tuning). */
bool                  clfx_graph_force_two_pass (const ClfxGraph *g);
bool                  clfx_graph_force_fixed_taps (const ClfxGraph *g);
/* CLFX_DEV resize-strip: which resizes may go down the strip kernel. */
ClfxStripPolicy       clfx_graph_strip_policy (const ClfxGraph *g);
/* CLFX_DEV resize-strip-rows: result rows a work-group of the strip kernels
 * makes; 0: the variant's choice. */
int                   clfx_graph_strip_rows (const ClfxGraph *g);
/* CLFX_DEV band-bytes: bytes per band of a variant that bands its
 * intermediates; 0: the variant's default. */
size_t                clfx_graph_band_bytes (const ClfxGraph *g);

/* Intermediates, kept on the device until the run ends and reused by
 * later tiles under the same name (the size must not grow). */
cl_mem clfx_graph_image (ClfxGraph *g, const char *name, int width,
                         int height, ClfxError *error);  /* float RGBA */
/* A float RGBA 3D image of width x height x depth texels, filled from
 * buffer buf (float4 texels, x fastest, then y, then z) in order with the
 * kernels: for kernels that read it through the sampler's trilinear
 * filter. */
cl_mem clfx_graph_image3d (ClfxGraph *g, const char *name, cl_mem buf,
                           int width, int height, int depth,
                           ClfxError *error);
cl_mem clfx_graph_buffer (ClfxGraph *g, const char *name, size_t bytes,
                          ClfxError *error);
/* The result buffer itself where it holds exactly a width x height float
 * RGBA image (the whole result in one piece, rows unpadded, no guard
 * band), else NULL: an intermediate of that shape for a last pass that
 * reads each of its texels before writing the result texel there (a
 * recursion along columns) can live in it, which saves an image-sized
 * buffer: on CPU devices fresh host memory, whose first touch is what a
 * large image costs (docs/notebook/performance-2026.md, "Fresh memory in
 * GIMP's process (fcd9a5e..21a0b6f)"). */
cl_mem clfx_graph_result_float4 (const ClfxGraph *g, int width, int height);
/* Whether the result image is float RGBA (whatever its layout). */
bool   clfx_graph_result_is_float4 (const ClfxGraph *g);
/* A read-only table uploaded once per run (later tiles reuse it). */
cl_mem clfx_graph_table (ClfxGraph *g, const char *name, const void *data,
                         size_t bytes, ClfxError *error);
/* Fills bytes of buf with a pattern of pattern_size bytes (in order with
 * the kernels). */
bool clfx_graph_fill (ClfxGraph *g, cl_mem buf, const void *pattern,
                      size_t pattern_size, size_t bytes, ClfxError *error);
/* Reads bytes of buf from offset into dest, waiting for the kernels
 * before it: for a solver that decides on the host whether to queue
 * more (a few values; the run's result never goes this way). */
bool clfx_graph_read (ClfxGraph *g, const char *what, cl_mem buf,
                      size_t offset, size_t bytes, void *dest,
                      ClfxError *error);
/* A read-only table for the current tile only (replaced by the next
 * upload of the same name). */
cl_mem clfx_graph_upload (ClfxGraph *g, const char *name, const void *data,
                          size_t bytes, ClfxError *error);

/* The OpenCL C spec's rule for samplers (clfx-sampler.c): repeat and
 * mirrored-repeat need normalized coordinates; refused with
 * CLFX_ERR_INVALID and the reason. */
bool clfx_sampler_check (bool normalized, int addressing, ClfxError *error);

/* ---- probes ---------------------------------------------------------------- */

/* Stage values a variant exposes (a reduction's result, a histogram),
 * compared with the CPU reference's values of the same name on their own
 * and shown in the report. */
#define CLFX_MAX_PROBE_VALUES 4096
typedef struct
{
  char    name[64];
  int     n_device, n_reference;
  double *device;    /* values from the OpenCL path (NULL: none) */
  double *reference; /* values from the CPU path (NULL: none) */
  double  abs_tol, rel_tol;
  char    basis[256];
  size_t  mismatches;
  double  max_abs;
  int     worst;     /* index of the largest difference */
  bool    passed;
} ClfxProbe;

typedef struct
{
  ClfxProbe *probes;
  int        n;
} ClfxProbes;

/* Reads n floats from buf on the device and records them as probe
 * `name` (a later record of the same name replaces it); _at from float
 * `offset` on; _counts reads unsigned ints. */
bool clfx_graph_probe (ClfxGraph *g, const char *name, cl_mem buf, int n,
                       ClfxError *error);
bool clfx_graph_probe_at (ClfxGraph *g, const char *name, cl_mem buf,
                          int offset, int n, ClfxError *error);
bool clfx_graph_probe_counts (ClfxGraph *g, const char *name, cl_mem buf,
                              int n, ClfxError *error);
/* The CPU path's side: records n values; the tolerance is given here. */
bool clfx_probes_add (ClfxProbes *probes, const char *name,
                      const double *values, int n, bool reference,
                      double abs_tol, double rel_tol, const char *basis);
/* Compares each probe's two sides (same count; |d - r| <= abs_tol +
 * rel_tol |r|; a side missing fails); true when all passed. */
bool clfx_probes_compare (ClfxProbes *probes);
void clfx_probes_clear (ClfxProbes *probes);

/* ---- a variant ------------------------------------------------------------- */

struct ClfxVariant
{
  const char        *name;    /* "resize", "gaussian" */
  const char        *program; /* kernels/<program>.cl */
  const char        *blurb;
  /* NULL-terminated names of the family's parameters this variant reads
   * (NULL: all of them). */
  const char *const *uses;
  /* Checks the parameters against the source and fills the plan. */
  bool (*plan) (const ClfxParams *p, const ClfxImage *src, ClfxPlan *plan,
                ClfxError *error);
  /* Resampling variants: the source rectangle (before addressing) that
   * the result rectangle `out` reads.  NULL: out plus the plan's halo. */
  void (*source_rect) (const ClfxPlan *plan, const ClfxImage *src,
                       const ClfxRect *out, ClfxRect *in);
  /* The OpenCL path for the graph's current tile. */
  bool (*run_cl) (ClfxGraph *g, const ClfxParams *p, ClfxError *error);
  /* The CPU reference: an independent implementation of the same
   * definition; records its probes (may be NULL when there are none). */
  bool (*run_cpu) (const ClfxParams *p, const ClfxPlan *plan,
                   const ClfxImage *src, ClfxImage *dst, ClfxProbes *probes,
                   ClfxError *error);
  /* What validation accepts between the two, and why. */
  void (*tolerance) (const ClfxParams *p, const ClfxPlan *plan,
                     const ClfxDeviceInfo *dev, const ClfxImage *src,
                     const ClfxImage *dst, ClfxTolerance *tol);
  /* Optional: per channel, the lowest and highest results the spec
   * allows where the reference `ref` cannot know which one the device
   * picks (see clfx_validate_bounded); lo and hi are shaped like ref. */
  bool (*bounds) (const ClfxParams *p, const ClfxPlan *plan,
                  const ClfxImage *src, const ClfxImage *ref, ClfxImage *lo,
                  ClfxImage *hi, ClfxError *error);
  /* Optional: a more precise name for the report ("lanczos3"). */
  const char *(*describe) (const ClfxParams *p);
  /* Tiled whole-image statistics (plan->stats_passes): pass k over the
   * graph's current tile, which writes no result (NULL: none). */
  bool (*stats_cl) (ClfxGraph *g, const ClfxParams *p, int pass,
                    ClfxError *error);
  /* In a family with several variants: GEGL's name of the operation,
   * its categories and GIMP's menu for it (the variant's header's
   * CLFX_NAME_PLACE); zero elsewhere. */
  ClfxOperatorPlace place;
  /* Optional, for a variant with whole-image statistics (ClfxStats):
   * take_stats checks that stats hold every part the plan needs and puts
   * them into the plan (refused with CLFX_ERR_INVALID otherwise);
   * stats_of gives the ones a run used, from its probes (the device's
   * values, or the reference's).  A variant without them takes no
   * statistics from outside. */
  bool (*take_stats) (ClfxPlan *plan, const ClfxStats *stats,
                      ClfxError *error);
  bool (*stats_of) (const ClfxPlan *plan, const ClfxProbes *probes,
                    bool device, ClfxStats *stats);
};

/* The variant's plan, checked against the families' common rules (result
 * size at least 1x1), with the source's alpha and transfer curve in it. */
/* The two rules every variant shares, for a variant that mixes pixels or
 * not: straight alpha is weighed in (premultiply), sRGB is decoded to
 * linear light.  clfx_plan_make applies them to the plan; variants that
 * need them while planning call them too. */
bool clfx_plan_premultiplies (bool mixes, const ClfxImage *src);
bool clfx_plan_decodes (bool mixes, const ClfxImage *src);

bool clfx_plan_make (const ClfxParams *p, const ClfxImage *src, ClfxPlan *plan,
                     ClfxError *error);
void clfx_plan_clear (ClfxPlan *plan);
/* The run takes stats (a copy) instead of gathering its source's
 * (ClfxVariant.take_stats): one piece, no statistics passes over tiles.
 * Refused (CLFX_ERR_INVALID) for a variant without statistics. */
bool clfx_plan_give_stats (ClfxPlan *plan, const ClfxVariant *v,
                           const ClfxStats *stats, ClfxError *error);
/* The source rectangle a result rectangle reads (before addressing). */
void clfx_plan_source_rect (const ClfxVariant *v, const ClfxPlan *plan,
                            const ClfxImage *src, const ClfxRect *out,
                            ClfxRect *in);

/* For a variant whose result has the source's size: the part of the
 * source (rect, in source coordinates) that result pixels in `out` read,
 * clamped to the source: out grown by the plan's halo, or the whole
 * source for a variant that runs in one piece (a recursion along whole
 * lines, whole-image statistics).  Beyond the source's edge the variant's
 * addressing decides, as it does for the whole source, so a run on that
 * part gives the whole run's result inside out. */
bool clfx_plan_read_rect (const ClfxParams *p, const ClfxImage *header,
                          const ClfxRect *out, ClfxRect *read,
                          ClfxError *error);

/* The absolute part of tol per result pixel (plan->width x height, float
 * gray, into map): its fixed part, plus abs_mag x min(1, m / magnitude)
 * and abs_range x min(1, 2 m / range), where m is the largest |value| of
 * the source texels the pixel reads (clfx_plan_source_rect, per axis; a
 * repeat or mirror that reaches around the image reads the whole line).
 * *made is false, and map untouched, where tol declares no magnitude or
 * the result depends on the whole image. */
bool clfx_tol_local_map (const ClfxVariant *v, const ClfxPlan *plan,
                         const ClfxImage *src, const ClfxTolerance *tol,
                         ClfxImage *map, bool *made, ClfxError *error);

#ifdef __cplusplus
}
#endif

#endif
