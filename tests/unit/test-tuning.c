/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-tuning.c: how the configuration variables are read: CLFX_DEV's
 * switches, CLFX_DEVICE_BUDGET, CLFX_CL_OPTIONS, CLFX_THREADS.  A value
 * that is not exactly what the setting takes (digits only, in range)
 * keeps the default and is named in the warning; before, the tile went
 * through sscanf's %d, so 99999999999x1 wrapped to 1215752191x1, and
 * " 7x5" or "+7x5" were taken.  Needs no device.  TAP output. */
#define _POSIX_C_SOURCE 200809L

#include "clfx-tuning.h"
#include "../tap.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The settings with variable name set to value; a lowercase name is a
 * switch of CLFX_DEV (name=value). */
static ClfxTuning
read_with (const char *name, const char *value, char *warning, size_t n)
{
  ClfxTuning t;
  char       dev[400];
  bool       sw = name[0] >= 'a' && name[0] <= 'z';

  snprintf (dev, sizeof dev, "%s=%s", name, value);
  setenv (sw ? "CLFX_DEV" : name, sw ? dev : value, 1);
  clfx_tuning_read (&t, warning, n);
  unsetenv (sw ? "CLFX_DEV" : name);
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
  char       w[512];
  ClfxTuning t;

  t = read_with ("tile", "7x5", w, sizeof w);
  tap_ok (t.tile_width == 7 && t.tile_height == 5 && ! w[0],
          "tile=7x5 is 7 x 5 (%dx%d, warning '%s')", t.tile_width,
          t.tile_height, w);
  t = read_with ("tile", "1048576x1", w, sizeof w);
  tap_ok (t.tile_width == 1048576 && t.tile_height == 1 && ! w[0],
          "tile=1048576x1, the largest side, is taken (%dx%d)",
          t.tile_width, t.tile_height);
  rejected ("tile", bad_tiles, sizeof bad_tiles / sizeof *bad_tiles, tile);
  t = read_with ("band-bytes", "300", w, sizeof w);
  tap_ok (t.band_bytes == 300 && ! w[0], "band-bytes=300 is 300");
  rejected ("CLFX_DEVICE_BUDGET", bad_sizes,
            sizeof bad_sizes / sizeof *bad_sizes, budget);
  t = read_with ("CLFX_DEVICE_BUDGET", "1073741824", w, sizeof w);
  tap_ok (t.budget == 1073741824 && ! w[0],
          "CLFX_DEVICE_BUDGET=1073741824 is 1 GiB");
  t = read_with ("resize-strip-rows", "256", w, sizeof w);
  tap_ok (t.strip_rows == 256 && ! w[0], "resize-strip-rows=256 is 256");
  {
    static const char *const bad_strip_rows[] = { "0", "257", "8 ", "-8",
                                                  "8x" };
    rejected ("resize-strip-rows", bad_strip_rows,
              sizeof bad_strip_rows / sizeof *bad_strip_rows, strip_rows);
  }
  t = read_with ("resize-strip", "off", w, sizeof w);
  tap_ok (t.strip == CLFX_STRIP_OFF && ! w[0], "resize-strip=off");
  t = read_with ("resize-strip", "all", w, sizeof w);
  tap_ok (t.strip == CLFX_STRIP_ALL && ! w[0], "resize-strip=all");
  t = read_with ("resize-strip", "sweep", w, sizeof w);
  tap_ok (t.strip == CLFX_STRIP_SWEEP && ! w[0], "resize-strip=sweep");
  t = read_with ("resize-strip", "on", w, sizeof w);
  tap_ok (t.strip == CLFX_STRIP_AUTO && CLFX_STRIP_AUTO == 0
            && strstr (w, "resize-strip"),
          "resize-strip=on keeps auto and says so ('%s')", w);
  t = read_with ("peer-pinned", "direct", w, sizeof w);
  tap_ok (t.peer_pinned == CLFX_PEER_DIRECT && ! w[0],
          "peer-pinned=direct is taken");
  t = read_with ("peer-pinned", "context", w, sizeof w);
  tap_ok (t.peer_pinned == CLFX_PEER_CONTEXT && ! w[0],
          "peer-pinned=context is taken");
  t = read_with ("peer-pinned", "stage", w, sizeof w);
  tap_ok (t.peer_pinned == CLFX_PEER_STAGE && CLFX_PEER_STAGE == 0 && ! w[0],
          "peer-pinned=stage is the default");
  {
    static const char *const bad_peer[] = { "Direct", "direct ", "1", "" };
    rejected ("peer-pinned", bad_peer, sizeof bad_peer / sizeof *bad_peer,
              peer_pinned);
  }
  /* Several switches at once, each taken; on/off switches. */
  setenv ("CLFX_DEV", "zero-copy=off,source=image,sampler=kernel,"
          "host-scratch=off,resize-two-pass=1,tile=3x4", 1);
  clfx_tuning_read (&t, w, sizeof w);
  tap_ok (t.zero_copy_off && t.source == CLFX_SOURCE_IMAGE
            && t.sampler == CLFX_SAMPLER_KERNEL && t.scratch_off
            && t.two_pass && t.tile_width == 3 && t.tile_height == 4
            && ! w[0],
          "six switches in one CLFX_DEV are all taken ('%s')", w);
  /* A misspelt switch, or one without a value, is said, not ignored. */
  setenv ("CLFX_DEV", "zero-copy=off,sourse=image,tile", 1);
  clfx_tuning_read (&t, w, sizeof w);
  tap_ok (t.zero_copy_off && t.source == CLFX_SOURCE_AUTO
            && strstr (w, "sourse=image") && strstr (w, "'tile'"),
          "unknown CLFX_DEV items are named ('%s')", w);
  setenv ("CLFX_DEV", "zero-copy=of", 1);
  clfx_tuning_read (&t, w, sizeof w);
  tap_ok (! t.zero_copy_off && strstr (w, "zero-copy='of'"),
          "zero-copy=of keeps the default and says so ('%s')", w);
  unsetenv ("CLFX_DEV");
  {
    char        buf[8];
    const char *v;
    setenv ("CLFX_DEV", "source=image,fault=clX=CL_OUT_OF_RESOURCES@2", 1);
    v = clfx_dev_switch ("fault", buf, sizeof buf);
    tap_ok (v && ! strcmp (v, "clX=CL_"),
            "clfx_dev_switch cuts a value to its buffer ('%s')", v ? v : "");
    tap_ok (! clfx_dev_switch ("sour", buf, sizeof buf)
              && ! clfx_dev_switch ("preview-dump", buf, sizeof buf),
            "clfx_dev_switch finds whole names only");
    unsetenv ("CLFX_DEV");
  }
  /* A variable that was a switch of its own is said, with its
   * replacement; one whose measurement is decided says so too. */
  t = read_with ("CLFX_ZERO_COPY", "off", w, sizeof w);
  tap_ok (! t.zero_copy_off && strstr (w, "CLFX_ZERO_COPY")
            && strstr (w, "CLFX_DEV=zero-copy=off"),
          "CLFX_ZERO_COPY is no longer read, and the warning says what to "
          "write ('%s')", w);
  t = read_with ("CLFX_ROWS_PER_ITEM", "16", w, sizeof w);
  tap_ok (t.rows_per_item == 0 && strstr (w, "CLFX_ROWS_PER_ITEM"),
          "CLFX_ROWS_PER_ITEM is no longer read ('%s')", w);
  setenv ("CLFX_THREADS", "3", 1);
  tap_ok (clfx_config_threads () == 3, "CLFX_THREADS=3 is 3 threads");
  setenv ("CLFX_THREADS", "0", 1);
  tap_ok (clfx_config_threads () >= 1
            && clfx_config_threads () == (int) sysconf (_SC_NPROCESSORS_ONLN),
          "CLFX_THREADS=0 is the online CPUs, not one thread (%d)",
          clfx_config_threads ());
  setenv ("CLFX_THREADS", "2x", 1);
  tap_ok (clfx_config_threads () == (int) sysconf (_SC_NPROCESSORS_ONLN),
          "CLFX_THREADS=2x is the online CPUs");
  unsetenv ("CLFX_THREADS");
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
