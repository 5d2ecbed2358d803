/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-gegl-op.c: the filter and tone-map variants as GEGL operations
 * (clfx:gaussian, clfx:reinhard05, ...), loaded into GIMP's own process,
 * so that pixels never cross the plug-in wire and GIMP's non-destructive
 * filters and on-canvas preview can use them.
 *
 * One operation type per variant of every family that keeps the image's
 * size (the families the plug-in applies through the shadow buffer),
 * made at load time from the family table: properties are the variant's
 * arguments with their names, ranges, UI ranges, units and defaults, plus
 * device, validate and report-file.
 *
 * Geometry is the plan's, as the plug-in's shadow path uses it: an output
 * rectangle reads the source rectangle clfx_plan_read_rect gives (grown by
 * the halo, clamped to the input's extent, or the whole input for a
 * variant that runs in one piece), and beyond the input's extent the
 * variant's addressing decides.  Such variants compute their whole
 * output at once (get_cached_region), as gegl:reinhard05 does.
 *
 * GEGL may render a lower mipmap level (a view zoomed out): each operator
 * gives there what its full-size result gives, downscaled, one of three
 * ways (clfx-gegl-levels.h): its distances scaled, the full-size image's
 * statistics (gathered once per state of the input and the parameters),
 * or the full-size result downscaled as GEGL downscales.
 *
 * Inside GIMP an operation must never bring the process down: every
 * engine error is caught, the run is repeated on the engine's CPU
 * reference with a warning, and if that fails too the input is passed
 * through unchanged with a warning.  One OpenCL context serves every
 * operation of the process, made on the first run (nothing touches OpenCL
 * before), kept between runs, and used by one run at a time. */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <libintl.h>
#include <stdio.h>
#include <string.h>

#include <gegl-plugin.h>

#include "clfx-babl-format.h"
#include "clfx-gegl-levels.h"
#include "clfx-run.h"
#include "clfx-tuning.h"

/* The plug-in's catalogs (domain clfx, po/): the op table's labels and
 * blurbs are its strings.  GIMP has set the locale before it loads GEGL's
 * modules. */
#define _(s) dgettext ("clfx", s)

/* Text of the table: translated, but never NULL or "" (whose
 * "translation" is the catalog's header). */
static const char *
tr (const char *text)
{
  return text && *text ? _(text) : text;
}

/* ---- what each operation type is made from ---------------------------- */

/* Properties past the family's rows. */
enum
{
  EXTRA_DEVICE,
  EXTRA_VALIDATE,
  EXTRA_REPORT_FILE,
  N_EXTRA
};

/* Every property: read-write, set at construction, an input of the node. */
#define PROP_FLAGS                                                           \
  ((GParamFlags) (G_PARAM_READWRITE | G_PARAM_CONSTRUCT | GEGL_PARAM_PAD_INPUT))

typedef struct
{
  const ClfxFamily *family;
  int               variant;
  char              op_name[64];   /* "clfx:gaussian" */
  char              title[160];
  /* Property id k (from 1) is family row rows[k - 1] for k <= n_rows,
   * then the extras (rows: n_params entries; the info lives as long as
   * the type). */
  int              *rows;
  int               n_rows;
  ClfxLevelWay      level_way; /* how it gives a lower mipmap level */
} ClfxOpInfo;

typedef struct
{
  GeglOperationFilter parent_instance;
  ClfxParams          params;
  gchar              *device;
  gboolean            validate;
  gchar              *report_file;
  ClfxPixelFormat     pf;
  ClfxStatsCache      stats; /* the full-size statistics, for the levels */
} ClfxOp;

typedef struct
{
  GeglOperationFilterClass parent_class;
  const ClfxOpInfo        *info;
} ClfxOpClass;

#define CLFX_OP(obj) ((ClfxOp *) (obj))
#define CLFX_OP_INFO(obj)                                                    \
  (((ClfxOpClass *) G_OBJECT_GET_CLASS (obj))->info)

/* GEGL's categories for each variant, so that they sit beside GEGL's own
 * blurs, enhance, edge-detect and tone-mapping operations in GIMP's GEGL
 * Operation tool (the variant's header's CLFX_NAME_PLACE).  No
 * "gimp:menu-path": the GIMP menu entry is the plug-in's procedure of the
 * operator, whose dialog adds this operation as a non-destructive filter;
 * a second entry with the same label would only confuse. */
static const ClfxOperatorPlace other_place = { NULL, "generic", NULL,
                                               NULL };

static const ClfxOperatorPlace *
place_of (const ClfxOpInfo *info)
{
  const ClfxOperatorPlace *place =
    &info->family->variants[info->variant]->place;

  return place->categories ? place : &other_place;
}

/* ---- the engine, shared by every operation of the process ------------- */

static GMutex       engine_lock;
static ClfxContext *engine_context;
static gchar       *engine_device; /* the request engine_context is for */
static gboolean     engine_ran;    /* a run has used the engine */

/* Where a run's source comes from, and what it runs with. */
typedef struct
{
  const ClfxParams *params; /* o->params, or scaled for the level */
  const ClfxStats  *stats;  /* the full-size image's statistics, or NULL */
  GeglBuffer       *buffer; /* the input, read at `level`, ... */
  GeglNode         *node;   /* ... or this node rendered at full size */
  gint              level;
  GeglRectangle     extent; /* the input's extent at that level */
  GeglRectangle     read;   /* the source rectangle, at that level */
} Source;

