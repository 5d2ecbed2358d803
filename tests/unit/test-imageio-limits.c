/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-imageio-limits.c: the declared-size rule of the readers
 * (clfx_imageio_check_declared).  Headers that declare more than their
 * file holds, or more than the ceiling, are refused quickly, with a
 * message naming the file, the size and what the file can hold, and
 * without the memory they declare; sound files that compress as well as
 * their format can still read, OpenEXR under every compression.  TAP
 * output; works in a fresh temporary folder and removes it. */
#define _POSIX_C_SOURCE 200809L

#include "clfx-imageio.h"
#include "../tap.h"

#ifdef CLFX_HAVE_OPENEXR
#include "exr-files.h"
#endif

#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include "test-files.h"

#define check tap_ok
#define diag tap_diag

/* What a refused header may cost: a bomb read as declared costs
 * gigabytes, a refusal nothing beyond the reader's own buffers. */
#define REFUSAL_MAX_SECONDS 1.0
#define REFUSAL_MAX_RSS_KIB (64 * 1024)

static char tmpdir[3800];

static const char *
tmp_path (char *buf, size_t size, const char *name)
{
  snprintf (buf, size, "%s/%s", tmpdir, name);
  return buf;
}

static double
now (void)
{
  struct timespec t;

  clock_gettime (CLOCK_MONOTONIC, &t);
  return (double) t.tv_sec + 1e-9 * (double) t.tv_nsec;
}

