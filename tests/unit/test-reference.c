/* test-reference.c: the CPU reference against values computed by hand
 * from the OpenCL C spec's addressing and filter formulas, on tiny images
 * where every expected number is exact in binary floating point. */
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../tap.h"
#include "clfx-common.h"
#include "clfx-host-image.h"
#include "clfx-sampler-ref.h"
#include "clfx-ops.h"
#include "clfx-json.h"
#include "clfx-validate.h"
#include "clfx-validate.h"

static ClfxImage row4;  /* 4x1 gray float: 10 20 30 40 */
static ClfxImage quad;  /* 2x2 RGBA u8 */

static void
check_read (ClfxSamplerDesc s, float x, float expect, const char *what)
{
  float v[4];

  clfx_ref_read (&row4, s, x, s.normalized ? 0.5f : 0.5f, v);
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
  ClfxSamplerDesc edge = { false, CLFX_ADDR_CLAMP_TO_EDGE, false, false };
  ClfxSamplerDesc clamp = { false, CLFX_ADDR_CLAMP, false, false };
  ClfxSamplerDesc none = { false, CLFX_ADDR_NONE, false, false };
  ClfxSamplerDesc rep = { true, CLFX_ADDR_REPEAT, false, false };
  ClfxSamplerDesc mir = { true, CLFX_ADDR_MIRRORED, false, false };
  ClfxSamplerDesc edge_n = { true, CLFX_ADDR_CLAMP_TO_EDGE, false, false };

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
  ClfxSamplerDesc edge = { false, CLFX_ADDR_CLAMP_TO_EDGE, true, false };
  ClfxSamplerDesc clamp = { false, CLFX_ADDR_CLAMP, true, false };
  ClfxSamplerDesc none = { false, CLFX_ADDR_NONE, true, false };
  ClfxSamplerDesc rep = { true, CLFX_ADDR_REPEAT, true, false };
  ClfxSamplerDesc mir = { true, CLFX_ADDR_MIRRORED, true, false };

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
  ClfxSamplerDesc lin = { false, CLFX_ADDR_CLAMP_TO_EDGE, true, false };
  ClfxSamplerDesc clamp = { false, CLFX_ADDR_CLAMP, false, false };
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
  clfx_params_defaults (&clfx_op_resize, &p);
  ok = clfx_params_set (&clfx_op_resize, &p, "width", w, &e)
       && clfx_params_set (&clfx_op_resize, &p, "height", "1", &e)
       && clfx_params_set (&clfx_op_resize, &p, "filter", filter, &e)
       && clfx_params_set (&clfx_op_resize, &p, "addressing", addressing, &e)
       && clfx_params_set (&clfx_op_resize, &p, "zoom-x", zoom, &e)
       && clfx_op_resize.run_cpu (&src, &dst, &p, &e);
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
  clfx_params_defaults (&clfx_op_resize, &p);
  ok = clfx_host_image_alloc (&dst, n_out, 1, 4, CLFX_DEPTH_FLOAT, &e)
       && clfx_params_set (&clfx_op_resize, &p, "width", w, &e)
       && clfx_params_set (&clfx_op_resize, &p, "height", "1", &e)
       && clfx_params_set (&clfx_op_resize, &p, "filter", filter, &e)
       && clfx_op_resize.run_cpu (&src, &dst, &p, &e);
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
    clfx_params_defaults (&clfx_op_resize, &p);
    ok = clfx_params_set (&clfx_op_resize, &p, "width", "1", &e)
         && clfx_params_set (&clfx_op_resize, &p, "height", "1", &e)
         && clfx_params_set (&clfx_op_resize, &p, "filter", "linear", &e)
         && clfx_op_resize.run_cpu (&src, &dst, &p, &e);
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

  clfx_params_defaults (&clfx_op_resize, &p);
  tap_ok (! clfx_params_set (&clfx_op_resize, &p, "addressing", "wrap", &e)
            && strstr (e.message, "mirrored-repeat"),
          "unknown addressing name is refused, listing the choices: %s",
          e.message);
  memset (&e, 0, sizeof e);
  tap_ok (! clfx_params_set (&clfx_op_resize, &p, "width", "0", &e)
            && strstr (e.message, "out of range"),
          "width 0 is refused: %s", e.message);
  memset (&e, 0, sizeof e);
  clfx_params_set (&clfx_op_resize, &p, "addressing", "repeat", &e);
  clfx_params_set (&clfx_op_resize, &p, "normalized-coords", "false", &e);
  {
    int       w, h;
    ClfxImage src = { 4, 4, 4, CLFX_DEPTH_U8, 16, NULL, false };
    tap_ok (! clfx_op_resize.prepare (&p, &src, &w, &h, &e)
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
  clfx_params_defaults (&clfx_op_resize, &p);
  /* 8 -> 4 samples at u = 1, 3, 5, 7: every one sits on a boundary */
  clfx_params_set (&clfx_op_resize, &p, "width", "4", &e);
  clfx_params_set (&clfx_op_resize, &p, "height", "1", &e);
  clfx_params_set (&clfx_op_resize, &p, "filter", "nearest", &e);
  clfx_host_image_alloc (&ref, 4, 1, 1, CLFX_DEPTH_FLOAT, &e);
  clfx_host_image_alloc (&lo, 4, 1, 1, CLFX_DEPTH_FLOAT, &e);
  clfx_host_image_alloc (&hi, 4, 1, 1, CLFX_DEPTH_FLOAT, &e);
  clfx_host_image_alloc (&act, 4, 1, 1, CLFX_DEPTH_FLOAT, &e);
  clfx_op_resize.run_cpu (&src, &ref, &p, &e);
  clfx_op_resize.run_cpu_bounds (&src, &ref, &lo, &hi, &p, &e);
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
  clfx_params_set (&clfx_op_resize, &p, "filter", "cubic", &e);
  clfx_op_resize.run_cpu (&src, &ref, &p, &e);
  clfx_op_resize.run_cpu_bounds (&src, &ref, &lo, &hi, &p, &e);
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
    clfx_params_defaults (&clfx_op_resize, &p);
    tap_ok (clfx_params_set (&clfx_op_resize, &p, "zoom-x", "0.25", &e)
              && p.v[clfx_op_param_index (&clfx_op_resize, "zoom-x")].d
                   == 0.25,
            "numbers are parsed with a decimal point under de_DE");
  }
  setlocale (LC_ALL, "C");
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
  test_json_locale ();

  clfx_host_image_free (&row4);
  clfx_host_image_free (&quad);
  return tap_done ();
}