static void
read_source (const ClfxOp *o,
             const Source *s,
             ClfxImage    *src)
{
  if (s->node)
    gegl_node_blit (s->node, 1.0, &s->read, o->pf.format, src->data,
                    (gint) src->stride, GEGL_BLIT_DEFAULT);
  else
    gegl_buffer_get (s->buffer, &s->read, 1.0 / (1 << s->level),
                     o->pf.format, src->data, (gint) src->stride,
                     GEGL_ABYSS_NONE);
}

/* The shared context serves one device request at a time: another
 * request gets a new one.  Holds engine_lock. */
static void
engine_use_device (const char *device)
{
  if (g_strcmp0 (engine_device, device))
    {
      clfx_context_free (engine_context);
      engine_context = NULL;
      g_free (engine_device);
      engine_device = g_strdup (device);
    }
}

/* What the process's first run builds, built ahead: the first time an
 * operation is prepared (GIMP's filter tool, or a layer filter about to
 * render), a thread of its own runs the variant on a few pixels of the
 * input's format on the shared context, while GEGL reads the input for
 * the real run, which then waits on engine_lock and finds its kernels
 * built. */
typedef struct
{
  ClfxParams      params;
  ClfxPixelFormat pf;
  gchar          *device;
  const gchar    *op_name;
} BuildAhead;

static gpointer
build_ahead (gpointer data)
{
  BuildAhead    *b = data;
  ClfxImage      layout;
  ClfxRunOptions opt = { 0 };
  ClfxRunResult  r;
  ClfxError      e = { 0 };
  gboolean       ok;
  gint64         t0 = g_get_monotonic_time ();

  clfx_pixel_format_header (&b->pf, 1, 1, &layout);
  /* As engine_run asks, so that the same kernel forms are built. */
  opt.device = b->device;
  opt.context = &engine_context;
  opt.src_scratch = TRUE;
  g_mutex_lock (&engine_lock);
  /* Where the real run came first it built what it needed, and the
   * process may be exiting (the gegl command on a small image): a build
   * now would run the compiler while exit() destroys its statics (PoCL's
   * LLVM: "pure virtual method called", an abort). */
  if (engine_ran)
    {
      g_mutex_unlock (&engine_lock);
      g_debug ("%s: the first run came before the build ahead",
               b->op_name);
      g_free (b->device);
      g_free (b);
      return NULL;
    }
  engine_use_device (b->device);
  ok = clfx_run_build_ahead (&b->params, &layout, &opt, &r, &e);
  g_mutex_unlock (&engine_lock);
  /* A failure here is the real run's to report. */
  g_debug ("%s: built ahead in %.0f ms: %s", b->op_name,
           (g_get_monotonic_time () - t0) / 1000.0,
           ok ? (r.fallback[0] ? r.fallback : "ok") : e.message);
  clfx_run_result_clear (&r);
  g_free (b->device);
  g_free (b);
  return NULL;
}

static void
build_ahead_once (ClfxOp *o)
{
  static gsize started = 0;
  const char  *device = o->device && *o->device ? o->device : "auto";

  if (g_once_init_enter (&started))
    {
      char fault[64];

      /* CLFX_DEV's fault fails the Nth call of the process: a build
       * ahead would take calls the test counts for the real run. */
      if (strcmp (device, "reference") != 0
          && ! clfx_dev_switch ("fault", fault, sizeof fault))
        {
          BuildAhead *b = g_new0 (BuildAhead, 1);

          b->params = o->params;
          b->pf = o->pf;
          b->device = g_strdup (device);
          b->op_name = CLFX_OP_INFO (o)->op_name;
          g_thread_unref (g_thread_new ("clfx-build-ahead", build_ahead, b));
        }
      g_once_init_leave (&started, 1);
    }
}

/* Runs src through the variant on the shared context; on failure of an
 * OpenCL device, again on the CPU reference (a warning says why).  Holds
 * engine_lock. */
static gboolean
engine_run (ClfxOp         *o,
            const Source   *s,
            ClfxImage      *src,
            ClfxImage      *dst,
            ClfxRunResult  *result,
            ClfxRunOptions *opt,
            ClfxError      *error)
{
  const char *device = o->device && *o->device ? o->device : "auto";

  engine_ran = TRUE;
  engine_use_device (device);
  opt->device = device;
  opt->validate = o->validate;
  opt->context = &engine_context;
  /* src is this run's own copy of the input: the result may be made in
   * its memory, which saves a fresh image's first touch, more than a blur
   * costs (docs/notebook/performance-2026.md, "The result over the
   * module's copy of its input (dc8b8bb, 54fc135)"). */
  opt->src_scratch = TRUE;
  if (clfx_run_with_stats (s->params, src, dst, opt, s->stats, result,
                           error))
    return TRUE;
  if (! strcmp (device, "reference") || error->code == CLFX_ERR_INVALID)
    return FALSE;
  g_warning ("%s: device '%s' failed (%s); running the CPU reference "
             "instead", CLFX_OP_INFO (o)->op_name, device, error->message);
  /* A run that failed over its source has changed it: read it again. */
  if (result->over_source)
    read_source (o, s, src);
  clfx_run_result_clear (result);
  opt->device = "reference";
  opt->context = NULL;
  opt->src_scratch = FALSE;
  {
    ClfxError first = *error;

    memset (error, 0, sizeof *error);
    if (! clfx_run_with_stats (s->params, src, dst, opt, s->stats, result,
                               error))
      return FALSE;
    /* The report says what ran instead, and why. */
    snprintf (result->fallback, sizeof result->fallback,
              "device '%s' failed: %s; the CPU reference ran", device,
              first.message);
  }
  return TRUE;
}

/* The report of a run for level `level`: below the full size, its
 * parameters are the level's (scaled distances show there), and it says
 * the level and the way. */
