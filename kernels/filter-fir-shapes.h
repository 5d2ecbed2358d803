/* SPDX-License-Identifier: GPL-3.0-or-later */
/* filter-fir-shapes.h: shapes the filter family's FIR passes share
 * between the host (engine/ops/filter-common.c) and their kernels
 * (filter-fir.cl).  Only #defines valid as C and as OpenCL C. */
#ifndef CLFX_FILTER_FIR_SHAPES_H
#define CLFX_FILTER_FIR_SHAPES_H

/* filter_conv_h's work-groups (GPUs): FH_W x FH_R work-items, FHP
 * neighbouring results of a row each. */
#define FH_W 128
#define FH_R 2
#define FHP 2
/* filter_conv_v's (GPUs): F_LANES columns x F_LANES work-items of FPER
 * neighbouring rows each. */
#define F_LANES 16
#define FPER 4
/* The CPU devices' forms (filter_conv_hv, filter_conv_vv): FV
 * neighbouring results of a row per work-item, as two float16. */
#define FV 8

#endif
