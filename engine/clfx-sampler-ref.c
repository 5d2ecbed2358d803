/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-sampler-ref.c: the OpenCL C spec's image addressing and filtering
 * ("Addressing and filter modes" in the OpenCL C specification, 1.2 section
 * 8.2), written out per mode as a table of functions the way the OpenCL CTS
 * does it, so each mode can be read against the spec's formulas. */
#include "clfx-sampler-ref.h"

#include <float.h>
#include <math.h>

#include "../kernels/clfx-common.h"

/* One axis of a nearest lookup: the texel index, or a flag. */
#define OUTSIDE_BORDER  (-0x40000000) /* CLAMP: border colour */
#define OUTSIDE_UNDEF   (-0x40000001) /* NONE: undefined read */

typedef int (*NearestFn) (float s, int size, bool normalized);
typedef void (*LinearFn) (float s, int size, bool normalized, int *i0,
                          int *i1, float *a);

static inline float
to_texels (float s, int size, bool normalized)
{
  return normalized ? s * (float) size : s;
}

static inline float
frac (float x)
{
  return x - floorf (x);
}

/* ---- CLK_FILTER_NEAREST ------------------------------------------------ */

static int
nearest_clamp_to_edge (float s, int size, bool normalized)
{
  int i = (int) floorf (to_texels (s, size, normalized));
  return i < 0 ? 0 : i > size - 1 ? size - 1 : i;
}

static int
nearest_clamp (float s, int size, bool normalized)
{
  float u = to_texels (s, size, normalized);
  /* i = clamp (floor (u), -1, size): -1 and size are the border */
  if (u < 0.0f || u >= (float) size)
    return OUTSIDE_BORDER;
  return (int) floorf (u);
}

static int
nearest_none (float s, int size, bool normalized)
{
  float u = to_texels (s, size, normalized);
  if (u < 0.0f || u >= (float) size)
    return OUTSIDE_UNDEF;
  return (int) floorf (u);
}

static int
nearest_repeat (float s, int size, bool normalized)
{
  float u = (s - floorf (s)) * (float) size;
  int   i = (int) floorf (u);
  (void) normalized;
  if (i > size - 1)
    i = i - size;
  return i;
}

static int
nearest_mirrored (float s, int size, bool normalized)
{
  float sp = 2.0f * rintf (0.5f * s);
  float u;
  int   i;
  (void) normalized;
  sp = fabsf (s - sp);
  u = sp * (float) size;
  i = (int) floorf (u);
  return i < size - 1 ? i : size - 1;
}

/* ---- CLK_FILTER_LINEAR ------------------------------------------------- */

static void
linear_clamp_to_edge (float s, int size, bool normalized, int *i0, int *i1,
                      float *a)
{
  float u = to_texels (s, size, normalized) - 0.5f;
  int   f = (int) floorf (u);
  *a = frac (u);
  *i0 = f < 0 ? 0 : f > size - 1 ? size - 1 : f;
  *i1 = f + 1 < 0 ? 0 : f + 1 > size - 1 ? size - 1 : f + 1;
}

static void
linear_clamp (float s, int size, bool normalized, int *i0, int *i1, float *a)
{
  float u = to_texels (s, size, normalized) - 0.5f;
  int   f = (int) floorf (u);
  *a = frac (u);
  /* clamp to [-1, size]; out of [0, size-1] is the border colour */
  *i0 = f < 0 || f > size - 1 ? OUTSIDE_BORDER : f;
  *i1 = f + 1 < 0 || f + 1 > size - 1 ? OUTSIDE_BORDER : f + 1;
}

static void
linear_none (float s, int size, bool normalized, int *i0, int *i1, float *a)
{
  float u = to_texels (s, size, normalized) - 0.5f;
  int   f = (int) floorf (u);
  *a = frac (u);
  *i0 = f < 0 || f > size - 1 ? OUTSIDE_UNDEF : f;
  *i1 = f + 1 < 0 || f + 1 > size - 1 ? OUTSIDE_UNDEF : f + 1;
}

static void
linear_repeat (float s, int size, bool normalized, int *i0, int *i1, float *a)
{
  float u = (s - floorf (s)) * (float) size;
  int   f = (int) floorf (u - 0.5f);
  (void) normalized;
  *a = frac (u - 0.5f);
  *i0 = f < 0 ? size + f : f;
  *i1 = f + 1 > size - 1 ? f + 1 - size : f + 1;
}

static void
linear_mirrored (float s, int size, bool normalized, int *i0, int *i1,
                 float *a)
{
  float sp = 2.0f * rintf (0.5f * s);
  float u;
  int   f;
  (void) normalized;
  sp = fabsf (s - sp);
  u = sp * (float) size;
  f = (int) floorf (u - 0.5f);
  *a = frac (u - 0.5f);
  *i0 = f < 0 ? 0 : f;
  *i1 = f + 1 > size - 1 ? size - 1 : f + 1;
}

