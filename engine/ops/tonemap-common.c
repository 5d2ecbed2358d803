/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tonemap-common.c: the tonemap family's shared code (tonemap-common.h):
 * the statistics on the device before each operator's kernels, the
 * family's probes, and the reference's pixels, statistics and histograms.
 * The operators: tonemap-global.c (reinhard02, reinhard05, drago03,
 * aces), durand02.c, fattal02.c. */
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../clfx-sampler-ref.h"
#include "clfx-params.h"
#include "tonemap-common.h"

/* The float unit roundoff, 2^-24, in the bounds below. */
#define U CLFX_FLOAT_EPS

/* babl's Y row for linear sRGB (D50-adapted). */
static const double Y_ROW[3] = { 0.2224879400, 0.7169038389, 0.0606082572 };

void
tm_plan_common (const ClfxParams *p, const ClfxImage *src, ClfxPlan *plan,
                TmState *st)
{
  const ClfxTonemapParams *tp = CLFX_PARAMS_OF (p, ClfxTonemapParams);

  st->scale = (float) exp2 (tp->exposure);
  st->scan = src->depth == CLFX_DEPTH_FLOAT || src->depth == CLFX_DEPTH_HALF;
  plan->width = src->width;
  plan->height = src->height;
  plan->addressing = CLFX_ADDR_CLAMP_TO_EDGE;
  /* Pointwise after the statistics, which need every pixel first; aces
   * has none, but on float and half data the cleaning's largest finite
   * value is one. */
  plan->whole_image_stats = st->stats || st->scan;
  plan->mixes = true;
  plan->straight = true;
  plan->premultiply = false;
  plan->decode = clfx_plan_decodes (true, src);
  plan->bytes_per_pixel = 0;
  /* The partials per block of TM_BW x TM_BH: the scan's and the
   * statistics' 32 bytes each, the range's 8. */
  plan->bytes_fixed = 72 * ((size_t) (src->width + TM_BW - 1) / TM_BW)
                        * ((size_t) (src->height + TM_BH - 1) / TM_BH)
                      + 4096;
}

const char *
tm_describe (const ClfxParams *p)
{
  return clfx_param_get_nick (p, clfx_family_param (p->family, "operator"));
}

void
tm_tol_encode (const ClfxPlan *plan, const ClfxImage *dst, ClfxTolerance *tol)
{
  if (plan->decode)
    clfx_tol_srgb (tol, dst->depth, plan->srgb_tables);
  clfx_tol_store (tol, dst->depth, false);
}

/* ---- OpenCL ---------------------------------------------------------------- */

cl_mem
tm_hist_buffer (ClfxGraph *g, const char *name, int n, ClfxError *error)
{
  static const cl_uint zero = 0;
  cl_mem               h = clfx_graph_buffer (g, name, 4 * (size_t) n, error);

  if (h && clfx_graph_tile_index (g) == 0
      && ! clfx_graph_fill (g, h, &zero, sizeof zero, 4 * (size_t) n, error))
    return NULL;
  return h;
}

cl_mem
tm_scan_buffer (ClfxGraph *g, const TmState *st, ClfxError *error)
{
  static const cl_uint zero[TM_SCAN_N] = { 0 };

  return st->scan ? clfx_graph_buffer (g, "scan", sizeof zero, error)
                  : clfx_graph_table (g, "no scan", zero, sizeof zero,
                                      error);
}

cl_mem
tm_params_buffer (ClfxGraph *g, const TmState *st, ClfxError *error)
{
  static const cl_float zero16[TM_P_N] = { 0 };

  return ! st->stats
           ? clfx_graph_table (g, "no parameters", zero16, sizeof zero16,
                               error)
           : clfx_graph_buffer (g, "parameters", 4 * TM_P_N, error);
}

cl_mem
tm_field_buffer (ClfxGraph *g, const TmState *st, ClfxError *error)
{
  const ClfxPlan *plan = clfx_graph_plan (g);

  return clfx_graph_buffer (g, st->field_name,
                            4 * (size_t) plan->width * (size_t) plan->height,
                            error);
}

/* The field of every pixel of the current piece (the whole image, or the
 * tile of a field pass) into its whole-image buffer: st->field_kernel, or
 * on CPU devices st->field_kernel_v (TM_V pixels of a row a work-item),
 * each taking the source, the piece's rectangle (x0, y0, x1, y1), the
 * image's width, the scan, the scale, prm and the field. */
static bool
field_cl (ClfxGraph *g, const TmState *st, ClfxError *error)
{
  const ClfxPlan *plan = clfx_graph_plan (g);
  const ClfxRect *r = &clfx_graph_tile (g)->out;
  ClfxLaunch      l = { st->field_kernel, NULL, NULL, 2,
                        { (size_t) r->width, (size_t) r->height },
                        { 0, 0 } };
  cl_int4         rect = { { r->x, r->y, r->x + r->width,
                             r->y + r->height } };
  cl_mem          scan, prm, out;

  if (clfx_graph_source_is_buffer (g))
    {
      l.kernel = st->field_kernel_v;
      l.global[0] = ((size_t) r->width + TM_V - 1) / TM_V;
    }
  return (scan = tm_scan_buffer (g, st, error))
         && (prm = tm_params_buffer (g, st, error))
         && (out = tm_field_buffer (g, st, error))
         && CLFX_LAUNCH (g, &l, error, CLFX_SRC, CLFX_ARG (rect),
                         CLFX_INT (plan->width), CLFX_ARG (scan),
                         CLFX_FLOAT (st->scale), CLFX_ARG (prm),
                         CLFX_ARG (out));
}

