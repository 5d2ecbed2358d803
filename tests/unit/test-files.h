/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-files.h: a folder of the test's own, and whole files written and
 * read back in it, for the readers' tests (imageio, imageio-limits,
 * fuzz-readers).  Inline: not every test uses every piece. */
#ifndef CLFX_TEST_FILES_H
#define CLFX_TEST_FILES_H

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static inline bool
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
static inline unsigned char *
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

/* A fresh folder $TMPDIR (else /tmp)/NAME-XXXXXX into dir; false, with
 * TAP's "Bail out!", when it cannot be made. */
static inline bool
test_tmpdir_make (char *dir, size_t size, const char *name)
{
  const char *base = getenv ("TMPDIR");

  if (! base || ! *base)
    base = "/tmp";
  snprintf (dir, size, "%s/%s-XXXXXX", base, name);
  if (mkdtemp (dir))
    return true;
  printf ("Bail out! cannot create a folder under %s\n", base);
  return false;
}

/* The files in dir, then dir (it holds no folders). */
static inline void
test_tmpdir_remove (const char *dir)
{
  DIR           *d = opendir (dir);
  struct dirent *e;

  while (d && (e = readdir (d)) != NULL)
    {
      char path[4200];

      if (strcmp (e->d_name, ".") && strcmp (e->d_name, ".."))
        {
          snprintf (path, sizeof path, "%s/%s", dir, e->d_name);
          unlink (path);
        }
    }
  if (d)
    closedir (d);
  rmdir (dir);
}

#endif
