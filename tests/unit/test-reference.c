/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-reference.c: the CPU reference against values computed by hand
 * from the OpenCL C spec's addressing and filter formulas, on tiny images
 * where every expected number is exact in binary floating point. */
#define _GNU_SOURCE /* M_PI */
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tap.h"
#include "clfx-common.h"
#include "clfx-srgb.h"
#include "clfx-tolerance.h"
#include "clfx-host-image.h"
#include "clfx-sampler-ref.h"
#include "clfx-run.h"
#include "clfx-json.h"
#include "clfx-validate.h"
#include "clfx-graph.h"
#include "clfx-program.h"

static ClfxImage row4;  /* 4x1 gray float: 10 20 30 40 */
static ClfxImage quad;  /* 2x2 RGBA u8 */

static void
check_read (ClfxSamplerDesc s, float x, float expect, const char *what)
{
  float v[4];

  clfx_ref_read (&row4, s, x, 0.5f, v);
  if (isnan (expect))
    tap_ok (isnan (v[0]), "%s: x=%g is undefined (NaN poison), got %g", what,
            x, v[0]);
  else
    tap_ok (v[0] == expect && v[3] == 1.0f, "%s: x=%g -> %g (got %g, a %g)",
            what, x, expect, v[0], v[3]);
}

static void
test_nearest (void)
{
  ClfxSamplerDesc edge = { false, CLFX_ADDR_CLAMP_TO_EDGE, false, false, false };
  ClfxSamplerDesc clamp = { false, CLFX_ADDR_CLAMP, false, false, false };
  ClfxSamplerDesc none = { false, CLFX_ADDR_NONE, false, false, false };
  ClfxSamplerDesc rep = { true, CLFX_ADDR_REPEAT, false, false, false };
  ClfxSamplerDesc mir = { true, CLFX_ADDR_MIRRORED, false, false, false };
  ClfxSamplerDesc edge_n = { true, CLFX_ADDR_CLAMP_TO_EDGE, false, false, false };

  check_read (edge, -0.5f, 10, "nearest clamp-to-edge");
  check_read (edge, 0.0f, 10, "nearest clamp-to-edge");
  check_read (edge, 3.99f, 40, "nearest clamp-to-edge");
  check_read (edge, 4.0f, 40, "nearest clamp-to-edge");
  check_read (edge, 7.0f, 40, "nearest clamp-to-edge");
  check_read (edge_n, 0.625f, 30, "nearest clamp-to-edge normalized");
  check_read (clamp, -0.5f, 0, "nearest clamp (border)");
  check_read (clamp, 4.0f, 0, "nearest clamp (border)");
  check_read (clamp, 3.5f, 40, "nearest clamp");
  check_read (none, 1.5f, 20, "nearest none");
  check_read (none, -0.5f, NAN, "nearest none outside");
  check_read (rep, 1.125f, 10, "nearest repeat");
  check_read (rep, -0.125f, 40, "nearest repeat");
  check_read (rep, 2.0f, 10, "nearest repeat");
  check_read (mir, 1.125f, 40, "nearest mirrored-repeat");
  check_read (mir, -0.125f, 10, "nearest mirrored-repeat");
  check_read (mir, 1.0f, 40, "nearest mirrored-repeat at the edge");
  check_read (mir, 1.375f, 30, "nearest mirrored-repeat");
}

static void
test_linear (void)
{
  ClfxSamplerDesc edge = { false, CLFX_ADDR_CLAMP_TO_EDGE, true, false, false };
  ClfxSamplerDesc clamp = { false, CLFX_ADDR_CLAMP, true, false, false };
  ClfxSamplerDesc none = { false, CLFX_ADDR_NONE, true, false, false };
  ClfxSamplerDesc rep = { true, CLFX_ADDR_REPEAT, true, false, false };
  ClfxSamplerDesc mir = { true, CLFX_ADDR_MIRRORED, true, false, false };

  check_read (edge, 1.0f, 15, "linear clamp-to-edge");
  check_read (edge, 0.25f, 10, "linear clamp-to-edge");
  check_read (edge, 3.75f, 40, "linear clamp-to-edge");
  check_read (edge, 2.25f, 27.5f, "linear clamp-to-edge");
  check_read (clamp, 0.25f, 7.5f, "linear clamp (border blend)");
  check_read (clamp, 4.25f, 10, "linear clamp (border blend)");
  check_read (none, 0.25f, NAN, "linear none, footprint outside");
  check_read (rep, 0.0f, 25, "linear repeat wraps 40|10");
  check_read (rep, 1.0f, 25, "linear repeat wraps 40|10");
  check_read (rep, 0.5f, 25, "linear repeat");
  check_read (mir, 0.0f, 10, "linear mirrored-repeat");
  check_read (mir, -0.125f, 10, "linear mirrored-repeat");
  check_read (mir, 1.125f, 40, "linear mirrored-repeat");
  check_read (mir, -0.3125f, 17.5f, "linear mirrored-repeat");
}

static void
test_2d_and_border (void)
{
  ClfxSamplerDesc lin = { false, CLFX_ADDR_CLAMP_TO_EDGE, true, false, false };
  ClfxSamplerDesc clamp = { false, CLFX_ADDR_CLAMP, false, false, false };
  float           v[4];

  clfx_ref_read (&quad, lin, 1.0f, 1.0f, v);
  tap_ok (v[0] == 0.5f && v[1] == 0.5f && v[2] == 0.5f && v[3] == 0.75f,
          "2D linear at the shared corner averages four texels: "
          "(%g %g %g %g)", v[0], v[1], v[2], v[3]);
  lin.addressing = CLFX_ADDR_NONE;
  clfx_ref_read (&quad, lin, 1.0f, 1.0f, v);
  tap_ok (v[0] == 0.5f && v[3] == 0.75f,
          "linear none with the whole footprint inside is defined");
  clfx_ref_read (&quad, clamp, -1.0f, 0.5f, v);
  tap_ok (v[0] == 0 && v[1] == 0 && v[2] == 0 && v[3] == 0,
          "CLAMP border of an RGBA image is (0,0,0,0)");
  clfx_ref_read (&row4, clamp, -1.0f, 0.5f, v);
  tap_ok (v[0] == 0 && v[3] == 1.0f,
          "CLAMP border of a format without alpha has alpha 1");
}

static bool
resize_row (const float *in, int n_in, float *out, int n_out,
            const char *filter, const char *addressing, const char *zoom)
{
  ClfxImage  src, dst;
  ClfxParams p;
  ClfxError  e = { 0 };
  char       w[16];
  bool       ok;

  clfx_host_image_alloc (&src, n_in, 1, 1, CLFX_DEPTH_FLOAT, &e);
  clfx_host_image_alloc (&dst, n_out, 1, 1, CLFX_DEPTH_FLOAT, &e);
  for (int i = 0; i < n_in; i++)
    clfx_image_set (&src, i, 0, 0, in[i]);
  snprintf (w, sizeof w, "%d", n_out);
  clfx_params_defaults (&clfx_family_resize, &p);
  ok = clfx_params_set (&p, "width", w, &e)
       && clfx_params_set (&p, "height", "1", &e)
       && clfx_params_set (&p, "filter", filter, &e)
       && clfx_params_set (&p, "addressing", addressing, &e)
       && clfx_params_set (&p, "zoom-x", zoom, &e)
       && clfx_reference_into (&p, &src, &dst, &e);
  if (! ok)
    tap_diag ("resize failed: %s", e.message);
  for (int i = 0; ok && i < n_out; i++)
    out[i] = clfx_image_get (&dst, i, 0, 0);
  clfx_host_image_free (&src);
  clfx_host_image_free (&dst);
  return ok;
}

