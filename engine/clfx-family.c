/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-family.c: typed parameters read and written through the family
 * table's rows. */
#define _GNU_SOURCE /* strtod_l */
#include "clfx-family.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "clfx-graph.h"

const ClfxFamily *
clfx_family_find (const char *name)
{
  for (const ClfxFamily *const *f = clfx_families (); *f; f++)
    if (strcmp ((*f)->name, name) == 0)
      return *f;
  return NULL;
}

const ClfxParamSpec *
clfx_family_param (const ClfxFamily *f, const char *name)
{
  for (int i = 0; f && i < f->n_params; i++)
    if (strcmp (f->params[i].name, name) == 0)
      return &f->params[i];
  return NULL;
}

int
clfx_choice_count (const ClfxParamSpec *s)
{
  int n = 0;

  while (s->choices && s->choices[n].nick)
    n++;
  return n;
}

void *
clfx_params_data (const ClfxParams *p, size_t size)
{
  /* A struct of another family would read past this family's values. */
  if (! p->family || size != p->family->params_size)
    abort ();
  return (void *) p->data;
}

static void *
field (const ClfxParams *p, const ClfxParamSpec *s)
{
  return (void *) (p->data + s->offset);
}

int
clfx_param_get_int (const ClfxParams *p, const ClfxParamSpec *s)
{
  int v;
  memcpy (&v, field (p, s), sizeof v);
  return v;
}

double
clfx_param_get_double (const ClfxParams *p, const ClfxParamSpec *s)
{
  double v;
  memcpy (&v, field (p, s), sizeof v);
  return v;
}

bool
clfx_param_get_bool (const ClfxParams *p, const ClfxParamSpec *s)
{
  bool v;
  memcpy (&v, field (p, s), sizeof v);
  return v;
}

const char *
clfx_param_get_string (const ClfxParams *p, const ClfxParamSpec *s)
{
  return (const char *) field (p, s);
}

const char *
clfx_param_get_nick (const ClfxParams *p, const ClfxParamSpec *s)
{
  int i = clfx_param_get_int (p, s);

  return i >= 0 && i < clfx_choice_count (s) ? s->choices[i].nick : "";
}

void
clfx_param_set_int (ClfxParams *p, const ClfxParamSpec *s, int v)
{
  memcpy (field (p, s), &v, sizeof v);
}

void
clfx_param_set_double (ClfxParams *p, const ClfxParamSpec *s, double v)
{
  memcpy (field (p, s), &v, sizeof v);
}

void
clfx_param_set_bool (ClfxParams *p, const ClfxParamSpec *s, bool v)
{
  memcpy (field (p, s), &v, sizeof v);
}

void
clfx_param_set_string (ClfxParams *p, const ClfxParamSpec *s, const char *v)
{
  char *f = field (p, s);

  snprintf (f, s->size, "%s", v ? v : "");
}

void
clfx_params_defaults (const ClfxFamily *f, ClfxParams *p)
{
  memset (p, 0, sizeof *p);
  p->family = f;
  for (int i = 0; i < f->n_params; i++)
    {
      const ClfxParamSpec *s = &f->params[i];
      switch (s->type)
        {
        case CLFX_PARAM_INT:
        case CLFX_PARAM_CHOICE:
          clfx_param_set_int (p, s, (int) s->def);
          break;
        case CLFX_PARAM_DOUBLE:
          clfx_param_set_double (p, s, s->def);
          break;
        case CLFX_PARAM_BOOL:
          clfx_param_set_bool (p, s, s->def != 0.0);
          break;
        case CLFX_PARAM_STRING:
          clfx_param_set_string (p, s, s->def_string);
          break;
        }
    }
}

double
clfx_strtod (const char *s, char **end)
{
  static locale_t c_locale;

  if (! c_locale)
    c_locale = newlocale (LC_ALL_MASK, "C", (locale_t) 0);
  return c_locale ? strtod_l (s, end, c_locale) : strtod (s, end);
}

static void
choice_list (const ClfxChoice *c, char *buf, size_t n)
{
  size_t len = 0;

  buf[0] = '\0';
  for (; c && c->nick && len < n; c++)
    len += (size_t) snprintf (buf + len, n - len, "%s%s", len ? ", " : "",
                              c->nick);
}

