/* clfx-context.h: one OpenCL device in use: its context and profiling
 * queue, the programs built for it (with their build records), pinned
 * staging memory, and the timings of the last operation. */
#ifndef CLFX_CONTEXT_H
#define CLFX_CONTEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "clfx-cl.h"
#include "clfx-device.h"
#include "clfx-error.h"
#include "clfx-host-image.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CLFX_CACHE_VERSION 1
#define CLFX_MAX_PROGRAMS 32
#define CLFX_MAX_EVENTS 64

typedef struct
{
  char        program[64];  /* "resize" */
  char        options[256];
  bool        ok;
  const char *cache;        /* "hit", "miss" or "off" */
  char        cache_note[160]; /* why a cached entry was not used, if so */
  double      ms;           /* wall time of create + build */
  char       *log;          /* CL_PROGRAM_BUILD_LOG, kept on success too */
} ClfxBuildRecord;

typedef struct
{
  char   name[64];
  double ms;
} ClfxKernelTime;

typedef struct
{
  double         upload_ms;    /* device time of host-to-device copies;
                                * zero-copy: wall time of wrapping the
                                * host pixels in an image */
  double         download_ms;  /* device time of device-to-host copies */
  double         stage_ms;     /* host memcpy into/out of pinned memory */
  double         total_ms;     /* host wall time of the whole operation */
  double         reference_ms; /* CPU reference, when it ran */
  size_t         upload_bytes;
  size_t         download_bytes;
  ClfxKernelTime kernels[16];
  int            n_kernels;
  bool           zero_copy;    /* the device used host memory in place */
} ClfxTimings;

typedef enum
{
  CLFX_EV_UPLOAD,
  CLFX_EV_KERNEL,
  CLFX_EV_DOWNLOAD
} ClfxEventKind;

typedef struct
{
  ClfxDeviceInfo   device;
  cl_context       context;
  cl_command_queue queue;

  struct
  {
    char            key[320];   /* program name + options */
    cl_program      program;
    ClfxBuildRecord record;
  } programs[CLFX_MAX_PROGRAMS];
  int n_programs;

  /* Build records used by the current operation (indices into programs). */
  int used[CLFX_MAX_PROGRAMS];
  int n_used;

  /* Events of the current operation, each tagged with what it was. */
  struct
  {
    cl_event      event;
    ClfxEventKind kind;
    char          tag[64];
  } events[CLFX_MAX_EVENTS];
  int n_events;

  /* Pinned staging: a CL_MEM_ALLOC_HOST_PTR buffer kept mapped. */
  cl_mem staging;
  void  *staging_ptr;
  size_t staging_size;
  double stage_ms;        /* host copies into/out of staging, this op */
  bool   gray_in_rgba;    /* last upload carried gray (+alpha) as RGBA */
  /* The device works in host memory (CL_DEVICE_HOST_UNIFIED_MEMORY): the
   * source image uses the caller's pixels and the result is host memory,
   * so nothing is copied through staging. */
  bool   zero_copy;
  double zero_copy_ms;    /* wall time of creating such images, this op */

  /* Test hook: bytes of magic values around every output buffer. */
  size_t guard_bytes;

  char cache_dir[512];     /* empty: binary cache off */
  bool fast_math;          /* build profile "fast" adds -cl-fast-relaxed-math */
} ClfxContext;

/* Creates the context and an in-order queue with profiling on.  The device
 * info is copied. */
ClfxContext *clfx_context_new (const ClfxDeviceInfo *device, ClfxError *error);
void         clfx_context_free (ClfxContext *ctx);

/* Where kernel binaries are cached: $CLFX_CACHE_DIR, else
 * $XDG_CACHE_HOME/clfx/kernels, else ~/.cache/clfx/kernels.  CLFX_CACHE_DIR
 * set to "off" disables the cache. */
void clfx_context_set_cache_dir (ClfxContext *ctx, const char *dir);

