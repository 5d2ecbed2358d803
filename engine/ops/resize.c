/* SPDX-License-Identifier: GPL-3.0-or-later */
/* resize.c: the resize variant: its plan and its OpenCL launches (the tap
 * tables: resize-taps.c; the CPU reference, bounds and tolerance:
 * resize-ref.c).
 *
 * Sampling position (normalized) of result pixel d along an axis:
 *   ((d + 0.5) / dst_size - 0.5) / zoom + 0.5
 * zoom 1 fills the result with the source; below 1 the source shrinks in
 * the middle and the addressing mode shows what lies outside it.
 *
 * nearest and linear sample the source (linear with k x k supersampling
 * when one result pixel covers more than two source texels), through the
 * hardware sampler where the framework allows it, else in the kernel.
 * cubic and lanczos3 are separable passes through tap tables widened by
 * the shrink factor, so a downscale is antialiased.  Every
 * variant but nearest mixes texels, so it works in linear light with
 * colour weighed by straight alpha (clfx-io.h); nearest copies texels. */
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/clfx-common.h"
#include "resize-private.h"


/* The most taps per axis the tiled kernel takes as build constants. */
#define FIXED_TAPS_MAX 16

/* ---- the plan ------------------------------------------------------------ */

static void
state_free (void *data)
{
  ResizeState *st = data;

  resize_axis_free (&st->x);
  resize_axis_free (&st->y);
  free (st);
}

static bool
resize_plan (const ClfxParams *p, const ClfxImage *src, ClfxPlan *plan,
             ClfxError *error)
{
  const ClfxResizeParams *rp = CLFX_PARAMS_OF (p, ClfxResizeParams);
  ResizeState            *st;
  bool                    mixes = rp->filter != CLFX_RESAMPLE_NEAREST;

  if (! clfx_sampler_check (rp->normalized, rp->addressing, error))
    return false;
  if (! (st = calloc (1, sizeof *st)))
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  st->filter = rp->filter;
  st->addressing = rp->addressing;
  st->normalized = rp->normalized;
  st->guard = rp->addressing == CLFX_ADDR_NONE;
  /* Nearest copies texels and never averages them (no supersampling):
   * straight colour and sRGB values pass untouched, bit for bit. */
  st->premul = clfx_plan_premultiplies (mixes, src);
  st->decode = clfx_plan_decodes (mixes, src);
  st->decode8 = st->decode && src->depth == CLFX_DEPTH_U8;
  plan->state = st;
  plan->free_state = state_free;
  if (! resize_axis_setup (&st->x, src->width, rp->width, rp->zoom_x, st,
                          error)
      || ! resize_axis_setup (&st->y, src->height, rp->height, rp->zoom_y,
                              st, error))
    return false;
  plan->width = rp->width;
  plan->height = rp->height;
  plan->addressing = rp->addressing;
  plan->mixes = mixes;
  /* The texture unit may filter only what it can blend as stored: linear
   * light, no straight alpha to weigh in, addressing it does itself. */
  /* Under addressing none the kernel guards its reads itself: a sampler
   * read at the very edge could leave the image (undefined). */
  plan->sampler_ok = ! st->guard
                     && (rp->filter == CLFX_RESAMPLE_NEAREST
                         || (rp->filter == CLFX_RESAMPLE_LINEAR
                             && ! st->decode && ! st->premul));
  /* The two-pass form's float intermediate: result width x source rows. */
  plan->bytes_per_pixel
    = st->x.ntaps ? (size_t) (16.0 * ceil (1.0 / (rp->zoom_y
                                                  * (double) rp->height
                                                  / src->height)) + 16)
                  : 0;
  plan->bytes_fixed = ((size_t) rp->width * (size_t) (st->x.ntaps + 1)
                       + (size_t) rp->height * (size_t) (st->y.ntaps + 1))
                      * 4;
  return true;
}

static void
resize_source_rect (const ClfxPlan *plan, const ClfxImage *src,
                    const ClfxRect *out, ClfxRect *in)
{
  const ResizeState *st = plan->state;
  int                x0, x1, y0, y1;

  (void) src;
  resize_axis_span (&st->x, st, out->x, out->x + out->width, &x0, &x1);
  resize_axis_span (&st->y, st, out->y, out->y + out->height, &y0, &y1);
  *in = (ClfxRect) { x0, y0, x1 - x0 + 1, y1 - y0 + 1 };
}