static void
write_report (ClfxOp               *o,
              const Source         *s,
              gint                  level,
              const ClfxImage      *src,
              const ClfxRunOptions *opt,
              const ClfxRunResult  *result)
{
  gchar       level_text[16];
  const char *extra[] = { "in-process", "gegl", NULL, level_text, "mipmap",
                          NULL, NULL };
  char       *json;
  GError     *error = NULL;

  if (! o->report_file || ! *o->report_file)
    return;
  if (level > 0)
    {
      g_snprintf (level_text, sizeof level_text, "%d", level);
      extra[2] = "mipmap-level";
      extra[5] = clfx_level_way_name (CLFX_OP_INFO (o)->level_way);
    }
  json = clfx_report_json (s->params, src, opt, result, extra);
  if (! json)
    g_warning ("%s: no report (out of memory)", CLFX_OP_INFO (o)->op_name);
  else if (! g_file_set_contents (o->report_file, json, -1, &error))
    {
      g_warning ("%s: %s", CLFX_OP_INFO (o)->op_name, error->message);
      g_clear_error (&error);
    }
  free (json);
}

/* ---- geometry ----------------------------------------------------------- */

static gboolean
source_extent (GeglOperation *operation,
               GeglRectangle *extent)
{
  const GeglRectangle *in =
    gegl_operation_source_get_bounding_box (operation, "input");

  if (! in || gegl_rectangle_is_empty (in)
      || gegl_rectangle_is_infinite_plane (in))
    return FALSE;
  *extent = *in;
  return TRUE;
}

/* The source rectangle the result rectangle roi reads under params, in
 * the coordinates of level `level` (clamped to the input's extent there,
 * *extent); FALSE where the plan refuses the parameters or the input has
 * no finite extent. */
static gboolean
read_rect (GeglOperation       *operation,
           const ClfxParams    *params,
           gint                 level,
           const GeglRectangle *roi,
           GeglRectangle       *extent,
           GeglRectangle       *read,
           ClfxError           *error)
{
  ClfxOp       *o = CLFX_OP (operation);
  ClfxImage     header;
  GeglRectangle full, r;
  ClfxRect      out, in;

  if (! source_extent (operation, &full))
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "the input has no finite extent");
  *extent = clfx_level_rect (&full, level);
  if (! gegl_rectangle_intersect (&r, roi, extent))
    {
      *read = r;
      return TRUE;
    }
  clfx_pixel_format_header (&o->pf, extent->width, extent->height, &header);
  out = (ClfxRect) { r.x - extent->x, r.y - extent->y, r.width, r.height };
  if (! clfx_plan_read_rect (params, &header, &out, &in, error))
    return FALSE;
  gegl_rectangle_set (read, in.x + extent->x, in.y + extent->y,
                      (guint) in.width, (guint) in.height);
  return TRUE;
}

static void
clfx_op_prepare (GeglOperation *operation)
{
  ClfxOp     *o = CLFX_OP (operation);
  const Babl *in = gegl_operation_get_source_format (operation, "input");
  ClfxError   e = { 0 };

  /* The input's own encoding where the engine reads it (u8 to float,
   * sRGB or linear, gray or RGB), so that GeglBuffer only copies. */
  if (! clfx_pixel_format_of_babl (in ? in : babl_format ("RGBA float"),
                                   &o->pf, &e))
    clfx_pixel_format_of_babl (babl_format_with_space ("RGBA float", in),
                               &o->pf, &e);
  gegl_operation_set_format (operation, "input", o->pf.format);
  gegl_operation_set_format (operation, "output", o->pf.format);
  build_ahead_once (o);
}

static GeglRectangle
clfx_op_get_required_for_output (GeglOperation       *operation,
                                 const gchar         *input_pad,
                                 const GeglRectangle *roi)
{
  ClfxOp           *o = CLFX_OP (operation);
  const ClfxOpInfo *info = CLFX_OP_INFO (o);
  GeglRectangle     extent, read, need;
  ClfxError         e = { 0 };

  (void) input_pad;
  if (! read_rect (operation, &o->params, 0, roi, &extent, &need, &e))
    return *roi;
  /* A lower level reads the input at its level, with halos of the
   * scaled distances in whole pixels of the level, which the full-size
   * halo need not cover; GEGL asks the input for this rectangle whatever
   * the level, so it covers every level's. */
  for (gint level = 1; info->level_way == CLFX_LEVEL_SCALED
                       && level <= CLFX_LEVEL_MAX; level++)
    {
      GeglRectangle roi_level = clfx_level_rect (roi, level), up;
      ClfxParams    p;

      clfx_level_params (info->family, info->rows, info->n_rows, &o->params,
                         level, &p);
      if (! read_rect (operation, &p, level, &roi_level, &extent, &read, &e)
          || gegl_rectangle_is_empty (&read))
        continue;
      up = clfx_level_rect_up (&read, level);
      if (gegl_rectangle_is_empty (&need))
        need = up;
      else
        gegl_rectangle_bounding_box (&need, &need, &up);
    }
  return need;
}

static GeglRectangle
clfx_op_get_invalidated_by_change (GeglOperation       *operation,
                                   const gchar         *input_pad,
                                   const GeglRectangle *input_roi)
{
  GeglRectangle extent, read, grown = *input_roi;
  ClfxError     e = { 0 };
  gint          dx, dy;

  (void) input_pad;
  if (! read_rect (operation, &CLFX_OP (operation)->params, 0, input_roi,
                   &extent, &read, &e))
    return *input_roi;
  /* The pixels that read a changed one are those within the halo of it:
   * the halo the plan grows a rectangle by, taken on both sides (a
   * variant in one piece grows it to the whole input). */
  dx = MAX (input_roi->x - read.x,
            read.x + read.width - input_roi->x - input_roi->width);
  dy = MAX (input_roi->y - read.y,
            read.y + read.height - input_roi->y - input_roi->height);
  grown.x -= MAX (dx, 0);
  grown.y -= MAX (dy, 0);
  grown.width += 2 * MAX (dx, 0);
  grown.height += 2 * MAX (dy, 0);
  return grown;
}

