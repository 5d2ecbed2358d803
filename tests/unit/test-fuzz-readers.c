/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-fuzz-readers.c: mutation fuzzing of the PNG, PFM and OpenEXR
 * readers (clfx_image_read).  Small sound seed files, made here in every
 * layout the readers take (OpenEXR under each compression), are damaged
 * by a fixed-seed generator: bits flipped, bytes set, files cut short,
 * bytes inserted and removed, header integers set to extremes (PNG's
 * chunk CRCs mended three times in four, so the damage gets past them).  Every
 * read must either succeed with a sane image or fail with a message that
 * names the file: no crash, no sanitizer report, no large allocation.
 *
 * Memory: no single allocation may ask for more than
 * ALLOCATION_CAP_MIB.  Under AddressSanitizer such a request is a report
 * (max_allocation_size_mb); in a plain build every allocation of the
 * process, the libraries' included, passes through this file's malloc,
 * which refuses it and counts it against the case, and the process has
 * ADDRESS_SPACE_MIB of address space (RLIMIT_AS, which ASan, reserving
 * terabytes for its shadow memory, rules out).  The seeds are small enough
 * (memory_per_byte) that the declared-size rule lets no mutant make a
 * reader hold more than MEMORY_BUDGET_MIB: a reader that reaches a cap
 * allocated before checking.
 *
 * CLFX_FUZZ_CASES (default DEFAULT_CASES) and CLFX_FUZZ_SEED change the
 * number of cases and the generator's seed.  Each case's generator
 * depends only on the seed and the case's number, so a case reported
 * failing can be run again; its file is kept (the folder is named in
 * the output), and after a crash the file being read is case.* there. */
#define _POSIX_C_SOURCE 200809L

#include "clfx-imageio.h"
#include "../tap.h"

#ifdef CLFX_HAVE_OPENEXR
#include "exr-files.h"
#endif

#include <dirent.h>
#include <errno.h>
#include <malloc.h>
#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include "test-files.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

#define DEFAULT_CASES 300000
#define DEFAULT_SEED  0x636c66787a7a31ull
/* The largest allocation (also in __asan_default_options), the plain
 * build's address space, and the most any mutant may make a reader hold
 * by the rule, below both. */
#define ALLOCATION_CAP_MIB 1024
#define ADDRESS_SPACE_MIB 2048
#define MEMORY_BUDGET_MIB 1536
/* Seeds beyond this are refused anyway: small files, quick cases. */
#define SEED_MAX_BYTES 4096
/* A mutant grows by at most 3 insertions of 16 bytes, or a PFM token. */
#define GROWTH 64
/* What one read may take (a sound seed reads in well under a
 * millisecond, ASan included). */
#define CASE_MAX_SECONDS 2.0
#define MAX_FIELDS 160
#define MAX_SEEDS 40
/* Failing cases shown and kept, per seed. */
#define MAX_REPORTED 3

#ifdef UNDER_ASAN
/* ASan's defaults for this program; ASAN_OPTIONS adds to them. */
const char *__asan_default_options (void);
const char *
__asan_default_options (void)
{
  return "max_allocation_size_mb=1024";
}
#endif
const char *__ubsan_default_options (void);
const char *
__ubsan_default_options (void)
{
  return "halt_on_error=1:print_stacktrace=1";
}

/* The largest allocation asked for since the last reset, and how many
 * were refused for being past ALLOCATION_CAP_MIB. */
static size_t largest_request;
static long   refused_requests;

#if ! defined(UNDER_ASAN) && defined(__GLIBC__)
#define COUNTS_ALLOCATIONS 1
/* glibc's allocator does the work: its entry points under these names
 * (glibc's manual, "Replacing malloc"). */
extern void *__libc_malloc (size_t size);
extern void *__libc_calloc (size_t n, size_t size);
extern void *__libc_realloc (void *p, size_t size);
extern void *__libc_memalign (size_t alignment, size_t size);
extern void  __libc_free (void *p);

static bool
admit (size_t size)
{
  if (size > largest_request)
    largest_request = size;
  if (size <= (size_t) ALLOCATION_CAP_MIB << 20)
    return true;
  refused_requests++;
  errno = ENOMEM;
  return false;
}

void *
malloc (size_t size)
{
  return admit (size) ? __libc_malloc (size) : NULL;
}

void *
calloc (size_t n, size_t size)
{
  return admit (n && size > SIZE_MAX / n ? SIZE_MAX : n * size)
           ? __libc_calloc (n, size) : NULL;
}

