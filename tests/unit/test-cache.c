/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-cache.c: the on-disk kernel binary cache.  A fresh folder misses,
 * a second context hits, a corrupt or truncated entry is detected, deleted
 * and rebuilt (and the result is still right), and different build
 * options make a different entry.  The cache loads code the driver runs,
 * so also: links planted at temporary names or at the entry write nothing
 * through them, a FIFO or a folder at the entry (or a FIFO kernel file)
 * neither hangs nor crashes, the folder is made 0700 and refused when
 * others may write it, an over-long path is refused, not cut, and a
 * process that dies while the driver loads an entry leaves a mark that
 * makes the next run delete the entry instead of dying on it too, while
 * two threads of one process loading an entry take turns.  And every
 * family's programs hit in the next context. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clfx-program.h"

#include "../device.h"
#include "clfx-run.h"

static char dir[] = "/tmp/clfx-cache-test-XXXXXX";
/* The folder run_copy gives the context (dir unless a test says). */
static const char *cache_for_run;

/* Runs copy on a new context; returns the copy program's build record. */
static bool
run_copy (const ClfxDeviceInfo *dev, ClfxDepth depth, ClfxBuildRecord *rec,
          bool *correct)
{
  ClfxContext *ctx;
  ClfxImage    src, dst;
  ClfxParams   p;
  ClfxTimings  t;
  ClfxError    e = { 0 };
  bool         ok;

  if (! (ctx = clfx_context_new (dev, &e)))
    return false;
  clfx_context_set_cache_dir (ctx, cache_for_run ? cache_for_run : dir);
  clfx_params_defaults (&clfx_family_copy, &p);
  clfx_host_image_alloc (&src, 9, 5, 4, depth, &e);
  clfx_host_image_alloc (&dst, 9, 5, 4, depth, &e);
  clfx_host_image_synthetic (&src, 2);
  ok = clfx_run_on_context (ctx, &p, &src, &dst, &t, NULL, NULL, &e);
  clfx_timings_clear (&t);
  if (! ok)
    tap_diag ("copy failed: %s", e.message);
  *rec = ctx->programs[ctx->used[0]].record;
  rec->log = NULL;
  *correct = ok && memcmp (src.data, dst.data, src.stride * 5) == 0;
  clfx_host_image_free (&src);
  clfx_host_image_free (&dst);
  clfx_context_free (ctx);
  return ok;
}

static int
entries (char names[][256], int max)
{
  DIR           *d = opendir (dir);
  struct dirent *ent;
  int            n = 0;

  while (d && (ent = readdir (d)))
    if (ent->d_name[0] != '.' && n < max)
      snprintf (names[n++], 256, "%.40s/%.200s", dir, ent->d_name);
  if (d)
    closedir (d);
  return n;
}

static void
damage (const char *path, long keep, bool flip)
{
  FILE *f = fopen (path, "r+b");
  long  len;

  if (! f)
    return;
  fseek (f, 0, SEEK_END);
  len = ftell (f);
  if (flip)
    {
      int c;
      fseek (f, len / 2, SEEK_SET);
      c = fgetc (f);
      fseek (f, len / 2, SEEK_SET);
      fputc (c ^ 0x5a, f);
    }
  fclose (f);
  if (keep >= 0 && truncate (path, keep) != 0)
    tap_diag ("truncate failed");
}

static bool
same_text (const char *path, const char *text)
{
  char  buf[64] = "";
  FILE *f = fopen (path, "rb");
  size_t n = f ? fread (buf, 1, sizeof buf - 1, f) : 0;

  if (f)
    fclose (f);
  buf[n] = '\0';
  return strcmp (buf, text) == 0;
}

static bool
regular (const char *path)
{
  struct stat st;

  return lstat (path, &st) == 0 && S_ISREG (st.st_mode);
}

