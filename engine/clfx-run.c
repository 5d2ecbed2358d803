/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-run.c: device choice, fallback, validation and the report. */
#define _POSIX_C_SOURCE 200809L
#include "clfx-run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clfx-array.h"
#include "clfx-exec.h"
#include "clfx-json.h"

void
clfx_run_result_clear (ClfxRunResult *r)
{
  for (int i = 0; i < r->n_builds; i++)
    free (r->builds[i].log);
  free (r->builds);
  clfx_timings_clear (&r->timings);
  clfx_probes_clear (&r->probes);
  clfx_host_image_free (&r->reference);
  clfx_host_image_free (&r->abs_map);
  clfx_plan_clear (&r->plan);
  memset (r, 0, sizeof *r);
}

const char *
clfx_run_variant_name (const ClfxParams *p)
{
  const ClfxVariant *v = clfx_params_variant (p);

  if (! v)
    return "";
  return v->describe ? v->describe (p) : v->name;
}

static bool
take_builds_of (ClfxContext *ctx, ClfxRunResult *r, int *cap)
{
  for (int i = 0; i < ctx->n_used; i++)
    {
      ClfxBuildRecord *b;
      if (! clfx_array_reserve (&r->builds, cap, r->n_builds + 1,
                                sizeof *r->builds))
        return false;
      b = &r->builds[r->n_builds];
      *b = ctx->programs[ctx->used[i]].record;
      b->log = strdup (b->log ? b->log : "");
      if (! b->log)
        return false;
      r->n_builds++;
    }
  return true;
}

bool
clfx_run_take_builds (ClfxContext *ctx, ClfxRunResult *r)
{
  int cap = 0;

  for (int i = 0; i < r->n_builds; i++)
    free (r->builds[i].log);
  free (r->builds);
  r->builds = NULL;
  r->n_builds = 0;
  if (! take_builds_of (ctx, r, &cap))
    return false;
  for (int p = 0; p < ctx->n_peers; p++)
    if (! take_builds_of (ctx->peers[p], r, &cap))
      return false;
  return true;
}

bool
clfx_run_check (const ClfxParams *p, const ClfxImage *src, int *width,
                int *height, ClfxError *error)
{
  ClfxPlan plan;

  if (! clfx_plan_make (p, src, &plan, error))
    return false;
  *width = plan.width;
  *height = plan.height;
  clfx_plan_clear (&plan);
  return true;
}

/* dst made for src's result at width x height: in pinned memory of
 * `pinned` where it is given (ClfxRunOptions.pinned_result), with src's
 * channels, depth, alpha and transfer curve. */
static bool
alloc_result (ClfxContext *pinned, const ClfxImage *src, ClfxImage *dst,
              int width, int height, ClfxError *error)
{
  if (! clfx_context_image_alloc (pinned, dst, width, height, src->channels,
                                  src->depth, error))
    return false;
  dst->straight_alpha = src->straight_alpha;
  dst->transfer = src->transfer;
  return true;
}

/* The result a run makes over its source: a view of src's pixels, which
 * clfx_host_image_free leaves to src. */
static void
keep_pixels (ClfxPixelOwner *owner)
{
  (void) owner;
}

static ClfxPixelOwner src_view_owner = { keep_pixels };

/* The run's plan: the variant's, with the given statistics (NULL:
 * none). */
static bool
plan_for (const ClfxParams *p, const ClfxImage *src, const ClfxStats *stats,
          ClfxPlan *plan, ClfxError *error)
{
  if (! clfx_plan_make (p, src, plan, error))
    return false;
  if (stats
      && ! clfx_plan_give_stats (plan, clfx_params_variant (p), stats,
                                 error))
    {
      clfx_plan_clear (plan);
      return false;
    }
  return true;
}

/* clfx_run_on_context; with dst not yet made (dst->data NULL, clfx_run
 * with src_scratch), made here: over the source where the plan allows
 * (*over_source), else in memory of its own. */
