/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-transfer.c: image formats and limits, pinned staging memory, pinned
 * host images, and the guard band. */
#include "clfx-context.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Formats a driver lists but reads wrongly.  Each entry was caught by a
 * test; the engine then carries such images as RGBA, as it does where a
 * format is missing. */
static const struct
{
  const char      *platform; /* substring of the platform name */
  cl_channel_order order;
  cl_channel_type  type;
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
clfx_context_fits_image (const ClfxContext *ctx, int width, int height,
                         size_t bytes)
{
  return (size_t) width <= ctx->device.image2d_max_width
         && (size_t) height <= ctx->device.image2d_max_height
         && bytes <= ctx->device.max_alloc;
}

bool
clfx_context_image_format (ClfxContext *ctx, int width, int height,
                           int channels, ClfxDepth depth,
                           cl_image_format *fmt, bool *gray_in_rgba,
                           ClfxError *error)
{
  static const cl_channel_type types[CLFX_N_DEPTHS]
    = { CL_UNORM_INT8, CL_UNORM_INT16, CL_HALF_FLOAT, CL_FLOAT };
  static const char *type_names[CLFX_N_DEPTHS]
    = { "CL_UNORM_INT8", "CL_UNORM_INT16", "CL_HALF_FLOAT", "CL_FLOAT" };
  ClfxError probe = { 0 };
  size_t    bytes;

  *gray_in_rgba = false;
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
      *gray_in_rgba = true;
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

/* ALLOC_HOST_PTR + a persistent map is how drivers hand out page-locked
 * memory; copies from it run at the full DMA rate, copies from malloc'd
 * memory go through a bounce buffer, several times slower. */
static bool
pinned_alloc (ClfxContext *ctx, ClfxPinned *p, size_t bytes, ClfxError *error)
{
  cl_mem buf = NULL;
  void  *ptr = NULL;

  CLFX_CREATE (buf, error, fail, "pinned memory", clCreateBuffer,
               ctx->context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes,
               NULL);
  CLFX_CREATE (ptr, error, fail, "pinned memory", clEnqueueMapBuffer,
               ctx->queue, buf, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes,
               0, NULL, NULL);
  clfx_maps_opened ();
  p->buffer = buf;
  p->ptr = ptr;
  p->size = bytes;
  return true;
fail:
  if (buf)
    clReleaseMemObject (buf);
  return false;
}

static bool
pinned_free (ClfxContext *ctx, ClfxPinned *p, ClfxError *error)
{
  cl_mem buf = p->buffer;
  void  *ptr = p->ptr;
  bool   ok = false;

  /* Forget it first: whatever happens below, it is not used again. */
  memset (p, 0, sizeof *p);
  if (! buf)
    return true;
  CLFX_CHECK (error, unmap_failed, "pinned memory", clEnqueueUnmapMemObject,
              ctx->queue, buf, ptr, 0, NULL, NULL);
  clfx_maps_closed ();
  CLFX_CHECK (error, out, "pinned memory", clFinish, ctx->queue);
  ok = true;
  goto out;
unmap_failed:
  clfx_context_unmap_again (ctx, buf, ptr);
out:
  clReleaseMemObject (buf);
  return ok;
}

void *
clfx_context_staging (ClfxContext *ctx, int dir, int slot, size_t bytes,
                      ClfxError *error)
{
  ClfxPinned *p = &ctx->staging[dir][slot];

  if (p->buffer && p->size >= bytes)
    return p->ptr;
  /* The slot's copies were waited for by the caller before it reuses
   * the slot; a larger one replaces it. */
  if (! pinned_free (ctx, p, error)
      || ! pinned_alloc (ctx, p, bytes ? bytes : 1, error))
    return NULL;
  return p->ptr;
}

/* ---- pinned host images ------------------------------------------------ */

typedef struct
{
  ClfxPixelOwner owner;  /* first: the image's owner points here */
  ClfxContext   *ctx;
  ClfxPinned     pinned;
} PinnedImage;

static void
pinned_image_release (ClfxPixelOwner *owner)
{
  PinnedImage *pi = (PinnedImage *) owner;

  pinned_free (pi->ctx, &pi->pinned, NULL);
  clfx_context_free (pi->ctx); /* its reference */
  free (pi);
}

bool
clfx_context_pinned_image (ClfxContext *ctx, ClfxImage *img, int width,
                           int height, int channels, ClfxDepth depth,
                           ClfxError *error)
{
  PinnedImage *pi;
  size_t       bytes;

  memset (img, 0, sizeof *img);
  if ((channels != 1 && channels != 2 && channels != 4)
      || depth >= CLFX_N_DEPTHS)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "%d channels of depth %d: not an image layout",
                           channels, (int) depth);
  if (width <= 0 || height <= 0
      || (size_t) width > SIZE_MAX / ((size_t) channels * 4)
                            / (size_t) height)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "image size %dx%d is out of range", width, height);
  bytes = (size_t) width * (size_t) height * (size_t) channels
          * clfx_depth_size (depth);
  if (! (pi = calloc (1, sizeof *pi)))
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  pi->owner.release = pinned_image_release;
  pi->ctx = ctx;
  if (! pinned_alloc (ctx, &pi->pinned, bytes, error))
    {
      free (pi);
      return false;
    }
  memset (pi->pinned.ptr, 0, bytes);
  ctx->refs++;
  img->width = width;
  img->height = height;
  img->channels = channels;
  img->depth = depth;
  img->stride = (size_t) width * (size_t) channels * clfx_depth_size (depth);
  img->data = pi->pinned.ptr;
  img->owner = &pi->owner;
  return true;
}

