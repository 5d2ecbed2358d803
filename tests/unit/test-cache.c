/* test-cache.c: the on-disk kernel binary cache.  A fresh folder misses,
 * a second context hits, a corrupt or truncated entry is detected, deleted
 * and rebuilt (and the result is still right), and different build
 * options make a different entry. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../device.h"
#include "clfx-run.h"

static char dir[] = "/tmp/clfx-cache-test-XXXXXX";

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
  clfx_context_set_cache_dir (ctx, dir);
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

  {
    char cmd[300];
    snprintf (cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system (cmd) != 0)
      tap_diag ("could not remove %s", dir);
  }
  clfx_device_list_free (&list);
  return tap_done ();
}
