/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-build.c: programs (built from source or loaded from the binary
 * cache, once per context and options) and their kernels (created once,
 * with their work-group limits and declared arguments queried). */
#define _GNU_SOURCE /* newlocale/uselocale */
#include "clfx-context.h"

#include <locale.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clfx-array.h"
#include "clfx-program.h"

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

/* Whether every kernel the driver finds in prog is a kernel the source
 * declares ("__kernel void name", attributes such as
 * reqd_work_group_size allowed between): binds a cached binary to its program,
 * in a way the entry's own bytes cannot fake (another program's binary
 * under this key, which the header and checksum would let through, has
 * other kernels).  Names only: argument lists are not compared. */
static const char *
skip_space (const char *q)
{
  while (*q == ' ' || *q == '\t' || *q == '\n')
    q++;
  return q;
}

/* Past "__attribute__ ((...))" groups, parentheses balanced. */
static const char *
skip_attributes (const char *q)
{
  q = skip_space (q);
  while (strncmp (q, "__attribute__", 13) == 0)
    {
      int depth = 0;

      q = skip_space (q + 13);
      if (*q != '(')
        return q;
      do
        {
          if (*q == '(')
            depth++;
          else if (*q == ')')
            depth--;
          q++;
        }
      while (*q && depth > 0);
      q = skip_space (q);
    }
  return q;
}

static bool
kernels_of_source (cl_program prog, const char *source, char *why,
                   size_t why_len)
{
  size_t n = 0;
  char  *names, *save = NULL;
  bool   ok = true;

  if (clGetProgramInfo (prog, CL_PROGRAM_KERNEL_NAMES, 0, NULL, &n)
        != CL_SUCCESS
      || ! (names = malloc (n + 1)))
    {
      snprintf (why, why_len, "its kernel names could not be read");
      return false;
    }
  if (clGetProgramInfo (prog, CL_PROGRAM_KERNEL_NAMES, n, names, NULL)
      != CL_SUCCESS)
    n = 0;
  names[n] = '\0';
  for (char *k = strtok_r (names, ";", &save); ok && k;
       k = strtok_r (NULL, ";", &save))
    {
      const char *at = source;
      size_t      len = strlen (k);
      bool        found = false;
      while (! found && (at = strstr (at, "__kernel")))
        {
          const char *q = skip_attributes (at += 8);
          if (strncmp (q, "void", 4) != 0)
            continue;
          q = skip_space (q + 4);
          found = strncmp (q, k, len) == 0
                  && ! (isalnum ((unsigned char) q[len]) || q[len] == '_');
        }
      if (! found)
        {
          snprintf (why, why_len, "it holds kernel '%.40s', which this "
                    "program does not declare", k);
          ok = false;
        }
    }
  if (ok && n == 0)
    {
      snprintf (why, why_len, "it holds no kernels");
      ok = false;
    }
  free (names);
  return ok;
}

static bool
try_cached_binary (ClfxContext *ctx, const char *path, uint64_t key,
                   const char *options, const char *source,
                   ClfxBuildRecord *rec, cl_program *out)
{
  char           why[120];
  unsigned char *bin = NULL;
  size_t         len = 0;
  cl_int         st, bin_st = CL_SUCCESS;
  cl_program     prog;

  if (! clfx_cache_load (path, key, &bin, &len, rec->cache_note,
                         sizeof rec->cache_note))
    return false;
  if (! clfx_cache_load_begin (path, rec->cache_note,
                               sizeof rec->cache_note))
    {
      free (bin);
      return false;
    }
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
      clfx_cache_load_end (path);
      return false;
    }
  st = build_in_c_locale (prog, ctx->device.id, options);
  clfx_cache_load_end (path);
  if (st != CL_SUCCESS)
    {
      snprintf (rec->cache_note, sizeof rec->cache_note,
                "cached binary failed to build (%s)",
                clfx_cl_error_name (st));
      clReleaseProgram (prog);
      remove (path);
      return false;
    }
  if (! kernels_of_source (prog, source, why, sizeof why))
    {
      snprintf (rec->cache_note, sizeof rec->cache_note,
                "cached binary is not this program's: %s", why);
      clReleaseProgram (prog);
      remove (path);
      return false;
    }
  rec->log = build_log (prog, ctx->device.id);
  *out = prog;
  return true;
}

/* The program's binary for ctx's device into the cache.  A program made
 * from source in an OpenCL context of several devices (device all with
 * peer-pinned=context) has a binary slot for each, built or not:
 * ctx's device's is taken, the others skipped (a NULL entry).  A failure
 * only leaves the cache without it. */