static GeglRectangle
clfx_op_get_cached_region (GeglOperation       *operation,
                           const GeglRectangle *roi)
{
  GeglRectangle extent, read;
  ClfxError     e = { 0 };

  /* Where the rectangle reads the whole input (whole-image statistics, a
   * recursion along whole lines), the whole output costs no more: make
   * it once. */
  if (read_rect (operation, &CLFX_OP (operation)->params, 0, roi, &extent,
                 &read, &e)
      && gegl_rectangle_equal (&read, &extent))
    return extent;
  return *roi;
}

/* ---- processing --------------------------------------------------------- */

/* A part of the result written into GEGL's output buffer at a level (one
 * thread's share). */
typedef struct
{
  GeglBuffer          *output;
  const GeglRectangle *result;
  gint                 level;
  const Babl          *format;
  const ClfxImage     *dst;
  size_t               off;
} SetArea;

static void
set_area (const GeglRectangle *area,
          gpointer             data)
{
  const SetArea *sa = data;
  size_t         off = sa->off
                       + (size_t) (area->y - sa->result->y) * sa->dst->stride
                       + (size_t) (area->x - sa->result->x)
                           * clfx_image_pixel_size (sa->dst);

  gegl_buffer_set (sa->output, area, sa->level, sa->format,
                   (guchar *) sa->dst->data + off, (gint) sa->dst->stride);
}

/* dst's pixels of rectangle out (dst's origin at from's corner) into the
 * output at `level`. */
static void
write_output (ClfxOp              *o,
              GeglBuffer          *output,
              const GeglRectangle *out,
              gint                 level,
              const ClfxImage     *dst,
              const GeglRectangle *from)
{
  SetArea sa = { output, out, level, o->pf.format, dst,
                 (size_t) (out->y - from->y) * dst->stride
                   + (size_t) (out->x - from->x)
                       * clfx_image_pixel_size (dst) };

  /* On every core: writing a result is GEGL's tiles' first touch, and
   * page faults on two cores take half the time of one
   * (docs/notebook/performance-2026.md, "Fresh memory in GIMP's process
   * (fcd9a5e..21a0b6f)"). */
  gegl_parallel_distribute_area (out, 1.0, GEGL_SPLIT_STRATEGY_HORIZONTAL,
                                 set_area, &sa);
}

/* Never fail inside GIMP: the input goes through as it was, at the
 * level asked for. */
static void
pass_through (ClfxOp              *o,
              GeglBuffer          *input,
              GeglBuffer          *output,
              const GeglRectangle *result,
              gint                 level)
{
  GeglRectangle r = clfx_level_rect (result, level);
  gsize         bpp = (gsize) babl_format_get_bytes_per_pixel (o->pf.format);
  guchar       *pixels;

  if (level == 0)
    {
      gegl_buffer_copy (input, result, GEGL_ABYSS_NONE, output, result);
      return;
    }
  /* gegl_buffer_copy copies a buffer's full-size tiles only. */
  pixels = g_try_malloc ((gsize) r.width * (gsize) r.height * bpp);
  if (! pixels)
    return;
  gegl_buffer_get (input, &r, 1.0 / (1 << level), o->pf.format, pixels,
                   GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
  gegl_buffer_set (output, &r, level, o->pf.format, pixels,
                   GEGL_AUTO_ROWSTRIDE);
  g_free (pixels);
}

/* s read into src and run through the engine into dst (the result over
 * s->read); with `report`, the run's report for level `level`.  The
 * engine is held only while it runs: reading s may render the graph
 * above, clfx: operations there included.  read_us: when the read ended
 * (g_get_monotonic_time). */
static gboolean
run_source (ClfxOp        *o,
            const Source  *s,
            gint           level,
            gboolean       report,
            ClfxImage     *src,
            ClfxImage     *dst,
            ClfxRunResult *r,
            gint64        *read_us,
            ClfxError     *error)
{
  ClfxRunOptions opt = { 0 };
  gboolean       ok;

  if (! clfx_host_image_alloc (src, s->read.width, s->read.height,
                               o->pf.channels, o->pf.depth, error))
    return FALSE;
  src->straight_alpha = o->pf.straight_alpha;
  src->transfer = o->pf.transfer;
  src->origin_x = s->read.x - s->extent.x;
  src->origin_y = s->read.y - s->extent.y;
  src->extent_width = s->extent.width;
  src->extent_height = s->extent.height;
  read_source (o, s, src);
  *read_us = g_get_monotonic_time ();
  g_mutex_lock (&engine_lock);
  ok = engine_run (o, s, src, dst, r, &opt, error);
  if (ok && report)
    write_report (o, s, level, src, &opt, r);
  g_mutex_unlock (&engine_lock);
  if (ok && r->validated && ! r->validation.passed)
    {
      char why[1024];

      /* The device's result is what failed: the reference's is applied. */
      clfx_run_keep_reference (r, dst);
      g_warning ("%s: the device's result differs from the CPU reference: "
                 "%s; %s", CLFX_OP_INFO (o)->op_name,
                 clfx_run_result_failure (r, why, sizeof why),
                 r->reference_kept ? "the CPU reference's result is used"
                                   : "the device's result is used");
    }
  return ok;
}

/* Whether o's variant on an input of this extent gathers whole-image
 * statistics (aces on 8-bit data has none). */
static gboolean
gathers_stats (ClfxOp              *o,
               const GeglRectangle *extent)
{
  ClfxImage header;
  ClfxPlan  plan;
  ClfxError e = { 0 };
  gboolean  stats;

  clfx_pixel_format_header (&o->pf, extent->width, extent->height, &header);
  if (! clfx_plan_make (&o->params, &header, &plan, &e))
    return FALSE;
  stats = plan.whole_image_stats;
  clfx_plan_clear (&plan);
  return stats;
}

/* The full-size image's statistics under o's parameters, for a lower
 * level: kept from an earlier run on this state of the input, else
 * gathered by a run on the input rendered at full size (the level's
 * input has other ones: smaller maxima, another log-average). */
static gboolean
full_size_stats (ClfxOp        *o,
                 GeglOperation *operation,
                 GeglBuffer    *input,
                 ClfxStats     *stats,
                 ClfxError     *error)
{
  gint          generation = clfx_stats_cache_generation (&o->stats);
  GeglRectangle extent;
  Source        s = { &o->params, NULL, input, NULL, 0, { 0 }, { 0 } };
  ClfxImage     src = { 0 }, dst = { 0 };
  ClfxRunResult r;
  gint64        read_us;
  gboolean      ok;

  if (! source_extent (operation, &extent))
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "the input has no finite extent");
  if (clfx_stats_cache_lookup (&o->stats, generation, &o->params,
                               o->pf.format, &extent, stats))
    return TRUE;
  /* The input's full-size tiles are not there when the graph above
   * renders at the level: its producer renders them. */
  s.node = gegl_operation_get_source_node (operation, "input");
  s.extent = s.read = extent;
  memset (&r, 0, sizeof r);
  ok = run_source (o, &s, 0, FALSE, &src, &dst, &r, &read_us, error);
  if (ok && ! r.has_stats)
    ok = clfx_error_set (error, CLFX_ERR_INVALID, "the full-size run "
                         "gave no statistics");
  if (ok)
    {
      *stats = r.stats;
      clfx_stats_cache_store (&o->stats, generation, &o->params,
                              o->pf.format, &extent, stats);
    }
  clfx_run_result_clear (&r);
  clfx_host_image_free (&src);
  clfx_host_image_free (&dst);
  return ok;
}