/* The entry of the u8 copy program (the only one in a fresh folder). */
static bool
one_entry (const ClfxDeviceInfo *dev, char *entry)
{
  ClfxBuildRecord rec;
  char            names[8][256], cmd[300];
  bool            correct;

  snprintf (cmd, sizeof cmd, "rm -rf '%s'/*", dir);
  if (system (cmd) != 0)
    return false;
  if (! run_copy (dev, CLFX_DEPTH_U8, &rec, &correct) || entries (names, 8) != 1)
    return false;
  strcpy (entry, names[0]);
  return true;
}

static void
hostile (const ClfxDeviceInfo *dev)
{
  ClfxBuildRecord rec;
  char            entry[256], path[700], victim[300];
  bool            correct, ok;
  struct stat     st;

  /* Nothing here may hang the test: a FIFO read would wait forever. */
  alarm (600);
  snprintf (victim, sizeof victim, "%s.victim", dir);
  {
    FILE *f = fopen (victim, "wb");
    if (f)
      {
        fputs ("untouched", f);
        fclose (f);
      }
  }

  /* Links at the names the temporary file used to take (entry.PID.tmp,
   * for this process and the next ones) and at the entry itself. */
  ok = one_entry (dev, entry) && unlink (entry) == 0;
  for (long p = getpid (); ok && p < getpid () + 64; p++)
    {
      snprintf (path, sizeof path, "%s.%ld.tmp", entry, p);
      ok = symlink (victim, path) == 0;
    }
  ok = ok && run_copy (dev, CLFX_DEPTH_U8, &rec, &correct);
  tap_ok (ok && correct && same_text (victim, "untouched") && regular (entry),
          "links planted at the old temporary names: the file they point "
          "to is untouched, the entry a file of its own (%s)", rec.cache);
  ok = unlink (entry) == 0 && symlink (victim, entry) == 0
       && run_copy (dev, CLFX_DEPTH_U8, &rec, &correct);
  tap_ok (ok && correct && same_text (victim, "untouched") && regular (entry)
            && strstr (rec.cache_note, "symbolic link"),
          "a link at the entry is refused and replaced, nothing read or "
          "written through it (%s: %s)", rec.cache, rec.cache_note);

  /* A FIFO, then a folder, at the entry. */
  ok = one_entry (dev, entry) && unlink (entry) == 0
       && mkfifo (entry, 0600) == 0
       && run_copy (dev, CLFX_DEPTH_U8, &rec, &correct);
  tap_ok (ok && correct && strstr (rec.cache_note, "not a regular file")
            && regular (entry),
          "a FIFO at the entry: no hang, refused and replaced (%s: %s)",
          rec.cache, rec.cache_note);
  ok = unlink (entry) == 0 && mkdir (entry, 0700) == 0
       && run_copy (dev, CLFX_DEPTH_U8, &rec, &correct);
  tap_ok (ok && correct && strstr (rec.cache_note, "not a regular file"),
          "a folder at the entry: refused, the run still right (%s: %s)",
          rec.cache, rec.cache_note);
  if (rmdir (entry) != 0)
    tap_diag ("rmdir %s failed", entry);

  /* A FIFO kernel file in CLFX_KERNEL_DIR: an error naming it, no hang. */
  {
    ClfxContext *ctx = clfx_context_new (dev, &(ClfxError) { 0 });
    ClfxImage    src, dst;
    ClfxParams   p;
    ClfxTimings  t;
    ClfxError    e = { 0 };

    snprintf (path, sizeof path, "%s/kernels", dir);
    mkdir (path, 0700);
    snprintf (path, sizeof path, "%s/kernels/copy.cl", dir);
    ok = ctx && mkfifo (path, 0600) == 0;
    snprintf (path, sizeof path, "%s/kernels", dir);
    setenv ("CLFX_KERNEL_DIR", path, 1);
    clfx_params_defaults (&clfx_family_copy, &p);
    clfx_host_image_alloc (&src, 9, 5, 4, CLFX_DEPTH_U8, &e);
    clfx_host_image_alloc (&dst, 9, 5, 4, CLFX_DEPTH_U8, &e);
    memset (&t, 0, sizeof t);
    if (ctx)
      clfx_context_set_cache_dir (ctx, "off");
    ok = ok && ! clfx_run_on_context (ctx, &p, &src, &dst, &t, NULL, NULL, &e);
    unsetenv ("CLFX_KERNEL_DIR");
    tap_ok (ok && strstr (e.message, "copy.cl")
              && strstr (e.message, "not a regular file"),
            "a FIFO kernel file: no hang, an error naming it (%s)",
            e.message);
    clfx_timings_clear (&t);
    clfx_host_image_free (&src);
    clfx_host_image_free (&dst);
    clfx_context_free (ctx);
    snprintf (path, sizeof path, "rm -rf '%s/kernels'", dir);
    if (system (path) != 0)
      tap_diag ("cleanup failed");
  }

  /* The folder: made 0700; refused once others may write it. */
  snprintf (path, sizeof path, "%s/made/here", dir);
  cache_for_run = path;
  ok = run_copy (dev, CLFX_DEPTH_U8, &rec, &correct);
  memset (&st, 0, sizeof st);
  ok = ok && stat (path, &st) == 0;
  tap_ok (ok && correct && (st.st_mode & 0777) == 0700
            && strcmp (rec.cache, "miss") == 0,
          "a new cache folder is made 0700 (mode %03o)",
          (unsigned) (st.st_mode & 0777));
  ok = chmod (path, 0777) == 0 && run_copy (dev, CLFX_DEPTH_U8, &rec,
                                            &correct);
  tap_ok (ok && correct && strcmp (rec.cache, "off") == 0
            && strstr (rec.cache_note, "writable by others"),
          "a cache folder others may write is not used, and the record "
          "says why (%s: %s)", rec.cache, rec.cache_note);
  if (chmod (path, 0700) != 0)
    tap_diag ("chmod back failed");

  /* A path longer than the context holds: refused, never cut. */
  {
    static char longdir[700];
    memset (longdir, 'a', sizeof longdir - 1);
    longdir[0] = '/';
    cache_for_run = longdir;
    ok = run_copy (dev, CLFX_DEPTH_U8, &rec, &correct);
    tap_ok (ok && correct && strcmp (rec.cache, "off") == 0
              && strstr (rec.cache_note, "more than 511"),
            "a cache path of 699 bytes is refused, not cut (%s: %s)",
            rec.cache, rec.cache_note);
  }
  cache_for_run = NULL;
  unlink (victim);
  alarm (0);
}

