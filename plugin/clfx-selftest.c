/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-selftest.c: every public family's self-test sweep, as the family
 * table defines it (resize: every filter x addressing x coordinate mode
 * the OpenCL spec allows), on synthetic images, validated against the
 * CPU reference on the chosen device.
 *
 * The cases cycle through the pixel layouts (RGBA, gray, gray+alpha) and
 * depths (u8, u16, half, float) as GIMP's drawables hold them: u8 and u16
 * sRGB-encoded, half and float linear light, alpha straight. */
#include <string.h>

#include "clfx-args.h"
#include "clfx-device.h"
#include "clfx-json.h"
#include "clfx-plugin.h"
#include "clfx-selftest.h"

#define CLFX_SELFTEST_SRC_W 67
#define CLFX_SELFTEST_SRC_H 45

typedef struct
{
  const gchar *family;
  /* The sweep's values: "linear/clamp/no-normalized-coords". */
  gchar       *name;
  ClfxDepth    depth;
  gint         channels;
  ClfxTransfer transfer;
  gboolean     passed;
  gchar       *error;    /* NULL: it ran */
  gboolean     validated;
  double       max_abs;
  gsize        mismatches;
  double       ms;
} ClfxSelftestCase;

typedef struct
{
  const gchar *device;
  GArray      *cases;    /* ClfxSelftestCase */
  gint         passed, failed;
  gchar       *device_name;
  gchar       *fallback;
  const gchar *refused;  /* why no case ran (NULL: they did) */
  ClfxContext *context;  /* one for every case (clfx_run reuses it) */
} ClfxSelftest;

/* The values the sweep set, "/"-separated: a choice's nick, a boolean's
 * name or "no-" and its name. */
static gchar *
clfx_case_name (const ClfxParams *p)
{
  const ClfxFamily *f = p->family;
  GString          *s = g_string_new (NULL);

  for (gint i = 0; f->sweep && f->sweep[i]; i++)
    {
      const ClfxParamSpec *r = clfx_family_param (f, f->sweep[i]);

      if (i)
        g_string_append_c (s, '/');
      if (! r)
        g_string_append (s, f->sweep[i]);
      else if (r->type == CLFX_PARAM_BOOL)
        g_string_append_printf (s, "%s%s", clfx_param_get_bool (p, r) ? ""
                                                                      : "no-",
                                r->name);
      else
        {
          gchar text[64];

          g_string_append (s, clfx_param_format (p, r, text, sizeof text));
        }
    }
  return g_string_free (s, FALSE);
}

static void
clfx_note_device (ClfxSelftest        *st,
                  const ClfxRunResult *r)
{
  if (st->device_name)
    return;
  st->device_name = r->path == CLFX_PATH_OPENCL
    ? g_strdup_printf ("%s (%s)", r->device.name, r->device.platform_name)
    : g_strdup ("CPU reference");
  if (r->fallback[0])
    st->fallback = g_strdup (r->fallback);
}

static void
clfx_case_record (ClfxSelftest        *st,
                  ClfxSelftestCase    *c,
                  gboolean             ok,
                  const ClfxRunResult *r,
                  const ClfxError     *e)
{
  /* A case passes only when OpenCL ran and agreed with the reference:
   * after a fallback (device auto) nothing was compared, so it fails, and
   * the report's "fallback" says why. */
  c->passed = ok && r->validated && r->validation.passed;
  c->error = ok ? NULL : g_strdup (e->message);
  if (ok)
    {
      c->validated = r->validated;
      c->max_abs = r->validation.max_abs;
      c->mismatches = r->validation.mismatches;
      c->ms = r->timings.total_ms;
    }
  if (c->passed)
    st->passed++;
  else
    st->failed++;
  g_array_append_val (st->cases, *c);
}