static bool
run_on_context (ClfxContext *ctx, const ClfxParams *p, const ClfxImage *src,
                ClfxImage *dst, const ClfxRunOptions *opt,
                const ClfxStats *stats, bool *over_source, ClfxTimings *t,
                ClfxProbes *probes, ClfxPlan *plan_out, ClfxError *error)
{
  double   t0 = clfx_now_ms ();
  ClfxPlan plan;
  bool     ok;

  memset (t, 0, sizeof *t);
  if (! plan_for (p, src, stats, &plan, error))
    return false;
  if (! dst->data && clfx_exec_over_source_ok (ctx, &plan, src))
    {
      *dst = *src;
      dst->owner = &src_view_owner;
      dst->origin_x = dst->origin_y = 0;
      *over_source = true;
    }
  else if (! dst->data
           && ! alloc_result (opt && opt->pinned_result ? ctx : NULL, src,
                              dst, plan.width, plan.height, error))
    {
      clfx_plan_clear (&plan);
      return false;
    }
  if (dst->width != plan.width || dst->height != plan.height
      || dst->channels != src->channels || dst->depth != src->depth)
    {
      clfx_plan_clear (&plan);
      return clfx_error_set (error, CLFX_ERR_INVALID,
                             "the result image is %dx%d, the variant makes "
                             "%dx%d", dst->width, dst->height, plan.width,
                             plan.height);
    }
  dst->straight_alpha = src->straight_alpha;
  dst->transfer = src->transfer;
  ok = clfx_exec (ctx, p, &plan, src, dst, t, probes, error);
  t->total_ms = clfx_now_ms () - t0;
  t->upload_bytes = (size_t) src->width * (size_t) src->height
                    * clfx_image_pixel_size (src);
  t->download_bytes = (size_t) dst->width * (size_t) dst->height
                      * clfx_image_pixel_size (dst);
  if (plan_out)
    *plan_out = plan;
  else
    clfx_plan_clear (&plan);
  return ok;
}

bool
clfx_run_on_context (ClfxContext *ctx, const ClfxParams *p,
                     const ClfxImage *src, ClfxImage *dst, ClfxTimings *t,
                     ClfxProbes *probes, ClfxPlan *plan_out,
                     ClfxError *error)
{
  bool over_source = false;

  if (! dst->data)
    return clfx_error_set (error, CLFX_ERR_INVALID, "no result image");
  return run_on_context (ctx, p, src, dst, NULL, NULL, &over_source, t,
                         probes, plan_out, error);
}

/* ---- validation ------------------------------------------------------------ */

bool
clfx_run_validate (const ClfxParams *p, const ClfxImage *src,
                   const ClfxImage *dst, ClfxRunResult *r, ClfxError *error)
{
  const ClfxVariant *v = clfx_params_variant (p);
  ClfxImage          lo = { 0 }, hi = { 0 };
  ClfxImage         *ref = &r->reference;
  double             t0;
  bool               ok = false, per_pixel = false;

  clfx_host_image_free (ref);
  if (! clfx_host_image_alloc (ref, dst->width, dst->height, dst->channels,
                               dst->depth, error))
    return false;
  ref->straight_alpha = dst->straight_alpha;
  ref->transfer = dst->transfer;
  t0 = clfx_now_ms ();
  if (! v->run_cpu (p, &r->plan, src, ref, &r->probes, error))
    goto out;
  r->timings.reference_ms = clfx_now_ms () - t0;
  v->tolerance (p, &r->plan, r->device.name[0] ? &r->device : NULL, src, dst,
                &r->tolerance);
  if (dst->straight_alpha && dst->channels > 1)
    clfx_tol_clause (&r->tolerance, "colour compared multiplied by alpha "
                     "(straight alpha)");
  clfx_host_image_free (&r->abs_map);
  if (! clfx_tol_local_map (v, &r->plan, src, &r->tolerance, &r->abs_map,
                            &per_pixel, error))
    goto out;
  if (per_pixel)
    clfx_tol_clause (&r->tolerance, "per pixel: the value-scaled terms "
                     "(%.3g of abs_tol) times the largest |value| the "
                     "pixel's footprint reads over the image's %.3g",
                     r->tolerance.abs_mag + r->tolerance.abs_range,
                     r->tolerance.magnitude);
  if (v->bounds)
    {
      if (! clfx_host_image_alloc (&lo, dst->width, dst->height,
                                   dst->channels, dst->depth, error)
          || ! clfx_host_image_alloc (&hi, dst->width, dst->height,
                                      dst->channels, dst->depth, error)
          || ! v->bounds (p, &r->plan, src, ref, &lo, &hi, error))
        goto out;
      lo.straight_alpha = hi.straight_alpha = dst->straight_alpha;
    }
  clfx_validate_per_pixel (ref, lo.data ? &lo : NULL, hi.data ? &hi : NULL,
                           dst, r->tolerance.abs_tol,
                           per_pixel ? &r->abs_map : NULL,
                           r->tolerance.rel_tol, &r->validation);
  if (! clfx_probes_compare (&r->probes))
    r->validation.passed = false;
  /* A result that fails its own validation may come from a poisoned
   * cached binary: the entries it loaded are deleted, so the next run
   * builds from source (this context keeps the programs it has). */
  for (int i = 0; ! r->validation.passed && i < r->n_builds; i++)
    {
      ClfxBuildRecord *b = &r->builds[i];
      if (b->cache && ! strcmp (b->cache, "hit") && b->cache_path[0]
          && unlink (b->cache_path) == 0)
        snprintf (b->cache_note, sizeof b->cache_note, "the cached entry "
                  "was deleted: this run's validation failed");
    }
  r->validated = true;
  ok = true;
out:
  clfx_host_image_free (&lo);
  clfx_host_image_free (&hi);
  return ok;
}

