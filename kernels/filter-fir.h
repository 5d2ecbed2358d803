/* SPDX-License-Identifier: GPL-3.0-or-later */
/* filter-fir.h: what the filter family's FIR kernels share
 * (filter-fir.cl, filter-fir-linear.cl, box.cl). */
#ifndef CLFX_FILTER_FIR_H
#define CLFX_FILTER_FIR_H

/* Edge handling none: the weight of the n taps of k inside 0..size - 1
 * for the result at pos (the taps outside read 0). */
inline float
fir_inside (__constant float *k, int n, int pos, int size)
{
  float w = 0.0f;

  for (int i = 0; i < n; i++)
    if (pos - n / 2 + i >= 0 && pos - n / 2 + i < size)
      w += k[i];
  return w;
}

#endif