bool
tm_select_cl (ClfxGraph *g, const char *name, const char *hist,
              const char *hist_v, const char *select, cl_mem v, long n,
              cl_uint rank0, cl_uint rank1, const ClfxArg *tail, int n_tail,
              ClfxError *error)
{
  static const int     known[3] = { 0, 11, 22 }, shift[3] = { 21, 10, 0 };
  static const cl_uint zero = 0;
  bool                 cpu = clfx_graph_source_is_buffer (g);
  long                 groups = (n + 65535) / 65536, chunk;
  ClfxLaunch           hl = { hist, NULL, NULL, 1, { 0, 1 }, { 256, 1 } };
  ClfxLaunch           sl = { select, NULL, NULL, 1, { TM_SEL_GROUP, 1 },
                              { TM_SEL_GROUP, 1 } };
  ClfxArg              args[7 + TM_SELECT_TAIL];
  cl_mem               hbuf, sel;
  char                 buf[64];

  if (n_tail < 0 || n_tail > TM_SELECT_TAIL)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "tm_select_cl: %d tail arguments", n_tail);
  groups = groups < 1 ? 1 : groups > 1024 ? 1024 : groups;
  chunk = (n + groups - 1) / groups;
  hl.global[0] = 256 * (size_t) groups;
  /* CPU devices: a work-item a chunk, no atomics. */
  if (cpu)
    {
      hl.kernel = hist_v;
      hl.global[0] = (size_t) groups;
      hl.local[0] = 1;
    }
  snprintf (buf, sizeof buf, "%s histogram", name);
  if (! (hbuf = clfx_graph_buffer (g, buf, 4 * 2 * TM_SEL_BINS, error)))
    return false;
  snprintf (buf, sizeof buf, "%s selection", name);
  if (! (sel = clfx_graph_buffer (g, buf, 16, error)))
    return false;
  for (int pass = 0; pass < 3; pass++)
    {
      args[0] = CLFX_ARG (hbuf);
      args[1] = CLFX_ARG (sel);
      args[2] = CLFX_INT (known[pass]);
      args[3] = CLFX_INT (shift[pass]);
      args[4] = CLFX_ARG (rank0);
      args[5] = CLFX_ARG (rank1);
      for (int i = 0; i < n_tail; i++)
        args[6 + i] = tail[i];
      args[6 + n_tail] = CLFX_LOCAL (4 * 2 * TM_SEL_GROUP);
      if (! clfx_graph_fill (g, hbuf, &zero, sizeof zero,
                             4 * 2 * TM_SEL_BINS, error)
          || ! CLFX_LAUNCH (g, &hl, error, CLFX_ARG (v), CLFX_ARG (n),
                            CLFX_ARG (chunk), CLFX_ARG (sel),
                            CLFX_INT (known[pass]), CLFX_INT (shift[pass]),
                            CLFX_ARG (hbuf), CLFX_LOCAL (4 * 2 * TM_SEL_BINS))
          || ! clfx_graph_launch (g, &sl, args, 7 + n_tail, error))
        return false;
    }
  return true;
}

/* The stages of the pipeline before the map, in order: each gathers
 * partials over a rectangle of the image (its blocks at fixed image
 * positions) and then ends with one reduction of all partials.  In one
 * piece a stage's part runs on the whole image and its end follows; in
 * tiles, pass k runs stage k's part on every tile, and the first tile of
 * the next pass ends stage k first.  The range stage is reinhard05's
 * (kernels/tonemap-global.cl). */
enum { STAGE_SCAN, STAGE_STATS, STAGE_RANGE };

static int
stages (const TmState *st, int *list)
{
  int n = 0;

  if (st->scan)
    list[n++] = STAGE_SCAN;
  if (st->stats)
    list[n++] = STAGE_STATS;
  if (st->range)
    list[n++] = STAGE_RANGE;
  return n;
}

/* Stage `stage` over rect r: its part, the partials of the blocks r
 * covers.  keep: reinhard05's range pass stores its colour
 * (tm_range_keep_v). */