/* ---- devices ------------------------------------------------------------- */

/* Every usable GPU, else every usable device: the devices of "all". */
static int
all_devices (const ClfxDeviceList *list, const ClfxDeviceInfo **picked)
{
  int n = 0;

  for (size_t i = 0; i < list->n_devices; i++)
    if (list->devices[i].usable && ! strcmp (list->devices[i].type, "gpu"))
      picked[n++] = &list->devices[i];
  if (n > 0)
    return n;
  for (size_t i = 0; i < list->n_devices; i++)
    if (list->devices[i].usable)
      picked[n++] = &list->devices[i];
  return n;
}

/* With peer-pinned=context (CLFX_DEV), one OpenCL context for the picked
 * devices on the first one's platform (NULL where there is only one, or
 * the switch asks for none: each device then gets its own); else NULL
 * with *failed set and *error said. */
static cl_context
shared_context (const ClfxDeviceInfo *const *picked, int n,
                const ClfxTuning *t, bool *failed, ClfxError *error)
{
  cl_device_id *ids;
  int           m = 0;
  cl_context    shared = NULL;

  *failed = false;
  if (t->peer_pinned != CLFX_PEER_CONTEXT)
    return NULL;
  if (! (ids = calloc ((size_t) n, sizeof *ids)))
    {
      *failed = true;
      clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
      return NULL;
    }
  for (int i = 0; i < n; i++)
    if (picked[i]->platform == picked[0]->platform)
      ids[m++] = picked[i]->id;
  if (m >= 2)
    CLFX_CREATE (shared, error, fail, "device all (one context)",
                 clCreateContext, NULL, (cl_uint) m, ids, NULL, NULL);
  free (ids);
  return shared;
fail:
  free (ids);
  *failed = true;
  return NULL;
}

ClfxContext *
clfx_run_context_new (const char *device, ClfxDeviceInfo *selected,
                      ClfxError *error)
{
  ClfxDeviceList         list;
  ClfxTuning             tuning;
  char                   note[sizeof ((ClfxContext *) 0)->tuning_note];
  const ClfxDeviceInfo **picked;
  int                    n = 0;
  ClfxContext           *ctx = NULL;

  if (selected)
    memset (selected, 0, sizeof *selected);
  if (! device || ! *device)
    device = "auto";
  if (! clfx_device_list (&list, error))
    return NULL;
  if (! (picked = calloc (list.n_devices + 1, sizeof *picked)))
    {
      clfx_device_list_free (&list);
      clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
      return NULL;
    }
  if (! strcmp (device, "all"))
    {
      if (! (n = all_devices (&list, picked)))
        clfx_error_set (error, CLFX_ERR_NO_DEVICE,
                        "device all: no usable OpenCL device%s%s",
                        list.notes[0] ? ": " : "", list.notes);
    }
  else if (clfx_device_select (&list, device, &picked[0], error))
    n = picked[0] ? 1 : 0;
  if (n > 0)
    {
      bool       failed;
      cl_context shared;

      /* Read once for every context of device all. */
      clfx_tuning_read (&tuning, note, sizeof note);
      shared = shared_context (picked, n, &tuning, &failed, error);

      if (selected)
        *selected = *picked[0];
      ctx = failed ? NULL
                   : clfx_context_new_tuned (picked[0], shared, &tuning,
                                             note, error);
      if (ctx && n > 1
          && ! (ctx->peers = calloc ((size_t) n - 1, sizeof *ctx->peers)))
        {
          clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
          clfx_context_free (ctx);
          ctx = NULL;
        }
      for (int i = 1; ctx && i < n; i++)
        {
          bool in = shared && picked[i]->platform == picked[0]->platform;
          ClfxContext *peer
            = clfx_context_new_tuned (picked[i], in ? shared : NULL,
                                      &tuning, note, error);
          if (! peer)
            {
              clfx_context_free (ctx);
              ctx = NULL;
              break;
            }
          ctx->peers[ctx->n_peers++] = peer;
        }
      /* The contexts made in it hold their own references. */
      if (shared)
        clReleaseContext (shared);
    }
  free (picked);
  clfx_device_list_free (&list);
  return ctx;
}

