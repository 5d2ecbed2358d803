/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-imageio-limits.c: the rule every reader applies to the size a
 * header declares before it allocates anything for it: the sides, the
 * file's size against the smallest encoding of the declared pixels, and
 * the ceiling on pixels (clfx-imageio.h says why each).  One function,
 * so the PNG, PFM and OpenEXR readers refuse alike and say so alike. */
#include "clfx-imageio.h"

#include <stdint.h>
#include <stdio.h>

/* a * b, or UINT64_MAX where that overflows: a corrupt header may
 * declare any number of channels, and the comparison with the file's
 * size must still come out right. */
static uint64_t
mul_saturating (uint64_t a, uint64_t b)
{
  if (a != 0 && b > UINT64_MAX / a)
    return UINT64_MAX;
  return a * b;
}

static uint64_t
add_saturating (uint64_t a, uint64_t b)
{
  return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

/* The bytes of pixel data a header declares, as the format lays them out
 * before compression. */
static uint64_t
declared_bytes (const ClfxDeclaredSize *d)
{
  uint64_t row_bits, row;

  if (d->width <= 0 || d->height <= 0)
    return 0;
  row_bits = mul_saturating ((uint64_t) d->width, d->bits_per_pixel);
  row = add_saturating (row_bits / 8 + (row_bits % 8 != 0), d->row_extra);
  return mul_saturating (row, (uint64_t) d->height);
}

bool
clfx_imageio_check_declared (const char *path, const ClfxDeclaredSize *d,
                             long long file_size, ClfxError *error)
{
  uint64_t data, ratio, least;
  char     how[160] = "";

  if (d->width <= 0 || d->height <= 0)
    return clfx_error_set (error, CLFX_ERR_IO,
                           "cannot read '%s': invalid image size %lldx%lld",
                           path, d->width, d->height);
  if (d->width > CLFX_IMAGEIO_MAX_SIDE || d->height > CLFX_IMAGEIO_MAX_SIDE)
    return clfx_error_set (error, CLFX_ERR_IO,
                           "cannot read '%s': image size %lldx%lld exceeds "
                           "the limit of %d pixels per side",
                           path, d->width, d->height, CLFX_IMAGEIO_MAX_SIDE);
  /* The file first: a header that declares more than its file holds is
   * the common case (a truncated or corrupt file), and says more. */
  data = declared_bytes (d);
  ratio = d->best_ratio > 0 ? d->best_ratio : 1;
  least = add_saturating (d->overhead, data / ratio + (data % ratio != 0));
  if (file_size < 0 || (uint64_t) file_size < least)
    {
      if (ratio > 1)
        snprintf (how, sizeof how, " at %s best ratio of %llu:1",
                  d->ratio_owner, (unsigned long long) ratio);
      return clfx_error_set (error, CLFX_ERR_IO,
                             "cannot read '%s': the %s header declares "
                             "%lldx%lld pixels (%llu bytes of pixel data), "
                             "more than a file of %lld bytes can hold (it "
                             "needs at least %llu bytes: %llu of %s, the "
                             "rest pixel data%s); the file is truncated or "
                             "corrupt", path, d->format, d->width,
                             d->height, (unsigned long long) data, file_size,
                             (unsigned long long) least,
                             (unsigned long long) d->overhead,
                             d->overhead_what, how);
    }
  if (d->width * d->height > CLFX_IMAGEIO_MAX_PIXELS)
    return clfx_error_set (error, CLFX_ERR_IO,
                           "cannot read '%s': the %s header declares "
                           "%lldx%lld pixels, more than the limit of %lld "
                           "pixels (16384x16384) of one image",
                           path, d->format, d->width, d->height,
                           CLFX_IMAGEIO_MAX_PIXELS);
  return true;
}