static bool
stage_part (ClfxGraph *g, const TmState *st, int stage, const ClfxRect *r,
            bool keep, ClfxError *error)
{
  const ClfxPlan *plan = clfx_graph_plan (g);
  int             nbx = (plan->width + TM_BW - 1) / TM_BW;
  int             nb = nbx * ((plan->height + TM_BH - 1) / TM_BH);
  /* The bytes of a block's partial, per stage. */
  static const size_t partial_size[] = { 4 * TM_SCAN_N, 32, 8 };
  static const char *const kernel[] = { "tm_scan", "tm_stats", "tm_range" };
  static const char *const kernel_v[] = { "tm_scan_v", "tm_stats_v",
                                          "tm_range_v" };
  static const char *const name[] = { "scan partials", "stats partials",
                                      "range partials" };
  /* CPU devices: TM_V columns per work-item (tm_scan_v, ...). */
  bool            v = clfx_graph_source_is_buffer (g);
  size_t          lw = v ? TM_BW / TM_V : TM_BW;
  ClfxLaunch      l = { v ? kernel_v[stage] : kernel[stage], NULL, NULL, 2,
                        { (size_t) (r->width + TM_BW - 1) / TM_BW * lw,
                          (size_t) (r->height + TM_BH - 1) / TM_BH },
                        { lw, 1 } };
  cl_int4         rect = { { r->x, r->y, r->x + r->width,
                             r->y + r->height } };
  cl_mem          partials, scan = NULL, prm = NULL;

  if (! (partials = clfx_graph_buffer (g, name[stage],
                                       partial_size[stage] * (size_t) nb,
                                       error)))
    return false;
  if (stage == STAGE_SCAN)
    return CLFX_LAUNCH (g, &l, error, CLFX_SRC, CLFX_ARG (rect),
                        CLFX_INT (nbx), CLFX_ARG (partials),
                        CLFX_LOCAL (4 * TM_SCAN_N * lw));
  if (! (scan = tm_scan_buffer (g, st, error)))
    return false;
  if (stage == STAGE_STATS)
    {
      cl_mem hist = tm_hist_buffer (g, "histogram before", TM_HB_N, error);
      return hist
             && CLFX_LAUNCH (g, &l, error, CLFX_SRC, CLFX_ARG (rect),
                             CLFX_INT (nbx), CLFX_ARG (scan),
                             CLFX_FLOAT (st->scale),
                             CLFX_FLOAT ((float) st->log_eps),
                             /* an entry per column in either form */
                             CLFX_ARG (partials), CLFX_LOCAL (32 * TM_BW),
                             CLFX_ARG (hist), CLFX_LOCAL (4 * TM_HB_N));
    }
  if (! (prm = tm_params_buffer (g, st, error)))
    return false;
  if (keep)
    {
      l.kernel = "tm_range_keep_v";
      return CLFX_LAUNCH (g, &l, error, CLFX_SRC, CLFX_ARG (rect),
                          CLFX_INT (nbx), CLFX_ARG (scan),
                          CLFX_FLOAT (st->scale), CLFX_ARG (prm),
                          CLFX_ARG (partials), CLFX_LOCAL (8 * lw),
                          CLFX_DST);
    }
  return CLFX_LAUNCH (g, &l, error, CLFX_SRC, CLFX_ARG (rect),
                      CLFX_INT (nbx), CLFX_ARG (scan),
                      CLFX_FLOAT (st->scale), CLFX_ARG (prm),
                      CLFX_ARG (partials), CLFX_LOCAL (8 * lw));
}

/* Stage `stage`'s end: the final reduction of its partials; the
 * statistics' then the operator's constants. */
static bool
stage_end (ClfxGraph *g, const TmState *st, int stage, ClfxError *error)
{
  const ClfxPlan *plan = clfx_graph_plan (g);
  int             w = plan->width, h = plan->height;
  int             nb = ((w + TM_BW - 1) / TM_BW) * ((h + TM_BH - 1) / TM_BH);
  ClfxLaunch      final = { NULL, NULL, NULL, 1, { TM_FINAL, 1 },
                            { TM_FINAL, 1 } };
  cl_mem          partials, out, stats, prm;

  switch (stage)
    {
    case STAGE_SCAN:
      final.kernel = "tm_scan_final";
      return (partials = clfx_graph_buffer (g, "scan partials",
                                            4 * TM_SCAN_N * (size_t) nb,
                                            error))
             && (out = tm_scan_buffer (g, st, error))
             && CLFX_LAUNCH (g, &final, error, CLFX_ARG (partials),
                             CLFX_INT (nb), CLFX_ARG (out),
                             CLFX_LOCAL (4 * TM_SCAN_N * TM_FINAL));
    case STAGE_STATS:
      final.kernel = "tm_stats_final";
      return (partials = clfx_graph_buffer (g, "stats partials",
                                            32 * (size_t) nb, error))
             && (stats = clfx_graph_buffer (g, "stats", 32, error))
             && (prm = tm_params_buffer (g, st, error))
             && CLFX_LAUNCH (g, &final, error, CLFX_ARG (partials),
                             CLFX_INT (nb), CLFX_ARG (stats),
                             CLFX_LOCAL (32 * TM_FINAL))
             && st->params (g, st, stats, (float) ((double) w * h), prm,
                            error);
    default:
      final.kernel = "tm_range_final";
      return (partials = clfx_graph_buffer (g, "range partials",
                                            8 * (size_t) nb, error))
             && (prm = tm_params_buffer (g, st, error))
             && CLFX_LAUNCH (g, &final, error, CLFX_ARG (partials),
                             CLFX_INT (nb), CLFX_ARG (prm),
                             CLFX_LOCAL (8 * TM_FINAL));
    }
}

/* The scan and the statistics in one pass over the whole image
 * (tm_scan_stats_v, CPU devices), then, after the scan's final reduction,
 * the statistics of the blocks holding +Inf (tm_stats_redo_v, the same
 * arguments), which need the image's largest finite value; each stage
 * ended. */