static void
write_mark (const char *entry, long pid)
{
  char  mark[400];
  FILE *f;

  snprintf (mark, sizeof mark, "%s.loading", entry);
  if ((f = fopen (mark, "wb")))
    {
      fprintf (f, "%ld\n", pid);
      fclose (f);
    }
}

/* Loads that never finish: a mark left by a process that ended, one held
 * by a live process, and a real crash in the driver on a crafted entry
 * (a valid header and checksum around half a binary; PoCL aborts on
 * that), in a child process. */
static void
crashed_loads (const ClfxDeviceInfo *dev)
{
  ClfxBuildRecord rec;
  char            entry[256], mark[400];
  bool            correct, ok;
  pid_t           child;
  int             status = 0;

  alarm (600);
  fflush (stdout);
  child = fork ();
  if (child == 0)
    _exit (0);
  waitpid (child, &status, 0);
  ok = one_entry (dev, entry);
  write_mark (entry, (long) child);
  ok = ok && run_copy (dev, CLFX_DEPTH_U8, &rec, &correct);
  tap_ok (ok && correct && strstr (rec.cache_note, "never finished"),
          "a mark left by a process that ended: the entry is deleted and "
          "rebuilt (%s: %s)", rec.cache, rec.cache_note);
  ok = run_copy (dev, CLFX_DEPTH_U8, &rec, &correct);
  tap_ok (ok && correct && strcmp (rec.cache, "hit") == 0,
          "... and the next run hits the new entry (%s)", rec.cache);

  write_mark (entry, (long) getpid ());
  ok = run_copy (dev, CLFX_DEPTH_U8, &rec, &correct);
  tap_ok (ok && correct && strcmp (rec.cache, "miss") == 0
            && strstr (rec.cache_note, "is loading"),
          "a mark a live process holds: built from source meanwhile "
          "(%s: %s)", rec.cache, rec.cache_note);
  snprintf (mark, sizeof mark, "%s.loading", entry);
  unlink (mark);

  /* The crafted entry: its own key, half its binary, a fresh checksum. */
  {
    unsigned char *bin = NULL, head[16];
    size_t         len = 0;
    uint64_t       key = 0;
    FILE          *f = fopen (entry, "rb");
    char           why[160];

    ok = f && fread (head, 1, 16, f) == 16;
    if (f)
      fclose (f);
    if (ok)
      memcpy (&key, head + 8, 8);
    ok = ok && clfx_cache_load (entry, key, &bin, &len, why, sizeof why)
         && clfx_cache_store (entry, key, bin, len / 2);
    free (bin);
    fflush (stdout);
    child = ok ? fork () : -1;
    if (child == 0)
      {
        /* The child's own deadline: a driver may hang in a forked
         * process rather than crash. */
        bool c;
        alarm (120);
        run_copy (dev, CLFX_DEPTH_U8, &rec, &c);
        _exit (0);
      }
    if (child > 0)
      waitpid (child, &status, 0);
    ok = ok && run_copy (dev, CLFX_DEPTH_U8, &rec, &correct);
    tap_ok (ok && correct
              && (! WIFSIGNALED (status)
                  || strstr (rec.cache_note, "never finished")),
            "a crafted entry the driver %s on: the next run is right (%s: "
            "%s)", WIFSIGNALED (status) ? "crashed" : "did not crash",
            rec.cache, rec.cache_note);
    ok = run_copy (dev, CLFX_DEPTH_U8, &rec, &correct);
    tap_ok (ok && correct && strcmp (rec.cache, "hit") == 0,
            "... and the run after it hits a good entry (%s)", rec.cache);
  }
  alarm (0);
}

