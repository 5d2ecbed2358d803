/* clfx-run.c: device choice, fallback, validation and the report. */
#define _POSIX_C_SOURCE 200809L
#include "clfx-run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clfx-json.h"

void
clfx_run_result_clear (ClfxRunResult *r)
{
  for (int i = 0; i < r->n_builds; i++)
    free (r->builds[i].log);
  memset (r, 0, sizeof *r);
}

void
clfx_run_take_builds (ClfxContext *ctx, ClfxRunResult *r)
{
  for (int i = 0; i < r->n_builds; i++)
    free (r->builds[i].log);
  r->n_builds = 0;
  for (int i = 0; i < ctx->n_used && r->n_builds < 8; i++)
    {
      ClfxBuildRecord *b = &r->builds[r->n_builds++];
      *b = ctx->programs[ctx->used[i]].record;
      b->log = strdup (b->log ? b->log : "");
    }
}

bool
clfx_run_on_context (ClfxContext *ctx, const ClfxOpInfo *op,
                     const ClfxParams *p, const ClfxImage *src,
                     ClfxImage *dst, ClfxTimings *t, ClfxError *error)
{
  double t0 = clfx_now_ms ();
  bool   ok;

  memset (t, 0, sizeof *t);
  dst->straight_alpha = src->straight_alpha;
  clfx_context_begin (ctx);
  ok = op->run_cl (ctx, src, dst, p, error);
  /* Finish even after a failure: it waits for queued work and releases
   * the events. */
  ok = clfx_context_finish (ctx, ok ? t : NULL, ok ? error : NULL) && ok;
  t->total_ms = clfx_now_ms () - t0;
  t->upload_bytes = (size_t) src->width * (size_t) src->height
                    * clfx_image_pixel_size (src);
  t->download_bytes = (size_t) dst->width * (size_t) dst->height
                      * clfx_image_pixel_size (dst);
  return ok;
}

bool
clfx_run_validate (const ClfxOpInfo *op, const ClfxParams *p,
                   const ClfxImage *src, const ClfxImage *dst,
                   ClfxRunResult *r, ClfxError *error)
{
  ClfxImage ref = { 0 }, lo = { 0 }, hi = { 0 };
  double    t0;
  bool      ok = false;

  if (! clfx_host_image_alloc (&ref, dst->width, dst->height, dst->channels,
                               dst->depth, error))
    return false;
  ref.straight_alpha = dst->straight_alpha;
  t0 = clfx_now_ms ();
  if (! op->run_cpu (src, &ref, p, error))
    goto out;
  r->timings.reference_ms = clfx_now_ms () - t0;
  op->tolerance (r->have_device ? &r->device : NULL, src, dst, p,
                 &r->tolerance);
  if (dst->straight_alpha && dst->channels > 1)
    {
      size_t n = strlen (r->tolerance.basis);
      snprintf (r->tolerance.basis + n, sizeof r->tolerance.basis - n,
                "; colour compared multiplied by alpha (straight alpha)");
    }
  if (op->run_cpu_bounds)
    {
      if (! clfx_host_image_alloc (&lo, dst->width, dst->height,
                                   dst->channels, dst->depth, error)
          || ! clfx_host_image_alloc (&hi, dst->width, dst->height,
                                      dst->channels, dst->depth, error)
          || ! op->run_cpu_bounds (src, &ref, &lo, &hi, p, error))
        goto out;
      lo.straight_alpha = hi.straight_alpha = dst->straight_alpha;
    }
  clfx_validate_bounded (&ref, lo.data ? &lo : NULL, hi.data ? &hi : NULL,
                         dst, r->tolerance.abs_tol, r->tolerance.rel_tol,
                         &r->validation);
  r->validated = true;
  ok = true;
out:
  clfx_host_image_free (&ref);
  clfx_host_image_free (&lo);
  clfx_host_image_free (&hi);
  return ok;
}

ClfxContext *
clfx_run_context_new (const char *device, ClfxDeviceInfo *selected,
                      ClfxError *error)
{
  ClfxDeviceList        list;
  const ClfxDeviceInfo *dev = NULL;
  ClfxContext          *ctx = NULL;

  if (selected)
    memset (selected, 0, sizeof *selected);
  if (! device || ! *device)
    device = "auto";
  if (! clfx_device_list (&list, error))
    return NULL;
  if (clfx_device_select (&list, device, &dev, error))
    {
      if (selected)
        *selected = *dev;
      ctx = clfx_context_new (dev, error);
    }
  clfx_device_list_free (&list);
  return ctx;
}

