/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tonemap-common.h: what the tonemap family's operators share
 * (tonemap-common.c; docs/TONEMAP.md): the state each operator's plan
 * starts with, the statistics on the device (kernels/tonemap-stats.h)
 * that end in the operator's constants, the family's probes, and the CPU
 * reference's reading of pixels, its statistics and its histograms.
 *
 * Every operator works on linear light with straight alpha, which it
 * keeps.  Colour is cleaned first (NaN, negative and tiny values are 0,
 * +Inf is the image's largest finite colour value; the report counts
 * each), then multiplied by 2^exposure, capped, and 0 where that left it
 * tiny (kernels/tonemap-shapes.h's TM_TINY and TM_CAP); luminance is
 * babl's Y of linear sRGB, as GEGL's operators use.  The statistics
 * (log-average, mean, min and max of Y, the mean of each channel) are
 * reductions on the device chained to the operator's kernels by events,
 * no host round trip in between; they and each operator's constants are
 * probes, compared with the reference's on their own.
 *
 * The reference computes everything in double from the stored texels,
 * with sequential sums: independent of the device's blocks, trees and
 * float constants. */
#ifndef CLFX_TONEMAP_COMMON_H
#define CLFX_TONEMAP_COMMON_H

#include "../../kernels/clfx-common.h"
#include "../../kernels/tonemap-shapes.h"
#include "../clfx-graph.h"
#include "../clfx-tolerance.h"

typedef struct TmState TmState;

/* The probe of the scan's counts (TM_SCAN_COUNTS of them). */
#define TM_CLEANED "cleaned: NaN, negative, +Inf, tiny"
/* The probes of the statistics' sums (ClfxStats: a run's statistics are
 * read from its probes). */
#define TM_SUM_Y    "sum of Y"
#define TM_SUM_LOG  "sum of log Y"
#define TM_SUMS_RGB "sums of R, G, B"


/* A probe of the parameter buffer the operator's constants fill: its
 * name, first slot and count. */
typedef struct
{
  const char *name;
  int         first, count;
} TmProbe;

/* The part of every operator's plan state the family's code reads: the
 * operator's own state begins with it. */
struct TmState
{
  float   scale;   /* 2^exposure, as the device multiplies */
  bool    scan;    /* float or half source: values to clean may exist */
  bool    stats;   /* the statistics and constants (every operator but
                    * aces) */
  bool    range;   /* reinhard05's range of its mapped colour */
  /* reinhard05 on linear float RGBA: on CPU devices, in one piece, the
   * range pass keeps its colour in the result for the map
   * (tm_range_keep_v, tm_map_kept_v). */
  bool    keep;
  double  log_eps; /* the log-average's offset */
  /* Launches the operator's constants kernel after the statistics' final
   * reduction (stats: their buffer; n: the number of pixels). */
  bool (*params) (ClfxGraph *g, const TmState *st, cl_mem stats, float n,
                  cl_mem prm, ClfxError *error);
  /* The constants' probes, after the statistics' (a NULL name ends). */
  const TmProbe *probes;
  /* The probe of the operator's range (TM_P_RANGE_LO and HI: reinhard05's
   * of its mapped colour, durand02's of its base), a part of its
   * statistics (ClfxStats.range); NULL: none. */
  const char    *range_probe;
  /* The result's bound in linear light (the operator's), for the image
   * it was computed on: the tolerance, the after histogram and
   * reinhard05's range probe all need it, and it runs the operator
   * several times. */
  ClfxTolerance    lin;
  const ClfxImage *lin_src;
  /* The local operators (tm_plan_fields): their per-pixel field of the
   * source (a log luminance), made over the current piece by field_kernel
   * (on CPU devices field_kernel_v) into the
   * whole-image buffer field_name (tm_field_buffer); everything else they
   * compute from such fields, which need the whole image: local, given
   * whether the whole-image work is due (one piece, or the first tile),
   * does it and maps the current piece. */
  const char *field_kernel, *field_kernel_v, *field_name;
  bool (*local) (ClfxGraph *g, const TmState *st, bool whole, cl_mem scan,
                 cl_mem prm, ClfxError *error);
};

/* The plan's fields every operator sets alike, and st's scale and scan
 * (st->stats set before). */
void tm_plan_common (const ClfxParams *p, const ClfxImage *src,
                     ClfxPlan *plan, TmState *st);
/* The report's name: the operator's nick. */
const char *tm_describe (const ClfxParams *p);
/* The tolerance's last steps: the sRGB encoding and the store. */
void tm_tol_encode (const ClfxPlan *plan, const ClfxImage *dst,
                    ClfxTolerance *tol);

/* ---- on the device ------------------------------------------------------- */

/* One work-item of a constants kernel. */
#define TM_ONE(kernel)                                                       \
  ((ClfxLaunch) { (kernel), NULL, NULL, 1, { 1, 1 }, { 1, 1 } })

/* A histogram's counts on the device, set to 0 where a pass starts (its
 * first tile or band, or the one piece) and added to by every one after. */
cl_mem tm_hist_buffer (ClfxGraph *g, const char *name, int n,
                       ClfxError *error);
/* The scan's result (zeros where there is none) and the parameter buffer
 * (TM_P_N floats; zeros where there are no statistics), by name. */
cl_mem tm_scan_buffer (ClfxGraph *g, const TmState *st, ClfxError *error);
cl_mem tm_params_buffer (ClfxGraph *g, const TmState *st, ClfxError *error);
/* The stages before the map, for the graph's current tile: in one piece
 * every stage, part and end; in tiles (whose parts stats_cl ran) the
 * last stage's end, on the first tile.  keep: reinhard05's range pass
 * keeps its colour in the result (TmState.keep). */
bool tm_stages_cl (ClfxGraph *g, const TmState *st, bool keep,
                   ClfxError *error);
/* A variant's stats_cl: pass `pass` of the tiled statistics over the
 * current tile. */
bool tm_stats_cl (ClfxGraph *g, const ClfxParams *p, int pass,
                  ClfxError *error);
/* The local operators in tiles: the source's tiles reach the device one
 * at a time; the operator's fields (TmState.field_*) are whole-image
 * buffers,
 * made by one pass over the tiles after the statistics' passes, and its
 * whole-image work runs once, on the first tile of the pass that maps,
 * so that every kernel but the field's and the map's runs as in one
 * piece, on the same values: the tiled result is the one-piece result,
 * bit for bit.  tm_plan_fields sets the plan's passes and alignment (the
 * statistics' blocks); tm_field_stats_cl is the variant's stats_cl and
 * tm_local_run_cl its run_cl (in one piece the stages and the field
 * first; then st->local and the probes). */
void tm_plan_fields (ClfxPlan *plan, const TmState *st);
bool tm_field_stats_cl (ClfxGraph *g, const ClfxParams *p, int pass,
                        ClfxError *error);
bool tm_local_run_cl (ClfxGraph *g, const ClfxParams *p, ClfxError *error);
/* The field's whole-image buffer, a float per pixel. */
cl_mem tm_field_buffer (ClfxGraph *g, const TmState *st, ClfxError *error);
/* durand02: the range given with the plan's statistics
 * (ClfxPlan.stats) into the parameter buffer, as its final reduction
 * would have made it. */
bool tm_given_range_cl (ClfxGraph *g, const TmState *st, ClfxError *error);
/* After the map: the after histogram's probe (recorded after each tile:
 * the last record holds them all), then, once, the statistics' probes
 * and the operator's (st->probes). */
bool tm_probes_cl (ClfxGraph *g, const TmState *st, ClfxError *error);

/* Two order statistics, ranks rank0 and rank1 (from 0, in increasing
 * order), of the n floats of v by radix selection
 * (kernels/tonemap-select.h): three passes of 11, 11 and 10 bits, each
 * the histogram cleared, counted by kernel hist (256 work-items a chunk of
 * at most 1024 chunks; on CPU devices hist_v, one work-item a chunk) and
 * read by kernel select (one group), which takes (hist, sel, known, shift,
 * rank0, rank1), then the caller's tail arguments (at most 4), then its
 * local memory, and stores the two values in its last pass.  name: the
 * prefix of the histogram's and selection's buffers. */
#define TM_SELECT_TAIL 4
bool tm_select_cl (ClfxGraph *g, const char *name, const char *hist,
                   const char *hist_v, const char *select, cl_mem v, long n,
                   cl_uint rank0, cl_uint rank1, const ClfxArg *tail,
                   int n_tail, ClfxError *error);

/* ---- the CPU reference --------------------------------------------------- */

/* The reference's statistics and constants, in double. */
typedef struct
{
  double largest;         /* the largest finite colour value (>= 0; tiny
                           * values left out) */
  double counts[TM_SCAN_COUNTS]; /* NaN, negative, +Inf, tiny */
  double sum_y, sum_log, sum_abs_log, sum_c[3], min_y, max_y, n;
  double prm[TM_P_N];     /* as the device's parameter buffer, in double */
  bool   given;           /* the plan's given statistics (ClfxPlan.stats) */
} TmRef;

/* The log-luminance histograms of the reference's pixels, and per bin
 * the pixels the device's may count in another bin (tm_ref_run). */
typedef struct
{
  double hb[TM_HB_N], hb_amb[TM_HB_N];
  double ha[TM_HA_N], ha_amb[TM_HA_N];
} TmRefHists;

/* A pixel's map: v, the texel at (x, y) as tm_ref_read gives it, to the
 * result's RGBA in linear light. */
typedef void (*TmRefMap) (const void *data, const TmRef *r, int x, int y,
                          double v[4]);

/* babl's Y of linear RGB. */
double tm_ref_luminance (const double v[4]);
/* A texel as tm_read gives it: RGBA in linear light, cleaned (r->largest),
 * exposed. */
void tm_ref_read (const ClfxImage *src, const ClfxPlan *plan, const TmRef *r,
                  int x, int y, double scale, double out[4]);
/* The statistics (and the scan's, where st->scan) into r; its constants
 * are the operator's to make. */
void tm_ref_collect (const ClfxImage *src, const ClfxPlan *plan,
                     double scale, TmRef *r);
/* The run's statistics into r: the plan's given ones, else the source's
 * (tm_ref_collect). */
void tm_ref_stats (const ClfxImage *src, const ClfxPlan *plan, double scale,
                   TmRef *r);
/* The given range (ClfxStats.range) into r's constants, as
 * tm_range_final makes them. */
void tm_ref_given_range (const ClfxPlan *plan, TmRef *r);

/* ---- statistics from outside (ClfxStats) --------------------------------- */

/* The variants' take_stats and stats_of (clfx-graph.h). */
bool tm_take_stats (ClfxPlan *plan, const ClfxStats *stats,
                    ClfxError *error);
bool tm_stats_of (const ClfxPlan *plan, const ClfxProbes *probes,
                  bool device, ClfxStats *stats);
/* The start of every operator's constants: r->prm cleared, the
 * log-average, the mean of Y, TM_P_BLACK. */
void tm_ref_params_begin (TmRef *r);
/* The texels' read error, relative (the unorm conversion, or sRGB
 * decoded by the formula). */
double tm_read_eta (const ClfxPlan *plan, const ClfxImage *src);
/* The log-average's relative bound (and *dlog, the log sum's over n). */
double tm_ref_lavg_bound (const TmRef *r, double *dlog);
/* Every pixel of src read, mapped by map and stored into dst; with lin
 * (the result's bound in linear light), the histograms counted into h. */
void tm_ref_run (const ClfxPlan *plan, const ClfxImage *src, ClfxImage *dst,
                 double scale, const TmRef *r, TmRefMap map, const void *data,
                 const ClfxTolerance *lin, TmRefHists *h);
/* tm_ref_run for an operator whose reference made every pixel's colour
 * beforehand (out: RGBA float per pixel of src, row-major), black where
 * the image is; r and h as tm_ref_run leaves them. */
void tm_ref_run_made (const ClfxPlan *plan, const ClfxImage *src,
                      ClfxImage *dst, double scale, const float *out,
                      const ClfxTolerance *lin, TmRef *r, TmRefHists *h);
/* The family's probes of the reference (the histograms, the scan's, the
 * statistics'); false when out of memory. */
bool tm_ref_probes (const TmState *st, const TmRef *r, const TmRefHists *h,
                    ClfxProbes *probes);

#endif
