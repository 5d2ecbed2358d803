/* test-tuning.c: how the tuning variables are read.  A value that is not
 * exactly what the variable takes (digits only, in range) keeps the
 * default and is named in the warning; before, CLFX_TILE went through
 * sscanf's %d, so 99999999999x1 wrapped to 1215752191x1, and " 7x5" or
 * "+7x5" were taken.  Needs no device.  TAP output. */
#define _POSIX_C_SOURCE 200809L

#include "clfx-tuning.h"
#include "../tap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static ClfxTuning
read_with (const char *name, const char *value, char *warning, size_t n)
{
  ClfxTuning t;

  setenv (name, value, 1);
  clfx_tuning_read (&t, warning, n);
  unsetenv (name);
  return t;
}

/* The tuning field a variable sets (0: the default). */
typedef long long (*Field) (const ClfxTuning *t);

static long long
tile (const ClfxTuning *t)
{
  return (long long) t->tile_width + t->tile_height;
}

static long long
budget (const ClfxTuning *t)
{
  return (long long) t->budget;
}

static long long
rows (const ClfxTuning *t)
{
  return t->rows_per_item;
}

static long long
strip_rows (const ClfxTuning *t)
{
  return t->strip_rows;
}

static long long
peer_pinned (const ClfxTuning *t)
{
  return t->peer_pinned;
}

/* Each value must keep the default and be named in the warning (an
 * empty value is unset: no warning). */
static void
rejected (const char *name, const char *const *values, size_t n, Field get)
{
  char       w[512];
  ClfxTuning t;

  for (size_t i = 0; i < n; i++)
    {
      t = read_with (name, values[i], w, sizeof w);
      tap_ok (get (&t) == 0
                && (! values[i][0] ? ! w[0] : strstr (w, name) != NULL),
              "%s='%s' keeps the default and says so (%lld, '%s')", name,
              values[i], get (&t), w);
    }
}

