/* SPDX-License-Identifier: GPL-3.0-or-later */
/* box-shapes.h: shapes the box's host code (engine/ops/box.c) and its
 * running sums (box.cl) share.  Only #defines valid as C and as OpenCL
 * C. */
#ifndef CLFX_BOX_SHAPES_H
#define CLFX_BOX_SHAPES_H

/* A running sum starts afresh at every BOX_RUN-th pixel of the whole
 * image along its axis. */
#define BOX_RUN 32
/* Results per work-item and row of filter_box_vr: a strip of BV pixels. */
#define BV 16

#endif
