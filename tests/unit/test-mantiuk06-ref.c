/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-mantiuk06-ref.c: engine/ops/mantiuk06-ref.c, the double reference
 * of gegl:mantiuk06, against what the definition implies without running
 * it: a flat image has no gradients to solve for and stays flat; the
 * operator works on log luminance relative to its maximum, so scaling the
 * input changes nothing; the result is finite, keeps alpha and, at
 * saturation 1, each pixel's chromaticity; a luminance ramp stays ordered;
 * the renormalisation puts at most 0.1 % of the pixels above 1; and the
 * conjugate gradients reach GEGL's tolerance well inside 200 iterations
 * on a small image at the default contrast (GEGL's stopping rule is part
 * of the definition, so a solver that needs all 200 is a changed one). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tap.h"
#include "../../engine/ops/mantiuk06-ref.h"
#include "../rng.h"

static const double YR = 0.2224879400, YG = 0.7169038389, YB = 0.0606082572;


/* A smooth HDR field (about 1e-3 to 1e3) with coloured noise, alpha
 * varying, a few black pixels. */
static float *
make_hdr (int w, int h, uint64_t seed)
{
  float *px = malloc ((size_t) w * h * 4 * sizeof (float));

  if (! px)
    abort ();
  rng_seed (seed);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        double u = (x + 0.5) / w, v = (y + 0.5) / h;
        double s = 3.0 * sin (5.0 * u + 0.5) * cos (3.0 * v)
                   + 2.0 * exp (-40.0 * ((u - 0.6) * (u - 0.6)
                                         + (v - 0.4) * (v - 0.4)));
        float *p = px + 4 * ((size_t) y * w + x);

        for (int c = 0; c < 3; c++)
          p[c] = (float) (exp (s) * (0.6 + 0.8 * rng_uniform ()));
        p[3] = (float) (0.25 + 0.75 * u);
      }
  px[4 * ((size_t) (h / 2) * w + w / 3) + 0] = 0.0f;
  px[4 * ((size_t) (h / 2) * w + w / 3) + 1] = 0.0f;
  px[4 * ((size_t) (h / 2) * w + w / 3) + 2] = 0.0f;
  return px;
}

static double
lum (const float *p)
{
  return YR * p[0] + YG * p[1] + YB * p[2];
}

static void
test_flat (void)
{
  int    w = 37, h = 23;
  size_t n = (size_t) w * h;
  float *in = malloc (n * 4 * sizeof (float)), *out = malloc (n * 4 * sizeof (float));
  ClfxMantiuk06RefParams p = { .contrast = 0.1, .saturation = 0.8 };
  ClfxMantiuk06Info   info;
  bool   same = true, ok;
  double y;

  for (size_t i = 0; i < n; i++)
    {
      in[4 * i] = 3.0f;
      in[4 * i + 1] = 2.0f;
      in[4 * i + 2] = 0.5f;
      in[4 * i + 3] = 0.75f;
    }
  tap_ok (clfx_mantiuk06_ref (w, h, in, out, &p, &info), "flat: runs");
  for (size_t i = 1; i < n; i++)
    same &= memcmp (out, out + 4 * i, 4 * sizeof (float)) == 0;
  tap_ok (same, "flat %dx%d: every output pixel the same", w, h);
  /* Odd sides: the area averages of a constant are constant only to
   * rounding, and CG chases that rounding (the flat rule absorbs it). */
  tap_diag ("flat %dx%d: iterations %d, residual %g", w, h,
            info.iterations, info.residual);
  ok = clfx_mantiuk06_ref (32, 16, in, out, &p, &info);
  tap_ok (ok && info.iterations == 0 && info.residual == 0.0,
          "flat 32x16: nothing to solve (iterations %d, residual %g)",
          info.iterations, info.residual);
  /* A flat result sits at the top of the display range: L = 1. */
  y = YR * in[0] + YG * in[1] + YB * in[2];
  tap_ok (fabs (out[0] - pow (3.0 / y, 0.8)) < 1e-6
          && fabs (out[1] - pow (2.0 / y, 0.8)) < 1e-6
          && fabs (out[2] - pow (0.5 / y, 0.8)) < 1e-6 && out[3] == 0.75f,
          "flat: (c / Y)^saturation at L = 1, alpha kept (%g %g %g %g)",
          out[0], out[1], out[2], out[3]);
  free (in);
  free (out);
}