void *
realloc (void *p, size_t size)
{
  return admit (size) ? __libc_realloc (p, size) : NULL;
}

void
free (void *p)
{
  __libc_free (p);
}

void *
memalign (size_t alignment, size_t size)
{
  return admit (size) ? __libc_memalign (alignment, size) : NULL;
}

void *
aligned_alloc (size_t alignment, size_t size)
{
  return memalign (alignment, size);
}

int
posix_memalign (void **out, size_t alignment, size_t size)
{
  void *p = memalign (alignment, size);

  if (! p)
    return ENOMEM;
  *out = p;
  return 0;
}
#endif

typedef enum
{
  FORMAT_PNG,
  FORMAT_PFM,
  FORMAT_EXR
} Format;

/* An integer in a seed's header: where, how wide (1, 2, 4, 8 bytes) and
 * in which byte order. */
typedef struct
{
  size_t at;
  int    width;
  bool   big_endian;
} Field;

typedef struct
{
  char           name[96];
  Format         format;
  unsigned char *data;
  size_t         size;
  Field          fields[MAX_FIELDS];
  int            n_fields;
  long           cases, read, refused, failed;
} Seed;

static char tmpdir[3800];
static Seed seeds[MAX_SEEDS];
static int  n_seeds;

/* ------------------------------------------------------------------ */
/* the generator: splitmix64, one stream per case */

typedef struct
{
  uint64_t state;
} Rng;

static uint64_t
rng_next (Rng *r)
{
  uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);

  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* 0 .. n-1 (n > 0). */
static size_t
rng_below (Rng *r, size_t n)
{
  return (size_t) (rng_next (r) % n);
}

/* ------------------------------------------------------------------ */
/* files */

static const char *
tmp_path (char *buf, size_t size, const char *name)
{
  snprintf (buf, size, "%s/%s", tmpdir, name);
  return buf;
}

static const char *
extension (Format format)
{
  return format == FORMAT_PNG ? "png" : format == FORMAT_PFM ? "pfm" : "exr";
}

static uint32_t
be32 (const unsigned char *p)
{
  return (uint32_t) p[0] << 24 | (uint32_t) p[1] << 16
         | (uint32_t) p[2] << 8 | (uint32_t) p[3];
}

static uint64_t
le_n (const unsigned char *p, int width)
{
  uint64_t v = 0;

  for (int k = width - 1; k >= 0; k--)
    v = v << 8 | p[k];
  return v;
}

static void
add_field (Seed *s, size_t at, int width, bool big_endian)
{
  if (s->n_fields < MAX_FIELDS && at + (size_t) width <= s->size)
    s->fields[s->n_fields++] = (Field) { at, width, big_endian };
}

/* ------------------------------------------------------------------ */
/* seeds */

/* The most bytes a reader may hold, by the declared-size rule, for
 * each byte of a file: the format's best ratio (any compression: a
 * mutant may change it) times how much more the reader holds than the
 * data it declares.  PNG: a 1-bit palette row becomes RGBA u8, 32
 * times.  PFM: RGB becomes RGBA.  OpenEXR: the float image, a chunk's
 * padded rows and the library's unpacked chunk, 7 times at most (half
 * gray, 2 bytes a pixel: 4 + 8 + 2). */
static double
memory_per_byte (Format format)
{
  switch (format)
    {
    case FORMAT_PNG:
      return 1032.0 * 32.0;
    case FORMAT_PFM:
      return 4.0 / 3.0;
    default:
      return 132096.0 * 7.0;
    }
}

/* Takes the file at path as a seed (false if it cannot, or is too big
 * for the memory budget). */
static bool
add_seed (const char *path, const char *name, Format format)
{
  Seed  *s = &seeds[n_seeds];
  double most;

  if (n_seeds >= MAX_SEEDS || ! (s->data = read_bytes (path, &s->size)))
    return false;
  most = (double) (s->size + GROWTH) * memory_per_byte (format);
  if (s->size > SEED_MAX_BYTES
      || most > (double) MEMORY_BUDGET_MIB * 1024 * 1024)
    {
      tap_diag ("seed %s: %zu bytes, which the rule lets hold %.0f MiB",
                name, s->size, most / 1048576.0);
      free (s->data);
      return false;
    }
  snprintf (s->name, sizeof s->name, "%s", name);
  s->format = format;
  n_seeds++;
  return true;
}

/* PNG: each chunk's length; IHDR's width, height, bit depth, colour
 * type, compression, filter and interlace. */
