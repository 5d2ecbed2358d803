/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-bench: run, validate and time any clfx family on any OpenCL device,
 * without GIMP.  Prints a table (median, min, max over the repeats), the
 * kernels' bytes per second beside the copy kernel's on the same device and
 * input, and the transfer rates beside a raw pinned-memory copy. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "clfx-context.h"
#include "clfx-imageio.h"
#include "clfx-json.h"
#include "clfx-run.h"

#define MAX_REPEAT 1000

typedef struct
{
  const char *device;
  int         repeat, warmup;
  bool        validate, roofline, list, straight, opaque, pinned, timeline;
  bool        keep_reference;
  const char *report, *input, *output, *synthetic, *transfer;
  int         channels;
  size_t      guard;
} Options;

static void
usage (FILE *f)
{
  fprintf (f,
    "usage: clfx-bench --list-devices\n"
    "       clfx-bench [--device D] [--repeat N] [--warmup N] [--validate]\n"
    "                  [--keep-reference]\n"
    "                  [--report FILE] [--guard BYTES] [--no-roofline]\n"
    "                  [--pinned] [--timeline]\n"
    "                  (--input FILE | --synthetic WxH[:u8|u16|half|float])\n"
    "                  [--channels 1|2|4] [--straight-alpha] [--opaque]\n"
    "                  [--transfer srgb|linear]\n"
    "                  [--output FILE] FAMILY [OPTIONS]\n"
    "D: auto, all (every GPU, else every CPU device), reference (CPU path),\n"
    "a number (the index --list-devices prints) or part of a\n"
    "platform/vendor/device name.\n"
    "--straight-alpha: the synthetic image's alpha is straight, as in GIMP\n"
    "and PNG files (always so for a PNG with alpha): filters weigh colour\n"
    "by it.  --opaque: the synthetic image's alpha is 1 (else it varies\n"
    "from 0.25 to 1).  --transfer: how the synthetic image's colour is\n"
    "encoded (default: srgb for u8/u16, linear for half/float; PNG files\n"
    "are srgb, PFM and OpenEXR files linear): filters that mix pixels work\n"
    "in linear light.\n"
    "--pinned: the images live in the device's pinned memory, as the\n"
    "plug-in's do, so transfers need no staging copy.\n"
    "--keep-reference: with --validate, a result that fails validation is\n"
    "replaced by the CPU reference's in --output, as GIMP applies it (the\n"
    "exit status stays 2).\n"
    "--timeline: every upload, kernel and download of the last run on the\n"
    "device's clock, to see what waited for what.\n"
    "families and their options:\n");
  for (const ClfxFamily *const *fp = clfx_families (); *fp; fp++)
    {
      const ClfxFamily *fam = *fp;
      fprintf (f, "  %s: %s\n", fam->name, fam->blurb);
      for (int i = 0; i < fam->n_params; i++)
        {
          const ClfxParamSpec *s = &fam->params[i];
          if (s->plugin_only)
            continue;
          fprintf (f, "    --%-18s %s", s->name, s->blurb);
          if (s->type == CLFX_PARAM_CHOICE)
            {
              fprintf (f, " (");
              for (int k = 0; s->choices[k].nick; k++)
                fprintf (f, "%s%s", k ? "|" : "", s->choices[k].nick);
              fprintf (f, ")");
            }
          else if (s->type == CLFX_PARAM_BOOL)
            fprintf (f, " (true|false)");
          else if (s->type != CLFX_PARAM_STRING)
            fprintf (f, " [%g..%g]", s->min, s->max);
          fprintf (f, "\n");
        }
    }
  fprintf (f, "  resize also takes --unnormalized (= --normalized-coords "
              "false)\n");
}