static void
test_resize (void)
{
  float in2[2] = { 0, 1 }, out[64], alt[64];
  bool  ok;

  ok = resize_row (in2, 2, out, 4, "nearest", "clamp-to-edge", "1");
  tap_ok (ok && out[0] == 0 && out[1] == 0 && out[2] == 1 && out[3] == 1,
          "resize nearest 2 -> 4: 0 0 1 1");
  ok = resize_row (in2, 2, out, 4, "linear", "clamp-to-edge", "1");
  tap_ok (ok && out[0] == 0 && out[1] == 0.25f && out[2] == 0.75f
            && out[3] == 1,
          "resize linear 2 -> 4: 0 .25 .75 1 (got %g %g %g %g)", out[0],
          out[1], out[2], out[3]);
  ok = resize_row (in2, 2, out, 4, "nearest", "clamp", "0.5");
  tap_ok (ok && out[0] == 0 && out[1] == 0 && out[2] == 1 && out[3] == 0,
          "resize zoom 0.5 clamp: border outside, source inside "
          "(got %g %g %g %g)", out[0], out[1], out[2], out[3]);
  ok = resize_row (in2, 2, out, 4, "nearest", "repeat", "0.5");
  tap_ok (ok && out[0] == 1 && out[1] == 0 && out[2] == 1 && out[3] == 0,
          "resize zoom 0.5 repeat tiles the source (got %g %g %g %g)",
          out[0], out[1], out[2], out[3]);
  ok = resize_row (in2, 2, out, 4, "linear", "none", "0.5");
  tap_ok (ok && out[0] == 0 && out[1] == 0 && out[2] == 1 && out[3] == 0
            && ! isnan (out[0]),
          "resize addressing none: outside is 0, inside reads are guarded "
          "(got %g %g %g %g)", out[0], out[1], out[2], out[3]);

  for (int i = 0; i < 64; i++)
    alt[i] = (float) (i & 1);
  ok = resize_row (alt, 64, out, 8, "nearest", "clamp-to-edge", "1");
  tap_ok (ok && (out[3] == 0 || out[3] == 1),
          "nearest 8x shrink of 0101.. aliases to 0 or 1 (no smoothing)");
  for (int f = 0; f < 3; f++)
    {
      static const char *names[] = { "linear", "cubic", "lanczos3" };
      double worst = 0;
      ok = resize_row (alt, 64, out, 8, names[f], "clamp-to-edge", "1");
      for (int i = 1; i < 7; i++)
        worst = fmax (worst, fabs (out[i] - 0.5));
      tap_ok (ok && worst < 0.05,
              "%s 8x shrink of 0101.. is antialiased to ~0.5 (worst |v-0.5| "
              "%g)", names[f], worst);
    }
  {
    float flat[7] = { 3, 3, 3, 3, 3, 3, 3 };
    ok = resize_row (flat, 7, out, 3, "lanczos3", "clamp-to-edge", "1");
    tap_ok (ok && fabs (out[0] - 3) < 1e-5 && fabs (out[1] - 3) < 1e-5
              && fabs (out[2] - 3) < 1e-5,
            "lanczos3 keeps a constant (weights sum to 1)");
  }
}

/* Red opaque beside blue fully transparent, RGBA float, resized to
 * n_out x 1 with filter; straight: whether alpha is straight. */
static bool
resize_red_blue (bool straight, const char *filter, int n_out, float *out)
{
  ClfxImage  src, dst;
  ClfxParams p;
  ClfxError  e = { 0 };
  char       w[16];
  bool       ok;
  static const float px[2][4] = { { 1, 0, 0, 1 }, { 0, 0, 1, 0 } };

  clfx_host_image_alloc (&src, 2, 1, 4, CLFX_DEPTH_FLOAT, &e);
  src.straight_alpha = straight;
  for (int i = 0; i < 2; i++)
    for (int c = 0; c < 4; c++)
      clfx_image_set (&src, i, 0, c, px[i][c]);
  snprintf (w, sizeof w, "%d", n_out);
  clfx_params_defaults (&clfx_family_resize, &p);
  ok = clfx_host_image_alloc (&dst, n_out, 1, 4, CLFX_DEPTH_FLOAT, &e)
       && clfx_params_set (&p, "width", w, &e)
       && clfx_params_set (&p, "height", "1", &e)
       && clfx_params_set (&p, "filter", filter, &e)
       && clfx_reference_into (&p, &src, &dst, &e);
  for (int i = 0; ok && i < n_out * 4; i++)
    out[i] = clfx_image_get (&dst, i / 4, 0, i % 4);
  clfx_host_image_free (&src);
  clfx_host_image_free (&dst);
  return ok;
}

