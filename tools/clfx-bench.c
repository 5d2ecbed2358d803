/* clfx-bench: run, validate and time any clfx op on any OpenCL device,
 * without GIMP.  Prints a table (median, min, max over the repeats), the
 * op's bytes per second beside the copy kernel's on the same device and
 * input, and the transfer rates beside a raw pinned-memory copy. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clfx-context.h"
#include "clfx-imageio.h"
#include "clfx-json.h"
#include "clfx-run.h"

#define MAX_REPEAT 1000

typedef struct
{
  const char *device;
  int         repeat, warmup;
  bool        validate, roofline, list, straight;
  const char *report, *input, *output, *synthetic;
  int         channels;
  size_t      guard;
} Options;

static void
usage (FILE *f)
{
  fprintf (f,
    "usage: clfx-bench --list-devices\n"
    "       clfx-bench [--device D] [--repeat N] [--warmup N] [--validate]\n"
    "                  [--report FILE] [--guard BYTES] [--no-roofline]\n"
    "                  (--input FILE | --synthetic WxH[:u8|u16|half|float])\n"
    "                  [--channels 1|2|4] [--straight-alpha]\n"
    "                  [--output FILE] OP [OP OPTIONS]\n"
    "D: auto, reference (CPU path), or part of a platform/vendor/device "
    "name.\n--straight-alpha: the synthetic image's alpha is straight, as "
    "in GIMP and\nPNG files (always so for a PNG with alpha): filters weigh "
    "colour by it.\nops and their options:\n");
  for (const ClfxOpInfo *const *op = clfx_ops (); *op; op++)
    {
      fprintf (f, "  %s: %s\n", (*op)->name, (*op)->blurb);
      for (int i = 0; i < (*op)->n_params; i++)
        {
          const ClfxParamSpec *s = &(*op)->params[i];
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
          else
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
stat_of (double *v, int n)
{
  Stat s = { 0, 0, 0 };
  if (n <= 0)
    return s;
  qsort (v, (size_t) n, sizeof *v, cmp_double);
  s.min = v[0];
  s.max = v[n - 1];
  s.med = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  return s;
}

/* Per-field series over the repeats of one op. */
typedef struct
{
  double upload[MAX_REPEAT], download[MAX_REPEAT], stage[MAX_REPEAT];
  double total[MAX_REPEAT], kernels[MAX_REPEAT];
  double per_kernel[16][MAX_REPEAT];
  char   names[16][64];
  int    n_names, n;
} Series;

static void
series_add (Series *s, const ClfxTimings *t)
{
  double k = 0;

  s->upload[s->n] = t->upload_ms;
  s->download[s->n] = t->download_ms;
  s->stage[s->n] = t->stage_ms;
  s->total[s->n] = t->total_ms;
  for (int i = 0; i < t->n_kernels && i < 16; i++)
    {
      k += t->kernels[i].ms;
      s->per_kernel[i][s->n] = t->kernels[i].ms;
      snprintf (s->names[i], sizeof s->names[i], "%s", t->kernels[i].name);
    }
  s->n_names = t->n_kernels < 16 ? t->n_kernels : 16;
  s->kernels[s->n] = k;
  s->n++;
}

static void
print_row (const char *what, double *v, int n)
{
  Stat s = stat_of (v, n);
  printf ("  %-22s %10.3f %10.3f %10.3f\n", what, s.med, s.min, s.max);
}

/* Medians of a series as ClfxTimings, for the report. */
static ClfxTimings
series_median (Series *s)
{
  ClfxTimings t;

  memset (&t, 0, sizeof t);
  t.upload_ms = stat_of (s->upload, s->n).med;
  t.download_ms = stat_of (s->download, s->n).med;
  t.stage_ms = stat_of (s->stage, s->n).med;
  t.total_ms = stat_of (s->total, s->n).med;
  t.n_kernels = s->n_names;
  for (int i = 0; i < s->n_names; i++)
    {
      snprintf (t.kernels[i].name, sizeof t.kernels[i].name, "%s",
                s->names[i]);
      t.kernels[i].ms = stat_of (s->per_kernel[i], s->n).med;
    }
  return t;
}

static bool
repeat_op (ClfxContext *ctx, const ClfxOpInfo *op, const ClfxParams *p,
           const ClfxImage *src, ClfxImage *dst, const Options *o, Series *s,
           ClfxError *error)
{
  ClfxTimings t;

  for (int i = 0; i < o->warmup; i++)
    if (! clfx_run_on_context (ctx, op, p, src, dst, &t, error))
      return false;
  s->n = 0;
  for (int i = 0; i < o->repeat; i++)
    {
      if (! clfx_run_on_context (ctx, op, p, src, dst, &t, error))
        return false;
      series_add (s, &t);
    }
  return true;
}

