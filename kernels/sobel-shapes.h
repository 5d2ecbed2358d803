/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sobel-shapes.h: shapes the sobel's host code (engine/ops/sobel.c) and
 * its kernels (sobel.cl) share.  Only #defines valid as C and as OpenCL
 * C. */
#ifndef CLFX_SOBEL_SHAPES_H
#define CLFX_SOBEL_SHAPES_H

/* filter_sobel_l's work-groups (GPUs): SOBEL_W x SOBEL_R work-items,
 * SOBEL_Q rows of a column each. */
#define SOBEL_W 32
#define SOBEL_R 8
#define SOBEL_Q 4

#endif