static int
list_devices (void)
{
  ClfxDeviceList list;
  ClfxError      error = { 0 };

  if (! clfx_device_list (&list, &error))
    {
      fprintf (stderr, "clfx-bench: %s\n", error.message);
      return 1;
    }
  if (list.notes[0])
    printf ("note: %s\n", list.notes);
  for (size_t i = 0; i < list.n_devices; i++)
    {
      const ClfxDeviceInfo *d = &list.devices[i];
      printf ("[%zu] %s\n", i, d->name);
      printf ("    platform: %s (vendor %s, %s)\n", d->platform_name,
              d->platform_vendor, d->platform_version);
      printf ("    type %s, %s, driver %s, %s\n", d->type, d->version,
              d->driver, d->c_version);
      printf ("    %u compute units at %u MHz, %.1f GiB memory, max "
              "allocation %.1f GiB, local %llu KiB\n", d->compute_units,
              d->clock_mhz, (double) d->global_mem / 1073741824.0,
              (double) d->max_alloc / 1073741824.0,
              (unsigned long long) d->local_mem / 1024);
      printf ("    images %s, max 2D %zux%zu, fp16 %s, fp64 %s\n",
              d->image_support ? "yes" : "no", d->image2d_max_width,
              d->image2d_max_height, d->fp16 ? "yes" : "no",
              d->fp64 ? "yes" : "no");
      printf ("    %s\n", d->usable ? "usable" : d->skip_reason);
    }
  if (! list.n_devices)
    printf ("no OpenCL devices\n");
  clfx_device_list_free (&list);
  return 0;
}

/* ---- statistics ------------------------------------------------------------ */

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

typedef struct
{
  double med, min, max;
} Stat;

static Stat
stat_of (const double *values, int n)
{
  Stat    s = { 0, 0, 0 };
  double *v;

  if (n <= 0 || ! (v = malloc ((size_t) n * sizeof *v)))
    return s;
  memcpy (v, values, (size_t) n * sizeof *v);
  qsort (v, (size_t) n, sizeof *v, cmp_double);
  s.min = v[0];
  s.max = v[n - 1];
  s.med = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  free (v);
  return s;
}

/* Per-field series over the repeats of one run; kernels by name. */
typedef struct
{
  double upload[MAX_REPEAT], download[MAX_REPEAT], stage[MAX_REPEAT];
  double total[MAX_REPEAT], kernels[MAX_REPEAT];
  struct
  {
    char   name[64];
    double ms[MAX_REPEAT];
  }     *per_kernel;
  int    n_names, n;
  ClfxTimings last;
} Series;

static void
series_clear (Series *s)
{
  free (s->per_kernel);
  clfx_timings_clear (&s->last);
  memset (s, 0, sizeof *s);
}

static bool
series_add (Series *s, const ClfxTimings *t)
{
  double k = 0;

  s->upload[s->n] = t->upload_ms;
  s->download[s->n] = t->download_ms;
  s->stage[s->n] = t->stage_ms;
  s->total[s->n] = t->total_ms;
  for (int i = 0; i < t->n_kernels; i++)
    {
      int j;
      k += t->kernels[i].ms;
      for (j = 0; j < s->n_names; j++)
        if (! strcmp (s->per_kernel[j].name, t->kernels[i].name))
          break;
      if (j == s->n_names)
        {
          void *grown = realloc (s->per_kernel,
                                 (size_t) (j + 1) * sizeof *s->per_kernel);
          if (! grown)
            return false;
          s->per_kernel = grown;
          memset (&s->per_kernel[j], 0, sizeof s->per_kernel[j]);
          snprintf (s->per_kernel[j].name, sizeof s->per_kernel[j].name,
                    "%s", t->kernels[i].name);
          s->n_names++;
        }
      s->per_kernel[j].ms[s->n] = t->kernels[i].ms;
    }
  s->kernels[s->n] = k;
  s->n++;
  clfx_timings_clear (&s->last);
  return clfx_timings_copy (&s->last, t);
}

static void
print_row (const char *what, const double *v, int n)
{
  Stat s = stat_of (v, n);
  printf ("  %-22s %10.3f %10.3f %10.3f\n", what, s.med, s.min, s.max);
}

/* Medians of a series as timings, for the report. */
static bool
series_median (Series *s, ClfxTimings *t)
{
  if (! clfx_timings_copy (t, &s->last))
    return false;
  t->upload_ms = stat_of (s->upload, s->n).med;
  t->download_ms = stat_of (s->download, s->n).med;
  t->stage_ms = stat_of (s->stage, s->n).med;
  t->total_ms = stat_of (s->total, s->n).med;
  for (int i = 0; i < t->n_kernels; i++)
    for (int j = 0; j < s->n_names; j++)
      if (! strcmp (s->per_kernel[j].name, t->kernels[i].name))
        t->kernels[i].ms = stat_of (s->per_kernel[j].ms, s->n).med;
  return true;
}