static void
png_fields (Seed *s)
{
  size_t at = 8;

  add_field (s, 16, 4, true);
  add_field (s, 20, 4, true);
  for (size_t k = 24; k <= 28; k++)
    add_field (s, k, 1, true);
  while (at + 12 <= s->size)
    {
      add_field (s, at, 4, true);
      at += 12 + be32 (s->data + at);
    }
}

#ifdef CLFX_HAVE_OPENEXR
/* OpenEXR: the version, every attribute's size, the windows, the
 * compression and line order, each channel's type and sampling, the
 * offset table, each chunk's row and size (and the sizes DWA keeps at a
 * chunk's start). */
static void
exr_fields (Seed *s, bool dwa)
{
  size_t end = exr_header_end (s->data, s->size), at, n;
  static const char *const boxes[] = { "dataWindow", "displayWindow" };

  add_field (s, 4, 4, false);
  for (int b = 0; b < 2; b++)
    if ((at = exr_attribute (s->data, s->size, boxes[b], &n)) && n == 16)
      {
        /* The attribute's size comes before its value. */
        add_field (s, at - 4, 4, false);
        for (int k = 0; k < 4; k++)
          add_field (s, at + 4 * (size_t) k, 4, false);
      }
  if ((at = exr_attribute (s->data, s->size, "compression", &n)))
    add_field (s, at, 1, false);
  if ((at = exr_attribute (s->data, s->size, "lineOrder", &n)))
    add_field (s, at, 1, false);
  if ((at = exr_attribute (s->data, s->size, "channels", &n)))
    {
      size_t stop = at + n;

      add_field (s, at - 4, 4, false);
      while (at < stop && s->data[at])
        {
          at += strlen ((const char *) s->data + at) + 1;
          add_field (s, at, 4, false);       /* pixel type */
          add_field (s, at + 8, 4, false);   /* x sampling */
          add_field (s, at + 12, 4, false);  /* y sampling */
          at += 16;
        }
    }
  if (! end || end + 8 > s->size)
    return;
  {
    uint64_t first = le_n (s->data + end, 8);
    size_t   chunks = first > end ? (size_t) (first - end) / 8 : 0;

    for (size_t c = 0; c < chunks && c < 16; c++)
      {
        uint64_t off = le_n (s->data + end + 8 * c, 8);

        add_field (s, end + 8 * c, 8, false);
        if (off + 8 > s->size)
          continue;
        add_field (s, (size_t) off, 4, false);
        add_field (s, (size_t) off + 4, 4, false);
        for (int k = 0; dwa && k < 9; k++)
          add_field (s, (size_t) off + 8 + 8 * (size_t) k, 8, false);
      }
  }
}

static float
noise_value (int x, int y, int c)
{
  Rng r = { (uint64_t) (x * 131 + y * 7919 + c * 104729) };

  return (float) (rng_next (&r) % 4096) / 1024.0f;
}

static float
smooth_value (int x, int y, int c)
{
  return c == 3 ? 1.0f : (float) (x + 2 * y + 3 * c) / 32.0f;
}

/* The OpenEXR seeds: half RGBA under every compression (noise where
 * each row is a chunk, smooth where chunks hold more rows and would
 * grow past the memory budget), then float, uint, gray, gray and alpha,
 * and a channel left out. */