/* Two threads of one process loading the same entry (device all builds
 * a program on each device of a kind at once): the second waits for the
 * first's end, then loads it too.  Before, it read the first's mark, at
 * times still empty, as a crashed process's and deleted the entry. */
static atomic_int turn_state;

static void
sleep_ms (long ms)
{
  struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
  nanosleep (&t, NULL);
}

static void *
first_load (void *entry)
{
  char why[160] = "";
  bool ok = clfx_cache_load_begin (entry, why, sizeof why);

  atomic_store (&turn_state, ok ? 1 : -1);
  if (ok)
    {
      sleep_ms (200);
      atomic_store (&turn_state, 2);
      clfx_cache_load_end (entry);
    }
  return NULL;
}

static void
threads_take_turns (const ClfxDeviceInfo *dev)
{
  char        entry[256], why[160] = "";
  pthread_t   t;
  struct stat st;
  bool        ok = one_entry (dev, entry), second = false, waited = false;

  atomic_store (&turn_state, 0);
  if (ok && pthread_create (&t, NULL, first_load, entry) == 0)
    {
      while (atomic_load (&turn_state) == 0)
        sleep_ms (1);
      if (atomic_load (&turn_state) == 1)
        {
          second = clfx_cache_load_begin (entry, why, sizeof why);
          waited = atomic_load (&turn_state) == 2;
          if (second)
            clfx_cache_load_end (entry);
        }
      pthread_join (t, NULL);
    }
  tap_ok (ok && second && waited && stat (entry, &st) == 0,
          "a second thread loading the same entry waits for the first's "
          "load, then loads it; the entry stays (%s)", why);
}