static bool
repeat_run (ClfxContext *ctx, const ClfxParams *p, const ClfxImage *src,
            ClfxImage *dst, const Options *o, Series *s, ClfxProbes *probes,
            ClfxPlan *plan, ClfxError *error)
{
  ClfxTimings t;
  bool        ok = true;

  for (int i = 0; ok && i < o->warmup; i++)
    {
      ok = clfx_run_on_context (ctx, p, src, dst, &t, NULL, NULL, error);
      clfx_timings_clear (&t);
    }
  for (int i = 0; ok && i < o->repeat; i++)
    {
      bool last = i == o->repeat - 1;
      ok = clfx_run_on_context (ctx, p, src, dst, &t, last ? probes : NULL,
                                last ? plan : NULL, error)
           && series_add (s, &t);
      clfx_timings_clear (&t);
    }
  return ok;
}

/* The pinned-memory transfer rate of this device: the same number of
 * bytes copied host-to-device and back with clEnqueue{Write,Read}Buffer
 * from pinned staging memory.  GB/s = 1e9 bytes/s. */
static bool
pinned_rate (ClfxContext *ctx, size_t bytes, int repeat, double *up_gbs,
             double *down_gbs, ClfxError *error)
{
  double *up = calloc ((size_t) repeat, sizeof *up);
  double *down = calloc ((size_t) repeat, sizeof *down);
  void   *host = clfx_context_staging (ctx, 0, 0, bytes, error);
  cl_mem  dev = NULL;
  bool    ok = false;

  if (! host || ! up || ! down)
    goto out;
  CLFX_CREATE (dev, error, out, "pinned rate", clCreateBuffer, ctx->context,
               CL_MEM_READ_WRITE, bytes, NULL);
  for (int i = 0; i < repeat + 1; i++)
    {
      ClfxTimings t;
      cl_event    ev = NULL;
      memset (&t, 0, sizeof t);
      clfx_context_begin (ctx);
      CLFX_CHECK (error, out, "pinned rate", clEnqueueWriteBuffer, ctx->queue,
                  dev, CL_FALSE, 0, bytes, host, 0, NULL, &ev);
      if (! clfx_context_track (ctx, ev, CLFX_EV_UPLOAD, "upload", error))
        goto out;
      ev = NULL;
      CLFX_CHECK (error, out, "pinned rate", clEnqueueReadBuffer, ctx->queue,
                  dev, CL_FALSE, 0, bytes, host, 0, NULL, &ev);
      if (! clfx_context_track (ctx, ev, CLFX_EV_DOWNLOAD, "download", error)
          || ! clfx_context_finish (ctx, &t, error))
        goto out;
      if (i > 0) /* the first is a warm-up */
        {
          up[i - 1] = (double) bytes / (t.upload_ms * 1e6);
          down[i - 1] = (double) bytes / (t.download_ms * 1e6);
        }
      clfx_timings_clear (&t);
    }
  *up_gbs = stat_of (up, repeat).med;
  *down_gbs = stat_of (down, repeat).med;
  ok = true;
out:
  if (dev)
    clReleaseMemObject (dev);
  free (up);
  free (down);
  return ok;
}

/* ---- images ------------------------------------------------------------------- */

