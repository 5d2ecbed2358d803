/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-tuning.h: configuration.  Every CLFX_ variable the engine reads is
 * read in clfx-tuning.c: the user's CLFX_CACHE_DIR, CLFX_DEVICE_BUDGET and
 * CLFX_THREADS, the developer's CLFX_KERNEL_DIR and CLFX_CL_OPTIONS, and
 * CLFX_DEV, one comma-separated list of name=value switches that force a
 * kernel form or steer a test (docs/DEVELOPING.md lists them).  A
 * context's settings are read when it is made (never in a hot path). */
#ifndef CLFX_TUNING_H
#define CLFX_TUNING_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* In the order of the variables' values (clfx-tuning.c). */
typedef enum
{
  CLFX_SAMPLER_AUTO,     /* the hardware sampler where it is the fast path:
                          * GPUs, untiled runs, data it may filter */
  CLFX_SAMPLER_HARDWARE, /* wherever the variant allows it */
  CLFX_SAMPLER_KERNEL    /* never: filtering computed in the kernels */
} ClfxSamplerPolicy;

typedef enum
{
  CLFX_SOURCE_AUTO,   /* buffers on CPU devices, images on the others */
  CLFX_SOURCE_IMAGE,  /* read_imagef (the texture path; the sampler) */
  CLFX_SOURCE_BUFFER  /* plain loads from a buffer in the image's layout */
} ClfxSourceForm;

/* Which resizes go down the strip kernel (CLFX_DEV resize-strip). */
typedef enum
{
  CLFX_STRIP_AUTO, /* 8-bit sRGB shrinks by whole factors, where the tap
                    * counts are built in (GPUs); the sweep kernel where
                    * every pixel's weights are the same */
  CLFX_STRIP_OFF,  /* none: the tiled kernel */
  CLFX_STRIP_ALL,  /* such shrinks in every depth (to measure them) */
  CLFX_STRIP_SWEEP /* such shrinks in every depth down the sweep kernel,
                    * whatever the weights (to measure them) */
} ClfxStripPolicy;

/* How device all's other contexts move images in the first context's
 * pinned memory (CLFX_DEV peer-pinned). */
typedef enum
{
  CLFX_PEER_STAGE,   /* through their own pinned staging */
  CLFX_PEER_DIRECT,  /* where they lie */
  CLFX_PEER_CONTEXT  /* where they lie, every device of a platform in one
                      * OpenCL context (its memory pinned for all of them) */
} ClfxPeerPinned;

typedef struct
{
  /* Rows a work-item of a pixel kernel makes (1-16); 0: the rule (4 for
   * pixels under 16 bytes, else 1).  Tests only: no variable. */
  int               rows_per_item;
  bool              zero_copy_off; /* zero-copy=off */
  /* host-scratch=off: CPU devices' intermediates allocated by the driver
   * for each run rather than kept by the context (clfx-scratch.c) */
  bool              scratch_off;
  bool              two_pass;      /* resize-two-pass=1 */
  /* The tiled resize's tap counts built into its program on every device
   * (by default on GPUs only).  Tests only: no variable. */
  bool              fixed_taps;
  ClfxStripPolicy   strip;         /* resize-strip=auto|off|all|sweep */
  /* resize-strip-rows (1-256): result rows a work-group of the strip and
   * sweep kernels makes; 0: as many as fill the device, at most 32 */
  int               strip_rows;
  ClfxSamplerPolicy sampler;       /* sampler=auto|hardware|kernel */
  ClfxSourceForm    source;        /* source=auto|image|buffer */
  /* peer-pinned=stage|direct|context: with direct, images in
   * another context's pinned memory (device all's first GPU's, read by
   * the others) go to and from the device where they lie rather than
   * through this context's pinned staging (stage, the default); context
   * also makes one OpenCL context for device all's devices of a
   * platform, whose pinned memory is then every device's own.  All are
   * correct; which is fastest depends on whether the driver pins memory
   * for every context, so device all keeps staging until that is
   * measured. */
  ClfxPeerPinned    peer_pinned;
  /* tile=WxH: run in tiles of at most W x H result pixels even when the
   * image fits (tests compare that with the untiled result). */
  int               tile_width, tile_height;
  /* band-bytes: bytes per streamed band, and per band of a variant's
   * banded intermediate (0: the defaults). */
  size_t            band_bytes;
  /* CLFX_DEVICE_BUDGET: device memory a run may use, bytes (0: half the
   * device's global memory). */
  size_t            budget;
  /* CLFX_CL_OPTIONS: appended to every program's build options (a
   * driver's diagnostics such as NVIDIA's -cl-nv-verbose, whose register
   * and spill counts then appear in the build log); empty: none. */
  char              cl_options[160];
} ClfxTuning;

/* Reads the context's settings from the environment (CLFX_DEV,
 * CLFX_DEVICE_BUDGET, CLFX_CL_OPTIONS); a value not understood keeps the
 * default and is said in *warning (empty when all were understood), as
 * are CLFX_DEV items that name no switch and variables no longer read. */
void clfx_tuning_read (ClfxTuning *t, char *warning, size_t warning_len);

/* CLFX_DEV's switch `name` ("fault", "preview-dump", ...): its value
 * (cut to fit n bytes) in buf, or NULL when CLFX_DEV does not give it. */
const char *clfx_dev_switch (const char *name, char *buf, size_t n);

/* CLFX_CACHE_DIR and CLFX_KERNEL_DIR (NULL when unset or empty). */
const char *clfx_config_cache_dir (void);
const char *clfx_config_kernel_dir (void);
/* CLFX_THREADS when it is a whole number of at least 1, else the online
 * CPUs: the host threads of the CPU reference and the host copies. */
int         clfx_config_threads (void);

/* A run of decimal digits at s (no sign, no space), saturating at max + 1
 * (max below LLONG_MAX) so that a huge number cannot wrap (sscanf's %d
 * and strtol do, or skip spaces and signs); NULL if s does not start with
 * a digit.  Returns the text after the digits. */
const char *clfx_parse_digits (const char *s, long long max, long long *v);
/* "WxH" at s, each side by clfx_parse_digits; the text after, or NULL. */
const char *clfx_parse_wxh (const char *s, long long max, long long *w,
                            long long *h);

#ifdef __cplusplus
}
#endif

#endif