/* The OpenCL attempt; false with *error set when it failed. */
static bool
try_opencl (const ClfxParams *p, const ClfxImage *src, ClfxImage *dst,
            const ClfxRunOptions *opt, const ClfxStats *stats,
            ClfxRunResult *r, ClfxError *error)
{
  ClfxContext *ctx = opt->context ? *opt->context : NULL;
  bool         ok;

  if (ctx)
    r->device = ctx->device;
  else
    ctx = clfx_run_context_new (opt->device, &r->device, error);
  if (! ctx)
    return false;
  r->n_devices = 1 + ctx->n_peers;
  snprintf (r->notes, sizeof r->notes, "%s", ctx->tuning_note);
  ctx->guard_bytes = opt->guard_bytes;
  ok = run_on_context (ctx, p, src, dst, opt, stats, &r->over_source,
                       &r->timings, &r->probes, &r->plan, error);
  if (! clfx_run_take_builds (ctx, r) && ok)
    ok = clfx_error_set (error, CLFX_ERR_NOMEM,
                         "out of memory for the build records");
  if (ok)
    r->path = CLFX_PATH_OPENCL;
  if (opt->context && ok)
    *opt->context = ctx; /* for the next run */
  else
    {
      /* A context an operation failed on is not trusted again. */
      if (opt->context)
        *opt->context = NULL;
      clfx_context_free (ctx);
    }
  return ok;
}

bool
clfx_reference_into (const ClfxParams *p, const ClfxImage *src,
                     ClfxImage *dst, ClfxError *error)
{
  ClfxPlan   plan;
  ClfxProbes probes = { 0 };
  bool       ok;

  if (! clfx_plan_make (p, src, &plan, error))
    return false;
  ok = dst->width == plan.width && dst->height == plan.height;
  if (! ok)
    clfx_error_set (error, CLFX_ERR_INVALID, "the result image is %dx%d, the "
                    "variant makes %dx%d", dst->width, dst->height,
                    plan.width, plan.height);
  ok = ok && clfx_params_variant (p)->run_cpu (p, &plan, src, dst, &probes,
                                               error);
  clfx_probes_clear (&probes);
  clfx_plan_clear (&plan);
  return ok;
}

static bool
run_reference (const ClfxParams *p, const ClfxImage *src, ClfxImage *dst,
               const ClfxStats *stats, ClfxRunResult *r, ClfxError *error)
{
  double t0 = clfx_now_ms ();

  clfx_plan_clear (&r->plan);
  if (! plan_for (p, src, stats, &r->plan, error)
      || ! clfx_params_variant (p)->run_cpu (p, &r->plan, src, dst,
                                             &r->probes, error))
    return false;
  r->timings.total_ms = clfx_now_ms () - t0;
  r->timings.reference_ms = r->timings.total_ms;
  return true;
}

/* clfx_run_check with the given statistics, which the variant may
 * refuse. */
static bool
run_check (const ClfxParams *p, const ClfxImage *src, const ClfxStats *stats,
           int *width, int *height, ClfxError *error)
{
  ClfxPlan plan;

  if (! plan_for (p, src, stats, &plan, error))
    return false;
  *width = plan.width;
  *height = plan.height;
  clfx_plan_clear (&plan);
  return true;
}

/* The whole-image statistics the run used, from the path's probes. */
static void
take_stats_of (const ClfxParams *p, ClfxRunResult *r, bool device)
{
  const ClfxVariant *v = clfx_params_variant (p);

  r->has_stats = v->stats_of
                 && v->stats_of (&r->plan, &r->probes, device, &r->stats);
}

/* The context whose pinned memory a result made before the run takes. */
static ClfxContext *
pinned_for (const ClfxRunOptions *opt)
{
  return opt->pinned_result && opt->context ? *opt->context : NULL;
}

bool
clfx_run (const ClfxParams *p, const ClfxImage *src, ClfxImage *dst,
          const ClfxRunOptions *opt, ClfxRunResult *r, ClfxError *error)
{
  return clfx_run_with_stats (p, src, dst, opt, NULL, r, error);
}