static void
clfx_case_json (ClfxJson               *j,
                const ClfxSelftestCase *c)
{
  clfx_json_begin_object (j, NULL);
  clfx_json_string (j, "family", c->family);
  clfx_json_string (j, "case", c->name);
  clfx_json_string (j, "format", clfx_depth_name (c->depth));
  clfx_json_int (j, "channels", c->channels);
  clfx_json_string (j, "transfer", clfx_transfer_name (c->transfer));
  clfx_json_bool (j, "passed", c->passed);
  if (c->error)
    clfx_json_string (j, "error", c->error);
  else
    clfx_json_number (j, "ms", c->ms);
  if (c->validated)
    {
      clfx_json_number (j, "max_abs", c->max_abs);
      clfx_json_int (j, "mismatches", (long long) c->mismatches);
    }
  clfx_json_end_object (j);
}

/* Runs sweep case p, unless the engine refuses it for this source (the
 * spec's forbidden sampler pairs). */
static void
clfx_run_case (ClfxSelftest     *st,
               const ClfxParams *p)
{
  static const gint layouts[] = { 4, 1, 2 };
  gint              k = (gint) st->cases->len;
  ClfxRunOptions    opt = { st->device, true, 0, &st->context, false, false };
  ClfxSelftestCase  c = { 0 };
  ClfxImage         src = { 0 }, dst = { 0 };
  ClfxRunResult     r;
  ClfxError         e = { 0 };
  gint              w, h;
  gboolean          ok;

  memset (&r, 0, sizeof r);
  c.family = p->family->name;
  c.channels = layouts[k % 3];
  c.depth = (ClfxDepth) (k % CLFX_N_DEPTHS);
  c.transfer = c.depth == CLFX_DEPTH_U8 || c.depth == CLFX_DEPTH_U16
               ? CLFX_TRC_SRGB : CLFX_TRC_LINEAR;
  /* The check needs the layout only: no pixels for a refused case. */
  src.width = CLFX_SELFTEST_SRC_W;
  src.height = CLFX_SELFTEST_SRC_H;
  src.channels = c.channels;
  src.depth = c.depth;
  src.straight_alpha = c.channels > 1;
  src.transfer = c.transfer;
  if (! clfx_run_check (p, &src, &w, &h, &e))
    return;
  c.name = clfx_case_name (p);
  if (! clfx_host_image_alloc (&src, CLFX_SELFTEST_SRC_W, CLFX_SELFTEST_SRC_H,
                               c.channels, c.depth, &e))
    {
      /* A case that cannot start is a failed case, never a crash. */
      clfx_case_record (st, &c, FALSE, &r, &e);
      return;
    }
  clfx_host_image_synthetic (&src, (unsigned) k + 1);
  src.straight_alpha = c.channels > 1;
  src.transfer = c.transfer;
  ok = clfx_run (p, &src, &dst, &opt, &r, &e);
  if (ok)
    clfx_note_device (st, &r);
  clfx_case_record (st, &c, ok, &r, &e);
  clfx_host_image_free (&dst);
  clfx_run_result_clear (&r);
  clfx_host_image_free (&src);
}

static gchar *
clfx_selftest_json (ClfxSelftest *st,
                    GError      **error)
{
  ClfxJson j;

  clfx_json_init (&j);
  clfx_json_begin_object (&j, NULL);
  clfx_json_string (&j, "device",
                    st->device_name ? st->device_name : st->device);
  clfx_json_string (&j, "request", st->device);
  if (st->fallback)
    clfx_json_string (&j, "fallback", st->fallback);
  else
    clfx_json_null (&j, "fallback");
  if (st->refused)
    clfx_json_string (&j, "error", st->refused);
  clfx_json_int (&j, "cases", st->cases->len);
  clfx_json_int (&j, "passed", st->passed);
  clfx_json_int (&j, "failed", st->failed);
  clfx_json_begin_array (&j, "results");
  for (guint i = 0; i < st->cases->len; i++)
    clfx_case_json (&j, &g_array_index (st->cases, ClfxSelftestCase, i));
  clfx_json_end_array (&j);
  clfx_json_end_object (&j);
  return clfx_engine_text (clfx_json_take (&j), error);
}

