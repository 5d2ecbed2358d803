/* clfx-context.c: context, queue, program builds with the binary cache,
 * tagged events, pinned staging and the image path in and out. */
#define _GNU_SOURCE /* newlocale/uselocale, mkdir modes */
#include "clfx-context.h"

#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "clfx-parallel.h"
#include "clfx-program.h"

double
clfx_now_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec * 1e3 + (double) ts.tv_nsec * 1e-6;
}

static bool
mkdir_p (const char *dir)
{
  char tmp[512];

  if (strlen (dir) >= sizeof tmp)
    return false;
  strcpy (tmp, dir);
  for (char *p = tmp + 1; *p; p++)
    if (*p == '/')
      {
        *p = '\0';
        if (mkdir (tmp, 0755) != 0 && errno != EEXIST)
          return false;
        *p = '/';
      }
  return mkdir (tmp, 0755) == 0 || errno == EEXIST;
}

void
clfx_context_set_cache_dir (ClfxContext *ctx, const char *dir)
{
  const char *env = getenv ("CLFX_CACHE_DIR");
  const char *xdg = getenv ("XDG_CACHE_HOME");
  const char *home = getenv ("HOME");

  ctx->cache_dir[0] = '\0';
  if (! dir && env && *env)
    dir = env;
  if (dir && strcmp (dir, "off") == 0)
    return;
  if (dir)
    snprintf (ctx->cache_dir, sizeof ctx->cache_dir, "%s", dir);
  else if (xdg && *xdg)
    snprintf (ctx->cache_dir, sizeof ctx->cache_dir, "%s/clfx/kernels", xdg);
  else if (home && *home)
    snprintf (ctx->cache_dir, sizeof ctx->cache_dir, "%s/.cache/clfx/kernels",
              home);
  if (ctx->cache_dir[0] && ! mkdir_p (ctx->cache_dir))
    ctx->cache_dir[0] = '\0';
}

ClfxContext *
clfx_context_new (const ClfxDeviceInfo *device, ClfxError *error)
{
  ClfxContext *ctx = calloc (1, sizeof *ctx);

  if (! ctx)
    {
      clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
      return NULL;
    }
  ctx->device = *device;
  CLFX_CREATE (ctx->context, error, fail, device->name, clCreateContext,
               NULL, 1, &device->id, NULL, NULL);
  /* Profiling is always on: the Diagnostics tab and the report show
   * per-kernel device time for every run, and its cost is negligible next
   * to a full-image kernel. */
  CLFX_CREATE (ctx->queue, error, fail, device->name, clCreateCommandQueue,
               ctx->context, device->id, CL_QUEUE_PROFILING_ENABLE);
  clfx_context_set_cache_dir (ctx, NULL);
  {
    /* CLFX_ZERO_COPY=off forces the staged path, so that tests cover it
     * on CPU devices too. */
    const char *zc = getenv ("CLFX_ZERO_COPY");
    ctx->zero_copy = device->host_unified && ! (zc && ! strcmp (zc, "off"));
  }
  return ctx;
fail:
  clfx_context_free (ctx);
  return NULL;
}

void
clfx_context_free (ClfxContext *ctx)
{
  if (! ctx)
    return;
  clfx_context_begin (ctx); /* releases pending events */
  for (int i = 0; i < ctx->n_programs; i++)
    {
      if (ctx->programs[i].program)
        clReleaseProgram (ctx->programs[i].program);
      free (ctx->programs[i].record.log);
    }
  if (ctx->staging)
    {
      if (ctx->staging_ptr)
        clEnqueueUnmapMemObject (ctx->queue, ctx->staging, ctx->staging_ptr,
                                 0, NULL, NULL);
      clFinish (ctx->queue);
      clReleaseMemObject (ctx->staging);
    }
  if (ctx->queue)
    clReleaseCommandQueue (ctx->queue);
  if (ctx->context)
    clReleaseContext (ctx->context);
  free (ctx);
}

static char *
build_log (cl_program prog, cl_device_id dev)
{
  size_t n = 0;
  char  *log;

  if (clGetProgramBuildInfo (prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &n)
        != CL_SUCCESS
      || ! (log = malloc (n + 1)))
    return strdup ("(build log unavailable)");
  if (clGetProgramBuildInfo (prog, dev, CL_PROGRAM_BUILD_LOG, n, log, NULL)
      != CL_SUCCESS)
    n = 0;
  log[n] = '\0';
  /* Drivers pad the log with newlines and NULs; trim the tail. */
  while (n > 0 && (log[n - 1] == '\n' || log[n - 1] == '\0'
                   || log[n - 1] == ' '))
    log[--n] = '\0';
  return log;
}

