/* SPDX-License-Identifier: GPL-3.0-or-later */
/* convolve-shapes.h: shapes the convolution's host code
 * (engine/ops/convolve.c) and its kernels (convolve.cl) share.  Only
 * #defines valid as C and as OpenCL C. */
#ifndef CLFX_CONVOLVE_SHAPES_H
#define CLFX_CONVOLVE_SHAPES_H

/* convolve_l's work-groups (GPUs): CONV_T x CONV_T work-items. */
#define CONV_T 16
/* convolve_v (CPU devices): CONV_V results of a row per work-item. */
#define CONV_V 8

#endif
