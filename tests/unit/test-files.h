/* test-files.h: whole files written and read back, for the readers'
 * tests (imageio, imageio-limits, fuzz-readers). */
#ifndef CLFX_TEST_FILES_H
#define CLFX_TEST_FILES_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

static bool
write_bytes (const char *path, const void *data, size_t size)
{
  FILE *fp = fopen (path, "wb");
  bool  ok;

  if (! fp)
    return false;
  ok = fwrite (data, 1, size, fp) == size;
  if (fclose (fp) != 0)
    ok = false;
  return ok;
}

/* A whole file (one byte more allocated); *size gets its length, NULL
 * when it cannot be read.  The caller frees it. */
static unsigned char *
read_bytes (const char *path, size_t *size)
{
  FILE          *fp = fopen (path, "rb");
  unsigned char *data = NULL;
  long           n;

  *size = 0;
  if (! fp)
    return NULL;
  if (fseek (fp, 0, SEEK_END) == 0 && (n = ftell (fp)) >= 0
      && fseek (fp, 0, SEEK_SET) == 0 && (data = malloc ((size_t) n + 1))
      && fread (data, 1, (size_t) n, fp) == (size_t) n)
    *size = (size_t) n;
  else
    {
      free (data);
      data = NULL;
    }
  fclose (fp);
  return data;
}

#endif
