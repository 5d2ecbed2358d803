/* script-fu-call.c: prints the Script-Fu call that the dialog's "Copy
 * Script-Fu call" button copies for a family's values, so that the GIMP
 * batch can run it and check what it did.
 *
 *   script-fu-call FAMILY REPORT-FILE [NAME=VALUE...]
 *
 * NAME is a row of the family or "device"; values are read as clfx-bench
 * reads them (clfx_params_set).  validate is on. */
#include <stdio.h>
#include <string.h>

#include "clfx-args.h"

int
main (int    argc,
      char **argv)
{
  const ClfxFamily *family = argc >= 3 ? clfx_family_find (argv[1]) : NULL;
  ClfxArgs          args = { 0 };
  ClfxError         e = { 0 };
  gchar            *call;

  if (! family || ! family->procedure)
    {
      fprintf (stderr, "usage: script-fu-call FAMILY REPORT-FILE "
                       "[NAME=VALUE...] (FAMILY: a family with a "
                       "procedure)\n");
      return 2;
    }
  clfx_params_defaults (family, &args.params);
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
