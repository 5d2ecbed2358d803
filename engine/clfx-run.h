/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-run.h: run one family's variant on a device request, with the CPU
 * fallback, validation, probes and the JSON report.  This is the engine's
 * front door: the plug-in and clfx-bench both call it. */
#ifndef CLFX_RUN_H
#define CLFX_RUN_H

#include <stdbool.h>

#include "clfx-context.h"
#include "clfx-device.h"
#include "clfx-family.h"
#include "clfx-graph.h"
#include "clfx-validate.h"
#include "ops/clfx-params.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct
{
  const char *device;      /* "auto", "all", "reference" or a substring */
  bool        validate;    /* also run the CPU reference and compare */
  size_t      guard_bytes; /* test hook: guard band around outputs */
  /* Optional, to reuse one context over several runs (the layers of an
   * image, the previews of a dialog): NULL, each run makes and frees its
   * own.  Otherwise *context is used when set (made for the same device
   * request, see clfx_run_context_new), or made and left there; a run
   * that fails on it frees it and sets it to NULL.  The caller frees what
   * is left with clfx_context_free. */
  ClfxContext **context;
  /* Make the result in pinned memory of *context when that saves copies
   * (clfx_context_wants_pinned), so that the caller reads it from where
   * the download wrote it; heap memory when there is no context yet or
   * pinned memory runs out. */
  bool          pinned_result;
  /* The caller gives the source's pixels up: where the run can make its
   * result over them (clfx_exec_over_source_ok: GEGL's in-process
   * operations on CPU devices, whose first touch of a fresh image costs
   * more than the kernels), dst comes back as a view of src's memory
   * (dst->data == src->data, freed with src, not before dst's last use)
   * and the result says over_source.  A run that failed over its source
   * has changed it: it returns false with no CPU fallback, and the caller
   * reads the source again before running anything else on it.  Ignored
   * with validate, whose reference reads the source after the run. */
  bool          src_scratch;
} ClfxRunOptions;

/* Which path made the result. */
typedef enum
{
  CLFX_PATH_OPENCL,    /* the OpenCL device(s) */
  CLFX_PATH_REFERENCE, /* the CPU reference, as requested */
  CLFX_PATH_FALLBACK   /* the CPU reference after OpenCL failed (auto) */
} ClfxPath;

typedef struct
{
  ClfxPath         path;
  /* The selected device (its name is empty when none was selected), also
   * after a fallback: it names what failed. */
  ClfxDeviceInfo   device;
  int              n_devices;   /* devices that took part (device "all") */
  char             fallback[1200]; /* empty: no fallback */
  ClfxBuildRecord *builds;      /* copies; logs owned here */
  int              n_builds;
  ClfxTimings      timings;
  bool             validated;
  ClfxValidation   validation;
  ClfxTolerance    tolerance;
  ClfxProbes       probes;
  /* The CPU reference's result when validated (the Diagnostics heat
   * map compares it with the OpenCL result). */
  ClfxImage        reference;
  /* The tolerance's absolute bound per result pixel (clfx_tol_local_map;
   * no data: tolerance.abs_tol everywhere). */
  ClfxImage        abs_map;
  /* The plan of the run, for the tolerance and the report. */
  ClfxPlan         plan;
  char             notes[256]; /* tuning variables not understood */
  /* The result was made (or, after a failure, begun) over the source
   * (ClfxRunOptions.src_scratch). */
  bool             over_source;
  /* dst holds the CPU reference's result: the device's failed validation
   * (clfx_run_keep_reference). */
  bool             reference_kept;
  /* The whole-image statistics the run used (the given ones, or those it
   * gathered from its source: the path's own values) where the variant
   * has them (has_stats): what clfx_run_with_stats takes. */
  bool             has_stats;
  ClfxStats        stats;
} ClfxRunResult;

/* Checks the parameters against src and sizes the result (the argument
 * errors of clfx_run, without running anything). */
bool clfx_run_check (const ClfxParams *p, const ClfxImage *src, int *width,
                     int *height, ClfxError *error);

/* Runs the variant p selects on src into dst (allocated here with src's
 * channels, depth, alpha and transfer curve, at the size the variant asks
 * for).  With device "auto", a missing or failing OpenCL falls back to the
 * CPU path and result->fallback says why; any other request fails instead.
 * On failure dst is left empty. */
bool clfx_run (const ClfxParams *p, const ClfxImage *src, ClfxImage *dst,
               const ClfxRunOptions *opt, ClfxRunResult *result,
               ClfxError *error);

