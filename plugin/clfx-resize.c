/* clfx-resize.c: plug-in-clfx-resize.
 *
 * target "layer": each selected layer becomes width x height (its offset
 * stays).  target "image": the canvas becomes width x height and every
 * layer scales with it, keeping its place relative to the canvas.
 * Layer masks are resized with their layer.  The selection does not limit
 * a resize (it replaces whole layers) and is kept as it was. */
#include <stdlib.h>
#include <string.h>

#include "clfx-drawable-io.h"
#include "clfx-plugin.h"
#include "clfx-procedures.h"
#include "clfx-resize.h"

typedef struct
{
  GimpDrawable *drawable;
  GimpLayer    *layer;    /* whose geometry changes; NULL for a mask */
  gint          width, height, off_x, off_y;
  gboolean      replaced; /* the resize gives the drawable a new buffer */
  const Babl   *format;
  ClfxImage     result;
} ClfxResizeJob;

typedef struct
{
  ClfxPdbArgs  args;
  gboolean     whole_image;
  gint         width, height; /* the width and height arguments */
  GArray      *jobs;          /* ClfxResizeJob */
  gchar       *report;
  ClfxContext *context;       /* one for every job (clfx_run reuses it) */
  GThread     *opening;       /* makes it while GIMP sends the pixels */
} ClfxResize;

gboolean
clfx_resize_check_image (GimpImage *image,
                         GError   **error)
{
  if (gimp_image_get_base_type (image) == GIMP_INDEXED)
    {
      g_set_error_literal (error, CLFX_PLUGIN_ERROR, CLFX_ERR_INVALID,
                           _("indexed images are not supported: convert "
                             "to RGB first"));
      return FALSE;
    }
  return TRUE;
}

static void
clfx_resize_clear (ClfxResize *rs)
{
  if (rs->jobs)
    {
      for (guint i = 0; i < rs->jobs->len; i++)
        clfx_host_image_free (&g_array_index (rs->jobs, ClfxResizeJob,
                                              i).result);
      g_array_free (rs->jobs, TRUE);
    }
  if (rs->opening)
    rs->context = g_thread_join (rs->opening);
  clfx_context_free (rs->context);
  clfx_pdb_args_clear (&rs->args);
  g_free (rs->report);
}

/* ---- which drawables, at which size ------------------------------------ */

static void
clfx_add_job (ClfxResize   *rs,
              GimpDrawable *drawable,
              GimpLayer    *layer,
              gint          width,
              gint          height,
              gint          off_x,
              gint          off_y)
{
  ClfxResizeJob job = { drawable, layer, width, height, off_x, off_y,
                        FALSE, NULL, { 0 } };

  /* GIMP resizes a drawable to another size into a new buffer and keeps
   * the old one in the undo step (a layer's mask goes with its layer). */
  job.replaced = gimp_drawable_get_width (drawable) != width
                 || gimp_drawable_get_height (drawable) != height;

  g_array_append_val (rs->jobs, job);
}

/* A layer and its mask, scaled to width x height at (off_x, off_y). */
static gboolean
clfx_add_layer (ClfxResize *rs,
                GimpItem   *item,
                gint        width,
                gint        height,
                gint        off_x,
                gint        off_y,
                GError    **error)
{
  GimpLayerMask *mask;

  if (! gimp_item_is_layer (item))
    {
      g_set_error (error, CLFX_PLUGIN_ERROR, CLFX_ERR_INVALID,
                   _("'%s' is not a layer: only layers can be resized"),
                   gimp_item_get_name (item));
      return FALSE;
    }
  if (gimp_item_is_group (item))
    {
      g_set_error (error, CLFX_PLUGIN_ERROR, CLFX_ERR_INVALID,
                   _("'%s' is a layer group: groups are not supported yet"),
                   gimp_item_get_name (item));
      return FALSE;
    }
  clfx_add_job (rs, GIMP_DRAWABLE (item), GIMP_LAYER (item), width, height,
                off_x, off_y);
  mask = gimp_layer_get_mask (GIMP_LAYER (item));
  if (mask)
    clfx_add_job (rs, GIMP_DRAWABLE (mask), NULL, width, height, 0, 0);
  return TRUE;
}

static gint
clfx_scale_coord (gint v,
                  gint to,
                  gint from)
{
  return (gint) ((gint64) v * to / from);
}

