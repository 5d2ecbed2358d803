/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-sampler.c: the OpenCL C spec's rules for samplers, and the
 * samplers of a context (made once each). */
#include "clfx-context.h"
#include "clfx-graph.h"

#include "../kernels/clfx-common.h"

bool
clfx_sampler_check (bool normalized, int addressing, ClfxError *error)
{
  static const char *names[] = { "clamp-to-edge", "clamp", "repeat",
                                 "mirrored-repeat", "none" };

  if (addressing < 0 || addressing >= CLFX_N_ADDR)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "unknown addressing mode %d", addressing);
  if (! normalized
      && (addressing == CLFX_ADDR_REPEAT || addressing == CLFX_ADDR_MIRRORED))
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "addressing '%s' needs normalized coordinates: "
                           "the OpenCL C spec defines CLK_ADDRESS_REPEAT and "
                           "CLK_ADDRESS_MIRRORED_REPEAT only with "
                           "CLK_NORMALIZED_COORDS_TRUE", names[addressing]);
  return true;
}

cl_sampler
clfx_context_sampler (ClfxContext *ctx, bool normalized, int addressing,
                      bool linear, ClfxError *error)
{
  static const cl_addressing_mode modes[CLFX_N_ADDR] = {
    CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP, CL_ADDRESS_REPEAT,
    CL_ADDRESS_MIRRORED_REPEAT, CL_ADDRESS_NONE
  };
  cl_sampler *slot;
  cl_sampler  s = NULL;

  if (! clfx_sampler_check (normalized, addressing, error))
    return NULL;
  slot = &ctx->samplers[normalized][addressing][linear];
  if (*slot)
    return *slot;
  CLFX_CREATE (s, error, out, "sampler", clCreateSampler, ctx->context,
               normalized ? CL_TRUE : CL_FALSE, modes[addressing],
               linear ? CL_FILTER_LINEAR : CL_FILTER_NEAREST);
  *slot = s;
out:
  return s;
}
