/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-host-image.c: host pictures, sample access and binary16 conversion. */
#define _DEFAULT_SOURCE /* madvise */
#include "clfx-host-image.h"
#include "clfx-parallel.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

static const char *depth_names[CLFX_N_DEPTHS] = { "u8", "u16", "half",
                                                  "float" };

const char *
clfx_transfer_name (ClfxTransfer t)
{
  return t == CLFX_TRC_SRGB ? "srgb" : "linear";
}

size_t
clfx_depth_size (ClfxDepth depth)
{
  static const size_t sizes[CLFX_N_DEPTHS] = { 1, 2, 2, 4 };
  return depth < CLFX_N_DEPTHS ? sizes[depth] : 0;
}

const char *
clfx_depth_name (ClfxDepth depth)
{
  return depth < CLFX_N_DEPTHS ? depth_names[depth] : "invalid";
}

bool
clfx_depth_from_name (const char *name, ClfxDepth *depth)
{
  for (int i = 0; i < CLFX_N_DEPTHS; i++)
    if (strcmp (name, depth_names[i]) == 0)
      {
        *depth = (ClfxDepth) i;
        return true;
      }
  return false;
}

size_t
clfx_image_pixel_size (const ClfxImage *img)
{
  return (size_t) img->channels * clfx_depth_size (img->depth);
}

/* Large pictures get 2 MiB-aligned memory marked for transparent huge
 * pages.  The first touch of fresh memory is one page fault per 4 KiB
 * page, and in a virtual machine that is what a large image costs; huge
 * pages fault a large image in many times faster
 * (docs/notebook/performance-2026.md, "What made it faster: memory
 * touched for the first time").  Where the kernel has no huge pages to
 * give, madvise is a no-op. */
#define CLFX_HUGE_PAGE ((size_t) 2 << 20)

typedef struct
{
  char  *p;
  size_t bytes;
} ZeroChunks;

static void
zero_chunks (void *data, int c0, int c1)
{
  const ZeroChunks *z = data;
  size_t            a = (size_t) c0 * CLFX_HUGE_PAGE;
  size_t            b = (size_t) c1 * CLFX_HUGE_PAGE;

  memset (z->p + a, 0, (b < z->bytes ? b : z->bytes) - a);
}

void *
clfx_pixels_alloc (size_t bytes)
{
  void *p = NULL;

  if (bytes < 2 * CLFX_HUGE_PAGE)
    return calloc (1, bytes ? bytes : 1);
  if (posix_memalign (&p, CLFX_HUGE_PAGE, bytes) != 0)
    return NULL;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  madvise (p, bytes, MADV_HUGEPAGE);
#endif
  /* The same promise as calloc, kept on every core: the zeroing is where
   * fresh memory is faulted in, and page faults on two cores take half
   * the time of one (docs/notebook/performance-2026.md, "Fresh memory in
   * GIMP's process (fcd9a5e..21a0b6f)"). */
  {
    ZeroChunks z = { p, bytes };

    clfx_parallel_rows ((int) ((bytes + CLFX_HUGE_PAGE - 1) / CLFX_HUGE_PAGE),
                        zero_chunks, &z);
  }
  return p;
}

bool
clfx_host_image_alloc (ClfxImage *img, int width, int height, int channels,
                       ClfxDepth depth, ClfxError *error)
{
  size_t bpp, stride;

  memset (img, 0, sizeof *img);
  if (width <= 0 || height <= 0)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "image size %dx%d: both sides must be at least 1",
                           width, height);
  if (channels != 1 && channels != 2 && channels != 4)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "%d channels: only 1 (gray), 2 (gray+alpha) and "
                           "4 (RGBA) are supported", channels);
  if (depth >= CLFX_N_DEPTHS)
    return clfx_error_set (error, CLFX_ERR_INVALID, "invalid sample depth");
  bpp = (size_t) channels * clfx_depth_size (depth);
  stride = (size_t) width * bpp;
  if ((size_t) width > SIZE_MAX / bpp || stride > SIZE_MAX / (size_t) height)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "image size %dx%d is too large", width, height);
  img->data = clfx_pixels_alloc (stride * (size_t) height);
  if (! img->data)
    return clfx_error_set (error, CLFX_ERR_NOMEM,
                           "out of memory for a %dx%d image (%zu bytes)",
                           width, height, stride * (size_t) height);
  img->width = width;
  img->height = height;
  img->channels = channels;
  img->depth = depth;
  img->stride = stride;
  return true;
}