bool
clfx_run_with_stats (const ClfxParams *p, const ClfxImage *src,
                     ClfxImage *dst, const ClfxRunOptions *opt,
                     const ClfxStats *stats, ClfxRunResult *r,
                     ClfxError *error)
{
  const char *device = opt->device && *opt->device ? opt->device : "auto";
  bool        is_auto = strcmp (device, "auto") == 0;
  bool        over = opt->src_scratch && ! opt->validate
                     && ! clfx_device_is_reference (device);
  int         dw, dh;
  ClfxError   cl_error = { 0 };

  memset (r, 0, sizeof *r);
  memset (dst, 0, sizeof *dst);
  /* Argument errors are the caller's, whatever the device: no fallback.
   * A run that may go over its source makes its result once it knows. */
  if (! run_check (p, src, stats, &dw, &dh, error)
      || (! over
          && ! alloc_result (pinned_for (opt), src, dst, dw, dh, error)))
    return false;

  if (clfx_device_is_reference (device))
    r->path = CLFX_PATH_REFERENCE;
  else if (try_opencl (p, src, dst, opt, stats, r, &cl_error))
    {
      if (opt->validate && ! clfx_run_validate (p, src, dst, r, error))
        {
          clfx_host_image_free (dst);
          return false;
        }
      take_stats_of (p, r, true);
      return true;
    }
  else if (! is_auto || cl_error.code == CLFX_ERR_INVALID
           || cl_error.code == CLFX_ERR_GUARD || r->over_source)
    {
      /* After a run over the source, the source is no longer the
       * caller's input: no fallback on it (the caller reads it again). */
      *error = cl_error;
      clfx_host_image_free (dst);
      return false;
    }
  else
    {
      r->path = CLFX_PATH_FALLBACK;
      clfx_timings_clear (&r->timings);
      clfx_probes_clear (&r->probes);
      snprintf (r->fallback, sizeof r->fallback,
                "OpenCL failed, the CPU reference path ran instead: %s",
                cl_error.message);
    }
  /* The reference validated against itself says nothing: no validation. */
  if ((! dst->data
       && ! alloc_result (pinned_for (opt), src, dst, dw, dh, error))
      || ! run_reference (p, src, dst, stats, r, error))
    {
      clfx_host_image_free (dst);
      return false;
    }
  take_stats_of (p, r, false);
  return true;
}

bool
clfx_run_build_ahead (const ClfxParams *p, const ClfxImage *layout,
                      const ClfxRunOptions *opt, ClfxRunResult *result,
                      ClfxError *error)
{
  ClfxImage src = { 0 }, dst = { 0 };
  bool      ok;

  memset (result, 0, sizeof *result);
  /* Large enough for every variant's smallest piece, small enough to run
   * in no time once built. */
  if (! clfx_host_image_alloc (&src, 64, 48, layout->channels, layout->depth,
                               error))
    return false;
  src.straight_alpha = layout->straight_alpha;
  src.transfer = layout->transfer;
  clfx_host_image_synthetic (&src, 1);
  ok = clfx_run (p, &src, &dst, opt, result, error);
  clfx_host_image_free (&dst);
  clfx_host_image_free (&src);
  return ok;
}

/* ---- the report -------------------------------------------------------------- */

static const char *
format_name (const ClfxImage *img)
{
  static const char *names[3][CLFX_N_DEPTHS] = {
    { "Y u8", "Y u16", "Y half", "Y float" },
    { "YA u8", "YA u16", "YA half", "YA float" },
    { "RGBA u8", "RGBA u16", "RGBA half", "RGBA float" },
  };
  int row = img->channels == 1 ? 0 : img->channels == 2 ? 1 : 2;
  return img->depth < CLFX_N_DEPTHS ? names[row][img->depth] : "?";
}

static void
report_device (ClfxJson *j, const ClfxRunResult *r)
{
  const ClfxDeviceInfo *d = &r->device;

  clfx_json_begin_object (j, "device");
  if (r->path == CLFX_PATH_OPENCL)
    {
      clfx_json_string (j, "platform", d->platform_name);
      clfx_json_string (j, "name", d->name);
      clfx_json_string (j, "version", d->version);
      clfx_json_string (j, "driver", d->driver);
      clfx_json_bool (j, "image_support", d->image_support);
      clfx_json_string (j, "type", d->type);
      clfx_json_int (j, "compute_units", d->compute_units);
      clfx_json_int (j, "count", r->n_devices);
    }
  else
    {
      /* Also after a fallback: the device block names what made the
       * pixels; the device that failed is named in "fallback". */
      clfx_json_string (j, "platform", "CPU reference");
      clfx_json_string (j, "name", "clfx CPU reference path");
      clfx_json_string (j, "version", "");
      clfx_json_string (j, "driver", "");
      clfx_json_bool (j, "image_support", false);
    }
  clfx_json_end_object (j);
}

