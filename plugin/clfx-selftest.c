/* clfx-selftest.c: resize on synthetic images for every filter x
 * addressing x coordinate mode the OpenCL spec allows, validated against
 * the CPU reference on the chosen device.
 *
 * The cases cycle through the pixel layouts (RGBA, gray, gray+alpha) and
 * depths (u8, u16, half, float), and alternate between enlarging with
 * zoom below 1 (so the addressing mode shows) and shrinking by more than
 * 2x (so the antialiasing paths run), keeping each case small and quick. */
#include <stdlib.h>
#include <string.h>

#include "clfx-json.h"
#include "clfx-plugin.h"
#include "clfx-procedures.h"
#include "clfx-selftest.h"

#define CLFX_SELFTEST_SRC_W 67
#define CLFX_SELFTEST_SRC_H 45

typedef struct
{
  gchar    *name;     /* "filter/addressing/normalized" */
  ClfxDepth depth;
  gint      channels;
  gboolean  passed;
  gchar    *error;    /* NULL: it ran */
  gboolean  validated;
  double    max_abs;
  gsize     mismatches;
  double    ms;
} ClfxSelftestCase;

typedef struct
{
  const gchar *device;
  GArray      *cases;  /* ClfxSelftestCase */
  gint         passed, failed;
  gchar       *device_name;
  gchar       *fallback;
  ClfxContext *context;  /* one for every case (clfx_run reuses it) */
} ClfxSelftest;

static void
clfx_case_params (const ClfxOpInfo *op,
                  ClfxParams       *p,
                  gint              filter,
                  gint              addressing,
                  gboolean          normalized,
                  gint              k)
{
  gboolean enlarge = k % 2 == 0;

  clfx_params_defaults (op, p);
  p->v[clfx_op_param_index (op, "filter")].i = filter;
  p->v[clfx_op_param_index (op, "addressing")].i = addressing;
  p->v[clfx_op_param_index (op, "normalized-coords")].b = normalized;
  p->v[clfx_op_param_index (op, "width")].i = enlarge ? 101 : 29;
  p->v[clfx_op_param_index (op, "height")].i = enlarge ? 73 : 17;
  p->v[clfx_op_param_index (op, "zoom-x")].d = enlarge ? 0.75 : 1.0;
  p->v[clfx_op_param_index (op, "zoom-y")].d = enlarge ? 0.6 : 1.0;
}

/* Whether the spec allows the combination: prepare says no for repeat
 * and mirrored-repeat with unnormalized coordinates. */
static gboolean
clfx_case_allowed (const ClfxOpInfo *op,
                   const ClfxParams *p,
                   const ClfxImage  *src)
{
  ClfxError e = { 0 };
  gint      w, h;

  return op->prepare (p, src, &w, &h, &e);
}

static void
clfx_note_device (ClfxSelftest        *st,
                  const ClfxRunResult *r)
{
  if (st->device_name)
    return;
  st->device_name = r->have_device
    ? g_strdup_printf ("%s (%s)", r->device.name, r->device.platform_name)
    : g_strdup ("CPU reference");
  if (r->fallback[0])
    st->fallback = g_strdup (r->fallback);
}

static void
clfx_case_record (ClfxSelftest        *st,
                  gchar               *name,
                  const ClfxImage     *src,
                  gboolean             ok,
                  const ClfxRunResult *r,
                  const ClfxError     *e)
{
  ClfxSelftestCase c = { 0 };

  c.name = name;
  c.depth = src->depth;
  c.channels = src->channels;
  /* A case passes only when OpenCL ran and agreed with the reference:
   * after a fallback (device auto) nothing was compared, so it fails, and
   * the report's "fallback" says why. */
  c.passed = ok && r->validated && r->validation.passed;
  c.error = ok ? NULL : g_strdup (e->message);
  if (ok)
    {
      c.validated = r->validated;
      c.max_abs = r->validation.max_abs;
      c.mismatches = r->validation.mismatches;
      c.ms = r->timings.total_ms;
    }
  if (c.passed)
    st->passed++;
  else
    st->failed++;
  g_array_append_val (st->cases, c);
}

