/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-json.h: a small JSON writer.  Numbers are written with the C locale
 * whatever the process locale is (GIMP runs plug-ins under the user's
 * locale, where "%g" may print a decimal comma); NaN and Inf become null. */
#ifndef CLFX_JSON_H
#define CLFX_JSON_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct
{
  char  *buf;
  size_t len, cap;
  int    depth;
  bool   need_comma[32];
  bool   failed; /* out of memory: clfx_json_take returns NULL */
} ClfxJson;

void  clfx_json_init (ClfxJson *j);
void  clfx_json_begin_object (ClfxJson *j, const char *key);
void  clfx_json_end_object (ClfxJson *j);
void  clfx_json_begin_array (ClfxJson *j, const char *key);
void  clfx_json_end_array (ClfxJson *j);
/* key may be NULL inside arrays. */
void  clfx_json_string (ClfxJson *j, const char *key, const char *value);
void  clfx_json_number (ClfxJson *j, const char *key, double value);
void  clfx_json_int (ClfxJson *j, const char *key, long long value);
void  clfx_json_bool (ClfxJson *j, const char *key, bool value);
void  clfx_json_null (ClfxJson *j, const char *key);
/* The finished text (caller frees), or NULL if memory ran out. */
char *clfx_json_take (ClfxJson *j);

/* Locale-independent "%.*g". */
void clfx_format_double (char *buf, size_t n, double v, int precision);

#ifdef __cplusplus
}
#endif

#endif
