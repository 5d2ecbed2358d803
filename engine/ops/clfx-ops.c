/* clfx-ops.c: the op table and parameter handling shared by every op. */
#define _GNU_SOURCE /* strtod_l */
#include "clfx-ops.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const ClfxOpInfo *const all_ops[] = { &clfx_op_resize, &clfx_op_copy,
                                             NULL };

const ClfxOpInfo *const *
clfx_ops (void)
{
  return all_ops;
}

const ClfxOpInfo *
clfx_op_find (const char *name)
{
  for (int i = 0; all_ops[i]; i++)
    if (strcmp (all_ops[i]->name, name) == 0)
      return all_ops[i];
  return NULL;
}

int
clfx_op_param_index (const ClfxOpInfo *op, const char *name)
{
  for (int i = 0; i < op->n_params; i++)
    if (strcmp (op->params[i].name, name) == 0)
      return i;
  return -1;
}

void
clfx_params_defaults (const ClfxOpInfo *op, ClfxParams *p)
{
  memset (p, 0, sizeof *p);
  p->op = op->name;
  for (int i = 0; i < op->n_params; i++)
    {
      const ClfxParamSpec *s = &op->params[i];
      p->v[i].d = s->def;
      p->v[i].i = (int) s->def;
      p->v[i].b = s->def != 0.0;
      p->v[i].s = s->def_string ? s->def_string : "";
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

bool
clfx_params_set (const ClfxOpInfo *op, ClfxParams *p, const char *name,
                 const char *text, ClfxError *error)
{
  int                  idx = clfx_op_param_index (op, name);
  const ClfxParamSpec *s;
  char                *end;
  double               d;
  ClfxParams           next = *p; /* p changes only if the value is valid */

  if (idx < 0)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "%s has no parameter '%s'", op->name, name);
  s = &op->params[idx];
  switch (s->type)
    {
    case CLFX_PARAM_INT:
    case CLFX_PARAM_DOUBLE:
      d = clfx_strtod (text, &end);
      if (end == text || *end != '\0' || ! isfinite (d))
        return clfx_error_set (error, CLFX_ERR_INVALID,
                               "%s: '%s' is not a number", name, text);
      if (s->type == CLFX_PARAM_INT && d != floor (d))
        return clfx_error_set (error, CLFX_ERR_INVALID,
                               "%s: '%s' is not a whole number", name, text);
      next.v[idx].d = d;
      next.v[idx].i = (int) d;
      break;
    case CLFX_PARAM_BOOL:
      if (! strcasecmp (text, "true") || ! strcmp (text, "1")
          || ! strcasecmp (text, "yes"))
        next.v[idx].b = true;
      else if (! strcasecmp (text, "false") || ! strcmp (text, "0")
               || ! strcasecmp (text, "no"))
        next.v[idx].b = false;
      else
        return clfx_error_set (error, CLFX_ERR_INVALID,
                               "%s: '%s' is not true or false", name, text);
      break;
    case CLFX_PARAM_CHOICE:
      {
        int k;
        for (k = 0; s->choices[k].nick; k++)
          if (strcmp (s->choices[k].nick, text) == 0)
            break;
        if (! s->choices[k].nick)
          {
            char list[256];
            choice_list (s->choices, list, sizeof list);
            return clfx_error_set (error, CLFX_ERR_INVALID,
                                   "%s: unknown value '%s' (one of: %s)",
                                   name, text, list);
          }
        next.v[idx].i = k;
      }
      break;
    case CLFX_PARAM_STRING:
      next.v[idx].s = text;
      break;
    }
  if (! clfx_params_check (op, &next, error))
    return false;
  *p = next;
  return true;
}

bool
clfx_params_check (const ClfxOpInfo *op, const ClfxParams *p,
                   ClfxError *error)
{
  for (int i = 0; i < op->n_params; i++)
    {
      const ClfxParamSpec *s = &op->params[i];
      double v = s->type == CLFX_PARAM_INT ? (double) p->v[i].i : p->v[i].d;

      if ((s->type == CLFX_PARAM_INT || s->type == CLFX_PARAM_DOUBLE)
          && (! isfinite (v) || v < s->min || v > s->max))
        return clfx_error_set (error, CLFX_ERR_INVALID,
                               "%s: %g is out of range (%g to %g)", s->name,
                               v, s->min, s->max);
      if (s->type == CLFX_PARAM_CHOICE)
        {
          int n = 0;
          while (s->choices[n].nick)
            n++;
          if (p->v[i].i < 0 || p->v[i].i >= n)
            return clfx_error_set (error, CLFX_ERR_INVALID,
                                   "%s: choice index %d is out of range",
                                   s->name, p->v[i].i);
        }
    }
  return true;
}