/* clBuildProgram under the C locale: some compilers parse float literals
 * with the process locale (darktable hit this with AMD). */
static cl_int
build_in_c_locale (cl_program prog, cl_device_id dev, const char *options)
{
  locale_t c = newlocale (LC_ALL_MASK, "C", (locale_t) 0);
  locale_t old = c ? uselocale (c) : (locale_t) 0;
  cl_int   st = clfx_fault_take ("clBuildProgram");

  if (st == CL_SUCCESS)
    st = clBuildProgram (prog, 1, &dev, options, NULL, NULL);
  if (c)
    {
      uselocale (old);
      freelocale (c);
    }
  return st;
}

static uint64_t
cache_key (const ClfxDeviceInfo *d, const char *source, const char *options)
{
  uint64_t h = CLFX_HASH_INIT;
  char     version[16];

  snprintf (version, sizeof version, "v%d", CLFX_CACHE_VERSION);
  h = clfx_hash_str (h, version);
  h = clfx_hash_str (h, source);
  h = clfx_hash_str (h, options);
  h = clfx_hash_str (h, d->name);
  h = clfx_hash_str (h, d->version);
  h = clfx_hash_str (h, d->driver);
  h = clfx_hash_str (h, d->platform_name);
  h = clfx_hash_str (h, d->platform_version);
  return h;
}

static bool
try_cached_binary (ClfxContext *ctx, const char *path, uint64_t key,
                   const char *options, ClfxBuildRecord *rec,
                   cl_program *out)
{
  unsigned char *bin = NULL;
  size_t         len = 0;
  cl_int         st, bin_st = CL_SUCCESS;
  cl_program     prog;

  if (! clfx_cache_load (path, key, &bin, &len, rec->cache_note,
                         sizeof rec->cache_note))
    return false;
  prog = clCreateProgramWithBinary (ctx->context, 1, &ctx->device.id, &len,
                                    (const unsigned char **) &bin, &bin_st,
                                    &st);
  free (bin);
  if (st != CL_SUCCESS || bin_st != CL_SUCCESS || ! prog)
    {
      snprintf (rec->cache_note, sizeof rec->cache_note,
                "driver rejected the cached binary (%s)",
                clfx_cl_error_name (st != CL_SUCCESS ? st : bin_st));
      remove (path);
      return false;
    }
  st = build_in_c_locale (prog, ctx->device.id, options);
  if (st != CL_SUCCESS)
    {
      snprintf (rec->cache_note, sizeof rec->cache_note,
                "cached binary failed to build (%s)",
                clfx_cl_error_name (st));
      clReleaseProgram (prog);
      remove (path);
      return false;
    }
  rec->log = build_log (prog, ctx->device.id);
  *out = prog;
  return true;
}

static void
store_binary (ClfxContext *ctx, cl_program prog, const char *path,
              uint64_t key)
{
  size_t         len = 0;
  unsigned char *bin;

  if (clGetProgramInfo (prog, CL_PROGRAM_BINARY_SIZES, sizeof len, &len,
                        NULL) != CL_SUCCESS
      || len == 0 || ! (bin = malloc (len)))
    return;
  if (clGetProgramInfo (prog, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL)
      == CL_SUCCESS)
    clfx_cache_store (path, key, bin, len);
  free (bin);
  (void) ctx;
}