static bool
scan_stats (ClfxGraph *g, const TmState *st, ClfxError *error)
{
  const ClfxPlan *plan = clfx_graph_plan (g);
  int             nbx = (plan->width + TM_BW - 1) / TM_BW;
  int             nb = nbx * ((plan->height + TM_BH - 1) / TM_BH);
  ClfxLaunch      l = { NULL, NULL, NULL, 2,
                        { (size_t) nbx * (TM_BW / TM_V),
                          (size_t) ((plan->height + TM_BH - 1) / TM_BH) },
                        { TM_BW / TM_V, 1 } };
  cl_int4         rect = { { 0, 0, plan->width, plan->height } };
  cl_mem          scan, blocks, partials, hist;

  if (! (scan = tm_scan_buffer (g, st, error))
      || ! (blocks = clfx_graph_buffer (g, "scan partials",
                                        4 * TM_SCAN_N * (size_t) nb, error))
      || ! (partials = clfx_graph_buffer (g, "stats partials",
                                          32 * (size_t) nb, error))
      || ! (hist = tm_hist_buffer (g, "histogram before", TM_HB_N, error)))
    return false;
  for (int redo = 0; redo < 2; redo++)
    {
      l.kernel = redo ? "tm_stats_redo_v" : "tm_scan_stats_v";
      if (! CLFX_LAUNCH (g, &l, error, CLFX_SRC, CLFX_ARG (rect),
                         CLFX_INT (nbx), CLFX_ARG (scan), CLFX_ARG (blocks),
                         CLFX_LOCAL (4 * TM_SCAN_N * (TM_BW / TM_V)),
                         CLFX_FLOAT (st->scale),
                         CLFX_FLOAT ((float) st->log_eps),
                         CLFX_ARG (partials), CLFX_LOCAL (32 * TM_BW),
                         CLFX_ARG (hist), CLFX_LOCAL (4 * TM_HB_N))
          || (! redo && ! stage_end (g, st, STAGE_SCAN, error)))
        return false;
    }
  return stage_end (g, st, STAGE_STATS, error);
}

/* One stage's given result (ClfxPlan.stats) as the one partial of the
 * stage's own final reduction, which gives it back as it is: the buffers
 * then hold what the stage would have made. */
static bool
given_final (ClfxGraph *g, const char *kernel, const char *name,
             const void *partial, size_t bytes, cl_mem out, ClfxError *error)
{
  ClfxLaunch final = { kernel, NULL, NULL, 1, { TM_FINAL, 1 },
                       { TM_FINAL, 1 } };
  cl_mem     part = clfx_graph_upload (g, name, partial, bytes, error);

  return part
         && CLFX_LAUNCH (g, &final, error, CLFX_ARG (part), CLFX_INT (1),
                         CLFX_ARG (out), CLFX_LOCAL (bytes * TM_FINAL));
}

bool
tm_given_range_cl (ClfxGraph *g, const TmState *st, ClfxError *error)
{
  const ClfxStats *s = &clfx_graph_plan (g)->stats;
  cl_float         range[2] = { (float) s->range[0], (float) s->range[1] };
  cl_mem           prm = tm_params_buffer (g, st, error);

  return prm
         && given_final (g, "tm_range_final", "given range", range,
                         sizeof range, prm, error);
}

/* The stages' results from the plan's given statistics, then the
 * operator's constants from them: what the stages would have made from
 * the image the statistics were gathered on. */
static bool
given_stages (ClfxGraph *g, const TmState *st, ClfxError *error)
{
  const ClfxStats *s = &clfx_graph_plan (g)->stats;
  cl_mem           out, prm;

  if (st->scan)
    {
      cl_uint  scan[TM_SCAN_N] = { 0 };
      cl_float largest = (cl_float) s->largest;

      for (int k = 0; k < TM_SCAN_COUNTS; k++)
        scan[k] = (cl_uint) s->counts[k];
      memcpy (&scan[TM_SCAN_LARGEST], &largest, sizeof largest);
      if (! (out = tm_scan_buffer (g, st, error))
          || ! given_final (g, "tm_scan_final", "given scan", scan,
                            sizeof scan, out, error))
        return false;
    }
  if (st->stats)
    {
      cl_float sums[8] = { (cl_float) s->sum_y, (cl_float) s->sum_log,
                           (cl_float) s->sum_c[0], (cl_float) s->sum_c[1],
                           (cl_float) s->sum_c[2], (cl_float) s->min_y,
                           (cl_float) s->max_y, 0.0f };

      if (! (out = clfx_graph_buffer (g, "stats", 32, error))
          || ! (prm = tm_params_buffer (g, st, error))
          || ! given_final (g, "tm_stats_final", "given statistics", sums,
                            sizeof sums, out, error)
          || ! st->params (g, st, out, (float) s->n, prm, error))
        return false;
    }
  return ! st->range || tm_given_range_cl (g, st, error);
}

