/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-program.c: kernel source resolution and the binary cache file. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* mkstemp */
#include "clfx-program.h"
#include "clfx-tuning.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CACHE_MAGIC "CLFXBIN1"
/* The largest kernel file and cache entry read (a kernel binary is a few
 * MB; PoCL's with its cached bitcode can reach tens). */
#define KERNEL_FILE_MAX ((size_t) 16 << 20)
#define CACHE_ENTRY_MAX ((size_t) 256 << 20)

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

/* A regular file's bytes (NUL-terminated), at most max of them.  Opened
 * without blocking (a FIFO would wait for a writer forever) and, for cache
 * entries, without following a symbolic link; anything but a regular file
 * is refused before a byte is read.  NULL with the reason in why (and,
 * when the open failed, its errno). */
static char *
read_file (const char *path, size_t *len_out, size_t max, bool nofollow,
           char *why, size_t why_len)
{
  int         fd = open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC
                                 | (nofollow ? O_NOFOLLOW : 0));
  struct stat st;
  char       *buf = NULL;
  size_t      got = 0;

  if (fd < 0)
    {
      int e = errno;
      snprintf (why, why_len, "%s", e == ELOOP && nofollow
                                      ? "a symbolic link, not a file"
                                      : strerror (e));
      /* The caller tells a missing file from a refused one by errno. */
      errno = e;
      return NULL;
    }
  if (fstat (fd, &st) != 0 || ! S_ISREG (st.st_mode))
    {
      snprintf (why, why_len, "not a regular file");
      goto out;
    }
  if ((uint64_t) st.st_size > max)
    {
      snprintf (why, why_len, "%lld bytes, more than the %zu allowed",
                (long long) st.st_size, max);
      goto out;
    }
  if (! (buf = malloc ((size_t) st.st_size + 1)))
    {
      snprintf (why, why_len, "out of memory");
      goto out;
    }
  while (got < (size_t) st.st_size)
    {
      ssize_t n = read (fd, buf + got, (size_t) st.st_size - got);
      if (n <= 0)
        {
          snprintf (why, why_len, "%s", n < 0 ? strerror (errno)
                                              : "shorter than its size");
          free (buf);
          buf = NULL;
          goto out;
        }
      got += (size_t) n;
    }
  buf[got] = '\0';
  if (len_out)
    *len_out = got;
out:
  close (fd);
  return buf;
}

