/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-context.c: making and freeing a device's context and queues. */
#define _GNU_SOURCE /* mkdir modes */
#include "clfx-context.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Makes dir and its missing parents, each 0700 (the user's alone). */
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
        if (mkdir (tmp, 0700) != 0 && errno != EEXIST)
          return false;
        *p = '/';
      }
  return mkdir (tmp, 0700) == 0 || errno == EEXIST;
}

/* Whether dir may hold the cache: a folder (not a link to one) this user
 * owns that nobody else may write; else why not. */
static bool
cache_dir_safe (const char *dir, char *why, size_t why_len)
{
  struct stat st;

  if (lstat (dir, &st) != 0)
    snprintf (why, why_len, "%s", strerror (errno));
  else if (! S_ISDIR (st.st_mode))
    snprintf (why, why_len, "not a folder");
  else if (st.st_uid != geteuid ())
    snprintf (why, why_len, "owned by another user (uid %ld)",
              (long) st.st_uid);
  else if (st.st_mode & (S_IWGRP | S_IWOTH))
    snprintf (why, why_len, "writable by others (mode %03o)",
              (unsigned) (st.st_mode & 0777));
  else
    return true;
  return false;
}

/* Whether the device's driver keeps a cache of its own builds that makes
 * clfx's redundant: PoCL does (POCL_KERNEL_CACHE, on unless set to 0), and
 * it compiles a kernel when it is first launched, so the binary clfx would
 * store makes it compile every kernel of the program at once, most of
 * which the run never launches (docs/PERFORMANCE.md, cold first use). */
static bool
driver_caches_builds (const ClfxDeviceInfo *device)
{
  const char *pocl_cache = getenv ("POCL_KERNEL_CACHE");

  return strstr (device->platform_name, "Portable Computing Language")
         && ! (pocl_cache && strcmp (pocl_cache, "0") == 0);
}

void
clfx_context_set_cache_dir (ClfxContext *ctx, const char *dir)
{
  const char *env = clfx_config_cache_dir ();
  const char *xdg = getenv ("XDG_CACHE_HOME");
  const char *home = getenv ("HOME");
  char        why[64];
  int         n = 0;

  ctx->cache_dir[0] = '\0';
  ctx->cache_off[0] = '\0';
  if (! dir && env)
    dir = env;
  if (dir && strcmp (dir, "off") == 0)
    return;
  if (! dir && driver_caches_builds (&ctx->device))
    {
      snprintf (ctx->cache_off, sizeof ctx->cache_off,
                "the driver caches its own builds, kernel by kernel as they "
                "are first launched (PoCL); set CLFX_CACHE_DIR to use "
                "clfx's cache as well");
      return;
    }
  if (dir)
    n = snprintf (ctx->cache_dir, sizeof ctx->cache_dir, "%s", dir);
  else if (xdg && *xdg)
    n = snprintf (ctx->cache_dir, sizeof ctx->cache_dir, "%s/clfx/kernels",
                  xdg);
  else if (home && *home)
    n = snprintf (ctx->cache_dir, sizeof ctx->cache_dir,
                  "%s/.cache/clfx/kernels", home);
  if (n < 0 || (size_t) n >= sizeof ctx->cache_dir)
    {
      /* Cut, it would name a folder nobody asked for. */
      snprintf (ctx->cache_off, sizeof ctx->cache_off,
                "the cache folder's path is %d bytes, more than %zu: not "
                "used", n, sizeof ctx->cache_dir - 1);
      ctx->cache_dir[0] = '\0';
      return;
    }
  if (! ctx->cache_dir[0])
    return;
  if (! mkdir_p (ctx->cache_dir))
    snprintf (why, sizeof why, "cannot be made (%s)", strerror (errno));
  else if (cache_dir_safe (ctx->cache_dir, why, sizeof why))
    return;
  snprintf (ctx->cache_off, sizeof ctx->cache_off,
            "the cache folder %.40s%s is %s: not used", ctx->cache_dir,
            strlen (ctx->cache_dir) > 40 ? "..." : "", why);
  ctx->cache_dir[0] = '\0';
}

ClfxContext *
clfx_context_new (const ClfxDeviceInfo *device, ClfxError *error)
{
  return clfx_context_new_in (device, NULL, error);
}

ClfxContext *
clfx_context_new_in (const ClfxDeviceInfo *device, cl_context shared,
                     ClfxError *error)
{
  ClfxTuning tuning;
  char       note[sizeof ((ClfxContext *) 0)->tuning_note];

  clfx_tuning_read (&tuning, note, sizeof note);
  return clfx_context_new_tuned (device, shared, &tuning, note, error);
}