static void
report_params (ClfxJson *j, const ClfxParams *p, const ClfxRunOptions *opt,
               const char *const *extra)
{
  const ClfxFamily *f = p->family;

  clfx_json_begin_object (j, "parameters");
  for (int i = 0; i < f->n_params; i++)
    {
      const ClfxParamSpec *s = &f->params[i];
      if (s->plugin_only)
        continue; /* the plug-in adds its own (extra) */
      switch (s->type)
        {
        case CLFX_PARAM_INT:
          clfx_json_int (j, s->name, clfx_param_get_int (p, s));
          break;
        case CLFX_PARAM_DOUBLE:
          clfx_json_number (j, s->name, clfx_param_get_double (p, s));
          break;
        case CLFX_PARAM_BOOL:
          clfx_json_bool (j, s->name, clfx_param_get_bool (p, s));
          break;
        case CLFX_PARAM_CHOICE:
          clfx_json_string (j, s->name, clfx_param_get_nick (p, s));
          break;
        case CLFX_PARAM_STRING:
          clfx_json_string (j, s->name, clfx_param_get_string (p, s));
          break;
        }
    }
  clfx_json_string (j, "device", opt->device ? opt->device : "auto");
  clfx_json_bool (j, "validate", opt->validate);
  for (int i = 0; extra && extra[i] && extra[i + 1]; i += 2)
    clfx_json_string (j, extra[i], extra[i + 1]);
  clfx_json_end_object (j);
}

static void
report_image (ClfxJson *j, const ClfxImage *src)
{
  clfx_json_begin_object (j, "image");
  clfx_json_int (j, "width", src->width);
  clfx_json_int (j, "height", src->height);
  clfx_json_string (j, "format", format_name (src));
  /* How colour is encoded; sRGB is decoded to linear light wherever the
   * variant mixes pixels. */
  clfx_json_string (j, "transfer", clfx_transfer_name (src->transfer));
  clfx_json_bool (j, "straight_alpha", src->straight_alpha);
  clfx_json_end_object (j);
}

static void
report_builds (ClfxJson *j, const ClfxRunResult *r)
{
  clfx_json_begin_array (j, "build");
  for (int i = 0; i < r->n_builds; i++)
    {
      const ClfxBuildRecord *b = &r->builds[i];
      clfx_json_begin_object (j, NULL);
      clfx_json_string (j, "program", b->program);
      clfx_json_string (j, "options", b->options);
      clfx_json_string (j, "status", b->ok ? "success" : "error");
      clfx_json_string (j, "cache", b->cache);
      if (b->cache_note[0])
        clfx_json_string (j, "cache_note", b->cache_note);
      clfx_json_number (j, "ms", b->ms);
      clfx_json_string (j, "log", b->log);
      clfx_json_end_object (j);
    }
  clfx_json_end_array (j);
}

static void
report_execution (ClfxJson *j, const ClfxRunResult *r)
{
  const ClfxTimings *t = &r->timings;

  /* How the pixels reached the device: "staged" through pinned memory,
   * "pinned" straight from and into the caller's pinned images,
   * "zero-copy" where the device works in host memory, "host" for the
   * CPU path. */
  clfx_json_string (j, "data_path",
                    r->path != CLFX_PATH_OPENCL ? "host"
                    : t->zero_copy             ? "zero-copy"
                    : t->pinned                ? "pinned"
                                               : "staged");
  clfx_json_begin_object (j, "execution");
  clfx_json_string (j, "mode", r->path != CLFX_PATH_OPENCL ? "host"
                               : t->tiled                  ? "tiles"
                                                           : "bands");
  clfx_json_int (j, "pieces", t->pieces);
  clfx_json_int (j, "devices", r->path == CLFX_PATH_OPENCL ? t->devices : 0);
  clfx_json_string (j, "sampler", t->sampler ? "hardware" : "kernel");
  /* The result made in the source's own memory (src_scratch). */
  clfx_json_bool (j, "over_source", r->over_source);
  if (r->notes[0])
    clfx_json_string (j, "notes", r->notes);
  clfx_json_end_object (j);
}

static void
report_timings (ClfxJson *j, const ClfxTimings *t)
{
  clfx_json_begin_object (j, "timings_ms");
  clfx_json_number (j, "upload", t->upload_ms);
  clfx_json_number (j, "download", t->download_ms);
  clfx_json_number (j, "staging", t->stage_ms);
  clfx_json_number (j, "total", t->total_ms);
  if (t->reference_ms > 0)
    clfx_json_number (j, "reference", t->reference_ms);
  else
    clfx_json_null (j, "reference");
  clfx_json_begin_array (j, "kernels");
  for (int i = 0; i < t->n_kernels; i++)
    {
      clfx_json_begin_object (j, NULL);
      clfx_json_string (j, "name", t->kernels[i].name);
      clfx_json_number (j, "ms", t->kernels[i].ms);
      clfx_json_int (j, "launches", t->kernels[i].launches);
      clfx_json_end_object (j);
    }
  clfx_json_end_array (j);
  clfx_json_end_object (j);
}