static bool
load_source (const Options *o, ClfxImage *src, int *file_channels,
             ClfxError *error)
{
  long long   w = 0, h = 0;
  const char *p, *depth_name = "u8";
  ClfxDepth   depth;

  if (o->input)
    return clfx_image_read (o->input, src, file_channels, error);
  /* By hand rather than sscanf: %d wraps silently (99999999999 became
   * 1215752191) and skips spaces. */
  p = clfx_parse_wxh (o->synthetic, CLFX_IMAGEIO_MAX_SIDE, &w, &h);
  if (p && *p == ':' && p[1])
    depth_name = p + 1;
  else if (! p || *p)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "--synthetic '%s': expected WxH or WxH:DEPTH, "
                           "the sides in decimal digits", o->synthetic);
  if (w < 1 || h < 1 || w > CLFX_IMAGEIO_MAX_SIDE
      || h > CLFX_IMAGEIO_MAX_SIDE)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "--synthetic '%s': each side must be 1 to %d "
                           "pixels", o->synthetic, CLFX_IMAGEIO_MAX_SIDE);
  if (! clfx_depth_from_name (depth_name, &depth))
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "--synthetic '%s': unknown depth '%s' (u8, u16, "
                           "half, float)", o->synthetic, depth_name);
  if (! clfx_host_image_alloc (src, (int) w, (int) h, o->channels, depth,
                               error))
    return false;
  clfx_host_image_synthetic (src, 1);
  if (o->opaque && o->channels > 1)
    for (int y = 0; y < src->height; y++)
      for (int x = 0; x < src->width; x++)
        clfx_image_set (src, x, y, o->channels - 1, 1.0f);
  src->straight_alpha = o->straight && o->channels > 1;
  /* As GIMP's images usually are: 8 and 16 bits perceptual, half and
   * float linear. */
  src->transfer = depth == CLFX_DEPTH_U8 || depth == CLFX_DEPTH_U16
                    ? CLFX_TRC_SRGB : CLFX_TRC_LINEAR;
  *file_channels = o->channels;
  return true;
}

static bool
apply_transfer (const Options *o, ClfxImage *src, ClfxError *error)
{
  if (! o->transfer)
    return true;
  if (! strcmp (o->transfer, "srgb"))
    src->transfer = CLFX_TRC_SRGB;
  else if (! strcmp (o->transfer, "linear"))
    src->transfer = CLFX_TRC_LINEAR;
  else
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "--transfer: '%s' is not srgb or linear",
                           o->transfer);
  return true;
}

/* The image again, in the context's pinned memory. */
static bool
to_pinned (ClfxContext *ctx, ClfxImage *img, ClfxError *error)
{
  ClfxImage pin;
  size_t    row = (size_t) img->width * clfx_image_pixel_size (img);

  if (! clfx_context_pinned_image (ctx, &pin, img->width, img->height,
                                   img->channels, img->depth, error))
    return false;
  for (int y = 0; y < img->height; y++)
    memcpy ((char *) pin.data + (size_t) y * pin.stride,
            (char *) img->data + (size_t) y * img->stride, row);
  pin.straight_alpha = img->straight_alpha;
  pin.transfer = img->transfer;
  clfx_host_image_free (img);
  *img = pin;
  return true;
}

/* ---- running ------------------------------------------------------------------ */

static double
gbs (size_t bytes, double ms)
{
  return ms > 0 ? (double) bytes / (ms * 1e6) : 0.0;
}

static void
print_series (const Series *s, const ClfxRunResult *r)
{
  printf ("  %-22s %10s %10s %10s\n", "phase (ms)", "median", "min", "max");
  print_row ("upload", s->upload, s->n);
  for (int i = 0; i < s->n_names; i++)
    print_row (s->per_kernel[i].name, s->per_kernel[i].ms, s->n);
  print_row ("download", s->download, s->n);
  print_row ("host staging copies", s->stage, s->n);
  print_row ("total (wall)", s->total, s->n);
  for (int i = 0; i < r->n_builds; i++)
    printf ("  build %s [%s]: %s, cache %s, %.1f ms\n", r->builds[i].program,
            r->builds[i].options, r->builds[i].ok ? "ok" : "FAILED",
            r->builds[i].cache, r->builds[i].ms);
  printf ("  %s: %d %s on %d device%s, %s sampler\n",
          s->last.tiled ? "tiles" : "bands", s->last.pieces,
          s->last.tiled ? "tiles" : "bands", s->last.devices,
          s->last.devices == 1 ? "" : "s",
          s->last.sampler ? "hardware" : "in-kernel");
}

/* The last run's commands on the device's clock, in ms from the first
 * one's start: which waited for which (a device's own clock; several
 * devices each start at 0). */