/* The entry of program `prog` in the folder, or false. */
static bool
entry_of (const char *prog, char *out)
{
  char names[16][256];
  int  n = entries (names, 16);

  for (int i = 0; i < n; i++)
    if (strstr (names[i], prog) && strstr (names[i], ".bin")
        && ! strstr (names[i], ".loading"))
      {
        strcpy (out, names[i]);
        return true;
      }
  return false;
}

/* Moves entry from's payload under entry to's header and key. */
static bool
transplant (const char *from, const char *to)
{
  unsigned char *bin = NULL, head[16];
  size_t         len = 0;
  uint64_t       kf = 0, kt = 0;
  char           why[160];
  FILE          *f;
  bool           ok;

  if (! (f = fopen (from, "rb")))
    return false;
  ok = fread (head, 1, 16, f) == 16;
  fclose (f);
  memcpy (&kf, head + 8, 8);
  if (! ok || ! (f = fopen (to, "rb")))
    return false;
  ok = fread (head, 1, 16, f) == 16;
  fclose (f);
  memcpy (&kt, head + 8, 8);
  ok = ok && clfx_cache_load (from, kf, &bin, &len, why, sizeof why)
       && clfx_cache_store (to, kt, bin, len);
  free (bin);
  return ok;
}

/* A validated run of p on a new context caching in dir (the result
 * freed; r holds the report for the caller to read and clear). */
static bool
run_validated (const ClfxDeviceInfo *dev, const ClfxParams *p,
               const ClfxImage *src, ClfxRunResult *r, ClfxError *e)
{
  ClfxContext   *ctx = clfx_context_new (dev, e);
  ClfxRunOptions opt = { NULL, true, 0, &ctx, false, false };
  ClfxImage      dst;
  bool           ok;

  memset (r, 0, sizeof *r);
  if (! ctx)
    return false;
  clfx_context_set_cache_dir (ctx, dir);
  ok = clfx_run (p, src, &dst, &opt, r, e);
  if (ok)
    clfx_host_image_free (&dst);
  clfx_context_free (ctx);
  return ok;
}

/* Another program's binary under this program's key (a valid header and
 * checksum: what a writer of the folder can make): its kernels give it
 * away.  The same program's binary for other options (the 8-bit copy
 * under the float key) has the same kernels and loads, but the run's
 * validation fails and deletes it. */
static void
poisoned (const ClfxDeviceInfo *dev)
{
  ClfxBuildRecord rec;
  char            copy8[256], copyf[256], tm[256], cmd[300];
  bool            correct, ok;
  ClfxParams      p;
  ClfxImage       src;
  ClfxRunResult   r;
  ClfxError       e = { 0 };

  snprintf (cmd, sizeof cmd, "rm -rf '%s'/*", dir);
  ok = system (cmd) == 0 && run_copy (dev, CLFX_DEPTH_U8, &rec, &correct)
       && entry_of ("copy", copy8);
  ok = ok && run_copy (dev, CLFX_DEPTH_FLOAT, &rec, &correct);
  {
    /* The float copy's entry: the copy entry that is not the 8-bit one. */
    char names[16][256];
    int  n = entries (names, 16);
    copyf[0] = '\0';
    for (int i = 0; i < n; i++)
      if (strstr (names[i], "/copy-") && strcmp (names[i], copy8))
        strcpy (copyf, names[i]);
    ok = ok && copyf[0];
  }
  /* A tone mapping makes the global tone mappers' program's entry. */
  clfx_params_defaults (&clfx_family_tonemap, &p);
  clfx_host_image_alloc (&src, 9, 5, 4, CLFX_DEPTH_U8, &e);
  clfx_host_image_synthetic (&src, 4);
  ok = ok && run_validated (dev, &p, &src, &r, &e);
  clfx_run_result_clear (&r);
  ok = ok && entry_of ("tonemap-global", tm)
       && transplant (tm, copyf)
       && run_copy (dev, CLFX_DEPTH_FLOAT, &rec, &correct);
  tap_ok (ok && correct && strcmp (rec.cache, "miss") == 0
            && strstr (rec.cache_note, "not this program's"),
          "another program's binary under this key is refused and rebuilt "
          "(%s: %s)", rec.cache, rec.cache_note);

  /* The 8-bit copy's binary under the float key (it reads and writes
   * fewer bytes than the buffers hold: wrong, not unsafe), run with
   * validation. */
  {
    ClfxParams cp;
    ClfxImage  fsrc;
    ok = ok && transplant (copy8, copyf);
    clfx_params_defaults (&clfx_family_copy, &cp);
    clfx_host_image_alloc (&fsrc, 9, 5, 4, CLFX_DEPTH_FLOAT, &e);
    clfx_host_image_synthetic (&fsrc, 4);
    memset (&r, 0, sizeof r);
    ok = ok && run_validated (dev, &cp, &fsrc, &r, &e);
    clfx_host_image_free (&fsrc);
    {
      bool hit = false, evicted = false;
      for (int i = 0; ok && i < r.n_builds; i++)
        if (! strcmp (r.builds[i].program, "copy"))
          {
            hit = ! strcmp (r.builds[i].cache, "hit");
            evicted = strstr (r.builds[i].cache_note, "validation failed")
                      != NULL;
          }
      tap_ok (ok && hit && ! r.validation.passed && evicted
                && access (copyf, F_OK) != 0,
              "the same program's binary for other options loads, fails "
              "validation, and the entry is deleted (%s)",
              ok ? (r.validation.passed ? "validation passed"
                                        : "validation failed")
                 : e.message);
    }
    clfx_run_result_clear (&r);
    ok = run_copy (dev, CLFX_DEPTH_FLOAT, &rec, &correct);
    tap_ok (ok && correct && strcmp (rec.cache, "miss") == 0,
            "... and the next run builds from source (%s)", rec.cache);
  }
  clfx_host_image_free (&src);
}

