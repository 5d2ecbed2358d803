/* clfx-tuning.h: the CLFX_* variables that tune or force a code path,
 * read once when a context is made (never in a hot path). */
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

/* Which resizes go down the strip kernel (CLFX_RESIZE_STRIP). */
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
 * pinned memory (CLFX_PEER_PINNED). */
typedef enum
{
  CLFX_PEER_STAGE,   /* through their own pinned staging */
  CLFX_PEER_DIRECT,  /* where they lie */
  CLFX_PEER_CONTEXT  /* where they lie, every device of a platform in one
                      * OpenCL context (its memory pinned for all of them) */
} ClfxPeerPinned;

typedef struct
{
  int               rows_per_item; /* CLFX_ROWS_PER_ITEM (1-16), 0: auto */
  bool              zero_copy_off; /* CLFX_ZERO_COPY=off */
  /* CLFX_HOST_SCRATCH=off: CPU devices' intermediates allocated by the
   * driver for each run rather than kept by the context (clfx-scratch.c) */
  bool              scratch_off;
  bool              two_pass;      /* CLFX_RESIZE_TWO_PASS=1 */
  /* CLFX_RESIZE_FIXED_TAPS=1: the tiled resize's tap counts built into
   * its program on every device (by default on GPUs only). */
  bool              fixed_taps;
  ClfxStripPolicy   strip;         /* CLFX_RESIZE_STRIP=auto|off|all|sweep */
  /* CLFX_RESIZE_STRIP_ROWS (1-256): result rows a work-group of the strip
   * and sweep kernels makes; 0: as many as fill the device, at most 32 */
  int               strip_rows;
  ClfxSamplerPolicy sampler;       /* CLFX_SAMPLER=auto|hardware|kernel */
  ClfxSourceForm    source;        /* CLFX_SOURCE=auto|image|buffer */
  /* CLFX_PEER_PINNED=stage|direct|context: with direct, images in
   * another context's pinned memory (device all's first GPU's, read by
   * the others) go to and from the device where they lie rather than
   * through this context's pinned staging (stage, the default); context
   * also makes one OpenCL context for device all's devices of a
   * platform, whose pinned memory is then every device's own.  All are
   * correct; which is fastest depends on whether the driver pins memory
   * for every context, so device all keeps staging until that is
   * measured. */
  ClfxPeerPinned    peer_pinned;
  /* CLFX_TILE=WxH: run in tiles of at most W x H result pixels even when
   * the image fits (tests compare that with the untiled result). */
  int               tile_width, tile_height;
  /* CLFX_BAND_BYTES: bytes per streamed band, and per band of a
   * variant's banded intermediate (0: the defaults). */
  size_t            band_bytes;
  /* CLFX_DEVICE_BUDGET: device memory a run may use, bytes (0: half the
   * device's global memory). */
  size_t            budget;
  /* CLFX_CL_OPTIONS: appended to every program's build options (a
   * driver's diagnostics such as NVIDIA's -cl-nv-verbose, whose register
   * and spill counts then appear in the build log); empty: none. */
  char              cl_options[160];
} ClfxTuning;

/* Reads the environment; an unparsable value keeps the default and is
 * reported in *warning (empty when all were understood). */
void clfx_tuning_read (ClfxTuning *t, char *warning, size_t warning_len);

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