static void
param_list (const ClfxFamily *f, char *buf, size_t n)
{
  size_t len = 0;

  buf[0] = '\0';
  for (int i = 0; i < f->n_params && len < n; i++)
    len += (size_t) snprintf (buf + len, n - len, "%s%s", len ? ", " : "",
                              f->params[i].name);
}

/* Whether text is a plain decimal number: an optional sign, digits with
 * an optional point, an optional exponent, and nothing else.  strtod
 * alone also takes leading spaces, hexadecimal ("0x10"), "inf" and
 * "nan", none of which a user means as a size or a radius. */
static bool
decimal_syntax (const char *s)
{
  bool digits = false;

  if (*s == '+' || *s == '-')
    s++;
  for (; *s >= '0' && *s <= '9'; s++)
    digits = true;
  if (*s == '.')
    for (s++; *s >= '0' && *s <= '9'; s++)
      digits = true;
  if (! digits)
    return false;
  if (*s == 'e' || *s == 'E')
    {
      s++;
      if (*s == '+' || *s == '-')
        s++;
      if (*s < '0' || *s > '9')
        return false;
      while (*s >= '0' && *s <= '9')
        s++;
    }
  return *s == '\0';
}

bool
clfx_params_set (ClfxParams *p, const char *name, const char *text,
                 ClfxError *error)
{
  const ClfxFamily    *f = p->family;
  const ClfxParamSpec *s = clfx_family_param (f, name);
  ClfxParams           next = *p; /* p changes only if the value is valid */
  char                *end;
  double               d;

  if (! s)
    {
      char list[512];
      param_list (f, list, sizeof list);
      return clfx_error_set (error, CLFX_ERR_INVALID,
                             "%s has no parameter '%s' (it has: %s)",
                             f->name, name, list[0] ? list : "none");
    }
  switch (s->type)
    {
    case CLFX_PARAM_INT:
    case CLFX_PARAM_DOUBLE:
      if (! decimal_syntax (text))
        return clfx_error_set (error, CLFX_ERR_INVALID,
                               "%s: '%s' is not a number", name, text);
      d = clfx_strtod (text, &end);
      if (s->type == CLFX_PARAM_INT && isfinite (d) && d != floor (d))
        return clfx_error_set (error, CLFX_ERR_INVALID,
                               "%s: '%s' is not a whole number", name, text);
      /* As a double, before the conversion: a value outside int's range
       * would make (int) d undefined (1e999 reads as infinity). */
      if (! isfinite (d) || d < s->min || d > s->max)
        return clfx_error_set (error, CLFX_ERR_INVALID,
                               "%s: '%s' is out of range (%g to %g)", name,
                               text, s->min, s->max);
      if (s->type == CLFX_PARAM_INT)
        clfx_param_set_int (&next, s, (int) d);
      else
        clfx_param_set_double (&next, s, d);
      break;
    case CLFX_PARAM_BOOL:
      if (! strcasecmp (text, "true") || ! strcmp (text, "1")
          || ! strcasecmp (text, "yes"))
        clfx_param_set_bool (&next, s, true);
      else if (! strcasecmp (text, "false") || ! strcmp (text, "0")
               || ! strcasecmp (text, "no"))
        clfx_param_set_bool (&next, s, false);
      else
        return clfx_error_set (error, CLFX_ERR_INVALID,
                               "%s: '%s' is not true or false", name, text);
      break;
    case CLFX_PARAM_CHOICE:
      {
        int k, n = clfx_choice_count (s);
        for (k = 0; k < n; k++)
          if (strcmp (s->choices[k].nick, text) == 0)
            break;
        if (k == n)
          {
            char list[512];
            choice_list (s->choices, list, sizeof list);
            return clfx_error_set (error, CLFX_ERR_INVALID,
                                   "%s: unknown value '%s' (one of: %s)",
                                   name, text, list);
          }
        clfx_param_set_int (&next, s, k);
      }
      break;
    case CLFX_PARAM_STRING:
      if (strlen (text) >= s->size)
        return clfx_error_set (error, CLFX_ERR_INVALID,
                               "%s: the text is %zu characters long, at most "
                               "%zu are allowed", name, strlen (text),
                               s->size - 1);
      clfx_param_set_string (&next, s, text);
      break;
    }
  if (! clfx_params_check (&next, error))
    return false;
  *p = next;
  return true;
}