/* Builds program `name` with `options` into slot `slot`. */
static bool
build_program (ClfxContext *ctx, const char *name, const char *options,
               int slot, ClfxError *error)
{
  ClfxBuildRecord *rec = &ctx->programs[slot].record;
  char            *source = NULL;
  cl_program       prog = NULL;
  double           t0 = clfx_now_ms ();
  char             path[800] = "";
  uint64_t         key;
  cl_int           st;
  bool             ok = false;

  memset (rec, 0, sizeof *rec);
  snprintf (rec->program, sizeof rec->program, "%s", name);
  snprintf (rec->options, sizeof rec->options, "%s", options);
  rec->cache = ctx->cache_dir[0] ? "miss" : "off";

  source = clfx_program_source (name, error);
  if (! source)
    goto out;
  key = cache_key (&ctx->device, source, options);
  if (ctx->cache_dir[0])
    {
      snprintf (path, sizeof path, "%s/%s-%016llx.bin", ctx->cache_dir, name,
                (unsigned long long) key);
      if (try_cached_binary (ctx, path, key, options, rec, &prog))
        {
          rec->cache = "hit";
          rec->ok = true;
          ok = true;
          goto out;
        }
    }

  CLFX_CREATE (prog, error, out, name, clCreateProgramWithSource,
               ctx->context, 1, (const char **) &source, NULL);
  st = build_in_c_locale (prog, ctx->device.id, options);
  rec->log = build_log (prog, ctx->device.id);
  if (st != CL_SUCCESS)
    {
      clfx_error_set (error, CLFX_ERR_BUILD,
                      "clBuildProgram (%s, options \"%s\"): %s at %s:%d\n%s",
                      name, options, clfx_cl_error_name (st),
                      clfx_source_site (__FILE__), __LINE__, rec->log);
      if (error)
        error->cl_status = st;
      goto out;
    }
  rec->ok = true;
  ok = true;
  if (path[0])
    store_binary (ctx, prog, path, key);
out:
  rec->ms = clfx_now_ms () - t0;
  if (! rec->log)
    rec->log = strdup ("");
  if (! ok && prog)
    {
      clReleaseProgram (prog);
      prog = NULL;
    }
  ctx->programs[slot].program = prog;
  free (source);
  return ok;
}

cl_kernel
clfx_context_kernel (ClfxContext *ctx, const char *program,
                     const char *options, const char *kernel,
                     ClfxError *error)
{
  char      key[320];
  char      full[256];
  int       slot = -1;
  cl_kernel k = NULL;

  /* Same arithmetic on both paths: see kernels/clfx-common.h. */
  snprintf (full, sizeof full, "-cl-std=CL1.2%s %s",
            ctx->fast_math ? " -cl-fast-relaxed-math" : "", options);
  snprintf (key, sizeof key, "%s|%s", program, full);
  for (int i = 0; i < ctx->n_programs; i++)
    if (strcmp (ctx->programs[i].key, key) == 0)
      slot = i;
  if (slot < 0)
    {
      if (ctx->n_programs == CLFX_MAX_PROGRAMS)
        {
          clfx_error_set (error, CLFX_ERR_UNSUPPORTED,
                          "too many program variants in one context");
          return NULL;
        }
      slot = ctx->n_programs++;
      snprintf (ctx->programs[slot].key, sizeof ctx->programs[slot].key, "%s",
                key);
      build_program (ctx, program, full, slot, error);
    }
  /* Record the use even when the build failed: the log explains why. */
  {
    bool listed = false;
    for (int i = 0; i < ctx->n_used; i++)
      listed |= ctx->used[i] == slot;
    if (! listed && ctx->n_used < CLFX_MAX_PROGRAMS)
      ctx->used[ctx->n_used++] = slot;
  }
  if (! ctx->programs[slot].program)
    {
      if (error && error->code == CLFX_OK)
        clfx_error_set (error, CLFX_ERR_BUILD,
                        "program '%s' failed to build earlier:\n%s", program,
                        ctx->programs[slot].record.log);
      return NULL;
    }
  CLFX_CREATE (k, error, out, kernel, clCreateKernel,
               ctx->programs[slot].program, kernel);
out:
  return k;
}

void
clfx_context_begin (ClfxContext *ctx)
{
  for (int i = 0; i < ctx->n_events; i++)
    if (ctx->events[i].event)
      clReleaseEvent (ctx->events[i].event);
  ctx->n_events = 0;
  ctx->n_used = 0;
  ctx->stage_ms = 0;
  ctx->zero_copy_ms = 0;
}

void
clfx_context_track (ClfxContext *ctx, cl_event ev, ClfxEventKind kind,
                    const char *tag)
{
  if (! ev)
    return;
  if (ctx->n_events == CLFX_MAX_EVENTS)
    {
      /* Out of slots: lose the timing, never the event handle. */
      clReleaseEvent (ev);
      return;
    }
  ctx->events[ctx->n_events].event = ev;
  ctx->events[ctx->n_events].kind = kind;
  snprintf (ctx->events[ctx->n_events].tag,
            sizeof ctx->events[ctx->n_events].tag, "%s", tag);
  ctx->n_events++;
}