static gboolean
clfx_collect_image_layers (ClfxResize *rs,
                           GimpImage  *image,
                           GError    **error)
{
  GimpLayer **layers = gimp_image_get_layers (image);
  gint        iw = gimp_image_get_width (image);
  gint        ih = gimp_image_get_height (image);
  gboolean    ok = TRUE;

  for (gint i = 0; ok && layers && layers[i]; i++)
    {
      GimpDrawable *d = GIMP_DRAWABLE (layers[i]);
      gint          ox, oy, w, h;

      gimp_drawable_get_offsets (d, &ox, &oy);
      /* A layer that fills the canvas fills it exactly afterwards. */
      w = MAX (1, clfx_scale_coord (gimp_drawable_get_width (d), rs->width,
                                    iw));
      h = MAX (1, clfx_scale_coord (gimp_drawable_get_height (d),
                                    rs->height, ih));
      ok = clfx_add_layer (rs, GIMP_ITEM (layers[i]), w, h,
                           clfx_scale_coord (ox, rs->width, iw),
                           clfx_scale_coord (oy, rs->height, ih), error);
    }
  g_free (layers);
  return ok;
}

static gboolean
clfx_collect_jobs (ClfxResize    *rs,
                   GimpImage     *image,
                   GimpDrawable **drawables,
                   GError       **error)
{
  rs->jobs = g_array_new (FALSE, TRUE, sizeof (ClfxResizeJob));
  if (rs->whole_image)
    return clfx_collect_image_layers (rs, image, error);

  for (gint i = 0; drawables && drawables[i]; i++)
    {
      gint ox, oy;

      gimp_drawable_get_offsets (drawables[i], &ox, &oy);
      if (! clfx_add_layer (rs, GIMP_ITEM (drawables[i]), rs->width,
                            rs->height, ox, oy, error))
        return FALSE;
    }
  if (rs->jobs->len == 0)
    {
      g_set_error_literal (error, CLFX_PLUGIN_ERROR, CLFX_ERR_INVALID,
                           _("no layer selected"));
      return FALSE;
    }
  return TRUE;
}

/* ---- engine ------------------------------------------------------------ */

static gchar *
clfx_job_report (ClfxResize           *rs,
                 const ClfxParams     *p,
                 const ClfxImage      *src,
                 const ClfxRunOptions *opt,
                 const ClfxRunResult  *r)
{
  gchar       *n = g_strdup_printf ("%u", rs->jobs->len);
  const gchar *extra[] = { "target", rs->whole_image ? "image" : "layer",
                           "drawables", n, NULL };
  char        *json = clfx_report_json (rs->args.op, p, src, opt, r, extra);
  gchar       *copy = g_strdup (json);

  free (json);
  g_free (n);
  return copy;
}

static gboolean
clfx_run_job (ClfxResize    *rs,
              ClfxResizeJob *job,
              GError       **error)
{
  const ClfxOpInfo *op = rs->args.op;
  ClfxParams        p = rs->args.params;
  ClfxRunOptions    opt = { rs->args.device, rs->args.validate != FALSE, 0,
                              &rs->context };
  ClfxRunResult     r;
  ClfxImage         src;
  ClfxError         e = { 0 };
  gboolean          ok;
  gint64            t0 = g_get_monotonic_time (), t1;

  if (! clfx_drawable_read (job->drawable, &src, &job->format, error))
    return FALSE;
  t1 = g_get_monotonic_time ();
  if (rs->opening)
    {
      rs->context = g_thread_join (rs->opening);
      rs->opening = NULL;
    }
  p.v[clfx_op_param_index (op, "width")].i = job->width;
  p.v[clfx_op_param_index (op, "height")].i = job->height;
  ok = clfx_run (op, &p, &src, &job->result, &opt, &r, &e);
  /* Where the time goes (G_MESSAGES_DEBUG=clfx): the engine's report has
   * its own part only, GIMP's transfers are measured here. */
  g_debug ("'%s': read %dx%d as %s in %.1f ms; engine %.1f ms",
           gimp_item_get_name (GIMP_ITEM (job->drawable)), src.width,
           src.height, babl_get_name (job->format), (t1 - t0) / 1000.0,
           (g_get_monotonic_time () - t1) / 1000.0);
  if (! ok)
    clfx_set_gerror (error, &e);
  else if (! rs->report)
    rs->report = clfx_job_report (rs, &p, &src, &opt, &r);
  clfx_run_result_clear (&r);
  clfx_host_image_free (&src);
  return ok;
}

/* Device enumeration and context creation cost 0.1 s and more (PoCL's
 * start, a GPU driver's context); reading pixels out of GIMP leaves the
 * plug-in waiting on GIMP, so the context is made meanwhile.  A failure
 * leaves NULL: clfx_run then tries once more itself and reports why
 * (and falls back where the device request allows). */
static gpointer
clfx_open_context (gpointer device)
{
  ClfxError e = { 0 };

  return clfx_run_context_new (device, NULL, &e);
}

