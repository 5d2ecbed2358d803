/* SPDX-License-Identifier: GPL-3.0-or-later */
/* mantiuk06-ref: engine/ops/mantiuk06-ref.c on an image file, for the
 * comparison with gegl:mantiuk06 (tests/gegl/mantiuk06-agree.py).
 *
 *   mantiuk06-ref IN OUT.pfm [CONTRAST [SATURATION]]
 *
 * Prints the pyramid levels, the CG iterations and residual. */
#include <stdio.h>
#include <stdlib.h>

#include "clfx-imageio.h"
#include "ops/mantiuk06-ref.h"

int
main (int argc, char **argv)
{
  ClfxMantiuk06RefParams p = { .contrast = 0.1, .saturation = 0.8 };
  ClfxMantiuk06Info   info;
  ClfxImage           img, rgba;
  ClfxError           err = { 0 };
  float              *px;

  if (argc < 3 || argc > 5)
    {
      fprintf (stderr, "usage: %s IN OUT.pfm [CONTRAST [SATURATION]]\n",
               argv[0]);
      return 2;
    }
  if (argc > 3)
    p.contrast = atof (argv[3]);
  if (argc > 4)
    p.saturation = atof (argv[4]);
  if (! clfx_image_read (argv[1], &img, NULL, &err))
    {
      fprintf (stderr, "%s\n", err.message);
      return 1;
    }
  if (! clfx_host_image_alloc (&rgba, img.width, img.height, 4,
                               CLFX_DEPTH_FLOAT, &err))
    {
      fprintf (stderr, "%s\n", err.message);
      return 1;
    }
  for (int y = 0; y < img.height; y++)
    for (int x = 0; x < img.width; x++)
      for (int c = 0; c < 4; c++)
        {
          /* Gray files: the one value in every colour channel. */
          int src = img.channels >= 3 ? c : (c < 3 ? 0 : img.channels - 1);
          float v = c == 3 && img.channels % 2 ? 1.0f
                    : clfx_image_get (&img, x, y, src);

          clfx_image_set (&rgba, x, y, c, v);
        }
  px = (float *) rgba.data;
  if (! clfx_mantiuk06_ref (img.width, img.height, px, px, &p, &info))
    {
      fprintf (stderr, "mantiuk06-ref: failed (contrast must be > 0)\n");
      return 1;
    }
  printf ("levels %d iterations %d residual %.6g converged %d resets %d "
          "l_min %.9g l_max %.9g\n", info.levels, info.iterations,
          info.residual, info.converged, info.resets, info.l_min, info.l_max);
  if (! clfx_image_write (argv[2], &rgba, 3, &err))
    {
      fprintf (stderr, "%s\n", err.message);
      return 1;
    }
  clfx_host_image_free (&img);
  clfx_host_image_free (&rgba);
  return 0;
}
