/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-fault-spec.c: how CLFX_DEV's fault switch is read.  A malformed spec must be
 * ignored with a warning on stderr that quotes it, never taken for some
 * other fault ("@0" used to mean "@1"); a sound one fails the Nth call.
 * Needs no device: it drives clfx_fault_take directly.  TAP output. */
#define _POSIX_C_SOURCE 200809L

#include "clfx-error.h"
#include "../tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What the engine printed on stderr while spec was read, in buf. */
static void
parse_capturing (const char *spec, char *buf, size_t size)
{
  FILE *tmp = tmpfile ();
  int   saved = dup (STDERR_FILENO);
  size_t n = 0;

  buf[0] = '\0';
  if (! tmp || saved < 0)
    return;
  fflush (stderr);
  dup2 (fileno (tmp), STDERR_FILENO);
  {
    char dev[400];
    snprintf (dev, sizeof dev, "fault=%s", spec);
    setenv ("CLFX_DEV", dev, 1);
  }
  clfx_fault_reset ();
  fflush (stderr);
  dup2 (saved, STDERR_FILENO);
  close (saved);
  rewind (tmp);
  n = fread (buf, 1, size - 1, tmp);
  buf[n] = '\0';
  fclose (tmp);
}

/* The status of each of the first n calls of clTest, as a string of
 * 'f' (failed) and '.' (passed). */
static const char *
calls (int n)
{
  static char s[16];

  for (int i = 0; i < n && i < 15; i++)
    s[i] = clfx_fault_take ("clTest") == CL_SUCCESS ? '.' : 'f';
  s[n < 15 ? n : 15] = '\0';
  return s;
}

int
main (void)
{
  static const char *malformed[] = {
    "clTest=CL_OUT_OF_RESOURCES@0",
    "clTest=CL_OUT_OF_RESOURCES@-1",
    "clTest=CL_OUT_OF_RESOURCES@abc",
    "clTest=CL_OUT_OF_RESOURCES@",
    "clTest=CL_OUT_OF_RESOURCES@2x",
    "clTest=CL_OUT_OF_RESOURCES@ 2",
    "clTest=CL_OUT_OF_RESOURCES@99999999999999999999",
    "clTest",
    "=CL_OUT_OF_RESOURCES",
    "clTest=",
    "clTest=CL_NO_SUCH_STATUS",
    "clTest=CL_SUCCESS",
    "clTest=0",
    "clTest= -5",
    "clTest=99999999999",
    "clTestclTestclTestclTestclTestclTestclTestclTestclTestclTestclTest"
    "clTest=CL_OUT_OF_RESOURCES",
  };
  char err[1024], quoted[256], longspec[300];

  for (size_t i = 0; i < sizeof malformed / sizeof malformed[0]; i++)
    {
      const char *c;

      parse_capturing (malformed[i], err, sizeof err);
      c = calls (3);
      snprintf (quoted, sizeof quoted, "'%s'", malformed[i]);
      tap_ok (! strcmp (c, "...") && strstr (err, "CLFX_DEV fault")
                && strstr (err, quoted),
              "fault=%s is ignored with a warning (calls %s, stderr: %s)",
              quoted, c, err);
    }

  memset (longspec, 'a', sizeof longspec - 1);
  longspec[sizeof longspec - 1] = '\0';
  memcpy (longspec + 200, "=CL_OUT_OF_RESOURCES", 20);
  parse_capturing (longspec, err, sizeof err);
  tap_ok (! strcmp (calls (2), "..") && strstr (err, "too long"),
          "a 299-character fault spec is ignored with a warning (%s)", err);

  parse_capturing ("clTest=CL_OUT_OF_RESOURCES@2", err, sizeof err);
  tap_ok (! strcmp (calls (3), ".f.") && ! err[0],
          "@2 fails the second call only, without a warning (%s)", err);
  parse_capturing ("clTest=-5", err, sizeof err);
  tap_ok (! strcmp (calls (2), "f.") && ! err[0],
          "a numeric status fails the first call (%s)", err);
  parse_capturing ("clTest=CL_OUT_OF_RESOURCES", err, sizeof err);
  tap_ok (clfx_fault_take ("clOther") == CL_SUCCESS
            && clfx_fault_take ("clTest") == CL_OUT_OF_RESOURCES && ! err[0],
          "only the named call fails");

  unsetenv ("CLFX_DEV");
  clfx_fault_reset ();
  return tap_done ();
}