bool
tm_stages_cl (ClfxGraph *g, const TmState *st, bool keep, ClfxError *error)
{
  const ClfxPlan *plan = clfx_graph_plan (g);
  ClfxRect        whole = { 0, 0, plan->width, plan->height };
  int             list[3], n = stages (st, list), k = 0;

  if (plan->given_stats)
    return given_stages (g, st, error);
  if (clfx_graph_pass (g) >= 0)
    return clfx_graph_tile_index (g) > 0 || n == 0
           || stage_end (g, st, list[n - 1], error);
  /* CPU devices in one piece: the scan and the statistics in one pass
   * (scan_stats). */
  if (clfx_graph_source_is_buffer (g) && n > 1 && list[0] == STAGE_SCAN
      && list[1] == STAGE_STATS)
    {
      if (! scan_stats (g, st, error))
        return false;
      k = 2;
    }
  for (; k < n; k++)
    if (! stage_part (g, st, list[k], &whole, keep, error)
        || ! stage_end (g, st, list[k], error))
      return false;
  return true;
}

bool
tm_stats_cl (ClfxGraph *g, const ClfxParams *p, int pass, ClfxError *error)
{
  const TmState *st = clfx_graph_plan (g)->state;
  int            list[3], n = stages (st, list);

  (void) p;
  if (pass < 0 || pass >= n)
    return clfx_error_set (error, CLFX_ERR_INVALID, "tonemap: no pass %d",
                           pass);
  if (pass > 0 && clfx_graph_tile_index (g) == 0
      && ! stage_end (g, st, list[pass - 1], error))
    return false;
  return stage_part (g, st, list[pass], &clfx_graph_tile (g)->out, false,
                     error);
}

void
tm_plan_fields (ClfxPlan *plan, const TmState *st)
{
  int list[3];

  plan->stats_passes = stages (st, list) + 1;
  plan->stats_align[0] = TM_BW;
  plan->stats_align[1] = TM_BH;
}

bool
tm_field_stats_cl (ClfxGraph *g, const ClfxParams *p, int pass,
                   ClfxError *error)
{
  const ClfxPlan *plan = clfx_graph_plan (g);
  const TmState  *st = plan->state;
  int             list[3], n = plan->given_stats ? 0 : stages (st, list);

  if (pass < n)
    return tm_stats_cl (g, p, pass, error);
  /* The field pass: the statistics' last stage ends on its first tile. */
  return (clfx_graph_tile_index (g) > 0 || tm_stages_cl (g, st, false, error))
         && field_cl (g, st, error);
}

bool
tm_local_run_cl (ClfxGraph *g, const ClfxParams *p, ClfxError *error)
{
  const TmState *st = clfx_graph_plan (g)->state;
  bool           tiled = clfx_graph_pass (g) >= 0;
  cl_mem         scan, prm;

  (void) p;
  return (tiled
          || (tm_stages_cl (g, st, false, error) && field_cl (g, st, error)))
         && (scan = tm_scan_buffer (g, st, error))
         && (prm = tm_params_buffer (g, st, error))
         && st->local (g, st, ! tiled || clfx_graph_tile_index (g) == 0,
                       scan, prm, error)
         && tm_probes_cl (g, st, error);
}

/* The statistics' probes and the operator's, once every stage has
 * ended. */
static bool
record_probes (ClfxGraph *g, const TmState *st, ClfxError *error)
{
  /* Given statistics: no stage counted the histogram before the map. */
  bool   given = clfx_graph_plan (g)->given_stats;
  cl_mem scan, stats, prm, hist = NULL;

  if (st->scan
      && (! (scan = tm_scan_buffer (g, st, error))
          || ! clfx_graph_probe_counts (g, TM_CLEANED, scan, TM_SCAN_COUNTS,
                                        error)
          || ! clfx_graph_probe_at (g, "largest finite value", scan,
                                    TM_SCAN_LARGEST, 1, error)))
    return false;
  if (! st->stats)
    return true;
  if (! (stats = clfx_graph_buffer (g, "stats", 32, error))
      || (! given
          && (! (hist = clfx_graph_buffer (g, "histogram before",
                                           4 * TM_HB_N, error))
              || ! clfx_graph_probe_counts (g, "log2 Y histogram, before",
                                            hist, TM_HB_N, error)))
      || ! (prm = tm_params_buffer (g, st, error))
      || ! clfx_graph_probe_at (g, "log-average, mean Y", prm, TM_P_LAVG, 2,
                                error)
      || ! clfx_graph_probe_at (g, TM_SUM_Y, stats, 0, 1, error)
      || ! clfx_graph_probe_at (g, TM_SUM_LOG, stats, 1, 1, error)
      || ! clfx_graph_probe_at (g, TM_SUMS_RGB, stats, 2, 3, error)
      || ! clfx_graph_probe_at (g, "min Y, max Y", stats, 5, 2, error))
    return false;
  for (const TmProbe *q = st->probes; q && q->name; q++)
    if (! clfx_graph_probe_at (g, q->name, prm, q->first, q->count, error))
      return false;
  return true;
}

bool
tm_probes_cl (ClfxGraph *g, const TmState *st, ClfxError *error)
{
  cl_mem hist;

  if (! (hist = clfx_graph_buffer (g, "histogram after", 4 * TM_HA_N, error))
      || ! clfx_graph_probe_counts (g, "log2 Y histogram, after", hist,
                                    TM_HA_N, error))
    return false;
  return clfx_graph_pass (g) >= 0 && clfx_graph_tile_index (g) > 0
           ? true
           : record_probes (g, st, error);
}

/* ---- CPU reference ------------------------------------------------------------ */

