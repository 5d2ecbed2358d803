/* clfx-tuning.c: the tuning variables, parsed once per context. */
#define _POSIX_C_SOURCE 200809L
#include "clfx-tuning.h"

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

static bool
parse_size (const char *s, size_t *out)
{
  char         *end;
  unsigned long long v = strtoull (s, &end, 10);

  if (end == s || *end || s[0] == '-')
    return false;
  *out = (size_t) v;
  return true;
}

void
clfx_tuning_read (ClfxTuning *t, char *warning, size_t warning_len)
{
  const char *v;

  memset (t, 0, sizeof *t);
  if (warning_len)
    warning[0] = '\0';
  if ((v = getenv ("CLFX_ROWS_PER_ITEM")) && *v)
    {
      long n = strtol (v, NULL, 10);
      if (n >= 1 && n <= 16)
        t->rows_per_item = (int) n;
      else
        warn (warning, warning_len, "CLFX_ROWS_PER_ITEM", v);
    }
  v = getenv ("CLFX_ZERO_COPY");
  t->zero_copy_off = v && ! strcmp (v, "off");
  v = getenv ("CLFX_RESIZE_TWO_PASS");
  t->two_pass = v && *v == '1';
  if ((v = getenv ("CLFX_SAMPLER")) && *v)
    {
      if (! strcmp (v, "hardware"))
        t->sampler = CLFX_SAMPLER_HARDWARE;
      else if (! strcmp (v, "kernel"))
        t->sampler = CLFX_SAMPLER_KERNEL;
      else if (strcmp (v, "auto"))
        warn (warning, warning_len, "CLFX_SAMPLER", v);
    }
  if ((v = getenv ("CLFX_SOURCE")) && *v)
    {
      if (! strcmp (v, "image"))
        t->source = CLFX_SOURCE_IMAGE;
      else if (! strcmp (v, "buffer"))
        t->source = CLFX_SOURCE_BUFFER;
      else if (strcmp (v, "auto"))
        warn (warning, warning_len, "CLFX_SOURCE", v);
    }
  if ((v = getenv ("CLFX_TILE")) && *v)
    {
      int w = 0, h = 0;
      char c;
      if (sscanf (v, "%dx%d%c", &w, &h, &c) == 2 && w > 0 && h > 0)
        {
          t->tile_width = w;
          t->tile_height = h;
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
}