static void
make_exr_seeds (void)
{
  static const char *const names[] = { "NONE", "RLE", "ZIPS", "ZIP",
                                       "PIZ", "PXR24", "B44", "B44A",
                                       "DWAA", "DWAB" };
  static const char *const rgba[] = { "R", "G", "B", "A" };
  static const char *const rgby[] = { "R", "G", "B", "Y" };
  static const char *const ya[] = { "Y", "A" };
  static const struct
  {
    const char *const *channels;
    int                n;
    exr_pixel_type_t   type;
    exr_compression_t  compression;
    const char        *what;
  } more[] = {
    { rgba, 3, EXR_PIXEL_FLOAT, EXR_COMPRESSION_ZIP, "float RGB ZIP" },
    { rgba, 3, EXR_PIXEL_UINT, EXR_COMPRESSION_RLE, "uint RGB RLE" },
    { rgby + 3, 1, EXR_PIXEL_FLOAT, EXR_COMPRESSION_PIZ, "float Y PIZ" },
    { ya, 2, EXR_PIXEL_HALF, EXR_COMPRESSION_ZIPS, "half Y, A ZIPS" },
    { rgby, 4, EXR_PIXEL_HALF, EXR_COMPRESSION_ZIP, "half R, G, B, Y ZIP" },
  };
  /* Several chunks where a chunk holds 16 rows (ZIP, PXR24); PIZ wider
   * and smooth, as OpenEXR 3.2's PIZ encoder overruns its buffer on
   * smaller images. */
  static const struct
  {
    int  w, h;
    bool smooth;
  } shapes[] = { { 7, 4, false }, { 7, 4, false }, { 7, 4, false },
                 { 7, 18, true }, { 16, 8, true }, { 7, 18, true },
                 { 7, 9, true },  { 7, 9, true },  { 7, 9, true },
                 { 7, 9, true } };
  char path[4200], name[96];

  tmp_path (path, sizeof path, "seed.exr");
  for (int c = 0; c <= (int) EXR_COMPRESSION_DWAB; c++)
    {
      snprintf (name, sizeof name, "OpenEXR half RGBA %dx%d %s",
                shapes[c].w, shapes[c].h, names[c]);
      if (exr_file_write (path, shapes[c].w, shapes[c].h, rgba, 4,
                          EXR_PIXEL_HALF, (exr_compression_t) c,
                          shapes[c].smooth ? smooth_value : noise_value)
          && add_seed (path, name, FORMAT_EXR))
        exr_fields (&seeds[n_seeds - 1], c >= (int) EXR_COMPRESSION_DWAA);
      else
        tap_ok (false, "seed %s", name);
    }
  for (size_t i = 0; i < sizeof more / sizeof more[0]; i++)
    {
      snprintf (name, sizeof name, "OpenEXR %s 6x5", more[i].what);
      if (exr_file_write (path, 6, 5, more[i].channels, more[i].n,
                          more[i].type, more[i].compression, smooth_value)
          && add_seed (path, name, FORMAT_EXR))
        exr_fields (&seeds[n_seeds - 1], false);
      else
        tap_ok (false, "seed %s", name);
    }
}
#endif

/* A PNG through libpng itself, for the layouts clfx_image_write never
 * makes: palette with tRNS, 1-bit gray, interlacing. */