/* The pinned-memory transfer rate of this device: the same number of
 * bytes copied host-to-device and back with clEnqueue{Write,Read}Buffer
 * from the mapped staging buffer.  GB/s = 1e9 bytes/s. */
static bool
pinned_rate (ClfxContext *ctx, size_t bytes, int repeat, double *up_gbs,
             double *down_gbs, ClfxError *error)
{
  double up[MAX_REPEAT], down[MAX_REPEAT];
  void  *host = clfx_context_staging (ctx, bytes, error);
  cl_mem dev = NULL;
  bool   ok = false;

  if (! host)
    return false;
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
      clfx_context_track (ctx, ev, CLFX_EV_UPLOAD, "upload");
      ev = NULL;
      CLFX_CHECK (error, out, "pinned rate", clEnqueueReadBuffer, ctx->queue,
                  dev, CL_FALSE, 0, bytes, host, 0, NULL, &ev);
      clfx_context_track (ctx, ev, CLFX_EV_DOWNLOAD, "download");
      if (! clfx_context_finish (ctx, &t, error))
        goto out;
      if (i == 0)
        continue; /* warm-up */
      up[i - 1] = (double) bytes / (t.upload_ms * 1e6);
      down[i - 1] = (double) bytes / (t.download_ms * 1e6);
    }
  *up_gbs = stat_of (up, repeat).med;
  *down_gbs = stat_of (down, repeat).med;
  ok = true;
out:
  if (dev)
    clReleaseMemObject (dev);
  return ok;
}

static bool
load_source (const Options *o, ClfxImage *src, int *file_channels,
             ClfxError *error)
{
  if (o->input)
    {
      if (! clfx_image_read (o->input, src, file_channels, error))
        return false;
      return true;
    }
  {
    int       w = 0, h = 0;
    char      depth_name[16] = "u8";
    ClfxDepth depth;
    if (sscanf (o->synthetic, "%dx%d:%15s", &w, &h, depth_name) < 2)
      return clfx_error_set (error, CLFX_ERR_INVALID,
                             "--synthetic '%s': expected WxH[:depth]",
                             o->synthetic);
    if (! clfx_depth_from_name (depth_name, &depth))
      return clfx_error_set (error, CLFX_ERR_INVALID,
                             "--synthetic: unknown depth '%s' (u8, u16, "
                             "half, float)", depth_name);
    if (! clfx_host_image_alloc (src, w, h, o->channels, depth, error))
      return false;
    clfx_host_image_synthetic (src, 1);
    src->straight_alpha = o->straight && o->channels > 1;
    *file_channels = o->channels == 4 ? 4 : o->channels;
    return true;
  }
}

static double
gbs (size_t bytes, double ms)
{
  return ms > 0 ? (double) bytes / (ms * 1e6) : 0.0;
}