static void
test_straight_alpha (void)
{
  float o[16];
  bool  ok;

  /* 2 -> 1 samples halfway between the two texels. */
  ok = resize_red_blue (true, "linear", 1, o);
  tap_ok (ok && o[0] == 1 && o[1] == 0 && o[2] == 0 && o[3] == 0.5f,
          "straight alpha, linear: half-covered red, no blue from the "
          "transparent texel (got %g %g %g %g)", o[0], o[1], o[2], o[3]);
  ok = resize_red_blue (false, "linear", 1, o);
  tap_ok (ok && o[0] == 0.5f && o[2] == 0.5f && o[3] == 0.5f,
          "channels filtered alike: the blue under alpha 0 bleeds in (got "
          "%g %g %g %g)", o[0], o[1], o[2], o[3]);
  ok = resize_red_blue (true, "cubic", 1, o);
  tap_ok (ok && fabsf (o[0] - 1) < 1e-6f && o[2] == 0
            && fabsf (o[3] - 0.5f) < 1e-6f,
          "straight alpha, cubic: the same (got %g %g %g %g)", o[0], o[1],
          o[2], o[3]);
  /* Nearest copies texels: a transparent texel keeps its colour. */
  ok = resize_red_blue (true, "nearest", 4, o);
  tap_ok (ok && o[8] == 0 && o[10] == 1 && o[11] == 0 && o[0] == 1,
          "straight alpha, nearest 2 -> 4: texels copied as they are, "
          "colour under alpha 0 too (got %g %g %g %g)", o[8], o[9], o[10],
          o[11]);
  /* A transparent result has no colour. */
  {
    ClfxImage  src, dst;
    ClfxParams p;
    ClfxError  e = { 0 };
    clfx_host_image_alloc (&src, 2, 1, 2, CLFX_DEPTH_U8, &e);
    clfx_host_image_alloc (&dst, 1, 1, 2, CLFX_DEPTH_U8, &e);
    src.straight_alpha = true;
    clfx_image_set (&src, 0, 0, 0, 1.0f); /* white, transparent */
    clfx_image_set (&src, 1, 0, 0, 1.0f);
    clfx_params_defaults (&clfx_family_resize, &p);
    ok = clfx_params_set (&p, "width", "1", &e)
         && clfx_params_set (&p, "height", "1", &e)
         && clfx_params_set (&p, "filter", "linear", &e)
         && clfx_reference_into (&p, &src, &dst, &e);
    tap_ok (ok && clfx_image_get (&dst, 0, 0, 0) == 0
              && clfx_image_get (&dst, 0, 0, 1) == 0,
            "gray+alpha: where the result's alpha is 0 its colour is 0");
    clfx_host_image_free (&src);
    clfx_host_image_free (&dst);
  }
  /* Validation of straight alpha compares colour times alpha. */
  {
    ClfxImage      ex, ac;
    ClfxValidation v;
    ClfxError      e = { 0 };
    clfx_host_image_alloc (&ex, 1, 1, 4, CLFX_DEPTH_FLOAT, &e);
    clfx_host_image_alloc (&ac, 1, 1, 4, CLFX_DEPTH_FLOAT, &e);
    ex.straight_alpha = ac.straight_alpha = true;
    clfx_image_set (&ex, 0, 0, 0, 1.0f);
    clfx_image_set (&ac, 0, 0, 0, 0.5f);
    clfx_image_set (&ex, 0, 0, 3, 0.001f);
    clfx_image_set (&ac, 0, 0, 3, 0.001f);
    clfx_validate (&ex, &ac, 1e-3, 0, &v);
    tap_ok (v.passed && v.max_abs < 0.001,
            "straight alpha: a colour difference under alpha 0.001 is "
            "within 1e-3 (compared premultiplied: %g)", v.max_abs);
    clfx_image_set (&ex, 0, 0, 3, 1.0f);
    clfx_image_set (&ac, 0, 0, 3, 1.0f);
    clfx_validate (&ex, &ac, 1e-3, 0, &v);
    tap_ok (! v.passed && v.worst.channel == 0 && v.max_abs == 0.5,
            "straight alpha: the same difference in an opaque pixel fails");
    clfx_host_image_free (&ex);
    clfx_host_image_free (&ac);
  }
}

static void
test_params (void)
{
  ClfxParams p;
  ClfxError  e = { 0 };

  clfx_params_defaults (&clfx_family_resize, &p);
  tap_ok (! clfx_params_set (&p, "addressing", "wrap", &e)
            && strstr (e.message, "mirrored-repeat"),
          "unknown addressing name is refused, listing the choices: %s",
          e.message);
  memset (&e, 0, sizeof e);
  tap_ok (! clfx_params_set (&p, "width", "0", &e)
            && strstr (e.message, "out of range"),
          "width 0 is refused: %s", e.message);
  memset (&e, 0, sizeof e);
  clfx_params_set (&p, "addressing", "repeat", &e);
  clfx_params_set (&p, "normalized-coords", "false", &e);
  {
    int       w, h;
    ClfxImage src = { 4, 4, 4, CLFX_DEPTH_U8, 16, NULL, false,
                      CLFX_TRC_SRGB, NULL, 0, 0, 0, 0 };
    tap_ok (! clfx_run_check (&p, &src, &w, &h, &e)
              && e.code == CLFX_ERR_INVALID
              && strstr (e.message, "normalized coordinates"),
            "repeat with unnormalized coordinates is refused: %s",
            e.message);
  }
  memset (&e, 0, sizeof e);
  tap_ok (! clfx_sampler_check (false, CLFX_ADDR_MIRRORED, &e)
            && clfx_sampler_check (true, CLFX_ADDR_MIRRORED, &e)
            && clfx_sampler_check (false, CLFX_ADDR_NONE, &e),
          "only repeat/mirrored-repeat need normalized coordinates");
}

static void
test_half_and_rounding (void)
{
  ClfxImage img;
  ClfxError e = { 0 };

  tap_ok (clfx_half_from_float (1.0f) == 0x3c00
            && clfx_half_from_float (65504.0f) == 0x7bff
            && clfx_half_from_float (65520.0f) == 0x7c00
            && clfx_half_from_float (5.9604645e-8f) == 0x0001
            && clfx_half_from_float (1.00048828125f) == 0x3c00 /* tie: even */
            && clfx_half_from_float (1.00146484375f) == 0x3c02,
          "binary16 conversion rounds to nearest even, overflows to Inf");
  tap_ok (clfx_half_to_float (0x3555) == 0.333251953125f
            && isinf (clfx_half_to_float (0x7c00))
            && isnan (clfx_half_to_float (0x7e00)),
          "binary16 to float is exact");
  clfx_host_image_alloc (&img, 4, 1, 1, CLFX_DEPTH_U8, &e);
  clfx_image_set (&img, 0, 0, 0, 0.5f / 255.0f);   /* 0.5 -> 0 (even) */
  clfx_image_set (&img, 1, 0, 0, 1.5f / 255.0f);   /* 1.5 -> 2 */
  clfx_image_set (&img, 2, 0, 0, NAN);             /* NaN -> 0 */
  clfx_image_set (&img, 3, 0, 0, 2.0f);            /* saturate */
  {
    const unsigned char *b = img.data;
    tap_ok (b[0] == 0 && b[1] == 2 && b[2] == 0 && b[3] == 255,
            "u8 store: round half to even, NaN to 0, saturate (%d %d %d %d)",
            b[0], b[1], b[2], b[3]);
  }
  clfx_host_image_free (&img);
}

/* The CPU reference and its envelope of allowed results, as
 * clfx_run_validate makes them. */
static bool
ref_and_bounds (const ClfxParams *p, const ClfxImage *src, ClfxImage *ref,
                ClfxImage *lo, ClfxImage *hi, ClfxError *e)
{
  const ClfxVariant *v = clfx_params_variant (p);
  ClfxPlan           plan;
  bool               ok;

  if (! clfx_plan_make (p, src, &plan, e))
    return false;
  ok = v->run_cpu (p, &plan, src, ref, NULL, e)
       && v->bounds (p, &plan, src, ref, lo, hi, e);
  clfx_plan_clear (&plan);
  return ok;
}

/* The validation must be able to fail: a wrong texel is a mismatch, a
 * texel from across a boundary the sample sits on is only ambiguous. */
