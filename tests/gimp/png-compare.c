/* SPDX-License-Identifier: GPL-3.0-or-later */
/* png-compare.c: the GIMP tests' image tool.
 *
 *   png-compare A B [MAXDIFF] [--premultiplied]
 *       compares two PNGs of the same size, layout and depth; prints the
 *       largest difference in the files' own code units and where, and
 *       the mean difference; exits 0 when the largest is <= MAXDIFF
 *       (default 0), 1 when not, 2 on errors.  --premultiplied compares
 *       colour multiplied by alpha (what the pixel shows: colour under a
 *       small alpha, once divided by it, may tip to the next code; under
 *       alpha 0 it is meaningless).  --inside X,Y,W,H compares only that
 *       rectangle, --outside X,Y,W,H only what lies outside it (a filter
 *       within a selection; written before --premultiplied).  With
 *       --inside, a B of the rectangle's size is B for that rectangle
 *       alone (what a filter given only the rectangle makes).
 *   png-compare --crop IN X,Y,W,H OUT
 *       writes that rectangle of IN, with IN's channels.
 *   png-compare --opaque IN OUT CHANNELS
 *       writes IN with alpha set to opaque, as RGB (3) or RGBA (4).
 *   png-compare --size FILE
 *       prints WIDTHxHEIGHT.
 *   png-compare --checkerboard WIDTH HEIGHT OUT
 *       writes an 8-bit RGB checkerboard of single black and white pixels.
 *   png-compare --range FILE
 *       prints the smallest and largest colour value in code units. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clfx-imageio.h"

static double
code_max (const ClfxImage *img)
{
  return img->depth == CLFX_DEPTH_U8 ? 255.0 : 65535.0;
}

/* Sample c of (x, y) in code units, optionally premultiplied.  Stored
 * codes are whole: rounding takes away the float read's error, which made
 * a one-code difference of 16-bit files read as 1.002. */
static double
sample (const ClfxImage *img, int x, int y, int c, int premultiplied)
{
  double v = clfx_image_get (img, x, y, c);
  int    alpha = img->channels == 2 || img->channels == 4
                 ? img->channels - 1 : -1;

  if (premultiplied && alpha >= 0 && c != alpha)
    return v * clfx_image_get (img, x, y, alpha) * code_max (img);
  return nearbyint (v * code_max (img));
}

/* Which pixels compare counts: all, those inside rect or those
 * outside it. */
typedef struct
{
  int mode; /* 0 all, 1 inside, -1 outside */
  int x, y, w, h;
} Region;

static int
counted (const Region *r, int x, int y)
{
  int in = x >= r->x && y >= r->y && x < r->x + r->w && y < r->y + r->h;

  return r->mode == 0 || (r->mode > 0) == in;
}

static int
compare (const char *a_path, const char *b_path, double max_diff,
         int premultiplied, const Region *region)
{
  ClfxImage a, b;
  ClfxError e = { 0 };
  double    worst = 0, sum = 0, n = 0;
  int       wx = 0, wy = 0, wc = 0, status = 2, bx = 0, by = 0;

  if (! clfx_image_read (a_path, &a, NULL, &e))
    {
      fprintf (stderr, "png-compare: %s\n", e.message);
      return 2;
    }
  if (! clfx_image_read (b_path, &b, NULL, &e))
    {
      fprintf (stderr, "png-compare: %s\n", e.message);
      clfx_host_image_free (&a);
      return 2;
    }
  /* B made for the --inside rectangle alone: read it at its offset. */
  if (region->mode > 0 && (a.width != b.width || a.height != b.height)
      && b.width == region->w && b.height == region->h)
    {
      bx = region->x;
      by = region->y;
    }
  if ((! bx && ! by && (a.width != b.width || a.height != b.height))
      || a.channels != b.channels || a.depth != b.depth)
    {
      printf ("differ in shape: %dx%d %d ch %s vs %dx%d %d ch %s\n", a.width,
              a.height, a.channels, clfx_depth_name (a.depth), b.width,
              b.height, b.channels, clfx_depth_name (b.depth));
      status = 1;
      goto out;
    }
  for (int y = 0; y < a.height; y++)
    for (int x = 0; x < a.width; x++)
      for (int c = 0; c < a.channels && counted (region, x, y); c++)
        {
          double d = fabs (sample (&a, x, y, c, premultiplied)
                           - sample (&b, x - bx, y - by, c, premultiplied));
          sum += d;
          n++;
          if (d > worst)
            {
              worst = d;
              wx = x;
              wy = y;
              wc = c;
            }
        }
  printf ("%dx%d %d ch %s: max diff %.3f at (%d,%d) ch %d, mean %.4f "
          "(allowed %g)\n", a.width, a.height, a.channels,
          clfx_depth_name (a.depth), worst, wx, wy, wc,
          n > 0 ? sum / n : 0.0, max_diff);
  /* A region that holds no pixel compares nothing: an error. */
  status = n == 0 ? 2 : worst <= max_diff + 1e-6 ? 0 : 1;
out:
  clfx_host_image_free (&a);
  clfx_host_image_free (&b);
  return status;
}

static int
make_opaque (const char *in, const char *out, int channels)
{
  ClfxImage img;
  ClfxError e = { 0 };
  int       ok;

  if (! clfx_image_read (in, &img, NULL, &e))
    {
      fprintf (stderr, "png-compare: %s\n", e.message);
      return 2;
    }
  if (img.channels == 2 || img.channels == 4)
    for (int y = 0; y < img.height; y++)
      for (int x = 0; x < img.width; x++)
        clfx_image_set (&img, x, y, img.channels - 1, 1.0f);
  ok = clfx_image_write (out, &img, channels, &e);
  if (! ok)
    fprintf (stderr, "png-compare: %s\n", e.message);
  clfx_host_image_free (&img);
  return ok ? 0 : 2;
}

