/* SPDX-License-Identifier: GPL-3.0-or-later */
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
 * linear light, NaN and infinities included.
 *
 * Nothing is allocated for the pixels before the declared size has
 * passed clfx_imageio_check_declared and every chunk's offset and leader
 * have been read: a 1 KiB header declaring 16384x16384 must not cost
 * 4 GiB before the library finds there is no data. */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include <openexr.h>

#include "clfx-imageio.h"

/* Channels past this many are never read (a file with many layers). */
#define MAX_CHANNELS 64

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

/* The file as clfx_image_read opened and measured it: the library reads
 * through these, so input from a pipe (read into memory) works and the
 * checks use the size clfx_image_read measured. */
typedef struct
{
  FILE     *fp;
  long long size;
} ExrStream;

static int64_t
stream_read (exr_const_context_t ctxt, void *user, void *buffer,
             uint64_t size, uint64_t offset,
             exr_stream_error_func_ptr_t error_cb)
{
  ExrStream *s = user;
  size_t     got;

  if (offset >= (uint64_t) s->size)
    return 0;
  if (fseeko (s->fp, (off_t) offset, SEEK_SET) != 0)
    {
      error_cb (ctxt, EXR_ERR_READ_IO, "cannot seek");
      return -1;
    }
  got = fread (buffer, 1, size, s->fp);
  if (got < size && ferror (s->fp))
    {
      error_cb (ctxt, EXR_ERR_READ_IO, "cannot read");
      return -1;
    }
  return (int64_t) got;
}

static int64_t
stream_size (exr_const_context_t ctxt, void *user)
{
  (void) ctxt;
  return ((ExrStream *) user)->size;
}

/* The most bytes of pixels one byte of a chunk can carry under each
 * compression.  RLE: a run of 128 bytes costs 2.  ZIP: deflate's 1032:1.
 * PIZ: Huffman codes with runs of at most 255 values, below deflate's,
 * which stands for it.  PXR24: float cut to 24 bits, then deflate.  B44:
 * a 4x4 block of half (32 bytes) in 14 bytes, B44A in 3 where it is flat.
 * DWA: at least one DC value of 2 bytes, deflated, for each 8x8 block of
 * float (256 bytes); it also stands for codecs newer than this list. */
static unsigned long long
best_ratio (exr_compression_t compression, const char **owner)
{
  switch (compression)
    {
    case EXR_COMPRESSION_NONE:
      *owner = "uncompressed data's";
      return 1;
    case EXR_COMPRESSION_RLE:
      *owner = "RLE's";
      return 64;
    case EXR_COMPRESSION_ZIPS:
    case EXR_COMPRESSION_ZIP:
      *owner = "ZIP's";
      return 1032;
    case EXR_COMPRESSION_PIZ:
      *owner = "PIZ's (at most deflate's)";
      return 1032;
    case EXR_COMPRESSION_PXR24:
      *owner = "PXR24's";
      return 1032 * 4 / 3;
    case EXR_COMPRESSION_B44:
      *owner = "B44's";
      return 3;
    case EXR_COMPRESSION_B44A:
      *owner = "B44A's";
      return 11;
    default:
      *owner = "DWA's";
      return 128 * 1032;
    }
}

/* The header's declared size against the file's size and the ceiling,
 * before anything is read past the header. */
static bool
check_header (const char *path, const exr_attr_box2i_t *dw,
              const exr_attr_chlist_t *chl, int32_t chunks,
              unsigned long long ratio, const char *owner,
              long long file_size, ClfxError *e)
{
  ClfxDeclaredSize d = {
    .format = "OpenEXR",
    .width = (long long) dw->max.x - dw->min.x + 1,
    .height = (long long) dw->max.y - dw->min.y + 1,
    .best_ratio = ratio,
    .ratio_owner = owner,
    /* The magic number and version, then each chunk's offset (8 bytes),
     * row (4) and packed size (4). */
    .overhead = 8 + 16ull * (unsigned long long) (chunks > 0 ? chunks : 0),
    .overhead_what = "magic number, version and chunk tables",
  };

  /* Subsampled channels count for nothing: a lower bound on the data,
   * which never refuses a sound file. */
  for (int i = 0; i < chl->num_channels; i++)
    if (chl->entries[i].x_sampling == 1 && chl->entries[i].y_sampling == 1)
      d.bits_per_pixel += chl->entries[i].pixel_type == EXR_PIXEL_HALF ? 16
                                                                       : 32;
  return clfx_imageio_check_declared (path, &d, file_size, e);
}