static void
test_hdr (int w, int h)
{
  size_t n = (size_t) w * h;
  float *in = make_hdr (w, h, (uint64_t) w * 7 + h);
  float *out = malloc (n * 4 * sizeof (float));
  float *in2 = malloc (n * 4 * sizeof (float)), *out2 = malloc (n * 4 * sizeof (float));
  ClfxMantiuk06RefParams p = { .contrast = 0.1, .saturation = 0.8 };
  ClfxMantiuk06Info   info, info2;
  bool   finite = true, alpha = true;
  size_t above = 0;
  double dmax = 0.0, ymax = 0.0;

  tap_ok (clfx_mantiuk06_ref (w, h, in, out, &p, &info), "%dx%d: runs", w, h);
  for (size_t i = 0; i < n; i++)
    {
      for (int c = 0; c < 4; c++)
        finite &= isfinite (out[4 * i + c]) && out[4 * i + c] > 0.0f;
      alpha &= out[4 * i + 3] == in[4 * i + 3];
    }
  tap_ok (finite, "%dx%d: output finite and > 0", w, h);
  tap_ok (alpha, "%dx%d: alpha kept", w, h);
  tap_ok (info.converged && info.iterations < CLFX_MANTIUK06_ITMAX
          && info.residual < CLFX_MANTIUK06_TOL,
          "%dx%d: CG reaches 1e-3 in %d iterations (residual %.3g, %d levels, "
          "%d resets)", w, h, info.iterations, info.residual, info.levels,
          info.resets);

  /* Saturation 1: L (c / Y), so out / Y_out is in / Y_in. */
  p.saturation = 1.0;
  clfx_mantiuk06_ref (w, h, in, out2, &p, NULL);
  for (size_t i = 0; i < n; i++)
    {
      double yi = lum (in + 4 * i), yo = lum (out2 + 4 * i);

      if (yi <= 0.0)
        continue;
      for (int c = 0; c < 3; c++)
        dmax = fmax (dmax, fabs (out2[4 * i + c] / yo - in[4 * i + c] / yi)
                           / (in[4 * i + c] / yi + 1e-3));
      above += yo > 1.0 + 1e-6;
    }
  tap_ok (dmax < 1e-5, "%dx%d: saturation 1 keeps chromaticity (max rel "
          "diff %.2g)", w, h, dmax);
  tap_ok (above <= n / 1000 + 1, "%dx%d: %zu pixels above L = 1 (<= 0.1 %%)",
          w, h, above);

  /* Scale invariance: x 1000. */
  p.saturation = 0.8;
  for (size_t i = 0; i < 4 * n; i++)
    in2[i] = (i & 3) == 3 ? in[i] : in[i] * 1000.0f;
  clfx_mantiuk06_ref (w, h, in2, out2, &p, &info2);
  dmax = 0.0;
  for (size_t i = 0; i < 4 * n; i++)
    {
      dmax = fmax (dmax, fabs (out2[i] - out[i]));
      ymax = fmax (ymax, out[i]);
    }
  tap_ok (dmax <= 1e-4 * ymax, "%dx%d: input x 1000 changes out by %.2g "
          "(max %.3g; iterations %d and %d)", w, h, dmax, ymax,
          info.iterations, info2.iterations);

  /* Solved further, the result moves by what 1e-3 leaves.  Where every
   * level halves exactly, upsampling is 4 times downsampling's transpose
   * and A is symmetric: CG converges.  Elsewhere A is not, and CG stalls
   * (measured: 2e-5 on 75 x 41). */
  p.tol = 1e-9;
  p.itmax = 2000;
  clfx_mantiuk06_ref (w, h, in, out2, &p, &info2);
  dmax = 0.0;
  for (size_t i = 0; i < 4 * n; i++)
    dmax = fmax (dmax, fabs (out2[i] - out[i]));
  if (w % 16 == 0 && h % 16 == 0)
    tap_ok (info2.converged, "%dx%d: tol 1e-9 reached in %d iterations "
            "(residual %.3g)", w, h, info2.iterations, info2.residual);
  else
    tap_diag ("%dx%d: tol 1e-9: residual %.3g after %d iterations", w, h,
              info2.residual, info2.iterations);
  tap_diag ("%dx%d: default tolerance against 1e-9: max |d| %.3g", w, h, dmax);
  free (in);
  free (in2);
  free (out);
  free (out2);
}

static void
test_ramp (void)
{
  int    w = 96, h = 24;
  size_t n = (size_t) w * h;
  float *in = malloc (n * 4 * sizeof (float)), *out = malloc (n * 4 * sizeof (float));
  ClfxMantiuk06RefParams p = { .contrast = 0.3, .saturation = 1.0 };
  ClfxMantiuk06Info   info;
  bool   ordered = true, grey = true;
  int    bad_x = -1, bad_y = -1;

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        float *q = in + 4 * ((size_t) y * w + x);

        q[0] = q[1] = q[2] = (float) pow (10.0, 5.0 * x / (w - 1) - 2.0);
        q[3] = 1.0f;
      }
  clfx_mantiuk06_ref (w, h, in, out, &p, &info);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        const float *q = out + 4 * ((size_t) y * w + x);

        grey &= q[0] == q[1] && q[1] == q[2];
        if (x > 0 && ! (lum (q) > lum (q - 4)) && bad_x < 0)
          {
            ordered = false;
            bad_x = x;
            bad_y = y;
          }
      }
  tap_ok (ordered, "ramp %dx%d: output luminance increases along x "
          "(first fault at %d,%d)", w, h, bad_x, bad_y);
  tap_ok (grey, "ramp: grey stays grey");
  tap_ok (info.converged, "ramp: converged in %d iterations", info.iterations);
  free (in);
  free (out);
}

static void
test_edges (void)
{
  float in[2 * 5 * 4], out[2 * 5 * 4];
  ClfxMantiuk06RefParams p = { .contrast = 0.1, .saturation = 0.8 };

  for (int i = 0; i < 40; i++)
    in[i] = (float) (i + 1);
  tap_ok (clfx_mantiuk06_ref (2, 5, in, out, &p, NULL)
          && memcmp (in, out, sizeof in) == 0,
          "2x5: passed through (GEGL needs both sides >= 3)");
  p.contrast = 0.0;
  tap_ok (! clfx_mantiuk06_ref (2, 5, in, out, &p, NULL),
          "contrast 0 refused");
}

int
main (void)
{
  test_flat ();
  test_hdr (64, 48);
  test_hdr (75, 41);
  test_ramp ();
  test_edges ();
  return tap_done ();
}
