/* SPDX-License-Identifier: GPL-3.0-or-later */
/* script-fu-call.c: prints the Script-Fu call that the dialog's "Copy
 * Script-Fu call" button copies for a procedure's values, so that the
 * GIMP batch can run it and check what it did.
 *
 *   script-fu-call FAMILY[:VARIANT] REPORT-FILE [NAME=VALUE...]
 *
 * FAMILY: the family's procedure; FAMILY:VARIANT: that variant's own.
 * NAME is a row of the family (its name in the table) or "device";
 * values are read as clfx-bench reads them (clfx_params_set).  validate
 * is on. */
#include <stdio.h>
#include <string.h>

#include "clfx-args.h"

int
main (int    argc,
      char **argv)
{
  gchar           **what = g_strsplit (argc >= 3 ? argv[1] : "", ":", 2);
  const ClfxFamily *family = clfx_family_find (what[0]);
  ClfxArgs          args = { 0 };
  ClfxError         e = { 0 };
  gchar            *call;

  args.proc = (ClfxProcSpec) { family, -1 };
  for (gint k = 0; family && what[1] && k < family->n_variants; k++)
    if (! strcmp (family->variants[k]->name, what[1]))
      args.proc.variant = k;
  if (! family || ! family->procedure
      || (what[1] && (args.proc.variant < 0
                      || ! clfx_family_has_operators (family))))
    {
      fprintf (stderr, "usage: script-fu-call FAMILY[:VARIANT] REPORT-FILE "
                       "[NAME=VALUE...] (FAMILY: a family with a "
                       "procedure, VARIANT one of its variants)\n");
      g_strfreev (what);
      return 2;
    }
  g_strfreev (what);
  clfx_params_defaults (family, &args.params);
  if (args.proc.variant >= 0)
    clfx_param_set_int (&args.params,
                        &family->params[family->variant_param],
                        args.proc.variant);
  args.device = g_strdup ("auto");
  args.validate = TRUE;
  args.report_file = g_strdup (argv[2]);
  for (int i = 3; i < argc; i++)
    {
      gchar **pair = g_strsplit (argv[i], "=", 2);
      gboolean ok = pair[0] && pair[1];

      if (ok && ! strcmp (pair[0], "device"))
        {
          g_free (args.device);
          args.device = g_strdup (pair[1]);
        }
      else if (ok)
        ok = clfx_params_set (&args.params, pair[0], pair[1], &e);
      else
        g_strlcpy (e.message, "expected NAME=VALUE", sizeof e.message);
      g_strfreev (pair);
      if (! ok)
        {
          fprintf (stderr, "script-fu-call: %s: %s\n", argv[i], e.message);
          clfx_args_clear (&args);
          return 2;
        }
    }
  call = clfx_args_script_fu (&args);
  printf ("%s\n", call);
  g_free (call);
  clfx_args_clear (&args);
  return 0;
}