bool
clfx_context_finish (ClfxContext *ctx, ClfxTimings *t, ClfxError *error)
{
  bool ok = false;

  CLFX_CHECK (error, out, NULL, clFinish, ctx->queue);
  for (int i = 0; i < ctx->n_events; i++)
    {
      cl_ulong start = 0, end = 0;
      cl_int   status = CL_COMPLETE;
      double   ms;

      /* An asynchronous failure shows only in the event's status. */
      CLFX_CHECK (error, out, ctx->events[i].tag, clGetEventInfo,
                  ctx->events[i].event, CL_EVENT_COMMAND_EXECUTION_STATUS,
                  sizeof status, &status, NULL);
      if (status < 0)
        {
          clfx_error_set_cl (error, status, "command execution",
                             ctx->events[i].tag, __FILE__, __LINE__);
          goto out;
        }
      CLFX_CHECK (error, out, ctx->events[i].tag, clGetEventProfilingInfo,
                  ctx->events[i].event, CL_PROFILING_COMMAND_START,
                  sizeof start, &start, NULL);
      CLFX_CHECK (error, out, ctx->events[i].tag, clGetEventProfilingInfo,
                  ctx->events[i].event, CL_PROFILING_COMMAND_END, sizeof end,
                  &end, NULL);
      ms = (double) (end - start) * 1e-6;
      if (! t)
        continue;
      switch (ctx->events[i].kind)
        {
        case CLFX_EV_UPLOAD:
          t->upload_ms += ms;
          break;
        case CLFX_EV_DOWNLOAD:
          t->download_ms += ms;
          break;
        case CLFX_EV_KERNEL:
          {
            int k;
            for (k = 0; k < t->n_kernels; k++)
              if (strcmp (t->kernels[k].name, ctx->events[i].tag) == 0)
                break;
            if (k == t->n_kernels && k < 16)
              {
                snprintf (t->kernels[k].name, sizeof t->kernels[k].name,
                          "%s", ctx->events[i].tag);
                t->kernels[k].ms = 0;
                t->n_kernels++;
              }
            if (k < 16)
              t->kernels[k].ms += ms;
          }
          break;
        }
    }
  if (t)
    {
      t->stage_ms += ctx->stage_ms;
      t->upload_ms += ctx->zero_copy_ms;
      t->zero_copy = ctx->zero_copy;
    }
  ctx->stage_ms = 0;
  ctx->zero_copy_ms = 0;
  ok = true;
out:
  for (int i = 0; i < ctx->n_events; i++)
    clReleaseEvent (ctx->events[i].event);
  ctx->n_events = 0;
  return ok;
}

void *
clfx_context_staging (ClfxContext *ctx, size_t bytes, ClfxError *error)
{
  cl_mem buf = NULL;
  void  *ptr = NULL;

  if (ctx->staging && ctx->staging_size >= bytes)
    return ctx->staging_ptr;
  if (ctx->staging)
    {
      cl_mem old = ctx->staging;
      void  *old_ptr = ctx->staging_ptr;
      /* Forget it first: whatever happens below, it is not used again. */
      ctx->staging = NULL;
      ctx->staging_ptr = NULL;
      ctx->staging_size = 0;
      CLFX_CHECK (error, fail_old, "staging", clEnqueueUnmapMemObject,
                  ctx->queue, old, old_ptr, 0, NULL, NULL);
      CLFX_CHECK (error, fail_old, "staging", clFinish, ctx->queue);
      clReleaseMemObject (old);
      goto grow;
    fail_old:
      clReleaseMemObject (old);
      return NULL;
    }
grow:
  /* ALLOC_HOST_PTR + a persistent map is how drivers hand out page-locked
   * memory; copies from it run at the full DMA rate, copies from malloc'd
   * memory go through a bounce buffer (6x slower measured on NVIDIA). */
  CLFX_CREATE (buf, error, fail, "staging", clCreateBuffer, ctx->context,
               CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, NULL);
  CLFX_CREATE (ptr, error, fail, "staging", clEnqueueMapBuffer, ctx->queue,
               buf, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL,
               NULL);
  ctx->staging = buf;
  ctx->staging_ptr = ptr;
  ctx->staging_size = bytes;
  return ptr;
fail:
  if (buf)
    clReleaseMemObject (buf);
  return NULL;
}