static void
print_timeline (const ClfxTimings *t)
{
  printf ("  timeline of the last run (ms; u upload, k kernel, d download):"
          "\n");
  for (int dev = 0; dev < (t->devices > 0 ? t->devices : 1); dev++)
    {
      cl_ulong t0 = 0;
      bool     any = false;
      for (int i = 0; i < t->n_events; i++)
        if (t->events[i].device == dev && (! any || t->events[i].start < t0))
          {
            t0 = t->events[i].start;
            any = true;
          }
      for (int i = 0; i < t->n_events; i++)
        if (t->events[i].device == dev)
          printf ("    dev %d %c %9.3f %9.3f %8.3f  %s\n", dev,
                  t->events[i].kind, (double) (t->events[i].start - t0) * 1e-6,
                  (double) (t->events[i].end - t0) * 1e-6,
                  (double) (t->events[i].end - t->events[i].start) * 1e-6,
                  t->events[i].tag);
    }
}

/* The copy kernel on the same device and input: the roofline. */
static bool
roofline (ClfxContext *ctx, const ClfxImage *src, const Options *o,
          size_t in_b, double op_gbs, ClfxError *error)
{
  ClfxParams cp;
  ClfxImage  copy_dst = { 0 };
  Series     s;
  bool       ok;

  memset (&s, 0, sizeof s);
  clfx_params_defaults (&clfx_family_copy, &cp);
  ok = clfx_host_image_alloc (&copy_dst, src->width, src->height,
                              src->channels, src->depth, error)
       && repeat_run (ctx, &cp, src, &copy_dst, o, &s, NULL, NULL, error);
  if (ok)
    {
      double c_ms = stat_of (s.kernels, s.n).med;
      double c_gbs = gbs (2 * in_b, c_ms);
      printf ("  copy kernel (roofline): %.1f GB/s (%.3f ms); at %.0f%% of "
              "copy\n", c_gbs, c_ms, c_gbs > 0 ? 100.0 * op_gbs / c_gbs : 0.0);
    }
  series_clear (&s);
  clfx_host_image_free (&copy_dst);
  return ok;
}

static bool
rates (ClfxContext *ctx, const ClfxRunResult *r, const Options *o,
       size_t in_b, size_t out_b, ClfxError *error)
{
  double up_gbs = 0, down_gbs = 0;
  size_t most = in_b > out_b ? in_b : out_b;

  if (ctx->zero_copy)
    {
      /* No transfer to rate: the device read and wrote host memory in
       * place; upload is the time to wrap the pixels in an image. */
      printf ("  data path: zero-copy (the device works in host memory; "
              "CLFX_DEV=zero-copy=off copies through staging)\n");
      return true;
    }
  if (! pinned_rate (ctx, most, o->repeat, &up_gbs, &down_gbs, error))
    return false;
  printf ("  upload %.1f GB/s, download %.1f GB/s (device time); pinned "
          "clEnqueue{Write,Read}Buffer of %zu B: %.1f / %.1f GB/s\n",
          gbs (in_b, r->timings.upload_ms), gbs (out_b, r->timings.download_ms),
          most, up_gbs, down_gbs);
  printf ("  wall time %.3f ms = %.2f x the pinned upload + download of the "
          "same bytes (%.3f ms)\n", r->timings.total_ms,
          r->timings.total_ms / (1e-6 * ((double) in_b / up_gbs
                                         + (double) out_b / down_gbs)),
          1e-6 * ((double) in_b / up_gbs + (double) out_b / down_gbs));
  return true;
}

