/* SPDX-License-Identifier: GPL-3.0-or-later */
/* highpass-iir.cl: highpass's blur when both axes are IIR: the gaussian
 * block's kernels (gauss-iir.cl), each result pixel mixed with the source
 * as it is stored (highpass-mix.h; `amount` is the contrast), so there is
 * neither a blurred image nor a mix pass.  The run is one piece: result
 * pixel (x, y) is source texel (x, y). */
#include "clfx-io.h"
#include "highpass-mix.h"

#define GAUSS_IIR_STORE(x, y, v)                                             \
  CLFX_STORE (CLFX_DST_X (x), CLFX_DST_Y (y),                                \
              highpass_mixed (clfx_fetch_inside (CLFX_SRC (src), (x), (y)),  \
                              (v), amount))

#include "gauss-iir.cl"