void
clfx_host_image_free (ClfxImage *img)
{
  if (! img)
    return;
  if (img->owner)
    img->owner->release (img->owner);
  else
    free (img->data);
  memset (img, 0, sizeof *img);
}

static inline void *
sample_ptr (const ClfxImage *img, int x, int y, int c)
{
  return (char *) img->data + (size_t) y * img->stride
         + ((size_t) x * (size_t) img->channels + (size_t) c)
             * clfx_depth_size (img->depth);
}

float
clfx_image_get (const ClfxImage *img, int x, int y, int c)
{
  const void *p = sample_ptr (img, x, y, c);

  switch (img->depth)
    {
    case CLFX_DEPTH_U8:
      return (float) *(const uint8_t *) p / 255.0f;
    case CLFX_DEPTH_U16:
      return (float) *(const uint16_t *) p / 65535.0f;
    case CLFX_DEPTH_HALF:
      return clfx_half_to_float (*(const uint16_t *) p);
    case CLFX_DEPTH_FLOAT:
    default:
      return *(const float *) p;
    }
}

/* Same as convert_uchar_sat_rte / convert_ushort_sat_rte: NaN becomes 0
 * (the OpenCL C spec's saturating conversion of NaN), then clamp, then
 * round half to even (rintf under the default rounding mode). */
static inline float
unorm_round (float v, float max)
{
  if (isnan (v))
    return 0.0f;
  v *= max;
  if (v < 0.0f)
    v = 0.0f;
  if (v > max)
    v = max;
  return rintf (v);
}

void
clfx_image_set (ClfxImage *img, int x, int y, int c, float v)
{
  void *p = sample_ptr (img, x, y, c);

  switch (img->depth)
    {
    case CLFX_DEPTH_U8:
      *(uint8_t *) p = (uint8_t) unorm_round (v, 255.0f);
      break;
    case CLFX_DEPTH_U16:
      *(uint16_t *) p = (uint16_t) unorm_round (v, 65535.0f);
      break;
    case CLFX_DEPTH_HALF:
      *(uint16_t *) p = clfx_half_from_float (v);
      break;
    case CLFX_DEPTH_FLOAT:
    default:
      *(float *) p = v;
      break;
    }
}

bool
clfx_image_is_colour (const ClfxImage *img, int c)
{
  return ! ((img->channels == 4 && c == 3) || (img->channels == 2 && c == 1));
}

double
clfx_srgb_to_linear (double v)
{
  return v <= 0.04045 ? v / 12.92 : pow ((v + 0.055) / 1.055, 2.4);
}

double
clfx_linear_to_srgb (double v)
{
  return v <= 0.0031308 ? v * 12.92 : 1.055 * pow (v, 1.0 / 2.4) - 0.055;
}

float
clfx_image_get_linear (const ClfxImage *img, int x, int y, int c)
{
  float v = clfx_image_get (img, x, y, c);

  if (img->transfer == CLFX_TRC_SRGB && clfx_image_is_colour (img, c))
    return (float) clfx_srgb_to_linear (v);
  return v;
}

void
clfx_image_set_linear (ClfxImage *img, int x, int y, int c, float v)
{
  if (img->transfer == CLFX_TRC_SRGB && clfx_image_is_colour (img, c)
      && ! isnan (v))
    {
      double e = clfx_linear_to_srgb (v);
      /* Integer depths round the encoded value once, in double, so that a
       * value a hair under a rounding boundary in float stays under it. */
      if (img->depth == CLFX_DEPTH_U8 || img->depth == CLFX_DEPTH_U16)
        {
          double q = img->depth == CLFX_DEPTH_U8 ? 255.0 : 65535.0;
          double k = rint (e * q);
          k = k < 0.0 ? 0.0 : k > q ? q : k;
          clfx_image_set (img, x, y, c, (float) (k / q));
          return;
        }
      v = (float) e;
    }
  clfx_image_set (img, x, y, c, v);
}