/* Formats a driver lists but reads wrongly.  Each entry was caught by a
 * test; the engine then carries such images as RGBA, as it does where a
 * format is missing. */
static const struct
{
  const char        *platform; /* substring of the platform name */
  cl_channel_order   order;
  cl_channel_type    type;
} broken_formats[] = {
  /* PoCL 3.1 and 6.0: read_imagef on CL_R + CL_HALF_FLOAT returns garbage
   * (a copy of a gray half image fails every pixel), while the same data
   * as CL_RGBA reads right. */
  { "Portable Computing Language", CL_R, CL_HALF_FLOAT },
};

static bool
format_supported (ClfxContext *ctx, const cl_image_format *fmt,
                  ClfxError *error)
{
  cl_image_format list[256];
  cl_uint         n = 0;

  for (size_t i = 0; i < sizeof broken_formats / sizeof broken_formats[0];
       i++)
    if (strstr (ctx->device.platform_name, broken_formats[i].platform)
        && fmt->image_channel_order == broken_formats[i].order
        && fmt->image_channel_data_type == broken_formats[i].type)
      return false;

  CLFX_CHECK (error, fail, NULL, clGetSupportedImageFormats, ctx->context,
              CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 256, list, &n);
  for (cl_uint i = 0; i < n && i < 256; i++)
    if (list[i].image_channel_order == fmt->image_channel_order
        && list[i].image_channel_data_type == fmt->image_channel_data_type)
      return true;
fail:
  return false;
}

bool
clfx_context_image_format (ClfxContext *ctx, int width, int height,
                           int channels, ClfxDepth depth,
                           cl_image_format *fmt, ClfxError *error)
{
  static const cl_channel_type types[CLFX_N_DEPTHS]
    = { CL_UNORM_INT8, CL_UNORM_INT16, CL_HALF_FLOAT, CL_FLOAT };
  static const char *type_names[CLFX_N_DEPTHS]
    = { "CL_UNORM_INT8", "CL_UNORM_INT16", "CL_HALF_FLOAT", "CL_FLOAT" };
  ClfxError probe = { 0 };
  size_t    bytes;

  fmt->image_channel_order = channels == 1   ? CL_R
                             : channels == 2 ? CL_RG
                                             : CL_RGBA;
  fmt->image_channel_data_type = types[depth];
  if ((size_t) width > ctx->device.image2d_max_width
      || (size_t) height > ctx->device.image2d_max_height)
    return clfx_error_set (error, CLFX_ERR_UNSUPPORTED,
                           "%dx%d exceeds the device's largest 2D image "
                           "(%zux%zu)", width, height,
                           ctx->device.image2d_max_width,
                           ctx->device.image2d_max_height);
  if (! format_supported (ctx, fmt, &probe))
    {
      if (probe.code != CLFX_OK)
        {
          *error = probe;
          return false;
        }
      /* CL_RG is optional before OpenCL 2.0 (PoCL lacks it), and some
       * drivers read a listed format wrongly: carry gray and gray+alpha as
       * RGBA (gray, gray, gray, alpha) instead; the store then writes x,
       * or (x, w) for gray+alpha (CLFX_GA_IN_RGBA). */
      fmt->image_channel_order = CL_RGBA;
      if (channels == 4 || ! format_supported (ctx, fmt, &probe))
        {
          if (probe.code != CLFX_OK)
            {
              *error = probe;
              return false;
            }
          return clfx_error_set (error, CLFX_ERR_UNSUPPORTED,
                                 "the device has no %s image format with %s",
                                 channels == 1   ? "CL_R"
                                 : channels == 2 ? "CL_RG"
                                                 : "CL_RGBA",
                                 type_names[depth]);
        }
      channels = 4;
    }
  bytes = (size_t) width * (size_t) height * (size_t) channels
          * clfx_depth_size (depth);
  if (bytes > ctx->device.max_alloc)
    return clfx_error_set (error, CLFX_ERR_UNSUPPORTED,
                           "a %dx%d %s image needs %zu bytes, more than the "
                           "device's largest allocation (%llu)", width,
                           height, clfx_depth_name (depth), bytes,
                           (unsigned long long) ctx->device.max_alloc);
  return true;
}