static bool
run_device (const Options *o, const ClfxParams *p, ClfxImage *src,
            ClfxImage *dst, ClfxRunResult *r, ClfxContext **ctx_out,
            ClfxError *error)
{
  ClfxContext *ctx;
  Series       s;
  bool         ok = false;

  memset (&s, 0, sizeof s);
  if (! (ctx = clfx_run_context_new (o->device, &r->device, error)))
    return false;
  *ctx_out = ctx;
  ctx->guard_bytes = o->guard;
  r->n_devices = 1 + ctx->n_peers;
  snprintf (r->notes, sizeof r->notes, "%s", ctx->tuning_note);
  if (ctx->tuning_note[0])
    printf ("note: %s\n", ctx->tuning_note);
  printf ("device: %s (%s, driver %s)%s\n", ctx->device.name,
          ctx->device.platform_name, ctx->device.driver,
          ctx->n_peers ? " and its peers" : "");
  if (o->pinned && (! to_pinned (ctx, src, error) || ! to_pinned (ctx, dst,
                                                                  error)))
    goto out;
  if (! repeat_run (ctx, p, src, dst, o, &s, &r->probes, &r->plan, error)
      || ! clfx_run_take_builds (ctx, r) || ! series_median (&s, &r->timings))
    goto out;
  r->path = CLFX_PATH_OPENCL;
  print_series (&s, r);
  if (o->timeline)
    print_timeline (&s.last);
  {
    size_t in_b = r->timings.upload_bytes;
    size_t out_b = r->timings.download_bytes;
    double k_ms = stat_of (s.kernels, s.n).med;
    double op = gbs (in_b + out_b, k_ms);

    printf ("  kernel throughput: %.1f GB/s (%zu B in + %zu B out in %.3f "
            "ms)\n", op, in_b, out_b, k_ms);
    if (o->roofline && p->family != &clfx_family_copy
        && ! roofline (ctx, src, o, in_b, op, error))
      goto out;
    if (! rates (ctx, r, o, in_b, out_b, error))
      goto out;
  }
  ok = ! o->validate || clfx_run_validate (p, src, dst, r, error);
out:
  series_clear (&s);
  return ok;
}

static bool
run_reference (const Options *o, const ClfxParams *p, const ClfxImage *src,
               ClfxImage *dst, ClfxRunResult *r, ClfxError *error)
{
  double *v = calloc ((size_t) o->repeat, sizeof *v);
  bool    ok = v && clfx_plan_make (p, src, &r->plan, error);

  for (int i = 0; ok && i < o->repeat; i++)
    {
      double t0 = clfx_now_ms ();
      ok = clfx_params_variant (p)->run_cpu (p, &r->plan, src, dst,
                                             &r->probes, error);
      v[i] = clfx_now_ms () - t0;
    }
  if (ok)
    {
      r->path = CLFX_PATH_REFERENCE;
      r->timings.total_ms = r->timings.reference_ms
        = stat_of (v, o->repeat).med;
      printf ("  %-22s %10s %10s %10s\n", "CPU reference (ms)", "median",
              "min", "max");
      print_row ("total", v, o->repeat);
    }
  free (v);
  return ok;
}

static void
print_validation (const ClfxRunResult *r)
{
  const ClfxValidation *v = &r->validation;

  printf ("validation: %s: %zu of %zu values outside |d| <= %g + %g|e| "
          "(%s), %zu ambiguous; max abs %g, max rel %g, RMSE %g, PSNR %.1f "
          "dB, NaN %zu, Inf %zu; worst (%d,%d) ch %d expected %.9g got "
          "%.9g; CPU reference %.1f ms\n", v->passed ? "PASSED" : "FAILED",
          v->mismatches, v->samples, v->abs_tol, v->rel_tol,
          r->tolerance.basis, v->ambiguous, v->max_abs, v->max_rel, v->rmse,
          v->psnr_db, v->nan, v->inf, v->worst.x, v->worst.y,
          v->worst.channel, v->worst.expected, v->worst.actual,
          r->timings.reference_ms);
  for (int i = 0; i < r->probes.n; i++)
    {
      const ClfxProbe *pr = &r->probes.probes[i];
      printf ("probe %s: %s: %zu of %d values off, max abs %g (%s)\n",
              pr->name, pr->passed ? "PASSED" : "FAILED", pr->mismatches,
              pr->n_reference, pr->max_abs, pr->basis);
    }
}

static bool
write_report (const char *path, const char *json, ClfxError *error)
{
  FILE *f = strcmp (path, "-") == 0 ? stdout : fopen (path, "w");

  if (! f || fprintf (f, "%s\n", json) < 0
      || (f != stdout && fclose (f) != 0))
    return clfx_error_set (error, CLFX_ERR_IO, "cannot write report '%s'",
                           path);
  return true;
}

