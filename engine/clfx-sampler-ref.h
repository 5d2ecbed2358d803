/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-sampler-ref.h: read_imagef() as the OpenCL C spec defines it,
 * computed on the CPU.  The GPU path uses the real sampler; this is the
 * independent implementation the parity tests compare it with. */
#ifndef CLFX_SAMPLER_REF_H
#define CLFX_SAMPLER_REF_H

#include <stdbool.h>

#include "clfx-host-image.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct
{
  bool normalized;
  int  addressing; /* CLFX_ADDR_* */
  bool linear;     /* CLK_FILTER_LINEAR */
  /* Not the sampler's: read as the kernels read a straight-alpha source
   * they filter (CLFX_PREMUL), colour multiplied by alpha per texel. */
  bool premultiply;
  /* Not the sampler's either: colour of an sRGB-encoded image is decoded
   * to linear light per texel, before premultiplying and filtering, as the
   * kernels read it (CLFX_SRGB). */
  bool decode;
} ClfxSamplerDesc;

/* The value read_imagef (img, sampler, (float2)(x, y)) returns for an image
 * of img's channel order (CL_R, CL_RG, CL_RGBA): missing channels are 0 and
 * alpha 1.  With CLFX_ADDR_NONE a read outside the image is undefined in
 * OpenCL; here it returns NaN in every channel so a kernel that forgot to
 * guard its reads shows up as a NaN mismatch. */
void clfx_ref_read (const ClfxImage *img, ClfxSamplerDesc s, float x, float y,
                    float out[4]);

/* The texel at integer (i, j), with the border colour outside (0,0,0,0 for
 * formats with alpha, 0,0,0,1 without), as CLK_ADDRESS_CLAMP gives it. */
void clfx_ref_texel (const ClfxImage *img, int i, int j, float out[4]);

/* A result pixel as the kernels' clfx_store writes it: colour divided by
 * alpha again where the path premultiplied, encoded where the data are
 * sRGB-encoded and the path decoded, rounded as clfx_image_set rounds. */
void clfx_ref_store (ClfxImage *dst, int x, int y, float v[4], bool premul,
                     bool encode);

/* A texel as the kernels' clfx_fetch returns it: index i, j addressed with
 * clfx_address (border: 0), decoded and premultiplied as s says. */
void clfx_ref_fetch (const ClfxImage *img, ClfxSamplerDesc s, int i, int j,
                     float out[4]);

#ifdef __cplusplus
}
#endif

#endif