static void
test_validation_can_fail (void)
{
  ClfxImage      src, ref, lo, hi, act;
  ClfxParams     p;
  ClfxError      e = { 0 };
  ClfxValidation v;
  int            x_amb = -1;

  clfx_host_image_alloc (&src, 8, 1, 1, CLFX_DEPTH_FLOAT, &e);
  for (int i = 0; i < 8; i++)
    clfx_image_set (&src, i, 0, 0, (float) (i * i));
  clfx_params_defaults (&clfx_family_resize, &p);
  /* 8 -> 4 samples at u = 1, 3, 5, 7: every one sits on a boundary */
  clfx_params_set (&p, "width", "4", &e);
  clfx_params_set (&p, "height", "1", &e);
  clfx_params_set (&p, "filter", "nearest", &e);
  clfx_host_image_alloc (&ref, 4, 1, 1, CLFX_DEPTH_FLOAT, &e);
  clfx_host_image_alloc (&lo, 4, 1, 1, CLFX_DEPTH_FLOAT, &e);
  clfx_host_image_alloc (&hi, 4, 1, 1, CLFX_DEPTH_FLOAT, &e);
  clfx_host_image_alloc (&act, 4, 1, 1, CLFX_DEPTH_FLOAT, &e);
  tap_ok (ref_and_bounds (&p, &src, &ref, &lo, &hi, &e),
          "nearest reference and bounds: %s", e.message);
  for (int x = 0; x < 4; x++)
    if (clfx_image_get (&lo, x, 0, 0) < clfx_image_get (&hi, x, 0, 0))
      x_amb = x;
  tap_ok (x_amb >= 0 && clfx_image_get (&ref, 1, 0, 0) == 9.0f
            && clfx_image_get (&lo, 1, 0, 0) == 4.0f
            && clfx_image_get (&hi, 1, 0, 0) == 9.0f,
          "a nearest sample on a texel boundary allows either texel "
          "(u = 3: texel 3 = 9, or texel 2 = 4)");
  memcpy (act.data, ref.data, 16);
  clfx_image_set (&act, 1, 0, 0, 4.0f);
  clfx_validate_bounded (&ref, &lo, &hi, &act, 0, 0, &v);
  tap_ok (v.passed && v.ambiguous == 1 && v.mismatches == 0,
          "the neighbouring texel at a boundary is ambiguous, not a "
          "mismatch");
  clfx_image_set (&act, 1, 0, 0, 16.0f);
  clfx_validate_bounded (&ref, &lo, &hi, &act, 0, 0, &v);
  tap_ok (! v.passed && v.mismatches == 1 && v.worst.x == 1
            && v.worst.expected == 9.0 && v.worst.actual == 16.0,
          "a texel two away is a mismatch, reported at its pixel");
  /* Away from nearest lookups the envelope is the reference itself: a
   * cubic result that is off is a mismatch, never ambiguous. */
  clfx_params_set (&p, "filter", "cubic", &e);
  tap_ok (ref_and_bounds (&p, &src, &ref, &lo, &hi, &e),
          "cubic reference and bounds: %s", e.message);
  memcpy (act.data, ref.data, 16);
  clfx_image_set (&act, 1, 0, 0, clfx_image_get (&ref, 1, 0, 0) + 0.5f);
  clfx_validate_bounded (&ref, &lo, &hi, &act, 1e-3, 0, &v);
  tap_ok (! memcmp (lo.data, ref.data, 16) && ! memcmp (hi.data, ref.data, 16)
            && ! v.passed && v.mismatches == 1 && v.ambiguous == 0,
          "cubic: the envelope is the reference, an error is a mismatch");
  clfx_image_set (&act, 1, 0, 0, NAN);
  clfx_validate (&ref, &act, 1e9, 1e9, &v);
  tap_ok (! v.passed && v.nan == 1, "NaN fails whatever the tolerance");
  clfx_host_image_free (&src);
  clfx_host_image_free (&ref);
  clfx_host_image_free (&lo);
  clfx_host_image_free (&hi);
  clfx_host_image_free (&act);
}

/* The bound per pixel: an outlier widens it only where it is read.  A
 * 32x1 float row with 1e30 at x = 8, linear resize to 16x1 (each result
 * reads two texels and one to spare per side: x 3..5 read texel 8), and
 * a result 0.25 off at x 12: the image's bound (4 u x 1e30 and more)
 * passes it, the per-pixel bound fails it and still passes the outlier's
 * own neighbours. */
static void
test_local_bound (void)
{
  const ClfxVariant *var;
  ClfxImage          src, ref, act, map = { 0 };
  ClfxParams         p;
  ClfxPlan           plan;
  ClfxTolerance      tol;
  ClfxError          e = { 0 };
  ClfxValidation     v;
  bool               made = false;

  clfx_host_image_alloc (&src, 32, 1, 1, CLFX_DEPTH_FLOAT, &e);
  for (int i = 0; i < 32; i++)
    clfx_image_set (&src, i, 0, 0, i == 8 ? 1e30f : 0.5f + 0.01f * i);
  clfx_params_defaults (&clfx_family_resize, &p);
  clfx_params_set (&p, "width", "16", &e);
  clfx_params_set (&p, "height", "1", &e);
  clfx_params_set (&p, "filter", "linear", &e);
  var = clfx_params_variant (&p);
  clfx_host_image_alloc (&ref, 16, 1, 1, CLFX_DEPTH_FLOAT, &e);
  clfx_host_image_alloc (&act, 16, 1, 1, CLFX_DEPTH_FLOAT, &e);
  tap_ok (clfx_plan_make (&p, &src, &plan, &e)
            && var->run_cpu (&p, &plan, &src, &ref, NULL, &e),
          "linear resize reference: %s", e.message);
  var->tolerance (&p, &plan, NULL, &src, &ref, &tol);
  tap_ok (clfx_tol_local_map (var, &plan, &src, &tol, &map, &made, &e)
            && made && map.width == 16,
          "the per-pixel bound is made: %s", e.message);
  tap_ok (made && clfx_image_get (&map, 4, 0, 0) >= tol.abs_tol * 0.999
            && clfx_image_get (&map, 12, 0, 0) < 1e-5
            && clfx_image_get (&map, 12, 0, 0) >= tol.abs_tol - tol.abs_mag
                                                   - tol.abs_range,
          "where texel 8 is read the bound is the image's (%g), elsewhere "
          "that of values up to 1 (%g)", made ? clfx_image_get (&map, 4, 0, 0)
                                              : 0.0,
          made ? clfx_image_get (&map, 12, 0, 0) : 0.0);
  memcpy (act.data, ref.data, 16 * sizeof (float));
  clfx_image_set (&act, 12, 0, 0, clfx_image_get (&ref, 12, 0, 0) + 0.25f);
  clfx_validate (&ref, &act, tol.abs_tol, tol.rel_tol, &v);
  tap_ok (v.passed, "the image's bound (%g) lets 0.25 off pass", tol.abs_tol);
  clfx_validate_per_pixel (&ref, NULL, NULL, &act, tol.abs_tol,
                           made ? &map : NULL, tol.rel_tol, &v);
  tap_ok (! v.passed && v.mismatches == 1 && v.worst.x == 12 && v.per_pixel
            && v.worst.tol < 1e-5,
          "the per-pixel bound fails it, at x 12 (bound there %g)",
          v.worst.tol);
  clfx_image_set (&act, 12, 0, 0, clfx_image_get (&ref, 12, 0, 0));
  clfx_image_set (&act, 4, 0, 0, clfx_image_get (&ref, 4, 0, 0) * 1.0000001f);
  clfx_validate_per_pixel (&ref, NULL, NULL, &act, tol.abs_tol,
                           made ? &map : NULL, tol.rel_tol, &v);
  tap_ok (v.passed, "a float rounding next to the outlier passes");
  clfx_plan_clear (&plan);
  clfx_host_image_free (&map);
  clfx_host_image_free (&src);
  clfx_host_image_free (&ref);
  clfx_host_image_free (&act);
}