int
clfx_context_rows_per_item (const ClfxContext *ctx, const ClfxImage *dst)
{
  const char *env = getenv ("CLFX_ROWS_PER_ITEM");
  long        n = env ? strtol (env, NULL, 10) : 0;

  (void) ctx;
  /* Measured on an H200 (docs/PERFORMANCE.md): 4 rows lift the u8 copy
   * from 2.4 to 3.7 TB/s, but slow the float copy (4.2 to 3.4 TB/s),
   * whose 16-byte pixels already keep the memory system busy. */
  if (n >= 1 && n <= 16)
    return (int) n;
  return clfx_image_pixel_size (dst) >= 16 ? 1 : 4;
}

void
clfx_context_store_options (ClfxContext *ctx, const ClfxImage *dst,
                            bool premultiply, char *buf, size_t n)
{
  snprintf (buf, n,
            "-DCLFX_DEPTH=%d -DCLFX_CHANNELS=%d -DCLFX_GA_IN_RGBA=%d "
            "-DCLFX_ROWS_PER_ITEM=%d -DCLFX_PREMUL=%d",
            (int) dst->depth, dst->channels,
            ctx->gray_in_rgba && dst->channels == 2 ? 1 : 0,
            clfx_context_rows_per_item (ctx, dst), premultiply ? 1 : 0);
}

/* Host-side copy of a gray or gray+alpha image into RGBA (gray, gray,
 * gray, alpha) of the same depth; alpha is the format's 1 for gray. */
static void
expand_gray (const ClfxImage *img, char *stage)
{
  size_t    bps = clfx_depth_size (img->depth);
  size_t    in_px = (size_t) img->channels * bps;
  float     one_storage = 0; /* 4 bytes, aligned for any depth */
  ClfxImage one = { 1, 1, 1, img->depth, bps, &one_storage, false };
  const char *alpha1 = (const char *) &one_storage;

  clfx_image_set (&one, 0, 0, 0, 1.0f); /* 1.0 in this depth's encoding */

  for (int y = 0; y < img->height; y++)
    {
      const char *in = (const char *) img->data + (size_t) y * img->stride;
      char       *out = stage + (size_t) y * (size_t) img->width * 4 * bps;
      for (int x = 0; x < img->width; x++, in += in_px, out += 4 * bps)
        {
          memcpy (out, in, bps);
          memcpy (out + bps, in, bps);
          memcpy (out + 2 * bps, in, bps);
          memcpy (out + 3 * bps, img->channels == 2 ? in + bps : alpha1, bps);
        }
    }
}

cl_mem
clfx_context_upload (ClfxContext *ctx, const ClfxImage *img, ClfxError *error)
{
  size_t          row;
  size_t          bytes;
  size_t          origin[3] = { 0, 0, 0 };
  size_t          region[3] = { (size_t) img->width, (size_t) img->height, 1 };
  cl_image_format fmt;
  cl_image_desc   desc = { .image_type = CL_MEM_OBJECT_IMAGE2D,
                           .image_width = (size_t) img->width,
                           .image_height = (size_t) img->height };
  cl_mem          mem = NULL;
  cl_event        ev = NULL;
  char           *stage;
  double          t0;

  if (! clfx_context_image_format (ctx, img->width, img->height,
                                   img->channels, img->depth, &fmt, error))
    return NULL;
  ctx->gray_in_rgba = img->channels < 4 && fmt.image_channel_order == CL_RGBA;
  if (ctx->zero_copy && ! ctx->gray_in_rgba)
    {
      /* The device works in host memory: it reads the caller's pixels
       * where they are.  READ_ONLY, so the cast drops no promise. */
      t0 = clfx_now_ms ();
      desc.image_row_pitch = img->stride;
      CLFX_CREATE (mem, error, fail, "source image", clCreateImage,
                   ctx->context, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, &fmt,
                   &desc, (void *) img->data);
      ctx->zero_copy_ms += clfx_now_ms () - t0;
      return mem;
    }
  row = (size_t) img->width * (ctx->gray_in_rgba ? 4 : (size_t) img->channels)
        * clfx_depth_size (img->depth);
  bytes = row * (size_t) img->height;
  stage = clfx_context_staging (ctx, bytes, error);
  if (! stage)
    return NULL;
  t0 = clfx_now_ms ();
  if (ctx->gray_in_rgba)
    expand_gray (img, stage);
  else
    clfx_parallel_copy_rows (stage, row, img->data, img->stride, row,
                             img->height);
  ctx->stage_ms += clfx_now_ms () - t0;
  CLFX_CREATE (mem, error, fail, "source image", clCreateImage, ctx->context,
               CL_MEM_READ_ONLY, &fmt, &desc, NULL);
  CLFX_CHECK (error, fail, "source image", clEnqueueWriteImage, ctx->queue,
              mem, CL_FALSE, origin, region, row, 0, stage, 0, NULL, &ev);
  clfx_context_track (ctx, ev, CLFX_EV_UPLOAD, "upload");
  return mem;
fail:
  if (mem)
    clReleaseMemObject (mem);
  return NULL;
}