/* What s reads and runs with at level `level` (o's operator's way below
 * the full size; params and stats hold what it points to); FALSE with
 * *error set where the full-size statistics could not be had. */
static gboolean
source_for_level (ClfxOp        *o,
                  GeglOperation *operation,
                  gint           level,
                  Source        *s,
                  ClfxParams    *params,
                  ClfxStats     *stats,
                  ClfxError     *error)
{
  const ClfxOpInfo *info = CLFX_OP_INFO (o);
  GeglRectangle     extent;

  if (level == 0)
    return TRUE;
  switch (info->level_way)
    {
    case CLFX_LEVEL_SCALED:
      clfx_level_params (info->family, info->rows, info->n_rows, &o->params,
                         level, params);
      s->params = params;
      return TRUE;
    case CLFX_LEVEL_STATS:
      /* Without an extent read_rect says so; without statistics the map
       * is all there is. */
      if (! source_extent (operation, &extent)
          || ! gathers_stats (o, &extent))
        return TRUE;
      s->stats = stats;
      return full_size_stats (o, operation, s->buffer, stats, error);
    default:
      /* The full-size pixels under the level's rectangle, rendered by
       * the input's producer (the input's own full-size tiles may not
       * exist at a level). */
      s->level = 0;
      s->node = gegl_operation_get_source_node (operation, "input");
      return TRUE;
    }
}

static gboolean
clfx_op_process (GeglOperation       *operation,
                 GeglBuffer          *input,
                 GeglBuffer          *output,
                 const GeglRectangle *result,
                 gint                 level)
{
  ClfxOp           *o = CLFX_OP (operation);
  const ClfxOpInfo *info = CLFX_OP_INFO (o);
  gboolean          full_size = level > 0
                                && info->level_way == CLFX_LEVEL_FULL;
  gint              generation = clfx_stats_cache_generation (&o->stats);
  ClfxParams        params;
  ClfxStats         stats;
  Source            s = { &o->params, NULL, input, NULL, level, { 0 },
                          { 0 } };
  ClfxImage         src = { 0 }, dst = { 0 }, small = { 0 };
  ClfxRunResult     r;
  ClfxError         e = { 0 };
  GeglRectangle     out = clfx_level_rect (result, level), made;
  gboolean          ok;
  gint64            t0 = g_get_monotonic_time (), t1 = t0, t2;

  memset (&r, 0, sizeof r);
  if (gegl_rectangle_is_empty (&out))
    return TRUE;
  /* The rectangle the run makes, at the level it reads. */
  made = full_size ? clfx_level_rect_up (&out, level) : out;
  ok = source_for_level (o, operation, level, &s, &params, &stats, &e)
       && read_rect (operation, s.params, s.level, &made, &s.extent, &s.read,
                     &e)
       && run_source (o, &s, level, TRUE, &src, &dst, &r, &t1, &e);
  t2 = g_get_monotonic_time ();
  if (ok && full_size)
    ok = clfx_level_downscale (o->pf.format, &dst, &s.read, level, &out,
                               &small, &e);
  if (ok)
    {
      if (full_size)
        write_output (o, output, &out, level, &small, &out);
      else
        write_output (o, output, &out, level, &dst, &s.read);
      /* Where the time goes (G_MESSAGES_DEBUG=clfx): the engine's report
       * has its own part. */
      g_debug ("%s: read %dx%d as %s in %.1f ms; engine %.1f ms; write "
               "%dx%d in %.1f ms; level %d (%s)", info->op_name,
               s.read.width, s.read.height, babl_get_name (o->pf.format),
               (t1 - t0) / 1000.0, (t2 - t1) / 1000.0, out.width,
               out.height, (g_get_monotonic_time () - t2) / 1000.0, level,
               level > 0 ? clfx_level_way_name (info->level_way)
                         : "full size");
    }
  else
    {
      g_warning ("%s: %s; the input is left unchanged", info->op_name,
                 e.message[0] ? e.message : "unknown error");
      pass_through (o, input, output, result, level);
    }
  /* A full-size run of a variant with statistics: kept for the levels
   * below. */
  if (ok && level == 0 && info->level_way == CLFX_LEVEL_STATS
      && r.has_stats && gegl_rectangle_equal (&s.read, &s.extent))
    clfx_stats_cache_store (&o->stats, generation, &o->params, o->pf.format,
                            &s.extent, &r.stats);
  clfx_run_result_clear (&r);
  clfx_host_image_free (&src);
  clfx_host_image_free (&dst);
  clfx_host_image_free (&small);
  return TRUE;
}

