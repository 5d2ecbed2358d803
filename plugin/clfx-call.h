/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-call.h: one call of a family procedure, the same for every
 * family: the image check, the config read into engine values, the jobs
 * (one per drawable the engine runs on), the engine, the report, and the
 * apply step of the family's kind (clfx-geometry.c, clfx-shadow.c), all
 * or nothing. */
#ifndef CLFX_CALL_H
#define CLFX_CALL_H

#include <libgimp/gimp.h>

#include "clfx-args.h"
#include "clfx-pixel-format.h"

G_BEGIN_DECLS

typedef struct
{
  GimpDrawable   *drawable;
  /* GEOMETRY: the layer whose geometry changes; NULL for a layer mask,
   * which follows its layer (the job at index owner). */
  GimpLayer      *layer;
  gint            owner;
  ClfxPixelFormat format;
  GeglRectangle   read;     /* drawable pixels the engine reads */
  GeglRectangle   write;    /* SHADOW: pixels merged back: the
                             * selection's bounds, inside read */
  ClfxParams      params;   /* this drawable's (GEOMETRY: its size) */
  /* GEOMETRY: the drawable's geometry after and before. */
  gint            width, height, off_x, off_y;
  gint            old_width, old_height, old_x, old_y;
  gboolean        replaced; /* the resize gives it a new buffer */
  ClfxImage       result;
  /* The drawable as it was, copied just before the image changes (a
   * mask's is its layer copy's mask); backup_item is what to delete. */
  GimpDrawable   *backup;
  GimpItem       *backup_item;
  gboolean        started;  /* the apply step began to change it */
} ClfxJob;

typedef struct
{
  const ClfxFamily *family;
  GimpImage        *image;
  ClfxArgs          args;
  GArray           *jobs;          /* ClfxJob */
  gchar            *report;        /* the first job's report */
  ClfxContext      *context;       /* one for every job (clfx_run reuses
                                    * it) */
  /* GEOMETRY */
  gboolean          whole_image;   /* target image: canvas and layers */
  gint              width, height;         /* the canvas after */
  gint              old_width, old_height; /* and before */
} ClfxCall;

/* Fails for images the plug-in cannot take (indexed), before anything is
 * read or changed. */
gboolean clfx_call_check_image (GimpImage           *image,
                                GError             **error);

/* Runs the procedure's family (a variant's own procedure: that variant)
 * on the drawables as the config says.  The engine runs on every job
 * first; only when all succeeded and the report is written does one undo
 * group change the image, and a failure after that puts the image back as
 * it was.  *report: the JSON report of the first job (g_free). */
gboolean clfx_call_run         (const ClfxProcSpec  *proc,
                                GimpImage           *image,
                                GimpDrawable       **drawables,
                                GimpProcedureConfig *config,
                                gchar              **report,
                                GError             **error);

/* ---- for the apply kinds ---------------------------------------------- */

/* The job list the kinds fill. */
ClfxJob *clfx_call_add_job     (ClfxCall            *call,
                                GimpDrawable        *drawable);
static inline ClfxJob *
clfx_call_job (ClfxCall *call,
               guint     i)
{
  return &g_array_index (call->jobs, ClfxJob, i);
}

/* The test hook before each job's apply step: CLFX_DEV=
 * fault=clfx_apply_job=STATUS[@N] makes the Nth fail. */
gboolean clfx_call_fault       (ClfxJob             *job,
                                GError             **error);
/* Copies every drawable a job changes (layer copies share GIMP's tiles
 * until one side changes, so this is cheap); fails before anything
 * changed. */
gboolean clfx_call_backup      (ClfxCall            *call,
                                GError             **error);
void     clfx_call_drop_backups (ClfxCall           *call);
/* The apply step failed with *error and the image was put back as it
 * was (restore_error NULL) or could not be: says so in *error.  Takes
 * restore_error. */
void     clfx_call_restored    (GError             **error,
                                GError              *restore_error);

/* clfx-geometry.c: the result has its own size (resize). */
gboolean clfx_geometry_collect (ClfxCall            *call,
                                GimpDrawable       **drawables,
                                GError             **error);
gboolean clfx_geometry_apply   (ClfxCall            *call,
                                GError             **error);

/* clfx-shadow.c: the result has the source's size (filters, tone-map):
 * the selection's bounds plus the variant's halo are read, the
 * selection's bounds merged back through the shadow buffer. */
gboolean clfx_shadow_collect   (ClfxCall            *call,
                                GimpDrawable       **drawables,
                                GError             **error);
gboolean clfx_shadow_apply     (ClfxCall            *call,
                                GError             **error);
/* One apply step of a job; sets job->started before it changes the
 * job's pixels. */
typedef gboolean (*ClfxShadowStep) (ClfxCall  *call,
                                    ClfxJob   *job,
                                    gpointer   data,
                                    GError   **error);
/* Runs step on every job inside one undo group, all or nothing: the
 * drawables are copied first (clfx_call_backup), the fault hook runs
 * before each step, and when a step fails, undo (may be NULL) takes back
 * what the steps made besides pixels, and every started job gets the
 * selection's bounds back from its copy. */
gboolean clfx_shadow_apply_each (ClfxCall           *call,
                                 ClfxShadowStep      step,
                                 void              (*undo) (gpointer data),
                                 gpointer            data,
                                 GError            **error);

/* clfx-inprocess.c: the same families through the GEGL module's
 * operations inside GIMP's process.  wanted: "in-process" is on and GEGL
 * has the variant's operation. */
gboolean clfx_inprocess_wanted (const ClfxCall      *call);
gboolean clfx_inprocess_apply  (ClfxCall            *call,
                                GError             **error);

G_END_DECLS

#endif