static int
crop (const char *in, const char *rect, const char *out)
{
  ClfxImage img, part;
  ClfxError e = { 0 };
  int       x0, y0, w, h, file_channels = 0, ok;

  if (sscanf (rect, "%d,%d,%d,%d", &x0, &y0, &w, &h) != 4)
    {
      fprintf (stderr, "png-compare: --crop wants X,Y,W,H\n");
      return 2;
    }
  if (! clfx_image_read (in, &img, &file_channels, &e))
    {
      fprintf (stderr, "png-compare: %s\n", e.message);
      return 2;
    }
  if (x0 < 0 || y0 < 0 || w < 1 || h < 1 || x0 + w > img.width
      || y0 + h > img.height
      || ! clfx_host_image_alloc (&part, w, h, img.channels, img.depth, &e))
    {
      fprintf (stderr, "png-compare: %s: no %s rectangle\n", in, rect);
      clfx_host_image_free (&img);
      return 2;
    }
  part.straight_alpha = img.straight_alpha;
  part.transfer = img.transfer;
  for (int y = 0; y < h; y++)
    memcpy ((char *) part.data + (size_t) y * part.stride,
            (const char *) img.data + (size_t) (y + y0) * img.stride
              + (size_t) x0 * clfx_image_pixel_size (&img),
            (size_t) w * clfx_image_pixel_size (&img));
  ok = clfx_image_write (out, &part, file_channels, &e);
  if (! ok)
    fprintf (stderr, "png-compare: %s\n", e.message);
  clfx_host_image_free (&img);
  clfx_host_image_free (&part);
  return ok ? 0 : 2;
}

static int
print_size (const char *path)
{
  ClfxImage img;
  ClfxError e = { 0 };

  if (! clfx_image_read (path, &img, NULL, &e))
    {
      fprintf (stderr, "png-compare: %s\n", e.message);
      return 2;
    }
  printf ("%dx%d\n", img.width, img.height);
  clfx_host_image_free (&img);
  return 0;
}

static int
checkerboard (int width, int height, const char *out)
{
  ClfxImage img;
  ClfxError e = { 0 };
  int       ok;

  if (! clfx_host_image_alloc (&img, width, height, 4, CLFX_DEPTH_U8, &e))
    {
      fprintf (stderr, "png-compare: %s\n", e.message);
      return 2;
    }
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      for (int c = 0; c < 4; c++)
        clfx_image_set (&img, x, y, c, c == 3 || (x + y) % 2 ? 1.0f : 0.0f);
  ok = clfx_image_write (out, &img, 3, &e);
  if (! ok)
    fprintf (stderr, "png-compare: %s\n", e.message);
  clfx_host_image_free (&img);
  return ok ? 0 : 2;
}

static int
print_range (const char *path)
{
  ClfxImage img;
  ClfxError e = { 0 };
  double    lo = INFINITY, hi = -INFINITY;

  if (! clfx_image_read (path, &img, NULL, &e))
    {
      fprintf (stderr, "png-compare: %s\n", e.message);
      return 2;
    }
  for (int y = 0; y < img.height; y++)
    for (int x = 0; x < img.width; x++)
      for (int c = 0; c < img.channels; c++)
        if (clfx_image_is_colour (&img, c))
          {
            double v = sample (&img, x, y, c, 0);
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
          }
  printf ("%g %g\n", lo, hi);
  clfx_host_image_free (&img);
  return 0;
}

int
main (int argc, char **argv)
{
  int    premultiplied = argc > 1
                         && ! strcmp (argv[argc - 1], "--premultiplied");
  Region region = { 0, 0, 0, 0, 0 };

  if (premultiplied)
    argc--;
  if (argc > 3 && (! strcmp (argv[argc - 2], "--inside")
                   || ! strcmp (argv[argc - 2], "--outside")))
    {
      region.mode = ! strcmp (argv[argc - 2], "--inside") ? 1 : -1;
      if (sscanf (argv[argc - 1], "%d,%d,%d,%d", &region.x, &region.y,
                  &region.w, &region.h) != 4)
        {
          fprintf (stderr, "png-compare: %s wants X,Y,W,H\n", argv[argc - 2]);
          return 2;
        }
      argc -= 2;
    }
  if (argc == 5 && ! strcmp (argv[1], "--opaque"))
    return make_opaque (argv[2], argv[3], atoi (argv[4]));
  if (argc == 3 && ! strcmp (argv[1], "--size"))
    return print_size (argv[2]);
  if (argc == 5 && ! strcmp (argv[1], "--crop"))
    return crop (argv[2], argv[3], argv[4]);
  if (argc == 5 && ! strcmp (argv[1], "--checkerboard"))
    return checkerboard (atoi (argv[2]), atoi (argv[3]), argv[4]);
  if (argc == 3 && ! strcmp (argv[1], "--range"))
    return print_range (argv[2]);
  if (argc == 3 || argc == 4)
    return compare (argv[1], argv[2], argc == 4 ? atof (argv[3]) : 0.0,
                    premultiplied, &region);
  fprintf (stderr, "usage: png-compare A B [MAXDIFF] [--inside|--outside "
                   "X,Y,W,H] [--premultiplied]\n"
                   "       png-compare --opaque IN OUT 3|4\n"
                   "       png-compare --size FILE\n"
                   "       png-compare --crop IN X,Y,W,H OUT\n"
                   "       png-compare --checkerboard WIDTH HEIGHT OUT\n"
                   "       png-compare --range FILE\n");
  return 2;
}