/* The OpenCL attempt; false with *error set when it failed. */
static bool
try_opencl (const ClfxOpInfo *op, const ClfxParams *p, const ClfxImage *src,
            ClfxImage *dst, const ClfxRunOptions *opt, ClfxRunResult *r,
            ClfxError *error)
{
  ClfxContext *ctx = opt->context ? *opt->context : NULL;
  bool         ok;

  if (ctx)
    r->device = ctx->device;
  else
    ctx = clfx_run_context_new (opt->device, &r->device, error);
  r->have_device = r->device.name[0] != '\0';
  if (! ctx)
    return false;
  ctx->guard_bytes = opt->guard_bytes;
  ok = clfx_run_on_context (ctx, op, p, src, dst, &r->timings, error);
  clfx_run_take_builds (ctx, r);
  r->ran_opencl = ok;
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
clfx_run (const ClfxOpInfo *op, const ClfxParams *p, const ClfxImage *src,
          ClfxImage *dst, const ClfxRunOptions *opt, ClfxRunResult *r,
          ClfxError *error)
{
  const char *device = opt->device && *opt->device ? opt->device : "auto";
  bool        is_auto = strcmp (device, "auto") == 0;
  int         dw, dh;
  ClfxError   cl_error = { 0 };

  memset (r, 0, sizeof *r);
  memset (dst, 0, sizeof *dst);
  /* Argument errors are the caller's, whatever the device: no fallback. */
  if (! op->prepare (p, src, &dw, &dh, error)
      || ! clfx_host_image_alloc (dst, dw, dh, src->channels, src->depth,
                                  error))
    return false;
  dst->straight_alpha = src->straight_alpha;

  if (! clfx_device_is_reference (device))
    {
      if (try_opencl (op, p, src, dst, opt, r, &cl_error))
        goto validate;
      if (! is_auto || cl_error.code == CLFX_ERR_INVALID
          || cl_error.code == CLFX_ERR_GUARD)
        {
          *error = cl_error;
          clfx_host_image_free (dst);
          return false;
        }
      snprintf (r->fallback, sizeof r->fallback,
                "OpenCL failed, the CPU reference path ran instead: %s",
                cl_error.message);
    }

  {
    double t0 = clfx_now_ms ();
    if (! op->run_cpu (src, dst, p, error))
      {
        clfx_host_image_free (dst);
        return false;
      }
    r->timings.total_ms = clfx_now_ms () - t0;
    r->timings.reference_ms = r->timings.total_ms;
    return true; /* the reference validated against itself says nothing */
  }

validate:
  if (opt->validate && ! clfx_run_validate (op, p, src, dst, r, error))
    {
      clfx_host_image_free (dst);
      return false;
    }
  return true;
}

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
report_params (ClfxJson *j, const ClfxOpInfo *op, const ClfxParams *p,
               const ClfxRunOptions *opt, const char *const *extra)
{
  clfx_json_begin_object (j, "parameters");
  for (int i = 0; i < op->n_params; i++)
    {
      const ClfxParamSpec *s = &op->params[i];
      switch (s->type)
        {
        case CLFX_PARAM_INT:
          clfx_json_int (j, s->name, p->v[i].i);
          break;
        case CLFX_PARAM_DOUBLE:
          clfx_json_number (j, s->name, p->v[i].d);
          break;
        case CLFX_PARAM_BOOL:
          clfx_json_bool (j, s->name, p->v[i].b);
          break;
        case CLFX_PARAM_CHOICE:
          clfx_json_string (j, s->name, s->choices[p->v[i].i].nick);
          break;
        case CLFX_PARAM_STRING:
          clfx_json_string (j, s->name, p->v[i].s);
          break;
        }
    }
  clfx_json_string (j, "device", opt->device ? opt->device : "auto");
  clfx_json_bool (j, "validate", opt->validate);
  for (int i = 0; extra && extra[i] && extra[i + 1]; i += 2)
    clfx_json_string (j, extra[i], extra[i + 1]);
  clfx_json_end_object (j);
}

char *
clfx_report_json (const ClfxOpInfo *op, const ClfxParams *p,
                  const ClfxImage *src, const ClfxRunOptions *opt,
                  const ClfxRunResult *r, const char *const *extra)
{
  ClfxJson          j;
  const ClfxTimings *t = &r->timings;

  clfx_json_init (&j);
  clfx_json_begin_object (&j, NULL);
  clfx_json_string (&j, "operation", op->name);
  clfx_json_string (&j, "variant", op->variant (p));

  if (r->have_device && r->ran_opencl)
    {
      const ClfxDeviceInfo *d = &r->device;
      clfx_json_begin_object (&j, "device");
      clfx_json_string (&j, "platform", d->platform_name);
      clfx_json_string (&j, "name", d->name);
      clfx_json_string (&j, "version", d->version);
      clfx_json_string (&j, "driver", d->driver);
      clfx_json_bool (&j, "image_support", d->image_support);
      clfx_json_string (&j, "type", d->type);
      clfx_json_int (&j, "compute_units", d->compute_units);
      clfx_json_end_object (&j);
    }
  else
    {
      clfx_json_begin_object (&j, "device");
      clfx_json_string (&j, "platform", "CPU reference");
      /* Also after a fallback: the device block names what made the
       * pixels; the device that failed is named in "fallback". */
      clfx_json_string (&j, "name", "clfx CPU reference path");
      clfx_json_string (&j, "version", "");
      clfx_json_string (&j, "driver", "");
      clfx_json_bool (&j, "image_support", false);
      clfx_json_end_object (&j);
    }
  /* How the pixels reached the device: "staged" through pinned memory,
   * "zero-copy" where the device works in host memory, "host" for the
   * CPU path. */
  clfx_json_string (&j, "data_path",
                    ! (r->have_device && r->ran_opencl) ? "host"
                    : t->zero_copy                     ? "zero-copy"
                                                       : "staged");
  if (r->fallback[0])
    clfx_json_string (&j, "fallback", r->fallback);
  else
    clfx_json_null (&j, "fallback");
  report_params (&j, op, p, opt, extra);

  clfx_json_begin_object (&j, "image");
  clfx_json_int (&j, "width", src->width);
  clfx_json_int (&j, "height", src->height);
  clfx_json_string (&j, "format", format_name (src));
  clfx_json_end_object (&j);

  clfx_json_begin_array (&j, "build");
  for (int i = 0; i < r->n_builds; i++)
    {
      const ClfxBuildRecord *b = &r->builds[i];
      clfx_json_begin_object (&j, NULL);
      clfx_json_string (&j, "program", b->program);
      clfx_json_string (&j, "options", b->options);
      clfx_json_string (&j, "status", b->ok ? "success" : "error");
      clfx_json_string (&j, "cache", b->cache);
      if (b->cache_note[0])
        clfx_json_string (&j, "cache_note", b->cache_note);
      clfx_json_number (&j, "ms", b->ms);
      clfx_json_string (&j, "log", b->log);
      clfx_json_end_object (&j);
    }
  clfx_json_end_array (&j);

  clfx_json_begin_object (&j, "timings_ms");
  clfx_json_number (&j, "upload", t->upload_ms);
  clfx_json_number (&j, "download", t->download_ms);
  clfx_json_number (&j, "staging", t->stage_ms);
  clfx_json_number (&j, "total", t->total_ms);
  if (t->reference_ms > 0)
    clfx_json_number (&j, "reference", t->reference_ms);
  else
    clfx_json_null (&j, "reference");
  clfx_json_begin_array (&j, "kernels");
  for (int i = 0; i < t->n_kernels; i++)
    {
      clfx_json_begin_object (&j, NULL);
      clfx_json_string (&j, "name", t->kernels[i].name);
      clfx_json_number (&j, "ms", t->kernels[i].ms);
      clfx_json_end_object (&j);
    }
  clfx_json_end_array (&j);
  clfx_json_end_object (&j);

  if (r->validated)
    {
      const ClfxValidation *v = &r->validation;
      clfx_json_begin_object (&j, "validation");
      clfx_json_int (&j, "pixels", (long long) v->pixels);
      clfx_json_int (&j, "mismatches", (long long) v->mismatches);
      clfx_json_int (&j, "ambiguous", (long long) v->ambiguous);
      clfx_json_int (&j, "nan", (long long) v->nan);
      clfx_json_int (&j, "inf", (long long) v->inf);
      clfx_json_number (&j, "max_abs", v->max_abs);
      clfx_json_number (&j, "max_rel", v->max_rel);
      clfx_json_number (&j, "rmse", v->rmse);
      clfx_json_number (&j, "psnr_db", v->psnr_db);
      clfx_json_begin_object (&j, "worst");
      clfx_json_int (&j, "x", v->worst.x);
      clfx_json_int (&j, "y", v->worst.y);
      clfx_json_int (&j, "channel", v->worst.channel);
      clfx_json_number (&j, "expected", v->worst.expected);
      clfx_json_number (&j, "actual", v->worst.actual);
      clfx_json_end_object (&j);
      clfx_json_number (&j, "abs_tol", v->abs_tol);
      clfx_json_number (&j, "rel_tol", v->rel_tol);
      clfx_json_string (&j, "tolerance_basis", r->tolerance.basis);
      clfx_json_bool (&j, "passed", v->passed);
      clfx_json_end_object (&j);
    }
  else
    clfx_json_null (&j, "validation");
  clfx_json_end_object (&j);
  return clfx_json_take (&j);
}
