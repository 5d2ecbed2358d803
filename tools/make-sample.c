/* SPDX-License-Identifier: GPL-3.0-or-later */
/* make-sample.c: writes the bundled sample images.
 *
 *   make-sample [OUTDIR]      (default: data)
 *
 * OUTDIR/sample.png      1024x768 RGBA 8-bit test chart, laid out so that
 *                        resize quality is easy to judge by eye:
 *     +----------------+----------------+
 *     |                | colour ramps   |  0..255
 *     |  zone plate    +-------+--------+
 *     |                | 1-px  | 4-px   |  256..511
 *     |                | check | check  |
 *     +-------+--------+-------+--------+
 *     | line  | parallel| transparency  |  512..767
 *     | fan   | lines   | (alpha ramps) |
 *     +-------+--------+----------------+
 *       0..255 256..511    512..1023
 * OUTDIR/sample-hdr.pfm  512x384 float RGB scene, values from about 1e-3
 *                        (a deep shadow) to 1e3 (the sun), for tone
 *                        mapping and float-path tests.
 *
 * Everything is computed from closed-form functions and a fixed-seed
 * hash, so running it again gives the same files (up to libm's last-bit
 * differences between platforms in the PFM). */
#include "clfx-imageio.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define PI 3.14159265358979323846

#define CHART_W 1024
#define CHART_H 768
#define HDR_W   512
#define HDR_H   384

static float
clamp01 (float v)
{
  return v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
}

/* Stores an RGBA pixel given in [0,1]. */
static void
put (ClfxImage *img, int x, int y, float r, float g, float b, float a)
{
  clfx_image_set (img, x, y, 0, r);
  clfx_image_set (img, x, y, 1, g);
  clfx_image_set (img, x, y, 2, b);
  clfx_image_set (img, x, y, 3, a);
}

/* Fully saturated colour for hue h in [0,1). */
static void
hue_rgb (float h, float rgb[3])
{
  for (int k = 0; k < 3; k++)
    {
      /* Distance from the channel's own hue (R 0, G 1/3, B 2/3) on the
       * colour circle, turned into a trapezoid. */
      float d = fabsf (fmodf (h - (float) k / 3.0f + 1.5f, 1.0f) - 0.5f);
      rgb[k] = clamp01 (2.0f - 6.0f * d);
    }
}

/* Coverage of a 1-pixel-wide line at distance d from the pixel centre:
 * a tent, which is what an ideal box-filtered 1-px line looks like at
 * the pixel's centre line and keeps the lines thin. */
static float
line_coverage (float d)
{
  return clamp01 (1.0f - fabsf (d));
}

/* Zone plate: cos (pi r^2 / (2 R)) has local frequency r / (2 R) cycles
 * per pixel, which reaches Nyquist (0.5) at r = R.  Outside the circle,
 * where it would alias, mid gray. */
static void
draw_zone_plate (ClfxImage *img, int x0, int y0, int size)
{
  double radius = size / 2.0;

  for (int y = 0; y < size; y++)
    for (int x = 0; x < size; x++)
      {
        double dx = x + 0.5 - radius;
        double dy = y + 0.5 - radius;
        double r2 = dx * dx + dy * dy;
        float v = 0.5f;

        if (r2 <= radius * radius)
          v = (float) (0.5 + 0.5 * cos (PI * r2 / (2.0 * radius)));
        put (img, x0 + x, y0 + y, v, v, v, 1.0f);
      }
}

/* Upper band: every hue across, running from white through the pure
 * colour to black downwards.  Lower band: R, G, B and gray ramps. */
static void
draw_gradients (ClfxImage *img, int x0, int y0, int w, int h)
{
  int half = h / 2;
  int ramp_h = (h - half) / 4;

  for (int y = 0; y < half; y++)
    for (int x = 0; x < w; x++)
      {
        float rgb[3];
        float t = (float) y / (float) (half - 1); /* 0 white .. 1 black */

        hue_rgb ((float) x / (float) w, rgb);
        for (int k = 0; k < 3; k++)
          rgb[k] = t < 0.5f ? 1.0f + (rgb[k] - 1.0f) * t * 2.0f
                            : rgb[k] * (2.0f - t * 2.0f);
        put (img, x0 + x, y0 + y, rgb[0], rgb[1], rgb[2], 1.0f);
      }
  for (int y = half; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        int which = (y - half) / ramp_h;
        float v = (float) x / (float) (w - 1);
        float rgb[3] = { 0.0f, 0.0f, 0.0f };

        if (which >= 3)
          rgb[0] = rgb[1] = rgb[2] = v;
        else
          rgb[which] = v;
        put (img, x0 + x, y0 + y, rgb[0], rgb[1], rgb[2], 1.0f);
      }
}

static void
draw_checker (ClfxImage *img, int x0, int y0, int w, int h, int cell)
{
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        float v = ((x / cell + y / cell) & 1) ? 1.0f : 0.0f;
        put (img, x0 + x, y0 + y, v, v, v, 1.0f);
      }
}