static void
clfx_selftest_fail (ClfxSelftest *st,
                    GError      **error)
{
  if (st->cases->len == 0)
    {
      g_set_error_literal (error, CLFX_PLUGIN_ERROR, CLFX_ERR_INVALID,
                           st->refused ? st->refused
                                       : _("self-test: no case could run"));
      return;
    }
  for (guint i = 0; i < st->cases->len; i++)
    {
      ClfxSelftestCase *c = &g_array_index (st->cases, ClfxSelftestCase, i);

      if (c->passed)
        continue;
      g_set_error (error, CLFX_PLUGIN_ERROR, CLFX_ERR_OPENCL,
                   _("self-test: %d of %u cases failed (first: %s %s: %s)"),
                   st->failed, st->cases->len, c->family, c->name,
                   c->error ? c->error : _("validation failed"));
      return;
    }
}

static void
clfx_selftest_clear (ClfxSelftest *st)
{
  for (guint i = 0; i < st->cases->len; i++)
    {
      ClfxSelftestCase *c = &g_array_index (st->cases, ClfxSelftestCase, i);

      g_free (c->name);
      g_free (c->error);
    }
  g_array_free (st->cases, TRUE);
  g_free (st->device_name);
  g_free (st->fallback);
  clfx_context_free (st->context);
}

/* Sweep cases of every public family, refused ones included. */
static gint
clfx_sweep_size (void)
{
  ClfxParams p;
  gint       n = 0;

  for (const ClfxFamily *const *f = clfx_families (); *f; f++)
    for (gint k = 0; (*f)->procedure && clfx_family_sweep_case (*f, k, &p);
         k++)
      n++;
  return n;
}

gboolean
clfx_selftest_run (const gchar         *device,
                   gchar              **report,
                   ClfxSelftestSummary *summary,
                   GError             **error)
{
  ClfxSelftest st = { 0 };
  ClfxParams   p;
  gint         done = 0, total = clfx_sweep_size ();
  gboolean     ok;

  memset (summary, 0, sizeof *summary);
  st.device = device && *device ? device : "auto";
  st.cases = g_array_new (FALSE, TRUE, sizeof (ClfxSelftestCase));
  /* Each case compares OpenCL's result with the CPU reference's: on the
   * reference itself nothing would be compared, and every case would
   * fail as if OpenCL were wrong. */
  if (clfx_device_is_reference (st.device))
    st.refused = _("self-test: it compares an OpenCL device with the CPU "
                   "reference, so it needs an OpenCL device; device "
                   "\"reference\" is the CPU reference itself (choose "
                   "\"auto\" or an OpenCL device)");
  else
    {
      gimp_progress_init (_("OpenCL self-test"));
      for (const ClfxFamily *const *f = clfx_families (); *f; f++)
        for (gint k = 0;
             (*f)->procedure && clfx_family_sweep_case (*f, k, &p); k++)
          {
            clfx_run_case (&st, &p);
            gimp_progress_update ((gdouble) ++done / MAX (total, 1));
          }
      gimp_progress_end ();
    }
  *report = clfx_selftest_json (&st, error);
  ok = *report && st.failed == 0 && st.cases->len > 0;
  if (! ok && *report)
    clfx_selftest_fail (&st, error);
  summary->cases = (gint) st.cases->len;
  summary->passed = st.passed;
  summary->failed = st.failed;
  summary->device = g_strdup (st.device_name ? st.device_name : st.device);
  summary->fallback = g_strdup (st.fallback);
  clfx_selftest_clear (&st);
  return ok;
}

void
clfx_selftest_summary_clear (ClfxSelftestSummary *summary)
{
  g_free (summary->device);
  g_free (summary->fallback);
  memset (summary, 0, sizeof *summary);
}
