/* filter.cl: kernels of the filter family that the shared blocks
 * (blocks.cl: load, separable convolution, store) do not cover.
 *
 * filter_iir: GEGL's IIR gaussian along the rows (vertical = 0) or the
 * columns (vertical = 1) of a float RGBA image: Young and van Vliet's
 * third-order recursion forwards, Triggs and Sdika's right boundary, the
 * same recursion backwards.  One work-item per line, sequential along it.
 * The recursion runs in double, as GEGL's does: with sigma 50 its gain for
 * a rounding error is 1 / B, about 3e4, which float state would turn into
 * errors of 1e-3 of the signal.  The forward values are kept as float (one
 * rounding each; the backward pass has gain 1).  Devices without
 * cl_khr_fp64 do not get the kernel; the host says why. */
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

/* coef = (B, a1, a2, a3); m: Triggs and Sdika's 3x3 matrix, row-major, in
 * m.s0-s8; edge_zero: the outside is 0 (GEGL's abyss none), else the
 * line's end texels (GEGL's clamp). */
__kernel void
filter_iir (read_only image2d_t in, write_only image2d_t out,
            __global float4 *forward, int len, int lines, int vertical,
            double4 coef, __global const double *m, int edge_zero)
{
  int l = get_global_id (0);

  if (l >= lines)
    return;

  __global float4 *w = forward + (long) l * len;
  int2             first = vertical ? (int2) (l, 0) : (int2) (0, l);
  int2             step = vertical ? (int2) (0, 1) : (int2) (1, 0);
  double4          iminus = (double4) (0.0), uplus = (double4) (0.0);

  if (! edge_zero)
    {
      iminus = convert_double4 (read_imagef (in, first));
      uplus = convert_double4 (read_imagef (in, first + (len - 1) * step));
    }

  double4 w1 = iminus, w2 = iminus, w3 = iminus;
  for (int i = 0; i < len; i++)
    {
      double4 x = convert_double4 (read_imagef (in, first + i * step));
      double4 v = coef.s0 * x + coef.s1 * w1 + coef.s2 * w2 + coef.s3 * w3;
      w[i] = convert_float4 (v);
      w3 = w2;
      w2 = w1;
      w1 = v;
    }

  /* The three values past the end, from the last three forward values. */
  double4 u0 = w1 - uplus, u1 = w2 - uplus, u2 = w3 - uplus;
  double4 n1 = m[0] * u0 + m[1] * u1 + m[2] * u2 + uplus;
  double4 n2 = m[3] * u0 + m[4] * u1 + m[5] * u2 + uplus;
  double4 n3 = m[6] * u0 + m[7] * u1 + m[8] * u2 + uplus;

  for (int i = len - 1; i >= 0; i--)
    {
      double4 v = coef.s0 * convert_double4 (w[i]) + coef.s1 * n1
                  + coef.s2 * n2 + coef.s3 * n3;
      write_imagef (out, first + i * step, convert_float4 (v));
      n3 = n2;
      n2 = n1;
      n1 = v;
    }
}
#endif
