/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-clock.h: the host's monotonic clock in milliseconds. */
#ifndef CLFX_CLOCK_H
#define CLFX_CLOCK_H

double clfx_now_ms (void);

#endif