/* ---- OpenCL -------------------------------------------------------------- */

static bool
launch_sample (ClfxGraph *g, const ResizeState *st, ClfxError *error)
{
  const ClfxTile *t = clfx_graph_tile (g);
  const ClfxPlan *plan = clfx_graph_plan (g);
  int             rows = clfx_graph_rows_per_item (g);
  bool            hw = plan->use_sampler;
  /* The sampler filters only on the hardware path; the in-kernel path
   * passes a nearest sampler it never reads through. */
  cl_sampler      smp = clfx_graph_sampler (g, st->normalized,
                                            hw && st->filter
                                                    == CLFX_RESAMPLE_LINEAR,
                                            error);
  cl_float4       axis = { { st->x.scale, st->x.offset, st->y.scale,
                             st->y.offset } };
  cl_int2         nsub = { { st->x.nsub, st->y.nsub } };
  cl_float4       sub = { { st->x.first, st->x.step, st->y.first,
                            st->y.step } };
  ClfxLaunch      l = { "resize_sample", NULL, NULL, 2,
                        { (size_t) t->out.width,
                          (size_t) ((t->out.height + rows - 1) / rows) },
                        { 0, 0 } };

  if (! smp)
    return false;
  return CLFX_LAUNCH (g, &l, error, CLFX_SRC, CLFX_ARG (smp), CLFX_DST,
                      CLFX_ARG (axis), CLFX_INT (st->normalized),
                      CLFX_INT (st->guard),
                      CLFX_INT (st->filter == CLFX_RESAMPLE_LINEAR),
                      CLFX_INT (hw), CLFX_ARG (nsub), CLFX_ARG (sub),
                      CLFX_FLOAT ((float) (1.0 / (double) (st->x.nsub
                                                           * st->y.nsub))));
}

/* The tap tables on the device, once per run. */
typedef struct
{
  cl_mem sx, wx, sy, wy;
} Tables;

static bool
tables_upload (ClfxGraph *g, const ResizeState *st, int dw, int dh,
               Tables *t, ClfxError *error)
{
  size_t fx = sizeof (float) * (size_t) dw * (size_t) st->x.ntaps;
  size_t fy = sizeof (float) * (size_t) dh * (size_t) st->y.ntaps;

  return (t->sx = clfx_graph_table (g, "start x", st->x.start,
                                    sizeof (int) * (size_t) dw, error))
         && (t->wx = clfx_graph_table (g, "weights x", st->x.weights_t, fx,
                                       error))
         && (t->sy = clfx_graph_table (g, "start y", st->y.start,
                                       sizeof (int) * (size_t) dh, error))
         && (t->wy = clfx_graph_table (g, "weights y", st->y.weights_t, fy,
                                       error));
}

/* The two passes with a float image between them (the texture path). */
static bool
launch_filter (ClfxGraph *g, const ResizeState *st, const Tables *tb, int dw,
               int dh, ClfxError *error)
{
  const ClfxTile *t = clfx_graph_tile (g);
  cl_int4         span = { { t->out.x, t->in.y, t->out.width,
                             t->in.height } };
  cl_mem          inter = clfx_graph_image (g, "intermediate", t->out.width,
                                            t->in.height, error);
  ClfxLaunch      lh = { "resize_filter_h", NULL, NULL, 2,
                         { (size_t) t->out.width, (size_t) t->in.height },
                         { 0, 0 } };
  ClfxLaunch      lv = { "resize_filter_v", NULL, NULL, 2,
                         { (size_t) t->out.width, (size_t) t->out.height },
                         { 0, 0 } };

  return inter
         && CLFX_LAUNCH (g, &lh, error, CLFX_SRC, CLFX_ARG (inter),
                         CLFX_ARG (tb->sx), CLFX_ARG (tb->wx),
                         CLFX_INT (st->x.ntaps), CLFX_INT (dw),
                         CLFX_ARG (span))
         && CLFX_LAUNCH (g, &lv, error, CLFX_ARG (inter), CLFX_DST,
                         CLFX_ARG (tb->sy), CLFX_ARG (tb->wy),
                         CLFX_INT (st->y.ntaps), CLFX_INT (dh),
                         CLFX_INT (t->in.y));
}

/* The result rows [a, *b) of a band of the buffer form: as many as keep
 * the source rows they read within `bytes` of intermediate (at least
 * one row).  Returns those source rows ([*lo, *hi]; *lo > *hi when the
 * band reads none: every row outside the source under guard). */
