/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gauss-shapes.h: shapes the gaussian block's host code
 * (engine/blocks/gauss.c) and its kernels (gauss-iir.cl, iir.h) share.
 * Only #defines valid as C and as OpenCL C. */
#ifndef CLFX_GAUSS_SHAPES_H
#define CLFX_GAUSS_SHAPES_H

/* The segments' work-groups (GPUs): IIR_SEG_LANES work-items, a lane a
 * channel of a line, each group's forward values seg x IIR_SEG_LANES
 * floats of local memory. */
#define IIR_SEG_LANES 32
/* Where R_p starts in a segment table (`tab`): after P, P for the last
 * segment's length, M and M for the last length, 9 doubles each. */
#define IIR_SEG_TAB_R 36

#endif