static void CL_CALLBACK
free_host_pixels (cl_mem mem, void *host)
{
  (void) mem;
  free (host);
}

size_t
clfx_context_guard (const ClfxContext *ctx)
{
  /* A multiple of 16 keeps every pixel aligned to its size (1 to 16
   * bytes), which clfx_store's vector stores rely on. */
  return (ctx->guard_bytes + 15) / 16 * 16;
}

cl_mem
clfx_context_output (ClfxContext *ctx, const ClfxImage *dst, cl_long *offset,
                     cl_long *pitch, ClfxError *error)
{
  size_t row = (size_t) dst->width * clfx_image_pixel_size (dst);
  size_t g = clfx_context_guard (ctx);
  size_t bytes;
  cl_mem buf = NULL;
  void  *host = NULL;

  /* Guard band: g bytes before the first row, after every row and after
   * the last, so a write one pixel (or one row) out lands in the band. */
  *pitch = (cl_long) (row + g);
  *offset = (cl_long) g;
  bytes = g + (size_t) dst->height * (row + g);
  if (bytes > ctx->device.max_alloc)
    {
      clfx_error_set (error, CLFX_ERR_UNSUPPORTED,
                      "the %dx%d result needs %zu bytes, more than the "
                      "device's largest allocation (%llu)", dst->width,
                      dst->height, bytes,
                      (unsigned long long) ctx->device.max_alloc);
      return NULL;
    }
  if (ctx->zero_copy && g == 0 && dst->stride == row)
    /* Without a guard band the result has the caller's layout: the device
     * writes into the caller's image itself. */
    CLFX_CREATE (buf, error, fail, "result", clCreateBuffer, ctx->context,
                 CL_MEM_WRITE_ONLY | CL_MEM_USE_HOST_PTR, bytes, dst->data);
  else if (ctx->zero_copy)
    {
      /* The device writes straight into host memory that the download
       * only maps; the buffer frees that memory when OpenCL is done. */
      if (! (host = clfx_pixels_alloc (bytes)))
        {
          clfx_error_set (error, CLFX_ERR_NOMEM,
                          "out of memory for the %dx%d result (%zu bytes)",
                          dst->width, dst->height, bytes);
          return NULL;
        }
      CLFX_CREATE (buf, error, fail, "result", clCreateBuffer, ctx->context,
                   CL_MEM_WRITE_ONLY | CL_MEM_USE_HOST_PTR, bytes, host);
      CLFX_CHECK (error, fail, "result", clSetMemObjectDestructorCallback,
                  buf, free_host_pixels, host);
      host = NULL; /* the buffer's now */
    }
  else
    CLFX_CREATE (buf, error, fail, "result", clCreateBuffer, ctx->context,
                 CL_MEM_WRITE_ONLY, bytes, NULL);
  if (g)
    {
      unsigned char pattern = CLFX_GUARD_BYTE;
      cl_event      ev = NULL;
      CLFX_CHECK (error, fail, "guard band", clEnqueueFillBuffer, ctx->queue,
                  buf, &pattern, 1, 0, bytes, 0, NULL, &ev);
      clReleaseEvent (ev);
    }
  return buf;
fail:
  if (buf)
    clReleaseMemObject (buf);
  free (host);
  return NULL;
}

static bool
check_guard (const unsigned char *p, size_t n, size_t base, ClfxError *error)
{
  for (size_t i = 0; i < n; i++)
    if (p[i] != CLFX_GUARD_BYTE)
      return clfx_error_set (error, CLFX_ERR_GUARD,
                             "a kernel wrote outside its output: guard band "
                             "byte %zu is 0x%02x, expected 0x%02x", base + i,
                             p[i], CLFX_GUARD_BYTE);
  return true;
}