static long
peak_rss_kib (void)
{
  struct rusage u;

  getrusage (RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

/* Reads path, which must be refused: a message naming the file and
 * holding each of the NULL-terminated needles, within
 * REFUSAL_MAX_SECONDS and without the process's peak memory growing by
 * more than REFUSAL_MAX_RSS_KIB. */
static void
expect_refused (const char *path, const char *what, ...)
{
  ClfxImage   img;
  ClfxError   error;
  const char *missing = NULL;
  long        rss = peak_rss_kib ();
  double      t = now ();
  bool        read;
  va_list     ap;

  clfx_error_clear (&error);
  read = clfx_image_read (path, &img, NULL, &error);
  t = now () - t;
  rss = peak_rss_kib () - rss;
  if (read)
    clfx_host_image_free (&img);
  va_start (ap, what);
  for (const char *n; (n = va_arg (ap, const char *)) != NULL;)
    if (! missing && ! strstr (error.message, n))
      missing = n;
  va_end (ap);
  diag ("%s", error.message);
  if (missing)
    diag ("the message lacks '%s'", missing);
  check (! read && strstr (error.message, path) && ! missing
           && t < REFUSAL_MAX_SECONDS && rss < REFUSAL_MAX_RSS_KIB,
         "%s: refused in %.3f s, peak memory up %ld KiB", what, t, rss);
}

/* The CRC-32 of PNG chunks, bit by bit (no zlib needed here). */
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

static void
put_be32 (unsigned char *p, uint32_t v)
{
  p[0] = (unsigned char) (v >> 24);
  p[1] = (unsigned char) (v >> 16);
  p[2] = (unsigned char) (v >> 8);
  p[3] = (unsigned char) v;
}

/* PNG and PFM headers past the ceiling, and the PFM bomb. */
static void
test_png_pfm (void)
{
  char           path[4200];
  ClfxImage      img;
  ClfxError      error;
  unsigned char *file = NULL;
  size_t         size;
  bool           ok;

  /* A 1x1 gray PNG whose IHDR then says 16400x16400 (its CRC mended),
   * padded after IEND to 300000 bytes, more than deflate needs for
   * those rows (260636 bytes at 1032:1): only the ceiling refuses it. */
  ok = clfx_host_image_alloc (&img, 1, 1, 1, CLFX_DEPTH_U8,
                              (clfx_error_clear (&error), &error));
  if (ok)
    {
      ((unsigned char *) img.data)[0] = 7;
      ok = clfx_image_write (tmp_path (path, sizeof path, "ceiling.png"),
                             &img, 1, &error);
      clfx_host_image_free (&img);
    }
  if (ok && (file = read_bytes (path, &size)) && size < 300000
      && (file = realloc (file, 300000)))
    {
      memset (file + size, 0, 300000 - size);
      put_be32 (file + 16, 16400);
      put_be32 (file + 20, 16400);
      put_be32 (file + 29, png_crc (file + 12, 17));
      write_bytes (path, file, 300000);
      expect_refused (path, "a PNG declaring 16400x16400 in 300000 bytes",
                      "16400x16400", "268435456", NULL);
    }
  else
    check (false, "could not make the PNG past the ceiling");
  free (file);

  {
    static const char bomb[] = "PF\n65536 65536\n-1.0\n0123456789abcdef";

    tmp_path (path, sizeof path, "bomb.pfm");
    write_bytes (path, bomb, sizeof bomb - 1);
    expect_refused (path, "a 36-byte PFM declaring 65536x65536 RGB",
                    "65536x65536", "51539607552 bytes", "36 bytes",
                    "truncated or corrupt", NULL);
  }
}

/* A flat image reads at the best ratio its writer reaches: the bounds
 * must not refuse it.  An all-black 4096x4096 PNG (16 MiB of rows)
 * deflates to about 16 KiB. */
static void
test_png_best_ratio (void)
{
  char      path[4200];
  ClfxImage img, back;
  ClfxError error;
  size_t    size = 0;
  bool      ok;
  FILE     *fp;

  clfx_error_clear (&error);
  ok = clfx_host_image_alloc (&img, 4096, 4096, 1, CLFX_DEPTH_U8, &error);
  if (ok)
    {
      memset (img.data, 0, img.stride * 4096);
      ok = clfx_image_write (tmp_path (path, sizeof path, "black.png"),
                             &img, 1, &error)
           && clfx_image_read (path, &back, NULL, &error);
      clfx_host_image_free (&img);
    }
  if ((fp = fopen (path, "rb")))
    {
      fseek (fp, 0, SEEK_END);
      size = (size_t) ftell (fp);
      fclose (fp);
    }
  check (ok && back.width == 4096 && back.height == 4096,
         "an all-black 4096x4096 PNG of %zu bytes (%.0f:1) reads%s%s", size,
         size ? 4096.0 * 4097.0 / (double) size : 0.0, ok ? "" : ": ",
         ok ? "" : error.message);
  if (ok)
    clfx_host_image_free (&back);
}

#ifdef CLFX_HAVE_OPENEXR

static const exr_compression_t compressions[] = {
  EXR_COMPRESSION_NONE, EXR_COMPRESSION_RLE,   EXR_COMPRESSION_ZIPS,
  EXR_COMPRESSION_ZIP,  EXR_COMPRESSION_PIZ,   EXR_COMPRESSION_PXR24,
  EXR_COMPRESSION_B44,  EXR_COMPRESSION_B44A,  EXR_COMPRESSION_DWAA,
  EXR_COMPRESSION_DWAB,
};
static const char *const compression_names[] = {
  "NONE", "RLE", "ZIPS", "ZIP", "PIZ", "PXR24", "B44", "B44A", "DWAA", "DWAB",
};
#define N_COMPRESSIONS (sizeof compressions / sizeof compressions[0])

/* Headers by hand: 16384x16384 float RGBA (4 GiB) in 1181 bytes, with
 * no offset table and no chunk, under the compression with the lowest
 * best ratio and the one with the highest; 16400x16400 in DWAB, which a
 * 40000-byte file can hold, past the ceiling. */
static void
test_exr_bombs (void)
{
  static unsigned char buf[40000];
  char                 path[4200], what[160];

  for (int i = 0; i < 2; i++)
    {
      exr_compression_t c = i ? EXR_COMPRESSION_DWAB : EXR_COMPRESSION_NONE;

      snprintf (path, sizeof path, "%s/bomb-%d.exr", tmpdir, i);
      if (! exr_header_only (buf, 1181, 16384, 16384, c)
          || ! write_bytes (path, buf, 1181))
        {
          check (false, "could not make the OpenEXR bomb");
          continue;
        }
      snprintf (what, sizeof what,
                "a 1181-byte OpenEXR header declaring 16384x16384 float "
                "RGBA, %s", i ? "DWAB" : "uncompressed");
      expect_refused (path, what, "16384x16384", "4294967296 bytes",
                      "1181 bytes", "truncated or corrupt", NULL);
    }
  tmp_path (path, sizeof path, "ceiling.exr");
  if (exr_header_only (buf, sizeof buf, 16400, 16400, EXR_COMPRESSION_DWAB)
      && write_bytes (path, buf, sizeof buf))
    expect_refused (path, "a 40000-byte DWAB header declaring 16400x16400",
                    "16400x16400", "268435456", NULL);
  else
    check (false, "could not make the OpenEXR header past the ceiling");
}

/* Colour steps of 1/16 and alpha 1, 1/2, 1/4 or 0: exact in half, and
 * colour times alpha divided by alpha is the colour again. */
static float
step_colour (int x, int y, int c)
{
  return (float) ((x * 7 + y * 3 + c * 5) % 64) / 16.0f;
}

static float
step_alpha (int x, int y)
{
  static const float a[4] = { 1.0f, 0.5f, 0.25f, 0.0f };

  return a[(x + 2 * y) % 4];
}

/* R, G, B premultiplied, A; or Y, A. */
static float
rgba_value (int x, int y, int c)
{
  return c == 3 ? step_alpha (x, y) : step_colour (x, y, c) * step_alpha (x, y);
}

static float
ya_value (int x, int y, int c)
{
  return c == 1 ? step_alpha (x, y) : step_colour (x, y, 0) * step_alpha (x, y);
}

static float
plain_value (int x, int y, int c)
{
  return step_colour (x, y, c);
}

/* Whole numbers, for uint channels. */
static float
count_value (int x, int y, int c)
{
  return (float) ((x + 2 * y + 3 * c) % 7);
}

/* Smooth, for the lossy compressions. */
static float
ramp_value (int x, int y, int c)
{
  return c == 3 ? 1.0f : (float) (x + y + 4 * c) / 64.0f;
}

static float
flat_value (int x, int y, int c)
{
  (void) x;
  (void) y;
  return c == 3 ? 1.0f : 0.5f;
}

/* One file written through the library and read back. */
typedef struct
{
  const char              *what;
  const char *const       *names;      /* its channels */
  int                      n;
  exr_pixel_type_t         type;
  exr_compression_t        compression;
  ExrValueFn               value;
  int                      from_value;   /* image channels value gives;
                                            the rest must read 1 */
  bool                     premultiplied; /* by the last of those */
  int                      width, height;
  int                      channels, file_channels; /* as read */
  double                   tolerance;
} ExrCase;

/* The largest difference between what was read and what was written
 * (straight: colour where alpha is above 0, as stored where it is 0). */
static double
exr_difference (const ClfxImage *img, const ExrCase *t)
{
  double worst = 0.0;

  for (int y = 0; y < img->height; y++)
    for (int x = 0; x < img->width; x++)
      {
        float a = t->premultiplied ? t->value (x, y, t->from_value - 1)
                                   : 1.0f;

        for (int c = 0; c < img->channels; c++)
          {
            float want = c < t->from_value ? t->value (x, y, c) : 1.0f;

            if (t->premultiplied && c < t->from_value - 1 && a > 0.0f)
              want /= a;
            worst = fmax (worst, fabs ((double) clfx_image_get (img, x, y, c)
                                       - want));
          }
      }
  return worst;
}

/* Writes the file and reads it back: its size, its layout, what the
 * file had and its values within the tolerance. */
static void
exr_round_trip (const ExrCase *t)
{
  char      path[4200];
  ClfxImage img;
  ClfxError error;
  int       fc = 0;
  bool      ok;
  double    diff = -1.0, ratio = 0.0;
  size_t    size = 0;
  unsigned char *file;

  clfx_error_clear (&error);
  tmp_path (path, sizeof path, "sound.exr");
  ok = exr_file_write (path, t->width, t->height, t->names, t->n, t->type,
                       t->compression, t->value);
  if (ok && (file = read_bytes (path, &size)))
    {
      free (file);
      ratio = (double) t->width * t->height * t->n
              * (t->type == EXR_PIXEL_HALF ? 2 : 4) / (double) size;
    }
  ok = ok && clfx_image_read (path, &img, &fc, &error);
  if (ok)
    {
      ok = img.width == t->width && img.height == t->height
           && img.channels == t->channels && fc == t->file_channels
           && img.depth == CLFX_DEPTH_FLOAT && img.transfer == CLFX_TRC_LINEAR;
      diff = exr_difference (&img, t);
      clfx_host_image_free (&img);
    }
  check (ok && diff <= t->tolerance, "OpenEXR %s (%zu bytes, %.0f:1) reads "
         "(largest difference %g, at most %g)%s%s", t->what, size, ratio,
         diff, t->tolerance, error.message[0] ? ": " : "", error.message);
  unlink (path);
}

static void
test_exr_sound (void)
{
  static const char *const rgba[] = { "R", "G", "B", "A" };
  static const char *const rgby[] = { "R", "G", "B", "Y" };
  static const char *const ya[] = { "Y", "A" };
  static const char *const yaz[] = { "Y", "A", "Z" };
  char                     what[160];

  for (size_t i = 0; i < N_COMPRESSIONS; i++)
    {
      /* B44 and DWA are lossy on half: a ramp, within a tolerance. */
      bool lossy = compressions[i] >= EXR_COMPRESSION_B44;

      snprintf (what, sizeof what, "%s half RGBA 37x70 %s",
                compression_names[i], lossy ? "ramp" : "premultiplied");
      exr_round_trip (&(ExrCase) { what, rgba, 4, EXR_PIXEL_HALF,
                                   compressions[i],
                                   lossy ? ramp_value : rgba_value, 4,
                                   ! lossy, 37, 70, 4, 4,
                                   lossy ? 0.05 : 0.0 });
      /* As well as the compression can pack: the ratios must not refuse
       * it. */
      snprintf (what, sizeof what, "%s half RGBA 512x512 flat",
                compression_names[i]);
      exr_round_trip (&(ExrCase) { what, rgba, 4, EXR_PIXEL_HALF,
                                   compressions[i], flat_value, 4, false,
                                   512, 512, 4, 4, lossy ? 1e-3 : 0.0 });
    }
  exr_round_trip (&(ExrCase) { "PXR24 float RGB (alpha 1)", rgba, 3,
                               EXR_PIXEL_FLOAT, EXR_COMPRESSION_PXR24,
                               plain_value, 3, false, 37, 70, 4, 3, 0.0 });
  exr_round_trip (&(ExrCase) { "ZIP float Y (gray)", rgby + 3, 1,
                               EXR_PIXEL_FLOAT, EXR_COMPRESSION_ZIP,
                               plain_value, 1, false, 37, 70, 1, 1, 0.0 });
  exr_round_trip (&(ExrCase) { "PIZ half Y, A (premultiplied)", ya, 2,
                               EXR_PIXEL_HALF, EXR_COMPRESSION_PIZ, ya_value,
                               2, true, 37, 70, 2, 2, 0.0 });
  exr_round_trip (&(ExrCase) { "RLE uint RGB", rgba, 3, EXR_PIXEL_UINT,
                               EXR_COMPRESSION_RLE, count_value, 3, false,
                               37, 70, 4, 3, 0.0 });
  /* A channel left out beside those read, in the layouts where the
   * library's fast unpackers would write through its missing pointer. */
  exr_round_trip (&(ExrCase) { "ZIP half R, G, B and Y (Y left out)", rgby,
                               4, EXR_PIXEL_HALF, EXR_COMPRESSION_ZIP,
                               plain_value, 3, false, 37, 70, 4, 3, 0.0 });
  exr_round_trip (&(ExrCase) { "ZIP half Y, A and Z (Z left out)", yaz, 3,
                               EXR_PIXEL_HALF, EXR_COMPRESSION_ZIP, ya_value,
                               2, true, 37, 70, 2, 2, 0.0 });
}

/* Sound files damaged where the rule looks: a chunk's packed size made
 * too small for its rows, a file cut inside its last chunk. */
static void
test_exr_damaged (void)
{
  static const char *const rgba[] = { "R", "G", "B", "A" };
  char                     path[4200];
  unsigned char           *file;
  size_t                   size, end;
  uint64_t                 offset = 0;

  tmp_path (path, sizeof path, "damaged.exr");
  if (! exr_file_write (path, 40, 3, rgba, 4, EXR_PIXEL_HALF,
                        EXR_COMPRESSION_RLE, rgba_value)
      || ! (file = read_bytes (path, &size)))
    {
      check (false, "could not write the OpenEXR file to damage");
      return;
    }
  /* The first chunk: its offset is the table's first entry; its packed
   * size follows its row. */
  if ((end = exr_header_end (file, size)) && end + 8 <= size)
    for (int k = 7; k >= 0; k--)
      offset = offset << 8 | file[end + (size_t) k];
  if (offset && offset + 8 <= size)
    {
      file[offset + 4] = 1;
      file[offset + 5] = file[offset + 6] = file[offset + 7] = 0;
      write_bytes (path, file, size);
      expect_refused (path, "an RLE chunk of 320 bytes of pixels said to "
                      "be 1 byte long", "row 0", "320 bytes", "RLE", NULL);
    }
  else
    check (false, "could not find the first chunk");
  free (file);

  tmp_path (path, sizeof path, "cut.exr");
  if (exr_file_write (path, 40, 40, rgba, 4, EXR_PIXEL_HALF,
                      EXR_COMPRESSION_ZIP, rgba_value)
      && (file = read_bytes (path, &size)))
    {
      write_bytes (path, file, size - 10);
      free (file);
      expect_refused (path, "a ZIP file cut 10 bytes short", "chunk of row",
                      NULL);
    }
  else
    check (false, "could not write the OpenEXR file to cut");
}

#endif

int
main (void)
{

  if (! test_tmpdir_make (tmpdir, sizeof tmpdir, "test-imageio-limits"))
    return 1;
  test_png_pfm ();
  test_png_best_ratio ();
#ifdef CLFX_HAVE_OPENEXR
  test_exr_bombs ();
  test_exr_sound ();
  test_exr_damaged ();
#else
  diag ("OpenEXR: not in this build: not tested");
#endif
  test_tmpdir_remove (tmpdir);
  return tap_done ();
}
