/* SPDX-License-Identifier: GPL-3.0-or-later */
/* exr-files.h: OpenEXR files for the readers' tests (test-imageio,
 * test-fuzz-readers): sound ones written through the OpenEXR library, as
 * a real writer makes them, a header alone made by hand, and the offsets
 * of a file's parts, to damage them on purpose.  Only in builds with the
 * OpenEXR library (CLFX_HAVE_OPENEXR). */
#ifndef CLFX_TEST_EXR_FILES_H
#define CLFX_TEST_EXR_FILES_H

#include <stdbool.h>
#include <stddef.h>

#include <openexr.h>

/* The value of channel c (its index in the names given) at (x, y). */
typedef float (*ExrValueFn) (int x, int y, int c);

/* Writes a width x height scanline file, data window from (0, 0), with
 * the n channels named, all of one pixel type, under one compression.
 * Returns false (and says why on stdout, as a TAP comment) on failure. */
bool exr_file_write (const char *path, int width, int height,
                     const char *const *names, int n,
                     exr_pixel_type_t type, exr_compression_t compression,
                     ExrValueFn value);

/* A header by hand: channels A, B, G and R in float, the compression,
 * a data window of width x height from (0, 0), the required attributes,
 * then zeros up to size bytes (no offset table, no chunks).  Returns
 * the header's length, or 0 when it does not fit in size. */
size_t exr_header_only (unsigned char *buf, size_t size, int width,
                        int height, exr_compression_t compression);

/* Where a single-part file's header ends (its offset table starts), or
 * 0 when the header does not parse within size bytes. */
size_t exr_header_end (const unsigned char *file, size_t size);

/* Where the value of the attribute called name starts, and its size in
 * *value_size; 0 when there is none. */
size_t exr_attribute (const unsigned char *file, size_t size,
                      const char *name, size_t *value_size);

#endif
