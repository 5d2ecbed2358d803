/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gauss-iir-image.cl: the gaussian block's IIR along the rows or the
 * columns of a float image into another (clfx_gauss_blur: the runs with
 * one FIR axis and one IIR axis, unsharp's blurs other than its both-axes
 * IIR): GEGL's recursion (iir.h), in double with float forward values, as
 * gauss-iir.cl says why.  A work-item per line, sequential along it.
 * Devices without cl_khr_fp64 get no kernel; the host says why. */
#include "clfx-io.h"

#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#include "iir.h"

#define IIR_D double4
#define IIR_F float4
#define IIR_TO_D convert_double4
#define IIR_TO_F convert_float4

/* vertical = 0 runs the rows, 1 the columns. */
__kernel void
gauss_iir_image (read_only image2d_t in, write_only image2d_t out,
                 __global float4 *forward, int len, int lines, int vertical,
                 double4 coef, __global const double *m, int edge_zero,
                 int interleaved)
{
  int l = get_global_id (0);

  if (l >= lines)
    return;

  int2             first = vertical ? (int2) (l, 0) : (int2) (0, l);
  int2             step = vertical ? (int2) (0, 1) : (int2) (1, 0);
#define READ_IMG(i) read_imagef (in, first + (i) * step)
#define WRITE_IMG(i, v) write_imagef (out, first + (i) * step, convert_float4 (v))
#define FWD IIR_FWD
#define FWD_PUT(i, v) (FWD (i) = (v))
  IIR_LINE (READ_IMG, WRITE_IMG);
#undef FWD
#undef FWD_PUT
#undef READ_IMG
#undef WRITE_IMG
}
#endif