bool
clfx_params_check (const ClfxParams *p, ClfxError *error)
{
  const ClfxFamily *f = p->family;

  if (! f)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "parameters of no family");
  for (int i = 0; i < f->n_params; i++)
    {
      const ClfxParamSpec *s = &f->params[i];
      double v = s->type == CLFX_PARAM_INT      ? clfx_param_get_int (p, s)
                 : s->type == CLFX_PARAM_DOUBLE ? clfx_param_get_double (p, s)
                                                : 0.0;

      if ((s->type == CLFX_PARAM_INT || s->type == CLFX_PARAM_DOUBLE)
          && (! isfinite (v) || v < s->min || v > s->max))
        return clfx_error_set (error, CLFX_ERR_INVALID,
                               "%s: %g is out of range (%g to %g)", s->name,
                               v, s->min, s->max);
      if (s->type == CLFX_PARAM_CHOICE)
        {
          int k = clfx_param_get_int (p, s);
          if (k < 0 || k >= clfx_choice_count (s))
            return clfx_error_set (error, CLFX_ERR_INVALID,
                                   "%s: choice index %d is out of range",
                                   s->name, k);
        }
      if (s->type == CLFX_PARAM_STRING
          && ! memchr (clfx_param_get_string (p, s), '\0', s->size))
        return clfx_error_set (error, CLFX_ERR_INVALID,
                               "%s: the text is not terminated", s->name);
    }
  return true;
}

const char *
clfx_param_format (const ClfxParams *p, const ClfxParamSpec *s, char *buf,
                   size_t n)
{
  locale_t c = newlocale (LC_ALL_MASK, "C", (locale_t) 0);
  locale_t old = c ? uselocale (c) : (locale_t) 0;

  switch (s->type)
    {
    case CLFX_PARAM_INT:
      snprintf (buf, n, "%d", clfx_param_get_int (p, s));
      break;
    case CLFX_PARAM_DOUBLE:
      {
        /* The shortest text that reads back as the same double. */
        double v = clfx_param_get_double (p, s);
        for (int digits = 15; digits <= 17; digits++)
          {
            snprintf (buf, n, "%.*g", digits, v);
            if (strtod (buf, NULL) == v)
              break;
          }
      }
      break;
    case CLFX_PARAM_BOOL:
      snprintf (buf, n, "%s", clfx_param_get_bool (p, s) ? "true" : "false");
      break;
    case CLFX_PARAM_CHOICE:
      snprintf (buf, n, "%s", clfx_param_get_nick (p, s));
      break;
    case CLFX_PARAM_STRING:
      snprintf (buf, n, "%s", clfx_param_get_string (p, s));
      break;
    }
  if (c)
    {
      uselocale (old);
      freelocale (c);
    }
  return buf;
}

const ClfxVariant *
clfx_params_variant (const ClfxParams *p)
{
  const ClfxFamily *f = p->family;
  int               k;

  if (! f || f->n_variants < 1)
    return NULL;
  if (f->variant_param < 0)
    return f->variants[0];
  k = clfx_param_get_int (p, &f->params[f->variant_param]);
  return k >= 0 && k < f->n_variants ? f->variants[k] : NULL;
}

bool
clfx_variant_uses (const ClfxVariant *v, const ClfxParamSpec *s)
{
  /* The plug-in's own rows (how it applies the result) hold for every
   * variant. */
  if (! v->uses || s->plugin_only)
    return true;
  for (int i = 0; v->uses[i]; i++)
    if (strcmp (v->uses[i], s->name) == 0)
      return true;
  return false;
}

/* Values a sweep takes for row s. */
static int
sweep_values (const ClfxParamSpec *s)
{
  return s->type == CLFX_PARAM_CHOICE ? clfx_choice_count (s)
         : s->type == CLFX_PARAM_BOOL ? 2
                                      : 1;
}