int
main (void)
{
  static const char *const bad_tiles[] = {
    "99999999999x1", "1x99999999999", "4294967297x8", " 7x5", "+7x5",
    "7x5 ", "7x-5", "7X5", "7x", "x5", "0x5", "7x0", "1048577x4", "7x5x3",
    "0x10x10", "7.0x5", "",
  };
  static const char *const bad_sizes[] = {
    "-1", "+5", " 5", "5 ", "5k", "99999999999999999999999", "0x10", "",
  };
  static const char *const bad_rows[] = { "0", "17", "3abc", " 3", "+3",
                                          "99999999999999999999", "" };
  char       w[512];
  ClfxTuning t;

  t = read_with ("CLFX_TILE", "7x5", w, sizeof w);
  tap_ok (t.tile_width == 7 && t.tile_height == 5 && ! w[0],
          "CLFX_TILE=7x5 is 7 x 5 (%dx%d, warning '%s')", t.tile_width,
          t.tile_height, w);
  t = read_with ("CLFX_TILE", "1048576x1", w, sizeof w);
  tap_ok (t.tile_width == 1048576 && t.tile_height == 1 && ! w[0],
          "CLFX_TILE=1048576x1, the largest side, is taken (%dx%d)",
          t.tile_width, t.tile_height);
  rejected ("CLFX_TILE", bad_tiles, sizeof bad_tiles / sizeof *bad_tiles,
            tile);
  t = read_with ("CLFX_BAND_BYTES", "300", w, sizeof w);
  tap_ok (t.band_bytes == 300 && ! w[0], "CLFX_BAND_BYTES=300 is 300");
  rejected ("CLFX_DEVICE_BUDGET", bad_sizes,
            sizeof bad_sizes / sizeof *bad_sizes, budget);
  t = read_with ("CLFX_ROWS_PER_ITEM", "16", w, sizeof w);
  tap_ok (t.rows_per_item == 16 && ! w[0], "CLFX_ROWS_PER_ITEM=16 is 16");
  rejected ("CLFX_ROWS_PER_ITEM", bad_rows, sizeof bad_rows / sizeof *bad_rows,
            rows);
  t = read_with ("CLFX_RESIZE_STRIP_ROWS", "256", w, sizeof w);
  tap_ok (t.strip_rows == 256 && ! w[0], "CLFX_RESIZE_STRIP_ROWS=256 is 256");
  {
    static const char *const bad_strip_rows[] = { "0", "257", "8 ", "-8",
                                                  "8x" };
    rejected ("CLFX_RESIZE_STRIP_ROWS", bad_strip_rows,
              sizeof bad_strip_rows / sizeof *bad_strip_rows, strip_rows);
  }
  t = read_with ("CLFX_RESIZE_STRIP", "off", w, sizeof w);
  tap_ok (t.strip == CLFX_STRIP_OFF && ! w[0], "CLFX_RESIZE_STRIP=off");
  t = read_with ("CLFX_RESIZE_STRIP", "all", w, sizeof w);
  tap_ok (t.strip == CLFX_STRIP_ALL && ! w[0], "CLFX_RESIZE_STRIP=all");
  t = read_with ("CLFX_RESIZE_STRIP", "sweep", w, sizeof w);
  tap_ok (t.strip == CLFX_STRIP_SWEEP && ! w[0], "CLFX_RESIZE_STRIP=sweep");
  t = read_with ("CLFX_RESIZE_STRIP", "on", w, sizeof w);
  tap_ok (t.strip == CLFX_STRIP_AUTO && CLFX_STRIP_AUTO == 0
            && strstr (w, "CLFX_RESIZE_STRIP"),
          "CLFX_RESIZE_STRIP=on keeps auto and says so ('%s')", w);
  t = read_with ("CLFX_PEER_PINNED", "direct", w, sizeof w);
  tap_ok (t.peer_pinned == CLFX_PEER_DIRECT && ! w[0],
          "CLFX_PEER_PINNED=direct is taken");
  t = read_with ("CLFX_PEER_PINNED", "context", w, sizeof w);
  tap_ok (t.peer_pinned == CLFX_PEER_CONTEXT && ! w[0],
          "CLFX_PEER_PINNED=context is taken");
  t = read_with ("CLFX_PEER_PINNED", "stage", w, sizeof w);
  tap_ok (t.peer_pinned == CLFX_PEER_STAGE && CLFX_PEER_STAGE == 0 && ! w[0],
          "CLFX_PEER_PINNED=stage is the default");
  {
    static const char *const bad_peer[] = { "Direct", "direct ", "1", "" };
    rejected ("CLFX_PEER_PINNED", bad_peer, sizeof bad_peer / sizeof *bad_peer,
              peer_pinned);
  }
  t = read_with ("CLFX_CL_OPTIONS", "-cl-nv-verbose", w, sizeof w);
  tap_ok (! strcmp (t.cl_options, "-cl-nv-verbose") && ! w[0],
          "CLFX_CL_OPTIONS=-cl-nv-verbose is taken ('%s')", t.cl_options);
  {
    /* Too long to keep whole, or a control character: refused, not cut
     * (a cut option could name another one). */
    char long_opt[200];
    memset (long_opt, 'x', sizeof long_opt - 1);
    long_opt[0] = '-';
    long_opt[sizeof long_opt - 1] = '\0';
    t = read_with ("CLFX_CL_OPTIONS", long_opt, w, sizeof w);
    tap_ok (! t.cl_options[0] && strstr (w, "CLFX_CL_OPTIONS"),
            "a 199-character CLFX_CL_OPTIONS is refused and named");
    t = read_with ("CLFX_CL_OPTIONS", "-DX=1\n-DY", w, sizeof w);
    tap_ok (! t.cl_options[0] && strstr (w, "CLFX_CL_OPTIONS"),
            "CLFX_CL_OPTIONS with a newline is refused and named");
  }
  {
    long long   a = 0, b = 0;
    const char *end = clfx_parse_wxh ("99999999999999999999x3:u8", 65536,
                                      &a, &b);
    tap_ok (end && ! strcmp (end, ":u8") && a == 65537 && b == 3,
            "clfx_parse_wxh saturates at the bound + 1 rather than wrap "
            "(%lld x %lld, then '%s')", a, b, end ? end : "(null)");
  }
  {
    /* Near LLONG_MAX: no product may overflow (UBSan checks it). */
    long long   v = 0, top = 0x7ffffffffffffffeLL;
    const char *end = clfx_parse_digits ("99999999999999999999999", top, &v);
    tap_ok (end && ! *end && v == top + 1,
            "digits past a bound near LLONG_MAX saturate (%lld)", v);
    end = clfx_parse_digits ("4611686018427387904", 1LL << 62, &v);
    tap_ok (end && v == 1LL << 62, "2^62 at the bound 2^62 is itself");
  }
  return tap_done ();
}