bool
clfx_context_download (ClfxContext *ctx, cl_mem buf, ClfxImage *dst,
                       ClfxError *error)
{
  size_t         row = (size_t) dst->width * clfx_image_pixel_size (dst);
  size_t         g = clfx_context_guard (ctx);
  size_t         pitch = row + g;
  size_t         bytes = g + (size_t) dst->height * pitch;
  unsigned char *stage = NULL;
  cl_event       ev = NULL;
  double         t0;
  bool           ok = false;

  if (ctx->zero_copy)
    /* The result is host memory already: mapping it copies nothing. */
    CLFX_CREATE (stage, error, fail, "result", clEnqueueMapBuffer, ctx->queue,
                 buf, CL_TRUE, CL_MAP_READ, 0, bytes, 0, NULL, &ev);
  else
    {
      if (! (stage = clfx_context_staging (ctx, bytes, error)))
        return false;
      CLFX_CHECK (error, fail, "result", clEnqueueReadBuffer, ctx->queue, buf,
                  CL_TRUE, 0, bytes, stage, 0, NULL, &ev);
    }
  clfx_context_track (ctx, ev, CLFX_EV_DOWNLOAD, "download");
  if (g && ! check_guard (stage, g, 0, error))
    goto out;
  for (int y = 0; g && y < dst->height; y++)
    if (! check_guard (stage + g + (size_t) y * pitch + row, g,
                       g + (size_t) y * pitch + row, error))
      goto out;
  t0 = clfx_now_ms ();
  if (stage + g != (unsigned char *) dst->data) /* unless it wrote there */
    clfx_parallel_copy_rows (dst->data, dst->stride, stage + g, pitch, row,
                             dst->height);
  ctx->stage_ms += clfx_now_ms () - t0;
  ok = true;
out:
  if (ctx->zero_copy)
    CLFX_CHECK (error, fail, "result", clEnqueueUnmapMemObject, ctx->queue,
                buf, stage, 0, NULL, NULL);
  return ok;
fail:
  return false;
}

bool
clfx_context_launch (ClfxContext *ctx, cl_kernel kernel, const char *tag,
                     size_t width, size_t height, ClfxError *error)
{
  size_t   local[2] = { 16, 16 };
  size_t   global[2];
  cl_event ev = NULL;
  bool     use_local = ctx->device.max_work_group >= 256;

  if (! use_local)
    local[0] = local[1] = 1;
  global[0] = (width + local[0] - 1) / local[0] * local[0];
  global[1] = (height + local[1] - 1) / local[1] * local[1];
  CLFX_CHECK (error, fail, tag, clEnqueueNDRangeKernel, ctx->queue, kernel,
              2, NULL, global, use_local ? local : NULL, 0, NULL, &ev);
  clfx_context_track (ctx, ev, CLFX_EV_KERNEL, tag);
  return true;
fail:
  return false;
}

bool
clfx_sampler_check (bool normalized, int addressing, ClfxError *error)
{
  static const char *names[] = { "clamp-to-edge", "clamp", "repeat",
                                 "mirrored-repeat", "none" };

  if (addressing < 0 || addressing > 4)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "unknown addressing mode %d", addressing);
  if (! normalized && (addressing == 2 || addressing == 3))
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "addressing '%s' needs normalized coordinates: "
                           "the OpenCL C spec defines CLK_ADDRESS_REPEAT and "
                           "CLK_ADDRESS_MIRRORED_REPEAT only with "
                           "CLK_NORMALIZED_COORDS_TRUE", names[addressing]);
  return true;
}

cl_sampler
clfx_context_sampler (ClfxContext *ctx, bool normalized, int addressing,
                      bool linear, ClfxError *error)
{
  static const cl_addressing_mode modes[] = {
    CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP, CL_ADDRESS_REPEAT,
    CL_ADDRESS_MIRRORED_REPEAT, CL_ADDRESS_NONE
  };
  cl_sampler s = NULL;

  if (! clfx_sampler_check (normalized, addressing, error))
    return NULL;
  CLFX_CREATE (s, error, out, "sampler", clCreateSampler, ctx->context,
               normalized ? CL_TRUE : CL_FALSE, modes[addressing],
               linear ? CL_FILTER_LINEAR : CL_FILTER_NEAREST);
out:
  return s;
}
