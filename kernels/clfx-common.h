/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-common.h: definitions shared by the kernels and the host.
 *
 * This header is compiled twice: as OpenCL C inside every program, and as
 * C11 by the engine's CPU reference.  Anything both paths compute (sample
 * positions, filter weights, interpolation) lives here so the two paths do
 * the same arithmetic in the same order.  Kernels are built with
 * FP_CONTRACT OFF and the host with -ffp-contract=off for the same reason:
 * a fused multiply-add would round differently on one side only. */
#ifndef CLFX_COMMON_H
#define CLFX_COMMON_H

/* Addressing modes, in the order of the PDB choice. */
#define CLFX_ADDR_CLAMP_TO_EDGE 0
#define CLFX_ADDR_CLAMP         1
#define CLFX_ADDR_REPEAT        2
#define CLFX_ADDR_MIRRORED      3
#define CLFX_ADDR_NONE          4
#define CLFX_N_ADDR             5

/* Resampling filters of resize, in the order of the PDB choice. */
#define CLFX_RESAMPLE_NEAREST  0
#define CLFX_RESAMPLE_LINEAR   1
#define CLFX_RESAMPLE_CUBIC    2
#define CLFX_RESAMPLE_LANCZOS3 3
#define CLFX_N_RESAMPLE        4

/* The flags argument that comes with every source image (CLFX_SRC_ARGS in
 * clfx-io.h): the addressing mode in the low bits, and whether the image is
 * a tile whose texels beyond the source were filled in by the host
 * (clfx_address applied per row and column, clfx-graph.c), so that a
 * kernel reads it as it is. */
#define CLFX_SRC_ADDRESSING_MASK 7
#define CLFX_SRC_TILED           8

/* Pixel kernels (copy, resize_sample) handle CLFX_ROWS_PER_ITEM
 * consecutive rows per work-item, a build option the host picks per pixel
 * size (clfx_context_rows_per_item): with one small pixel each, a 16x16
 * work-group ends too soon and work-group scheduling becomes the limit. */
#ifndef CLFX_ROWS_PER_ITEM
#define CLFX_ROWS_PER_ITEM 1
#endif

/* Sample depths: the same numbers as ClfxDepth on the host. */
#define CLFX_DEPTH_CODE_U8    0
#define CLFX_DEPTH_CODE_U16   1
#define CLFX_DEPTH_CODE_HALF  2
#define CLFX_DEPTH_CODE_FLOAT 3

#ifdef __OPENCL_C_VERSION__
#pragma OPENCL FP_CONTRACT OFF
#define CLFX_FN inline
#define CLFX_PI 3.14159265358979323846f
#else
#include <math.h>
#define CLFX_FN static inline
#define CLFX_PI 3.14159265358979323846f
#endif

/* Texel index i of an axis of n texels under an addressing mode, as the
 * OpenCL C spec's nearest filter gives it for a read at the texel's
 * centre: clamp-to-edge and none (whose kernels guard their reads) clamp,
 * repeat wraps, mirrored-repeat reflects (-1 is 0, n is n - 1); -1 means
 * the border colour (clamp, outside).  The kernels and the host's tile
 * gather use this one function, so a tiled run reads the same texels. */
CLFX_FN int
clfx_address (int i, int n, int mode)
{
  if (i >= 0 && i < n)
    return i;
  switch (mode)
    {
    case CLFX_ADDR_CLAMP:
      return -1;
    case CLFX_ADDR_REPEAT:
      i %= n;
      return i < 0 ? i + n : i;
    case CLFX_ADDR_MIRRORED:
      i %= 2 * n;
      i = i < 0 ? i + 2 * n : i;
      return i < n ? i : 2 * n - 1 - i;
    default:
      return i < 0 ? 0 : n - 1;
    }
}

/* Bilinear blend of four texels with weights a (x) and b (y), written as in
 * the OpenCL C spec's CLK_FILTER_LINEAR formula. */
CLFX_FN float
clfx_bilerp (float t00, float t10, float t01, float t11, float a, float b)
{
  return (1.0f - a) * (1.0f - b) * t00 + a * (1.0f - b) * t10
         + (1.0f - a) * b * t01 + a * b * t11;
}

/* Normalized sampling position of output pixel d along one axis.  The
 * design's ((d + 0.5) / n - 0.5) / zoom + 0.5 is rewritten as
 * (d + 0.5) * scale + offset with scale = 1 / (n * zoom) and offset =
 * 0.5 - 0.5 / zoom, both rounded to float once on the host, so that no
 * division (2.5 ulp in OpenCL C) is needed on either path. */
CLFX_FN float
clfx_resize_pos (int d, float scale, float offset)
{
  return ((float) d + 0.5f) * scale + offset;
}

/* Keys cubic with a = -0.5 (Catmull-Rom), support 2. */
CLFX_FN float
clfx_cubic_weight (float x)
{
  x = fabs (x);
  if (x < 1.0f)
    return (1.5f * x - 2.5f) * x * x + 1.0f;
  if (x < 2.0f)
    return ((-0.5f * x + 2.5f) * x - 4.0f) * x + 2.0f;
  return 0.0f;
}

/* Lanczos with 3 lobes, support 3. */
CLFX_FN float
clfx_lanczos3_weight (float x)
{
  float px;

  x = fabs (x);
  if (x < 1e-6f)
    return 1.0f;
  if (x >= 3.0f)
    return 0.0f;
  px = CLFX_PI * x;
  return 3.0f * sin (px) * sin (px / 3.0f) / (px * px);
}

#endif