/* Every chunk's offset and leader, before the image is allocated: the
 * library checks that the offset table fits in the file, that each
 * offset points inside it and that each chunk's data ends within it;
 * here each chunk must be big enough for its pixels at the compression's
 * best ratio. */
static bool
check_chunks (exr_context_t f, const char *path, const exr_attr_box2i_t *dw,
              int lines, unsigned long long ratio, const char *owner,
              ClfxError *e)
{
  for (int64_t y = dw->min.y; y <= dw->max.y; y += lines)
    {
      exr_chunk_info_t cinfo;
      exr_result_t     rv = exr_read_scanline_chunk_info (f, 0, (int) y,
                                                          &cinfo);

      if (rv != EXR_ERR_SUCCESS)
        return clfx_error_set (e, CLFX_ERR_IO,
                               "cannot read '%s': the chunk of row %lld: "
                               "%s", path, (long long) y,
                               exr_get_default_error_message (rv));
      if (cinfo.packed_size > UINT64_MAX / ratio
          || cinfo.packed_size * ratio >= cinfo.unpacked_size)
        continue;
      return clfx_error_set (e, CLFX_ERR_IO,
                             "cannot read '%s': the chunk of row %lld holds "
                             "%llu bytes, too few for its %llu bytes of "
                             "pixel data at %s best ratio of %llu:1; the "
                             "file is corrupt", path, (long long) y,
                             (unsigned long long) cinfo.packed_size,
                             (unsigned long long) cinfo.unpacked_size, owner,
                             ratio);
    }
  return true;
}

/* Where each of the file's first MAX_CHANNELS channels goes in the
 * image (-1: nowhere), and what the file has (have[] by channel_slot).
 * Returns false with the error set for a subsampled channel that would
 * be read. */
static bool
map_channels (const char *path, const exr_attr_chlist_t *chl,
              int slot_of[MAX_CHANNELS], bool have[5], ClfxError *e)
{
  for (int i = 0; i < chl->num_channels && i < MAX_CHANNELS; i++)
    {
      slot_of[i] = channel_slot (chl->entries[i].name.str);
      if (slot_of[i] >= 0 && (chl->entries[i].x_sampling != 1
                              || chl->entries[i].y_sampling != 1))
        return clfx_error_set (e, CLFX_ERR_UNSUPPORTED,
                               "cannot read '%s': channel %s is subsampled",
                               path, chl->entries[i].name.str);
      if (slot_of[i] >= 0)
        {
          /* The first channel of each name wins (a file with layers). */
          if (have[slot_of[i]])
            slot_of[i] = -1;
          else
            have[slot_of[i]] = true;
        }
    }
  return true;
}

/* The image channel a file channel's slot lands in, or -1. */
static int
image_channel (int slot, int channels)
{
  if (channels == 4)
    return slot >= 0 && slot < 4 ? slot : -1;
  if (slot == 4)
    return 0;
  return slot == 3 && channels == 2 ? 1 : -1;
}

/* Points each of the decoder's channels somewhere for one chunk: those
 * read into rows (channel k of pixel_stride-byte pixels), the others into
 * the sink, all of them at once (strides 0). */
static void
aim_channels (exr_decode_pipeline_t *dec, const exr_attr_chlist_t *chl,
              const int slot_of[MAX_CHANNELS], int channels, uint8_t *rows,
              size_t pixel_stride, size_t row_stride, float *sink)
{
  for (int c = 0; c < dec->channel_count; c++)
    {
      exr_coding_channel_info_t *ci = &dec->channels[c];
      int                        k = -1;

      /* The decoder lists the channels in the header's order. */
      if (c < MAX_CHANNELS && c < chl->num_channels
          && ! strcmp (chl->entries[c].name.str, ci->channel_name))
        k = image_channel (slot_of[c], channels);
      ci->decode_to_ptr = k >= 0 ? rows + (size_t) k * sizeof (float)
                                 : (uint8_t *) sink;
      ci->user_pixel_stride = k >= 0 ? (int32_t) pixel_stride : 0;
      ci->user_line_stride = k >= 0 ? (int32_t) row_stride : 0;
      ci->user_data_type = EXR_PIXEL_FLOAT;
      ci->user_bytes_per_element = sizeof (float);
    }
}

