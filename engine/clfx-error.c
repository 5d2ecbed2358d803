/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-error.c: OpenCL status names, the error record and fault injection. */
#define _POSIX_C_SOURCE 200809L
#include "clfx-error.h"
#include "clfx-tuning.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N(x) { x, #x }
static const struct { cl_int status; const char *name; } cl_names[] = {
  N (CL_SUCCESS), N (CL_DEVICE_NOT_FOUND), N (CL_DEVICE_NOT_AVAILABLE),
  N (CL_COMPILER_NOT_AVAILABLE), N (CL_MEM_OBJECT_ALLOCATION_FAILURE),
  N (CL_OUT_OF_RESOURCES), N (CL_OUT_OF_HOST_MEMORY),
  N (CL_PROFILING_INFO_NOT_AVAILABLE), N (CL_MEM_COPY_OVERLAP),
  N (CL_IMAGE_FORMAT_MISMATCH), N (CL_IMAGE_FORMAT_NOT_SUPPORTED),
  N (CL_BUILD_PROGRAM_FAILURE), N (CL_MAP_FAILURE),
  N (CL_MISALIGNED_SUB_BUFFER_OFFSET),
  N (CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST),
  N (CL_COMPILE_PROGRAM_FAILURE), N (CL_LINKER_NOT_AVAILABLE),
  N (CL_LINK_PROGRAM_FAILURE), N (CL_DEVICE_PARTITION_FAILED),
  N (CL_KERNEL_ARG_INFO_NOT_AVAILABLE), N (CL_INVALID_VALUE),
  N (CL_INVALID_DEVICE_TYPE), N (CL_INVALID_PLATFORM), N (CL_INVALID_DEVICE),
  N (CL_INVALID_CONTEXT), N (CL_INVALID_QUEUE_PROPERTIES),
  N (CL_INVALID_COMMAND_QUEUE), N (CL_INVALID_HOST_PTR),
  N (CL_INVALID_MEM_OBJECT), N (CL_INVALID_IMAGE_FORMAT_DESCRIPTOR),
  N (CL_INVALID_IMAGE_SIZE), N (CL_INVALID_SAMPLER), N (CL_INVALID_BINARY),
  N (CL_INVALID_BUILD_OPTIONS), N (CL_INVALID_PROGRAM),
  N (CL_INVALID_PROGRAM_EXECUTABLE), N (CL_INVALID_KERNEL_NAME),
  N (CL_INVALID_KERNEL_DEFINITION), N (CL_INVALID_KERNEL),
  N (CL_INVALID_ARG_INDEX), N (CL_INVALID_ARG_VALUE), N (CL_INVALID_ARG_SIZE),
  N (CL_INVALID_KERNEL_ARGS), N (CL_INVALID_WORK_DIMENSION),
  N (CL_INVALID_WORK_GROUP_SIZE), N (CL_INVALID_WORK_ITEM_SIZE),
  N (CL_INVALID_GLOBAL_OFFSET), N (CL_INVALID_EVENT_WAIT_LIST),
  N (CL_INVALID_EVENT), N (CL_INVALID_OPERATION), N (CL_INVALID_GL_OBJECT),
  N (CL_INVALID_BUFFER_SIZE), N (CL_INVALID_MIP_LEVEL),
  N (CL_INVALID_GLOBAL_WORK_SIZE), N (CL_INVALID_PROPERTY),
  N (CL_INVALID_IMAGE_DESCRIPTOR), N (CL_INVALID_COMPILER_OPTIONS),
  N (CL_INVALID_LINKER_OPTIONS), N (CL_INVALID_DEVICE_PARTITION_COUNT),
  { -69, "CL_INVALID_PIPE_SIZE" }, { -70, "CL_INVALID_DEVICE_QUEUE" },
  { -71, "CL_INVALID_SPEC_ID" }, { -72, "CL_MAX_SIZE_RESTRICTION_EXCEEDED" },
  { -1001, "CL_PLATFORM_NOT_FOUND_KHR" },
};
#undef N

const char *
clfx_cl_error_name (cl_int status)
{
  for (size_t i = 0; i < sizeof cl_names / sizeof cl_names[0]; i++)
    if (cl_names[i].status == status)
      return cl_names[i].name;
  return "CL_UNKNOWN_ERROR";
}

bool
clfx_cl_error_from_name (const char *name, cl_int *status)
{
  char *end;
  long  v;

  for (size_t i = 0; i < sizeof cl_names / sizeof cl_names[0]; i++)
    if (strcmp (cl_names[i].name, name) == 0)
      {
        *status = cl_names[i].status;
        return true;
      }
  /* A number: decimal, no leading space, within cl_int. */
  if (! ((name[0] >= '0' && name[0] <= '9') || name[0] == '-'))
    return false;
  errno = 0;
  v = strtol (name, &end, 10);
  if (end == name || *end != '\0' || errno == ERANGE || v < INT32_MIN
      || v > INT32_MAX)
    return false;
  *status = (cl_int) v;
  return true;
}

void
clfx_error_clear (ClfxError *error)
{
  if (! error)
    return;
  error->code = CLFX_OK;
  error->cl_status = CL_SUCCESS;
  error->message[0] = '\0';
}

