/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tap.h: a minimal TAP producer for the C tests (meson test protocol
 * 'tap').  Each check prints "ok N - what" or "not ok N - what" plus the
 * details as a diagnostic, and the program's exit status says whether all
 * passed. */
#ifndef CLFX_TAP_H
#define CLFX_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

/* One count for the whole program: a test built from several files
 * numbers and counts the checks of all of them together, each file but
 * main's defining TAP_COUNTED_ELSEWHERE before it includes this header. */
#ifdef TAP_COUNTED_ELSEWHERE
extern int tap_n, tap_failed;
#else
int tap_n, tap_failed;
#endif

static inline bool tap_ok (bool cond, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));
static inline void tap_diag (const char *fmt, ...)
  __attribute__ ((format (printf, 1, 2)));

static inline bool
tap_ok (bool cond, const char *fmt, ...)
{
  va_list ap;
  char    line[2048];

  va_start (ap, fmt);
  vsnprintf (line, sizeof line, fmt, ap);
  va_end (ap);
  /* One TAP line per check: messages may carry a build log. */
  for (char *c = line; *c; c++)
    if (*c == '\n' || *c == '#')
      *c = ' ';
  printf ("%sok %d - %s\n", cond ? "" : "not ", ++tap_n, line);
  fflush (stdout);
  if (! cond)
    tap_failed++;
  return cond;
}

static inline void
tap_diag (const char *fmt, ...)
{
  va_list ap;

  printf ("# ");
  va_start (ap, fmt);
  vprintf (fmt, ap);
  va_end (ap);
  printf ("\n");
}

/* A "1..0 # SKIP" plan tells meson the test was skipped (for TAP tests
 * meson counts exit code 77 as an error).  Under CI
 * (CLFX_REQUIRE_DEVICE=1) a missing device is a failure instead, so a
 * machine without OpenCL can never report green. */
static inline int
tap_skip_all (const char *why)
{
  const char *req = getenv ("CLFX_REQUIRE_DEVICE");

  if (req && *req && *req != '0')
    {
      printf ("1..1\nnot ok 1 - %s (CLFX_REQUIRE_DEVICE is set)\n", why);
      return 1;
    }
  printf ("1..0 # SKIP %s\n", why);
  return 0;
}

static inline int
tap_done (void)
{
  printf ("1..%d\n", tap_n);
  return tap_failed ? 1 : 0;
}

#endif