static void
next_band (const ResizeAxis *y, int a, int end, size_t row_bytes,
           size_t bytes, int *b, int *lo, int *hi)
{
  *lo = INT_MAX;
  *hi = INT_MIN;
  for (*b = a; *b < end; (*b)++)
    {
      int s = y->start[*b];
      if (s == INT_MIN)
        continue;
      int nlo = s < *lo ? s : *lo;
      int nhi = s + y->ntaps - 1 > *hi ? s + y->ntaps - 1 : *hi;
      if (*b > a && (size_t) (nhi - nlo + 1) * row_bytes > bytes)
        break;
      *lo = nlo;
      *hi = nhi;
    }
}

/* CPU devices: the two passes through a buffer, band by band, one
 * intermediate reused by every band.  One intermediate for the whole
 * tile (half the source's size for a 2x shrink) is memory the process
 * touches for the first time on every run, and its page faults cost as
 * much as the horizontal pass's arithmetic; a band's rows stay in the
 * cache for the vertical pass.  The horizontal pass makes four rows per
 * work-item (CLFX_HB_ROWS), in groups of 256 along a row, so that a group
 * streams along the source's rows.  docs/notebook/performance-2026.md,
 * "PoCL on the development machine: clfx against OpenCV's cv2.resize". */
static bool
launch_filter_bands (ClfxGraph *g, const ResizeState *st, const Tables *tb,
                     int dw, int dh, ClfxError *error)
{
  const ClfxTile *t = clfx_graph_tile (g);
  size_t          row_bytes = (size_t) t->out.width * 16;
  /* 8 MiB unless CLFX_DEV band-bytes says otherwise: 4-32 MiB bands ran
   * alike; in smaller ones a band's launches cost more than they save. */
  size_t          bytes = clfx_graph_band_bytes (g)
                            ? clfx_graph_band_bytes (g)
                            : (size_t) 8 << 20;
  int             most = 1;
  cl_mem          inter;

  for (int a = 0, b, lo, hi; a < t->out.height; a = b)
    {
      next_band (&st->y, t->out.y + a, t->out.y + t->out.height, row_bytes,
                 bytes, &b, &lo, &hi);
      b -= t->out.y;
      most = hi - lo + 1 > most ? hi - lo + 1 : most;
    }
  if (! (inter = clfx_graph_buffer (g, "intermediate rows",
                                    row_bytes * (size_t) most, error)))
    return false;
  for (int a = 0, b, lo, hi; a < t->out.height; a = b)
    {
      next_band (&st->y, t->out.y + a, t->out.y + t->out.height, row_bytes,
                 bytes, &b, &lo, &hi);
      b -= t->out.y;
      cl_int4    span = { { t->out.x, lo, t->out.width, hi - lo + 1 } };
      cl_int2    rows = { { a, b } };
      ClfxLaunch lh = { "resize_filter_hb", NULL, NULL, 2,
                        { (size_t) t->out.width,
                          (size_t) (hi - lo + 1 + 3) / 4 },
                        { 256, 1 } };
      ClfxLaunch lv = { "resize_filter_vb", NULL, NULL, 2,
                        { (size_t) (t->out.width + 3) / 4, (size_t) (b - a) },
                        { 0, 0 } };
      if (lo <= hi
          && ! CLFX_LAUNCH (g, &lh, error, CLFX_SRC, CLFX_ARG (inter),
                            CLFX_ARG (tb->sx), CLFX_ARG (tb->wx),
                            CLFX_INT (st->x.ntaps), CLFX_INT (dw),
                            CLFX_ARG (span)))
        return false;
      if (! CLFX_LAUNCH (g, &lv, error, CLFX_ARG (inter), CLFX_DST,
                         CLFX_ARG (tb->sy), CLFX_ARG (tb->wy),
                         CLFX_INT (st->y.ntaps), CLFX_INT (dh),
                         CLFX_INT (lo), CLFX_ARG (rows)))
        return false;
    }
  return true;
}

/* The source footprint of groups of `run` results along an axis, over
 * [d0, d1): the largest one (returned, in texels) and, when `origins` is
 * given, where each group's starts (its smallest first tap; 0 for groups
 * wholly outside). */