/* Machine-readable output must not follow the locale's decimal comma. */
static void
test_json_locale (void)
{
  char        buf[64];
  const char *loc = setlocale (LC_ALL, "de_DE.UTF-8");

  if (! loc)
    {
      printf ("ok %d - # SKIP de_DE.UTF-8 locale not installed\n", ++tap_n);
      return;
    }
  snprintf (buf, sizeof buf, "%.2f", 1.5);
  tap_diag ("printf under %s gives %s", loc, buf);
  clfx_format_double (buf, sizeof buf, 1.5, 10);
  tap_ok (strcmp (buf, "1.5") == 0, "numbers are written with a decimal "
                                    "point under de_DE (%s)", buf);
  {
    ClfxParams p;
    ClfxError  e = { 0 };
    clfx_params_defaults (&clfx_family_resize, &p);
    tap_ok (clfx_params_set (&p, "zoom-x", "0.25", &e)
              && CLFX_PARAMS_OF (&p, ClfxResizeParams)->zoom_x == 0.25,
            "numbers are parsed with a decimal point under de_DE");
  }
  setlocale (LC_ALL, "C");
}


/* The 8-bit tables against the curve in double precision: every code
 * decodes to the float nearest its exact value, every threshold is the
 * first float that rounds up to the next code, and decode then encode
 * gives every code back. */
static void
test_srgb_tables (void)
{
  int bad_decode = 0, bad_threshold = 0, bad_round_trip = 0;

  for (int k = 0; k < 256; k++)
    {
      double exact = clfx_srgb_to_linear (k / 255.0);
      float  f = clfx_srgb_decode_u8[k];
      if (fabs ((double) f - exact) > 0.5 * (nextafterf (f, INFINITY) - f))
        bad_decode++;
    }
  for (int k = 0; k < 255; k++)
    {
      float t = clfx_srgb_encode_u8[k];
      float below = nextafterf (t, 0.0f);
      if (! (clfx_linear_to_srgb (t) * 255.0 >= k + 0.5)
          || ! (clfx_linear_to_srgb (below) * 255.0 < k + 0.5))
        bad_threshold++;
    }
  for (int k = 0; k < 256; k++)
    {
      int c = 0;
      for (int j = 0; j < 255; j++)
        c += clfx_srgb_decode_u8[k] >= clfx_srgb_encode_u8[j];
      bad_round_trip += c != k;
    }
  tap_ok (bad_decode == 0, "sRGB decode table: every code within half a "
          "float ulp of the curve (%d off)", bad_decode);
  tap_ok (bad_threshold == 0, "sRGB encode table: every threshold is the "
          "first float of its code (%d off)", bad_threshold);
  tap_ok (bad_round_trip == 0, "sRGB: decode then encode gives every code "
          "back (%d off)", bad_round_trip);
  {
    int bad_coarse = 0;
    for (int g = 0; g <= CLFX_SRGB_COARSE_GRID; g++)
      {
        float v = (float) g / CLFX_SRGB_COARSE_GRID;
        int   c = 0;
        for (int j = 0; j < 255; j++)
          c += v >= clfx_srgb_encode_u8[j];
        bad_coarse += c != clfx_srgb_coarse_u8[g]
                      || (g > 0 && clfx_srgb_coarse_u8[g]
                                     - clfx_srgb_coarse_u8[g - 1]
                                   > CLFX_SRGB_COARSE_STEP);
      }
    tap_ok (bad_coarse == 0 && CLFX_SRGB_COARSE_STEP == 1,
            "sRGB: the coarse encode table holds each grid point's code, "
            "one code apart at most (%d off)", bad_coarse);
  }
  tap_ok (fabs (clfx_srgb_to_linear (clfx_linear_to_srgb (0.2)) - 0.2)
            < 1e-15
            && fabs (clfx_srgb_to_linear (-0.01) + 0.01 / 12.92) < 1e-15,
          "the double-precision curve inverts itself and continues the "
          "linear segment below 0");
}

static void
test_address (void)
{
  static const struct
  {
    int i, n, mode, expect;
  } cases[] = {
    { -1, 4, CLFX_ADDR_CLAMP_TO_EDGE, 0 }, { 5, 4, CLFX_ADDR_CLAMP_TO_EDGE, 3 },
    { -1, 4, CLFX_ADDR_CLAMP, -1 },        { 4, 4, CLFX_ADDR_CLAMP, -1 },
    { 2, 4, CLFX_ADDR_CLAMP, 2 },          { -1, 4, CLFX_ADDR_REPEAT, 3 },
    { 9, 4, CLFX_ADDR_REPEAT, 1 },         { -9, 4, CLFX_ADDR_REPEAT, 3 },
    { -1, 4, CLFX_ADDR_MIRRORED, 0 },      { -2, 4, CLFX_ADDR_MIRRORED, 1 },
    { 4, 4, CLFX_ADDR_MIRRORED, 3 },       { 8, 4, CLFX_ADDR_MIRRORED, 0 },
    { -5, 4, CLFX_ADDR_MIRRORED, 3 },      { -3, 4, CLFX_ADDR_NONE, 0 },
    { 7, 4, CLFX_ADDR_NONE, 3 },           { -1, 1, CLFX_ADDR_MIRRORED, 0 },
  };
  int bad = 0;

  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
    if (clfx_address (cases[k].i, cases[k].n, cases[k].mode)
        != cases[k].expect)
      {
        bad++;
        tap_diag ("clfx_address (%d, %d, mode %d) = %d, expected %d",
                  cases[k].i, cases[k].n, cases[k].mode,
                  clfx_address (cases[k].i, cases[k].n, cases[k].mode),
                  cases[k].expect);
      }
  tap_ok (bad == 0, "clfx_address: clamp, border, wrap and mirror of texel "
          "indices (%d wrong)", bad);
  /* The host's address function agrees with the spec's nearest lookup at
   * texel centres, for every mode and index in three periods. */
  bad = 0;
  for (int mode = 0; mode < CLFX_N_ADDR; mode++)
    for (int i = -12; i < 16; i++)
      {
        ClfxSamplerDesc s = { true, mode, false, false, false };
        float           v[4], w[4];
        if (mode == CLFX_ADDR_NONE && (i < 0 || i >= 4))
          continue; /* undefined in the spec; the kernels clamp */
        clfx_ref_read (&row4, s, ((float) i + 0.5f) / 4.0f, 0.5f, v);
        clfx_ref_fetch (&row4, s, i, 0, w);
        bad += v[0] != w[0];
      }
  tap_ok (bad == 0, "texel fetches with clfx_address equal the spec's "
          "nearest read at the texel centre in every mode (%d differ)", bad);
}