ClfxContext *
clfx_context_new_tuned (const ClfxDeviceInfo *device, cl_context shared,
                        const ClfxTuning *tuning, const char *tuning_note,
                        ClfxError *error)
{
  ClfxContext *ctx = calloc (1, sizeof *ctx);

  if (! ctx)
    {
      clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
      return NULL;
    }
  ctx->refs = 1;
  ctx->device = *device;
  ctx->tuning = *tuning;
  snprintf (ctx->tuning_note, sizeof ctx->tuning_note, "%s", tuning_note);
  if (shared)
    {
      CLFX_CHECK (error, fail, device->name, clRetainContext, shared);
      ctx->context = shared;
    }
  else
    CLFX_CREATE (ctx->context, error, fail, device->name, clCreateContext,
                 NULL, 1, &device->id, NULL, NULL);
  /* Profiling is always on: the Diagnostics tab and the report show
   * per-kernel device time for every run, and its cost is negligible next
   * to a full-image kernel. */
  CLFX_CREATE (ctx->queue, error, fail, device->name, clCreateCommandQueue,
               ctx->context, device->id, CL_QUEUE_PROFILING_ENABLE);
  CLFX_CREATE (ctx->upload_queue, error, fail, device->name,
               clCreateCommandQueue, ctx->context, device->id,
               CL_QUEUE_PROFILING_ENABLE);
  CLFX_CREATE (ctx->download_queue, error, fail, device->name,
               clCreateCommandQueue, ctx->context, device->id,
               CL_QUEUE_PROFILING_ENABLE);
  clfx_context_set_cache_dir (ctx, NULL);
  /* CLFX_DEV zero-copy=off forces the staged path, so that tests cover it on
   * CPU devices too. */
  ctx->zero_copy = device->host_unified && ! ctx->tuning.zero_copy_off;
  return ctx;
fail:
  clfx_context_free (ctx);
  return NULL;
}

static atomic_long maps_open;

void
clfx_maps_opened (void)
{
  atomic_fetch_add (&maps_open, 1);
}

void
clfx_maps_closed (void)
{
  atomic_fetch_sub (&maps_open, 1);
}

long
clfx_maps_open (void)
{
  return atomic_load (&maps_open);
}

void
clfx_context_unmap_again (ClfxContext *ctx, cl_mem buf, void *ptr)
{
  ClfxError again = { 0 };

  CLFX_CHECK (&again, out, "after a failed unmap", clEnqueueUnmapMemObject,
              ctx->queue, buf, ptr, 0, NULL, NULL);
  clfx_maps_closed ();
  CLFX_CHECK (&again, out, "after a failed unmap", clFinish, ctx->queue);
out:
  return;
}

/* At the context's end there is nobody to tell of a failure, but a failed
 * unmap is tried once more, as everywhere else (a buffer released while
 * still mapped is never freed).  Plain calls, not CLFX_CHECK: an injected
 * fault (CLFX_DEV fault=) counts the calls of runs, not of the teardown. */
static void
release_pinned (ClfxContext *ctx, ClfxPinned *p)
{
  if (! p->buffer)
    return;
  for (int attempt = 0; p->ptr && attempt < 2; attempt++)
    if (clEnqueueUnmapMemObject (ctx->queue, p->buffer, p->ptr, 0, NULL,
                                 NULL) == CL_SUCCESS)
      {
        clfx_maps_closed ();
        p->ptr = NULL;
      }
  clFinish (ctx->queue);
  clReleaseMemObject (p->buffer);
  memset (p, 0, sizeof *p);
}

void
clfx_context_free (ClfxContext *ctx)
{
  if (! ctx || --ctx->refs > 0)
    return;
  for (int i = 0; i < ctx->n_peers; i++)
    clfx_context_free (ctx->peers[i]);
  free (ctx->peers);
  clfx_context_begin (ctx); /* releases pending events */
  free (ctx->events);
  for (int i = 0; i < ctx->n_kernels; i++)
    {
      clReleaseKernel (ctx->kernels[i].kernel);
      free (ctx->kernels[i].arg_size);
      free (ctx->kernels[i].arg_type);
    }
  free (ctx->kernels);
  for (int i = 0; i < ctx->n_programs; i++)
    {
      if (ctx->programs[i].program)
        clReleaseProgram (ctx->programs[i].program);
      free (ctx->programs[i].record.log);
    }
  free (ctx->programs);
  free (ctx->used);
  for (int a = 0; a < 2; a++)
    for (int b = 0; b < 5; b++)
      for (int c = 0; c < 2; c++)
        if (ctx->samplers[a][b][c])
          clReleaseSampler (ctx->samplers[a][b][c]);
  if (ctx->srgb_u16_lut)
    clReleaseMemObject (ctx->srgb_u16_lut);
  if (ctx->queue)
    for (int d = 0; d < 2; d++)
      for (int s = 0; s < 2; s++)
        release_pinned (ctx, &ctx->staging[d][s]);
  /* Every run's memory objects are gone by now (graphs release theirs
   * when a run ends), so no command reads the blocks any more. */
  clfx_scratch_free_all (ctx);
  if (ctx->download_queue)
    clReleaseCommandQueue (ctx->download_queue);
  if (ctx->upload_queue)
    clReleaseCommandQueue (ctx->upload_queue);
  if (ctx->queue)
    clReleaseCommandQueue (ctx->queue);
  if (ctx->context)
    clReleaseContext (ctx->context);
  free (ctx);
}
