/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-imageio.c: round trips and error cases of tools/clfx-imageio.c.
 * Standalone, TAP output; exits non-zero if any check fails.  Works in a
 * fresh temporary folder (under $TMPDIR or /tmp) and removes it. */
#define _POSIX_C_SOURCE 200809L

#include "clfx-imageio.h"
#include "../tap.h"

#include <dirent.h>
#include <math.h>
#include <png.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "test-files.h"

static char tmpdir[3800];

#define check tap_ok
#define diag tap_diag

/* clfx_error_set keeps the first error (later ones are usually
 * consequences), so every call gets a cleared record. */
static ClfxError *
fresh (ClfxError *error)
{
  clfx_error_clear (error);
  return error;
}

/* Builds "<tmpdir>/<name>" in buf. */
static const char *
tmp_path (char *buf, size_t size, const char *name)
{
  snprintf (buf, size, "%s/%s", tmpdir, name);
  return buf;
}

/* Fills an image with a pattern in which every sample differs from its
 * neighbours and, for u16, the high and low bytes differ (0x1234 ...), so
 * swapped channels, rows or bytes all show. */
static bool
make_image (ClfxImage *img, int w, int h, int channels, ClfxDepth depth)
{
  ClfxError error;

  if (! clfx_host_image_alloc (img, w, h, channels, depth, fresh (&error)))
    {
      diag ("alloc: %s", error.message);
      return false;
    }
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      for (int c = 0; c < channels; c++)
        {
          unsigned i = (unsigned) ((y * w + x) * channels + c);
          unsigned char *p = (unsigned char *) img->data
                             + (size_t) y * img->stride;

          switch (depth)
            {
            case CLFX_DEPTH_U8:
              p[(size_t) x * channels + c] = (unsigned char) (i * 37u + 11u);
              break;
            case CLFX_DEPTH_U16:
              {
                uint16_t v = (uint16_t) (0x1234u + i * 0x0101u * 3u);
                memcpy (p + 2 * ((size_t) x * channels + c), &v, 2);
              }
              break;
            case CLFX_DEPTH_HALF:
            case CLFX_DEPTH_FLOAT:
            default:
              clfx_image_set (img, x, y, c, (float) i * 0.01f - 0.1f);
              break;
            }
        }
  return true;
}

static const unsigned char *
pixel (const ClfxImage *img, int x, int y)
{
  return (const unsigned char *) img->data + (size_t) y * img->stride
         + (size_t) x * clfx_image_pixel_size (img);
}

/* Compares the first n channels of every pixel byte for byte. */
static bool
same_channels (const ClfxImage *a, const ClfxImage *b, int n)
{
  size_t sample = clfx_depth_size (a->depth);

  if (a->width != b->width || a->height != b->height
      || a->depth != b->depth)
    return false;
  for (int y = 0; y < a->height; y++)
    for (int x = 0; x < a->width; x++)
      if (memcmp (pixel (a, x, y), pixel (b, x, y), (size_t) n * sample))
        {
          diag ("first difference at (%d,%d)", x, y);
          return false;
        }
  return true;
}

/* Every pixel's channel c holds the format's maximum. */
static bool
channel_is_max (const ClfxImage *img, int c)
{
  for (int y = 0; y < img->height; y++)
    for (int x = 0; x < img->width; x++)
      if (clfx_image_get (img, x, y, c) != 1.0f)
        return false;
  return true;
}

/* Writes img as file_channels, reads it back and checks the layout. */
static bool
round_trip (const char *name, const ClfxImage *img, int file_channels,
            ClfxImage *back, int want_channels, ClfxDepth want_depth,
            int want_file_channels)
{
  char path[4200];
  ClfxError error;
  int fc = -1;

  memset (back, 0, sizeof *back);
  tmp_path (path, sizeof path, name);
  if (! clfx_image_write (path, img, file_channels, fresh (&error)))
    {
      diag ("write %s: %s", name, error.message);
      return false;
    }
  if (! clfx_image_read (path, back, &fc, fresh (&error)))
    {
      diag ("read %s: %s", name, error.message);
      return false;
    }
  if (back->channels != want_channels || back->depth != want_depth
      || fc != want_file_channels || back->width != img->width
      || back->height != img->height
      || back->stride != (size_t) back->width * clfx_image_pixel_size (back))
    {
      diag ("%s: got %dx%d %d channels %s (file %d)", name, back->width,
            back->height, back->channels, clfx_depth_name (back->depth), fc);
      return false;
    }
  return true;
}

/* ------------------------------------------------------------------ */
/* direct libpng helpers, to make inputs our writer never produces and
 * to look at the bytes it wrote */

