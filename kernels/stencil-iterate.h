/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stencil-iterate.h: what the iterated 3 x 3 stencils (noise-reduction,
 * mean-curvature-blur) share: the source loaded once into a float RGBA
 * buffer over the piece grown by the iterations a side, as GEGL reads
 * it, from which the iterations run buffer to buffer
 * (engine/ops/filter-common.c, clfx_filter_iterate).  Included after
 * clfx-io.h. */
#ifndef CLFX_STENCIL_ITERATE_H
#define CLFX_STENCIL_ITERATE_H

/* The source texel as GEGL's float: 8- and 16-bit codes as code / 255
 * (65535) correctly rounded, as babl and the references read them (the
 * kernels' own reads multiply by the reciprocal, an ulp off for some
 * codes; images on GPUs are within 1.5 ulp), in RGBA (gray repeated). */
inline float4
iterate_texel (float4 v)
{
#if CLFX_DEPTH == CLFX_DEPTH_CODE_U8
  v = rint (v * 255.0f) / 255.0f;
#elif CLFX_DEPTH == CLFX_DEPTH_CODE_U16
  v = rint (v * 65535.0f) / 65535.0f;
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
