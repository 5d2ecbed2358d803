/* SPDX-License-Identifier: GPL-3.0-or-later */
/* motion-blur-shapes.h: what the motion blurs' host code
 * (engine/ops/motion-blur-*.c) and their kernels share.  Only #defines
 * valid as C and as OpenCL C. */
#ifndef CLFX_MOTION_BLUR_SHAPES_H
#define CLFX_MOTION_BLUR_SHAPES_H

/* GEGL's step counts (motion-blur-zoom.c, motion-blur-circular.c): past
 * NOMINAL steps a path takes NOMINAL and the whole part of the root of
 * the rest, the zoom's at most MAX. */
#define MOTION_ZOOM_NOMINAL_STEPS 100
#define MOTION_ZOOM_MAX_STEPS     200
#define MOTION_CIRCULAR_NOMINAL_STEPS 100
/* GEGL's arc length: radius times the angle times this (its "SQRT_2"). */
#define MOTION_CIRCULAR_ARC 1.41

#endif