/* ---- properties --------------------------------------------------------- */

/* Which property id is: a family row (*row), or one of the extras (*row
 * NULL, *extra its index).  FALSE, with GLib's warning, for an id the
 * class does not have. */
static gboolean
property_of (GObject              *object,
             guint                 id,
             GParamSpec           *pspec,
             const ClfxParamSpec **row,
             gint                 *extra)
{
  const ClfxOpInfo *info = CLFX_OP_INFO (object);

  if (id == 0 || id > (guint) (info->n_rows + N_EXTRA))
    {
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
      return FALSE;
    }
  *row = id <= (guint) info->n_rows
           ? &info->family->params[info->rows[id - 1]]
           : NULL;
  *extra = (gint) id - info->n_rows - 1;
  return TRUE;
}

static void
clfx_op_set_property (GObject      *object,
                      guint         id,
                      const GValue *value,
                      GParamSpec   *pspec)
{
  ClfxOp              *o = CLFX_OP (object);
  const ClfxParamSpec *s;
  gint                 extra;

  if (! property_of (object, id, pspec, &s, &extra))
    return;
  if (! s)
    {
      switch (extra)
        {
        case EXTRA_DEVICE:
          g_free (o->device);
          o->device = g_value_dup_string (value);
          break;
        case EXTRA_VALIDATE:
          o->validate = g_value_get_boolean (value);
          break;
        default:
          g_free (o->report_file);
          o->report_file = g_value_dup_string (value);
          break;
        }
      return;
    }
  switch (s->type)
    {
    case CLFX_PARAM_INT:
      clfx_param_set_int (&o->params, s, g_value_get_int (value));
      break;
    case CLFX_PARAM_DOUBLE:
      clfx_param_set_double (&o->params, s, g_value_get_double (value));
      break;
    case CLFX_PARAM_BOOL:
      clfx_param_set_bool (&o->params, s, g_value_get_boolean (value));
      break;
    case CLFX_PARAM_CHOICE:
      clfx_param_set_int (&o->params, s, g_value_get_enum (value));
      break;
    case CLFX_PARAM_STRING:
      {
        /* A value longer than the row holds is cut here; the engine then
         * refuses what it cannot parse, with a warning at run time. */
        const gchar *v = g_value_get_string (value);
        clfx_param_set_string (&o->params, s, v ? v : "");
      }
      break;
    }
}

static void
clfx_op_get_property (GObject    *object,
                      guint       id,
                      GValue     *value,
                      GParamSpec *pspec)
{
  ClfxOp              *o = CLFX_OP (object);
  const ClfxParamSpec *s;
  gint                 extra;

  if (! property_of (object, id, pspec, &s, &extra))
    return;
  if (! s)
    {
      switch (extra)
        {
        case EXTRA_DEVICE:
          g_value_set_string (value, o->device);
          break;
        case EXTRA_VALIDATE:
          g_value_set_boolean (value, o->validate);
          break;
        default:
          g_value_set_string (value, o->report_file);
          break;
        }
      return;
    }
  switch (s->type)
    {
    case CLFX_PARAM_INT:
      g_value_set_int (value, clfx_param_get_int (&o->params, s));
      break;
    case CLFX_PARAM_DOUBLE:
      g_value_set_double (value, clfx_param_get_double (&o->params, s));
      break;
    case CLFX_PARAM_BOOL:
      g_value_set_boolean (value, clfx_param_get_bool (&o->params, s));
      break;
    case CLFX_PARAM_CHOICE:
      g_value_set_enum (value, clfx_param_get_int (&o->params, s));
      break;
    case CLFX_PARAM_STRING:
      g_value_set_string (value, clfx_param_get_string (&o->params, s));
      break;
    }
}

/* A label of the table, translated, without the dialog's mnemonic: "Size
 * _X" -> "Size X", "X 尺寸(_X)" -> "X 尺寸" (a translation that keeps
 * the English key puts it in parentheses).  Kept for the life of the
 * process, as the specs are. */
static const gchar *
plain_label (const char *label)
{
  GString *s = g_string_new (NULL);

  for (const char *c = tr (label); *c; c++)
    if (c[0] == '(' && c[1] == '_' && c[2] && c[2] != ')' && c[3] == ')')
      c += 3;
    else if (*c != '_')
      g_string_append_c (s, *c);
  while (s->len && s->str[s->len - 1] == ' ')
    g_string_truncate (s, s->len - 1);
  return g_intern_string (g_string_free (s, FALSE));
}