/* Decodes every chunk into img.  The library's fast unpackers are kept
 * out on purpose: OpenEXR 3.2's for four half channels into interleaved
 * float writes them in reverse order (fixed in 3.3), and some write
 * through the pointer of a channel that is left out.  So every channel
 * goes somewhere (aim_channels), and a chunk is decoded into rows with a
 * float of padding after each pixel, a layout none of them takes, then
 * copied into the image.  Colour without alpha gets alpha 1 there. */
static bool
decode_chunks (exr_context_t f, const char *path, const exr_attr_box2i_t *dw,
               int lines, const exr_attr_chlist_t *chl,
               const int slot_of[MAX_CHANNELS], ClfxImage *img, ClfxError *e)
{
  exr_decode_pipeline_t dec = EXR_DECODE_PIPELINE_INITIALIZER;
  bool                  ready = false, ok = true;
  size_t                pixel = (size_t) img->channels * sizeof (float);
  size_t                padded = pixel + sizeof (float);
  size_t                row_stride = (size_t) img->width * padded;
  float                 sink[4];
  /* A chunk's rows, no more than the image has. */
  int                   n_rows = lines < img->height ? lines : img->height;
  uint8_t              *rows = calloc ((size_t) n_rows, row_stride);

  if (! rows)
    return clfx_error_set (e, CLFX_ERR_NOMEM, "cannot read '%s': out of "
                           "memory for %d rows", path, n_rows);
  if (img->channels == 4)
    for (size_t i = 0; i < (size_t) n_rows * img->width; i++)
      {
        float one = 1.0f;
        memcpy (rows + i * padded + 3 * sizeof (float), &one, sizeof one);
      }
  for (int64_t y = dw->min.y; ok && y <= dw->max.y; y += lines)
    {
      exr_chunk_info_t cinfo;
      exr_result_t     rv;

      if ((rv = exr_read_scanline_chunk_info (f, 0, (int) y, &cinfo))
            != EXR_ERR_SUCCESS
          || (rv = ready ? exr_decoding_update (f, 0, &cinfo, &dec)
                         : exr_decoding_initialize (f, 0, &cinfo, &dec))
               != EXR_ERR_SUCCESS)
        {
          ok = clfx_error_set (e, CLFX_ERR_IO,
                               "cannot read '%s' at row %lld: %s", path,
                               (long long) y,
                               exr_get_default_error_message (rv));
          break;
        }
      ready = true;
      aim_channels (&dec, chl, slot_of, img->channels, rows, padded,
                    row_stride, sink);
      if ((rv = exr_decoding_choose_default_routines (f, 0, &dec))
            != EXR_ERR_SUCCESS
          || (rv = exr_decoding_run (f, 0, &dec)) != EXR_ERR_SUCCESS)
        {
          /* The library also says "out of memory" when a chunk's data
           * unpacks to more than its rows hold. */
          ok = clfx_error_set (e, CLFX_ERR_IO,
                               "cannot decode '%s' at row %lld: %s", path,
                               (long long) y,
                               rv == EXR_ERR_OUT_OF_MEMORY
                                 ? "the chunk's data does not fit its rows "
                                   "(a corrupt file), or memory ran out"
                                 : exr_get_default_error_message (rv));
          break;
        }
      for (int r = 0; r < cinfo.height; r++)
        {
          uint8_t *dst = (uint8_t *) img->data
                         + (size_t) (cinfo.start_y - dw->min.y + r)
                             * img->stride;

          for (int x = 0; x < img->width; x++)
            memcpy (dst + (size_t) x * pixel,
                    rows + (size_t) r * row_stride + (size_t) x * padded,
                    pixel);
        }
    }
  if (ready)
    exr_decoding_destroy (f, &dec);
  free (rows);
  return ok;
}