static void
clfx_case_json (ClfxJson               *j,
                const ClfxSelftestCase *c)
{
  clfx_json_begin_object (j, NULL);
  clfx_json_string (j, "case", c->name);
  clfx_json_string (j, "format", clfx_depth_name (c->depth));
  clfx_json_int (j, "channels", c->channels);
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

static void
clfx_run_case (ClfxSelftest *st,
               gint          filter,
               gint          addressing,
               gboolean      normalized)
{
  static const gint       layouts[] = { 4, 1, 2 };
  const ClfxOpInfo       *op = &clfx_op_resize;
  const ClfxParamSpec    *fs = &op->params[clfx_op_param_index (op,
                                                                "filter")];
  const ClfxParamSpec    *as = &op->params[clfx_op_param_index (op,
                                                          "addressing")];
  gint                    k = (gint) st->cases->len;
  ClfxRunOptions          opt = { st->device, true, 0, &st->context };
  ClfxParams              p;
  ClfxImage               src, dst;
  ClfxRunResult           r;
  ClfxError               e = { 0 };
  gchar                  *name;
  gboolean                ok;

  memset (&r, 0, sizeof r);
  clfx_case_params (op, &p, filter, addressing, normalized, k);
  name = g_strdup_printf ("%s/%s/%s", fs->choices[filter].nick,
                          as->choices[addressing].nick,
                          normalized ? "normalized" : "unnormalized");
  if (! clfx_host_image_alloc (&src, CLFX_SELFTEST_SRC_W,
                               CLFX_SELFTEST_SRC_H, layouts[k % 3],
                               (ClfxDepth) (k % CLFX_N_DEPTHS), &e))
    {
      /* A case that cannot start is a failed case, never a crash. */
      if (clfx_case_allowed (op, &p, &src))
        clfx_case_record (st, name, &src, FALSE, &r, &e);
      else
        g_free (name);
      return;
    }
  clfx_host_image_synthetic (&src, (unsigned) k + 1);
  /* Alpha as drawables hold it: straight (filters weigh colour by it). */
  src.straight_alpha = src.channels > 1;
  if (! clfx_case_allowed (op, &p, &src))
    {
      g_free (name);
      clfx_host_image_free (&src);
      return;
    }
  ok = clfx_run (op, &p, &src, &dst, &opt, &r, &e);
  if (ok)
    clfx_note_device (st, &r);
  clfx_case_record (st, name, &src, ok, &r, &e);
  if (ok)
    clfx_host_image_free (&dst);
  clfx_run_result_clear (&r);
  clfx_host_image_free (&src);
}

static gint
clfx_n_choices (const gchar *param)
{
  const ClfxOpInfo *op = &clfx_op_resize;
  const ClfxChoice *c = op->params[clfx_op_param_index (op, param)].choices;
  gint              n = 0;

  while (c[n].nick)
    n++;
  return n;
}

static gchar *
clfx_selftest_json (ClfxSelftest *st)
{
  ClfxJson j;
  char    *text;
  gchar   *copy;

  clfx_json_init (&j);
  clfx_json_begin_object (&j, NULL);
  clfx_json_string (&j, "device",
                    st->device_name ? st->device_name : st->device);
  clfx_json_string (&j, "request", st->device);
  if (st->fallback)
    clfx_json_string (&j, "fallback", st->fallback);
  else
    clfx_json_null (&j, "fallback");
  clfx_json_int (&j, "cases", st->cases->len);
  clfx_json_int (&j, "passed", st->passed);
  clfx_json_int (&j, "failed", st->failed);
  clfx_json_begin_array (&j, "results");
  for (guint i = 0; i < st->cases->len; i++)
    clfx_case_json (&j, &g_array_index (st->cases, ClfxSelftestCase, i));
  clfx_json_end_array (&j);
  clfx_json_end_object (&j);
  text = clfx_json_take (&j);
  copy = g_strdup (text);
  free (text);
  return copy;
}

static void
clfx_selftest_fail (ClfxSelftest *st,
                    GError      **error)
{
  for (guint i = 0; i < st->cases->len; i++)
    {
      ClfxSelftestCase *c = &g_array_index (st->cases, ClfxSelftestCase, i);

      if (c->passed)
        continue;
      g_set_error (error, CLFX_PLUGIN_ERROR, CLFX_ERR_OPENCL,
                   _("self-test: %d of %u cases failed (first: %s: %s)"),
                   st->failed, st->cases->len, c->name,
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

gboolean
clfx_selftest_run (const gchar *device,
                   gchar      **report,
                   GError     **error)
{
  ClfxSelftest st = { 0 };
  gint         n_filters = clfx_n_choices ("filter");
  gint         n_addressing = clfx_n_choices ("addressing");
  gboolean     ok;

  st.device = device && *device ? device : "auto";
  st.cases = g_array_new (FALSE, TRUE, sizeof (ClfxSelftestCase));
  gimp_progress_init (_("OpenCL self-test"));
  for (gint f = 0; f < n_filters; f++)
    {
      for (gint a = 0; a < n_addressing; a++)
        for (gint n = 1; n >= 0; n--)
          clfx_run_case (&st, f, a, n);
      gimp_progress_update ((gdouble) (f + 1) / n_filters);
    }
  gimp_progress_end ();
  *report = clfx_selftest_json (&st);
  ok = st.failed == 0 && st.cases->len > 0;
  if (! ok)
    clfx_selftest_fail (&st, error);
  clfx_selftest_clear (&st);
  return ok;
}
