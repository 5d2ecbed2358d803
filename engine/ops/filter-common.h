/* filter-common.h: what the filter family's variants share (filter.c). */
#ifndef CLFX_FILTER_COMMON_H
#define CLFX_FILTER_COMMON_H

#include "../blocks/clfx-blocks.h"

/* Every edge handling but none (taps left out); the refusal names the
 * variant. */
bool   clfx_filter_edges_ok (int addressing, const char *variant,
                             ClfxError *error);
/* The report's name of the variant (the filter choice's nick). */
const char *clfx_filter_describe (const ClfxParams *p);
/* sampler-filter linear is for the FIR blurs (two taps a fetch): other
 * variants refuse it, naming themselves. */
bool   clfx_filter_nearest_ok (int sampler_filter, const char *variant,
                               ClfxError *error);
/* The largest finite |value| of the source in linear light (alpha
 * included) and, when min_alpha is not NULL, its smallest alpha (1
 * without alpha). */
double clfx_filter_max_abs (const ClfxImage *src, double *min_alpha);

#endif
