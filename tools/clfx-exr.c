/* clfx-exr.c: OpenEXR input for the command-line tools, through the
 * OpenEXR library's C API (OpenEXRCore, OpenEXR 3.1 and later), built
 * where the library is installed (meson finds it; the engine never
 * needs it).
 *
 * Scanline images of the first part: channels R, G, B and A (or Y and A,
 * a gray image), also under a layer prefix ("beauty.R"); any pixel type
 * is decoded to float.  The data window becomes the image.  OpenEXR
 * stores colour premultiplied by alpha: it is divided by alpha where
 * alpha is above 0 (clfx's images keep straight alpha, as GIMP's EXR
 * loader does), colour without alpha is kept as stored.  Values are
 * linear light, NaN and infinities included. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <openexr.h>

#include "clfx-imageio.h"

/* Which of RGBA (0-3) or Y (4) a channel name is, or -1. */
static int
channel_slot (const char *name)
{
  const char *dot = strrchr (name, '.');
  const char *base = dot ? dot + 1 : name;

  if (! strcmp (base, "R"))
    return 0;
  if (! strcmp (base, "G"))
    return 1;
  if (! strcmp (base, "B"))
    return 2;
  if (! strcmp (base, "A"))
    return 3;
  if (! strcmp (base, "Y"))
    return 4;
  return -1;
}

/* The library would print its messages; clfx reports its own error. */
static void
quiet (exr_const_context_t ctxt, exr_result_t code, const char *msg)
{
  (void) ctxt;
  (void) code;
  (void) msg;
}