/* One kernel file's text, from the developer folder or the embedded table. */
static char *
kernel_file (const char *name, ClfxError *error)
{
  const char *dir = clfx_config_kernel_dir ();

  if (dir)
    {
      char  path[1024], why[128];
      char *text;
      if ((size_t) snprintf (path, sizeof path, "%s/%s", dir, name)
          >= sizeof path)
        {
          clfx_error_set (error, CLFX_ERR_IO, "kernel file '%s' in "
                          "CLFX_KERNEL_DIR: its path is longer than %zu "
                          "bytes", name, sizeof path - 1);
          return NULL;
        }
      text = read_file (path, NULL, KERNEL_FILE_MAX, false, why, sizeof why);
      if (! text)
        clfx_error_set (error, CLFX_ERR_IO,
                        "cannot read kernel file '%s' (CLFX_KERNEL_DIR): %s",
                        path, why);
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
clfx_kernel_source (const char *file, ClfxError *error)
{
  Text t = { 0 };

  if (! inline_file (&t, file, 0, error))
    {
      free (t.buf);
      return NULL;
    }
  return t.buf;
}

char *
clfx_program_source (const char *name, ClfxError *error)
{
  char file[80];

  snprintf (file, sizeof file, "%s.cl", name);
  return clfx_kernel_source (file, error);
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
  char         reason[128];
  char        *file = read_file (path, &flen, CACHE_ENTRY_MAX, true, reason,
                                 sizeof reason);
  CacheHeader  h;

  *data = NULL;
  *len = 0;
  if (! file)
    {
      if (errno == ENOENT)
        {
          snprintf (why, why_len, "no entry");
          return false;
        }
      /* A link, a FIFO, a folder, an oversized file: never ours. */
      snprintf (why, why_len, "entry refused: %s", reason);
      goto bad;
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
  /* Never trust it again: the rebuild will write a fresh one (rename
   * replaces a link or a FIFO; a folder stays, and the store fails). */
  unlink (path);
  free (file);
  return false;
}

static void
mark_path (const char *path, char *mark, size_t mark_len)
{
  snprintf (mark, mark_len, "%s.loading", path);
}

/* Entries this process's threads are loading (device all builds the same
 * program on every device of a kind at once): a thread waits for another
 * one's load of the same entry rather than take its mark for a crashed
 * process's, or build from source beside it. */
#define LOADS_MAX 32
static pthread_mutex_t loads_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t  loads_done = PTHREAD_COND_INITIALIZER;
static char           *loads[LOADS_MAX];

static int
load_slot (const char *path)
{
  for (int i = 0; i < LOADS_MAX; i++)
    if (loads[i] && ! strcmp (loads[i], path))
      return i;
  return -1;
}

/* Takes path for this thread, waiting up to a minute while another
 * thread holds it; false (with why) when it cannot. */
static bool
load_take (const char *path, char *why, size_t why_len)
{
  struct timespec until;
  int             st = 0;
  bool            taken = false;

  clock_gettime (CLOCK_REALTIME, &until);
  until.tv_sec += 60;
  pthread_mutex_lock (&loads_lock);
  while (load_slot (path) >= 0 && st == 0)
    st = pthread_cond_timedwait (&loads_done, &loads_lock, &until);
  for (int i = 0; st == 0 && i < LOADS_MAX && ! taken; i++)
    if (! loads[i])
      taken = (loads[i] = strdup (path)) != NULL;
  pthread_mutex_unlock (&loads_lock);
  if (! taken)
    snprintf (why, why_len, "%s",
              st ? "another thread of this process is still loading this "
                   "entry"
                 : "too many entries being loaded at once");
  return taken;
}

static void
load_give (const char *path)
{
  pthread_mutex_lock (&loads_lock);
  for (int i; (i = load_slot (path)) >= 0;)
    {
      free (loads[i]);
      loads[i] = NULL;
    }
  pthread_cond_broadcast (&loads_done);
  pthread_mutex_unlock (&loads_lock);
}

/* The mark, holding this process's id, made whole before it appears
 * (written to a file of its own, then linked to the mark's name, which
 * fails if the name exists): another process never reads it empty,
 * which would look like a mark a crashed process left.  0 when made,
 * else errno (EEXIST: the mark is another's). */
static int
mark_make (const char *mark)
{
  char tmp[1200], text[32];
  int  fd, n, err = 0;

  if ((size_t) snprintf (tmp, sizeof tmp, "%s.XXXXXX", mark) >= sizeof tmp)
    return ENAMETOOLONG;
  if ((fd = mkstemp (tmp)) < 0)
    return errno;
  n = snprintf (text, sizeof text, "%ld\n", (long) getpid ());
  if (write (fd, text, (size_t) n) != n)
    err = errno ? errno : EIO;
  if (close (fd) != 0 && ! err)
    err = errno;
  if (! err && link (tmp, mark) != 0)
    err = errno;
  unlink (tmp);
  return err;
}

/* The mark for this process, or false with why: another process's live
 * load, or a mark a crashed load left (then the entry and it are
 * deleted). */
static bool
mark_take (const char *path, char *why, size_t why_len)
{
  char        mark[1100], reason[64];
  char       *held;
  int         err;
  long        pid = 0;
  struct stat st;

  mark_path (path, mark, sizeof mark);
  if (! (err = mark_make (mark)))
    return true;
  if (err != EEXIST)
    {
      snprintf (why, why_len, "could not mark the entry as loading (%s)",
                strerror (err));
      return false;
    }
  held = read_file (mark, NULL, 64, true, reason, sizeof reason);
  if (held)
    pid = strtol (held, NULL, 10);
  free (held);
  /* A live process loading it now (a mark younger than ten minutes: an
   * old one whose id came back to another process is stale too). */
  if (pid > 0 && (kill ((pid_t) pid, 0) == 0 || errno == EPERM)
      && lstat (mark, &st) == 0 && time (NULL) - st.st_mtime < 600)
    {
      snprintf (why, why_len, "process %ld is loading this entry", pid);
      return false;
    }
  unlink (path);
  unlink (mark);
  snprintf (why, why_len, "a load of this entry never finished (process "
            "%ld ended in it: the driver crashed?): deleted", pid);
  return false;
}

bool
clfx_cache_load_begin (const char *path, char *why, size_t why_len)
{
  if (! load_take (path, why, why_len))
    return false;
  if (mark_take (path, why, why_len))
    return true;
  load_give (path);
  return false;
}

void
clfx_cache_load_end (const char *path)
{
  char mark[1100];

  mark_path (path, mark, sizeof mark);
  unlink (mark);
  load_give (path);
}

bool
clfx_cache_store (const char *path, uint64_t key, const unsigned char *data,
                  size_t len)
{
  char        tmp[1100];
  CacheHeader h;
  FILE       *f;
  bool        ok;
  int         fd;

  memcpy (h.magic, CACHE_MAGIC, 8);
  h.key = key;
  h.len = len;
  h.payload_hash = clfx_hash (CLFX_HASH_INIT, data, len);
  /* An unpredictable name, created here (O_CREAT | O_EXCL, mode 0600):
   * nothing planted at a name in the folder can be written through. */
  if ((size_t) snprintf (tmp, sizeof tmp, "%s.XXXXXX", path) >= sizeof tmp
      || (fd = mkstemp (tmp)) < 0)
    return false;
  if (! (f = fdopen (fd, "wb")))
    {
      close (fd);
      unlink (tmp);
      return false;
    }
  ok = fwrite (&h, sizeof h, 1, f) == 1 && fwrite (data, 1, len, f) == len;
  ok = (fclose (f) == 0) && ok;
  if (ok)
    ok = rename (tmp, path) == 0;
  if (! ok)
    unlink (tmp);
  return ok;
}