/* kernels/tonemap-common.h's tm_clean1: -0 stays as it is. */
static double
clean1 (double v, double m)
{
  return isnan (v) ? 0.0
         : v < 0.0 ? 0.0
         : isinf (v) ? m
         : v > 0.0 && v < TM_TINY ? 0.0 : v;
}

void
tm_ref_read (const ClfxImage *src, const ClfxPlan *plan, const TmRef *r,
             int x, int y, double scale, double out[4])
{
  float t[4];
  int   alpha = src->channels == 4 ? 3 : 1;

  clfx_ref_texel (src, x, y, t);
  for (int c = 0; c < 4; c++)
    {
      bool colour = src->channels == 4 ? c < 3 : c == 0;
      if (colour)
        {
          out[c] = clean1 (t[c], r->largest);
          if (plan->decode)
            out[c] = clfx_srgb_to_linear (out[c]);
          /* kernels/tonemap-common.h's TM_EXPOSE: sums and products
           * stay finite, luminance's terms normal floats. */
          out[c] = fmin (out[c] * scale, (double) TM_CAP);
          if (out[c] > 0.0 && out[c] < TM_TINY)
            out[c] = 0.0;
        }
      else
        out[c] = t[c];
    }
  out[alpha] = isnan (t[alpha]) ? 0.0 : fmin (fmax (t[alpha], 0.0), 1.0);
  if (src->channels < 4)
    {
      double a = src->channels == 2 ? out[1] : 1.0;
      out[1] = out[2] = out[0];
      out[3] = a;
    }
}

double
tm_ref_luminance (const double v[4])
{
  return Y_ROW[0] * v[0] + Y_ROW[1] * v[1] + Y_ROW[2] * v[2];
}

void
tm_ref_params_begin (TmRef *r)
{
  double  lavg = exp (r->sum_log / r->n), mean = r->sum_y / r->n;
  double *p = r->prm;

  memset (r->prm, 0, sizeof r->prm);
  p[TM_P_LAVG] = lavg;
  p[TM_P_MEAN] = mean;
  p[TM_P_BLACK] = r->max_y > 0.0 ? 0.0 : 1.0;
}