/* The whole-image statistics the run used (null where the variant has
 * none): "given" where they came from outside (clfx_run_with_stats). */
static void
report_stats (ClfxJson *j, const ClfxRunResult *r)
{
  const ClfxStats *s = &r->stats;

  if (! r->has_stats)
    {
      clfx_json_null (j, "statistics");
      return;
    }
  clfx_json_begin_object (j, "statistics");
  clfx_json_bool (j, "given", r->plan.given_stats);
  clfx_json_number (j, "pixels", s->n);
  if (s->has_scan)
    {
      clfx_json_begin_array (j, "cleaned");
      for (int k = 0; k < 4; k++)
        clfx_json_number (j, NULL, s->counts[k]);
      clfx_json_end_array (j);
      clfx_json_number (j, "largest", s->largest);
    }
  if (s->has_sums)
    {
      clfx_json_number (j, "sum_y", s->sum_y);
      clfx_json_number (j, "sum_log_y", s->sum_log);
      clfx_json_begin_array (j, "sums_rgb");
      for (int k = 0; k < 3; k++)
        clfx_json_number (j, NULL, s->sum_c[k]);
      clfx_json_end_array (j);
      clfx_json_number (j, "min_y", s->min_y);
      clfx_json_number (j, "max_y", s->max_y);
    }
  if (s->has_range)
    {
      clfx_json_begin_array (j, "range");
      clfx_json_number (j, NULL, s->range[0]);
      clfx_json_number (j, NULL, s->range[1]);
      clfx_json_end_array (j);
    }
  clfx_json_end_object (j);
}

static void
report_probe (ClfxJson *j, const ClfxProbe *pr)
{
  clfx_json_begin_object (j, NULL);
  clfx_json_string (j, "name", pr->name);
  clfx_json_int (j, "values", pr->n_reference);
  /* Short probes (a scalar, a few statistics) are shown whole. */
  if (pr->n_device <= 16 && pr->device)
    {
      clfx_json_begin_array (j, "device");
      for (int i = 0; i < pr->n_device; i++)
        clfx_json_number (j, NULL, pr->device[i]);
      clfx_json_end_array (j);
    }
  if (pr->n_reference <= 16 && pr->reference)
    {
      clfx_json_begin_array (j, "reference");
      for (int i = 0; i < pr->n_reference; i++)
        clfx_json_number (j, NULL, pr->reference[i]);
      clfx_json_end_array (j);
    }
  clfx_json_int (j, "mismatches", (long long) pr->mismatches);
  clfx_json_number (j, "max_abs", pr->max_abs);
  clfx_json_int (j, "worst", pr->worst);
  clfx_json_number (j, "abs_tol", pr->abs_tol);
  clfx_json_number (j, "rel_tol", pr->rel_tol);
  clfx_json_string (j, "tolerance_basis", pr->basis);
  clfx_json_bool (j, "passed", pr->passed);
  clfx_json_end_object (j);
}

static void
report_validation (ClfxJson *j, const ClfxRunResult *r)
{
  const ClfxValidation *v = &r->validation;

  if (! r->validated)
    {
      clfx_json_null (j, "validation");
      return;
    }
  clfx_json_begin_object (j, "validation");
  clfx_json_int (j, "pixels", (long long) v->pixels);
  clfx_json_int (j, "mismatches", (long long) v->mismatches);
  clfx_json_int (j, "ambiguous", (long long) v->ambiguous);
  clfx_json_int (j, "nan", (long long) v->nan);
  clfx_json_int (j, "inf", (long long) v->inf);
  clfx_json_number (j, "max_abs", v->max_abs);
  clfx_json_number (j, "max_rel", v->max_rel);
  clfx_json_number (j, "rmse", v->rmse);
  clfx_json_number (j, "psnr_db", v->psnr_db);
  clfx_json_begin_object (j, "worst");
  clfx_json_int (j, "x", v->worst.x);
  clfx_json_int (j, "y", v->worst.y);
  clfx_json_int (j, "channel", v->worst.channel);
  clfx_json_number (j, "expected", v->worst.expected);
  clfx_json_number (j, "actual", v->worst.actual);
  clfx_json_number (j, "tol", v->worst.tol);
  clfx_json_end_object (j);
  clfx_json_number (j, "abs_tol", v->abs_tol);
  clfx_json_number (j, "rel_tol", v->rel_tol);
  /* The absolute bound per pixel lies between these two. */
  clfx_json_bool (j, "per_pixel", v->per_pixel);
  clfx_json_number (j, "abs_tol_min", v->abs_tol_min);
  clfx_json_string (j, "tolerance_basis", r->tolerance.basis);
  clfx_json_begin_array (j, "probes");
  for (int i = 0; i < r->probes.n; i++)
    report_probe (j, &r->probes.probes[i]);
  clfx_json_end_array (j);
  clfx_json_bool (j, "passed", v->passed);
  /* Whose result the caller got: the device's, or after a failure the
   * reference's (ClfxRunOptions.keep_reference). */
  clfx_json_string (j, "result", r->reference_kept ? "reference" : "device");
  clfx_json_end_object (j);
}