/* Black 1-px rays on white fanning out from the lower left corner at
 * 20 angles between 2 and 88 degrees: their spacing shrinks towards the
 * origin, so every resize filter aliases somewhere along them. */
static void
draw_line_fan (ClfxImage *img, int x0, int y0, int w, int h)
{
  const int n_rays = 20;
  double ox = 4.0, oy = h - 4.0; /* origin, local coordinates */

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        double px = x + 0.5 - ox;
        double py = oy - (y + 0.5); /* up is positive */
        float ink = 0.0f;

        for (int i = 0; i < n_rays; i++)
          {
            double a = (2.0 + 86.0 * i / (n_rays - 1)) * PI / 180.0;
            double along = px * cos (a) + py * sin (a);
            double across = -px * sin (a) + py * cos (a);

            if (along > 0.0)
              {
                float c = line_coverage ((float) across);
                if (c > ink)
                  ink = c;
              }
          }
        put (img, x0 + x, y0 + y, 1.0f - ink, 1.0f - ink, 1.0f - ink, 1.0f);
      }
}

/* Four tiles of parallel anti-aliased 1-px lines: at 45 degrees every
 * 4 px, at -45 every 3 px, and at the slopes 1:2 and 2:1 every 5 and
 * 6 px.  Close to the frequency where a 2x downscale turns them into
 * moire. */
static void
draw_parallel_lines (ClfxImage *img, int x0, int y0, int w, int h)
{
  static const double angle[4] = { 45.0, -45.0, 26.565051177, 63.434948823 };
  static const double period[4] = { 4.0, 3.0, 5.0, 6.0 };
  int tw = w / 2, th = h / 2;

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        int t = (y >= th) * 2 + (x >= tw);
        double a = angle[t] * PI / 180.0;
        double s = -(x + 0.5) * sin (a) + (y + 0.5) * cos (a);
        double d = s - period[t] * floor (s / period[t] + 0.5);
        float ink = line_coverage ((float) d);

        put (img, x0 + x, y0 + y, 1.0f - ink, 1.0f - ink, 1.0f - ink, 1.0f);
      }
}

/* Colour bands whose alpha falls from 1 at the left to 0 at the right,
 * then a strip of opaque black squares between fully transparent ones
 * that hide magenta: a resize that does not premultiply alpha bleeds
 * the hidden magenta into the black, which shows at once.  (Black, not
 * white, so the strip is visible in viewers that show transparency as
 * white.) */
static void
draw_transparency (ClfxImage *img, int x0, int y0, int w, int h)
{
  static const float bands[6][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 },
                                     { 0, 1, 1 }, { 0, 0, 0 }, { 1, 1, 0 } };
  int strip = h / 4;
  int band_h = (h - strip) / 6;

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        if (y < h - strip)
          {
            const float *c = bands[(y / band_h) % 6];
            float a = 1.0f - (float) x / (float) (w - 1);

            put (img, x0 + x, y0 + y, c[0], c[1], c[2], a);
          }
        else if (((x / 8) + ((y - (h - strip)) / 8)) & 1)
          put (img, x0 + x, y0 + y, 0.0f, 0.0f, 0.0f, 1.0f);
        else
          put (img, x0 + x, y0 + y, 1.0f, 0.0f, 1.0f, 0.0f);
      }
}

static bool
make_chart (const char *path)
{
  ClfxImage img;
  ClfxError error;
  bool ok;

  clfx_error_clear (&error);
  if (! clfx_host_image_alloc (&img, CHART_W, CHART_H, 4, CLFX_DEPTH_U8,
                               &error))
    {
      fprintf (stderr, "make-sample: %s\n", error.message);
      return false;
    }
  draw_zone_plate (&img, 0, 0, 512);
  draw_gradients (&img, 512, 0, 512, 256);
  draw_checker (&img, 512, 256, 256, 256, 1);
  draw_checker (&img, 768, 256, 256, 256, 4);
  draw_line_fan (&img, 0, 512, 256, 256);
  draw_parallel_lines (&img, 256, 512, 256, 256);
  draw_transparency (&img, 512, 512, 512, 256);

  ok = clfx_image_write (path, &img, 4, &error);
  if (! ok)
    fprintf (stderr, "make-sample: %s\n", error.message);
  clfx_host_image_free (&img);
  return ok;
}

/* ------------------------------------------------------------------ */
/* HDR scene */

/* A well-mixed 32-bit hash (Chris Wellons' lowbias32); with a fixed seed
 * it is our only source of "randomness". */
