/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-imageio.c: PNG (through libpng) and PFM reading and writing for the
 * command line tools and the tests.  GLib-free C11 plus POSIX file calls.
 *
 * Error handling with libpng: libpng reports errors by calling our error
 * callback, which must not return, so it longjmps back to the setjmp in
 * read_png / write_png.  Everything those functions allocate lives in a
 * context struct owned by their caller, never in their own automatic
 * variables, because automatic variables changed after setjmp have
 * indeterminate values after the longjmp.  The caller then frees whatever
 * the context holds, on the success and the failure path alike. */
#define _POSIX_C_SOURCE 200809L

#include "clfx-imageio.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <png.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* Room for libpng's message; libpng's own are short. */
#define PNG_MESSAGE_SIZE 256

/* In a channel map: "no such source channel, write it opaque". */
#define SRC_OPAQUE (-1)

/* ------------------------------------------------------------------ */
/* small helpers                                                      */

/* Case-insensitive suffix test, ASCII only: the C library's tolower
 * depends on the locale, and ".PNG" should work under any locale. */
static bool
has_extension (const char *path, const char *ext)
{
  size_t n = strlen (path);
  size_t m = strlen (ext);

  if (n < m)
    return false;
  path += n - m;
  for (size_t i = 0; i < m; i++)
    {
      char a = path[i];
      char b = ext[i];
      if (a >= 'A' && a <= 'Z')
        a = (char) (a - 'A' + 'a');
      if (a != b)
        return false;
    }
  return true;
}

/* Forwards an error from a helper that does not know the file name (the
 * host image allocator), prefixing the name so the user sees which file
 * it was about. */
static bool
forward_error (ClfxError *error, const ClfxError *inner, const char *verb,
               const char *path)
{
  return clfx_error_set (error, inner->code, "cannot %s '%s': %s", verb,
                         path, inner->message);
}

static uint16_t
load_u16 (const unsigned char *p)
{
  uint16_t v;

  memcpy (&v, p, sizeof v); /* memcpy: the stride need not be aligned */
  return v;
}

static float
load_f32 (const unsigned char *p)
{
  float v;

  memcpy (&v, p, sizeof v);
  return v;
}

/* One sample of a source row as float, in the natural units of its depth
 * (u8/u16 normalized to [0,1], half and float as stored). */
static float
sample_float (const ClfxImage *img, const unsigned char *row, int x, int c)
{
  size_t index = (size_t) x * (size_t) img->channels + (size_t) c;

  switch (img->depth)
    {
    case CLFX_DEPTH_U8:
      return (float) row[index] / 255.0f;
    case CLFX_DEPTH_U16:
      return (float) load_u16 (row + 2 * index) / 65535.0f;
    case CLFX_DEPTH_HALF:
      return clfx_half_to_float (load_u16 (row + 2 * index));
    case CLFX_DEPTH_FLOAT:
    default:
      return load_f32 (row + 4 * index);
    }
}

/* Float to unsigned normalized 16 bit the way the kernels store it
 * (convert_ushort_sat_rte): NaN -> 0, clamp to [0,1], round half to
 * even.  Keeping the same rule means a PNG written here matches what the
 * engine itself would have produced at u16. */
static uint16_t
float_to_unorm16 (float v)
{
  if (isnan (v))
    return 0;
  v *= 65535.0f;
  if (v < 0.0f)
    v = 0.0f;
  if (v > 65535.0f)
    v = 65535.0f;
  return (uint16_t) rintf (v);
}

/* Which source channel feeds each file channel.  Returns false when the
 * combination makes no sense (see the header for the rules). */
static bool
channel_map (int img_channels, int file_channels, int map[4])
{
  switch (file_channels)
    {
    case 1:
      if (img_channels != 1 && img_channels != 2)
        return false;
      map[0] = 0;
      return true;
    case 2:
      if (img_channels != 1 && img_channels != 2)
        return false;
      map[0] = 0;
      map[1] = img_channels == 2 ? 1 : SRC_OPAQUE;
      return true;
    case 3:
      if (img_channels != 4)
        return false;
      map[0] = 0;
      map[1] = 1;
      map[2] = 2;
      return true;
    case 4:
      if (img_channels == 4)
        {
          for (int i = 0; i < 4; i++)
            map[i] = i;
          return true;
        }
      if (img_channels != 1 && img_channels != 2)
        return false;
      map[0] = map[1] = map[2] = 0;
      map[3] = img_channels == 2 ? 1 : SRC_OPAQUE;
      return true;
    default:
      return false;
    }
}

/* libpng callbacks.  The error pointer is a PNG_MESSAGE_SIZE buffer in
 * the context; we keep libpng's text for our own message, then jump. */