/* Linear light: a one-pixel black and white checkerboard halved with a
 * linear filter is mid-grey in light, sRGB 188, not the 128 an average
 * of the encoded values gives; nearest still copies codes. */
static void
test_linear_light (void)
{
  ClfxImage  src, dst;
  ClfxParams p;
  ClfxError  e = { 0 };
  bool       ok;
  int        lo = 255, hi = 0;

  clfx_host_image_alloc (&src, 16, 16, 4, CLFX_DEPTH_U8, &e);
  clfx_host_image_alloc (&dst, 8, 8, 4, CLFX_DEPTH_U8, &e);
  src.transfer = dst.transfer = CLFX_TRC_SRGB;
  for (int y = 0; y < 16; y++)
    for (int x = 0; x < 16; x++)
      for (int c = 0; c < 4; c++)
        clfx_image_set (&src, x, y, c, c == 3 || (x + y) % 2 ? 1.0f : 0.0f);
  clfx_params_defaults (&clfx_family_resize, &p);
  ok = clfx_params_set (&p, "width", "8", &e)
       && clfx_params_set (&p, "height", "8", &e)
       && clfx_params_set (&p, "filter", "linear", &e)
       && clfx_reference_into (&p, &src, &dst, &e);
  for (int y = 0; ok && y < 8; y++)
    for (int x = 0; x < 8; x++)
      for (int c = 0; c < 3; c++)
        {
          int v = ((unsigned char *) dst.data)[y * dst.stride + x * 4 + c];
          lo = v < lo ? v : lo;
          hi = v > hi ? v : hi;
        }
  tap_ok (ok && lo == 188 && hi == 188, "a 1-pixel checkerboard halved in "
          "linear light is sRGB 188 everywhere (got %d..%d)", lo, hi);
  src.transfer = dst.transfer = CLFX_TRC_LINEAR;
  lo = 255, hi = 0;
  ok = clfx_reference_into (&p, &src, &dst, &e);
  for (int y = 0; ok && y < 8; y++)
    for (int x = 0; x < 8; x++)
      {
        int v = ((unsigned char *) dst.data)[y * dst.stride + x * 4];
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
      }
  tap_ok (ok && lo == 128 && hi == 128, "the same data marked linear "
          "averages the stored values: 128 (got %d..%d)", lo, hi);
  clfx_host_image_free (&src);
  clfx_host_image_free (&dst);
}

/* The family table: typed rows, checked names, generated lists. */
static void
test_families (void)
{
  const ClfxFamily    *f = clfx_family_find ("resize");
  const ClfxParamSpec *filter = clfx_family_param (f, "filter");
  ClfxParams           p, q;
  ClfxError            e = { 0 };
  char                 buf[64];
  int                  n_pdb = 0;

  tap_ok (f == &clfx_family_resize && clfx_family_find ("copy")
            && ! clfx_family_find ("nosuch"),
          "families are found by name");
  tap_ok (filter && filter->type == CLFX_PARAM_CHOICE
            && clfx_choice_count (filter) == CLFX_N_RESAMPLE
            && ! clfx_family_param (f, "widht"),
          "a row is found by its name; a misspelled name finds nothing");
  clfx_params_defaults (f, &p);
  tap_ok (! clfx_params_set (&p, "widht", "10", &e)
            && strstr (e.message, "no parameter 'widht'")
            && strstr (e.message, "width"),
          "setting a misspelled parameter is an error that lists the "
          "real ones: %s", e.message);
  q = p;
  tap_ok (clfx_params_set (&q, "width", "321", &e)
            && CLFX_PARAMS_OF (&q, ClfxResizeParams)->width == 321
            && CLFX_PARAMS_OF (&p, ClfxResizeParams)->width == 1024,
          "a value is written into its typed field, the defaults stay in "
          "the copy it came from");
  tap_ok (! clfx_params_set (&q, "zoom-x", "1e9", &e)
            && CLFX_PARAMS_OF (&q, ClfxResizeParams)->zoom_x == 1.0,
          "an out-of-range value leaves the parameters as they were");
  clfx_params_set (&q, "zoom-x", "0.1", &e);
  tap_ok (! strcmp (clfx_param_format (&q, clfx_family_param (f, "zoom-x"),
                                       buf, sizeof buf), "0.1")
            && ! strcmp (clfx_param_format (&q, filter, buf, sizeof buf),
                         "linear"),
          "values format as the text that sets them (%s)", buf);
  for (int i = 0; i < f->n_params; i++)
    {
      const ClfxParamSpec *s = &f->params[i];
      n_pdb += ! s->plugin_only;
      if (s->group < 0 || s->group >= f->n_groups
          || (s->type == CLFX_PARAM_DOUBLE
              && (s->ui_min < s->min || s->ui_max > s->max))
          || ! clfx_variant_uses (clfx_params_variant (&p), s))
        tap_diag ("row %s is inconsistent", s->name);
    }
  tap_ok (n_pdb == 7 && f->n_params == 8
            && clfx_params_variant (&p) == &clfx_variant_resize,
          "resize: 7 engine parameters and the plug-in's target, one "
          "variant");
  tap_ok (! strcmp (clfx_run_variant_name (&p), "linear"),
          "the report names resize's resampling filter as its variant");
}

static void
test_tolerance_helpers (void)
{
  ClfxTolerance t;

  clfx_tol_init (&t);
  clfx_tol_sum (&t, "taps", 10, 2.0, 4.0);
  tap_ok (fabs (t.abs_tol - 80.0 * CLFX_FLOAT_EPS) < 1e-20
            && strstr (t.basis, "taps: 10-term"),
          "an n-term sum adds n u sum|w| max|v| and says so (%s)", t.basis);
  clfx_tol_srgb (&t, CLFX_DEPTH_U8, true);
  tap_ok (fabs (t.abs_tol - 12.92 * 80.0 * CLFX_FLOAT_EPS) < 1e-18
            && strstr (t.basis, "12.92"),
          "sRGB carries linear bounds through the curve's slope");
  clfx_tol_store (&t, CLFX_DEPTH_U8, false);
  tap_ok (t.abs_tol > 1.0 / 255.0 && strstr (t.basis, "output code"),
          "an 8-bit store adds one code");
  clfx_tol_init (&t);
  clfx_tol_store (&t, CLFX_DEPTH_U8, true);
  tap_ok (t.abs_tol == 0.0 && t.basis[0] == '\0',
          "a path that copies texels stores them exactly");
}

/* An independent reference for cubic and lanczos3: weights computed here
 * in double from the kernel formulas (Keys a = -0.5; Lanczos with 3
 * lobes), widened by the shrink factor, normalized, and the 2-D sum taken
 * directly with clamp-to-edge indices, in double.  The engine's reference
 * builds float tap tables that its kernels share; a wrong start offset or
 * weight in them would show here and nowhere else. */
static double
keys (double x)
{
  x = fabs (x);
  if (x < 1.0)
    return (1.5 * x - 2.5) * x * x + 1.0;
  if (x < 2.0)
    return ((-0.5 * x + 2.5) * x - 4.0) * x + 2.0;
  return 0.0;
}