/* Builds ahead what runs of p on images laid out as `layout` (its
 * channels, depth, alpha and transfer curve; not its size or pixels)
 * build on opt's context: one run on a few synthetic pixels of that
 * layout, its result dropped.  For a dialog or a module to start the
 * compiler before the first real run; result as clfx_run's (clear it). */
bool clfx_run_build_ahead (const ClfxParams *p, const ClfxImage *layout,
                           const ClfxRunOptions *opt, ClfxRunResult *result,
                           ClfxError *error);

/* clfx_run with whole-image statistics taken from outside instead of
 * gathered from src (ClfxVariant.take_stats: the tone mappers): stats
 * come from an earlier run on a larger copy of the image (its
 * ClfxRunResult.stats) with the same parameters, so that the smaller copy
 * is mapped as the whole image is.  The reference path and validation
 * take them too.  Refused (CLFX_ERR_INVALID) by a variant without
 * statistics or where stats lack a part the image needs. */
bool clfx_run_with_stats (const ClfxParams *p, const ClfxImage *src,
                          ClfxImage *dst, const ClfxRunOptions *opt,
                          const ClfxStats *stats, ClfxRunResult *result,
                          ClfxError *error);

/* After a run whose device result failed validation: dst (that run's
 * result) gets the CPU reference's result instead, since the device's is
 * what failed, and result->reference_kept and result->fallback say so.
 * Returns whether it did.  What GIMP applies; clfx-bench keeps the
 * device's result (--keep-reference asks for this). */
bool clfx_run_keep_reference (ClfxRunResult *result, ClfxImage *dst);

/* A context on the device a request selects (list, select, create), as
 * clfx_run makes one; "all" makes one per usable GPU (or per CPU device
 * when there is no GPU), the first with the others as its peers.  NULL
 * with *error set when that fails.  *selected, when given, receives the
 * (first) device that was selected, also when only the context creation
 * failed (its name is empty when none was). */
ClfxContext *clfx_run_context_new (const char *device,
                                   ClfxDeviceInfo *selected,
                                   ClfxError *error);

/* The OpenCL path alone on an existing context (clfx-bench repeats it):
 * dst must already be allocated at the result's size; the timings are
 * filled (free them with clfx_timings_clear); probes may be NULL.  plan,
 * when given, receives the run's plan (clear it with clfx_plan_clear). */
bool clfx_run_on_context (ClfxContext *ctx, const ClfxParams *p,
                          const ClfxImage *src, ClfxImage *dst,
                          ClfxTimings *t, ClfxProbes *probes, ClfxPlan *plan,
                          ClfxError *error);

/* The CPU reference alone, into dst (allocated by the caller at the
 * result's size, with the transfer curve and alpha of src). */
bool clfx_reference_into (const ClfxParams *p, const ClfxImage *src,
                          ClfxImage *dst, ClfxError *error);

/* Copies the build records the context's (and its peers') last run used
 * into result. */
bool clfx_run_take_builds (ClfxContext *ctx, ClfxRunResult *result);

/* Runs the CPU reference into result->reference, compares it (and the
 * probes) with dst, and fills validation, tolerance and
 * timings.reference_ms.  result->plan must be the run's plan. */
bool clfx_run_validate (const ClfxParams *p, const ClfxImage *src,
                        const ClfxImage *dst, ClfxRunResult *result,
                        ClfxError *error);

void clfx_run_result_clear (ClfxRunResult *result);

/* What a failed validation failed on, in words, into buf: the values
 * outside the tolerance (how many, the worst with its expected and
 * actual values and the bound there) and each probe that failed (its
 * worst value on the device and in the reference).  Empty when the
 * result was not validated or passed.  Returns buf. */
const char *clfx_run_result_failure (const ClfxRunResult *result, char *buf,
                                     size_t n);

/* The report of design.md.  extra: further "parameters" members as (name,
 * JSON-ready string value) pairs, NULL-terminated (the plug-in's); may be
 * NULL.  Caller frees. */
char *clfx_report_json (const ClfxParams *p, const ClfxImage *src,
                        const ClfxRunOptions *opt, const ClfxRunResult *r,
                        const char *const *extra);

/* The report's "variant": the variant's name, or its describe(). */
const char *clfx_run_variant_name (const ClfxParams *p);

#ifdef __cplusplus
}
#endif

#endif