/* "sampler-filter" of family "filter" -> ClfxFilterSamplerFilter. */
static GType
choice_enum_type (const ClfxFamily    *family,
                  const ClfxParamSpec *s)
{
  GString    *name = g_string_new ("Clfx");
  GEnumValue *values;
  GType       type;
  int         n = clfx_choice_count (s);
  const char *parts[2] = { family->name, s->name };

  for (int k = 0; k < 2; k++)
    for (const char *c = parts[k], *start = c; *c; c++)
      if (*c == '-')
        start = c + 1;
      else
        g_string_append_c (name, c == start ? g_ascii_toupper (*c) : *c);
  type = g_type_from_name (name->str);
  if (type)
    {
      g_string_free (name, TRUE);
      return type;
    }
  /* Registered once and kept: GLib's enum types are never unregistered. */
  values = g_new0 (GEnumValue, (gsize) n + 1);
  for (int i = 0; i < n; i++)
    {
      values[i].value = i;
      values[i].value_name = plain_label (s->choices[i].label);
      values[i].value_nick = s->choices[i].nick;
    }
  type = g_enum_register_static (g_intern_string (name->str), values);
  g_string_free (name, TRUE);
  return type;
}

static GParamSpec *
row_pspec (const ClfxFamily    *family,
           const ClfxParamSpec *s)
{
  const GParamFlags flags = PROP_FLAGS;
  const gchar *nick = plain_label (s->label);
  const gchar *blurb = tr (s->blurb);
  GParamSpec  *p = NULL;

  switch (s->type)
    {
    case CLFX_PARAM_INT:
      p = gegl_param_spec_int (s->name, nick, blurb, (gint) s->min,
                               (gint) s->max, (gint) s->def,
                               (gint) s->ui_min, (gint) s->ui_max, 1.0,
                               flags);
      break;
    case CLFX_PARAM_DOUBLE:
      p = gegl_param_spec_double (s->name, nick, blurb, s->min, s->max,
                                  s->def, s->ui_min, s->ui_max, 1.0, flags);
      GEGL_PARAM_SPEC_DOUBLE (p)->ui_digits = s->digits;
      break;
    case CLFX_PARAM_BOOL:
      p = g_param_spec_boolean (s->name, nick, blurb, s->def != 0, flags);
      break;
    case CLFX_PARAM_CHOICE:
      /* GEGL's enum spec, which GIMP hands to plug-ins as the value's
       * nick: the enum type itself exists only in this process. */
      p = gegl_param_spec_enum (s->name, nick, blurb,
                                choice_enum_type (family, s), (gint) s->def,
                                flags);
      break;
    case CLFX_PARAM_STRING:
      p = g_param_spec_string (s->name, nick, blurb,
                               s->def_string ? s->def_string : "", flags);
      break;
    }
  if (p && s->unit == CLFX_UNIT_DISTANCE)
    gegl_param_spec_set_property_key (p, "unit", "pixel-distance");
  if (p && g_str_has_suffix (s->name, "-x"))
    gegl_param_spec_set_property_key (p, "axis", "x");
  if (p && g_str_has_suffix (s->name, "-y"))
    gegl_param_spec_set_property_key (p, "axis", "y");
  return p;
}

static void
clfx_op_finalize (GObject *object)
{
  ClfxOp *o = CLFX_OP (object);

  g_free (o->device);
  g_free (o->report_file);
  clfx_stats_cache_clear (&o->stats);
  G_OBJECT_CLASS (g_type_class_peek_parent (G_OBJECT_GET_CLASS (object)))
    ->finalize (object);
}

/* The node's input or the operation's parameters changed (GEGL says so
 * for every node below a change): full-size statistics kept are for an
 * earlier state. */
static void
node_invalidated (GeglNode            *node,
                  const GeglRectangle *rect,
                  gpointer             operation)
{
  (void) node;
  (void) rect;
  clfx_stats_cache_invalidate (&CLFX_OP (operation)->stats);
}

static void
clfx_op_attach (GeglOperation *operation)
{
  GeglOperationClass *parent =
    g_type_class_peek_parent (G_OBJECT_GET_CLASS (operation));

  parent->attach (operation);
  g_signal_connect_object (operation->node, "invalidated",
                           G_CALLBACK (node_invalidated), operation, 0);
}

static void
clfx_op_class_init (gpointer klass,
                    gpointer data)
{
  const ClfxOpInfo         *info = data;
  GObjectClass             *object_class = G_OBJECT_CLASS (klass);
  GeglOperationClass       *operation_class = GEGL_OPERATION_CLASS (klass);
  GeglOperationFilterClass *filter_class = GEGL_OPERATION_FILTER_CLASS (klass);
  const ClfxVariant        *v = info->family->variants[info->variant];
  const ClfxOperatorPlace  *place = place_of (info);
  guint                     id = 1;

  ((ClfxOpClass *) klass)->info = info;
  object_class->set_property = clfx_op_set_property;
  object_class->get_property = clfx_op_get_property;
  object_class->finalize = clfx_op_finalize;
  operation_class->attach = clfx_op_attach;
  operation_class->prepare = clfx_op_prepare;
  operation_class->get_required_for_output = clfx_op_get_required_for_output;
  operation_class->get_invalidated_by_change =
    clfx_op_get_invalidated_by_change;
  operation_class->get_cached_region = clfx_op_get_cached_region;
  /* The engine runs the whole requested rectangle at once on its own
   * device and threads: GEGL's threads would only split it. */
  operation_class->threaded = FALSE;
  operation_class->opencl_support = FALSE;
  filter_class->process = clfx_op_process;

  for (int k = 0; k < info->n_rows; k++)
    g_object_class_install_property (object_class, id++,
                                     row_pspec (info->family,
                                                &info->family
                                                   ->params[info->rows[k]]));
  g_object_class_install_property (
    object_class, id++,
    g_param_spec_string ("device", _("Device"),
                         _("auto, all, reference (the CPU path), a number "
                           "(clfx-bench --list-devices' index) or a part "
                           "of the OpenCL platform's or device's name"),
                         "auto", PROP_FLAGS));
  g_object_class_install_property (
    object_class, id++,
    g_param_spec_boolean ("validate", _("Validate"),
                          _("Also run the CPU reference and compare (a "
                            "warning when they differ beyond the "
                            "tolerance)"),
                          FALSE, PROP_FLAGS));
  g_object_class_install_property (
    object_class, id++,
    g_param_spec_string ("report-file", _("Report file"),
                         _("Where each run writes its JSON report (empty: "
                           "none)"),
                         "", PROP_FLAGS));

  gegl_operation_class_set_keys (operation_class,
                                 "name", info->op_name,
                                 "title", info->title,
                                 "categories", place->categories,
                                 "description", tr (v->blurb),
                                 NULL);
}