static gboolean
clfx_run_jobs (ClfxResize *rs,
               GError    **error)
{
  if (! clfx_device_is_reference (rs->args.device))
    rs->opening = g_thread_new ("clfx-opencl", clfx_open_context,
                                (gpointer) rs->args.device);
  gimp_progress_init (_("Resizing with OpenCL"));
  for (guint i = 0; i < rs->jobs->len; i++)
    {
      if (! clfx_run_job (rs, &g_array_index (rs->jobs, ClfxResizeJob, i),
                          error))
        return FALSE;
      gimp_progress_update ((gdouble) (i + 1) / (rs->jobs->len + 1));
    }
  return TRUE;
}

/* ---- applying ---------------------------------------------------------- */

static gboolean
clfx_apply_job (ClfxResize    *rs,
                ClfxResizeJob *job,
                GError       **error)
{
  gint64   t0 = g_get_monotonic_time ();
  gboolean ok;

  if (job->layer)
    {
      if (! gimp_layer_resize (job->layer, job->width, job->height, 0, 0)
          || (rs->whole_image
              && ! gimp_layer_set_offsets (job->layer, job->off_x,
                                           job->off_y)))
        {
          g_set_error (error, CLFX_PLUGIN_ERROR, CLFX_ERR_IO,
                       _("GIMP could not resize layer '%s'"),
                       gimp_item_get_name (GIMP_ITEM (job->layer)));
          return FALSE;
        }
    }
  ok = clfx_drawable_write (job->drawable, &job->result, job->format,
                            job->replaced, error);
  g_debug ("'%s': resized and written (%s) in %.1f ms",
           gimp_item_get_name (GIMP_ITEM (job->drawable)),
           job->replaced ? "in place" : "through the shadow buffer",
           (g_get_monotonic_time () - t0) / 1000.0);
  return ok;
}

/* merge_shadow composites through the selection, as filters should; a
 * resize replaces whole layers, so the selection is set aside for the
 * merge and put back afterwards, inside the same undo group.  Returns the
 * saved selection, or NULL when there was none. */
static GimpChannel *
clfx_selection_set_aside (GimpImage *image)
{
  GimpChannel *saved;

  if (gimp_selection_is_empty (image))
    return NULL;
  saved = gimp_selection_save (image);
  gimp_selection_none (image);
  return saved;
}

static void
clfx_selection_restore (GimpImage   *image,
                        GimpChannel *saved)
{
  if (! saved)
    return;
  gimp_image_select_item (image, GIMP_CHANNEL_OP_REPLACE, GIMP_ITEM (saved));
  gimp_image_remove_channel (image, saved);
}

static gboolean
clfx_apply (ClfxResize *rs,
            GimpImage  *image,
            GError    **error)
{
  GimpChannel *selection;
  gboolean     ok = TRUE;

  gimp_image_undo_group_start (image);
  selection = clfx_selection_set_aside (image);
  if (rs->whole_image
      && ! gimp_image_resize (image, rs->width, rs->height, 0, 0))
    {
      g_set_error_literal (error, CLFX_PLUGIN_ERROR, CLFX_ERR_IO,
                           _("GIMP could not resize the canvas"));
      ok = FALSE;
    }
  for (guint i = 0; ok && i < rs->jobs->len; i++)
    ok = clfx_apply_job (rs, &g_array_index (rs->jobs, ClfxResizeJob, i),
                         error);
  clfx_selection_restore (image, selection);
  gimp_image_undo_group_end (image);
  gimp_progress_update (1.0);
  return ok;
}

/* ---- the procedure ----------------------------------------------------- */

static gboolean
clfx_resize_read_config (ClfxResize          *rs,
                         GimpProcedureConfig *config,
                         GError             **error)
{
  const ClfxOpInfo *op = &clfx_op_resize;

  if (! clfx_pdb_args_read (op, config, &rs->args, error))
    return FALSE;
  rs->whole_image = gimp_procedure_config_get_choice_id (config,
                                                         "target") == 1;
  rs->width = rs->args.params.v[clfx_op_param_index (op, "width")].i;
  rs->height = rs->args.params.v[clfx_op_param_index (op, "height")].i;
  return TRUE;
}

gboolean
clfx_resize_run (GimpImage           *image,
                 GimpDrawable       **drawables,
                 GimpProcedureConfig *config,
                 gchar              **report,
                 GError             **error)
{
  ClfxResize rs = { 0 };
  gboolean   ok;

  ok = clfx_resize_check_image (image, error)
       && clfx_resize_read_config (&rs, config, error)
       && clfx_collect_jobs (&rs, image, drawables, error)
       && clfx_run_jobs (&rs, error)
       /* Before the image changes, so that failing to write it leaves
        * the image as it was. */
       && (! *rs.args.report_file
           || clfx_report_write (rs.args.report_file, rs.report, error))
       && clfx_apply (&rs, image, error);
  if (ok)
    *report = g_steal_pointer (&rs.report);
  gimp_progress_end ();
  clfx_resize_clear (&rs);
  return ok;
}
