/* clfx-tuning.c: the tuning variables, parsed once per context. */
#define _POSIX_C_SOURCE 200809L
#include "clfx-tuning.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
warn (char *w, size_t n, const char *name, const char *value)
{
  size_t len = strlen (w);

  if (n > len)
    snprintf (w + len, n - len, "%s%s='%s' not understood, default kept",
              len ? "; " : "", name, value);
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

/* The index of variable name's value among names (the enum's order,
 * "auto" first); 0 when it is unset or not understood (and said). */
static int
parse_choice (const char *name, const char *const *names, char *w, size_t n)
{
  const char *v = getenv (name);

  if (! v || ! *v)
    return 0;
  for (int i = 0; names[i]; i++)
    if (! strcmp (v, names[i]))
      return i;
  warn (w, n, name, v);
  return 0;
}

/* A whole number from lo to hi in variable `name` into *out; another value
 * keeps the default and is reported. */
static void
parse_count (const char *name, int lo, int hi, int *out, char *w, size_t n)
{
  const char *v = getenv (name);
  long long   x = 0;
  const char *end;

  if (! v || ! *v)
    return;
  end = clfx_parse_digits (v, hi, &x);
  if (end && ! *end && x >= lo && x <= hi)
    *out = (int) x;
  else
    warn (w, n, name, v);
}

void
clfx_tuning_read (ClfxTuning *t, char *warning, size_t warning_len)
{
  const char *v;

  memset (t, 0, sizeof *t);
  if (warning_len)
    warning[0] = '\0';
  parse_count ("CLFX_ROWS_PER_ITEM", 1, 16, &t->rows_per_item, warning,
               warning_len);
  v = getenv ("CLFX_ZERO_COPY");
  t->zero_copy_off = v && ! strcmp (v, "off");
  v = getenv ("CLFX_HOST_SCRATCH");
  t->scratch_off = v && ! strcmp (v, "off");
  v = getenv ("CLFX_RESIZE_TWO_PASS");
  t->two_pass = v && *v == '1';
  v = getenv ("CLFX_RESIZE_FIXED_TAPS");
  t->fixed_taps = v && *v == '1';
  t->strip = (ClfxStripPolicy) parse_choice (
    "CLFX_RESIZE_STRIP",
    (const char *[]) { "auto", "off", "all", "sweep", NULL },
    warning, warning_len);
  parse_count ("CLFX_RESIZE_STRIP_ROWS", 1, 256, &t->strip_rows, warning,
               warning_len);
  t->sampler = (ClfxSamplerPolicy) parse_choice (
    "CLFX_SAMPLER", (const char *[]) { "auto", "hardware", "kernel", NULL },
    warning, warning_len);
  t->source = (ClfxSourceForm) parse_choice (
    "CLFX_SOURCE", (const char *[]) { "auto", "image", "buffer", NULL },
    warning, warning_len);
  t->peer_pinned = (ClfxPeerPinned) parse_choice (
    "CLFX_PEER_PINNED",
    (const char *[]) { "stage", "direct", "context", NULL }, warning,
    warning_len);
  if ((v = getenv ("CLFX_TILE")) && *v)
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
        warn (warning, warning_len, "CLFX_TILE", v);
    }
  if ((v = getenv ("CLFX_BAND_BYTES")) && *v
      && ! parse_size (v, &t->band_bytes))
    warn (warning, warning_len, "CLFX_BAND_BYTES", v);
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