/* Every program, kernels with attributes (reqd_work_group_size) among
 * them, loads from its entry in the next context: a check of kernel
 * names that missed an attribute would refuse, delete and rebuild these
 * entries on every run. */
static void
every_program_hits (const ClfxDeviceInfo *dev)
{
  static const struct { const ClfxFamily *f; const char *set[3][2]; } cases[] = {
    { &clfx_family_resize, { { "filter", "cubic" }, { "width", "13" } } },
    { &clfx_family_resize, { { "filter", "lanczos3" }, { "width", "7" } } },
    { &clfx_family_filter, { { "method", "fir" } } },
    { &clfx_family_filter, { { "filter", "median" }, { "radius", "2" } } },
    { &clfx_family_filter, { { "filter", "bilateral" } } },
    { &clfx_family_filter, { { "filter", "convolve" } } },
    { &clfx_family_filter, { { "filter", "sobel" } } },
    { &clfx_family_filter, { { "filter", "motion-blur-linear" } } },
    { &clfx_family_filter, { { "filter", "noise-reduction" } } },
    { &clfx_family_filter, { { "filter", "mean-curvature-blur" } } },
    { &clfx_family_filter, { { "filter", "motion-blur-zoom" } } },
    { &clfx_family_filter, { { "filter", "motion-blur-circular" } } },
    { &clfx_family_filter, { { "filter", "gaussian-blur-selective" } } },
    { &clfx_family_filter, { { "filter", "snn-mean" } } },
    /* Kernels declared in included headers (kernels/tonemap-stats.h). */
    { &clfx_family_tonemap, { { "operator", "reinhard05" } } },
    { &clfx_family_tonemap, { { "operator", "durand02" } } },
    { &clfx_family_tonemap, { { "operator", "fattal02" } } },
  };
  char cmd[300];

  snprintf (cmd, sizeof cmd, "rm -rf '%s'/*", dir);
  if (system (cmd) != 0)
    tap_diag ("could not empty %s", dir);
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    {
      ClfxParams    p;
      ClfxImage     src;
      ClfxRunResult r[2];
      ClfxError     e = { 0 };
      bool          ok = true;
      int           hits = 0;
      const char   *why = "";

      clfx_params_defaults (cases[c].f, &p);
      for (int i = 0; i < 3 && cases[c].set[i][0]; i++)
        ok = ok && clfx_params_set (&p, cases[c].set[i][0],
                                    cases[c].set[i][1], &e);
      ok = ok && clfx_host_image_alloc (&src, 23, 17, 4, CLFX_DEPTH_FLOAT,
                                        &e);
      if (ok)
        clfx_host_image_synthetic (&src, 6);
      for (int run = 0; run < 2; run++)
        {
          memset (&r[run], 0, sizeof r[run]);
          ok = ok && run_validated (dev, &p, &src, &r[run], &e)
               && r[run].validation.passed;
        }
      for (int i = 0; ok && i < r[1].n_builds; i++)
        if (! strcmp (r[1].builds[i].cache, "hit"))
          hits++;
        else
          why = r[1].builds[i].cache_note;
      tap_ok (ok && r[1].n_builds > 0 && hits == r[1].n_builds,
              "%s %s %s: the second context loads every program from the "
              "cache (%d of %d hit%s%s)", cases[c].f->name,
              cases[c].set[0][0] ? cases[c].set[0][1] : "",
              cases[c].set[1][0] ? cases[c].set[1][1] : "", hits,
              r[1].n_builds, *why ? ": " : "", ok ? why : e.message);
      for (int run = 0; run < 2; run++)
        clfx_run_result_clear (&r[run]);
      clfx_host_image_free (&src);
    }
}

