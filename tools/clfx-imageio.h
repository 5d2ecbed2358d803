/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-imageio.h: reading and writing PNG and PFM files for the command
 * line tools and the tests.  GLib-free; needs libpng.  The GIMP plug-in
 * does not use this: GIMP brings its own file loaders. */
#ifndef CLFX_IMAGEIO_H
#define CLFX_IMAGEIO_H

#include <stdbool.h>
#include <stdio.h>

#include "clfx-error.h"
#include "clfx-host-image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The largest width or height a reader accepts.  Anything bigger is
 * far more likely a corrupt header than a real picture. */
#define CLFX_IMAGEIO_MAX_SIDE 65536
/* The most pixels a reader accepts in one image: 2^28, 16384x16384 or any
 * shape of that area, 4 GiB at float RGBA.  The check against the file's
 * size bounds what a truncated or uncompressed file can declare; this
 * bounds what a compressed one can, which is far more than it holds:
 * deflate's best ratio of 1032:1 lets a 4 MiB PNG declare 4 GiB of
 * pixels, OpenEXR's DWA a 32 KiB file as much. */
#define CLFX_IMAGEIO_MAX_PIXELS (1LL << 28)

/* What a header declares about its pixels, for
 * clfx_imageio_check_declared. */
typedef struct
{
  const char        *format;          /* "PNG", "PFM", "OpenEXR" */
  long long          width, height;   /* as declared */
  unsigned long long bits_per_pixel;  /* stored, before compression */
  unsigned           row_extra;       /* bytes a row adds (PNG's filter) */
  /* The most bytes of pixel data one byte of the file can carry: 1 for
   * uncompressed data, 1032 for deflate; whose ratio it is
   * ("deflate's"), for the message. */
  unsigned long long best_ratio;
  const char        *ratio_owner;
  /* The bytes any such file holds besides its pixel data, and what they
   * are ("header, chunk offsets and chunk headers"). */
  unsigned long long overhead;
  const char        *overhead_what;
} ClfxDeclaredSize;

/* The rule every reader applies to the size a header declares, before it
 * allocates anything for the pixels: both sides from 1 to
 * CLFX_IMAGEIO_MAX_SIDE; a file of file_size bytes at least as big as the
 * smallest encoding of those pixels (overhead + data / best_ratio); at
 * most CLFX_IMAGEIO_MAX_PIXELS pixels.  On failure error (CLFX_ERR_IO)
 * names the file, the declared size and what the file can hold. */
bool clfx_imageio_check_declared (const char *path,
                                  const ClfxDeclaredSize *declared,
                                  long long file_size, ClfxError *error);

/* Reads PNG (8/16-bit; gray, gray+alpha, RGB, RGBA, palette and low bit
 * depths expanded), PFM (by extension .pfm, or by the magic bytes
 * "PF" / "Pf") or OpenEXR (its magic number; clfx_exr_read).
 *
 * 8-bit PNG -> CLFX_DEPTH_U8, 16-bit PNG -> CLFX_DEPTH_U16,
 * PFM -> CLFX_DEPTH_FLOAT.
 * Gray -> 1 channel, gray+alpha -> 2, RGB -> 4 (alpha filled with the
 * maximum / 1.0), RGBA -> 4.
 *
 * *file_channels (may be NULL) receives what the file had: 1, 2, 3 or 4.
 * A tRNS chunk is expanded to alpha and counts as alpha.  Gamma and ICC
 * data are ignored: PNG samples are taken as sRGB-encoded (transfer
 * CLFX_TRC_SRGB, as GIMP takes them) with straight alpha.  PFM values, NaN
 * and Inf included, are kept as stored and are linear light; the magnitude
 * of the PFM scale is ignored.
 *
 * The size a header declares passes clfx_imageio_check_declared before
 * the image is allocated: a PFM must hold exactly its pixels, a PNG at
 * least what deflate could pack them into (1/1032), an OpenEXR file
 * what its compression could (clfx_exr_read).  Input without a size (a
 * pipe) is read into memory first.  A bad CRC in any PNG chunk,
 * ancillary ones included, is an error.
 *
 * On success img holds an image from clfx_host_image_alloc (tight stride)
 * that the caller frees with clfx_host_image_free.  On failure img is
 * zeroed (nothing to free) and error names the file. */
bool clfx_image_read (const char *path, ClfxImage *img, int *file_channels,
                      ClfxError *error);
/* OpenEXR (clfx-exr.c, in builds with the OpenEXR library; files with
 * its magic number reach it through clfx_image_read, which passes the
 * file open as fp, size bytes long, a pipe read into memory): scanline
 * images, R, G, B, A or Y, A channels (a layer prefix allowed), any pixel
 * type decoded to float, linear light, colour divided by the file's
 * premultiplied alpha.  RGB -> 4 channels (alpha 1), Y -> 1, Y + A -> 2.
 * Before the image is allocated the declared size passes
 * clfx_imageio_check_declared (each chunk's offset, row and size at
 * least, its data at the compression's best ratio) and every chunk's
 * offset and size are read: inside the file, each big enough for its
 * rows at that ratio. */
bool clfx_exr_read (const char *path, FILE *fp, long long size,
                    ClfxImage *img, int *file_channels, ClfxError *error);
/* Whether this build reads OpenEXR. */
bool clfx_imageio_has_openexr (void);

/* Writes by extension (case-insensitive):
 *  .png: u8 -> 8-bit, u16 -> 16-bit, half/float -> 16-bit, clamped to [0,1]
 *        and rounded to nearest even (NaN -> 0), as the kernels store;
 *  .pfm: any depth, converted to float (u8/u16 normalized to [0,1]); gray
 *        (file_channels 1 or 2) -> "Pf", colour (3 or 4) -> "PF" RGB;
 *        alpha is always dropped.  Rows bottom-to-top, little-endian,
 *        scale -1.0.
 *
 * file_channels: 1, 2, 3, 4 = gray, gray+alpha, RGB (drop alpha), RGBA.
 * It must fit img->channels: 1 and 2 need a gray image (1 or 2 channels;
 * a missing alpha is written opaque, an unwanted one dropped), 3 needs 4,
 * 4 takes 4 or expands gray (1 or 2) to RGB.
 *
 * The data goes to a temporary file in the same folder, which is renamed
 * over path only once complete, so a failed write never leaves a partial
 * file behind. */
bool clfx_image_write (const char *path, const ClfxImage *img,
                       int file_channels, ClfxError *error);

#ifdef __cplusplus
}
#endif

#endif