bool
clfx_family_sweep_case (const ClfxFamily *f, int k, ClfxParams *p)
{
  int rest = k;

  if (k < 0 || ! f->sweep)
    return false;
  clfx_params_defaults (f, p);
  /* The last name varies fastest. */
  {
    int n = 0;
    while (f->sweep[n])
      n++;
    for (int i = n - 1; i >= 0; i--)
      {
        const ClfxParamSpec *s = clfx_family_param (f, f->sweep[i]);
        int                  m = s ? sweep_values (s) : 1;
        int                  v = rest % m;
        rest /= m;
        if (s && s->type == CLFX_PARAM_CHOICE)
          clfx_param_set_int (p, s, v);
        else if (s && s->type == CLFX_PARAM_BOOL)
          clfx_param_set_bool (p, s, v == 0); /* true first */
      }
  }
  if (rest > 0)
    return false;
  if (f->sweep_case)
    f->sweep_case (p, k);
  return true;
}

static const char *
as_is (const char *s)
{
  return s;
}

char *
clfx_family_help (const ClfxFamily *f, const char *(*translate) (const char *))
{
  const char *sep = f->help_separator ? f->help_separator : "";
  size_t      n = 1;
  char       *text;

  /* A translation is used where it is made: a translate function may
   * hand back a buffer its next call reuses. */
  if (! translate)
    translate = as_is;
  if (f->help)
    n += strlen (translate (f->help));
  for (int i = 0; f->help_variants && f->help_variants[i]; i++)
    n += strlen (translate (f->help_variants[i]))
         + (i > 0 ? strlen (translate (sep)) : 0);
  if (f->help_end)
    n += strlen (translate (f->help_end));
  if (! (text = malloc (n)))
    return NULL;
  text[0] = '\0';
  if (f->help)
    strcat (text, translate (f->help));
  for (int i = 0; f->help_variants && f->help_variants[i]; i++)
    {
      if (i > 0)
        strcat (text, translate (sep));
      strcat (text, translate (f->help_variants[i]));
    }
  if (f->help_end)
    strcat (text, translate (f->help_end));
  return text;
}

/* ---- variants as operators of their own --------------------------------- */

bool
clfx_family_has_operators (const ClfxFamily *f)
{
  return f->procedure && f->variant_param >= 0 && f->n_variants > 0;
}

bool
clfx_operator_procedure (const ClfxFamily *f, int k, char *buf, size_t n)
{
  const ClfxVariant *v;
  int                len;

  if (! clfx_family_has_operators (f) || k < 0 || k >= f->n_variants)
    return false;
  v = f->variants[k];
  len = snprintf (buf, n, "plug-in-clfx-%s",
                  v->place.gegl_name ? v->place.gegl_name : v->name);
  return len > 0 && (size_t) len < n;
}

bool
clfx_operator_has_row (const ClfxFamily *f, int k, int i)
{
  if (k < 0 || k >= f->n_variants || i < 0 || i >= f->n_params
      || i == f->variant_param)
    return false;
  return clfx_variant_uses (f->variants[k], &f->params[i]);
}

const char *
clfx_operator_arg_name (const ClfxParamSpec *s)
{
  return s->gegl_name ? s->gegl_name : s->name;
}

char *
clfx_operator_help (const ClfxFamily *f, int k,
                    const char *(*translate) (const char *))
{
  const char *head = f->help_operator ? f->help_operator : f->help;
  const char *end = f->help_operator_end ? f->help_operator_end
                                         : f->help_end;
  const char *part = NULL;
  const char *pieces[3];
  size_t      n = 1;
  char       *text;

  if (! translate)
    translate = as_is;
  for (int i = 0; f->help_variants && f->help_variants[i]; i++)
    if (i == k)
      part = f->help_variants[i];
  pieces[0] = head;
  pieces[1] = part;
  pieces[2] = end;
  /* Measured and joined one piece at a time: a translation is used where
   * it is made (see clfx_family_help). */
  for (int i = 0; i < 3; i++)
    if (pieces[i])
      n += strlen (translate (pieces[i]));
  if (! (text = malloc (n)))
    return NULL;
  text[0] = '\0';
  for (int i = 0; i < 3; i++)
    if (pieces[i])
      strcat (text, translate (pieces[i]));
  return text;
}
