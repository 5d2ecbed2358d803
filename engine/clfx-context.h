/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-context.h: one OpenCL device in use: its context and queues, the
 * programs and kernels built for it (with their build records), samplers,
 * pinned staging memory, tuning, and the events of the current operation.
 *
 * The implementation is split by concern: clfx-context.c (creation),
 * clfx-build.c (programs, binary cache, kernels), clfx-profile.c (events
 * and timings), clfx-transfer.c (formats, staging, pinned host images),
 * clfx-sampler.c (the spec's sampler rules). */
#ifndef CLFX_CONTEXT_H
#define CLFX_CONTEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "clfx-cl.h"
#include "clfx-clock.h"
#include "clfx-device.h"
#include "clfx-error.h"
#include "clfx-host-image.h"
#include "clfx-tuning.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CLFX_CACHE_VERSION 2

typedef struct
{
  char        program[64];  /* "resize" */
  char        options[600];
  bool        ok;
  const char *cache;        /* "hit", "miss" or "off" */
  char        cache_note[160]; /* why a cached entry was not used, if so */
  char        cache_path[800]; /* the entry (hit or stored), or empty */
  double      ms;           /* wall time of create + build */
  char       *log;          /* CL_PROGRAM_BUILD_LOG, kept on success too */
} ClfxBuildRecord;

typedef struct
{
  char   name[64];
  double ms;        /* device time, summed over launches */
  int    launches;
} ClfxKernelTime;

/* One command of a run on the device's clock (CL_PROFILING_COMMAND_START
 * and _END, ns; every queue of a context reads the same clock). */
typedef struct
{
  char     tag[64];
  char     kind;        /* 'u' upload, 'k' kernel, 'd' download */
  int      device;      /* which device of the run (0: the first) */
  cl_ulong start, end;
} ClfxEventTime;

/* Timings of one operation.  kernels and events are owned:
 * clfx_timings_clear frees them, clfx_timings_copy duplicates them. */
typedef struct
{
  double          upload_ms;    /* device time of host-to-device copies;
                                 * zero-copy: wall time of wrapping the
                                 * host pixels in an image */
  double          download_ms;  /* device time of device-to-host copies */
  double          stage_ms;     /* host copies into/out of pinned memory */
  double          total_ms;     /* host wall time of the whole operation */
  double          reference_ms; /* CPU reference, when it ran */
  size_t          upload_bytes;
  size_t          download_bytes;
  ClfxKernelTime *kernels;
  int             n_kernels;
  ClfxEventTime  *events;       /* every command, in the order enqueued */
  int             n_events;
  bool            zero_copy;    /* the device used host memory in place */
  bool            pinned;       /* source and result were pinned memory of
                                 * the context: no staging copies */
  int             pieces;       /* bands or tiles the run took */
  bool            tiled;        /* tiles (sub-images), not bands */
  bool            sampler;      /* the hardware sampler filtered */
  int             devices;      /* devices that took part */
} ClfxTimings;

void clfx_timings_clear (ClfxTimings *t);
bool clfx_timings_copy (ClfxTimings *dst, const ClfxTimings *src);
/* Adds ms to kernel `name`'s entry (made if missing). */
bool clfx_timings_add_kernel (ClfxTimings *t, const char *name, double ms);
/* Sums b into a (several devices' share of one run). */
bool clfx_timings_merge (ClfxTimings *a, const ClfxTimings *b);

typedef enum
{
  CLFX_EV_UPLOAD,
  CLFX_EV_KERNEL,
  CLFX_EV_DOWNLOAD
} ClfxEventKind;

typedef struct
{
  char            key[600];   /* program name + options */
  cl_program      program;
  ClfxBuildRecord record;
} ClfxProgramSlot;

typedef struct
{
  int       program;          /* index into programs */
  char      name[64];
  cl_kernel kernel;
  size_t    work_group_max;   /* CL_KERNEL_WORK_GROUP_SIZE */
  size_t    reqd[3];          /* CL_KERNEL_COMPILE_WORK_GROUP_SIZE */
  cl_uint   n_args;
  /* Byte size of each argument as declared, 0 where unknown (the driver
   * keeps no argument info for a program loaded from a binary). */
  size_t   *arg_size;
  char    (*arg_type)[32];
} ClfxKernelSlot;

typedef struct
{
  cl_event      event;
  ClfxEventKind kind;
  char          tag[64];
} ClfxTrackedEvent;

/* A pinned host buffer: a CL_MEM_ALLOC_HOST_PTR buffer kept mapped, the
 * page-locked memory transfers run at full DMA rate from. */
typedef struct
{
  cl_mem buffer;
  void  *ptr;
  size_t size;
} ClfxPinned;

/* A block of host memory for a CPU device's intermediates
 * (clfx-scratch.c). */
typedef struct
{
  void  *ptr;
  size_t bytes;
  bool   busy;  /* wrapped by a memory object of a run */
} ClfxScratch;

typedef struct ClfxContext ClfxContext;
struct ClfxContext
{
  /* clfx_context_free drops one reference; pinned host images hold one
   * each, so that their memory outlives a context its owner let go (a run
   * that failed on it, a fallback that still reads the image). */
  int              refs;
  ClfxDeviceInfo   device;
  ClfxTuning       tuning;
  char             tuning_note[256]; /* tuning variables not understood */
  cl_context       context;
  /* Kernels run on `queue`; uploads and downloads of streamed bands and
   * tiles go on their own queues so that they overlap the kernels, with
   * events between them. */
  cl_command_queue queue;
  cl_command_queue upload_queue;
  cl_command_queue download_queue;

  ClfxProgramSlot *programs;
  int              n_programs, cap_programs;
  ClfxKernelSlot  *kernels;
  int              n_kernels, cap_kernels;
  /* Build records used by the current operation (indices into programs). */
  int             *used;
  int              n_used, cap_used;

  /* Events of the current operation, each tagged with what it was. */
  ClfxTrackedEvent *events;
  int               n_events, cap_events;

  /* Samplers by (normalized, addressing, linear), made on first use. */
  cl_sampler samplers[2][5][2];
  /* The 16-bit sRGB decode table (65536 floats), made on first use. */
  cl_mem     srgb_u16_lut;

  /* Staging: two slots for each direction, so that the host fills one
   * while the device copies the other. */
  ClfxPinned staging[2][2];
  double     stage_ms;     /* host copies into/out of staging, this op */

  /* The device works in host memory (CL_DEVICE_HOST_UNIFIED_MEMORY): the
   * source image uses the caller's pixels and the result is host memory,
   * so nothing is copied through staging. */
  bool   zero_copy;
  double zero_copy_ms;     /* wall time of creating such images, this op */

  /* CPU devices: host memory kept between runs for intermediates. */
  ClfxScratch *scratch;
  int          n_scratch, cap_scratch;

  /* Test hook: bytes of magic values around every output buffer. */
  size_t guard_bytes;

  char cache_dir[512];     /* empty: binary cache off */
  char cache_off[160];     /* why the cache is off, when it was refused */

  /* device "all": the other devices' contexts, used together with this
   * one (each NULL-free; freed with it). */
  ClfxContext **peers;
  int           n_peers;
};

/* Creates the context and its queues (profiling on) and reads the tuning
 * variables once.  The device info is copied. */
ClfxContext *clfx_context_new (const ClfxDeviceInfo *device, ClfxError *error);
/* The same in an OpenCL context made for several devices, device's among
 * them (device all with peer-pinned=context): the context's pinned
 * memory, buffers and events are then shared with the other devices'
 * contexts made in it; programs, kernels and queues stay this device's. */
ClfxContext *clfx_context_new_in (const ClfxDeviceInfo *device,
                                  cl_context shared, ClfxError *error);
/* The same with settings already read (clfx_tuning_read) and their
 * warning: device all's contexts share one reading. */
ClfxContext *clfx_context_new_tuned (const ClfxDeviceInfo *device,
                                     cl_context shared,
                                     const ClfxTuning *tuning,
                                     const char *tuning_note,
                                     ClfxError *error);
void         clfx_context_free (ClfxContext *ctx);

/* Where kernel binaries are cached: dir, else $CLFX_CACHE_DIR, else
 * $XDG_CACHE_HOME/clfx/kernels, else ~/.cache/clfx/kernels; "off"
 * disables the cache.  Without dir or $CLFX_CACHE_DIR the cache is off on
 * a driver that caches its own builds (PoCL), and cache_off says so.  The cache loads code the driver runs, so the folder
 * is made 0700 and refused (the run goes uncached, and cache_off says
 * why) when it is not a folder this user owns, when others may write it,
 * or when its path does not fit. */
void clfx_context_set_cache_dir (ClfxContext *ctx, const char *dir);

/* ---- clfx-build.c ---------------------------------------------------------- */

/* The kernel `kernel` of program `program` built with `options` (builds
 * or loads the program from the binary cache on first use, creates the
 * kernel once and queries its limits and arguments).  The build record is
 * marked as used by the current operation.  The context owns the slot. */
const ClfxKernelSlot *clfx_context_kernel (ClfxContext *ctx,
                                           const char *program,
                                           const char *options,
                                           const char *kernel,
                                           ClfxError *error);

/* ---- clfx-scratch.c -------------------------------------------------------- */

/* A block of at least `bytes` of host memory for an intermediate of a CPU
 * device (whole 2 MiB pages, huge pages asked for), reused between runs;
 * NULL where the pool is off (host-scratch=off) or memory ran out,
 * and the caller lets the driver allocate.  Given back with
 * clfx_scratch_give once nothing queued uses it any more; all of it is
 * freed with the context. */
void *clfx_scratch_take (ClfxContext *ctx, size_t bytes);
void  clfx_scratch_give (ClfxContext *ctx, void *ptr);
void  clfx_scratch_free_all (ClfxContext *ctx);

/* ---- clfx-profile.c -------------------------------------------------------- */

/* Start of an operation: forget events and used programs. */
void clfx_context_begin (ClfxContext *ctx);
/* Tags an event for the timing report; takes ownership of the event.
 * False (with the event released) when there is no memory to keep it. */
bool clfx_context_track (ClfxContext *ctx, cl_event ev, ClfxEventKind kind,
                         const char *tag, ClfxError *error);
/* Waits for every queue, reads every event's END - START into `t`
 * (kernels with the same tag are summed), releases the events. */
bool clfx_context_finish (ClfxContext *ctx, ClfxTimings *t, ClfxError *error);

/* ---- clfx-transfer.c ------------------------------------------------------- */

/* Checks that the device can hold an image of this shape and format;
 * fills the cl_image_format (CL_RGBA for 1 or 2 channels where the device
 * has no usable CL_R / CL_RG: *gray_in_rgba is then true and the image
 * is carried as (gray, gray, gray, alpha)).  Fails with
 * CLFX_ERR_UNSUPPORTED and a reason that names the limit. */
bool clfx_context_image_format (ClfxContext *ctx, int width, int height,
                                int channels, ClfxDepth depth,
                                cl_image_format *fmt, bool *gray_in_rgba,
                                ClfxError *error);
/* Whether the device holds an image of this size, and a buffer of these
 * bytes (limits only, no format query). */
bool clfx_context_fits_image (const ClfxContext *ctx, int width, int height,
                              size_t bytes);

/* After a failed unmap of ptr from buf: the unmap once more, waited for,
 * its outcome ignored (the first failure is the one reported).  A buffer
 * released while still mapped is never freed: the driver keeps it, and
 * with it the context, for the mapping. */
void clfx_context_unmap_again (ClfxContext *ctx, cl_mem buf, void *ptr);
/* Mappings made and not yet undone, over every context of the process:
 * counted so that a test can tell that no buffer was released while
 * still mapped. */
void clfx_maps_opened (void);
void clfx_maps_closed (void);
long clfx_maps_open (void);
/* Pinned staging slot `slot` (0, 1) of direction `dir` (0 up, 1 down)
 * with at least `bytes`; valid until the slot grows. */
void *clfx_context_staging (ClfxContext *ctx, int dir, int slot, size_t bytes,
                            ClfxError *error);

/* A host image in pinned memory of this context, which transfers use
 * without a staging copy (the plug-in and clfx-bench read pixels straight
 * into it).  Free with clfx_host_image_free; the context must outlive it. */
bool clfx_context_pinned_image (ClfxContext *ctx, ClfxImage *img, int width,
                                int height, int channels, ClfxDepth depth,
                                ClfxError *error);
/* Whether images in pinned memory of ctx would save copies: the device
 * does not work in host memory (a discrete GPU), so that other host
 * memory goes through staging. */
bool clfx_context_wants_pinned (const ClfxContext *ctx);
/* A host image where transfers to ctx's device cost least: in pinned
 * memory of ctx when that saves copies (clfx_context_wants_pinned) and
 * there is enough of it, else on the heap (ctx NULL: the heap).  Pinned
 * memory is an optimisation, so running out of it is no error; only the
 * heap's failure is. */
bool clfx_context_image_alloc (ClfxContext *ctx, ClfxImage *img, int width,
                               int height, int channels, ClfxDepth depth,
                               ClfxError *error);
/* Whether img's pixels are pinned memory of ctx. */
bool clfx_context_owns_pinned (const ClfxContext *ctx, const ClfxImage *img);
/* Whether transfers of ctx move img's pixels where they lie, without a
 * staging copy: pinned memory of ctx or of a context sharing its OpenCL
 * context, or, with peer-pinned=direct, of any context. */
bool clfx_context_reads_pinned (const ClfxContext *ctx,
                                const ClfxImage   *img);

/* Gray (+ alpha) rows to RGBA rows of the same depth (gray, gray, gray,
 * alpha; alpha is the format's 1 for gray). */
void clfx_expand_gray (const ClfxImage *img, int x, int y, int width,
                       int height, void *out, size_t out_stride);

/* The device memory a run's pieces fit: CLFX_DEV budget, else half the
 * device's memory. */
size_t clfx_context_budget (const ClfxContext *ctx);
/* The guard band in use: guard_bytes rounded up to a multiple of 16. */
#define CLFX_GUARD_BYTE 0xA5
size_t clfx_context_guard (const ClfxContext *ctx);
/* Checks the guard bytes at p: a damaged band is a CLFX_ERR_GUARD error
 * naming the first bad byte (base is p's offset in the buffer). */
bool clfx_check_guard (const unsigned char *p, size_t n, size_t base,
                       ClfxError *error);

/* ---- clfx-sampler.c -------------------------------------------------------- */

/* The sampler for (normalized, addressing, linear), made once per
 * context; the combinations the OpenCL C spec forbids are refused with
 * CLFX_ERR_INVALID. */
cl_sampler clfx_context_sampler (ClfxContext *ctx, bool normalized,
                                 int addressing, bool linear,
                                 ClfxError *error);

#ifdef __cplusplus
}
#endif

#endif