/* Where the cache folder comes from: without one given, a driver that
 * caches its own builds (PoCL, unless POCL_KERNEL_CACHE=0) leaves clfx's
 * cache off and says why; CLFX_CACHE_DIR or an explicit folder turns it
 * on there too; other drivers use the default folder. */
static void
default_folder (const ClfxDeviceInfo *dev)
{
  bool         pocl = strstr (dev->platform_name,
                              "Portable Computing Language") != NULL;
  const char  *old_env = getenv ("CLFX_CACHE_DIR");
  const char  *old_xdg = getenv ("XDG_CACHE_HOME");
  char        *keep_env = old_env ? strdup (old_env) : NULL;
  char        *keep_xdg = old_xdg ? strdup (old_xdg) : NULL;
  char         xdg[300];
  ClfxContext *ctx = clfx_context_new (dev, &(ClfxError) { 0 });

  snprintf (xdg, sizeof xdg, "%s/xdg", dir);
  unsetenv ("CLFX_CACHE_DIR");
  setenv ("XDG_CACHE_HOME", xdg, 1);
  for (int k = 0; ctx && k < 3; k++)
    {
      /* k: 0 the default, 1 POCL_KERNEL_CACHE=0, 2 CLFX_CACHE_DIR. */
      if (k == 1)
        setenv ("POCL_KERNEL_CACHE", "0", 1);
      if (k == 2)
        {
          unsetenv ("POCL_KERNEL_CACHE");
          setenv ("CLFX_CACHE_DIR", dir, 1);
        }
      clfx_context_set_cache_dir (ctx, NULL);
      bool off = ! ctx->cache_dir[0];
      bool want_off = pocl && k == 0;
      tap_ok (off == want_off
                && (! want_off || strstr (ctx->cache_off, "PoCL"))
                && (off || strstr (ctx->cache_dir, k == 2 ? dir : xdg)),
              "%s, %s: clfx's cache %s (%s)",
              pocl ? "PoCL" : "a driver without a cache of its own",
              k == 0 ? "no folder given"
                     : k == 1 ? "POCL_KERNEL_CACHE=0" : "CLFX_CACHE_DIR set",
              off ? "off" : "on", off ? ctx->cache_off : ctx->cache_dir);
    }
  if (! ctx)
    tap_ok (false, "a context for the default folder");
  unsetenv ("POCL_KERNEL_CACHE");
  if (keep_env)
    setenv ("CLFX_CACHE_DIR", keep_env, 1);
  else
    unsetenv ("CLFX_CACHE_DIR");
  if (keep_xdg)
    setenv ("XDG_CACHE_HOME", keep_xdg, 1);
  else
    unsetenv ("XDG_CACHE_HOME");
  free (keep_env);
  free (keep_xdg);
  clfx_context_free (ctx);
}