static int
run (const Options *o, const ClfxParams *p)
{
  ClfxImage      src = { 0 }, dst = { 0 };
  ClfxError      error = { 0 };
  ClfxRunResult  r;
  ClfxRunOptions ropt = { o->device, o->validate, o->guard, NULL, false,
                          false };
  ClfxContext   *ctx = NULL;
  int            file_channels = 4, status = 1, dw, dh;
  char          *json = NULL;

  memset (&r, 0, sizeof r);
  if (! load_source (o, &src, &file_channels, &error)
      || ! apply_transfer (o, &src, &error)
      || ! clfx_run_check (p, &src, &dw, &dh, &error)
      || ! clfx_host_image_alloc (&dst, dw, dh, src.channels, src.depth,
                                  &error))
    goto out;
  dst.straight_alpha = src.straight_alpha;
  dst.transfer = src.transfer;
  printf ("%s %s: %dx%d %s x%d (%s%s) -> %dx%d, device %s, %d repeats "
          "after %d warm-up\n", p->family->name, clfx_run_variant_name (p),
          src.width, src.height, clfx_depth_name (src.depth), src.channels,
          clfx_transfer_name (src.transfer),
          src.straight_alpha ? ", straight alpha" : "", dw, dh, o->device,
          o->repeat, o->warmup);
  if (clfx_device_is_reference (o->device)
        ? ! run_reference (o, p, &src, &dst, &r, &error)
        : ! run_device (o, p, &src, &dst, &r, &ctx, &error))
    goto out;
  if (r.validated)
    print_validation (&r);
  if (o->keep_reference && clfx_run_keep_reference (&r, &dst))
    printf ("result: %s\n", r.fallback);
  if (o->output && ! clfx_image_write (o->output, &dst, file_channels,
                                       &error))
    goto out;
  json = clfx_report_json (p, &src, &ropt, &r, NULL);
  if (o->report && ! write_report (o->report, json, &error))
    goto out;
  status = r.validated && ! r.validation.passed ? 2 : 0;
out:
  if (error.code != CLFX_OK)
    fprintf (stderr, "clfx-bench: %s\n", error.message);
  free (json);
  clfx_run_result_clear (&r);
  /* Pinned images belong to the context: free them first. */
  clfx_host_image_free (&src);
  clfx_host_image_free (&dst);
  clfx_context_free (ctx);
  return status;
}

/* Whether the folder part of path (up to its last '/') is the same
 * folder as that of other, and the names after it are equal. */
