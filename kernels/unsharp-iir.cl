/* SPDX-License-Identifier: GPL-3.0-or-later */
/* unsharp-iir.cl: unsharp's blur when both axes are IIR and there is no
 * threshold: the gaussian block's kernels (gauss-iir.cl), each result
 * pixel mixed with the source as it is stored (unsharp-mix.h), so there
 * is neither a blurred image nor a mix pass.  The run is one piece (the
 * IIR reads whole lines): result pixel (x, y) is source texel (x, y). */
#include "clfx-io.h"
#include "unsharp-mix.h"

#define GAUSS_IIR_STORE(x, y, v)                                             \
  CLFX_STORE (CLFX_DST_X (x), CLFX_DST_Y (y),                                \
              unsharp_mixed (clfx_fetch_inside (CLFX_SRC (src), (x), (y)),   \
                             (v), amount))

#include "gauss-iir.cl"