uint16_t
clfx_half_from_float (float f)
{
  union { float f; uint32_t u; } in = { f };
  uint32_t sign = (in.u >> 16) & 0x8000u;
  uint32_t absu = in.u & 0x7fffffffu;

  if (absu >= 0x7f800000u) /* Inf or NaN; keep NaN quiet and non-zero */
    return (uint16_t) (sign | 0x7c00u
                       | (absu > 0x7f800000u ? 0x200u | (absu >> 13) : 0));
  if (absu >= 0x477ff000u) /* rounds to >= 65520: overflow to Inf (RTE) */
    return (uint16_t) (sign | 0x7c00u);
  if (absu < 0x38800000u) /* below the smallest normal half: subnormal */
    {
      /* value = absu as float; half subnormal unit is 2^-24.  Scale with
       * exact float arithmetic and round to nearest even with rintf. */
      union { uint32_t u; float f; } a = { absu };
      return (uint16_t) (sign | (uint32_t) rintf (a.f * 16777216.0f));
    }
  {
    /* normal: rebias exponent, round the 13 dropped mantissa bits RTE */
    uint32_t m = absu + 0xc8000000u; /* exponent -= 112 (127 - 15) */
    uint32_t rest = m & 0x1fffu;
    uint32_t h = m >> 13;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u)))
      h++;
    return (uint16_t) (sign | h);
  }
}

float
clfx_half_to_float (uint16_t h)
{
  uint32_t sign = (uint32_t) (h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t man = h & 0x3ffu;
  union { uint32_t u; float f; } out;

  if (exp == 0)
    {
      float v = (float) man / 16777216.0f; /* man * 2^-24, exact */
      return sign ? -v : v;
    }
  if (exp == 31)
    out.u = sign | 0x7f800000u | (man << 13);
  else
    out.u = sign | ((exp + 112u) << 23) | (man << 13);
  return out.f;
}

static inline float
hash01 (unsigned x, unsigned y, unsigned c, unsigned seed)
{
  uint32_t h = x * 0x8da6b343u ^ y * 0xd8163841u ^ c * 0xcb1ab31fu
               ^ seed * 0x9e3779b9u;
  h ^= h >> 15;
  h *= 0x2c1b3c6du;
  h ^= h >> 12;
  h *= 0x297a2d39u;
  h ^= h >> 15;
  return (float) (h >> 8) / 16777216.0f;
}

void
clfx_host_image_synthetic (ClfxImage *img, unsigned seed)
{
  bool  hdr = img->depth == CLFX_DEPTH_HALF || img->depth == CLFX_DEPTH_FLOAT;
  float lo = hdr ? -0.25f : 0.0f, hi = hdr ? 4.0f : 1.0f;

  for (int y = 0; y < img->height; y++)
    for (int x = 0; x < img->width; x++)
      {
        float gx = img->width > 1 ? (float) x / (float) (img->width - 1) : 0;
        float gy = img->height > 1 ? (float) y / (float) (img->height - 1)
                                   : 0;
        float dx = gx - 0.5f, dy = gy - 0.5f;
        float ring = 0.5f + 0.5f * sinf (40.0f * (dx * dx + dy * dy));
        for (int c = 0; c < img->channels; c++)
          {
            float base = c == 0 ? gx : c == 1 ? gy : c == 2 ? ring : 0.5f;
            float v = 0.5f * base + 0.5f * hash01 ((unsigned) x, (unsigned) y,
                                                   (unsigned) c, seed);
            bool  alpha = (img->channels == 4 && c == 3)
                         || (img->channels == 2 && c == 1);
            if (alpha)
              v = 0.25f + 0.75f * v; /* keep alpha in [0.25, 1] */
            else
              v = lo + (hi - lo) * v;
            clfx_image_set (img, x, y, c, v);
          }
      }
}