static double
lanczos3 (double x)
{
  x = fabs (x);
  if (x < 1e-12)
    return 1.0;
  if (x >= 3.0)
    return 0.0;
  return 3.0 * sin (M_PI * x) * sin (M_PI * x / 3.0) / (M_PI * M_PI * x * x);
}

/* The weights of result pixel d along an axis (n source texels, m
 * results, zoom 1), as a dense row over the source, edges clamped. */
static void
direct_weights (int d, int n, int m, bool cubic, double *w)
{
  double f = (double) n / m, fs = f > 1.0 ? f : 1.0;
  double support = (cubic ? 2.0 : 3.0) * fs;
  double centre = (d + 0.5) * f - 0.5, sum = 0.0;

  memset (w, 0, sizeof *w * (size_t) n);
  for (int i = (int) floor (centre - support) - 1;
       i <= (int) ceil (centre + support) + 1; i++)
    {
      double t = (i - centre) / fs;
      double k = cubic ? keys (t) : lanczos3 (t);
      int    c = i < 0 ? 0 : i >= n ? n - 1 : i;
      w[c] += k;
      sum += k;
    }
  for (int i = 0; i < n; i++)
    w[i] /= sum;
}

static void
test_independent_reference (void)
{
  static const int sizes[][4] = { { 23, 17, 9, 31 }, { 40, 12, 97, 5 } };

  for (int cubic = 0; cubic < 2; cubic++)
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
      {
        int        sw = sizes[s][0], sh = sizes[s][1];
        int        dw = sizes[s][2], dh = sizes[s][3];
        ClfxImage  src, dst;
        ClfxParams p;
        ClfxError  e = { 0 };
        double     wx[64], wy[64], worst = 0.0, bound = 0.0;
        char       w[16], h[16];
        bool       ok;

        clfx_host_image_alloc (&src, sw, sh, 1, CLFX_DEPTH_FLOAT, &e);
        clfx_host_image_alloc (&dst, dw, dh, 1, CLFX_DEPTH_FLOAT, &e);
        clfx_host_image_synthetic (&src, 9);
        snprintf (w, sizeof w, "%d", dw);
        snprintf (h, sizeof h, "%d", dh);
        clfx_params_defaults (&clfx_family_resize, &p);
        ok = clfx_params_set (&p, "width", w, &e)
             && clfx_params_set (&p, "height", h, &e)
             && clfx_params_set (&p, "filter", cubic ? "cubic" : "lanczos3",
                                 &e)
             && clfx_reference_into (&p, &src, &dst, &e);
        for (int y = 0; ok && y < dh; y++)
          {
            direct_weights (y, sh, dh, cubic, wy);
            for (int x = 0; x < dw; x++)
              {
                double acc = 0.0, mag = 0.0;
                direct_weights (x, sw, dw, cubic, wx);
                for (int j = 0; j < sh; j++)
                  for (int i = 0; i < sw; i++)
                    {
                      double v = clfx_image_get (&src, i, j, 0);
                      acc += wx[i] * wy[j] * v;
                      mag += fabs (wx[i] * wy[j] * v);
                    }
                /* Float weights (u each) and two float passes of up to
                 * 2 * 3 * 4 + 1 terms: 64 u of the magnitude covers both. */
                bound = fmax (bound, 64.0 * CLFX_FLOAT_EPS * mag);
                worst = fmax (worst,
                              fabs (acc - clfx_image_get (&dst, x, y, 0)));
              }
          }
        tap_ok (ok && worst <= bound && bound < 1e-3,
                "%s %dx%d -> %dx%d: the engine's reference is the direct "
                "2-D sum of independently computed weights (max diff %g, "
                "bound %g)", cubic ? "cubic" : "lanczos3", sw, sh, dw, dh,
                worst, bound);
        clfx_host_image_free (&src);
        clfx_host_image_free (&dst);
      }
}

/* Each family's variants against its table: every parameter a variant
 * says it reads is a row of the family, the variant choice lists the
 * variants in order by name, and each variant's program is a kernel file
 * the build embeds. */
static void
test_variants_own_rows (void)
{
  for (const ClfxFamily *const *f = clfx_families (); *f; f++)
    for (int v = 0; v < (*f)->n_variants; v++)
      {
        const ClfxVariant *var = (*f)->variants[v];
        const char        *missing = NULL;
        char              *source;
        ClfxError          e = { 0 };
        bool               named = (*f)->variant_param < 0
                                   || ! strcmp ((*f)->params[(*f)->variant_param]
                                                  .choices[v].nick,
                                                var->name);

        for (int u = 0; var->uses && var->uses[u] && ! missing; u++)
          if (! clfx_family_param (*f, var->uses[u]))
            missing = var->uses[u];
        source = clfx_program_source (var->program, &e);
        tap_ok (! missing && named && source,
                "%s %s: its %s, its choice and its program '%s' are the "
                "family's%s%s%s", (*f)->name, var->name,
                var->uses ? "parameters" : "(all) parameters", var->program,
                missing ? "; no row " : "", missing ? missing : "",
                source ? "" : e.message);
        free (source);
      }
}

/* The help text: the family's opening, each variant's part in choice
 * order with the separator between two, the end; every piece through
 * the translation. */
static const char *
bracket (const char *s)
{
  static char buf[16][1024];
  static int  at;

  at = (at + 1) % 16;
  snprintf (buf[at], sizeof buf[at], "[%s]", s);
  return buf[at];
}

static void
test_family_help (void)
{
  for (const ClfxFamily *const *f = clfx_families (); *f; f++)
    {
      char       *plain, *marked;
      const char *at;
      bool        ok;
      int         n = 0;

      if (! (*f)->help_variants)
        continue;
      plain = clfx_family_help (*f, NULL);
      marked = clfx_family_help (*f, bracket);
      ok = plain && marked && ! strstr (plain, "[");
      at = marked;
      for (int v = 0; ok && v < (*f)->n_variants; v++, n++)
        {
          char want[64];
          snprintf (want, sizeof want, "[%s", (*f)->variants[v]->name);
          ok = (at = strstr (at, want)) != NULL;
        }
      ok = ok && (*f)->help_variants[(*f)->n_variants] == NULL
           && at && strstr (at, bracket ((*f)->help_end));
      tap_ok (ok, "%s: the help text has its %d variants' parts in order, "
              "each piece translated", (*f)->name, n);
      free (plain);
      free (marked);
    }
}

/* The variants as operators of their own (the plug-in's procedure of
 * each, the GEGL module's clfx:NAME): a place in GEGL's categories and
 * GIMP's menus, a procedure name of their own, arguments whose names
 * (GEGL's where a row has one) do not meet, and a help text with their
 * part alone. */
