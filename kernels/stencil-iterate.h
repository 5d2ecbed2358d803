/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stencil-iterate.h: what the iterated 3 x 3 stencils (noise-reduction,
 * mean-curvature-blur) share: the source loaded once into a float RGBA
 * buffer over the piece grown by the iterations a side, as GEGL reads
 * it, from which the iterations run buffer to buffer
 * (engine/ops/filter-common.c, clfx_filter_iterate).  Included after
 * clfx-io.h. */
#ifndef CLFX_STENCIL_ITERATE_H
#define CLFX_STENCIL_ITERATE_H

/* c / d rounded to the nearest float for whole codes c, whatever the
 * device's division (OpenCL C allows 2.5 ulp, and a GPU's is not
 * correctly rounded: noise-reduction's decisions then differed on 8-bit
 * data): the product with the reciprocal is within an ulp, fma's residual
 * is exact, and the neighbour with the smaller residual is the nearer
 * (c / d is never a tie).  Checked against double for every 8- and
 * 16-bit code, from the product and from either neighbour. */
inline float4
iterate_code_quotient (float4 c, float d, float reciprocal)
{
  float4 q = c * reciprocal, r = fma (-q, (float4) (d), c);
  float4 q1 = nextafter (q, select ((float4) (-INFINITY),
                                    (float4) (INFINITY), r > 0.0f));
  float4 r1 = fma (-q1, (float4) (d), c);
  return select (q, q1, fabs (r1) < fabs (r));
}

/* The source texel as GEGL's float: 8- and 16-bit codes as code / 255
 * (65535) correctly rounded, as babl and the references read them (the
 * kernels' own reads multiply by the reciprocal, an ulp off for some
 * codes; images on GPUs are within 1.5 ulp), in RGBA (gray repeated). */
inline float4
iterate_texel (float4 v)
{
#if CLFX_DEPTH == CLFX_DEPTH_CODE_U8
  v = iterate_code_quotient (rint (v * 255.0f), 255.0f, 1.0f / 255.0f);
#elif CLFX_DEPTH == CLFX_DEPTH_CODE_U16
  v = iterate_code_quotient (rint (v * 65535.0f), 65535.0f,
                             1.0f / 65535.0f);
#endif
  return clfx_rgba (v);
}

/* Buffer position (i, j), sw x sh, is texel (x0 + i, y0 + j), the
 * addressing deciding texels outside the image. */
#define ITERATE_LOAD(src, out, sw, sh, x0, y0)                               \
  do                                                                         \
    {                                                                        \
      int i_ = get_global_id (0), j_ = get_global_id (1);                    \
      if (i_ < (sw) && j_ < (sh))                                            \
        (out)[(size_t) j_ * (sw) + i_]                                       \
          = iterate_texel (clfx_fetch (CLFX_SRC (src), (x0) + i_,            \
                                       (y0) + j_));                          \
    }                                                                        \
  while (0)

#endif