static void
png_error_cb (png_structp png, png_const_charp msg)
{
  char *buf = png_get_error_ptr (png);

  if (buf)
    snprintf (buf, PNG_MESSAGE_SIZE, "%s", msg ? msg : "unknown error");
  png_longjmp (png, 1);
}

/* Warnings (odd ICC profiles, unknown chunks, ...) are not our concern:
 * we ignore colour metadata anyway, and printing to stderr from a
 * library is rude. */
static void
png_warning_cb (png_structp png, png_const_charp msg)
{
  (void) png;
  (void) msg;
}

/* ------------------------------------------------------------------ */
/* reading                                                            */

typedef struct
{
  const char  *path;
  FILE        *fp;
  png_structp  png;
  png_infop    info;
  png_bytep   *rows;
  unsigned char *buffer;        /* PFM row */
  long long    size;            /* of the file, in bytes */
  char        *piped;           /* the bytes of an input without a size */
  ClfxImage    img;
  int          file_channels;
  char         png_message[PNG_MESSAGE_SIZE];
} ReadContext;

static void
read_context_clear (ReadContext *c)
{
  if (c->png)
    png_destroy_read_struct (&c->png, c->info ? &c->info : NULL, NULL);
  c->png = NULL;
  c->info = NULL;
  free (c->rows);
  c->rows = NULL;
  free (c->buffer);
  c->buffer = NULL;
  if (c->fp)
    fclose (c->fp);
  c->fp = NULL;
  free (c->piped);
  c->piped = NULL;
  clfx_host_image_free (&c->img);
}

/* Turns a libpng failure into a message.  A short read is by far the
 * most common cause, and "Read Error" alone does not say so. */
static bool
png_read_failed (ReadContext *c, ClfxError *error)
{
  if (c->fp && ferror (c->fp))
    return clfx_error_set (error, CLFX_ERR_IO,
                           "cannot read '%s': I/O error (libpng: %s)",
                           c->path, c->png_message);
  if (c->fp && feof (c->fp))
    return clfx_error_set (error, CLFX_ERR_IO,
                           "cannot read '%s': the PNG file is truncated "
                           "(libpng: %s)", c->path, c->png_message);
  return clfx_error_set (error, CLFX_ERR_IO,
                         "cannot read '%s': corrupt PNG file (libpng: %s)",
                         c->path, c->png_message);
}

/* Deflate, the only compression PNG has, turns one byte into at most
 * 1032: its longest match (258 bytes) costs at least two bits.  So the
 * file must hold at least 1/1032 of the image's filtered rows (one byte
 * of filter type per row, and interlaced rows are never fewer), besides
 * the signature and the IHDR, IDAT and IEND chunks.  A header that
 * declares more than the file can hold is refused before anything is
 * allocated: a 68-byte file declaring 65536x65536 would otherwise cost
 * gigabytes of zeroed memory before libpng finds there is no data. */
#define DEFLATE_MAX_RATIO 1032
#define PNG_LEAST_CHUNKS (8 + 25 + 12 + 12)

static bool
png_check_declared (ReadContext *c, png_uint_32 width, png_uint_32 height,
                    int bit_depth, ClfxError *error)
{
  ClfxDeclaredSize d = {
    .format = "PNG",
    .width = width,
    .height = height,
    .bits_per_pixel = (unsigned long long) png_get_channels (c->png, c->info)
                      * (unsigned long long) bit_depth,
    .row_extra = 1,
    .best_ratio = DEFLATE_MAX_RATIO,
    .ratio_owner = "deflate's",
    .overhead = PNG_LEAST_CHUNKS,
    .overhead_what = "signature and chunks",
  };

  return clfx_imageio_check_declared (c->path, &d, c->size, error);
}