static int
axis_groups (const ResizeAxis *a, int d0, int d1, int run, int *origins)
{
  int span = a->ntaps;

  for (int g0 = d0; g0 < d1; g0 += run)
    {
      int lo, hi;
      int end = g0 + run < d1 ? g0 + run : d1;
      if (resize_tap_span (a, g0, end, &lo, &hi) && hi - lo + 1 > span)
        span = hi - lo + 1;
      if (origins)
        origins[(g0 - d0) / run]
          = resize_tap_span (a, g0, end, &lo, &hi) ? lo : 0;
    }
  return span;
}

/* The local memory of the tiled kernel for a span_w x span_h footprint,
 * float4 a texel: the footprint, and its rows pass's result (a row per
 * result column, 16 of them), each with an odd row stride
 * (kernels/resize.cl says why). */
static size_t
tile_footprint_bytes (int span_w, int span_h)
{
  return (size_t) (span_w | 1) * (size_t) span_h * 16;
}

static size_t
tile_rows_bytes (int span_h)
{
  return 16 * (size_t) (span_h | 1) * 16;
}

/* How many 16-row bands a work-group of the tiled kernel covers (each
 * work-item then makes that many results, which amortizes the group's
 * load and barriers), 0 when even one band does not fit in local memory.
 * Decided once per run from the whole result, so every tile makes the
 * same choice. */
static int
tile_bands (ClfxGraph *g, const ResizeState *st, int dw, int dh,
            size_t *local_bytes)
{
  const ClfxDeviceInfo *dev = clfx_graph_device (g);
  int                   span_w = axis_groups (&st->x, 0, dw, 16, NULL);

  /* CLFX_DEV resize-two-pass=1 forces the two-pass kernels (tests cover both
   * paths on devices with lots of local memory). */
  if (clfx_graph_force_two_pass (g) || dev->max_work_group < 256)
    return 0;
  for (int bands = 4; bands >= 1; bands /= 2)
    {
      size_t span_h = (size_t) axis_groups (&st->y, 0, dh, 16 * bands, NULL);
      size_t bytes = tile_footprint_bytes (span_w, (int) span_h)
                     + tile_rows_bytes ((int) span_h);
      /* More bands than the result has rows only wastes work-items. */
      if (bands > 1 && 16 * bands > dh)
        continue;
      if (bytes + 1024 <= dev->local_mem)
        {
          *local_bytes = bytes;
          return bands;
        }
    }
  return 0;
}

/* Whether the kernels over images take their tap counts as build
 * constants: on GPUs their tap loops then unroll, every tap's loads issued
 * ahead of the multiply-adds (docs/notebook/performance-2026.md, "The
 * tiled kernel's tap counts built in on GPUs (500fe07)").  Each pair of
 * counts is a program of its own, so only up to FIXED_TAPS_MAX taps
 * (enlargements, and shrinks to a third with cubic), and not on CPU
 * devices, which run these kernels only when asked for images
 * (a context's tuning.fixed_taps forces them: tests). */
static bool
taps_built_in (ClfxGraph *g, const ResizeState *st)
{
  return st->x.ntaps <= FIXED_TAPS_MAX && st->y.ntaps <= FIXED_TAPS_MAX
         && (clfx_graph_force_fixed_taps (g)
             || ! strcmp (clfx_graph_device (g)->type, "gpu"));
}