static int
run (const Options *o, const ClfxOpInfo *op, const ClfxParams *p)
{
  ClfxImage      src = { 0 }, dst = { 0 }, copy_dst = { 0 };
  ClfxError      error = { 0 };
  ClfxRunResult  r;
  ClfxRunOptions ropt = { o->device, o->validate, o->guard, NULL };
  ClfxContext   *ctx = NULL;
  const ClfxDeviceInfo *dev;
  static Series  s_op, s_copy;
  int            file_channels = 4, status = 1, dw, dh;
  char          *json = NULL;

  memset (&r, 0, sizeof r);
  if (! load_source (o, &src, &file_channels, &error)
      || ! op->prepare (p, &src, &dw, &dh, &error)
      || ! clfx_host_image_alloc (&dst, dw, dh, src.channels, src.depth,
                                  &error))
    goto out;
  printf ("%s %s: %dx%d %s x%d%s -> %dx%d, device %s, %d repeats after %d "
          "warm-up\n", op->name, op->variant (p), src.width, src.height,
          clfx_depth_name (src.depth), src.channels,
          src.straight_alpha ? " (straight alpha)" : "", dw, dh, o->device,
          o->repeat, o->warmup);

  if (clfx_device_is_reference (o->device))
    {
      double v[MAX_REPEAT];
      for (int i = 0; i < o->repeat; i++)
        {
          double t0 = clfx_now_ms ();
          if (! op->run_cpu (&src, &dst, p, &error))
            goto out;
          v[i] = clfx_now_ms () - t0;
        }
      r.timings.total_ms = r.timings.reference_ms = stat_of (v, o->repeat).med;
      printf ("  %-22s %10s %10s %10s\n", "CPU reference (ms)", "median",
              "min", "max");
      print_row ("total", v, o->repeat);
    }
  else
    {
      if (! (ctx = clfx_run_context_new (o->device, &r.device, &error)))
        goto out;
      dev = &ctx->device;
      ctx->guard_bytes = o->guard;
      r.have_device = true;
      printf ("device: %s (%s, driver %s)\n", dev->name, dev->platform_name,
              dev->driver);
      if (! repeat_op (ctx, op, p, &src, &dst, o, &s_op, &error))
        goto out;
      clfx_run_take_builds (ctx, &r);
      r.ran_opencl = true;
      r.timings = series_median (&s_op);

      printf ("  %-22s %10s %10s %10s\n", "phase (ms)", "median", "min",
              "max");
      print_row ("upload", s_op.upload, s_op.n);
      for (int i = 0; i < s_op.n_names; i++)
        print_row (s_op.names[i], s_op.per_kernel[i], s_op.n);
      print_row ("download", s_op.download, s_op.n);
      print_row ("host staging copies", s_op.stage, s_op.n);
      print_row ("total (wall)", s_op.total, s_op.n);
      for (int i = 0; i < r.n_builds; i++)
        printf ("  build %s [%s]: %s, cache %s, %.1f ms\n",
                r.builds[i].program, r.builds[i].options,
                r.builds[i].ok ? "ok" : "FAILED", r.builds[i].cache,
                r.builds[i].ms);

      {
        size_t in_b = r.timings.upload_bytes = (size_t) src.width
                                              * (size_t) src.height
                                              * clfx_image_pixel_size (&src);
        size_t out_b = r.timings.download_bytes = (size_t) dw * (size_t) dh
                                              * clfx_image_pixel_size (&dst);
        double k_ms = stat_of (s_op.kernels, s_op.n).med;
        double up_gbs = 0, down_gbs = 0;

        printf ("  kernel throughput: %.1f GB/s (%zu B in + %zu B out in "
                "%.3f ms)\n", gbs (in_b + out_b, k_ms), in_b, out_b, k_ms);
        if (o->roofline && op != &clfx_op_copy)
          {
            ClfxParams cp;
            clfx_params_defaults (&clfx_op_copy, &cp);
            if (! clfx_host_image_alloc (&copy_dst, src.width, src.height,
                                         src.channels, src.depth, &error)
                || ! repeat_op (ctx, &clfx_op_copy, &cp, &src, &copy_dst, o,
                                &s_copy, &error))
              goto out;
            {
              double c_ms = stat_of (s_copy.kernels, s_copy.n).med;
              double c_gbs = gbs (2 * in_b, c_ms);
              printf ("  copy kernel (roofline): %.1f GB/s (%.3f ms); %s at "
                      "%.0f%% of copy\n", c_gbs, c_ms, op->variant (p),
                      c_gbs > 0 ? 100.0 * gbs (in_b + out_b, k_ms) / c_gbs
                                : 0.0);
            }
          }
        if (ctx->zero_copy)
          /* No transfer to rate: the device read and wrote host memory in
           * place; upload is the time to wrap the pixels in an image. */
          printf ("  data path: zero-copy (the device works in host "
                  "memory; CLFX_ZERO_COPY=off copies through staging)\n");
        else if (pinned_rate (ctx, in_b > out_b ? in_b : out_b, o->repeat,
                              &up_gbs, &down_gbs, &error))
          printf ("  upload %.1f GB/s, download %.1f GB/s; pinned "
                  "clEnqueue{Write,Read}Buffer of %zu B: %.1f / %.1f GB/s "
                  "(upload at %.0f%%, download at %.0f%%)\n",
                  gbs (in_b, r.timings.upload_ms),
                  gbs (out_b, r.timings.download_ms),
                  in_b > out_b ? in_b : out_b, up_gbs, down_gbs,
                  100.0 * gbs (in_b, r.timings.upload_ms) / up_gbs,
                  100.0 * gbs (out_b, r.timings.download_ms) / down_gbs);
        else
          goto out;
      }
      if (o->validate && ! clfx_run_validate (op, p, &src, &dst, &r, &error))
        goto out;
    }

  if (r.validated)
    {
      const ClfxValidation *v = &r.validation;
      printf ("validation: %s: %zu of %zu values outside |d| <= %g + %g|e| "
              "(%s), %zu ambiguous; max abs %g, max rel %g, RMSE %g, PSNR %.1f dB, NaN %zu, "
              "Inf %zu; worst (%d,%d) ch %d expected %.9g got %.9g; CPU "
              "reference %.1f ms\n", v->passed ? "PASSED" : "FAILED",
              v->mismatches, v->samples, v->abs_tol, v->rel_tol,
              r.tolerance.basis, v->ambiguous, v->max_abs, v->max_rel, v->rmse, v->psnr_db,
              v->nan, v->inf, v->worst.x, v->worst.y, v->worst.channel,
              v->worst.expected, v->worst.actual, r.timings.reference_ms);
    }
  if (o->output && ! clfx_image_write (o->output, &dst, file_channels,
                                       &error))
    goto out;
  json = clfx_report_json (op, p, &src, &ropt, &r, NULL);
  if (o->report)
    {
      FILE *f = strcmp (o->report, "-") == 0 ? stdout : fopen (o->report, "w");
      if (! f || fprintf (f, "%s\n", json) < 0
          || (f != stdout && fclose (f) != 0))
        {
          clfx_error_set (&error, CLFX_ERR_IO, "cannot write report '%s'",
                          o->report);
          goto out;
        }
    }
  status = r.validated && ! r.validation.passed ? 2 : 0;
out:
  if (error.code != CLFX_OK)
    fprintf (stderr, "clfx-bench: %s\n", error.message);
  free (json);
  clfx_run_result_clear (&r);
  clfx_context_free (ctx);
  clfx_host_image_free (&src);
  clfx_host_image_free (&dst);
  clfx_host_image_free (&copy_dst);
  return status;
}