static void
clfx_op_init (GTypeInstance *instance,
              gpointer       klass)
{
  ClfxOp           *o = CLFX_OP (instance);
  const ClfxOpInfo *info = ((ClfxOpClass *) klass)->info;

  clfx_params_defaults (info->family, &o->params);
  clfx_stats_cache_init (&o->stats);
  if (info->family->variant_param >= 0)
    clfx_param_set_int (&o->params,
                        &info->family->params[info->family->variant_param],
                        info->variant);
  clfx_pixel_format_of_babl (babl_format ("RGBA float"), &o->pf, NULL);
}

/* ---- the module --------------------------------------------------------- */

static const GeglModuleInfo module_info = { GEGL_MODULE_ABI_VERSION };

G_MODULE_EXPORT const GeglModuleInfo *
gegl_module_query (GTypeModule *module)
{
  (void) module;
  return &module_info;
}

static void
register_variant (GTypeModule      *module,
                  const ClfxFamily *f,
                  int               variant)
{
  ClfxOpInfo        *info = g_new0 (ClfxOpInfo, 1);
  const ClfxVariant *v = f->variants[variant];
  GString           *type_name = g_string_new ("ClfxOp_");
  const char        *label = v->name;
  GTypeInfo          type_info = { 0 };

  info->family = f;
  info->variant = variant;
  g_snprintf (info->op_name, sizeof info->op_name, "clfx:%s", v->name);
  if (v->place.title)
    label = tr (v->place.title);
  else if (f->variant_param >= 0)
    label = plain_label (f->params[f->variant_param].choices[variant].label);
  /* TRANSLATORS: a GEGL operation's title, %s its filter or tone mapper
   * ("Gaussian Blur (OpenCL)"). */
  g_snprintf (info->title, sizeof info->title, _("%s (OpenCL)"), label);
  info->rows = g_new0 (int, (gsize) f->n_params + 1);
  for (int i = 0; i < f->n_params; i++)
    if (i != f->variant_param && ! f->params[i].plugin_only
        && clfx_variant_uses (v, &f->params[i]))
      info->rows[info->n_rows++] = i;
  info->level_way = clfx_level_way (v, f, info->rows, info->n_rows);
  g_string_append (type_name, v->name);

  type_info.class_size = sizeof (ClfxOpClass);
  type_info.class_init = clfx_op_class_init;
  type_info.class_data = info;
  type_info.instance_size = sizeof (ClfxOp);
  type_info.instance_init = clfx_op_init;
  gegl_module_register_type (module, GEGL_TYPE_OPERATION_FILTER,
                             type_name->str, &type_info, 0);
  g_string_free (type_name, TRUE);
}

/* The shared OpenCL context and the driver's threads that serve it
 * belong to this module's statics: keep its code mapped for the life of
 * the process, whatever GEGL does with its use count.  A second handle
 * on our own file, made resident. */
static void
keep_resident (void)
{
  Dl_info  self;
  GModule *handle;

  if (dladdr ((void *) keep_resident, &self) && self.dli_fname
      && (handle = g_module_open (self.dli_fname, G_MODULE_BIND_LAZY)))
    g_module_make_resident (handle);
  else
    g_warning ("clfx: could not keep the GEGL module loaded: %s",
               g_module_error () ? g_module_error () : "dladdr failed");
}

/* The catalogs: beside the module (clfx-locale/, where
 * tools/install-plugin.sh --gegl copies them), else where meson installs
 * the plug-in's (CLFX_MODULE_LOCALEDIR). */
static void
bind_catalogs (void)
{
  Dl_info self;
  gchar  *dir = NULL;

  if (dladdr ((void *) bind_catalogs, &self) && self.dli_fname)
    {
      gchar *base = g_path_get_dirname (self.dli_fname);
      dir = g_build_filename (base, "clfx-locale", NULL);
      g_free (base);
      if (! g_file_test (dir, G_FILE_TEST_IS_DIR))
        g_clear_pointer (&dir, g_free);
    }
  bindtextdomain ("clfx", dir ? dir : CLFX_MODULE_LOCALEDIR);
  bind_textdomain_codeset ("clfx", "UTF-8");
  g_free (dir);
}

G_MODULE_EXPORT gboolean
gegl_module_register (GTypeModule *module)
{
  keep_resident ();
  bind_catalogs ();
  for (const ClfxFamily *const *f = clfx_families (); *f; f++)
    if ((*f)->procedure && (*f)->apply == CLFX_APPLY_SHADOW)
      for (int i = 0; i < (*f)->n_variants; i++)
        register_variant (module, *f, i);
  return TRUE;
}