char *
clfx_report_json (const ClfxParams *p, const ClfxImage *src,
                  const ClfxRunOptions *opt, const ClfxRunResult *r,
                  const char *const *extra)
{
  ClfxJson j;

  clfx_json_init (&j);
  clfx_json_begin_object (&j, NULL);
  clfx_json_string (&j, "operation", p->family->name);
  clfx_json_string (&j, "variant", clfx_run_variant_name (p));
  report_device (&j, r);
  report_execution (&j, r);
  if (r->fallback[0])
    clfx_json_string (&j, "fallback", r->fallback);
  else
    clfx_json_null (&j, "fallback");
  report_params (&j, p, opt, extra);
  report_image (&j, src);
  report_builds (&j, r);
  report_timings (&j, &r->timings);
  report_stats (&j, r);
  report_validation (&j, r);
  clfx_json_end_object (&j);
  return clfx_json_take (&j);
}

/* The reference's rows over dst's: their strides may differ (dst may be
 * in pinned memory). */
bool
clfx_run_keep_reference (ClfxRunResult *r, ClfxImage *dst)
{
  const ClfxImage *ref = &r->reference;
  size_t           row = (size_t) dst->width * clfx_image_pixel_size (dst);
  char             why[900];

  if (! r->validated || r->validation.passed || r->reference_kept
      || ! ref->data || ! dst->data || ref->width != dst->width
      || ref->height != dst->height || ref->channels != dst->channels
      || ref->depth != dst->depth)
    return false;
  for (int y = 0; y < dst->height; y++)
    memcpy ((unsigned char *) dst->data + (size_t) y * dst->stride,
            (const unsigned char *) ref->data + (size_t) y * ref->stride,
            row);
  r->reference_kept = true;
  snprintf (r->fallback, sizeof r->fallback, "the device's result failed "
            "validation (%s); the CPU reference's result was kept",
            clfx_run_result_failure (r, why, sizeof why));
  return true;
}

const char *
clfx_run_result_failure (const ClfxRunResult *r, char *buf, size_t n)
{
  const ClfxValidation *v = &r->validation;
  size_t                len = 0;

  if (n)
    buf[0] = '\0';
  if (! r->validated || v->passed || n == 0)
    return buf;
  if (v->mismatches)
    len += (size_t) snprintf (buf, n, "%zu of %zu values beyond the "
                              "tolerance (the worst at %d,%d channel %d: "
                              "%g where the reference has %g, the bound "
                              "there %g)", v->mismatches, v->samples,
                              v->worst.x, v->worst.y, v->worst.channel,
                              v->worst.actual, v->worst.expected,
                              v->worst.tol);
  for (int i = 0; i < r->probes.n && len < n; i++)
    {
      const ClfxProbe *p = &r->probes.probes[i];
      int              k = p->worst;

      if (p->passed)
        continue;
      if (p->device && p->reference && k >= 0 && k < p->n_device
          && k < p->n_reference)
        len += (size_t) snprintf (buf + len, n - len, "%sthe %s probe: %g "
                                  "where the reference has %g (value %d of "
                                  "%d, %zu beyond the tolerance)",
                                  len ? "; " : "", p->name, p->device[k],
                                  p->reference[k], k, p->n_device,
                                  p->mismatches);
      else
        len += (size_t) snprintf (buf + len, n - len, "%sthe %s probe: %d "
                                  "values on the device, %d in the "
                                  "reference", len ? "; " : "", p->name,
                                  p->n_device, p->n_reference);
    }
  if (! buf[0])
    snprintf (buf, n, "validation failed");
  return buf;
}