bool
clfx_exr_read (const char *path, ClfxImage *img, int *file_channels,
               ClfxError *error)
{
  exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
  exr_context_t             f = NULL;
  exr_decode_pipeline_t     dec = EXR_DECODE_PIPELINE_INITIALIZER;
  const exr_attr_chlist_t  *chl = NULL;
  exr_attr_box2i_t          dw;
  exr_storage_t             storage;
  int32_t                   lines = 0;
  int                       slot_of[64], w, h, ch;
  bool                      have[5] = { false, false, false, false, false };
  bool                      gray, ok = false, dec_ready = false;
  float                    *rgba = NULL;
  ClfxError                 e = { 0 };
  exr_result_t              rv;

  memset (img, 0, sizeof *img);
  init.error_handler_fn = quiet;
  if ((rv = exr_start_read (&f, path, &init)) != EXR_ERR_SUCCESS)
    return clfx_error_set (error, CLFX_ERR_IO, "cannot read '%s': %s", path,
                           exr_get_default_error_message (rv));
  if ((rv = exr_get_storage (f, 0, &storage)) != EXR_ERR_SUCCESS
      || (rv = exr_get_data_window (f, 0, &dw)) != EXR_ERR_SUCCESS
      || (rv = exr_get_channels (f, 0, &chl)) != EXR_ERR_SUCCESS
      || (rv = exr_get_scanlines_per_chunk (f, 0, &lines)) != EXR_ERR_SUCCESS)
    {
      clfx_error_set (&e, CLFX_ERR_IO, "cannot read '%s': %s", path,
                      exr_get_default_error_message (rv));
      goto out;
    }
  if (storage != EXR_STORAGE_SCANLINE)
    {
      clfx_error_set (&e, CLFX_ERR_UNSUPPORTED,
                      "cannot read '%s': only scanline OpenEXR images are "
                      "read (this one is tiled or deep)", path);
      goto out;
    }
  w = dw.max.x - dw.min.x + 1;
  h = dw.max.y - dw.min.y + 1;
  if (w < 1 || h < 1 || w > CLFX_IMAGEIO_MAX_SIDE
      || h > CLFX_IMAGEIO_MAX_SIDE || lines < 1)
    {
      clfx_error_set (&e, CLFX_ERR_IO, "cannot read '%s': a data window of "
                      "%dx%d", path, w, h);
      goto out;
    }
  for (int i = 0; i < chl->num_channels && i < 64; i++)
    {
      slot_of[i] = channel_slot (chl->entries[i].name.str);
      if (slot_of[i] >= 0 && (chl->entries[i].x_sampling != 1
                              || chl->entries[i].y_sampling != 1))
        {
          clfx_error_set (&e, CLFX_ERR_UNSUPPORTED,
                          "cannot read '%s': channel %s is subsampled", path,
                          chl->entries[i].name.str);
          goto out;
        }
      if (slot_of[i] >= 0)
        {
          /* The first channel of each name wins (a file with layers). */
          if (have[slot_of[i]])
            slot_of[i] = -1;
          else
            have[slot_of[i]] = true;
        }
    }
  gray = ! (have[0] && have[1] && have[2]);
  if (gray && ! have[4])
    {
      clfx_error_set (&e, CLFX_ERR_UNSUPPORTED,
                      "cannot read '%s': no R, G, B (or Y) channels", path);
      goto out;
    }
  /* Decoded into RGBA float rows (Y into R), then laid out. */
  if (! (rgba = calloc ((size_t) w * (size_t) h * 4, sizeof *rgba)))
    {
      clfx_error_set (&e, CLFX_ERR_NOMEM, "out of memory reading '%s'", path);
      goto out;
    }
  for (long i = 0; i < (long) w * h; i++)
    rgba[4 * i + 3] = 1.0f;
  for (int y = dw.min.y; y <= dw.max.y; y += lines)
    {
      exr_chunk_info_t cinfo;

      if ((rv = exr_read_scanline_chunk_info (f, 0, y, &cinfo))
            != EXR_ERR_SUCCESS
          || (rv = dec_ready ? exr_decoding_update (f, 0, &cinfo, &dec)
                             : exr_decoding_initialize (f, 0, &cinfo, &dec))
               != EXR_ERR_SUCCESS)
        {
          clfx_error_set (&e, CLFX_ERR_IO, "cannot read '%s' at row %d: %s",
                          path, y, exr_get_default_error_message (rv));
          goto out;
        }
      dec_ready = true;
      for (int c = 0; c < dec.channel_count; c++)
        {
          exr_coding_channel_info_t *ci = &dec.channels[c];
          int                        slot = -1;

          for (int i = 0; i < chl->num_channels && i < 64; i++)
            if (! strcmp (chl->entries[i].name.str, ci->channel_name))
              slot = slot_of[i];
          if (slot < 0 || (! gray && slot == 4) || (gray && slot < 3))
            {
              ci->decode_to_ptr = NULL;
              continue;
            }
          ci->decode_to_ptr
            = (uint8_t *) (rgba + 4 * ((long) (cinfo.start_y - dw.min.y) * w)
                           + (slot == 4 ? 0 : slot));
          ci->user_pixel_stride = 16;
          ci->user_line_stride = 16 * w;
          ci->user_data_type = EXR_PIXEL_FLOAT;
          ci->user_bytes_per_element = 4;
        }
      if ((rv = exr_decoding_choose_default_routines (f, 0, &dec))
            != EXR_ERR_SUCCESS
          || (rv = exr_decoding_run (f, 0, &dec)) != EXR_ERR_SUCCESS)
        {
          clfx_error_set (&e, CLFX_ERR_IO, "cannot decode '%s' at row %d: %s",
                          path, y, exr_get_default_error_message (rv));
          goto out;
        }
    }
  ch = gray ? (have[3] ? 2 : 1) : 4;
  if (! clfx_host_image_alloc (img, w, h, ch, CLFX_DEPTH_FLOAT, &e))
    goto out;
  img->transfer = CLFX_TRC_LINEAR;
  img->straight_alpha = true;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        float *p = rgba + 4 * ((long) y * w + x);
        float  a = p[3];
        /* Premultiplied in the file, straight here. */
        if (have[3] && a > 0.0f)
          for (int k = 0; k < 3; k++)
            p[k] /= a;
        if (ch == 4)
          for (int k = 0; k < 4; k++)
            clfx_image_set (img, x, y, k, p[k]);
        else
          {
            clfx_image_set (img, x, y, 0, p[0]);
            if (ch == 2)
              clfx_image_set (img, x, y, 1, a);
          }
      }
  if (file_channels)
    *file_channels = gray ? (have[3] ? 2 : 1) : (have[3] ? 4 : 3);
  ok = true;
out:
  if (dec_ready)
    exr_decoding_destroy (f, &dec);
  exr_finish (&f);
  free (rgba);
  if (! ok)
    {
      clfx_host_image_free (img);
      memset (img, 0, sizeof *img);
      *error = e;
    }
  return ok;
}