static bool
launch_tile (ClfxGraph *g, const ResizeState *st, const Tables *tb, int dw,
             int dh, int bands, ClfxError *error)
{
  const ClfxTile *t = clfx_graph_tile (g);
  int             n_ox = (t->out.width + 15) / 16;
  int             n_oy = (t->out.height + 16 * bands - 1) / (16 * bands);
  int            *org_x = malloc ((size_t) n_ox * sizeof (int));
  int            *org_y = malloc ((size_t) n_oy * sizeof (int));
  cl_mem          ox, oy;
  bool            ok = false;

  if (! org_x || ! org_y)
    {
      clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory for tile tables");
      goto out;
    }
  {
    /* The local memory this launch needs (at most the run's bound). */
    cl_int     span_w = axis_groups (&st->x, t->out.x, t->out.x + t->out.width,
                                     16, org_x);
    cl_int     span_h = axis_groups (&st->y, t->out.y,
                                     t->out.y + t->out.height, 16 * bands,
                                     org_y);
    size_t     tile_bytes = tile_footprint_bytes (span_w, span_h);
    size_t     rows_bytes = tile_rows_bytes (span_h);
    char       taps[64] = "";
    /* How the rows pass lays its work-items (kernels/resize.cl says why):
     * down the footprint's rows where the result is narrower. */
    const char *rows_down = st->x.texels_per_px > 1.0 ? "-DRESIZE_ROWS_DOWN"
                                                       : "";
    if (taps_built_in (g, st))
      snprintf (taps, sizeof taps, "-DRESIZE_NTX=%d -DRESIZE_NTY=%d %s",
                st->x.ntaps, st->y.ntaps, rows_down);
    else
      snprintf (taps, sizeof taps, "%s", rows_down);
    ClfxLaunch l = { "resize_filter_tile", taps[0] ? taps : NULL, NULL, 2,
                     { (size_t) n_ox * 16, (size_t) n_oy * 16 },
                     { 16, 16 } };

    ok = (ox = clfx_graph_upload (g, "tile origins x", org_x,
                                  sizeof (int) * (size_t) n_ox, error))
         && (oy = clfx_graph_upload (g, "tile origins y", org_y,
                                     sizeof (int) * (size_t) n_oy, error))
         && CLFX_LAUNCH (g, &l, error, CLFX_SRC, CLFX_DST, CLFX_ARG (tb->sx),
                         CLFX_ARG (tb->wx), CLFX_INT (st->x.ntaps),
                         CLFX_ARG (tb->sy), CLFX_ARG (tb->wy),
                         CLFX_INT (st->y.ntaps), CLFX_INT (dw), CLFX_INT (dh),
                         CLFX_ARG (span_w), CLFX_ARG (span_h), CLFX_ARG (ox),
                         CLFX_ARG (oy), CLFX_INT (bands),
                         CLFX_LOCAL (tile_bytes), CLFX_LOCAL (rows_bytes));
  }
out:
  free (org_x);
  free (org_y);
  return ok;
}

/* The step between neighbouring result pixels' first taps along an axis
 * when it is the same whole number of texels everywhere (integer shrink
 * factors, and 1), else 0. */
static int
axis_step (const ResizeAxis *a, int dst)
{
  int f;

  if (a->start[0] == INT_MIN)
    return 0;
  if (dst == 1)
    return 1;
  if (a->start[1] == INT_MIN)
    return 0;
  f = a->start[1] - a->start[0];
  if (f < 1 || f > FIXED_TAPS_MAX)
    return 0;
  for (int d = 2; d < dst; d++)
    if (a->start[d] == INT_MIN || a->start[d] - a->start[d - 1] != f)
      return 0;
  return f;
}

/* The most result rows a work-group of the strip and sweep kernels
 * makes: its first ceil (taps / factor) - 1 source row groups finish no
 * result row, so fewer rows read more source rows twice; more leave
 * fewer groups to fill the GPU (docs/notebook/performance-2026.md,
 * "8-bit shrinks by whole factors down strips (17705d1)").  strip_rows
 * gives fewer where a launch would leave compute units idle. */
#define STRIP_ROWS_MAX 32

/* The work-groups per compute unit below which a launch of the strip or
 * sweep kernel makes fewer rows a group.  At the sweep kernel's 128
 * registers a work-item, 8 groups of 64 fit on an H100's SM; the strip
 * kernel takes fewer registers, so more of its groups fit, and OpenCL
 * does not tell a kernel's register count: 6 keeps both kernels near
 * their best rows (docs/notebook/performance-2026.md, "Rows a strip
 * work-group makes, from the launch's size (6557684)"). */
#define STRIP_GROUPS_PER_UNIT 6

/* Result rows a work-group makes for a launch of dw x dh results: the
 * most, down to 8, that give every compute unit STRIP_GROUPS_PER_UNIT
 * groups. */
static int
strip_rows (const ClfxDeviceInfo *dev, int dw, int dh)
{
  long cols = (dw + 63) / 64;
  long want = (long) STRIP_GROUPS_PER_UNIT * dev->compute_units;
  int  rows = STRIP_ROWS_MAX;

  while (rows > 8 && cols * ((dh + rows - 1) / rows) < want)
    rows /= 2;
  return rows;
}

/* Source rows a turn of the sweep kernel (SWEEP_R): a work-group's 64
 * work-items sweep 8 rows, each 8 result columns of one.  Fewer rows a
 * turn leave more work-groups on each SM (less local memory each); more
 * columns a row decode fewer texels twice.  8 was the fastest of 4 to 32
 * (docs/notebook/performance-2026.md, "The rows pass in registers: the
 * sweep kernel (5bb7e81)"). */