static uint32_t
hash32 (uint32_t x)
{
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

/* Uniform in [-1, 1) for a pixel. */
static float
noise (int x, int y)
{
  uint32_t h = hash32 ((uint32_t) x * 0x9e3779b9u ^ hash32 ((uint32_t) y
                                                           + 0x5eedu));
  return (float) (h >> 8) / 8388608.0f - 1.0f;
}

#define HORIZON 240
#define SUN_X   370.0
#define SUN_Y   80.0
#define SUN_R   14.0

/* Radiance at a point (sub-pixel position px, py) of the scene, before
 * the per-pixel texture. */
static void
scene (double px, double py, float rgb[3])
{
  double sx = px - SUN_X, sy = py - SUN_Y;
  double r = sqrt (sx * sx + sy * sy);

  /* A dark doorway: the deep shadow, about 1e-3. */
  if (px >= 60.0 && px < 150.0 && py >= 250.0)
    {
      double t = (py - 250.0) / (HDR_H - 250.0); /* darker downwards */
      double v = 0.004 * pow (0.25, t);
      rgb[0] = (float) v;
      rgb[1] = (float) (v * 0.95);
      rgb[2] = (float) (v * 0.9);
      return;
    }
  if (py < HORIZON)
    {
      if (r <= SUN_R)
        {
          /* Sun disc, slightly limb-darkened, peak 1000. */
          double mu = sqrt (1.0 - (r / SUN_R) * (r / SUN_R));
          double v = 1000.0 * (0.6 + 0.4 * mu);
          rgb[0] = (float) v;
          rgb[1] = (float) (v * 0.93);
          rgb[2] = (float) (v * 0.82);
          return;
        }
      {
        /* Sky from deep blue overhead to pale at the horizon, plus the
         * sun's glow falling off as 1/r^2. */
        double t = pow (py / HORIZON, 1.5);
        double glow = 30.0 * (SUN_R / r) * (SUN_R / r);
        rgb[0] = (float) (0.25 + 2.2 * t + glow);
        rgb[1] = (float) (0.45 + 2.1 * t + glow * 0.8);
        rgb[2] = (float) (1.30 + 1.4 * t + glow * 0.55);
        return;
      }
    }
  {
    /* Sunlit ground, with the building's shadow cast to the left of the
     * doorway wall: ten times darker than the lit ground. */
    double d = (py - HORIZON) / (HDR_H - HORIZON); /* 0 far .. 1 near */
    double lit = 0.15 + 0.35 * d;
    bool shadow = px >= 150.0 && px < 150.0 + 140.0 * d + 20.0
                  && py >= 250.0;
    double v = shadow ? lit * 0.1 : lit;
    rgb[0] = (float) (v * 1.0);
    rgb[1] = (float) (v * 0.85);
    rgb[2] = (float) (v * 0.6);
  }
}

static bool
make_hdr (const char *path)
{
  ClfxImage img;
  ClfxError error;
  bool ok;
  float lo = INFINITY, hi = 0.0f;

  clfx_error_clear (&error);
  if (! clfx_host_image_alloc (&img, HDR_W, HDR_H, 4, CLFX_DEPTH_FLOAT,
                               &error))
    {
      fprintf (stderr, "make-sample: %s\n", error.message);
      return false;
    }
  for (int y = 0; y < HDR_H; y++)
    for (int x = 0; x < HDR_W; x++)
      {
        /* 4x4 supersampling, so the sun's edge (1000 against 5) is
         * anti-aliased rather than a hard step. */
        float sum[3] = { 0.0f, 0.0f, 0.0f };
        float tex = 1.0f;

        for (int j = 0; j < 4; j++)
          for (int i = 0; i < 4; i++)
            {
              float rgb[3];

              scene (x + (i + 0.5) / 4.0, y + (j + 0.5) / 4.0, rgb);
              for (int k = 0; k < 3; k++)
                sum[k] += rgb[k] / 16.0f;
            }
        /* Ground and shadow get a +-8 % texture from the hash. */
        if (y >= HORIZON || (x >= 60 && x < 150 && y >= 250))
          tex = 1.0f + 0.08f * noise (x, y);
        for (int k = 0; k < 3; k++)
          {
            float v = sum[k] * tex;

            clfx_image_set (&img, x, y, k, v);
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
          }
        clfx_image_set (&img, x, y, 3, 1.0f);
      }

  ok = clfx_image_write (path, &img, 3, &error);
  if (! ok)
    fprintf (stderr, "make-sample: %s\n", error.message);
  else
    printf ("%s: values %.3g .. %.3g\n", path, (double) lo, (double) hi);
  clfx_host_image_free (&img);
  return ok;
}

int
main (int argc, char **argv)
{
  const char *dir = argc > 1 ? argv[1] : "data";
  char png_path[4096], pfm_path[4096];

  if (argc > 2 || (argc == 2 && argv[1][0] == '-'))
    {
      fprintf (stderr, "usage: make-sample [OUTDIR]\n");
      return 2;
    }
  snprintf (png_path, sizeof png_path, "%s/sample.png", dir);
  snprintf (pfm_path, sizeof pfm_path, "%s/sample-hdr.pfm", dir);
  if (! make_chart (png_path) || ! make_hdr (pfm_path))
    return 1;
  printf ("%s: %dx%d RGBA 8-bit\n", png_path, CHART_W, CHART_H);
  return 0;
}