static bool
write_png_raw (const char *path, int w, int h, int bit_depth,
               int color_type, bool interlace, Rng *r)
{
  static const png_color pal[4] = { { 255, 0, 0 }, { 0, 255, 0 },
                                    { 0, 0, 255 }, { 9, 8, 7 } };
  static const png_byte  trans[2] = { 255, 100 };
  FILE                  *fp = fopen (path, "wb");
  png_structp            png;
  png_infop              info;
  unsigned char          row[256];
  bool                   ok = false;

  if (! fp)
    return false;
  png = png_create_write_struct (PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  info = png ? png_create_info_struct (png) : NULL;
  if (info && ! setjmp (png_jmpbuf (png)))
    {
      png_init_io (png, fp);
      png_set_IHDR (png, info, (png_uint_32) w, (png_uint_32) h, bit_depth,
                    color_type,
                    interlace ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
                    PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
      if (color_type == PNG_COLOR_TYPE_PALETTE)
        {
          png_set_PLTE (png, info, pal, 4);
          png_set_tRNS (png, info, trans, 2, NULL);
        }
      png_write_info (png, info);
      if (png_get_rowbytes (png, info) <= sizeof row)
        {
          int passes = png_set_interlace_handling (png);

          for (int p = 0; p < passes; p++)
            for (int y = 0; y < h; y++)
              {
                for (size_t i = 0; i < sizeof row; i++)
                  row[i] = (unsigned char) rng_next (r);
                png_write_row (png, row);
              }
          png_write_end (png, NULL);
          ok = true;
        }
    }
  png_destroy_write_struct (&png, info ? &info : NULL);
  return fclose (fp) == 0 && ok;
}

/* An image of random samples (float ones within [-4, 4]). */
static bool
random_image (ClfxImage *img, int w, int h, int channels, ClfxDepth depth,
              Rng *r)
{
  ClfxError error;

  clfx_error_clear (&error);
  if (! clfx_host_image_alloc (img, w, h, channels, depth, &error))
    return false;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      for (int c = 0; c < channels; c++)
        clfx_image_set (img, x, y, c,
                        (float) (rng_next (r) % 8193) / 1024.0f - 4.0f);
  return true;
}

static void
make_png_pfm_seeds (Rng *r)
{
  static const struct
  {
    int         w, h, channels, file_channels;
    ClfxDepth   depth;
    const char *ext, *what;
  } written[] = {
    { 13, 9, 1, 1, CLFX_DEPTH_U8, "png", "PNG 8-bit gray 13x9" },
    { 11, 7, 4, 4, CLFX_DEPTH_U8, "png", "PNG 8-bit RGBA 11x7" },
    { 9, 5, 2, 2, CLFX_DEPTH_U16, "png", "PNG 16-bit gray+alpha 9x5" },
    { 6, 6, 4, 3, CLFX_DEPTH_U16, "png", "PNG 16-bit RGB 6x6" },
    { 7, 5, 4, 3, CLFX_DEPTH_FLOAT, "pfm", "PFM RGB 7x5" },
    { 6, 4, 1, 1, CLFX_DEPTH_FLOAT, "pfm", "PFM gray 6x4" },
  };
  static const struct
  {
    int         w, h, bit_depth, color_type;
    bool        interlace;
    const char *what;
  } raw[] = {
    { 10, 6, 2, PNG_COLOR_TYPE_PALETTE, false, "PNG 2-bit palette, tRNS" },
    { 17, 3, 1, PNG_COLOR_TYPE_GRAY, false, "PNG 1-bit gray 17x3" },
    { 9, 9, 8, PNG_COLOR_TYPE_RGB, true, "PNG 8-bit RGB interlaced 9x9" },
  };
  /* Big-endian (positive scale), which clfx_image_write never makes. */
  static const unsigned char be_pfm[] = {
    'P', 'f', '\n', '2', ' ', '2', '\n', '1', '.', '0', '\n',
    0x3f, 0x80, 0, 0, 0x40, 0, 0, 0, 0xc0, 0x40, 0, 0, 0x7f, 0xc0, 0, 0 };
  char path[4200];

  for (size_t i = 0; i < sizeof written / sizeof written[0]; i++)
    {
      ClfxImage img;
      ClfxError error;
      bool      ok;

      clfx_error_clear (&error);
      snprintf (path, sizeof path, "%s/seed.%s", tmpdir, written[i].ext);
      ok = random_image (&img, written[i].w, written[i].h,
                         written[i].channels, written[i].depth, r);
      ok = ok && clfx_image_write (path, &img, written[i].file_channels,
                                   &error);
      if (img.data)
        clfx_host_image_free (&img);
      if (ok && add_seed (path, written[i].what,
                          strcmp (written[i].ext, "png") ? FORMAT_PFM
                                                         : FORMAT_PNG))
        {
          if (seeds[n_seeds - 1].format == FORMAT_PNG)
            png_fields (&seeds[n_seeds - 1]);
        }
      else
        tap_ok (false, "seed %s: %s", written[i].what, error.message);
    }
  tmp_path (path, sizeof path, "seed.png");
  for (size_t i = 0; i < sizeof raw / sizeof raw[0]; i++)
    if (write_png_raw (path, raw[i].w, raw[i].h, raw[i].bit_depth,
                       raw[i].color_type, raw[i].interlace, r)
        && add_seed (path, raw[i].what, FORMAT_PNG))
      png_fields (&seeds[n_seeds - 1]);
    else
      tap_ok (false, "seed %s", raw[i].what);
  tmp_path (path, sizeof path, "seed.pfm");
  if (! write_bytes (path, be_pfm, sizeof be_pfm)
      || ! add_seed (path, "PFM big-endian gray 2x2", FORMAT_PFM))
    tap_ok (false, "seed PFM big-endian");
}

/* Every seed must read as it is: the damage is what fails. */
static void
check_seeds (void)
{
  char path[4200];
  int  sound = 0;

  for (int i = 0; i < n_seeds; i++)
    {
      ClfxImage img;
      ClfxError error;

      clfx_error_clear (&error);
      snprintf (path, sizeof path, "%s/check.%s", tmpdir,
                extension (seeds[i].format));
      if (write_bytes (path, seeds[i].data, seeds[i].size)
          && clfx_image_read (path, &img, NULL, &error))
        {
          clfx_host_image_free (&img);
          sound++;
        }
      else
        tap_diag ("seed %s does not read: %s", seeds[i].name, error.message);
    }
  tap_ok (n_seeds > 0 && sound == n_seeds, "%d seeds, every one read as "
          "made", n_seeds);
}

/* ------------------------------------------------------------------ */
/* mutations */

typedef struct
{
  unsigned char *data;
  size_t         size, room;
  char           log[256];
  size_t         log_len;
} Mutant;

static void
note (Mutant *m, const char *fmt, ...) __attribute__ ((format (printf, 2, 3)));

static void
note (Mutant *m, const char *fmt, ...)
{
  va_list ap;

  if (m->log_len >= sizeof m->log - 1)
    return;
  va_start (ap, fmt);
  m->log_len += (size_t) vsnprintf (m->log + m->log_len,
                                    sizeof m->log - m->log_len, fmt, ap);
  va_end (ap);
  if (m->log_len > sizeof m->log - 1)
    m->log_len = sizeof m->log - 1;
  /* One TAP comment line per case. */
  for (char *c = m->log; *c; c++)
    if (*c == '\n')
      *c = ' ';
}

/* An extreme or nearby value for an integer of width bytes that holds
 * current, in a file of size bytes. */
static uint64_t
extreme (Rng *r, int width, uint64_t current, size_t size)
{
  static const uint64_t wide[] = {
    0, 1, 2, 3, 7, 8, 16, 255, 256, 16384, 16385, 65535, 65536, 65537,
    1u << 28, 0x7ffffffe, 0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe,
    0xffffffff, 1ull << 32, 1ull << 62, 1ull << 63, ~0ull };
  static const uint64_t narrow[] = { 0, 1, 2, 3, 4, 9, 10, 0x7f, 0x80, 0xfe,
                                     0xff };

  switch (rng_below (r, 4))
    {
    case 0:
      return current + 1 + rng_below (r, 3);
    case 1:
      return current - 1 - rng_below (r, 3);
    case 2:
      return width == 1 ? rng_next (r) : current + size - rng_below (r, 16);
    default:
      return width == 1
               ? narrow[rng_below (r, sizeof narrow / sizeof narrow[0])]
               : wide[rng_below (r, sizeof wide / sizeof wide[0])];
    }
}

static void
set_field (Mutant *m, const Field *f, Rng *r)
{
  uint64_t cur = 0, v;

  if (f->at + (size_t) f->width > m->size)
    return;
  for (int k = 0; k < f->width; k++)
    cur = cur << 8
          | m->data[f->at + (size_t) (f->big_endian ? k : f->width - 1 - k)];
  v = extreme (r, f->width, cur, m->size);
  for (int k = 0; k < f->width; k++)
    m->data[f->at + (size_t) (f->big_endian ? f->width - 1 - k : k)]
      = (unsigned char) (v >> (8 * k));
  note (m, " field@%zu=%llu", f->at, (unsigned long long) v);
}

/* A PFM header token (width, height or scale) replaced by text that
 * parsers get wrong. */
static void
pfm_token (Mutant *m, Rng *r)
{
  static const char *const texts[] = {
    "0", "1", "-1", "65536", "65537", "16384", "2147483648", "4294967297",
    "99999999999999999999", "1e9", "0x10", "nan", "inf", "-0.0", "+1",
    "1.0", "", " ", "3 3", "1\n1", "-1.0e-45", "1e309" };
  const char *text = texts[rng_below (r, sizeof texts / sizeof texts[0])];
  size_t      starts[3], ends[3], n = 0, at = 2, len = strlen (text);
  int         which;

  /* The three tokens after the magic, each ended by whitespace. */
  while (n < 3 && at < m->size)
    {
      while (at < m->size && (m->data[at] == ' ' || m->data[at] == '\n'))
        at++;
      starts[n] = at;
      while (at < m->size && m->data[at] != ' ' && m->data[at] != '\n')
        at++;
      ends[n++] = at;
    }
  if (n < 3)
    return;
  which = (int) rng_below (r, 3);
  if (m->size - (ends[which] - starts[which]) + len > m->room)
    return;
  memmove (m->data + starts[which] + len, m->data + ends[which],
           m->size - ends[which]);
  memcpy (m->data + starts[which], text, len);
  m->size = m->size - (ends[which] - starts[which]) + len;
  note (m, " token%d='%s'", which, text);
}

/* The CRC-32 of PNG chunks (zlib's), table-driven. */
static uint32_t
png_crc (const unsigned char *p, size_t n)
{
  static uint32_t table[256];
  uint32_t        crc = 0xffffffffu;

  if (! table[1])
    for (uint32_t i = 0; i < 256; i++)
      {
        uint32_t c = i;

        for (int k = 0; k < 8; k++)
          c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
        table[i] = c;
      }
  while (n--)
    crc = table[(crc ^ *p++) & 0xffu] ^ (crc >> 8);
  return crc ^ 0xffffffffu;
}

/* Mends every PNG chunk's CRC whose length fits in the file. */
static void
png_mend_crcs (Mutant *m)
{
  size_t at = 8;

  while (at + 12 <= m->size)
    {
      uint32_t n = be32 (m->data + at);
      uint32_t crc;

      if (n > m->size - at - 12)
        break;
      crc = png_crc (m->data + at + 4, n + 4);
      m->data[at + 8 + n] = (unsigned char) (crc >> 24);
      m->data[at + 9 + n] = (unsigned char) (crc >> 16);
      m->data[at + 10 + n] = (unsigned char) (crc >> 8);
      m->data[at + 11 + n] = (unsigned char) crc;
      at += 12 + n;
    }
  note (m, " crcs-mended");
}

static void
mutate_once (Mutant *m, const Seed *s, Rng *r)
{
  size_t at = m->size ? rng_below (r, m->size) : 0;
  size_t n = 1 + rng_below (r, 16);

  switch (rng_below (r, s->format == FORMAT_PFM ? 7 : 6))
    {
    case 0:
      if (m->size)
        m->data[at] ^= (unsigned char) (1u << rng_below (r, 8));
      note (m, " flip@%zu", at);
      break;
    case 1:
      if (m->size)
        m->data[at] = (unsigned char) rng_next (r);
      note (m, " byte@%zu", at);
      break;
    case 2:
      m->size = at;
      note (m, " cut@%zu", at);
      break;
    case 3:
      if (m->size + n <= m->room)
        {
          memmove (m->data + at + n, m->data + at, m->size - at);
          for (size_t i = 0; i < n; i++)
            m->data[at + i] = (unsigned char) rng_next (r);
          m->size += n;
          note (m, " insert%zu@%zu", n, at);
        }
      break;
    case 4:
      n = at + n > m->size ? m->size - at : n;
      memmove (m->data + at, m->data + at + n, m->size - at - n);
      m->size -= n;
      note (m, " remove%zu@%zu", n, at);
      break;
    case 5:
      if (s->n_fields)
        set_field (m, &s->fields[rng_below (r, (size_t) s->n_fields)], r);
      else
        m->data[at] ^= 0xff;
      break;
    default:
      pfm_token (m, r);
      break;
    }
}

/* The case's file: the seed with one to three mutations. */
static void
make_mutant (Mutant *m, const Seed *s, Rng *r)
{
  int count = 1 + (int) rng_below (r, 3);

  memcpy (m->data, s->data, s->size);
  m->size = s->size;
  m->log_len = 0;
  m->log[0] = '\0';
  for (int i = 0; i < count; i++)
    mutate_once (m, s, r);
  if (s->format == FORMAT_PNG && rng_below (r, 4))
    png_mend_crcs (m);
}

/* ------------------------------------------------------------------ */
/* the run */

static double
now (void)
{
  struct timespec t;

  clock_gettime (CLOCK_MONOTONIC, &t);
  return (double) t.tv_sec + 1e-9 * (double) t.tv_nsec;
}

/* What is wrong with an image a read returned, or NULL. */
static const char *
insane (const ClfxImage *img, int file_channels)
{
  if (! img->data || img->width < 1 || img->height < 1)
    return "no pixels";
  if (img->width > CLFX_IMAGEIO_MAX_SIDE || img->height > CLFX_IMAGEIO_MAX_SIDE
      || (long long) img->width * img->height > CLFX_IMAGEIO_MAX_PIXELS)
    return "larger than the limits";
  if (img->channels != 1 && img->channels != 2 && img->channels != 4)
    return "a channel count the engine has no layout for";
  if (img->stride != (size_t) img->width * clfx_image_pixel_size (img))
    return "not tight rows";
  if (file_channels < 1 || file_channels > 4)
    return "file channels outside 1-4";
  return NULL;
}

/* Runs one case; returns what went wrong, or NULL. */
static const char *
run_case (Seed *s, const Mutant *m, const char *path, double *seconds,
          char *why, size_t why_size)
{
  ClfxImage   img;
  ClfxError   error;
  int         fc = 0;
  bool        read;
  const char *bad = NULL;
  double      t;

  long        refused = refused_requests;

  if (! write_bytes (path, m->data, m->size))
    return "cannot write the case's file";
  clfx_error_clear (&error);
  t = now ();
  read = clfx_image_read (path, &img, &fc, &error);
  *seconds = now () - t;
  if (refused_requests > refused)
    bad = "an allocation past the cap";
  if (read)
    {
      s->read++;
      bad = bad ? bad : insane (&img, fc);
      clfx_host_image_free (&img);
    }
  else
    {
      s->refused++;
      if (bad)
        ;
      else if (img.data)
        bad = "a failed read left pixels behind";
      else if (error.code == CLFX_ERR_NOMEM)
        bad = "out of memory";
      else if (! error.message[0] || ! strstr (error.message, path))
        bad = "the message does not name the file";
    }
  if (! bad && *seconds > CASE_MAX_SECONDS)
    bad = "too slow";
  snprintf (why, why_size, "%s", error.message);
  return bad;
}

static void
limit_memory (void)
{
#ifdef UNDER_ASAN
  tap_diag ("AddressSanitizer: an allocation above %d MiB is a report",
            ALLOCATION_CAP_MIB);
#else
  struct rlimit lim = { (rlim_t) ADDRESS_SPACE_MIB << 20,
                        (rlim_t) ADDRESS_SPACE_MIB << 20 };

  tap_ok (setrlimit (RLIMIT_AS, &lim) == 0, "address space limited to %d "
          "MiB", ADDRESS_SPACE_MIB);
#ifdef COUNTS_ALLOCATIONS
  tap_diag ("allocations above %d MiB refused and counted",
            ALLOCATION_CAP_MIB);
#endif
#endif
}

static uint64_t
env_number (const char *name, uint64_t fallback)
{
  const char *v = getenv (name);
  char       *end;
  uint64_t    n;

  if (! v || ! *v)
    return fallback;
  n = strtoull (v, &end, 0);
  return *end ? fallback : n;
}

static void
fuzz (long cases, uint64_t seed)
{
  Mutant m;
  char   path[4200], why[1100];
  double slowest = 0.0, t0 = now ();
  long   slowest_case = -1;
  size_t biggest = 0;

  for (int i = 0; i < n_seeds; i++)
    biggest = seeds[i].size > biggest ? seeds[i].size : biggest;
  m.room = biggest + GROWTH;
  if (! (m.data = malloc (m.room)))
    {
      tap_ok (false, "memory for the cases");
      return;
    }
  for (long c = 0; c < cases; c++)
    {
      Seed       *s = &seeds[c % n_seeds];
      Rng         r = { seed ^ ((uint64_t) c * 0xd1b54a32d192ed03ull) };
      double      secs = 0.0;
      const char *bad;

      make_mutant (&m, s, &r);
      snprintf (path, sizeof path, "%s/case.%s", tmpdir,
                extension (s->format));
      s->cases++;
      bad = run_case (s, &m, path, &secs, why, sizeof why);
      if (secs > slowest)
        {
          slowest = secs;
          slowest_case = c;
        }
      if (! bad)
        continue;
      if (s->failed++ < MAX_REPORTED)
        {
          char kept[4200];

          snprintf (kept, sizeof kept, "%s/failed-%ld.%s", tmpdir, c,
                    extension (s->format));
          write_bytes (kept, m.data, m.size);
          tap_diag ("case %ld (%s,%s): %s; kept as %s; message: %s", c,
                    s->name, m.log, bad, kept, why);
        }
    }
  free (m.data);
  for (int i = 0; i < n_seeds; i++)
    tap_ok (seeds[i].failed == 0, "%s: %ld mutants, %ld read, %ld refused "
            "with a message, %ld failed", seeds[i].name, seeds[i].cases,
            seeds[i].read, seeds[i].refused, seeds[i].failed);
  tap_diag ("%ld cases in %.1f s; the slowest, case %ld, %.3f s", cases,
            now () - t0, slowest_case, slowest);
#ifdef COUNTS_ALLOCATIONS
  tap_diag ("the largest allocation asked for: %zu KiB",
            largest_request >> 10);
#endif
}

int
main (void)
{
  long        cases = (long) env_number ("CLFX_FUZZ_CASES", DEFAULT_CASES);
  uint64_t    seed = env_number ("CLFX_FUZZ_SEED", DEFAULT_SEED);
  Rng         r = { seed };
  struct rusage u;

  if (! test_tmpdir_make (tmpdir, sizeof tmpdir, "test-fuzz-readers"))
    return 1;
  tap_diag ("seed 0x%llx, %ld cases, files in %s", (unsigned long long) seed,
            cases, tmpdir);
  make_png_pfm_seeds (&r);
#ifdef CLFX_HAVE_OPENEXR
  make_exr_seeds ();
#else
  tap_diag ("OpenEXR: not in this build: not fuzzed");
#endif
  check_seeds ();
  limit_memory ();
  largest_request = 0;
  if (n_seeds > 0)
    fuzz (cases, seed);
  getrusage (RUSAGE_SELF, &u);
  tap_diag ("peak resident memory %ld MiB", u.ru_maxrss / 1024);
  for (int i = 0; i < n_seeds; i++)
    free (seeds[i].data);
  if (tap_failed == 0)
    test_tmpdir_remove (tmpdir);
  return tap_done ();
}
