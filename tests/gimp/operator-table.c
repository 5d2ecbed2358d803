/* SPDX-License-Identifier: GPL-3.0-or-later */
/* operator-table.c: what the family table says each variant's own
 * procedure is (plug-in-clfx-gaussian-blur, ...), as JSON, for the GIMP
 * batch that compares it with the PDB and GEGL (run-operator-tests.sh).
 *
 *   operator-table
 *
 * One object per variant of every family whose variants are operators of
 * their own: its procedure, the family's procedure and variant argument,
 * GEGL's operation, GIMP's menu, the label, the arguments (name, the
 * row's name, type, range, default, choices), and a set of values to run
 * it with: the self-test's values for the variant with every choice one
 * step past its default, where the engine takes that on a small image
 * (else the self-test's), as text. */
#include <stdio.h>
#include <string.h>

#include "clfx-args.h"

static void
json_string (const char *s)
{
  putchar ('"');
  for (; s && *s; s++)
    if (*s == '"' || *s == '\\')
      printf ("\\%c", *s);
    else if ((unsigned char) *s < 0x20)
      printf ("\\u%04x", *s);
    else
      putchar (*s);
  putchar ('"');
}

static const char *
type_name (ClfxParamType t)
{
  switch (t)
    {
    case CLFX_PARAM_INT:
      return "int";
    case CLFX_PARAM_DOUBLE:
      return "double";
    case CLFX_PARAM_BOOL:
      return "bool";
    case CLFX_PARAM_CHOICE:
      return "choice";
    case CLFX_PARAM_STRING:
      return "string";
    }
  return "?";
}

/* Whether the engine takes p on a small RGBA u8 image. */
static gboolean
takes (const ClfxParams *p)
{
  ClfxImage header;
  ClfxError e = { 0 };
  gint      w, h;

  memset (&header, 0, sizeof header);
  header.width = 48;
  header.height = 36;
  header.channels = 4;
  header.depth = CLFX_DEPTH_U8;
  header.straight_alpha = true;
  header.transfer = CLFX_TRC_SRGB;
  return clfx_params_check (p, &e) && clfx_run_check (p, &header, &w, &h, &e);
}

/* The values variant k runs with in the batch: the self-test's for it
 * (its sweep case with the variant chosen and the first edge handling),
 * then each choice one past its default where the engine still takes
 * them, so that GEGL-named choices (gaussian's filter) are passed too. */
static void
run_values (const ClfxFamily *f, gint k, ClfxParams *p)
{
  clfx_params_defaults (f, p);
  clfx_param_set_int (p, &f->params[f->variant_param], k);
  if (f->sweep_case)
    f->sweep_case (p, 1);
  for (gint i = 0; i < f->n_params; i++)
    {
      const ClfxParamSpec *s = &f->params[i];
      ClfxParams           q = *p;

      if (s->type != CLFX_PARAM_CHOICE || i == f->variant_param
          || s->plugin_only || ! clfx_operator_has_row (f, k, i))
        continue;
      clfx_param_set_int (&q, s, ((gint) s->def + 1) % clfx_choice_count (s));
      if (takes (&q))
        *p = q;
    }
}

static void
print_operator (const ClfxFamily *f, gint k, gboolean first)
{
  const ClfxVariant   *v = f->variants[k];
  const ClfxParamSpec *vs = &f->params[f->variant_param];
  ClfxProcSpec         proc = { f, k };
  gchar               *name = clfx_proc_name (&proc);
  gchar               *title = clfx_proc_title (&proc);
  gint                *rows = g_new (gint, f->n_params);
  gint                 n = clfx_proc_rows (&proc, rows);
  ClfxParams           p;
  gchar                buf[256];

  run_values (f, k, &p);
  printf ("%s\n  {\"procedure\": ", first ? "" : ",");
  json_string (name);
  printf (", \"family\": ");
  json_string (f->name);
  printf (", \"family_procedure\": ");
  json_string (f->procedure);
  printf (", \"variant\": ");
  json_string (v->name);
  printf (", \"variant_arg\": ");
  json_string (vs->name);
  printf (",\n   \"gegl\": ");
  if (v->place.gegl_name)
    json_string (v->place.gegl_name);
  else
    printf ("null");
  printf (", \"menu_path\": ");
  json_string (v->place.menu_path);
  printf (", \"label\": ");
  g_snprintf (buf, sizeof buf, "%s...", title);
  json_string (buf);
  printf (", \"engine_takes_values\": %s,\n   \"args\": [",
          takes (&p) ? "true" : "false");
  for (gint a = 0; a < n; a++)
    {
      const ClfxParamSpec *s = &f->params[rows[a]];

      printf ("%s\n    {\"name\": ", a ? "," : "");
      json_string (clfx_proc_arg_name (&proc, s));
      printf (", \"row\": ");
      json_string (s->name);
      printf (", \"type\": \"%s\", \"plugin_only\": %s", type_name (s->type),
              s->plugin_only ? "true" : "false");
      switch (s->type)
        {
        case CLFX_PARAM_INT:
        case CLFX_PARAM_DOUBLE:
          printf (", \"min\": %.17g, \"max\": %.17g, \"default\": %.17g",
                  s->min, s->max, s->def);
          break;
        case CLFX_PARAM_BOOL:
          printf (", \"default\": %s", s->def != 0 ? "true" : "false");
          break;
        case CLFX_PARAM_CHOICE:
          printf (", \"default\": ");
          json_string (s->choices[(gint) s->def].nick);
          printf (", \"choices\": [");
          for (gint c = 0; s->choices[c].nick; c++)
            {
              printf ("%s", c ? ", " : "");
              json_string (s->choices[c].nick);
            }
          printf ("]");
          break;
        case CLFX_PARAM_STRING:
          printf (", \"default\": ");
          json_string (s->def_string ? s->def_string : "");
          break;
        }
      /* The value to run with, as clfx_params_set reads it back. */
      printf (", \"value\": ");
      json_string (s->type == CLFX_PARAM_STRING
                     ? clfx_param_get_string (&p, s)
                     : clfx_param_format (&p, s, buf, sizeof buf));
      printf ("}");
    }
  printf ("]}");
  g_free (rows);
  g_free (title);
  g_free (name);
}

int
main (void)
{
  gboolean first = TRUE;

  printf ("[");
  for (const ClfxFamily *const *f = clfx_families (); *f; f++)
    for (gint k = 0; clfx_family_has_operators (*f) && k < (*f)->n_variants;
         k++)
      {
        print_operator (*f, k, first);
        first = FALSE;
      }
  printf ("\n]\n");
  return 0;
}