static bool
write_raw_png (const char *path, int w, int h, int bit_depth,
               int color_type, bool interlace, const unsigned char *data,
               const png_color *palette, int n_palette,
               const png_byte *trans, int n_trans,
               const png_color_16 *trans_color)
{
  FILE *fp = fopen (path, "wb");
  png_structp png;
  png_infop info;
  size_t rowbytes;

  if (! fp)
    return false;
  png = png_create_write_struct (PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  info = png ? png_create_info_struct (png) : NULL;
  if (! info || setjmp (png_jmpbuf (png)))
    {
      png_destroy_write_struct (&png, info ? &info : NULL);
      fclose (fp);
      return false;
    }
  png_init_io (png, fp);
  png_set_IHDR (png, info, (png_uint_32) w, (png_uint_32) h, bit_depth,
                color_type,
                interlace ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
                PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  if (palette)
    png_set_PLTE (png, info, palette, n_palette);
  if (trans || trans_color)
    png_set_tRNS (png, info, trans, n_trans, trans_color);
  png_write_info (png, info);
  rowbytes = png_get_rowbytes (png, info);
  {
    int passes = png_set_interlace_handling (png);

    for (int pass = 0; pass < passes; pass++)
      for (int y = 0; y < h; y++)
        png_write_row (png, data + (size_t) y * rowbytes);
  }
  png_write_end (png, NULL);
  png_destroy_write_struct (&png, &info);
  return fclose (fp) == 0;
}

/* Reads the IHDR and the first row of a PNG without any transformation,
 * so the test sees the byte order as stored. */
static bool
read_raw_first_row (const char *path, int *bit_depth, int *color_type,
                    unsigned char *row, size_t row_size)
{
  FILE *fp = fopen (path, "rb");
  png_structp png;
  png_infop info;
  bool ok = false;

  if (! fp)
    return false;
  png = png_create_read_struct (PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  info = png ? png_create_info_struct (png) : NULL;
  if (info && ! setjmp (png_jmpbuf (png)))
    {
      png_init_io (png, fp);
      png_read_info (png, info);
      *bit_depth = png_get_bit_depth (png, info);
      *color_type = png_get_color_type (png, info);
      if (png_get_rowbytes (png, info) <= row_size
          && png_get_interlace_type (png, info) == PNG_INTERLACE_NONE)
        {
          png_read_row (png, row, NULL);
          ok = true;
        }
    }
  png_destroy_read_struct (&png, info ? &info : NULL, NULL);
  fclose (fp);
  return ok;
}

/* The CRC-32 of PNG chunks, bit by bit; written out here so the test
 * need not link zlib itself just to patch one header. */
static uint32_t
png_crc (const unsigned char *p, size_t n)
{
  uint32_t crc = 0xffffffffu;

  while (n--)
    {
      crc ^= *p++;
      for (int k = 0; k < 8; k++)
        crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
    }
  return crc ^ 0xffffffffu;
}

/* ------------------------------------------------------------------ */
/* PNG round trips */

static void
test_png_u8 (void)
{
  static const char *names[5] = { NULL, "gray", "gray+alpha", "RGB",
                                  "RGBA" };
  static const int img_channels[5] = { 0, 1, 2, 4, 4 };

  for (int fc = 1; fc <= 4; fc++)
    {
      ClfxImage img, back;
      char name[64];
      bool ok;

      snprintf (name, sizeof name, "u8-%d.png", fc);
      ok = make_image (&img, 7, 5, img_channels[fc], CLFX_DEPTH_U8)
           && round_trip (name, &img, fc, &back, img_channels[fc],
                          CLFX_DEPTH_U8, fc)
           && same_channels (&img, &back, fc == 3 ? 3 : img_channels[fc])
           && (fc != 3 || channel_is_max (&back, 3));
      check (ok, "u8 %s PNG round trip", names[fc]);
      clfx_host_image_free (&img);
      clfx_host_image_free (&back);
    }
}

static void
test_png_u16 (void)
{
  ClfxImage img, back;
  char path[4200];
  unsigned char row[64 * 8];
  int bit_depth = 0, color_type = -1;
  uint16_t first;
  bool ok;

  ok = make_image (&img, 9, 4, 4, CLFX_DEPTH_U16)
       && round_trip ("u16-rgba.png", &img, 4, &back, 4, CLFX_DEPTH_U16, 4)
       && same_channels (&img, &back, 4);
  check (ok, "u16 RGBA PNG round trip");
  clfx_host_image_free (&back);

  /* A symmetric mistake (swapping on write and on read) would pass the
   * round trip; the file itself must be big-endian. */
  memcpy (&first, img.data, 2);
  ok = first == 0x1234
       && read_raw_first_row (tmp_path (path, sizeof path, "u16-rgba.png"),
                              &bit_depth, &color_type, row, sizeof row)
       && bit_depth == 16 && color_type == PNG_COLOR_TYPE_RGB_ALPHA
       && row[0] == 0x12 && row[1] == 0x34;
  check (ok, "u16 PNG samples are stored big-endian (0x1234 -> 12 34)");

  ok = round_trip ("u16-rgb.png", &img, 3, &back, 4, CLFX_DEPTH_U16, 3)
       && same_channels (&img, &back, 3) && channel_is_max (&back, 3);
  check (ok, "u16 RGB PNG round trip (alpha dropped, read back opaque)");
  clfx_host_image_free (&img);
  clfx_host_image_free (&back);

  ok = make_image (&img, 3, 6, 1, CLFX_DEPTH_U16)
       && round_trip ("u16-gray.png", &img, 1, &back, 1, CLFX_DEPTH_U16, 1)
       && same_channels (&img, &back, 1);
  check (ok, "u16 gray PNG round trip");
  clfx_host_image_free (&img);
  clfx_host_image_free (&back);
}

/* half and float become 16-bit PNG: clamped, NaN -> 0, rounded to
 * nearest even. */
static void
test_png_from_float (void)
{
  static const float in[8] = { -0.5f, 0.5f, 2.0f, NAN, 1.0f, 0.25f,
                               INFINITY, -INFINITY };
  static const uint16_t want[8] = { 0, 32768, 65535, 0, 65535, 16384,
                                    65535, 0 };
  ClfxDepth depths[2] = { CLFX_DEPTH_HALF, CLFX_DEPTH_FLOAT };

  for (int d = 0; d < 2; d++)
    {
      ClfxImage img, back;
      ClfxError error;
      bool ok = clfx_host_image_alloc (&img, 2, 1, 4, depths[d], fresh (&error));

      if (ok)
        for (int i = 0; i < 8; i++)
          clfx_image_set (&img, i / 4, 0, i % 4, in[i]);
      ok = ok && round_trip ("from-float.png", &img, 4, &back, 4,
                             CLFX_DEPTH_U16, 4);
      for (int i = 0; ok && i < 8; i++)
        {
          uint16_t v;

          memcpy (&v, pixel (&back, i / 4, 0) + 2 * (i % 4), 2);
          if (v != want[i])
            {
              diag ("sample %d: %g -> %u, want %u", i, (double) in[i],
                    (unsigned) v, (unsigned) want[i]);
              ok = false;
            }
        }
      check (ok, "%s RGBA -> 16-bit PNG clamps and rounds",
             clfx_depth_name (depths[d]));
      clfx_host_image_free (&img);
      clfx_host_image_free (&back);
    }
}

/* Gray written as RGBA is expanded to R = G = B with an opaque alpha. */
static void
test_png_gray_to_rgba (void)
{
  ClfxImage img, back;
  bool ok = make_image (&img, 4, 3, 1, CLFX_DEPTH_U8)
            && round_trip ("gray-as-rgba.png", &img, 4, &back, 4,
                           CLFX_DEPTH_U8, 4);

  for (int y = 0; ok && y < img.height; y++)
    for (int x = 0; ok && x < img.width; x++)
      {
        const unsigned char *p = pixel (&back, x, y);
        unsigned char g = *pixel (&img, x, y);

        ok = p[0] == g && p[1] == g && p[2] == g && p[3] == 255;
      }
  check (ok, "u8 gray written as RGBA expands to R=G=B, opaque");
  clfx_host_image_free (&img);
  clfx_host_image_free (&back);
}

/* Inputs that only other writers produce: palette, low bit depth, tRNS,
 * interlacing. */
static void
test_png_foreign (void)
{
  char path[4200];
  ClfxImage img;
  ClfxError error;
  int fc = -1;
  bool ok;

  {
    /* 4x2, 2-bit palette with a transparent entry 2. */
    static const png_color pal[4] = { { 255, 0, 0 }, { 0, 255, 0 },
                                      { 0, 0, 255 }, { 10, 20, 30 } };
    static const png_byte trans[3] = { 255, 128, 0 };
    /* indices row 0: 0 1 2 3 -> 00 01 10 11; row 1: 3 2 1 0 */
    static const unsigned char data[2] = { 0x1b, 0xe4 };
    static const unsigned char want[8][4] = {
      { 255, 0, 0, 255 }, { 0, 255, 0, 128 }, { 0, 0, 255, 0 },
      { 10, 20, 30, 255 }, { 10, 20, 30, 255 }, { 0, 0, 255, 0 },
      { 0, 255, 0, 128 }, { 255, 0, 0, 255 } };

    tmp_path (path, sizeof path, "palette.png");
    ok = write_raw_png (path, 4, 2, 2, PNG_COLOR_TYPE_PALETTE, false, data,
                        pal, 4, trans, 3, NULL)
         && clfx_image_read (path, &img, &fc, fresh (&error))
         && img.channels == 4 && img.depth == CLFX_DEPTH_U8 && fc == 4
         && img.straight_alpha;
    for (int i = 0; ok && i < 8; i++)
      ok = memcmp (pixel (&img, i % 4, i / 4), want[i], 4) == 0;
    check (ok, "2-bit palette PNG with tRNS reads as u8 RGBA, straight "
               "alpha");
    clfx_host_image_free (&img);
  }
  {
    /* 10x1, 1-bit gray: 1010110000 */
    static const unsigned char data[2] = { 0xac, 0x00 };
    static const unsigned char want[10] = { 255, 0, 255, 0, 255, 255,
                                            0, 0, 0, 0 };

    tmp_path (path, sizeof path, "gray1.png");
    ok = write_raw_png (path, 10, 1, 1, PNG_COLOR_TYPE_GRAY, false, data,
                        NULL, 0, NULL, 0, NULL)
         && clfx_image_read (path, &img, &fc, fresh (&error))
         && img.channels == 1 && img.depth == CLFX_DEPTH_U8 && fc == 1
         && memcmp (img.data, want, 10) == 0;
    check (ok, "1-bit gray PNG expands to u8 0/255");
    clfx_host_image_free (&img);
  }
  {
    /* 3x1 8-bit gray, value 77 transparent. */
    static const unsigned char data[3] = { 10, 77, 200 };
    static const unsigned char want[6] = { 10, 255, 77, 0, 200, 255 };
    png_color_16 key;

    memset (&key, 0, sizeof key);
    key.gray = 77;
    tmp_path (path, sizeof path, "gray-trns.png");
    ok = write_raw_png (path, 3, 1, 8, PNG_COLOR_TYPE_GRAY, false, data,
                        NULL, 0, NULL, 0, &key)
         && clfx_image_read (path, &img, &fc, fresh (&error))
         && img.channels == 2 && fc == 2
         && memcmp (img.data, want, 6) == 0;
    check (ok, "gray PNG with tRNS reads as gray+alpha");
    clfx_host_image_free (&img);
  }
  {
    /* 9x9 interlaced 16-bit RGB; sample (x,y,c) = 0x1000*c + 0x0102*(y*9+x)
     * stored big-endian. */
    unsigned char data[9 * 9 * 6];

    for (int i = 0; i < 81; i++)
      for (int c = 0; c < 3; c++)
        {
          unsigned v = 0x1000u * (unsigned) c + 0x0102u * (unsigned) i;
          data[i * 6 + c * 2] = (unsigned char) (v >> 8);
          data[i * 6 + c * 2 + 1] = (unsigned char) (v & 0xff);
        }
    tmp_path (path, sizeof path, "interlaced16.png");
    ok = write_raw_png (path, 9, 9, 16, PNG_COLOR_TYPE_RGB, true, data,
                        NULL, 0, NULL, 0, NULL)
         && clfx_image_read (path, &img, &fc, fresh (&error))
         && img.channels == 4 && img.depth == CLFX_DEPTH_U16 && fc == 3
         && ! img.straight_alpha; /* the alpha added is opaque */
    for (int i = 0; ok && i < 81; i++)
      for (int c = 0; ok && c < 4; c++)
        {
          uint16_t v;

          memcpy (&v, pixel (&img, i % 9, i / 9) + 2 * c, 2);
          ok = v == (c == 3 ? 0xffffu
                            : 0x1000u * (unsigned) c + 0x0102u
                                * (unsigned) i);
        }
    check (ok, "interlaced 16-bit RGB PNG reads as u16 RGBA");
    clfx_host_image_free (&img);
  }
}

/* ------------------------------------------------------------------ */
/* PFM */

/* An asymmetric float image with special values: NaN, +Inf, -Inf, a
 * negative number and a large one. */
static bool
make_pfm_image (ClfxImage *img, int channels)
{
  if (! make_image (img, 5, 3, channels, CLFX_DEPTH_FLOAT))
    return false;
  clfx_image_set (img, 0, 0, 0, NAN);
  clfx_image_set (img, 1, 0, 0, INFINITY);
  clfx_image_set (img, 2, 1, 0, -INFINITY);
  clfx_image_set (img, 3, 2, 0, -2.5f);
  clfx_image_set (img, 4, 2, 0, 1.0e30f);
  return true;
}

static uint32_t
le32 (const unsigned char *p)
{
  return (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16
         | (uint32_t) p[3] << 24;
}

static uint32_t
float_bits (float f)
{
  uint32_t u;

  memcpy (&u, &f, 4);
  return u;
}

static void
test_pfm (void)
{
  for (int color = 1; color >= 0; color--)
    {
      const char *name = color ? "float-rgb.pfm" : "float-gray.pfm";
      const char *header = color ? "PF\n5 3\n-1.0\n" : "Pf\n5 3\n-1.0\n";
      int ch = color ? 4 : 1;
      int nc = color ? 3 : 1;
      ClfxImage img, back;
      char path[4200];
      unsigned char *file;
      size_t size, hl = strlen (header);
      bool ok;

      ok = make_pfm_image (&img, ch)
           && round_trip (name, &img, nc, &back, ch, CLFX_DEPTH_FLOAT, nc)
           && same_channels (&img, &back, nc)
           && (! color || channel_is_max (&back, 3))
           && isnan (clfx_image_get (&back, 0, 0, 0))
           && isinf (clfx_image_get (&back, 1, 0, 0))
           && clfx_image_get (&back, 2, 1, 0) == -INFINITY
           && clfx_image_get (&back, 3, 2, 0) == -2.5f;
      check (ok, "float %s PFM round trip keeps NaN, Inf and negatives",
             color ? "RGB" : "gray");

      /* The file: exact header, then the bottom row first, little
       * endian. */
      file = read_bytes (tmp_path (path, sizeof path, name), &size);
      ok = file && size == hl + (size_t) (5 * 3 * nc * 4)
           && memcmp (file, header, hl) == 0;
      for (int r = 0; ok && r < 3; r++)
        for (int x = 0; ok && x < 5; x++)
          for (int k = 0; ok && k < nc; k++)
            ok = le32 (file + hl + (size_t) (((r * 5 + x) * nc + k) * 4))
                 == float_bits (clfx_image_get (&img, x, 2 - r, k));
      check (ok, "float %s PFM file is \"%s\" header, bottom-up, "
             "little-endian", color ? "RGB" : "gray", color ? "PF" : "Pf");
      free (file);
      clfx_host_image_free (&img);
      clfx_host_image_free (&back);
    }
}

static void
test_pfm_more (void)
{
  char path[4200], path2[4200];
  ClfxImage img, back;
  ClfxError error;
  int fc = -1;
  bool ok;

  {
    /* Big-endian (positive scale), 2x2 gray, rows bottom-up:
     * file order 1.0 2.0 / -3.0 0.5  ->  image row 0 = -3.0 0.5 */
    static const unsigned char be[] = {
      'P', 'f', '\n', '2', ' ', '2', '\n', '1', '.', '0', '\n',
      0x3f, 0x80, 0, 0, 0x40, 0, 0, 0, 0xc0, 0x40, 0, 0, 0x3f, 0, 0, 0 };

    tmp_path (path, sizeof path, "be.pfm");
    ok = write_bytes (path, be, sizeof be)
         && clfx_image_read (path, &img, &fc, fresh (&error)) && fc == 1
         && img.channels == 1 && img.depth == CLFX_DEPTH_FLOAT
         && clfx_image_get (&img, 0, 0, 0) == -3.0f
         && clfx_image_get (&img, 1, 0, 0) == 0.5f
         && clfx_image_get (&img, 0, 1, 0) == 1.0f
         && clfx_image_get (&img, 1, 1, 0) == 2.0f;
    check (ok, "big-endian PFM (positive scale) reads right");
    clfx_host_image_free (&img);
  }
  {
    /* Content decides, not the name. */
    unsigned char *file;
    size_t size;

    ok = make_pfm_image (&img, 4)
         && clfx_image_write (tmp_path (path, sizeof path, "magic.pfm"),
                              &img, 3, fresh (&error));
    file = ok ? read_bytes (path, &size) : NULL;
    ok = file && write_bytes (tmp_path (path2, sizeof path2, "magic.dat"),
                              file, size)
         && clfx_image_read (path2, &back, &fc, fresh (&error)) && fc == 3
         && same_channels (&img, &back, 3);
    check (ok, "PFM recognised by its magic under another name");
    free (file);
    clfx_host_image_free (&img);
    clfx_host_image_free (&back);
  }
  {
    /* u8 RGBA to PFM: normalized, alpha dropped. */
    ok = make_image (&img, 6, 2, 4, CLFX_DEPTH_U8)
         && round_trip ("from-u8.PFM", &img, 4, &back, 4, CLFX_DEPTH_FLOAT,
                        3)
         && channel_is_max (&back, 3);
    for (int y = 0; ok && y < 2; y++)
      for (int x = 0; ok && x < 6; x++)
        for (int c = 0; ok && c < 3; c++)
          ok = clfx_image_get (&back, x, y, c)
               == (float) pixel (&img, x, y)[c] / 255.0f;
    check (ok, "u8 RGBA to PFM (upper-case extension): normalized, alpha "
           "dropped");
    clfx_host_image_free (&img);
    clfx_host_image_free (&back);
  }
  {
    /* Gray+alpha half to PFM "Pf": alpha dropped. */
    ok = make_image (&img, 3, 3, 2, CLFX_DEPTH_HALF)
         && round_trip ("from-half.pfm", &img, 2, &back, 1, CLFX_DEPTH_FLOAT,
                        1);
    for (int y = 0; ok && y < 3; y++)
      for (int x = 0; ok && x < 3; x++)
        ok = clfx_image_get (&back, x, y, 0) == clfx_image_get (&img, x, y, 0);
    check (ok, "half gray+alpha to PFM: gray \"Pf\", values exact");
    clfx_host_image_free (&img);
    clfx_host_image_free (&back);
  }
}

/* ------------------------------------------------------------------ */
/* errors */

/* Expects clfx_image_read to fail with a message that names the file
 * and contains `want` (if not NULL), leaving img empty. */
static void
expect_read_failure (const char *path, const char *want, const char *what)
{
  ClfxImage img;
  ClfxError error;
  int fc = -7;
  bool failed;

  memset (&error, 0, sizeof error);
  img.data = (void *) &img; /* must be reset by the reader */
  failed = ! clfx_image_read (path, &img, &fc, fresh (&error));
  if (! failed)
    clfx_host_image_free (&img);
  else
    diag ("%s", error.message);
  check (failed && error.code == CLFX_ERR_IO && img.data == NULL
         && fc == -7 && strstr (error.message, path)
         && (! want || strstr (error.message, want)),
         "%s fails with a clear message", what);
}

static void
test_read_errors (void)
{
  char path[4200], path2[4200];
  ClfxImage img;
  ClfxError error;
  unsigned char *file;
  size_t size;

  expect_read_failure (tmp_path (path, sizeof path, "missing.png"),
                       "No such file", "missing file");

  /* A valid PNG cut in half. */
  if (make_image (&img, 64, 64, 4, CLFX_DEPTH_U8)
      && clfx_image_write (tmp_path (path, sizeof path, "whole.png"), &img,
                           4, fresh (&error))
      && (file = read_bytes (path, &size)) != NULL)
    {
      write_bytes (tmp_path (path2, sizeof path2, "half.png"), file,
                   size / 2);
      free (file);
      expect_read_failure (path2, "truncated", "truncated PNG");
      /* Cut just before IEND: all pixel data present, stream unfinished. */
      file = read_bytes (path, &size);
      if (file)
        write_bytes (tmp_path (path2, sizeof path2, "no-iend.png"), file,
                     size - 12);
      free (file);
      expect_read_failure (path2, NULL, "PNG without IEND");
      /* A flipped byte in the middle of the IDAT data. */
      file = read_bytes (path, &size);
      if (file)
        {
          file[size / 2] ^= 0x55;
          write_bytes (tmp_path (path2, sizeof path2, "crc.png"), file,
                       size);
        }
      free (file);
      expect_read_failure (path2, "corrupt", "corrupt PNG");
    }
  else
    check (false, "could not make the PNG to truncate");
  clfx_host_image_free (&img);

  tmp_path (path, sizeof path, "text.png");
  write_bytes (path, "hello, this is not a picture\n", 29);
  expect_read_failure (path, "not a PNG file", "text file named .png");

  tmp_path (path, sizeof path, "empty.png");
  write_bytes (path, "", 0);
  expect_read_failure (path, "empty", "empty file");

  tmp_path (path, sizeof path, "text.pfm");
  write_bytes (path, "P6\n1 1\n255\nabc", 14);
  expect_read_failure (path, "not a PFM file", "PPM named .pfm");

  {
    static const struct { const char *name, *data, *want, *what; } bad[] = {
      { "neg.pfm", "PF\n-3 2\n-1.0\n", "bad PFM header", "negative width" },
      { "short.pfm", "PF\n3\n", "bad PFM header", "header without height" },
      { "scale.pfm", "PF\n3 2\nabc\n", "scale", "non-numeric scale" },
      { "zero.pfm", "PF\n3 2\n0.0\n", "scale", "zero scale" },
      { "nospace.pfm", "PFX\n3 2\n-1\n", "bad PFM header", "magic PFX" },
      { "width0.pfm", "Pf\n0 2\n-1\n", "invalid image size", "width 0" },
      { "huge.pfm", "PF\n100000 2\n-1.0\n", "exceeds", "width 100000" },
      { "huge2.pfm", "Pf\n2 99999999999999999999\n-1\n", "exceeds",
        "height that overflows" },
      { "trunc.pfm", "Pf\n2 2\n-1.0\n\1\2\3\4\5\6\7", "truncated",
        "truncated pixel data" },
    };

    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
      {
        char what[128];

        tmp_path (path, sizeof path, bad[i].name);
        write_bytes (path, bad[i].data, strlen (bad[i].data));
        snprintf (what, sizeof what, "PFM with %s", bad[i].what);
        expect_read_failure (path, bad[i].want, what);
      }
  }

  {
    /* A PNG header claiming a huge size must be refused before any
     * allocation. */
    static const unsigned char one[1] = { 0 };
    unsigned char *p;

    tmp_path (path, sizeof path, "huge.png");
    if (write_raw_png (path, 1, 1, 8, PNG_COLOR_TYPE_GRAY, false, one, NULL,
                       0, NULL, 0, NULL)
        && (p = read_bytes (path, &size)) != NULL)
      {
        /* IHDR width at offset 16, big-endian; fix the CRC too. */
        p[16] = 0;
        p[17] = 2; /* 131072 */
        p[18] = 0;
        p[19] = 0;
        {
          uint32_t crc = png_crc (p + 12, 17);

          p[29] = (unsigned char) (crc >> 24);
          p[30] = (unsigned char) (crc >> 16);
          p[31] = (unsigned char) (crc >> 8);
          p[32] = (unsigned char) crc;
        }
        write_bytes (path, p, size);
        free (p);
        expect_read_failure (path, "exceeds", "PNG 131072 pixels wide");
      }
    else
      check (false, "could not make the huge PNG");
  }
}

/* No file other than those the test made may be left in tmpdir. */
static bool
no_temp_files (void)
{
  DIR *dir = opendir (tmpdir);
  struct dirent *e;
  bool ok = dir != NULL;

  while (dir && (e = readdir (dir)) != NULL)
    if (strstr (e->d_name, ".tmp"))
      {
        diag ("left behind: %s", e->d_name);
        ok = false;
      }
  if (dir)
    closedir (dir);
  return ok;
}

static void
test_write_errors (void)
{
  char path[4200];
  ClfxImage img, gray, back;
  ClfxError error;
  bool ok;

  if (! make_image (&img, 4, 4, 4, CLFX_DEPTH_U8)
      || ! make_image (&gray, 4, 4, 1, CLFX_DEPTH_U8))
    {
      check (false, "could not make images");
      return;
    }

  tmp_path (path, sizeof path, "bad-channels.png");
  check (! clfx_image_write (path, &gray, 3, fresh (&error))
         && error.code == CLFX_ERR_INVALID && strstr (error.message, path)
         && access (path, F_OK) != 0,
         "gray image as RGB (3) is refused");
  check (! clfx_image_write (path, &img, 2, fresh (&error))
         && error.code == CLFX_ERR_INVALID,
         "RGBA image as gray+alpha (2) is refused");
  check (! clfx_image_write (path, &img, 5, fresh (&error))
         && error.code == CLFX_ERR_INVALID,
         "file_channels 5 is refused");

  tmp_path (path, sizeof path, "picture.jpg");
  check (! clfx_image_write (path, &img, 4, fresh (&error))
         && strstr (error.message, "unknown file type")
         && access (path, F_OK) != 0,
         "unknown extension is refused");

  tmp_path (path, sizeof path, "no-such-dir/x.png");
  ok = ! clfx_image_write (path, &img, 4, fresh (&error))
       && error.code == CLFX_ERR_IO && strstr (error.message, path);
  diag ("%s", error.message);
  check (ok, "write into a missing folder fails and names the file");

  /* The target is a directory: the temporary file is written fine, the
   * rename fails, and the temporary file must be gone afterwards. */
  tmp_path (path, sizeof path, "dir.png");
  ok = mkdir (path, 0700) == 0 && ! clfx_image_write (path, &img, 4, fresh (&error))
       && strstr (error.message, path);
  diag ("%s", error.message);
  check (ok && no_temp_files (),
         "failed rename leaves no temporary file behind");
  rmdir (path);

  /* Overwriting an existing file replaces it. */
  tmp_path (path, sizeof path, "over.png");
  ok = clfx_image_write (path, &gray, 1, fresh (&error))
       && clfx_image_write (path, &img, 4, fresh (&error))
       && clfx_image_read (path, &back, NULL, fresh (&error)) && back.channels == 4
       && same_channels (&img, &back, 4);
  check (ok && no_temp_files (), "writing over an existing file replaces it");
  clfx_host_image_free (&back);

  /* A padded stride is honoured. */
  {
    ClfxImage padded = img;
    unsigned char *buf = calloc (4, 4 * 4 + 5);

    padded.stride = 4 * 4 + 5;
    padded.data = buf;
    for (int y = 0; buf && y < 4; y++)
      memcpy (buf + y * padded.stride, pixel (&img, 0, y), 16);
    ok = buf && round_trip ("padded.png", &padded, 4, &back, 4,
                            CLFX_DEPTH_U8, 4)
         && same_channels (&img, &back, 4);
    check (ok, "source with a padded stride");
    free (buf);
    clfx_host_image_free (&back);
  }

  clfx_host_image_free (&img);
  clfx_host_image_free (&gray);
}

/* ------------------------------------------------------------------ */

static void
remove_tmpdir (void)
{
  DIR *dir = opendir (tmpdir);
  struct dirent *e;

  while (dir && (e = readdir (dir)) != NULL)
    {
      char path[4200];

      if (strcmp (e->d_name, ".") == 0 || strcmp (e->d_name, "..") == 0)
        continue;
      tmp_path (path, sizeof path, e->d_name);
      if (unlink (path) != 0)
        rmdir (path);
    }
  if (dir)
    closedir (dir);
  if (rmdir (tmpdir) != 0)
    diag ("could not remove %s", tmpdir);
}

/* OpenEXR: a real file where one is installed (Blender's studio lights,
 * Debian's blender-data, in the ci/env root): read with its size, as RGB
 * (alpha 1), linear, float; without the library, refused with the reason.
 * A truncated copy is refused, naming the file. */
static void
test_exr (void)
{
  static const char *path
    = "/usr/share/blender/datafiles/studiolights/world/courtyard.exr";
  ClfxImage   img;
  ClfxError   e = { 0 };
  int         fc = 0;
  char        cut[4200];
  FILE       *in, *out;
  char        buf[4096];
  size_t      n, total = 0;
  bool        ok;
  double      lo = INFINITY, hi = -INFINITY;

  if (access (path, R_OK) != 0)
    {
      tap_diag ("OpenEXR: %s is not installed: not tested", path);
      return;
    }
  ok = clfx_image_read (path, &img, &fc, &e);
  if (! clfx_imageio_has_openexr ())
    {
      check (! ok && strstr (e.message, "OpenEXR"),
             "OpenEXR without the library: refused, saying so (%s)",
             e.message);
      return;
    }
  for (int y = 0; ok && y < img.height; y++)
    for (int x = 0; x < img.width; x++)
      {
        lo = fmin (lo, clfx_image_get (&img, x, y, 1));
        hi = fmax (hi, clfx_image_get (&img, x, y, 1));
      }
  check (ok && img.width == 1024 && img.height == 512 && img.channels == 4
           && img.depth == CLFX_DEPTH_FLOAT && fc == 3
           && img.transfer == CLFX_TRC_LINEAR
           && clfx_image_get (&img, 7, 9, 3) == 1.0f && hi > 1.0,
         "OpenEXR: courtyard.exr read as 1024x512 RGB float, alpha 1, "
         "linear, values above 1 (green %g to %g)%s%s", lo, hi,
         ok ? "" : ": ", ok ? "" : e.message);
  if (ok)
    clfx_host_image_free (&img);
  snprintf (cut, sizeof cut, "%s/cut.exr", tmpdir);
  in = fopen (path, "rb");
  out = fopen (cut, "wb");
  while (in && out && total < 20000 && (n = fread (buf, 1, sizeof buf, in)))
    total += fwrite (buf, 1, n, out);
  if (in)
    fclose (in);
  if (out)
    fclose (out);
  e = (ClfxError) { 0 };
  check (! clfx_image_read (cut, &img, &fc, &e) && strstr (e.message, cut),
         "OpenEXR: a truncated file is refused, naming it (%s)", e.message);
  unlink (cut);
}

int
main (void)
{

  if (! test_tmpdir_make (tmpdir, sizeof tmpdir, "test-imageio"))
    return 1;

  test_png_u8 ();
  test_png_u16 ();
  test_png_from_float ();
  test_png_gray_to_rgba ();
  test_png_foreign ();
  test_pfm ();
  test_pfm_more ();
  test_read_errors ();
  test_exr ();
  test_write_errors ();

  remove_tmpdir ();
  return tap_done ();
}
