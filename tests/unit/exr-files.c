/* SPDX-License-Identifier: GPL-3.0-or-later */
/* exr-files.c: OpenEXR files for the readers' tests (exr-files.h). */
#include "exr-files.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clfx-host-image.h"

static size_t
pixel_size (exr_pixel_type_t type)
{
  return type == EXR_PIXEL_HALF ? 2 : 4;
}

/* Stores v in the channel's own type at p (the encoder takes it as is). */
static void
store (unsigned char *p, exr_pixel_type_t type, float v)
{
  if (type == EXR_PIXEL_HALF)
    {
      uint16_t h = clfx_half_from_float (v);
      memcpy (p, &h, 2);
    }
  else if (type == EXR_PIXEL_UINT)
    {
      uint32_t u = v > 0.0f ? (uint32_t) v : 0u;
      memcpy (p, &u, 4);
    }
  else
    memcpy (p, &v, 4);
}

/* Encodes every chunk from planes (one per name, rows of width). */
static exr_result_t
write_chunks (exr_context_t f, int width, int height,
              const char *const *names, int n, exr_pixel_type_t type,
              unsigned char **planes)
{
  exr_encode_pipeline_t enc = EXR_ENCODE_PIPELINE_INITIALIZER;
  exr_result_t          rv = EXR_ERR_SUCCESS;
  int32_t               lines = 0;
  bool                  ready = false;
  size_t                ps = pixel_size (type);

  rv = exr_get_scanlines_per_chunk (f, 0, &lines);
  for (int y = 0; rv == EXR_ERR_SUCCESS && y < height; y += lines)
    {
      exr_chunk_info_t cinfo;

      rv = exr_write_scanline_chunk_info (f, 0, y, &cinfo);
      if (rv == EXR_ERR_SUCCESS)
        rv = ready ? exr_encoding_update (f, 0, &cinfo, &enc)
                   : exr_encoding_initialize (f, 0, &cinfo, &enc);
      if (rv != EXR_ERR_SUCCESS)
        break;
      ready = true;
      /* The library keeps the channels sorted by name. */
      for (int c = 0; c < enc.channel_count; c++)
        for (int i = 0; i < n; i++)
          if (! strcmp (enc.channels[c].channel_name, names[i]))
            {
              enc.channels[c].encode_from_ptr
                = planes[i] + (size_t) cinfo.start_y * width * ps;
              enc.channels[c].user_pixel_stride = (int32_t) ps;
              enc.channels[c].user_line_stride = (int32_t) (width * ps);
            }
      rv = exr_encoding_choose_default_routines (f, 0, &enc);
      if (rv == EXR_ERR_SUCCESS)
        rv = exr_encoding_run (f, 0, &enc);
    }
  if (ready)
    exr_encoding_destroy (f, &enc);
  return rv;
}

bool
exr_file_write (const char *path, int width, int height,
                const char *const *names, int n, exr_pixel_type_t type,
                exr_compression_t compression, ExrValueFn value)
{
  exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
  exr_context_t             f = NULL;
  unsigned char            *planes[8] = { NULL };
  size_t                    ps = pixel_size (type);
  int                       part = 0;
  exr_result_t              rv;

  if (n > 8)
    return false;
  for (int i = 0; i < n; i++)
    {
      if (! (planes[i] = malloc ((size_t) width * height * ps)))
        goto fail_alloc;
      for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++)
          store (planes[i] + ((size_t) y * width + x) * ps, type,
                 value (x, y, i));
    }
  rv = exr_start_write (&f, path, EXR_WRITE_FILE_DIRECTLY, &init);
  if (rv == EXR_ERR_SUCCESS)
    rv = exr_add_part (f, "image", EXR_STORAGE_SCANLINE, &part);
  if (rv == EXR_ERR_SUCCESS)
    rv = exr_initialize_required_attr_simple (f, part, width, height,
                                              compression);
  for (int i = 0; rv == EXR_ERR_SUCCESS && i < n; i++)
    rv = exr_add_channel (f, part, names[i], type,
                          EXR_PERCEPTUALLY_LOGARITHMIC, 1, 1);
  if (rv == EXR_ERR_SUCCESS)
    rv = exr_write_header (f);
  if (rv == EXR_ERR_SUCCESS)
    rv = write_chunks (f, width, height, names, n, type, planes);
  {
    exr_result_t fin = exr_finish (&f);
    if (rv == EXR_ERR_SUCCESS)
      rv = fin;
  }
  for (int i = 0; i < n; i++)
    free (planes[i]);
  if (rv != EXR_ERR_SUCCESS)
    printf ("# writing %s: %s\n", path, exr_get_default_error_message (rv));
  return rv == EXR_ERR_SUCCESS;

fail_alloc:
  for (int i = 0; i < n; i++)
    free (planes[i]);
  return false;
}