#define SWEEP_ROWS 8

/* How the sweep kernel's rows pass reads a piece of row, its
 * SWEEP_PHASES (kernels/resize.cl): a phase's texels are all read before
 * any is decoded, so that their reads wait for the texture unit once; a
 * sliding window waits once a column. */
typedef enum
{
  SWEEP_SLIDING_WINDOW = 0, /* a column's new texels at a time */
  SWEEP_ONE_PHASE = 1,      /* all the piece's texels at once */
  SWEEP_TWO_PHASES = 2      /* half the columns' texels at a time */
} SweepPhases;

/* The registers of a sweep kernel's work-item that its rows pass's sums,
 * weights and texels may take: a launch of one band puts about 8
 * work-groups of 64 on each of an H100's SMs, and all 8 fit at 128
 * registers a work-item; 8 of them are left for its indices and
 * addresses (an allowance, not a count). */
#define SWEEP_REGISTERS 120

/* The fewest phases whose texels (float4, 4 registers each) fit in
 * SWEEP_REGISTERS beside the sums of the A result rows in flight (4 * A)
 * and the weights (NTX + NTY), else the window: texels held at once cost
 * registers, and at more than 128 the groups no longer all fit
 * (docs/notebook/performance-2026.md, "The sweep kernel's time, and its
 * texels read at once (e9184f6)"). */
static SweepPhases
choose_sweep_phases (int nx, int ny, int fx, int fy)
{
  int a = (ny + fy - 1) / fy;
  int texels = (SWEEP_REGISTERS - 4 * a - nx - ny) / 4;
  int cols = 64 / (64 / SWEEP_ROWS); /* a piece's result columns */

  return fx * (cols - 1) + nx <= texels       ? SWEEP_ONE_PHASE
         : fx * (cols / 2 - 1) + nx <= texels ? SWEEP_TWO_PHASES
                                               : SWEEP_SLIDING_WINDOW;
}

/* Shrinks of 8-bit sRGB data by whole factors down strips
 * (kernels/resize.cl says why), where the tap counts are built in: the
 * sweep kernel where every result pixel of both axes has the same
 * weights (the power-of-two sizes among others) and its turn holds whole
 * groups of FY rows, else the strip kernel.  The sweep kernel with each
 * column's weights from local memory came within 5% of the strip kernel,
 * so other sizes keep that one; other depths keep the tiled kernel,
 * faster there (docs/notebook/performance-2026.md, "The rows pass in
 * registers: the sweep kernel (5bb7e81)").  CLFX_DEV resize-strip=all sends
 * every depth's such shrinks down strips, =sweep down the sweep kernel
 * (each column's weights where they differ), =off none (the tiled
 * kernel): to compare in one build.  *ran says whether it applied. */