bool
clfx_context_wants_pinned (const ClfxContext *ctx)
{
  return ! ctx->zero_copy;
}

bool
clfx_context_image_alloc (ClfxContext *ctx, ClfxImage *img, int width,
                          int height, int channels, ClfxDepth depth,
                          ClfxError *error)
{
  ClfxError ignored = { 0 };

  if (ctx && clfx_context_wants_pinned (ctx)
      && clfx_context_pinned_image (ctx, img, width, height, channels, depth,
                                    &ignored))
    return true;
  return clfx_host_image_alloc (img, width, height, channels, depth, error);
}

/* The context whose pinned memory holds img's pixels, or NULL. */
static const ClfxContext *
pinned_owner (const ClfxImage *img)
{
  return img->owner && img->owner->release == pinned_image_release
           ? ((const PinnedImage *) img->owner)->ctx
           : NULL;
}

bool
clfx_context_owns_pinned (const ClfxContext *ctx, const ClfxImage *img)
{
  return pinned_owner (img) == ctx;
}

bool
clfx_context_reads_pinned (const ClfxContext *ctx, const ClfxImage *img)
{
  const ClfxContext *owner = pinned_owner (img);

  return owner
         && (owner == ctx || owner->context == ctx->context
             || ctx->tuning.peer_pinned != CLFX_PEER_STAGE);
}

/* ---- gray as RGBA ------------------------------------------------------ */

void
clfx_expand_gray (const ClfxImage *img, int x0, int y0, int width,
                  int height, void *out, size_t out_stride)
{
  size_t    bps = clfx_depth_size (img->depth);
  size_t    in_px = (size_t) img->channels * bps;
  float     one_storage = 0; /* 4 bytes, aligned for any depth */
  ClfxImage one = { 1, 1, 1, img->depth, bps, &one_storage, false,
                    CLFX_TRC_LINEAR, NULL, 0, 0, 0, 0 };
  const char *alpha1 = (const char *) &one_storage;

  clfx_image_set (&one, 0, 0, 0, 1.0f); /* 1.0 in this depth's encoding */
  for (int y = 0; y < height; y++)
    {
      const char *in = (const char *) img->data
                       + (size_t) (y0 + y) * img->stride
                       + (size_t) x0 * in_px;
      char       *o = (char *) out + (size_t) y * out_stride;
      for (int x = 0; x < width; x++, in += in_px, o += 4 * bps)
        {
          memcpy (o, in, bps);
          memcpy (o + bps, in, bps);
          memcpy (o + 2 * bps, in, bps);
          memcpy (o + 3 * bps, img->channels == 2 ? in + bps : alpha1, bps);
        }
    }
}

/* ---- guard band -------------------------------------------------------- */

size_t
clfx_context_guard (const ClfxContext *ctx)
{
  /* A multiple of 16 keeps every pixel aligned to its size (1 to 16
   * bytes), which clfx_store's vector stores rely on. */
  return (ctx->guard_bytes + 15) / 16 * 16;
}

bool
clfx_check_guard (const unsigned char *p, size_t n, size_t base,
                  ClfxError *error)
{
  for (size_t i = 0; i < n; i++)
    if (p[i] != CLFX_GUARD_BYTE)
      return clfx_error_set (error, CLFX_ERR_GUARD,
                             "a kernel wrote outside its output: guard band "
                             "byte %zu is 0x%02x, expected 0x%02x", base + i,
                             p[i], CLFX_GUARD_BYTE);
  return true;
}