static bool
same_place (const char *path, const char *other)
{
  const char *a = strrchr (path, '/'), *b = strrchr (other, '/');
  const char *name_a = a ? a + 1 : path, *name_b = b ? b + 1 : other;
  char        dir_a[4096], dir_b[4096];
  struct stat sa, sb;

  if (strcmp (name_a, name_b) != 0)
    return false;
  snprintf (dir_a, sizeof dir_a, "%.*s", a ? (int) (a - path) + 1 : 1,
            a ? path : ".");
  snprintf (dir_b, sizeof dir_b, "%.*s", b ? (int) (b - other) + 1 : 1,
            b ? other : ".");
  return stat (dir_a, &sa) == 0 && stat (dir_b, &sb) == 0
         && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Whether two paths name one file, also one that does not exist yet
 * ("out.png" and "./out.png"). */
static bool
same_file (const char *a, const char *b)
{
  struct stat sa, sb;

  if (! strcmp (a, b))
    return true;
  if (stat (a, &sa) == 0 && stat (b, &sb) == 0)
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  return same_place (a, b);
}

/* Reads the global options; returns the index of the family argument, or
 * a negative exit status. */
static int
parse_options (int argc, char **argv, Options *o, const ClfxFamily **fam)
{
  for (int i = 1; i < argc; i++)
    {
      const char *a = argv[i];
      const char *v = i + 1 < argc ? argv[i + 1] : NULL;
      const char **take = ! strcmp (a, "--device")      ? &o->device
                          : ! strcmp (a, "--report")    ? &o->report
                          : ! strcmp (a, "--input")     ? &o->input
                          : ! strcmp (a, "--output")    ? &o->output
                          : ! strcmp (a, "--synthetic") ? &o->synthetic
                          : ! strcmp (a, "--transfer")  ? &o->transfer
                                                        : NULL;
      if (take)
        {
          if (! v)
            {
              fprintf (stderr, "clfx-bench: %s needs a value\n", a);
              return -64;
            }
          *take = v;
          i++;
        }
      else if (! strcmp (a, "--list-devices"))
        o->list = true;
      else if (! strcmp (a, "--help") || ! strcmp (a, "-h"))
        {
          usage (stdout);
          return -1000;
        }
      else if (! strcmp (a, "--validate"))
        o->validate = true;
      else if (! strcmp (a, "--keep-reference"))
        o->keep_reference = true;
      else if (! strcmp (a, "--no-roofline"))
        o->roofline = false;
      else if (! strcmp (a, "--straight-alpha"))
        o->straight = true;
      else if (! strcmp (a, "--opaque"))
        o->opaque = true;
      else if (! strcmp (a, "--pinned"))
        o->pinned = true;
      else if (! strcmp (a, "--timeline"))
        o->timeline = true;
      else if (! strcmp (a, "--repeat") || ! strcmp (a, "--warmup")
               || ! strcmp (a, "--channels") || ! strcmp (a, "--guard"))
        {
          long long   lo = ! strcmp (a, "--repeat") ? 1 : 0;
          long long   hi = ! strcmp (a, "--repeat") ? MAX_REPEAT
                                                    : MAX_REPEAT * 1000LL;
          long long   n = -1;
          const char *end = v ? clfx_parse_digits (v, hi, &n) : NULL;

          if (! v)
            {
              fprintf (stderr, "clfx-bench: %s needs a value\n", a);
              return -64;
            }
          if (! end || *end || n < lo || n > hi)
            {
              fprintf (stderr, "clfx-bench: %s '%s': expected a whole "
                       "number from %lld to %lld\n", a, v, lo, hi);
              return -64;
            }
          if (! strcmp (a, "--repeat"))
            o->repeat = (int) n;
          else if (! strcmp (a, "--warmup"))
            o->warmup = (int) n;
          else if (! strcmp (a, "--channels"))
            o->channels = (int) n;
          else
            o->guard = (size_t) n;
          i++;
        }
      else if (a[0] != '-' && (*fam = clfx_family_find (a)))
        return i;
      else
        {
          fprintf (stderr, "clfx-bench: unknown argument '%s'\n", a);
          usage (stderr);
          return -64;
        }
    }
  return 0;
}

int
main (int argc, char **argv)
{
  Options           o = { "auto", 10,   1,    false, true, false,
                          false,  false, false, false, false, NULL,
                          NULL,   NULL,  NULL, NULL,  4,     0 };
  const ClfxFamily *fam = NULL;
  ClfxParams        p;
  ClfxError         error = { 0 };
  int               i = parse_options (argc, argv, &o, &fam);

  if (i == -1000)
    return 0;
  if (i < 0)
    return -i;
  if (o.list)
    return list_devices ();
  if (! fam || (! o.input == ! o.synthetic))
    {
      usage (stderr);
      return 64;
    }
  /* The report is written after the image and would replace it. */
  if (o.output && o.report && strcmp (o.report, "-") != 0
      && same_file (o.output, o.report))
    {
      fprintf (stderr, "clfx-bench: --output '%s' and --report '%s' name "
               "the same file\n", o.output, o.report);
      return 64;
    }
  clfx_params_defaults (fam, &p);
  for (i++; i < argc; i++)
    {
      const char          *name = argv[i];
      const ClfxParamSpec *s;
      if (strncmp (name, "--", 2) != 0)
        {
          fprintf (stderr, "clfx-bench: unexpected '%s'\n", name);
          return 64;
        }
      name += 2;
      if (fam == &clfx_family_resize && ! strcmp (name, "unnormalized"))
        {
          if (! clfx_params_set (&p, "normalized-coords", "false", &error))
            break;
          continue;
        }
      if ((s = clfx_family_param (fam, name)) && s->plugin_only)
        {
          fprintf (stderr, "clfx-bench: --%s is an argument of the GIMP "
                   "plug-in only\n", name);
          return 64;
        }
      if (i + 1 >= argc)
        {
          fprintf (stderr, "clfx-bench: --%s needs a value\n", name);
          return 64;
        }
      if (! clfx_params_set (&p, name, argv[++i], &error))
        break;
    }
  if (error.code != CLFX_OK)
    {
      fprintf (stderr, "clfx-bench: %s\n", error.message);
      return 64;
    }
  return run (&o, &p);
}