/* Indexed by CLFX_ADDR_*. */
static const NearestFn nearest_fns[CLFX_N_ADDR] = {
  nearest_clamp_to_edge, nearest_clamp, nearest_repeat, nearest_mirrored,
  nearest_none,
};
static const LinearFn linear_fns[CLFX_N_ADDR] = {
  linear_clamp_to_edge, linear_clamp, linear_repeat, linear_mirrored,
  linear_none,
};

void
clfx_ref_texel (const ClfxImage *img, int i, int j, float out[4])
{
  out[0] = out[1] = out[2] = 0.0f;
  out[3] = img->channels == 4 ? 0.0f : 1.0f;
  if (i < 0 || j < 0 || i >= img->width || j >= img->height)
    return;
  for (int c = 0; c < img->channels; c++)
    out[c] = clfx_image_get (img, i, j, c);
  if (img->channels != 4)
    out[3] = 1.0f;
}

static void
fetch (const ClfxImage *img, ClfxSamplerDesc s, int i, int j, float out[4])
{
  if (i == OUTSIDE_UNDEF || j == OUTSIDE_UNDEF)
    {
      out[0] = out[1] = out[2] = out[3] = NAN;
      return;
    }
  /* OUTSIDE_BORDER is negative: clfx_ref_texel returns the border. */
  clfx_ref_texel (img, i, j, out);
  /* As clfx_decode() in clfx-io.h: colour channels only. */
  if (s.decode && img->transfer == CLFX_TRC_SRGB && i >= 0 && j >= 0)
    for (int c = 0; c < img->channels; c++)
      if (clfx_image_is_colour (img, c))
        out[c] = (float) clfx_srgb_to_linear (out[c]);
  /* As clfx_premul() in clfx-io.h: gray+alpha is (gray, alpha, 0, 1). */
  if (s.premultiply && img->channels == 4)
    for (int c = 0; c < 3; c++)
      out[c] *= out[3];
  else if (s.premultiply && img->channels == 2)
    out[0] *= out[1];
}

void
clfx_ref_fetch (const ClfxImage *img, ClfxSamplerDesc s, int i, int j,
                float out[4])
{
  int mode = s.addressing == CLFX_ADDR_NONE ? CLFX_ADDR_CLAMP_TO_EDGE
                                            : s.addressing;

  i = clfx_address (i, img->width, mode);
  j = clfx_address (j, img->height, mode);
  if (i < 0 || j < 0)
    i = j = OUTSIDE_BORDER;
  fetch (img, s, i, j, out);
}

void
clfx_ref_read (const ClfxImage *img, ClfxSamplerDesc s, float x, float y,
               float out[4])
{
  int addr = s.addressing;

  if (addr < 0 || addr >= CLFX_N_ADDR
      || (! s.normalized
          && (addr == CLFX_ADDR_REPEAT || addr == CLFX_ADDR_MIRRORED)))
    {
      /* Forbidden by the spec; callers refuse it before they get here. */
      out[0] = out[1] = out[2] = out[3] = NAN;
      return;
    }
  if (! s.linear)
    {
      fetch (img, s, nearest_fns[addr] (x, img->width,
                                                    s.normalized),
             nearest_fns[addr] (y, img->height, s.normalized), out);
      return;
    }
  {
    int   i0, i1, j0, j1;
    float a, b, t00[4], t10[4], t01[4], t11[4];

    linear_fns[addr] (x, img->width, s.normalized, &i0, &i1, &a);
    linear_fns[addr] (y, img->height, s.normalized, &j0, &j1, &b);
    fetch (img, s, i0, j0, t00);
    fetch (img, s, i1, j0, t10);
    fetch (img, s, i0, j1, t01);
    fetch (img, s, i1, j1, t11);
    for (int c = 0; c < 4; c++)
      out[c] = clfx_bilerp (t00[c], t10[c], t01[c], t11[c], a, b);
  }
}

void
clfx_ref_store (ClfxImage *dst, int x, int y, float v[4], bool premul,
                bool encode)
{
  int   n = dst->channels == 4 ? 3 : 1;
  float a = v[n];

  /* As clfx_unpremul: a finite colour's quotient past FLT_MAX clamped. */
  for (int c = 0; premul && c < n; c++)
    {
      float q = a > 0.0f ? v[c] / a : 0.0f;
      v[c] = isfinite (v[c]) ? fminf (fmaxf (q, -FLT_MAX), FLT_MAX) : q;
    }
  for (int c = 0; c < dst->channels; c++)
    {
      if (encode)
        clfx_image_set_linear (dst, x, y, c, v[c]);
      else
        clfx_image_set (dst, x, y, c, v[c]);
    }
}