/* Reads the PNG whose 8 signature bytes have already been consumed. */
static bool
read_png (ReadContext *c, ClfxError *error)
{
  png_uint_32 width, height;
  int bit_depth, color_type, interlace;
  int out_channels;
  size_t bytes;
  ClfxError inner;

  c->png = png_create_read_struct (PNG_LIBPNG_VER_STRING, c->png_message,
                                   png_error_cb, png_warning_cb);
  if (! c->png)
    return clfx_error_set (error, CLFX_ERR_NOMEM,
                           "cannot read '%s': out of memory", c->path);
  c->info = png_create_info_struct (c->png);
  if (! c->info)
    return clfx_error_set (error, CLFX_ERR_NOMEM,
                           "cannot read '%s': out of memory", c->path);

  if (setjmp (png_jmpbuf (c->png)))
    return png_read_failed (c, error);

  png_init_io (c->png, c->fp);
  png_set_sig_bytes (c->png, 8);
  /* A bad CRC is an error in every chunk.  libpng's default only warns
   * about an ancillary chunk (tEXt, say) and drops it, and the warnings
   * are not shown, so a damaged file would pass as sound. */
  png_set_crc_action (c->png, PNG_CRC_ERROR_QUIT, PNG_CRC_ERROR_QUIT);
  /* Values are taken as stored; do not let a bad sRGB/ICC profile stop
   * the read (it would only be a warning, but there is no need to check
   * it at all). */
#ifdef PNG_SKIP_sRGB_CHECK_PROFILE
  png_set_option (c->png, PNG_SKIP_sRGB_CHECK_PROFILE, PNG_OPTION_ON);
#endif
  png_read_info (c->png, c->info);
  png_get_IHDR (c->png, c->info, &width, &height, &bit_depth, &color_type,
                &interlace, NULL, NULL);
  /* Check before any allocation: a corrupt header should not make us
   * ask for gigabytes. */
  if (! png_check_declared (c, width, height, bit_depth, error))
    return false;

  {
    bool trns = png_get_valid (c->png, c->info, PNG_INFO_tRNS) != 0;

    switch (color_type)
      {
      case PNG_COLOR_TYPE_GRAY:
        c->file_channels = trns ? 2 : 1;
        break;
      case PNG_COLOR_TYPE_GRAY_ALPHA:
        c->file_channels = 2;
        break;
      case PNG_COLOR_TYPE_PALETTE:
      case PNG_COLOR_TYPE_RGB:
        c->file_channels = trns ? 4 : 3;
        break;
      case PNG_COLOR_TYPE_RGB_ALPHA:
        c->file_channels = 4;
        break;
      default:
        return clfx_error_set (error, CLFX_ERR_IO,
                               "cannot read '%s': unknown PNG colour "
                               "type %d", c->path, color_type);
      }

    if (color_type == PNG_COLOR_TYPE_PALETTE)
      png_set_palette_to_rgb (c->png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8)
      png_set_expand_gray_1_2_4_to_8 (c->png);
    if (trns)
      png_set_tRNS_to_alpha (c->png);
    /* The engine has no 3-channel layout; RGB gets an opaque alpha. */
    if (c->file_channels == 3)
      png_set_filler (c->png, bit_depth == 16 ? 0xffff : 0xff,
                      PNG_FILLER_AFTER);
  }
  png_set_interlace_handling (c->png);
  png_read_update_info (c->png, c->info);

  out_channels = c->file_channels == 3 ? 4 : c->file_channels;
  bit_depth = png_get_bit_depth (c->png, c->info);
  bytes = bit_depth == 16 ? 2 : 1;
  /* The transformations above should always land on one of our layouts;
   * verify rather than trust, since png_read_image writes rowbytes. */
  if ((bit_depth != 8 && bit_depth != 16)
      || png_get_channels (c->png, c->info) != out_channels
      || png_get_rowbytes (c->png, c->info)
           != (size_t) width * (size_t) out_channels * bytes)
    return clfx_error_set (error, CLFX_ERR_IO,
                           "cannot read '%s': unsupported PNG layout "
                           "(bit depth %d, colour type %d)",
                           c->path, bit_depth, color_type);

  clfx_error_clear (&inner);
  if (! clfx_host_image_alloc (&c->img, (int) width, (int) height,
                               out_channels,
                               bytes == 2 ? CLFX_DEPTH_U16 : CLFX_DEPTH_U8,
                               &inner))
    return forward_error (error, &inner, "read", c->path);
  /* PNG alpha is straight (PNG specification, "Alpha representation").
   * Samples are sRGB-encoded, as GIMP takes a PNG without a colour
   * profile to be (gAMA and iCCP are not read). */
  c->img.straight_alpha = c->file_channels == 2 || c->file_channels == 4;
  c->img.transfer = CLFX_TRC_SRGB;

  c->rows = malloc ((size_t) height * sizeof *c->rows);
  if (! c->rows)
    return clfx_error_set (error, CLFX_ERR_NOMEM,
                           "cannot read '%s': out of memory", c->path);
  for (png_uint_32 y = 0; y < height; y++)
    c->rows[y] = (png_bytep) c->img.data + (size_t) y * c->img.stride;

  png_read_image (c->png, c->rows);
  /* Reads up to IEND, so a stream cut after the last row, or a bad CRC
   * in a trailing chunk (png_set_crc_action above), is still reported. */
  png_read_end (c->png, NULL);

  /* PNG stores 16-bit samples big-endian; ClfxImage holds host-endian
   * uint16_t.  Assemble the value from its bytes, which is right on any
   * host without having to know its byte order. */
  if (bytes == 2)
    {
      for (png_uint_32 y = 0; y < height; y++)
        {
          unsigned char *p = c->rows[y];
          size_t n = (size_t) width * (size_t) out_channels;

          for (size_t i = 0; i < n; i++, p += 2)
            {
              uint16_t v = (uint16_t) ((p[0] << 8) | p[1]);
              memcpy (p, &v, 2);
            }
        }
    }
  return true;
}

