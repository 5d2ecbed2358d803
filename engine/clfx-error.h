/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-error.h: the engine's error record, OpenCL error names and the
 * checked-call macros.  GLib-free on purpose: the plug-in turns a ClfxError
 * into a GError once, at its boundary. */
#ifndef CLFX_ERROR_H
#define CLFX_ERROR_H

#include <stdbool.h>
#include <stddef.h>

#include "clfx-cl.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum
{
  CLFX_OK = 0,
  CLFX_ERR_OPENCL,      /* an OpenCL call failed; cl_status holds its code */
  CLFX_ERR_INVALID,     /* bad argument: size, choice name, combination */
  CLFX_ERR_NO_DEVICE,   /* nothing matched the device request */
  CLFX_ERR_UNSUPPORTED, /* the device cannot do it (format, image size) */
  CLFX_ERR_IO,          /* file read/write */
  CLFX_ERR_NOMEM,       /* host allocation */
  CLFX_ERR_BUILD,       /* kernel compilation; the build log is kept */
  CLFX_ERR_GUARD        /* a kernel wrote outside its output */
} ClfxErrorCode;

typedef struct
{
  ClfxErrorCode code;
  cl_int        cl_status;   /* CL_SUCCESS unless code == CLFX_ERR_OPENCL */
  char          message[1024];
} ClfxError;

/* Symbolic name of an OpenCL status ("CL_OUT_OF_RESOURCES"); never NULL. */
const char *clfx_cl_error_name (cl_int status);
/* Inverse of clfx_cl_error_name; also accepts a decimal number.  Returns
 * false when the text names no known status. */
bool        clfx_cl_error_from_name (const char *name, cl_int *status);

void clfx_error_clear (ClfxError *error);
/* printf-style; NULL error is allowed and ignored.  Returns false so that
 * "return clfx_error_set (...)" reads as a failure. */
bool clfx_error_set (ClfxError *error, ClfxErrorCode code, const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));
/* "clCreateImage (source): CL_OUT_OF_RESOURCES at engine/clfx-exec.c:88" */
bool clfx_error_set_cl (ClfxError *error, cl_int status, const char *call,
                        const char *what, const char *file, int line);

/* Fault injection.  CLFX_DEV="fault=clCreateImage=CL_OUT_OF_RESOURCES[@N]"
 * makes the Nth checked call of that name (default: the first) fail with
 * that status before it reaches the driver, so every error path can be
 * driven from a test.  Returns CL_SUCCESS when the call should really
 * run. */
cl_int clfx_fault_take (const char *call);
/* Re-read the fault switch and reset the call counter (tests change it). */
void   clfx_fault_reset (void);
/* The distinct names of the checked calls made since the last reset, at
 * most max of them, and how often each was made (counts may be NULL):
 * tests inject a fault into each of them. */
int    clfx_fault_calls (char (*names)[48], long *counts, int max);

/* Strip the build directory prefix so messages name "engine/x.c:12". */
const char *clfx_source_site (const char *file);

/* Checked call of a function returning cl_int.  On failure fills *error and
 * jumps to label.  `what` says which object it was about (may be NULL). */
#define CLFX_CHECK(error, label, what, fn, ...)                              \
  do {                                                                       \
      cl_int clfx_st_ = clfx_fault_take (#fn);                               \
      if (clfx_st_ == CL_SUCCESS)                                            \
        clfx_st_ = fn (__VA_ARGS__);                                         \
      if (clfx_st_ != CL_SUCCESS)                                            \
        {                                                                    \
          clfx_error_set_cl ((error), clfx_st_, #fn, (what), __FILE__,       \
                             __LINE__);                                      \
          goto label;                                                        \
        }                                                                    \
  } while (0)

/* Checked call of a creator that reports through a trailing cl_int *. */
#define CLFX_CREATE(var, error, label, what, fn, ...)                        \
  do {                                                                       \
      cl_int clfx_st_ = clfx_fault_take (#fn);                               \
      (var) = NULL;                                                          \
      if (clfx_st_ == CL_SUCCESS)                                            \
        (var) = fn (__VA_ARGS__, &clfx_st_);                                 \
      if (clfx_st_ == CL_SUCCESS && (var) == NULL)                           \
        clfx_st_ = CL_OUT_OF_HOST_MEMORY;                                    \
      if (clfx_st_ != CL_SUCCESS)                                            \
        {                                                                    \
          (var) = NULL;                                                      \
          clfx_error_set_cl ((error), clfx_st_, #fn, (what), __FILE__,       \
                             __LINE__);                                      \
          goto label;                                                        \
        }                                                                    \
  } while (0)

#ifdef __cplusplus
}
#endif

#endif