/* Appends an attribute: name, type, 4-byte little-endian size, value. */
static size_t
put_attribute (unsigned char *buf, size_t at, size_t size, const char *name,
               const char *type, const void *value, uint32_t n)
{
  size_t need = strlen (name) + 1 + strlen (type) + 1 + 4 + n;

  if (at == 0 || at + need > size)
    return 0;
  memcpy (buf + at, name, strlen (name) + 1);
  at += strlen (name) + 1;
  memcpy (buf + at, type, strlen (type) + 1);
  at += strlen (type) + 1;
  for (int k = 0; k < 4; k++)
    buf[at++] = (unsigned char) (n >> (8 * k));
  memcpy (buf + at, value, n);
  return at + n;
}

static void
le32 (unsigned char *p, uint32_t v)
{
  for (int k = 0; k < 4; k++)
    p[k] = (unsigned char) (v >> (8 * k));
}

size_t
exr_header_only (unsigned char *buf, size_t size, int width, int height,
                 exr_compression_t compression)
{
  static const unsigned char magic[8] = { 0x76, 0x2f, 0x31, 0x01, 2, 0, 0,
                                          0 };
  unsigned char chlist[4 * 18 + 1], box[16], order = 0, comp;
  unsigned char one[4], centre[8] = { 0 };
  float         f1 = 1.0f;
  size_t        at = sizeof magic;

  if (size < at)
    return 0;
  memset (buf, 0, size);
  memcpy (buf, magic, sizeof magic);
  /* Each channel: its name, pixel type 2 (float), pLinear and three
   * reserved bytes, x and y sampling 1. */
  for (int i = 0; i < 4; i++)
    {
      unsigned char *e = chlist + 18 * i;

      e[0] = (unsigned char) "ABGR"[i];
      e[1] = 0;
      le32 (e + 2, 2);
      le32 (e + 6, 0);
      le32 (e + 10, 1);
      le32 (e + 14, 1);
    }
  chlist[4 * 18] = 0;
  le32 (box, 0);
  le32 (box + 4, 0);
  le32 (box + 8, (uint32_t) (width - 1));
  le32 (box + 12, (uint32_t) (height - 1));
  comp = (unsigned char) compression;
  memcpy (one, &f1, 4);
  at = put_attribute (buf, at, size, "channels", "chlist", chlist,
                      sizeof chlist);
  at = put_attribute (buf, at, size, "compression", "compression", &comp, 1);
  at = put_attribute (buf, at, size, "dataWindow", "box2i", box, 16);
  at = put_attribute (buf, at, size, "displayWindow", "box2i", box, 16);
  at = put_attribute (buf, at, size, "lineOrder", "lineOrder", &order, 1);
  at = put_attribute (buf, at, size, "pixelAspectRatio", "float", one, 4);
  at = put_attribute (buf, at, size, "screenWindowCenter", "v2f", centre, 8);
  at = put_attribute (buf, at, size, "screenWindowWidth", "float", one, 4);
  if (at == 0 || at + 1 > size)
    return 0;
  buf[at++] = 0; /* the end of the header */
  return at;
}

/* The length of the NUL-terminated string at file[at], NUL included, or
 * 0 when it runs past size (or is longer than OpenEXR allows). */
static size_t
string_length (const unsigned char *file, size_t size, size_t at)
{
  for (size_t i = at; i < size && i - at < 256; i++)
    if (file[i] == 0)
      return i - at + 1;
  return 0;
}

/* Walks the header's attributes; where one is called want, puts where
 * its value starts in *found and its size in *found_size.  Returns the
 * header's end, or 0 when it does not parse within size bytes. */
static size_t
walk_attributes (const unsigned char *file, size_t size, const char *want,
                 size_t *found, size_t *found_size)
{
  size_t at = 8;

  if (size < 8)
    return 0;
  for (;;)
    {
      size_t   name, type;
      uint32_t n;

      if (at >= size)
        return 0;
      if (file[at] == 0)
        return at + 1;
      if (! (name = string_length (file, size, at))
          || ! (type = string_length (file, size, at + name))
          || at + name + type + 4 > size)
        return 0;
      n = (uint32_t) file[at + name + type]
          | (uint32_t) file[at + name + type + 1] << 8
          | (uint32_t) file[at + name + type + 2] << 16
          | (uint32_t) file[at + name + type + 3] << 24;
      if (want && ! strcmp ((const char *) file + at, want))
        {
          *found = at + name + type + 4;
          *found_size = n;
        }
      if (n > size - (at + name + type + 4))
        return 0;
      at += name + type + 4 + n;
    }
}

size_t
exr_header_end (const unsigned char *file, size_t size)
{
  return walk_attributes (file, size, NULL, NULL, NULL);
}

size_t
exr_attribute (const unsigned char *file, size_t size, const char *name,
               size_t *value_size)
{
  size_t at = 0, n = 0;

  walk_attributes (file, size, name, &at, &n);
  *value_size = n;
  return at;
}