/* Reads one whitespace-delimited token of the PFM header, skipping the
 * whitespace before it.  The single whitespace character that ends the
 * token is consumed, which for the scale is exactly the one separator
 * before the binary data (which may itself start with a byte that looks
 * like whitespace, so no more may be skipped). */
static bool
pfm_token (FILE *fp, char *buf, size_t size, int *end)
{
  size_t n = 0;
  int ch;

  do
    ch = getc (fp);
  while (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n');
  while (ch != EOF && ch != ' ' && ch != '\t' && ch != '\r' && ch != '\n')
    {
      if (n + 1 >= size)
        return false;
      buf[n++] = (char) ch;
      ch = getc (fp);
    }
  buf[n] = '\0';
  if (end)
    *end = ch;
  return n > 0 && ch != EOF;
}

/* Parses a positive decimal size, saturating above the limit so that the
 * later check can report it without overflow. */
static long
pfm_parse_size (const char *s)
{
  long v = 0;

  if (! *s)
    return -1;
  for (; *s; s++)
    {
      if (*s < '0' || *s > '9')
        return -1;
      if (v <= CLFX_IMAGEIO_MAX_SIDE)
        v = v * 10 + (*s - '0');
    }
  return v;
}

/* Checks that the scale is a decimal number and returns its sign: -1 for
 * little-endian data, +1 for big-endian, 0 if it is malformed or zero.
 * Done by hand because strtod follows the locale (a GIMP plug-in may run
 * under a locale whose decimal separator is a comma). */
static int
pfm_scale_sign (const char *s)
{
  int sign = 1;
  bool digits = false;
  bool nonzero = false;
  bool point = false;

  if (*s == '+' || *s == '-')
    sign = *s++ == '-' ? -1 : 1;
  for (; (*s >= '0' && *s <= '9') || *s == '.'; s++)
    {
      if (*s == '.')
        {
          if (point)
            return 0;
          point = true;
          continue;
        }
      digits = true;
      if (*s != '0')
        nonzero = true;
    }
  if (! digits)
    return 0;
  if (*s == 'e' || *s == 'E')
    {
      s++;
      if (*s == '+' || *s == '-')
        s++;
      if (! (*s >= '0' && *s <= '9'))
        return 0;
      while (*s >= '0' && *s <= '9')
        s++;
    }
  if (*s || ! nonzero)
    return 0;
  return sign;
}

/* Reads the PFM after its two magic bytes ("PF" or "Pf"). */
static bool
read_pfm (ReadContext *c, bool color, ClfxError *error)
{
  char wtok[32], htok[32], stok[64];
  long width, height;
  int sign, ch;
  int nc = color ? 3 : 1;
  size_t row_bytes;
  ClfxError inner;

  /* The magic must be followed by whitespace, else "PFX..." would pass. */
  ch = getc (c->fp);
  if (ch != ' ' && ch != '\t' && ch != '\r' && ch != '\n')
    return clfx_error_set (error, CLFX_ERR_IO,
                           "cannot read '%s': bad PFM header (expected "
                           "\"PF\" or \"Pf\" and a newline)", c->path);
  if (! pfm_token (c->fp, wtok, sizeof wtok, NULL)
      || ! pfm_token (c->fp, htok, sizeof htok, &ch))
    return clfx_error_set (error, CLFX_ERR_IO,
                           "cannot read '%s': bad PFM header (expected "
                           "width, height and scale)", c->path);
  /* The width and height are a line of their own, the scale the next:
   * with "2 2 3" on one line, the 3 would be taken for the scale and
   * the real scale line for pixel data. */
  while (ch == ' ' || ch == '\t' || ch == '\r')
    ch = getc (c->fp);
  if (ch != '\n')
    return clfx_error_set (error, CLFX_ERR_IO,
                           "cannot read '%s': bad PFM header (more "
                           "follows the width and height '%s %s' on their "
                           "line; the scale goes on a line of its own)",
                           c->path, wtok, htok);
  if (! pfm_token (c->fp, stok, sizeof stok, NULL))
    return clfx_error_set (error, CLFX_ERR_IO,
                           "cannot read '%s': bad PFM header (expected "
                           "width, height and scale)", c->path);
  width = pfm_parse_size (wtok);
  height = pfm_parse_size (htok);
  if (width < 0 || height < 0)
    return clfx_error_set (error, CLFX_ERR_IO,
                           "cannot read '%s': bad PFM header (size "
                           "'%s %s' is not two positive integers)",
                           c->path, wtok, htok);
  /* Report the sizes as written: the parsed values saturate. */
  if (width > CLFX_IMAGEIO_MAX_SIDE || height > CLFX_IMAGEIO_MAX_SIDE)
    return clfx_error_set (error, CLFX_ERR_IO,
                           "cannot read '%s': image size %sx%s exceeds "
                           "the limit of %d pixels per side",
                           c->path, wtok, htok, CLFX_IMAGEIO_MAX_SIDE);
  sign = pfm_scale_sign (stok);
  if (sign == 0)
    return clfx_error_set (error, CLFX_ERR_IO,
                           "cannot read '%s': bad PFM header (scale '%s' "
                           "is not a non-zero number)", c->path, stok);

  c->file_channels = nc;
  row_bytes = (size_t) width * (size_t) nc * 4;
  /* A PFM holds exactly its pixels after the header, so the file's size
   * says before any allocation whether the data is all there (a 30-byte
   * file declaring 65536x65536 would otherwise cost 16 GiB). */
  {
    long long        at = ftello (c->fp);
    long long        need = (long long) row_bytes * height;
    ClfxDeclaredSize d = {
      .format = "PFM",
      .width = width,
      .height = height,
      .bits_per_pixel = 32u * (unsigned) nc,
      .best_ratio = 1,
      .overhead = at > 0 ? (unsigned long long) at : 0,
      .overhead_what = "header",
    };

    if (at < 0)
      return clfx_error_set (error, CLFX_ERR_IO, "cannot read '%s': %s",
                             c->path, strerror (errno));
    if (! clfx_imageio_check_declared (c->path, &d, c->size, error))
      return false;
    if (c->size - at != need)
      return clfx_error_set (error, CLFX_ERR_IO,
                             "cannot read '%s': the PFM file has data "
                             "after its pixels (%ldx%ld %s needs %lld "
                             "bytes of pixel data, the file has %lld)",
                             c->path, width, height, color ? "RGB" : "gray",
                             need, c->size - at);
  }
  clfx_error_clear (&inner);
  if (! clfx_host_image_alloc (&c->img, (int) width, (int) height,
                               color ? 4 : 1, CLFX_DEPTH_FLOAT, &inner))
    return forward_error (error, &inner, "read", c->path);

  c->buffer = malloc (row_bytes);
  if (! c->buffer)
    return clfx_error_set (error, CLFX_ERR_NOMEM,
                           "cannot read '%s': out of memory", c->path);

  /* PFM rows run bottom to top. */
  for (long r = 0; r < height; r++)
    {
      unsigned char *dst = (unsigned char *) c->img.data
                           + (size_t) (height - 1 - r) * c->img.stride;
      const unsigned char *p = c->buffer;

      if (fread (c->buffer, 1, row_bytes, c->fp) != row_bytes)
        {
          if (ferror (c->fp))
            return clfx_error_set (error, CLFX_ERR_IO,
                                   "cannot read '%s': %s", c->path,
                                   strerror (errno));
          return clfx_error_set (error, CLFX_ERR_IO,
                                 "cannot read '%s': the PFM file is "
                                 "truncated (%ldx%ld %s needs %zu bytes "
                                 "of pixel data)", c->path, width, height,
                                 color ? "RGB" : "gray",
                                 row_bytes * (size_t) height);
        }
      for (long x = 0; x < width; x++)
        {
          float px[4] = { 0.0f, 0.0f, 0.0f, 1.0f };

          for (int k = 0; k < nc; k++, p += 4)
            {
              uint32_t u = sign < 0
                ? (uint32_t) p[0] | (uint32_t) p[1] << 8
                  | (uint32_t) p[2] << 16 | (uint32_t) p[3] << 24
                : (uint32_t) p[3] | (uint32_t) p[2] << 8
                  | (uint32_t) p[1] << 16 | (uint32_t) p[0] << 24;
              memcpy (&px[k], &u, 4);
            }
          memcpy (dst + (size_t) x * (color ? 16 : 4), px,
                  color ? 16 : 4);
        }
    }
  return true;
}

/* Sets c->size.  The readers check the size a header declares against
 * the data the file holds before they allocate for it.  A pipe has no
 * size to ask for, so its bytes are read into memory first: as many as
 * it has, however large a size its header declares.  Returns false with
 * the error set. */
static bool
measure_input (ReadContext *c, ClfxError *error)
{
  struct stat st;
  size_t      have = 0, room = 0;
  FILE       *mem;

  if (fstat (fileno (c->fp), &st) != 0)
    return clfx_error_set (error, CLFX_ERR_IO, "cannot read '%s': %s",
                           c->path, strerror (errno));
  if (S_ISREG (st.st_mode))
    {
      c->size = (long long) st.st_size;
      return true;
    }
  for (;;)
    {
      if (have == room)
        {
          size_t more = room ? 2 * room : (size_t) 1 << 16;
          char  *grown = more > room ? realloc (c->piped, more) : NULL;

          if (! grown)
            return clfx_error_set (error, CLFX_ERR_NOMEM,
                                   "cannot read '%s': out of memory after "
                                   "%zu bytes", c->path, have);
          c->piped = grown;
          room = more;
        }
      have += fread (c->piped + have, 1, room - have, c->fp);
      if (have < room)
        break;
    }
  if (ferror (c->fp))
    return clfx_error_set (error, CLFX_ERR_IO, "cannot read '%s': %s",
                           c->path, strerror (errno));
  if (have == 0)
    return clfx_error_set (error, CLFX_ERR_IO,
                           "cannot read '%s': the file is empty", c->path);
  if (! (mem = fmemopen (c->piped, have, "rb")))
    return clfx_error_set (error, CLFX_ERR_IO, "cannot read '%s': %s",
                           c->path, strerror (errno));
  fclose (c->fp);
  c->fp = mem;
  c->size = (long long) have;
  return true;
}

bool
clfx_image_read (const char *path, ClfxImage *img, int *file_channels,
                 ClfxError *error)
{
  ReadContext c;
  unsigned char sig[8];
  size_t got;
  bool ok;

  memset (img, 0, sizeof *img);
  memset (&c, 0, sizeof c);
  c.path = path;

  c.fp = fopen (path, "rb");
  if (! c.fp)
    return clfx_error_set (error, CLFX_ERR_IO, "cannot read '%s': %s", path,
                           strerror (errno));
  if (! measure_input (&c, error))
    {
      read_context_clear (&c);
      return false;
    }

  /* Decide by content; the extension only picks the wording when the
   * content is neither format.  Read the two PFM magic bytes first, so
   * the PFM reader can continue from there without seeking (the input
   * may be a pipe). */
  got = fread (sig, 1, 2, c.fp);
  if (got == 2 && sig[0] == 'P' && (sig[1] == 'F' || sig[1] == 'f'))
    ok = read_pfm (&c, sig[1] == 'F', error);
  else
    {
      if (got == 2)
        got += fread (sig + 2, 1, 6, c.fp);
      if (got >= 4 && sig[0] == 0x76 && sig[1] == 0x2f && sig[2] == 0x31
          && sig[3] == 0x01)
        {
          /* OpenEXR's magic number: its library reads the file itself. */
#ifdef CLFX_HAVE_OPENEXR
          ok = clfx_exr_read (path, c.fp, c.size, &c.img, &c.file_channels,
                              error);
#else
          ok = clfx_error_set (error, CLFX_ERR_UNSUPPORTED,
                               "cannot read '%s': an OpenEXR file, and this "
                               "build has no OpenEXR library (install its "
                               "development files and rebuild)", path);
#endif
        }
      else if (got == 8 && png_sig_cmp (sig, 0, 8) == 0)
        ok = read_png (&c, error);
      else if (ferror (c.fp))
        ok = clfx_error_set (error, CLFX_ERR_IO, "cannot read '%s': %s",
                             path, strerror (errno));
      else if (got == 0)
        ok = clfx_error_set (error, CLFX_ERR_IO,
                             "cannot read '%s': the file is empty", path);
      else if (has_extension (path, ".png"))
        ok = clfx_error_set (error, CLFX_ERR_IO,
                             "cannot read '%s': not a PNG file", path);
      else if (has_extension (path, ".pfm"))
        ok = clfx_error_set (error, CLFX_ERR_IO,
                             "cannot read '%s': not a PFM file (no \"PF\" "
                             "or \"Pf\" header)", path);
      else
        ok = clfx_error_set (error, CLFX_ERR_IO,
                             "cannot read '%s': not a PNG, PFM or OpenEXR "
                             "file", path);
    }

  if (ok)
    {
      *img = c.img;
      memset (&c.img, 0, sizeof c.img); /* ownership moved to the caller */
      if (file_channels)
        *file_channels = c.file_channels;
    }
  read_context_clear (&c);
  return ok;
}

bool
clfx_imageio_has_openexr (void)
{
#ifdef CLFX_HAVE_OPENEXR
  return true;
#else
  return false;
#endif
}

/* ------------------------------------------------------------------ */
/* writing                                                            */

typedef struct
{
  const char    *path;      /* what the user asked for, for messages */
  char          *tmp_path;
  FILE          *fp;
  png_structp    png;
  png_infop      info;
  unsigned char *row;
  char           png_message[PNG_MESSAGE_SIZE];
} WriteContext;

/* Creates an unused temporary file next to path.  open (O_EXCL) with
 * mode 0666 rather than mkstemp, because mkstemp makes the file 0600 and
 * the renamed result should get the usual permissions from the umask. */
static bool
open_temp (WriteContext *c, ClfxError *error)
{
  static atomic_uint counter;
  size_t size = strlen (c->path) + 64;
  int fd = -1;

  c->tmp_path = malloc (size);
  if (! c->tmp_path)
    return clfx_error_set (error, CLFX_ERR_NOMEM,
                           "cannot write '%s': out of memory", c->path);
  for (int attempt = 0; attempt < 100 && fd < 0; attempt++)
    {
      unsigned n = atomic_fetch_add (&counter, 1u);

      snprintf (c->tmp_path, size, "%s.tmp-%ld-%u-%lx", c->path,
                (long) getpid (), n, (unsigned long) time (NULL) & 0xffffu);
      fd = open (c->tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      if (fd < 0 && errno != EEXIST)
        break;
    }
  if (fd < 0)
    {
      int e = errno;

      free (c->tmp_path);
      c->tmp_path = NULL;
      return clfx_error_set (error, CLFX_ERR_IO, "cannot write '%s': %s",
                             c->path, strerror (e));
    }
  c->fp = fdopen (fd, "wb");
  if (! c->fp)
    {
      int e = errno;

      close (fd);
      return clfx_error_set (error, CLFX_ERR_IO, "cannot write '%s': %s",
                             c->path, strerror (e));
    }
  return true;
}

/* Flushes the temporary file to disk, then renames it into place.  The
 * fsync makes sure a crash right after the rename cannot leave a file
 * with the new name but without its data. */
static bool
commit_temp (WriteContext *c, ClfxError *error)
{
  FILE *fp = c->fp;
  int e = 0;

  c->fp = NULL;
  if (fflush (fp) != 0 || fsync (fileno (fp)) != 0)
    e = errno;
  if (fclose (fp) != 0 && e == 0)
    e = errno;
  if (e != 0)
    return clfx_error_set (error, CLFX_ERR_IO, "cannot write '%s': %s",
                           c->path, strerror (e));
  if (rename (c->tmp_path, c->path) != 0)
    return clfx_error_set (error, CLFX_ERR_IO, "cannot write '%s': %s",
                           c->path, strerror (errno));
  free (c->tmp_path);
  c->tmp_path = NULL;
  return true;
}

/* Frees everything and removes the temporary file if it is still there
 * (it is not after a successful commit_temp). */
static void
write_context_clear (WriteContext *c)
{
  if (c->png)
    png_destroy_write_struct (&c->png, c->info ? &c->info : NULL);
  c->png = NULL;
  c->info = NULL;
  free (c->row);
  c->row = NULL;
  if (c->fp)
    fclose (c->fp);
  c->fp = NULL;
  if (c->tmp_path)
    {
      unlink (c->tmp_path);
      free (c->tmp_path);
      c->tmp_path = NULL;
    }
}

static bool
write_png (WriteContext *c, const ClfxImage *img, int file_channels,
           const int map[4], ClfxError *error)
{
  static const int color_types[5] = { 0, PNG_COLOR_TYPE_GRAY,
                                      PNG_COLOR_TYPE_GRAY_ALPHA,
                                      PNG_COLOR_TYPE_RGB,
                                      PNG_COLOR_TYPE_RGB_ALPHA };
  bool eight = img->depth == CLFX_DEPTH_U8;
  size_t bytes = eight ? 1 : 2;

  c->png = png_create_write_struct (PNG_LIBPNG_VER_STRING, c->png_message,
                                    png_error_cb, png_warning_cb);
  if (! c->png)
    return clfx_error_set (error, CLFX_ERR_NOMEM,
                           "cannot write '%s': out of memory", c->path);
  c->info = png_create_info_struct (c->png);
  if (! c->info)
    return clfx_error_set (error, CLFX_ERR_NOMEM,
                           "cannot write '%s': out of memory", c->path);
  c->row = malloc ((size_t) img->width * (size_t) file_channels * bytes);
  if (! c->row)
    return clfx_error_set (error, CLFX_ERR_NOMEM,
                           "cannot write '%s': out of memory", c->path);

  if (setjmp (png_jmpbuf (c->png)))
    {
      /* libpng's default writer says only "Write Error"; errno from the
       * failed fwrite (a full disk, say) is more useful. */
      if (c->fp && ferror (c->fp))
        return clfx_error_set (error, CLFX_ERR_IO,
                               "cannot write '%s': %s (libpng: %s)",
                               c->path, strerror (errno), c->png_message);
      return clfx_error_set (error, CLFX_ERR_IO,
                             "cannot write '%s': libpng: %s", c->path,
                             c->png_message);
    }

  png_init_io (c->png, c->fp);
  png_set_IHDR (c->png, c->info, (png_uint_32) img->width,
                (png_uint_32) img->height, eight ? 8 : 16,
                color_types[file_channels], PNG_INTERLACE_NONE,
                PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info (c->png, c->info);

  for (int y = 0; y < img->height; y++)
    {
      const unsigned char *src = (const unsigned char *) img->data
                                 + (size_t) y * img->stride;
      unsigned char *p = c->row;

      for (int x = 0; x < img->width; x++)
        for (int k = 0; k < file_channels; k++)
          {
            int ch = map[k];

            if (eight)
              *p++ = ch == SRC_OPAQUE
                     ? 0xff : src[(size_t) x * img->channels + ch];
            else
              {
                uint16_t v;

                if (ch == SRC_OPAQUE)
                  v = 0xffff;
                else if (img->depth == CLFX_DEPTH_U16)
                  v = load_u16 (src
                                + 2 * ((size_t) x * img->channels + ch));
                else
                  v = float_to_unorm16 (sample_float (img, src, x, ch));
                /* PNG is big-endian. */
                *p++ = (unsigned char) (v >> 8);
                *p++ = (unsigned char) (v & 0xff);
              }
          }
      png_write_row (c->png, c->row);
    }
  png_write_end (c->png, NULL);
  return true;
}

static bool
write_pfm (WriteContext *c, const ClfxImage *img, int file_channels,
           ClfxError *error)
{
  bool color = file_channels >= 3;
  int nc = color ? 3 : 1;
  size_t row_bytes = (size_t) img->width * (size_t) nc * 4;

  c->row = malloc (row_bytes);
  if (! c->row)
    return clfx_error_set (error, CLFX_ERR_NOMEM,
                           "cannot write '%s': out of memory", c->path);

  /* The scale is written as a literal: printf of a double would follow
   * the locale's decimal separator. */
  if (fprintf (c->fp, "%s\n%d %d\n-1.0\n", color ? "PF" : "Pf",
               img->width, img->height) < 0)
    return clfx_error_set (error, CLFX_ERR_IO, "cannot write '%s': %s",
                           c->path, strerror (errno));

  for (int r = 0; r < img->height; r++)
    {
      int y = img->height - 1 - r; /* PFM rows run bottom to top */
      const unsigned char *src = (const unsigned char *) img->data
                                 + (size_t) y * img->stride;
      unsigned char *p = c->row;

      for (int x = 0; x < img->width; x++)
        for (int k = 0; k < nc; k++, p += 4)
          {
            /* Gray sources feed all three colour channels. */
            int ch = img->channels == 4 ? k : 0;
            float v = sample_float (img, src, x, ch);
            uint32_t u;

            memcpy (&u, &v, 4);
            p[0] = (unsigned char) (u & 0xff);
            p[1] = (unsigned char) ((u >> 8) & 0xff);
            p[2] = (unsigned char) ((u >> 16) & 0xff);
            p[3] = (unsigned char) (u >> 24);
          }
      if (fwrite (c->row, 1, row_bytes, c->fp) != row_bytes)
        return clfx_error_set (error, CLFX_ERR_IO, "cannot write '%s': %s",
                               c->path, strerror (errno));
    }
  return true;
}

bool
clfx_image_write (const char *path, const ClfxImage *img, int file_channels,
                  ClfxError *error)
{
  WriteContext c;
  int map[4];
  bool png, ok;

  if (! img || ! img->data || img->width <= 0 || img->height <= 0
      || img->depth >= CLFX_N_DEPTHS
      || (img->channels != 1 && img->channels != 2 && img->channels != 4)
      || img->stride < (size_t) img->width * clfx_image_pixel_size (img))
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "cannot write '%s': invalid image", path);
  if (img->width > CLFX_IMAGEIO_MAX_SIDE
      || img->height > CLFX_IMAGEIO_MAX_SIDE)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "cannot write '%s': image size %dx%d exceeds "
                           "the limit of %d pixels per side", path,
                           img->width, img->height, CLFX_IMAGEIO_MAX_SIDE);
  if (! channel_map (img->channels, file_channels, map))
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "cannot write '%s': cannot store a %d-channel "
                           "image as %d file channels", path, img->channels,
                           file_channels);
  if (has_extension (path, ".png"))
    png = true;
  else if (has_extension (path, ".pfm"))
    png = false;
  else
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "cannot write '%s': unknown file type (use .png "
                           "or .pfm)", path);

  memset (&c, 0, sizeof c);
  c.path = path;
  ok = open_temp (&c, error);
  if (ok)
    ok = png ? write_png (&c, img, file_channels, map, error)
             : write_pfm (&c, img, file_channels, error);
  if (ok)
    ok = commit_temp (&c, error);
  write_context_clear (&c);
  return ok;
}
