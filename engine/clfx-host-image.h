/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-host-image.h: a picture in host memory, as the engine, the file
 * readers and the plug-in exchange it.  GLib-free. */
#ifndef CLFX_HOST_IMAGE_H
#define CLFX_HOST_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clfx-error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum
{
  CLFX_DEPTH_U8 = 0,   /* unsigned normalized 8 bit  (CL_UNORM_INT8)  */
  CLFX_DEPTH_U16,      /* unsigned normalized 16 bit (CL_UNORM_INT16) */
  CLFX_DEPTH_HALF,     /* IEEE binary16              (CL_HALF_FLOAT)  */
  CLFX_DEPTH_FLOAT,    /* IEEE binary32              (CL_FLOAT)       */
  CLFX_N_DEPTHS
} ClfxDepth;

/* How colour values encode light.  GIMP's 8- and 16-bit images and PNG
 * files are sRGB-encoded ("perceptual"); float images and PFM files are
 * usually linear light.  Alpha is never encoded. */
typedef enum
{
  CLFX_TRC_LINEAR = 0,
  CLFX_TRC_SRGB
} ClfxTransfer;

/* Who owns pixels that are not the C heap's (pinned memory of an OpenCL
 * context): clfx_host_image_free calls release (owner) instead of free. */
typedef struct ClfxPixelOwner ClfxPixelOwner;
struct ClfxPixelOwner
{
  void (*release) (ClfxPixelOwner *owner);
};

typedef struct
{
  int       width;
  int       height;
  int       channels; /* 1 gray, 2 gray+alpha, 4 RGBA */
  ClfxDepth depth;
  size_t    stride;   /* bytes from one row to the next (>= width * bpp) */
  void     *data;     /* owner: whoever allocated; see clfx_host_image_alloc */
  /* The last channel (of 2 or 4) is alpha and colour is not multiplied by
   * it, as GIMP drawables and PNG files store it.  Filters that mix pixels
   * then weigh colour by alpha (premultiply where a texel is read, divide
   * again where the result is stored); false: every channel is filtered
   * alike.  A result has the flag of its source. */
  bool      straight_alpha;
  /* The colour channels' transfer curve.  Variants that mix pixels work
   * in linear light: sRGB values are decoded where they are read and
   * encoded where results are stored.  A result has its source's curve. */
  ClfxTransfer transfer;
  /* NULL: data is the C heap's (clfx_pixels_alloc). */
  ClfxPixelOwner *owner;
  /* Where this image's first pixel sits in a larger one it was cut from
   * (a selection's bounds grown by the halo, a GEGL chunk's read
   * rectangle); 0, 0 for a whole image.  Variants whose rounding depends
   * on a pixel's place (the box's running sums restart at fixed places)
   * take it, so that a cut gives the whole image's bytes. */
  int origin_x, origin_y;
  /* ... and that larger image's size (0, 0: this image is the whole
   * one), for variants whose result depends on where a pixel lies in
   * the image (the motion blurs' centre). */
  int extent_width, extent_height;
} ClfxImage;

const char *clfx_transfer_name (ClfxTransfer t);            /* "linear" "srgb" */
size_t      clfx_depth_size (ClfxDepth depth);           /* bytes per sample */
const char *clfx_depth_name (ClfxDepth depth);           /* "u8" "u16" "half" "float" */
bool        clfx_depth_from_name (const char *name, ClfxDepth *depth);
size_t      clfx_image_pixel_size (const ClfxImage *img);/* channels * depth size */

/* Allocates a tightly packed image (stride = width * bpp), zero-filled.
 * Checks the size arithmetic for overflow.  Free with clfx_host_image_free. */
bool  clfx_host_image_alloc (ClfxImage *img, int width, int height,
                             int channels, ClfxDepth depth, ClfxError *error);
void  clfx_host_image_free  (ClfxImage *img);
/* Zero-filled memory for pixels, huge-page backed when large; free() it. */
void *clfx_pixels_alloc (size_t bytes);

/* Sample access as float, in the format's natural units: u8 and u16 are
 * normalized to [0,1], half and float are returned as stored. */
float clfx_image_get (const ClfxImage *img, int x, int y, int c);
/* Stores with the same rounding the kernels use (round to nearest even,
 * saturating for u8/u16; round to nearest even for half). */
void  clfx_image_set (ClfxImage *img, int x, int y, int c, float v);

/* Whether channel c of img holds colour (not alpha). */
bool  clfx_image_is_colour (const ClfxImage *img, int c);
/* The sRGB curve in double precision (IEC 61966-2-1; negative values
 * continue the linear segment, as babl's curve does).  The CPU reference
 * uses these, independently of the kernels' tables and powr. */
double clfx_srgb_to_linear (double v);
double clfx_linear_to_srgb (double v);
/* Sample access in linear light: decoded when img is sRGB-encoded and c a
 * colour channel, else as clfx_image_get/set. */
float clfx_image_get_linear (const ClfxImage *img, int x, int y, int c);
void  clfx_image_set_linear (ClfxImage *img, int x, int y, int c, float v);

/* Fills img with a deterministic test picture that is never constant:
 * a smooth gradient, rings and per-texel hash noise (so every texel
 * differs from its neighbours and an off-by-half-texel sampling error is
 * large), alpha varying across the image.  Float and half images also get
 * values above 1 and below 0 (HDR).  `seed` varies the noise. */
void clfx_host_image_synthetic (ClfxImage *img, unsigned seed);

/* binary16 conversions, round to nearest even (as vstore_half_rte). */
uint16_t clfx_half_from_float (float f);
float    clfx_half_to_float (uint16_t h);

#ifdef __cplusplus
}
#endif

#endif
