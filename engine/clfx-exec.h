/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-exec.h: running a variant's OpenCL path over a whole image, in
 * streamed bands or in tiles, on one device or several (clfx-exec*.c). */
#ifndef CLFX_EXEC_H
#define CLFX_EXEC_H

#include "clfx-context.h"
#include "clfx-graph.h"

/* Runs the variant p selects on ctx (and ctx->peers) from src into dst
 * (allocated by the caller at the plan's size).  Fills the timings (the
 * devices' shares summed, t->total_ms is the caller's) and, where probes
 * is given, the OpenCL side of the probes.  plan->use_sampler is decided
 * here. */
bool clfx_exec (ClfxContext *ctx, const ClfxParams *p, ClfxPlan *plan,
                const ClfxImage *src, ClfxImage *dst, ClfxTimings *t,
                ClfxProbes *probes, ClfxError *error);

/* Whether a run of plan on ctx can make its result over its source, dst
 * sharing src's pixels: the variant allows it (plan->in_place), and the
 * run is one piece on one CPU device that works in host memory and reads
 * the source as a buffer (the kernel forms whose reads plan->in_place
 * speaks of), with no guard band, the result of the source's size and
 * rows.  clfx_exec refuses a dst that shares src's pixels otherwise. */
bool clfx_exec_over_source_ok (const ClfxContext *ctx, const ClfxPlan *plan,
                               const ClfxImage *src);

#endif