int
main (void)
{
  ClfxDeviceList  list;
  int             skip = 0;
  ClfxContext    *ctx = test_context (&list, &skip);
  ClfxDeviceInfo  dev;
  ClfxBuildRecord rec;
  char            names[8][256];
  bool            correct, ok;

  if (! ctx)
    return skip;
  dev = ctx->device;
  clfx_context_free (ctx);
  if (! mkdtemp (dir))
    return tap_ok (false, "mkdtemp"), tap_done ();

  ok = run_copy (&dev, CLFX_DEPTH_U8, &rec, &correct);
  tap_ok (ok && strcmp (rec.cache, "miss") == 0 && correct,
          "first build in an empty cache is a miss (%s)", rec.cache);
  tap_ok (entries (names, 8) == 1, "the build wrote one cache entry");
  ok = run_copy (&dev, CLFX_DEPTH_U8, &rec, &correct);
  tap_ok (ok && strcmp (rec.cache, "hit") == 0 && correct,
          "a second context loads it: hit (%s), result correct", rec.cache);

  entries (names, 8);
  damage (names[0], -1, true);
  ok = run_copy (&dev, CLFX_DEPTH_U8, &rec, &correct);
  tap_ok (ok && strcmp (rec.cache, "miss") == 0 && correct
            && strstr (rec.cache_note, "corrupt"),
          "a corrupt entry is not trusted: rebuilt (%s: %s)", rec.cache,
          rec.cache_note);
  ok = run_copy (&dev, CLFX_DEPTH_U8, &rec, &correct);
  tap_ok (ok && strcmp (rec.cache, "hit") == 0 && correct,
          "the rebuilt entry is good again (%s)", rec.cache);

  entries (names, 8);
  damage (names[0], 20, false);
  ok = run_copy (&dev, CLFX_DEPTH_U8, &rec, &correct);
  tap_ok (ok && strcmp (rec.cache, "miss") == 0 && correct
            && strstr (rec.cache_note, "truncated"),
          "a truncated entry is rebuilt (%s)", rec.cache_note);

  ok = run_copy (&dev, CLFX_DEPTH_FLOAT, &rec, &correct);
  tap_ok (ok && strcmp (rec.cache, "miss") == 0 && correct
            && entries (names, 8) == 2,
          "different build options (-DCLFX_DEPTH) make a different entry");

  /* Stale entries: swap the two files, so each name holds the other
   * key (as if a driver update changed what a name should hold). */
  if (entries (names, 8) == 2)
    {
      char cmd[2048];
      snprintf (cmd, sizeof cmd, "mv '%s' '%s.x' && mv '%s' '%s' && "
                "mv '%s.x' '%s'", names[0], names[0], names[1], names[0],
                names[0], names[1]);
      if (system (cmd) != 0)
        tap_diag ("swap failed");
    }
  for (int d = 0; d < 2; d++)
    {
      ok = run_copy (&dev, d ? CLFX_DEPTH_FLOAT : CLFX_DEPTH_U8, &rec,
                     &correct);
      tap_ok (ok && strcmp (rec.cache, "miss") == 0 && correct
                && strstr (rec.cache_note, "another key"),
              "an entry holding another key is rebuilt, never used (%s: %s)",
              rec.cache, rec.cache_note);
    }

  default_folder (&dev);
  every_program_hits (&dev);
  hostile (&dev);
  crashed_loads (&dev);
  threads_take_turns (&dev);
  poisoned (&dev);

  {
    char cmd[300];
    snprintf (cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system (cmd) != 0)
      tap_diag ("could not remove %s", dir);
  }
  clfx_device_list_free (&list);
  return tap_done ();
}
