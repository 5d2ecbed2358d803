/* clfx-run.h: run one op on a device request, with the CPU fallback,
 * validation and the JSON report.  This is the engine's front door: the
 * plug-in and clfx-bench both call it. */
#ifndef CLFX_RUN_H
#define CLFX_RUN_H

#include <stdbool.h>

#include "clfx-context.h"
#include "clfx-device.h"
#include "clfx-validate.h"
#include "ops/clfx-ops.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct
{
  const char *device;      /* "auto", "reference" or a substring */
  bool        validate;    /* also run the CPU reference and compare */
  size_t      guard_bytes; /* test hook: guard band around outputs */
  /* Optional, to reuse one context over several runs (the layers of an
   * image, the previews of a dialog): NULL, each run makes and frees its
   * own.  Otherwise *context is used when set (made for the same device
   * request, see clfx_run_context_new), or made and left there; a run
   * that fails on it frees it and sets it to NULL.  The caller frees what
   * is left with clfx_context_free. */
  ClfxContext **context;
} ClfxRunOptions;

typedef struct
{
  bool            ran_opencl;   /* false: the CPU path produced dst */
  bool            have_device;
  ClfxDeviceInfo  device;
  char            fallback[1200]; /* empty: no fallback */
  ClfxBuildRecord builds[8];    /* copies; logs owned here */
  int             n_builds;
  ClfxTimings     timings;
  bool            validated;
  ClfxValidation  validation;
  ClfxTolerance   tolerance;
} ClfxRunResult;

/* Runs op on src into dst (allocated here with src's channels and depth,
 * at the size the op asks for).  With device "auto", a missing or failing
 * OpenCL falls back to the CPU path and result->fallback says why; any
 * other request fails instead.  On failure dst is left empty. */
bool clfx_run (const ClfxOpInfo *op, const ClfxParams *p, const ClfxImage *src,
               ClfxImage *dst, const ClfxRunOptions *opt,
               ClfxRunResult *result, ClfxError *error);

/* A context on the device a request selects (list, select, create), as
 * clfx_run makes one; NULL with *error set when that fails.  *selected,
 * when given, receives the device that was selected, also when only the
 * context creation failed (its name is empty when none was). */
ClfxContext *clfx_run_context_new (const char *device,
                                   ClfxDeviceInfo *selected,
                                   ClfxError *error);

/* The OpenCL path alone on an existing context (clfx-bench repeats it):
 * dst must already be allocated; timings are filled. */
bool clfx_run_on_context (ClfxContext *ctx, const ClfxOpInfo *op,
                          const ClfxParams *p, const ClfxImage *src,
                          ClfxImage *dst, ClfxTimings *t, ClfxError *error);

/* Copies the build records the context's last op used into result. */
void clfx_run_take_builds (ClfxContext *ctx, ClfxRunResult *result);

/* Runs the CPU reference into a fresh image shaped like dst, compares, and
 * fills result->validation, tolerance and timings.reference_ms. */
bool clfx_run_validate (const ClfxOpInfo *op, const ClfxParams *p,
                        const ClfxImage *src, const ClfxImage *dst,
                        ClfxRunResult *result, ClfxError *error);

void clfx_run_result_clear (ClfxRunResult *result);

/* The report of design.md.  extra_params: further "parameters" members
 * as (name, JSON-ready string value) pairs, NULL-terminated (the common
 * args); may be NULL.  Caller frees. */
char *clfx_report_json (const ClfxOpInfo *op, const ClfxParams *p,
                        const ClfxImage *src, const ClfxRunOptions *opt,
                        const ClfxRunResult *r, const char *const *extra);

#ifdef __cplusplus
}
#endif

#endif
