/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-tuning.c: every CLFX_ variable the engine reads is read here: the
 * user's (CLFX_CACHE_DIR, CLFX_DEVICE_BUDGET, CLFX_THREADS), the
 * developer's (CLFX_KERNEL_DIR, CLFX_CL_OPTIONS) and CLFX_DEV, the one
 * variable of switches that force a kernel form or steer a test
 * ("name=value,name=value").  Context settings are read when a context is
 * made, never in a hot path. */
#define _POSIX_C_SOURCE 200809L
#include "clfx-tuning.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void
warn (char *w, size_t n, const char *name, const char *value)
{
  size_t len = strlen (w);

  if (n > len)
    snprintf (w + len, n - len, "%s%s='%s' not understood, default kept",
              len ? "; " : "", name, value);
}

/* The same for CLFX_DEV's switch `name`. */
static void
warn_dev (char *w, size_t n, const char *name, const char *value)
{
  char label[48];

  snprintf (label, sizeof label, "CLFX_DEV %s", name);
  warn (w, n, label, value);
}

const char *
clfx_parse_digits (const char *s, long long max, long long *v)
{
  long long n = 0;

  if (*s < '0' || *s > '9')
    return NULL;
  /* Past max the value stays max + 1: n * 10 + d is formed only where
   * it cannot exceed max, so nothing overflows for any max below
   * LLONG_MAX. */
  for (; *s >= '0' && *s <= '9'; s++)
    if (n <= max)
      n = n > (max - (*s - '0')) / 10 ? max + 1 : n * 10 + (*s - '0');
  *v = n;
  return s;
}

const char *
clfx_parse_wxh (const char *s, long long max, long long *w, long long *h)
{
  s = clfx_parse_digits (s, max, w);
  return s && *s == 'x' ? clfx_parse_digits (s + 1, max, h) : NULL;
}

/* Bytes: digits only, up to 2^62. */
static bool
parse_size (const char *s, size_t *out)
{
  const long long max = 1LL << 62;
  long long       v;
  const char     *end = clfx_parse_digits (s, max, &v);

  if (! end || *end || v > max || (unsigned long long) v > SIZE_MAX)
    return false;
  *out = (size_t) v;
  return true;
}

/* ---- CLFX_DEV: the developer's switches ----------------------------------- */

/* Every switch CLFX_DEV takes (docs/DEVELOPING.md says what each does). */
static const char *const dev_switches[] = {
  "zero-copy", "host-scratch", "source", "sampler", "tile", "band-bytes",
  "resize-two-pass", "resize-strip", "resize-strip-rows", "peer-pinned",
  "fault", "preview-dump", NULL
};

/* Variables that were switches of their own: what to write now. */
static const struct
{
  const char *name, *instead;
} retired[] = {
  { "CLFX_ZERO_COPY", "CLFX_DEV=zero-copy=off" },
  { "CLFX_HOST_SCRATCH", "CLFX_DEV=host-scratch=off" },
  { "CLFX_SOURCE", "CLFX_DEV=source=..." },
  { "CLFX_SAMPLER", "CLFX_DEV=sampler=..." },
  { "CLFX_TILE", "CLFX_DEV=tile=WxH" },
  { "CLFX_BAND_BYTES", "CLFX_DEV=band-bytes=N" },
  { "CLFX_RESIZE_TWO_PASS", "CLFX_DEV=resize-two-pass=1" },
  { "CLFX_RESIZE_STRIP", "CLFX_DEV=resize-strip=..." },
  { "CLFX_RESIZE_STRIP_ROWS", "CLFX_DEV=resize-strip-rows=N" },
  { "CLFX_PEER_PINNED", "CLFX_DEV=peer-pinned=..." },
  { "CLFX_FAULT", "CLFX_DEV=fault=CALL=STATUS[@N]" },
  { "CLFX_PREVIEW_DUMP", "CLFX_DEV=preview-dump=DIR" },
  /* Measured and decided: no switch any more. */
  { "CLFX_ROWS_PER_ITEM", "nothing: 4 rows a work-item for pixels under "
                          "16 bytes, else 1" },
  { "CLFX_RESIZE_FIXED_TAPS", "nothing: tap counts are built in on GPUs" },
};

const char *
clfx_dev_switch (const char *name, char *buf, size_t n)
{
  const char *dev = getenv ("CLFX_DEV");
  size_t      len = strlen (name);

  for (const char *at = dev; at && *at;)
    {
      const char *end = strchr (at, ',');
      size_t      item = end ? (size_t) (end - at) : strlen (at);

      if (item > len && ! strncmp (at, name, len) && at[len] == '=')
        {
          size_t v = item - len - 1;
          if (v >= n)
            v = n ? n - 1 : 0;
          if (n)
            {
              memcpy (buf, at + len + 1, v);
              buf[v] = '\0';
            }
          return buf;
        }
      at = end ? end + 1 : NULL;
    }
  return NULL;
}

/* Each item of CLFX_DEV names a switch this build knows; the others are
 * said (a misspelt switch must not pass for the default). */
static void
check_dev_items (char *w, size_t n)
{
  const char *dev = getenv ("CLFX_DEV");

  for (const char *at = dev; at && *at;)
    {
      const char *end = strchr (at, ',');
      const char *eq = strchr (at, '=');
      size_t      item = end ? (size_t) (end - at) : strlen (at);
      bool        known = false;

      for (int i = 0; item && dev_switches[i]; i++)
        known |= eq && eq < at + item
                 && (size_t) (eq - at) == strlen (dev_switches[i])
                 && ! strncmp (at, dev_switches[i], (size_t) (eq - at));
      if (! known && item)
        {
          char one[64];
          snprintf (one, sizeof one, "%.*s", (int) (item < 60 ? item : 60),
                    at);
          warn (w, n, "CLFX_DEV's item", one);
        }
      at = end ? end + 1 : NULL;
    }
  for (size_t i = 0; i < sizeof retired / sizeof retired[0]; i++)
    if (getenv (retired[i].name))
      {
        size_t len = strlen (w);
        if (n > len)
          snprintf (w + len, n - len, "%s%s is no longer read (instead: %s)",
                    len ? "; " : "", retired[i].name, retired[i].instead);
      }
}