static void
test_operators (void)
{
  char seen[64][80];
  int  n_seen = 0;

  for (const ClfxFamily *const *f = clfx_families (); *f; f++)
    for (int k = 0; clfx_family_has_operators (*f) && k < (*f)->n_variants;
         k++)
      {
        const ClfxVariant *v = (*f)->variants[k];
        char               name[80];
        const char        *args[64];
        int                n_args = 0;
        bool               ok = clfx_operator_procedure (*f, k, name,
                                                         sizeof name)
                                && v->place.categories
                                && v->place.menu_path
                                && ! strncmp (v->place.menu_path,
                                              "<Image>/", 8)
                                && v->place.title && *v->place.title;
        char              *help = clfx_operator_help (*f, k, bracket);

        for (int i = 0; ok && i < n_seen; i++)
          ok = strcmp (seen[i], name) != 0;
        if (ok && n_seen < 64)
          snprintf (seen[n_seen++], sizeof seen[0], "%s", name);
        args[n_args++] = "device";
        args[n_args++] = "validate";
        args[n_args++] = "report-file";
        for (int i = 0; ok && i < (*f)->n_params; i++)
          {
            const char *arg = clfx_operator_arg_name (&(*f)->params[i]);

            if (! clfx_operator_has_row (*f, k, i))
              continue;
            for (int a = 0; ok && a < n_args; a++)
              ok = strcmp (args[a], arg) != 0;
            if (n_args < 64)
              args[n_args++] = arg;
          }
        ok = ok && ! clfx_operator_has_row (*f, k, (*f)->variant_param);
        /* Its own part of the help, no other variant's. */
        for (int o = 0; ok && help && o < (*f)->n_variants; o++)
          ok = (strstr (help, bracket ((*f)->help_variants[o])) != NULL)
               == (o == k);
        tap_ok (ok && help, "%s %s: procedure %s, %d arguments, '%s' in %s "
                "(%s)", (*f)->name, v->name, name, n_args, v->place.title,
                v->place.menu_path, v->place.categories);
        free (help);
      }
}

/* A failed validation says what failed: a probe (with its values) when
 * the pixels passed, the values beyond the tolerance when they did not,
 * never "0 pixels". */
static void
test_failure_words (void)
{
  ClfxRunResult r;
  ClfxProbe     probe;
  double        dev[2] = { 1.0, 2.0 }, ref[2] = { 1.0, 3.0 };
  char          buf[512];

  memset (&r, 0, sizeof r);
  memset (&probe, 0, sizeof probe);
  snprintf (probe.name, sizeof probe.name, "stats");
  probe.n_device = probe.n_reference = 2;
  probe.device = dev;
  probe.reference = ref;
  probe.worst = 1;
  probe.mismatches = 1;
  r.validated = true;
  r.probes.probes = &probe;
  r.probes.n = 1;
  clfx_run_result_failure (&r, buf, sizeof buf);
  tap_ok (strstr (buf, "the stats probe: 2 where the reference has 3")
            && ! strstr (buf, "values beyond"),
          "a failed probe alone is named, with both values (%s)", buf);
  probe.passed = true;
  r.validation.mismatches = 3;
  r.validation.samples = 40;
  r.validation.worst.actual = 0.5;
  r.validation.worst.expected = 0.25;
  clfx_run_result_failure (&r, buf, sizeof buf);
  tap_ok (strstr (buf, "3 of 40 values beyond the tolerance")
            && strstr (buf, "0.5 where the reference has 0.25")
            && ! strstr (buf, "probe"),
          "values beyond the tolerance are counted, the worst shown (%s)",
          buf);
  r.validation.passed = true;
  clfx_run_result_failure (&r, buf, sizeof buf);
  tap_ok (! buf[0], "a passed validation has nothing to say");
}

/* After a failed validation the reference's result replaces the device's
 * row by row (dst with a wider stride, as pinned memory may have), and
 * only then: a passed validation, or a reference of another size, leaves
 * dst alone. */
static void
test_keep_reference (void)
{
  ClfxRunResult r;
  ClfxImage     dst = { 0 }, other = { 0 };
  ClfxError     e = { 0 };
  bool          rows_ok = true;

  memset (&r, 0, sizeof r);
  clfx_host_image_alloc (&r.reference, 3, 2, 1, CLFX_DEPTH_FLOAT, &e);
  dst.width = 3, dst.height = 2, dst.channels = 1;
  dst.depth = CLFX_DEPTH_FLOAT, dst.stride = 5 * sizeof (float);
  dst.data = calloc (2 * 5, sizeof (float));
  for (int y = 0; y < 2; y++)
    for (int x = 0; x < 3; x++)
      {
        clfx_image_set (&r.reference, x, y, 0, (float) (1 + x + 10 * y));
        clfx_image_set (&dst, x, y, 0, -1.0f);
      }
  ((float *) dst.data)[3] = 99.0f; /* past row 0's pixels: untouched */
  r.validated = true;
  r.validation.passed = true;
  tap_ok (! clfx_run_keep_reference (&r, &dst)
            && clfx_image_get (&dst, 0, 0, 0) == -1.0f && ! r.reference_kept,
          "a passed validation keeps the device's result");
  r.validation.passed = false;
  r.validation.mismatches = 6;
  r.validation.samples = 6;
  tap_ok (clfx_run_keep_reference (&r, &dst) && r.reference_kept
            && strstr (r.fallback, "6 of 6 values beyond the tolerance")
            && strstr (r.fallback, "reference's result was kept"),
          "a failed one gives the reference's result, and says why (%s)",
          r.fallback);
  for (int y = 0; y < 2; y++)
    for (int x = 0; x < 3; x++)
      rows_ok = rows_ok
                && clfx_image_get (&dst, x, y, 0) == (float) (1 + x + 10 * y);
  tap_ok (rows_ok && ((float *) dst.data)[3] == 99.0f,
          "every row copied, nothing past a row's pixels written");
  r.reference_kept = false;
  clfx_host_image_alloc (&other, 2, 2, 1, CLFX_DEPTH_FLOAT, &e);
  tap_ok (! clfx_run_keep_reference (&r, &other),
          "a result of another size is left alone");
  clfx_host_image_free (&other);
  free (dst.data);
  clfx_host_image_free (&r.reference);
}

int
main (void)
{
  ClfxError      e = { 0 };
  unsigned char *q;

  clfx_host_image_alloc (&row4, 4, 1, 1, CLFX_DEPTH_FLOAT, &e);
  for (int i = 0; i < 4; i++)
    clfx_image_set (&row4, i, 0, 0, 10.0f * (float) (i + 1));
  clfx_host_image_alloc (&quad, 2, 2, 4, CLFX_DEPTH_U8, &e);
  q = quad.data;
  memcpy (q, (unsigned char[]) { 255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255,
                                 255, 255, 255, 255, 0 }, 16);

  test_nearest ();
  test_linear ();
  test_2d_and_border ();
  test_resize ();
  test_straight_alpha ();
  test_params ();
  test_half_and_rounding ();
  test_validation_can_fail ();
  test_local_bound ();
  test_json_locale ();
  test_srgb_tables ();
  test_address ();
  test_linear_light ();
  test_families ();
  test_variants_own_rows ();
  test_family_help ();
  test_operators ();
  test_failure_words ();
  test_keep_reference ();
  test_tolerance_helpers ();
  test_independent_reference ();

  clfx_host_image_free (&row4);
  clfx_host_image_free (&quad);
  return tap_done ();
}
