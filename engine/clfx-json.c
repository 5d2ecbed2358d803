/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-json.c: the JSON writer behind the report. */
#define _GNU_SOURCE
#include "clfx-json.h"

#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
clfx_format_double (char *buf, size_t n, double v, int precision)
{
  static locale_t c_locale;
  locale_t        old;

  if (! c_locale)
    c_locale = newlocale (LC_ALL_MASK, "C", (locale_t) 0);
  old = c_locale ? uselocale (c_locale) : (locale_t) 0;
  snprintf (buf, n, "%.*g", precision, v);
  if (c_locale)
    uselocale (old);
}

static void
put (ClfxJson *j, const char *s, size_t n)
{
  if (j->failed)
    return;
  if (j->len + n + 1 > j->cap)
    {
      size_t cap = (j->len + n + 1) * 2;
      char  *b = realloc (j->buf, cap);
      if (! b)
        {
          j->failed = true;
          return;
        }
      j->buf = b;
      j->cap = cap;
    }
  memcpy (j->buf + j->len, s, n);
  j->len += n;
  j->buf[j->len] = '\0';
}

static void
puts_ (ClfxJson *j, const char *s)
{
  put (j, s, strlen (s));
}

static void
put_escaped (ClfxJson *j, const char *s)
{
  puts_ (j, "\"");
  for (const unsigned char *p = (const unsigned char *) (s ? s : ""); *p; p++)
    {
      char esc[8];
      switch (*p)
        {
        case '"': puts_ (j, "\\\""); break;
        case '\\': puts_ (j, "\\\\"); break;
        case '\n': puts_ (j, "\\n"); break;
        case '\r': puts_ (j, "\\r"); break;
        case '\t': puts_ (j, "\\t"); break;
        default:
          if (*p < 0x20)
            {
              snprintf (esc, sizeof esc, "\\u%04x", *p);
              puts_ (j, esc);
            }
          else
            put (j, (const char *) p, 1);
        }
    }
  puts_ (j, "\"");
}

static void
member (ClfxJson *j, const char *key)
{
  if (j->need_comma[j->depth])
    puts_ (j, ",");
  j->need_comma[j->depth] = true;
  if (key)
    {
      put_escaped (j, key);
      puts_ (j, ":");
    }
}

void
clfx_json_init (ClfxJson *j)
{
  memset (j, 0, sizeof *j);
}

static void
open_ (ClfxJson *j, const char *key, const char *bracket)
{
  member (j, key);
  puts_ (j, bracket);
  if (j->depth < 31)
    j->depth++;
  j->need_comma[j->depth] = false;
}

void
clfx_json_begin_object (ClfxJson *j, const char *key)
{
  open_ (j, key, "{");
}

void
clfx_json_begin_array (ClfxJson *j, const char *key)
{
  open_ (j, key, "[");
}

void
clfx_json_end_object (ClfxJson *j)
{
  if (j->depth > 0)
    j->depth--;
  puts_ (j, "}");
}

void
clfx_json_end_array (ClfxJson *j)
{
  if (j->depth > 0)
    j->depth--;
  puts_ (j, "]");
}

void
clfx_json_string (ClfxJson *j, const char *key, const char *value)
{
  member (j, key);
  put_escaped (j, value);
}

void
clfx_json_number (ClfxJson *j, const char *key, double value)
{
  char buf[64];

  member (j, key);
  if (! isfinite (value))
    {
      puts_ (j, "null");
      return;
    }
  clfx_format_double (buf, sizeof buf, value, 10);
  puts_ (j, buf);
}

void
clfx_json_int (ClfxJson *j, const char *key, long long value)
{
  char buf[32];

  member (j, key);
  snprintf (buf, sizeof buf, "%lld", value);
  puts_ (j, buf);
}

void
clfx_json_bool (ClfxJson *j, const char *key, bool value)
{
  member (j, key);
  puts_ (j, value ? "true" : "false");
}

void
clfx_json_null (ClfxJson *j, const char *key)
{
  member (j, key);
  puts_ (j, "null");
}

char *
clfx_json_take (ClfxJson *j)
{
  char *s = j->failed ? NULL : j->buf;

  if (j->failed)
    free (j->buf);
  else if (! s)
    s = calloc (1, 1);
  memset (j, 0, sizeof *j);
  return s;
}