bool
clfx_error_set (ClfxError *error, ClfxErrorCode code, const char *fmt, ...)
{
  va_list ap;

  if (! error)
    return false;
  /* The first error is the cause; later ones are usually consequences. */
  if (error->code != CLFX_OK)
    return false;
  error->code = code;
  error->cl_status = CL_SUCCESS;
  va_start (ap, fmt);
  vsnprintf (error->message, sizeof error->message, fmt, ap);
  va_end (ap);
  return false;
}

const char *
clfx_source_site (const char *file)
{
  static const char *roots[] = { "engine/", "tools/", "tests/", "plugin/",
                                 "ui/" };
  const char *best = file;

  for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++)
    {
      const char *p = strstr (file, roots[i]);
      if (p && (best == file || p > best))
        best = p;
    }
  return best;
}

bool
clfx_error_set_cl (ClfxError *error, cl_int status, const char *call,
                   const char *what, const char *file, int line)
{
  if (! error || error->code != CLFX_OK)
    return false;
  if (what && *what)
    clfx_error_set (error, CLFX_ERR_OPENCL, "%s (%s): %s at %s:%d", call,
                    what, clfx_cl_error_name (status),
                    clfx_source_site (file), line);
  else
    clfx_error_set (error, CLFX_ERR_OPENCL, "%s: %s at %s:%d", call,
                    clfx_cl_error_name (status), clfx_source_site (file),
                    line);
  error->cl_status = status;
  return false;
}

/* Fault injection state.  Parsed lazily; tests call clfx_fault_reset()
 * after changing the environment. */
static pthread_mutex_t fault_lock = PTHREAD_MUTEX_INITIALIZER;
static bool   fault_parsed;
static char   fault_call[64];
static cl_int fault_status;
static long   fault_nth;
static long   fault_seen;
/* The distinct checked calls made since the last reset (tests drive a
 * fault through each of them). */
static char   fault_names[64][48];
static long   fault_counts[64];
static int    fault_n_names;

/* Why spec (CALL=STATUS[@N]) is malformed, or NULL if it is not; on
 * success the call, status and count are set.  buf holds a copy of spec
 * to cut up. */
static const char *
fault_spec_error (const char *spec, char *buf, size_t size)
{
  char *eq, *at;

  if (strlen (spec) >= size)
    return "too long";
  strcpy (buf, spec);
  if (! (eq = strchr (buf, '=')))
    return "expected CALL=STATUS[@N]";
  *eq = '\0';
  if (! buf[0])
    return "no call name before '='";
  if (strlen (buf) >= sizeof fault_call)
    return "the call name is too long";
  if ((at = strchr (eq + 1, '@')))
    {
      long n = 0;

      /* Digits only, not strtol: "@abc" and "@-1" read as 0 and -1 and
       * silently meant @1. */
      *at++ = '\0';
      if (! *at)
        return "no N after '@'";
      for (; *at >= '0' && *at <= '9'; at++)
        if ((n = n * 10 + (*at - '0')) > 1000000000L)
          return "N after '@' is too large";
      if (*at || n < 1)
        return "N after '@' must be a whole number of at least 1";
      fault_nth = n;
    }
  if (! clfx_cl_error_from_name (eq + 1, &fault_status))
    return "unknown status (a CL_ name or a number)";
  if (fault_status == CL_SUCCESS)
    return "the status must be an error, not CL_SUCCESS";
  strcpy (fault_call, buf);
  return NULL;
}

static void
fault_parse_locked (void)
{
  char        value[1024];
  const char *spec = clfx_dev_switch ("fault", value, sizeof value);
  const char *why;
  char        buf[160];

  fault_parsed = true;
  fault_call[0] = '\0';
  fault_seen = 0;
  fault_n_names = 0;
  fault_nth = 1;
  if (! spec || ! *spec)
    return;
  if ((why = fault_spec_error (spec, buf, sizeof buf)))
    {
      fault_call[0] = '\0';
      fault_nth = 1;
      fprintf (stderr, "clfx: ignoring malformed CLFX_DEV fault='%s': %s\n",
               spec, why);
    }
}

cl_int
clfx_fault_take (const char *call)
{
  cl_int st = CL_SUCCESS;

  pthread_mutex_lock (&fault_lock);
  if (! fault_parsed)
    fault_parse_locked ();
  {
    int i;
    for (i = 0; i < fault_n_names; i++)
      if (! strcmp (fault_names[i], call))
        break;
    if (i == fault_n_names && i < 64)
      {
        snprintf (fault_names[fault_n_names++], sizeof fault_names[0], "%s",
                  call);
        fault_counts[i] = 0;
      }
    if (i < 64)
      fault_counts[i]++;
  }
  if (fault_call[0] && strcmp (call, fault_call) == 0
      && ++fault_seen == fault_nth)
    st = fault_status;
  pthread_mutex_unlock (&fault_lock);
  return st;
}

int
clfx_fault_calls (char (*names)[48], long *counts, int max)
{
  int n;

  pthread_mutex_lock (&fault_lock);
  n = fault_n_names < max ? fault_n_names : max;
  memcpy (names, fault_names, (size_t) n * sizeof names[0]);
  if (counts)
    memcpy (counts, fault_counts, (size_t) n * sizeof counts[0]);
  pthread_mutex_unlock (&fault_lock);
  return n;
}

void
clfx_fault_reset (void)
{
  pthread_mutex_lock (&fault_lock);
  fault_parse_locked ();
  pthread_mutex_unlock (&fault_lock);
}
