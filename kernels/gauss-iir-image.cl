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

#undef IIR_D
#undef IIR_F
#undef IIR_TO_D
#undef IIR_TO_F
#define IIR_D double16
#define IIR_F float16
#define IIR_TO_D convert_double16
#define IIR_TO_F convert_float16

/* The columns four a work-item (CPU devices): a work-item's loop runs on
 * one core, and a column alone touches a new cache line and page every
 * texel; four neighbouring columns share them (4096 x 4096 float on PoCL:
 * the columns pass 1.6 s a column at a time).  The same recursion per
 * channel, lane by lane.  Past the last column the last one repeats
 * (read, never written); `forward` holds a float16 a row and group. */
__kernel void
gauss_iir_image4 (read_only image2d_t in, write_only image2d_t out,
                  __global float16 *forward, int len, int width,
                  double4 coef, __global const double *m, int edge_zero)
{
  int l = get_global_id (0), lines = (width + 3) / 4, interleaved = 0;

  if (l >= lines)
    return;

  int x0 = 4 * l;
#define COL_(k) min (x0 + (k), width - 1)
#define READ_IMG(i)                                                          \
  (float16) (read_imagef (in, (int2) (COL_ (0), (i))),                       \
             read_imagef (in, (int2) (COL_ (1), (i))),                       \
             read_imagef (in, (int2) (COL_ (2), (i))),                       \
             read_imagef (in, (int2) (COL_ (3), (i))))
#define WRITE_IMG(i, v)                                                      \
  do                                                                         \
    {                                                                        \
      float16 f_ = convert_float16 (v);                                      \
      write_imagef (out, (int2) (x0, (i)), f_.s0123);                        \
      if (x0 + 1 < width)                                                    \
        write_imagef (out, (int2) (x0 + 1, (i)), f_.s4567);                  \
      if (x0 + 2 < width)                                                    \
        write_imagef (out, (int2) (x0 + 2, (i)), f_.s89ab);                  \
      if (x0 + 3 < width)                                                    \
        write_imagef (out, (int2) (x0 + 3, (i)), f_.scdef);                  \
    }                                                                        \
  while (0)
#define FWD IIR_FWD
#define FWD_PUT(i, v) (FWD (i) = (v))
  IIR_LINE (READ_IMG, WRITE_IMG);
#undef FWD
#undef FWD_PUT
#undef READ_IMG
#undef WRITE_IMG
#undef COL_
}
#endif