/* Switch `name`'s value into buf; NULL when it is not given (an empty
 * value counts as not given). */
static const char *
dev_value (const char *name, char *buf, size_t n)
{
  const char *v = clfx_dev_switch (name, buf, n);
  return v && *v ? v : NULL;
}

/* The index of switch name's value among names (the enum's order, "auto"
 * first); 0 when it is not given or not understood (and said). */
static int
parse_choice (const char *name, const char *const *names, char *w, size_t n)
{
  char        buf[64];
  const char *v = dev_value (name, buf, sizeof buf);

  if (! v)
    return 0;
  for (int i = 0; names[i]; i++)
    if (! strcmp (v, names[i]))
      return i;
  warn_dev (w, n, name, v);
  return 0;
}

/* A whole number from lo to hi in switch `name` into *out; another value
 * keeps the default and is said. */
static void
parse_count (const char *name, int lo, int hi, int *out, char *w, size_t n)
{
  char        buf[64];
  const char *v = dev_value (name, buf, sizeof buf);
  long long   x = 0;
  const char *end;

  if (! v)
    return;
  end = clfx_parse_digits (v, hi, &x);
  if (end && ! *end && x >= lo && x <= hi)
    *out = (int) x;
  else
    warn_dev (w, n, name, v);
}

/* on|off switch `name`: true for off. */
static bool
parse_off (const char *name, char *w, size_t n)
{
  return parse_choice (name, (const char *[]) { "on", "off", NULL }, w, n)
         == 1;
}

void
clfx_tuning_read (ClfxTuning *t, char *warning, size_t warning_len)
{
  char        buf[200];
  const char *v;

  memset (t, 0, sizeof *t);
  if (warning_len)
    warning[0] = '\0';
  check_dev_items (warning, warning_len);
  t->zero_copy_off = parse_off ("zero-copy", warning, warning_len);
  t->scratch_off = parse_off ("host-scratch", warning, warning_len);
  t->two_pass = parse_choice ("resize-two-pass",
                              (const char *[]) { "0", "1", NULL }, warning,
                              warning_len)
                == 1;
  t->strip = (ClfxStripPolicy) parse_choice (
    "resize-strip",
    (const char *[]) { "auto", "off", "all", "sweep", NULL },
    warning, warning_len);
  parse_count ("resize-strip-rows", 1, 256, &t->strip_rows, warning,
               warning_len);
  t->sampler = (ClfxSamplerPolicy) parse_choice (
    "sampler", (const char *[]) { "auto", "hardware", "kernel", NULL },
    warning, warning_len);
  t->source = (ClfxSourceForm) parse_choice (
    "source", (const char *[]) { "auto", "image", "buffer", NULL },
    warning, warning_len);
  t->peer_pinned = (ClfxPeerPinned) parse_choice (
    "peer-pinned",
    (const char *[]) { "stage", "direct", "context", NULL }, warning,
    warning_len);
  if ((v = dev_value ("tile", buf, sizeof buf)))
    {
      /* A tile side up to 2^20 pixels (no image is larger). */
      long long   w = 0, h = 0;
      const char *end = clfx_parse_wxh (v, 1 << 20, &w, &h);
      if (end && ! *end && w >= 1 && h >= 1 && w <= (1 << 20)
          && h <= (1 << 20))
        {
          t->tile_width = (int) w;
          t->tile_height = (int) h;
        }
      else
        warn_dev (warning, warning_len, "tile", v);
    }
  if ((v = dev_value ("band-bytes", buf, sizeof buf))
      && ! parse_size (v, &t->band_bytes))
    warn_dev (warning, warning_len, "band-bytes", v);
  if ((v = getenv ("CLFX_DEVICE_BUDGET")) && *v
      && ! parse_size (v, &t->budget))
    warn (warning, warning_len, "CLFX_DEVICE_BUDGET", v);
  if ((v = getenv ("CLFX_CL_OPTIONS")) && *v)
    {
      /* Printable text that fits: a cut option could mean another one. */
      bool ok = strlen (v) < sizeof t->cl_options;
      for (const char *c = v; ok && *c; c++)
        ok = *c >= 0x20 && *c < 0x7f;
      if (ok)
        snprintf (t->cl_options, sizeof t->cl_options, "%s", v);
      else
        warn (warning, warning_len, "CLFX_CL_OPTIONS", v);
    }
}

/* ---- the user's and the developer's folders, and threads --------------- */

const char *
clfx_config_cache_dir (void)
{
  const char *v = getenv ("CLFX_CACHE_DIR");
  return v && *v ? v : NULL;
}

const char *
clfx_config_kernel_dir (void)
{
  const char *v = getenv ("CLFX_KERNEL_DIR");
  return v && *v ? v : NULL;
}

int
clfx_config_threads (void)
{
  const char *v = getenv ("CLFX_THREADS");
  long long   n = 0;
  const char *end = v ? clfx_parse_digits (v, 1 << 20, &n) : NULL;
  long        cpus = sysconf (_SC_NPROCESSORS_ONLN);

  /* Not a whole number of at least 1: the default, not a single thread. */
  if (end && ! *end && n >= 1)
    return n > INT_MAX ? INT_MAX : (int) n;
  return cpus >= 1 ? (int) (cpus > INT_MAX ? INT_MAX : cpus) : 1;
}