static void
store_binary (ClfxContext *ctx, cl_program prog, const char *path,
              uint64_t key)
{
  cl_uint         n = 0;
  cl_device_id   *devs = NULL;
  size_t         *lens = NULL;
  unsigned char **bins = NULL;
  int             at = -1;

  if (clGetProgramInfo (prog, CL_PROGRAM_NUM_DEVICES, sizeof n, &n, NULL)
        != CL_SUCCESS
      || n < 1 || ! (devs = calloc (n, sizeof *devs))
      || ! (lens = calloc (n, sizeof *lens))
      || ! (bins = calloc (n, sizeof *bins))
      || clGetProgramInfo (prog, CL_PROGRAM_DEVICES, n * sizeof *devs, devs,
                           NULL)
           != CL_SUCCESS
      || clGetProgramInfo (prog, CL_PROGRAM_BINARY_SIZES, n * sizeof *lens,
                           lens, NULL)
           != CL_SUCCESS)
    goto out;
  for (cl_uint i = 0; i < n; i++)
    if (devs[i] == ctx->device.id)
      at = (int) i;
  if (at < 0 || lens[at] == 0 || ! (bins[at] = malloc (lens[at])))
    goto out;
  if (clGetProgramInfo (prog, CL_PROGRAM_BINARIES, n * sizeof *bins, bins,
                        NULL)
      == CL_SUCCESS)
    clfx_cache_store (path, key, bins[at], lens[at]);
out:
  if (bins && at >= 0)
    free (bins[at]);
  free (bins);
  free (lens);
  free (devs);
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
  if (! ctx->cache_dir[0] && ctx->cache_off[0])
    snprintf (rec->cache_note, sizeof rec->cache_note, "%s", ctx->cache_off);

  source = clfx_program_source (name, error);
  if (! source)
    goto out;
  key = cache_key (&ctx->device, source, options);
  if (ctx->cache_dir[0])
    {
      snprintf (path, sizeof path, "%s/%s-%016llx.bin", ctx->cache_dir, name,
                (unsigned long long) key);
      snprintf (rec->cache_path, sizeof rec->cache_path, "%s", path);
      if (try_cached_binary (ctx, path, key, options, source, rec, &prog))
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

/* The program slot for (program, options), built on first use; -1 with
 * *error set when there is no room. */
static int
program_slot (ClfxContext *ctx, const char *program, const char *options,
              ClfxError *error)
{
  char key[600];
  char full[560];
  int  slot;

  /* Same arithmetic on both paths (kernels/clfx-common.h); argument info
   * lets every launch check its arguments against the declarations. */
  snprintf (full, sizeof full, "-cl-std=CL1.2 -cl-kernel-arg-info %s%s%s",
            options ? options : "", ctx->tuning.cl_options[0] ? " " : "",
            ctx->tuning.cl_options);
  snprintf (key, sizeof key, "%s|%s", program, full);
  for (int i = 0; i < ctx->n_programs; i++)
    if (strcmp (ctx->programs[i].key, key) == 0)
      return i;
  if (! clfx_array_reserve (&ctx->programs, &ctx->cap_programs,
                            ctx->n_programs + 1, sizeof *ctx->programs))
    {
      clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory for a program");
      return -1;
    }
  slot = ctx->n_programs++;
  snprintf (ctx->programs[slot].key, sizeof ctx->programs[slot].key, "%s",
            key);
  build_program (ctx, program, full, slot, error);
  return slot;
}

static bool
mark_used (ClfxContext *ctx, int slot, ClfxError *error)
{
  for (int i = 0; i < ctx->n_used; i++)
    if (ctx->used[i] == slot)
      return true;
  if (! clfx_array_reserve (&ctx->used, &ctx->cap_used, ctx->n_used + 1,
                            sizeof *ctx->used))
    return clfx_error_set (error, CLFX_ERR_NOMEM,
                           "out of memory for a build record");
  ctx->used[ctx->n_used++] = slot;
  return true;
}

/* Bytes of an argument of OpenCL C type `type` (as the driver names it:
 * "int", "float4", "uchar*", "image2d_t"), 0 when unknown. */
static size_t
type_size (const char *type, cl_kernel_arg_address_qualifier aq)
{
  static const struct { const char *name; size_t size; } base[] = {
    { "char", 1 },  { "uchar", 1 }, { "short", 2 }, { "ushort", 2 },
    { "int", 4 },   { "uint", 4 },  { "long", 8 },  { "ulong", 8 },
    { "float", 4 }, { "half", 2 },  { "double", 8 }, { "bool", 4 },
    { "size_t", sizeof (size_t) },
  };
  size_t n = strlen (type);
  int    lanes = 1;

  if (aq == CL_KERNEL_ARG_ADDRESS_GLOBAL || aq == CL_KERNEL_ARG_ADDRESS_CONSTANT
      || (n && type[n - 1] == '*') || strstr (type, "image")
      || ! strcmp (type, "sampler_t"))
    return ! strcmp (type, "sampler_t") ? sizeof (cl_sampler)
                                        : sizeof (cl_mem);
  while (n && type[n - 1] >= '0' && type[n - 1] <= '9')
    n--;
  if (type[n])
    lanes = atoi (type + n);
  if (lanes == 3)
    lanes = 4; /* 3-component vectors are stored as 4 */
  for (size_t i = 0; i < sizeof base / sizeof base[0]; i++)
    if (strlen (base[i].name) == n && ! strncmp (type, base[i].name, n))
      return base[i].size * (size_t) lanes;
  return 0;
}

/* Limits and declared arguments of a freshly created kernel. */
static bool
describe_kernel (ClfxContext *ctx, ClfxKernelSlot *k, ClfxError *error)
{
  CLFX_CHECK (error, fail, k->name, clGetKernelWorkGroupInfo, k->kernel,
              ctx->device.id, CL_KERNEL_WORK_GROUP_SIZE,
              sizeof k->work_group_max, &k->work_group_max, NULL);
  CLFX_CHECK (error, fail, k->name, clGetKernelWorkGroupInfo, k->kernel,
              ctx->device.id, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
              sizeof k->reqd, k->reqd, NULL);
  CLFX_CHECK (error, fail, k->name, clGetKernelInfo, k->kernel,
              CL_KERNEL_NUM_ARGS, sizeof k->n_args, &k->n_args, NULL);
  k->arg_size = calloc (k->n_args ? k->n_args : 1, sizeof *k->arg_size);
  k->arg_type = calloc (k->n_args ? k->n_args : 1, sizeof *k->arg_type);
  if (! k->arg_size || ! k->arg_type)
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  for (cl_uint i = 0; i < k->n_args; i++)
    {
      cl_kernel_arg_address_qualifier aq = CL_KERNEL_ARG_ADDRESS_PRIVATE;
      /* Not checked: a program loaded from a binary may keep no argument
       * info (CL_KERNEL_ARG_INFO_NOT_AVAILABLE); the sizes stay unknown
       * and only the count is checked. */
      if (clGetKernelArgInfo (k->kernel, i, CL_KERNEL_ARG_TYPE_NAME,
                              sizeof k->arg_type[i], k->arg_type[i], NULL)
            != CL_SUCCESS
          || clGetKernelArgInfo (k->kernel, i,
                                 CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq,
                                 &aq, NULL) != CL_SUCCESS)
        {
          k->arg_type[i][0] = '\0';
          continue;
        }
      k->arg_size[i] = aq == CL_KERNEL_ARG_ADDRESS_LOCAL
                         ? 0 : type_size (k->arg_type[i], aq);
      if (aq == CL_KERNEL_ARG_ADDRESS_LOCAL)
        snprintf (k->arg_type[i], sizeof k->arg_type[i], "__local");
    }
  return true;
fail:
  return false;
}

const ClfxKernelSlot *
clfx_context_kernel (ClfxContext *ctx, const char *program,
                     const char *options, const char *kernel,
                     ClfxError *error)
{
  int             slot = program_slot (ctx, program, options, error);
  ClfxKernelSlot *k;

  if (slot < 0)
    return NULL;
  /* Record the use even when the build failed: the log explains why. */
  if (! mark_used (ctx, slot, error))
    return NULL;
  if (! ctx->programs[slot].program)
    {
      if (error && error->code == CLFX_OK)
        clfx_error_set (error, CLFX_ERR_BUILD,
                        "program '%s' failed to build earlier:\n%s", program,
                        ctx->programs[slot].record.log);
      return NULL;
    }
  for (int i = 0; i < ctx->n_kernels; i++)
    if (ctx->kernels[i].program == slot
        && strcmp (ctx->kernels[i].name, kernel) == 0)
      return &ctx->kernels[i];
  if (! clfx_array_reserve (&ctx->kernels, &ctx->cap_kernels,
                            ctx->n_kernels + 1, sizeof *ctx->kernels))
    {
      clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory for a kernel");
      return NULL;
    }
  k = &ctx->kernels[ctx->n_kernels];
  memset (k, 0, sizeof *k);
  k->program = slot;
  snprintf (k->name, sizeof k->name, "%s", kernel);
  CLFX_CREATE (k->kernel, error, fail, kernel, clCreateKernel,
               ctx->programs[slot].program, kernel);
  if (! describe_kernel (ctx, k, error))
    goto fail;
  ctx->n_kernels++;
  return k;
fail:
  if (k->kernel)
    clReleaseKernel (k->kernel);
  free (k->arg_size);
  free (k->arg_type);
  memset (k, 0, sizeof *k);
  return NULL;
}
