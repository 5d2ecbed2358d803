/* SPDX-License-Identifier: GPL-3.0-or-later */
/* filter-cases.h: what the two files of the filter's parity test (one
 * executable, test-filter) share.  test-filter.c holds the sweep of cases
 * and main, which runs the checks of test-filter-extremes.c too: those at
 * the family's limits, each a test of its own rather than a case of the
 * sweep. */
#ifndef CLFX_TEST_FILTER_CASES_H
#define CLFX_TEST_FILTER_CASES_H

#include <stdbool.h>

#include "clfx-context.h"
#include "clfx-error.h"
#include "clfx-params.h"

/* A filter run: its name in the TAP line and its parameters. */
typedef struct
{
  const char *name;
  const char *args[14]; /* name, value pairs, NULL-terminated */
} Case;

/* Every edge handling of the family (test-filter.c). */
extern const char *const edges[5];

/* The box whose CPU form runs sums (box.c's BOX_RUNS_FROM), one of the
 * sweep's cases (test-filter.c). */
extern const Case *const box_runs_case;

/* The parameters of case c with edge handling edge into p; false with e
 * set where one is refused (test-filter.c). */
bool params_for (const Case *c, const char *edge, ClfxParams *p,
                 ClfxError *e);

/* The checks at the limits (test-filter-extremes.c), on ctx's device; each
 * makes its own TAP lines.  The refusals need no device. */
void folded_pieces (ClfxContext *ctx);
void bilateral_nonfinite (ClfxContext *ctx);
void box_nonfinite (ClfxContext *ctx);
void box_no_drift (ClfxContext *ctx);
void extremes (ClfxContext *ctx);
void refusals (void);

#endif
