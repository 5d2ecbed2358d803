/* SPDX-License-Identifier: GPL-3.0-or-later */
/* highpass.cl: gegl:high-pass after the gaussian block's blur of float
 * images (engine/blocks/gauss.c), where the blur is not both axes IIR
 * (highpass-iir.cl runs that).  `in` is the loaded source (premultiplied,
 * canonical layout, with the blur's halo: result pixel (x, y) is texel
 * (x, y) + off), `b` the blur (the result's size). */
#include "clfx-io.h"
#include "highpass-mix.h"

__kernel void
highpass_mix (read_only image2d_t in, read_only image2d_t b, int2 off,
              float contrast, CLFX_DST_ARGS)
{
  int gx = get_global_id (0), gy = get_global_id (1);

  if (gx >= dst_rect.z || gy >= dst_rect.w)
    return;

  int2 p = (int2) (gx, gy);
  CLFX_STORE (CLFX_DST_X (gx), CLFX_DST_Y (gy),
              highpass_mixed (read_imagef (in, p + off), read_imagef (b, p),
                              contrast));
}