static bool
launch_strip (ClfxGraph *g, const ResizeState *st, const Tables *tb, int dw,
              int dh, bool *ran, ClfxError *error)
{
  const ClfxTile       *t = clfx_graph_tile (g);
  const ClfxDeviceInfo *dev = clfx_graph_device (g);
  int    fx = axis_step (&st->x, dw), fy = axis_step (&st->y, dh);
  int    nx = st->x.ntaps, ny = st->y.ntaps;
  char   opts[192];
  ClfxStripPolicy policy = clfx_graph_strip_policy (g);
  bool   fits = fx && fy && SWEEP_ROWS % fy == 0;
  bool   same = fits && st->x.uniform && st->y.uniform;
  bool   sweep = policy == CLFX_STRIP_SWEEP ? fits
                 : policy == CLFX_STRIP_AUTO && same;
  /* Local memory: the strip kernel's two rows of a group's texels; the
   * sweep kernel's row values by column (64 columns of SWEEP_ROWS + 1),
   * its texel columns, and the columns' weights where they differ; both
   * the decode table. */
  size_t local = sweep ? 64 * (SWEEP_ROWS + 1) * 16 + (size_t) (fx * 63 + nx)
                                                        * 4
                           + (same ? 0 : (size_t) nx * 64 * 4)
                       : 2 * (size_t) (fx * 63 + nx) * 16;

  *ran = false;
  if (policy == CLFX_STRIP_OFF
      || (policy == CLFX_STRIP_AUTO && ! st->decode8) || ! fx || ! fy
      || ! taps_built_in (g, st)
      || dev->max_work_group < 64 || local + 1024 > dev->local_mem
      || clfx_graph_force_two_pass (g))
    return true;
  if (sweep)
    snprintf (opts, sizeof opts,
              "-DRESIZE_NTX=%d -DRESIZE_NTY=%d -DSWEEP_FX=%d -DSWEEP_FY=%d "
              "-DSWEEP_R=%d -DSWEEP_PHASES=%d%s", nx, ny, fx, fy, SWEEP_ROWS,
              (int) choose_sweep_phases (nx, ny, fx, fy),
              same ? " -DSWEEP_SAME_WEIGHTS" : "");
  else
    snprintf (opts, sizeof opts,
              "-DRESIZE_NTX=%d -DRESIZE_NTY=%d -DSTRIP_FX=%d -DSTRIP_FY=%d",
              nx, ny, fx, fy);
  int        rows = clfx_graph_strip_rows (g)
                      ? clfx_graph_strip_rows (g)
                      : strip_rows (dev, t->out.width, t->out.height);
  ClfxLaunch l = { sweep ? "resize_filter_sweep" : "resize_filter_strip",
                   opts, NULL, 2,
                   { (size_t) t->out.width,
                     (size_t) ((t->out.height + rows - 1) / rows) },
                   { 64, 1 } };
  *ran = true;
  return CLFX_LAUNCH (g, &l, error, CLFX_SRC, CLFX_DST, CLFX_ARG (tb->sx),
                      CLFX_ARG (tb->wx), CLFX_ARG (tb->sy), CLFX_ARG (tb->wy),
                      CLFX_INT (dw), CLFX_INT (dh), CLFX_INT (rows));
}

static bool
resize_cl (ClfxGraph *g, const ClfxParams *p, ClfxError *error)
{
  const ClfxResizeParams *rp = CLFX_PARAMS_OF (p, ClfxResizeParams);
  const ResizeState      *st = clfx_graph_plan (g)->state;
  Tables                  tb;
  size_t                  local_bytes = 0;
  int                     bands;
  bool                    ran;

  /* Nearest reads one texel.  Linear samples directly where sources are
   * images (the sampler, or four reads through the texture cache); on
   * devices that read sources as buffers (CPU devices) it runs as a
   * separable filter through the tap tables, which reuses each row's
   * horizontal pass for every result row that needs it. */
  if (st->filter == CLFX_RESAMPLE_NEAREST
      || (st->filter == CLFX_RESAMPLE_LINEAR
          && ! clfx_graph_source_is_buffer (g)))
    return launch_sample (g, st, error);
  if (! tables_upload (g, st, rp->width, rp->height, &tb, error))
    return false;
  /* CPU devices: two passes through a buffer, band by band, for every
   * filter and scale.  The tiled kernel's local-memory tile and barriers
   * are only copies and loop splits there, and one kernel per result
   * pixel reads each texel once per result row that needs it; both
   * linear and cubic ran faster so (docs/notebook/performance-2026.md,
   * "PoCL on the development machine: clfx against OpenCV's
   * cv2.resize"). */
  if (clfx_graph_source_is_buffer (g))
    return launch_filter_bands (g, st, &tb, rp->width, rp->height, error);
  /* Images: 8-bit shrinks by whole factors down strips, else tiles where
   * a tile's footprint fits in local memory, else two passes. */
  if (! launch_strip (g, st, &tb, rp->width, rp->height, &ran, error))
    return false;
  if (ran)
    return true;
  if ((bands = tile_bands (g, st, rp->width, rp->height, &local_bytes)))
    return launch_tile (g, st, &tb, rp->width, rp->height, bands, error);
  return launch_filter (g, st, &tb, rp->width, rp->height, error);
}

static const char *
resize_describe (const ClfxParams *p)
{
  const ClfxParamSpec *s = clfx_family_param (p->family, "filter");

  return clfx_param_get_nick (p, s);
}

const ClfxVariant clfx_variant_resize = {
  "resize",
  "resize",
  "Resize through the OpenCL sampler: nearest, linear, cubic, lanczos3",
  NULL,
  resize_plan,
  resize_source_rect,
  resize_cl,
  resize_cpu,
  resize_tolerance,
  resize_bounds,
  resize_describe,
  NULL,
  { NULL, NULL, NULL, NULL },
  NULL,
  NULL,
};