void
tm_ref_collect (const ClfxImage *src, const ClfxPlan *plan, double scale,
                TmRef *r)
{
  const TmState *st = plan->state;

  memset (r, 0, sizeof *r);
  for (int y = 0; st->scan && y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      {
        float t[4];
        clfx_ref_texel (src, x, y, t);
        for (int c = 0; c < (src->channels == 4 ? 3 : 1); c++)
          {
            if (isnan (t[c]))
              r->counts[0]++;
            else if (t[c] < 0.0f)
              r->counts[1]++;
            else if (isinf (t[c]))
              r->counts[2]++;
            else if (t[c] > 0.0f && t[c] < TM_TINY)
              r->counts[3]++;
            else
              r->largest = fmax (r->largest, t[c]);
          }
      }
  r->n = (double) src->width * src->height;
  r->min_y = INFINITY;
  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      {
        double v[4], Y, l;
        tm_ref_read (src, plan, r, x, y, scale, v);
        Y = tm_ref_luminance (v);
        l = log (st->log_eps + Y);
        r->sum_y += Y;
        r->sum_log += l;
        r->sum_abs_log += fabs (l);
        for (int c = 0; c < 3; c++)
          r->sum_c[c] += v[c];
        r->min_y = fmin (r->min_y, Y);
        r->max_y = fmax (r->max_y, Y);
      }
}

void
tm_ref_stats (const ClfxImage *src, const ClfxPlan *plan, double scale,
              TmRef *r)
{
  const ClfxStats *s = &plan->stats;

  if (! plan->given_stats)
    {
      tm_ref_collect (src, plan, scale, r);
      return;
    }
  memset (r, 0, sizeof *r);
  r->given = true;
  r->largest = s->largest;
  memcpy (r->counts, s->counts, sizeof r->counts);
  r->n = s->n;
  r->sum_y = s->sum_y;
  r->sum_log = s->sum_log;
  /* Only the log sum's bound reads it: the given sum's own magnitude
   * covers its rounding to float on the device. */
  r->sum_abs_log = fabs (s->sum_log);
  memcpy (r->sum_c, s->sum_c, sizeof r->sum_c);
  r->min_y = s->min_y;
  r->max_y = s->max_y;
}

void
tm_ref_given_range (const ClfxPlan *plan, TmRef *r)
{
  double lo = plan->stats.range[0], hi = plan->stats.range[1];

  r->prm[TM_P_RANGE_LO] = lo;
  r->prm[TM_P_RANGE_HI] = hi;
  r->prm[TM_P_RANGE_SCALE] = hi > lo ? 1.0 / (hi - lo) : 0.0;
}

double
tm_read_eta (const ClfxPlan *plan, const ClfxImage *src)
{
  if (plan->decode && ! (plan->srgb_tables && src->depth == CLFX_DEPTH_U8))
    return 32.0 * U;
  if (src->depth == CLFX_DEPTH_U8 || src->depth == CLFX_DEPTH_U16)
    return 3.0 * U;
  return 0.0;
}

/* The statistics' error bounds (u = 2^-24).  A sum of n non-negative
 * terms goes through a compensated column sum (2 u), a tree of 64 (6 u),
 * a compensated strided sum over the blocks (2 u) and a tree of 256
 * (8 u): 18 u, plus each term's own error (Y: three products and two sums,
 * the exposure's product, the read: 8 u): 26 u of the sum.  The log sum's
 * terms have both signs: 18 u of the sum of |log|, plus each term's own
 * error, ln as log2 times a float ln 2 (log2's 3 ulp: 6 u |ln|, the
 * product's rounding and the constant's: 1.05 u |ln|) and Y's 8 u (8 u
 * absolute after the log): 26 u sum |log| + 8 u n.  A minimum or
 * maximum of Y: 8 u of it.  The log-average moves by the log sum's bound
 * over n (in the exponent) and exp's 3 ulp; the mean by 26 u. */
double
tm_ref_lavg_bound (const TmRef *r, double *dlog)
{
  *dlog = (26.0 * U * r->sum_abs_log + 8.0 * U * r->n) / r->n;
  return *dlog + 6.0 * U + 26.0 * U;
}

/* ---- the log-luminance histograms ------------------------------------------ */

/* tm_hist_bin: the bin of Y stored as a float, half octaves read from its
 * exponent and first mantissa bit from 2^lo, under and over bins first and
 * last. */
static int
hist_bin (double Y, int lo, int n)
{
  float    f = (float) Y;
  uint32_t b;
  int      k;

  if (! (f >= ldexpf (1.0f, lo)))
    return 0;
  memcpy (&b, &f, sizeof b);
  k = (int) (b >> 22) - ((127 + lo) << 1);
  return k >= n - 2 ? n - 1 : k + 1;
}

/* Counts Y into h; where the device's Y, within dY of it, may fall into
 * another bin, every bin it may reach counts it as uncertain (amb). */
static void
hist_add (double *h, double *amb, int lo, int n, double Y, double dY)
{
  int b = hist_bin (Y, lo, n), a = hist_bin (Y - dY, lo, n);
  int c = hist_bin (Y + dY, lo, n);

  h[b] += 1.0;
  if (a != b || c != b)
    for (int k = a; k <= c; k++)
      amb[k] += 1.0;
}

static double
hist_slack (const double *amb, int n)
{
  double m = 0.0;

  for (int k = 0; k < n; k++)
    m = fmax (m, amb[k]);
  return m;
}

void
tm_ref_run (const ClfxPlan *plan, const ClfxImage *src, ClfxImage *dst,
            double scale, const TmRef *r, TmRefMap map, const void *data,
            const ClfxTolerance *lin, TmRefHists *h)
{
  double eta_y = 8.0 * U + tm_read_eta (plan, src);

  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      {
        double v[4];
        float  out[4];
        tm_ref_read (src, plan, r, x, y, scale, v);
        if (lin)
          hist_add (h->hb, h->hb_amb, TM_HB_LO, TM_HB_N, tm_ref_luminance (v),
                    eta_y * tm_ref_luminance (v));
        map (data, r, x, y, v);
        /* kernels/tonemap-common.h's TM_OUT. */
        for (int c = 0; c < 3 && dst->depth == CLFX_DEPTH_HALF; c++)
          v[c] = fmin (v[c], plan->decode ? (double) TM_HALF_SRGB_MAX
                                          : (double) TM_HALF_MAX);
        if (lin)
          {
            /* The device's result luminance: within the result's bound
             * in linear light (Y's row sums to 1) and Y's own 8 u. */
            double Ya = tm_ref_luminance (v);
            hist_add (h->ha, h->ha_amb, TM_HA_LO, TM_HA_N, Ya,
                      1.0000001 * (lin->abs_tol
                                   + (lin->rel_tol + 8.0 * U) * fabs (Ya)));
          }
        if (src->channels == 4)
          for (int c = 0; c < 4; c++)
            out[c] = (float) v[c];
        else
          {
            out[0] = (float) v[0];
            out[1] = src->channels == 2 ? (float) v[3] : 0.0f;
            out[2] = 0.0f;
            out[3] = 1.0f;
          }
        clfx_ref_store (dst, x, y, out, false, plan->decode);
      }
}

typedef struct
{
  const float *out;
  int          width;
} TmMade;

static void
made_pixel (const void *data, const TmRef *r, int x, int y, double v[4])
{
  const TmMade *m = data;
  const float  *o = m->out + 4 * ((long) y * m->width + x);

  for (int k = 0; k < 3; k++)
    v[k] = r->prm[TM_P_BLACK] == 0.0 ? o[k] : 0.0;
}

void
tm_ref_run_made (const ClfxPlan *plan, const ClfxImage *src, ClfxImage *dst,
                 double scale, const float *out, const ClfxTolerance *lin,
                 TmRef *r, TmRefHists *h)
{
  TmMade m = { out, src->width };

  memset (h, 0, sizeof *h);
  tm_ref_collect (src, plan, scale, r);
  tm_ref_params_begin (r);
  tm_ref_run (plan, src, dst, scale, r, made_pixel, &m, lin, h);
}

bool
tm_ref_probes (const TmState *st, const TmRef *r, const TmRefHists *h,
               ClfxProbes *probes)
{
  double dlog, rel = tm_ref_lavg_bound (r, &dlog);
  double lum[2] = { r->prm[TM_P_LAVG], r->prm[TM_P_MEAN] };
  double mm[2] = { r->min_y, r->max_y };

  if (! clfx_probes_add (probes, "log2 Y histogram, after", h->ha, TM_HA_N,
                         true, hist_slack (h->ha_amb, TM_HA_N), 0.0,
                         "counts of the result's Y in half octaves; a pixel "
                         "within the result's bound of a bin's edge may "
                         "fall on either side")
      || (st->stats && ! r->given
          && ! clfx_probes_add (probes, "log2 Y histogram, before", h->hb,
                                TM_HB_N, true,
                                hist_slack (h->hb_amb, TM_HB_N), 0.0,
                                "counts of Y in half octaves; a pixel within "
                                "Y's 8 u (and the read's error) of a bin's "
                                "edge may fall on either side")))
    return false;
  if (st->scan
      && (! clfx_probes_add (probes, TM_CLEANED, r->counts, TM_SCAN_COUNTS,
                             true, 0.0, 0.0, "counts: exact")
          || ! clfx_probes_add (probes, "largest finite value", &r->largest,
                                1, true, 0.0, 0.0, "a maximum of stored "
                                "values: exact")))
    return false;
  return ! st->stats
         || (clfx_probes_add (probes, "log-average, mean Y", lum, 2, true,
                              0.0, rel, "compensated block sums and trees: "
                              "26 u of a sum, 26 u sum |log| + 8 u n of the "
                              "log sum, exp 3 ulp")
             && clfx_probes_add (probes, TM_SUM_Y, &r->sum_y, 1, true, 0.0,
                                 26.0 * U, "compensated block sums and "
                                 "trees: 26 u of a sum")
             && clfx_probes_add (probes, TM_SUM_LOG, &r->sum_log, 1, true,
                                 dlog * r->n, 0.0, "terms of both signs: "
                                 "26 u sum |log| + 8 u n")
             && clfx_probes_add (probes, TM_SUMS_RGB, r->sum_c, 3, true, 0.0,
                                 26.0 * U, "compensated block sums and "
                                 "trees: 26 u of a sum")
             && clfx_probes_add (probes, "min Y, max Y", mm, 2, true, 0.0,
                                 8.0 * U, "Y of one pixel: 8 u"));
}

/* ---- statistics from outside ------------------------------------------------ */

bool
tm_take_stats (ClfxPlan *plan, const ClfxStats *stats, ClfxError *error)
{
  const TmState *st = plan->state;
  const char    *missing = st->scan && ! stats->has_scan   ? "the scan's"
                           : st->stats && ! stats->has_sums ? "the sums"
                           : st->range_probe && ! stats->has_range
                             ? "the range"
                             : NULL;

  if (missing)
    return clfx_error_set (error, CLFX_ERR_INVALID, "the given statistics "
                           "lack %s, which this image needs", missing);
  if (st->stats && ! (stats->n >= 1.0))
    return clfx_error_set (error, CLFX_ERR_INVALID, "the given statistics "
                           "are over %g pixels", stats->n);
  plan->given_stats = true;
  plan->stats = *stats;
  /* A local operator's field pass stays (tm_field_stats_cl). */
  plan->stats_passes = st->local ? 1 : 0;
  return true;
}

/* n values of probe `name`, the device's or the reference's; false where
 * the run recorded none. */
static bool
probe_values (const ClfxProbes *probes, const char *name, bool device,
              double *out, int n)
{
  for (int i = 0; i < probes->n; i++)
    {
      const ClfxProbe *q = &probes->probes[i];
      const double    *v = device ? q->device : q->reference;
      int              m = device ? q->n_device : q->n_reference;

      if (strcmp (q->name, name) == 0)
        {
          if (! v || m != n)
            return false;
          memcpy (out, v, (size_t) n * sizeof *out);
          return true;
        }
    }
  return false;
}

bool
tm_stats_of (const ClfxPlan *plan, const ClfxProbes *probes, bool device,
             ClfxStats *stats)
{
  const TmState *st = plan->state;
  double         mm[2] = { 0.0, 0.0 };

  if (plan->given_stats)
    {
      *stats = plan->stats;
      return true;
    }
  memset (stats, 0, sizeof *stats);
  stats->n = (double) plan->width * plan->height;
  stats->has_scan
    = st->scan
      && probe_values (probes, TM_CLEANED, device, stats->counts,
                       TM_SCAN_COUNTS)
      && probe_values (probes, "largest finite value", device,
                       &stats->largest, 1);
  stats->has_sums
    = st->stats && probe_values (probes, TM_SUM_Y, device, &stats->sum_y, 1)
      && probe_values (probes, TM_SUM_LOG, device, &stats->sum_log, 1)
      && probe_values (probes, TM_SUMS_RGB, device, stats->sum_c, 3)
      && probe_values (probes, "min Y, max Y", device, mm, 2);
  stats->min_y = mm[0];
  stats->max_y = mm[1];
  stats->has_range = st->range_probe
                     && probe_values (probes, st->range_probe, device,
                                      stats->range, 2);
  return (stats->has_scan || ! st->scan) && (stats->has_sums || ! st->stats)
         && (stats->has_range || ! st->range_probe);
}
