/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bilateral-shapes.h: shapes the bilateral's host code
 * (engine/ops/bilateral.c) and its kernels (bilateral.cl) share.  Only
 * #defines valid as C and as OpenCL C. */
#ifndef CLFX_BILATERAL_SHAPES_H
#define CLFX_BILATERAL_SHAPES_H

/* bilateral_l's work-groups (GPUs): BIL_T x BIL_T work-items. */
#define BIL_T 16
/* bilateral_v (CPU devices): BIL_V results of a row per work-item, for
 * radii up to BIL_VR. */
#define BIL_V  8
#define BIL_VR 8

#endif
