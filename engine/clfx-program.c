/* clfx-program.c: kernel source resolution and the binary cache file. */
#define _POSIX_C_SOURCE 200809L
#include "clfx-program.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CACHE_MAGIC "CLFXBIN1"

uint64_t
clfx_hash (uint64_t h, const void *data, size_t len)
{
  const unsigned char *p = data;

  for (size_t i = 0; i < len; i++)
    {
      h ^= p[i];
      h *= 0x100000001b3ULL;
    }
  return h;
}

uint64_t
clfx_hash_str (uint64_t h, const char *s)
{
  /* Include the terminator so ("ab","c") and ("a","bc") differ. */
  return clfx_hash (h, s, strlen (s) + 1);
}

static char *
read_file (const char *path, size_t *len_out)
{
  FILE  *f = fopen (path, "rb");
  char  *buf = NULL;
  long   len;

  if (! f)
    return NULL;
  if (fseek (f, 0, SEEK_END) == 0 && (len = ftell (f)) >= 0
      && fseek (f, 0, SEEK_SET) == 0 && (buf = malloc ((size_t) len + 1)))
    {
      if (fread (buf, 1, (size_t) len, f) != (size_t) len)
        {
          free (buf);
          buf = NULL;
        }
      else
        {
          buf[len] = '\0';
          if (len_out)
            *len_out = (size_t) len;
        }
    }
  fclose (f);
  return buf;
}

/* One kernel file's text, from the developer folder or the embedded table. */
static char *
kernel_file (const char *name, ClfxError *error)
{
  const char *dir = getenv ("CLFX_KERNEL_DIR");

  if (dir && *dir)
    {
      char  path[1024];
      char *text;
      snprintf (path, sizeof path, "%s/%s", dir, name);
      text = read_file (path, NULL);
      if (! text)
        clfx_error_set (error, CLFX_ERR_IO,
                        "cannot read kernel file '%s' (CLFX_KERNEL_DIR): %s",
                        path, strerror (errno));
      return text;
    }
  for (const ClfxKernelFile *f = clfx_kernel_files; f->name; f++)
    if (strcmp (f->name, name) == 0)
      return strdup (f->contents);
  clfx_error_set (error, CLFX_ERR_IO, "no embedded kernel file '%s'", name);
  return NULL;
}

typedef struct
{
  char  *buf;
  size_t len, cap;
  char   seen[16][64];
  int    n_seen;
} Text;

static bool
text_append (Text *t, const char *s, size_t n)
{
  if (t->len + n + 1 > t->cap)
    {
      size_t cap = (t->len + n + 1) * 2;
      char  *nb = realloc (t->buf, cap);
      if (! nb)
        return false;
      t->buf = nb;
      t->cap = cap;
    }
  memcpy (t->buf + t->len, s, n);
  t->len += n;
  t->buf[t->len] = '\0';
  return true;
}

static bool
inline_file (Text *t, const char *name, int depth, ClfxError *error)
{
  char       *text;
  const char *line;
  bool        ok = true;

  if (depth > 8)
    return clfx_error_set (error, CLFX_ERR_IO,
                           "kernel includes nest too deep at '%s'", name);
  for (int i = 0; i < t->n_seen; i++)
    if (strcmp (t->seen[i], name) == 0)
      return true;
  if (t->n_seen == 16 || strlen (name) >= sizeof t->seen[0])
    return clfx_error_set (error, CLFX_ERR_IO, "too many kernel includes");
  strcpy (t->seen[t->n_seen++], name);

  text = kernel_file (name, error);
  if (! text)
    return false;
  for (line = text; ok && *line;)
    {
      const char *end = strchr (line, '\n');
      size_t      n = end ? (size_t) (end - line + 1) : strlen (line);
      const char *p = line;
      char        inc[64];

      while (*p == ' ' || *p == '\t')
        p++;
      if (strncmp (p, "#include \"", 10) == 0
          && sscanf (p + 10, "%63[^\"]\"", inc) == 1)
        ok = inline_file (t, inc, depth + 1, error);
      else
        ok = text_append (t, line, n)
             || clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
      line += n;
    }
  free (text);
  return ok;
}

char *
clfx_program_source (const char *name, ClfxError *error)
{
  Text t = { 0 };
  char file[80];

  snprintf (file, sizeof file, "%s.cl", name);
  if (! inline_file (&t, file, 0, error))
    {
      free (t.buf);
      return NULL;
    }
  return t.buf;
}

typedef struct
{
  char     magic[8];
  uint64_t key;
  uint64_t len;
  uint64_t payload_hash;
} CacheHeader;

bool
clfx_cache_load (const char *path, uint64_t key, unsigned char **data,
                 size_t *len, char *why, size_t why_len)
{
  size_t       flen = 0;
  char        *file = read_file (path, &flen);
  CacheHeader  h;

  *data = NULL;
  *len = 0;
  if (! file)
    {
      snprintf (why, why_len, "no entry");
      return false;
    }
  if (flen < sizeof h)
    {
      snprintf (why, why_len, "entry truncated (%zu bytes)", flen);
      goto bad;
    }
  memcpy (&h, file, sizeof h);
  if (memcmp (h.magic, CACHE_MAGIC, 8) != 0)
    {
      snprintf (why, why_len, "entry has no clfx header");
      goto bad;
    }
  if (h.key != key)
    {
      snprintf (why, why_len, "entry is for another key");
      goto bad;
    }
  if (h.len != flen - sizeof h)
    {
      snprintf (why, why_len, "entry length %zu, header says %llu",
                flen - sizeof h, (unsigned long long) h.len);
      goto bad;
    }
  if (clfx_hash (CLFX_HASH_INIT, file + sizeof h, (size_t) h.len)
      != h.payload_hash)
    {
      snprintf (why, why_len, "entry checksum mismatch (corrupt)");
      goto bad;
    }
  *data = malloc ((size_t) h.len ? (size_t) h.len : 1);
  if (! *data)
    {
      snprintf (why, why_len, "out of memory");
      free (file);
      return false;
    }
  memcpy (*data, file + sizeof h, (size_t) h.len);
  *len = (size_t) h.len;
  free (file);
  return true;
bad:
  /* Never trust it again: the rebuild will write a fresh one. */
  unlink (path);
  free (file);
  return false;
}

bool
clfx_cache_store (const char *path, uint64_t key, const unsigned char *data,
                  size_t len)
{
  char        tmp[1100];
  CacheHeader h;
  FILE       *f;
  bool        ok;

  memcpy (h.magic, CACHE_MAGIC, 8);
  h.key = key;
  h.len = len;
  h.payload_hash = clfx_hash (CLFX_HASH_INIT, data, len);
  snprintf (tmp, sizeof tmp, "%s.%ld.tmp", path, (long) getpid ());
  f = fopen (tmp, "wb");
  if (! f)
    return false;
  ok = fwrite (&h, sizeof h, 1, f) == 1 && fwrite (data, 1, len, f) == len;
  ok = (fclose (f) == 0) && ok;
  if (ok)
    ok = rename (tmp, path) == 0;
  if (! ok)
    unlink (tmp);
  return ok;
}