bool
clfx_exr_read (const char *path, FILE *fp, long long size, ClfxImage *img,
               int *file_channels, ClfxError *error)
{
  exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
  ExrStream                 stream = { fp, size };
  exr_context_t             f = NULL;
  const exr_attr_chlist_t  *chl = NULL;
  exr_attr_box2i_t          dw;
  exr_storage_t             storage;
  exr_compression_t         compression;
  int32_t                   lines = 0, chunks = 0;
  int                       slot_of[MAX_CHANNELS], ch;
  bool                      have[5] = { false, false, false, false, false };
  bool                      gray, ok = false;
  unsigned long long        ratio;
  const char               *owner;
  ClfxError                 e = { 0 }, inner = { 0 };
  exr_result_t              rv;

  memset (img, 0, sizeof *img);
  init.error_handler_fn = quiet;
  init.user_data = &stream;
  init.read_fn = stream_read;
  init.size_fn = stream_size;
  if ((rv = exr_start_read (&f, path, &init)) != EXR_ERR_SUCCESS)
    return clfx_error_set (error, CLFX_ERR_IO, "cannot read '%s': %s", path,
                           exr_get_default_error_message (rv));
  if ((rv = exr_get_storage (f, 0, &storage)) != EXR_ERR_SUCCESS
      || (rv = exr_get_data_window (f, 0, &dw)) != EXR_ERR_SUCCESS
      || (rv = exr_get_channels (f, 0, &chl)) != EXR_ERR_SUCCESS
      || (rv = exr_get_compression (f, 0, &compression)) != EXR_ERR_SUCCESS
      || (rv = exr_get_scanlines_per_chunk (f, 0, &lines)) != EXR_ERR_SUCCESS
      || (rv = exr_get_chunk_count (f, 0, &chunks)) != EXR_ERR_SUCCESS)
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
  ratio = best_ratio (compression, &owner);
  if (! check_header (path, &dw, chl, chunks, ratio, owner, size, &e))
    goto out;
  if (lines < 1 || chunks < 1)
    {
      clfx_error_set (&e, CLFX_ERR_IO, "cannot read '%s': %d chunks of %d "
                      "rows", path, chunks, lines);
      goto out;
    }
  if (! map_channels (path, chl, slot_of, have, &e))
    goto out;
  gray = ! (have[0] && have[1] && have[2]);
  if (gray && ! have[4])
    {
      clfx_error_set (&e, CLFX_ERR_UNSUPPORTED,
                      "cannot read '%s': no R, G, B (or Y) channels", path);
      goto out;
    }
  if (! check_chunks (f, path, &dw, lines, ratio, owner, &e))
    goto out;

  ch = gray ? (have[3] ? 2 : 1) : 4;
  if (! clfx_host_image_alloc (img, (int) (dw.max.x - dw.min.x + 1),
                               (int) (dw.max.y - dw.min.y + 1), ch,
                               CLFX_DEPTH_FLOAT, &inner))
    {
      clfx_error_set (&e, inner.code, "cannot read '%s': %s", path,
                      inner.message);
      goto out;
    }
  img->transfer = CLFX_TRC_LINEAR;
  img->straight_alpha = true;
  if (! decode_chunks (f, path, &dw, lines, chl, slot_of, img, &e))
    goto out;
  /* Premultiplied in the file, straight here: colour (or gray) divided
   * by alpha, the last channel. */
  if (have[3])
    for (int y = 0; y < img->height; y++)
      {
        float *p = (float *) ((unsigned char *) img->data
                              + (size_t) y * img->stride);

        for (int x = 0; x < img->width; x++, p += ch)
          if (p[ch - 1] > 0.0f)
            for (int k = 0; k < ch - 1; k++)
              p[k] /= p[ch - 1];
      }
  if (file_channels)
    *file_channels = gray ? (have[3] ? 2 : 1) : (have[3] ? 4 : 3);
  ok = true;
out:
  exr_finish (&f);
  if (! ok)
    {
      clfx_host_image_free (img);
      memset (img, 0, sizeof *img);
      *error = e;
    }
  return ok;
}