/* Builds (or loads from the binary cache, or reuses) program `name` with
 * `options` and returns a kernel from it.  The build record is kept and
 * marked as used by the current operation.  Caller releases the kernel. */
cl_kernel clfx_context_kernel (ClfxContext *ctx, const char *program,
                               const char *options, const char *kernel,
                               ClfxError *error);

/* Start of an operation: forget events and used programs. */
void clfx_context_begin (ClfxContext *ctx);
/* Tag an event for the timing report; takes ownership of the event. */
void clfx_context_track (ClfxContext *ctx, cl_event ev, ClfxEventKind kind,
                         const char *tag);
/* Waits for the queue, reads every event's END - START into `t` (kernels
 * with the same tag are summed), releases the events. */
bool clfx_context_finish (ClfxContext *ctx, ClfxTimings *t, ClfxError *error);

/* Pinned host memory of at least `bytes`, valid until the next call. */
void *clfx_context_staging (ClfxContext *ctx, size_t bytes, ClfxError *error);

/* Checks that the device can hold an image of this shape and format;
 * fills the cl_image_format (CL_RGBA for 2 channels where the device has
 * no CL_RG: clfx_context_upload then expands gray+alpha).  Fails with CLFX_ERR_UNSUPPORTED and a reason
 * that names the limit. */
bool clfx_context_image_format (ClfxContext *ctx, int width, int height,
                                int channels, ClfxDepth depth,
                                cl_image_format *fmt, ClfxError *error);

/* Rows each work-item of the pixel kernels handles for this output. */
int clfx_context_rows_per_item (const ClfxContext *ctx, const ClfxImage *dst);

/* Build options for kernels that store into dst with clfx_store() after
 * the source was uploaded: depth, channels, CLFX_GA_IN_RGBA, and
 * CLFX_PREMUL (premultiply: the kernel mixes texels of a straight-alpha
 * source, so reads premultiply and the store divides by alpha). */
void clfx_context_store_options (ClfxContext *ctx, const ClfxImage *dst,
                                 bool premultiply, char *buf, size_t n);

/* Uploads a host image into a new read-only image through the pinned
 * staging buffer, in the image's own precision. */
cl_mem clfx_context_upload (ClfxContext *ctx, const ClfxImage *img,
                            ClfxError *error);

/* An output buffer for a dst image, with the guard band around it when
 * guard_bytes > 0 (filled with CLFX_GUARD_BYTE).  *offset and *pitch are
 * what the kernels' clfx_store() takes. */
#define CLFX_GUARD_BYTE 0xA5
/* The guard band in use: guard_bytes rounded up to a multiple of 16. */
size_t clfx_context_guard (const ClfxContext *ctx);
cl_mem clfx_context_output (ClfxContext *ctx, const ClfxImage *dst,
                            cl_long *offset, cl_long *pitch,
                            ClfxError *error);
/* Reads an output buffer back into dst (which has its own stride), and
 * checks the guard band: a damaged band is a CLFX_ERR_GUARD error naming
 * the first bad byte. */
bool clfx_context_download (ClfxContext *ctx, cl_mem buf, ClfxImage *dst,
                            ClfxError *error);

/* 2D launch with the work-group size we use everywhere (16 x 16 where the
 * device allows it; the global size is rounded up and kernels check their
 * bounds).  The event is tracked under the kernel's name. */
bool clfx_context_launch (ClfxContext *ctx, cl_kernel kernel, const char *tag,
                          size_t width, size_t height, ClfxError *error);

/* Sampler for (normalized, addressing, filter); the combinations the
 * OpenCL C spec forbids are refused with CLFX_ERR_INVALID. */
cl_sampler clfx_context_sampler (ClfxContext *ctx, bool normalized,
                                 int addressing, bool linear,
                                 ClfxError *error);
/* The same rule without a device, for validating arguments early. */
bool clfx_sampler_check (bool normalized, int addressing, ClfxError *error);

double clfx_now_ms (void);

#ifdef __cplusplus
}
#endif

#endif