int
main (int argc, char **argv)
{
  Options           o = { "auto", 10, 1, false, true, false, false, NULL,
                          NULL, NULL, NULL, 4, 0 };
  const ClfxOpInfo *op = NULL;
  ClfxParams        p;
  ClfxError         error = { 0 };
  int               i;

  for (i = 1; i < argc && ! op; i++)
    {
      const char *a = argv[i];
      const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define TAKE(field)                                                          \
  do {                                                                       \
      if (! v)                                                               \
        {                                                                    \
          fprintf (stderr, "clfx-bench: %s needs a value\n", a);             \
          return 64;                                                         \
        }                                                                    \
      o.field = v;                                                           \
      i++;                                                                   \
  } while (0)
      if (! strcmp (a, "--list-devices"))
        o.list = true;
      else if (! strcmp (a, "--help") || ! strcmp (a, "-h"))
        {
          usage (stdout);
          return 0;
        }
      else if (! strcmp (a, "--device"))
        TAKE (device);
      else if (! strcmp (a, "--report"))
        TAKE (report);
      else if (! strcmp (a, "--input"))
        TAKE (input);
      else if (! strcmp (a, "--output"))
        TAKE (output);
      else if (! strcmp (a, "--synthetic"))
        TAKE (synthetic);
      else if (! strcmp (a, "--validate"))
        o.validate = true;
      else if (! strcmp (a, "--no-roofline"))
        o.roofline = false;
      else if (! strcmp (a, "--straight-alpha"))
        o.straight = true;
      else if (! strcmp (a, "--repeat") || ! strcmp (a, "--warmup")
               || ! strcmp (a, "--channels") || ! strcmp (a, "--guard"))
        {
          char *end;
          long  n = v ? strtol (v, &end, 10) : -1;
          if (! v || *end || n < 0 || n > MAX_REPEAT * 1000L
              || (! strcmp (a, "--repeat") && (n < 1 || n > MAX_REPEAT)))
            {
              fprintf (stderr, "clfx-bench: bad value for %s\n", a);
              return 64;
            }
          if (! strcmp (a, "--repeat"))
            o.repeat = (int) n;
          else if (! strcmp (a, "--warmup"))
            o.warmup = (int) n;
          else if (! strcmp (a, "--channels"))
            o.channels = (int) n;
          else
            o.guard = (size_t) n;
          i++;
        }
      else if (a[0] != '-' && (op = clfx_op_find (a)))
        break;
      else
        {
          fprintf (stderr, "clfx-bench: unknown argument '%s'\n", a);
          usage (stderr);
          return 64;
        }
    }
  if (o.list)
    return list_devices ();
  if (! op || (! o.input == ! o.synthetic))
    {
      usage (stderr);
      return 64;
    }
  clfx_params_defaults (op, &p);
  for (i++; i < argc; i++)
    {
      const char *name = argv[i];
      if (strncmp (name, "--", 2) != 0)
        {
          fprintf (stderr, "clfx-bench: unexpected '%s'\n", name);
          return 64;
        }
      name += 2;
      if (op == &clfx_op_resize && ! strcmp (name, "unnormalized"))
        {
          if (! clfx_params_set (op, &p, "normalized-coords", "false",
                                 &error))
            break;
          continue;
        }
      if (i + 1 >= argc)
        {
          fprintf (stderr, "clfx-bench: --%s needs a value\n", name);
          return 64;
        }
      if (! clfx_params_set (op, &p, name, argv[++i], &error))
        break;
    }
  if (error.code != CLFX_OK)
    {
      fprintf (stderr, "clfx-bench: %s\n", error.message);
      return 64;
    }
  return run (&o, op, &p);
}
