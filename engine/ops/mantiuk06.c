/* SPDX-License-Identifier: GPL-3.0-or-later */
/* mantiuk06.c: the tonemap family's mantiuk06 (docs/TONEMAP.md,
 * kernels/mantiuk06.cl): Mantiuk, Myszkowski and Seidel's contrast
 * mapping as gegl:mantiuk06 makes it, after the family's statistics
 * (tonemap-common.c): x = log10 Y, the gradients of x's pyramid through
 * the transducer and scaled by the contrast, the luminance whose
 * multi-scale gradients match them solved by conjugate gradients on the
 * device (GEGL's stopping rule and restarts), the 0.1 % and 99.9 % points
 * of the solution mapped to the display's 2.3 decades, colour (c /
 * Y)^saturation.  The solve needs the whole image at once: in tiles, x
 * is whole, made by a pass over the tiles (tm_plan_fields), and the
 * result the one-piece run's.
 *
 * The reference is mantiuk06-ref.c's, in double.  Both stop at the same
 * relative residual, not at the same solution: validation accepts the
 * distance the reference measures between its own result and the one of
 * a solve continued far past the stop (mantiuk_bound). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/mantiuk06-shapes.h"
#include "clfx-params.h"
#include "mantiuk06-ref.h"
#include "tonemap-common.h"

/* The float unit roundoff, 2^-24, in the bounds below. */
#define U CLFX_FLOAT_EPS

#define M06_MAX_LEVELS 32
/* Iterations queued between two reads of the solver's state. */
#define M06_AHEAD 8

typedef struct
{
  const ClfxImage  *src;
  float            *out;       /* RGB(A) of the reference, per pixel */
  ClfxMantiuk06Info info;
  double            float_error; /* max |t| distance of the emulated run */
  int               float_iterations;
  double            max_t_x;   /* max |x| / (l_max - l_min) */
  double            max_log2c; /* max |log2 (c / Y)| of the colour */
} M06Cache;

typedef struct
{
  TmState   tm;
  double    contrast, saturation, detail;
  M06Cache *ref;
} M06State;

static void
cache_free (M06Cache *c)
{
  if (! c)
    return;
  free (c->out);
  free (c);
}

static void
state_free (void *data)
{
  M06State *ms = data;

  cache_free (ms->ref);
  free (data);
}

/* GEGL's pyramid: levels while both sides are >= 3, each side halved. */
static int
m06_levels (int w, int h, int *lw, int *lh)
{
  int n = 0;

  while (w >= 3 && h >= 3 && n < M06_MAX_LEVELS)
    {
      lw[n] = w;
      lh[n] = h;
      n++;
      w /= 2;
      h /= 2;
    }
  return n;
}

/* ---- OpenCL ---------------------------------------------------------------- */

static bool
m06_params (ClfxGraph *g, const TmState *st, cl_mem stats, float n,
            cl_mem prm, ClfxError *error)
{
  ClfxLaunch one = TM_ONE ("m06_params");

  (void) st;
  return CLFX_LAUNCH (g, &one, error, CLFX_ARG (stats), CLFX_FLOAT (n),
                      CLFX_ARG (prm));
}

/* cpu: the CPU devices' forms (kernels/mantiuk06.cl's _v kernels): the
 * levels a row a work-item, level 0's A p in bands of rows whose partials
 * of p.Ap it writes (no m06_dot in the iteration), the vectors a chunk a
 * work-item; fuse (both sides even, two levels or more): an iteration's
 * update of x and p made by the next one's first pyramid level
 * (m06_down_update_v), m06_update_v only where the solve stops. */
typedef struct
{
  ClfxGraph *g;
  int        levels, w[M06_MAX_LEVELS], h[M06_MAX_LEVELS];
  long       n, chunk;
  int        groups;
  bool       cpu, fuse;
  int        bands, rows; /* level 0's bands of rows (cpu) */
  /* Per level: the pyramid of the vector multiplied (D[0] unused), the
   * divergence sums (S[0] unused: the product's buffer), the weights. */
  cl_mem     D[M06_MAX_LEVELS], S[M06_MAX_LEVELS];
  cl_mem     Cx[M06_MAX_LEVELS], Cy[M06_MAX_LEVELS];
  cl_mem     x, b, r, p, Ap, saved, st, partials, prm;
  float      tol2, itmax;
  /* GPU: levels from `coarse` on (at most M06_COARSE_PIXELS each) made in
   * one group (m06_coarse) from their packed buffer; levels: none. */
  int        coarse;
  cl_mem     packed;
} M06Solve;

static ClfxLaunch
m06_launch (const char *kernel, int w, int h)
{
  ClfxLaunch l = { kernel, NULL, NULL, 2, { (size_t) w, (size_t) h },
                   { 0, 0 } };
  return l;
}

static ClfxLaunch
m06_vector (const char *kernel, long n)
{
  ClfxLaunch l = { kernel, NULL, NULL, 1, { (size_t) n, 1 }, { 0, 0 } };
  return l;
}

/* A reduction over the vectors' chunks: TM_SEL_GROUP work-items a chunk,
 * or on CPU devices one (kernel_v). */
static ClfxLaunch
m06_reduce (const M06Solve *s, const char *kernel, const char *kernel_v)
{
  ClfxLaunch l = { kernel, NULL, NULL, 1,
                   { (size_t) TM_SEL_GROUP * (size_t) s->groups, 1 },
                   { TM_SEL_GROUP, 1 } };
  if (s->cpu)
    {
      l.kernel = kernel_v;
      l.global[0] = (size_t) s->groups;
      l.local[0] = 1;
    }
  return l;
}

/* A level's kernel: a pixel a work-item, or on CPU devices a row
 * (kernel_v, over `rows` rows). */
static ClfxLaunch
m06_level (bool cpu, const char *kernel, const char *kernel_v, int w, int h,
           int rows)
{
  ClfxLaunch l = m06_launch (kernel, w, h);

  if (cpu)
    return m06_vector (kernel_v, rows);
  /* Groups of 32 x 8: a warp reads a row's 32 floats, the group the rows
   * its pixels' y - 1 and y + 1 neighbours share (the kernels end past
   * w x h). */
  l.global[0] = ((size_t) w + 31) / 32 * 32;
  l.global[1] = ((size_t) h + 7) / 8 * 8;
  l.local[0] = 32;
  l.local[1] = 8;
  return l;
}

/* The sum of `groups` partials and what it decides (m06_final's mode),
 * in iteration k (0: whatever the state). */
static bool
m06_final (M06Solve *s, int mode, int k, int groups, ClfxError *error)
{
  ClfxLaunch l = { "m06_final", NULL, NULL, 1, { TM_SEL_GROUP, 1 },
                   { TM_SEL_GROUP, 1 } };

  return CLFX_LAUNCH (s->g, &l, error, CLFX_ARG (s->partials),
                      CLFX_INT (groups), CLFX_INT (mode),
                      CLFX_FLOAT (s->tol2), CLFX_FLOAT (s->itmax),
                      CLFX_ARG (s->st), CLFX_INT (k),
                      CLFX_LOCAL (4 * TM_SEL_GROUP));
}

/* out = A v: v's pyramid, then from the coarsest level the divergence of
 * C times its gradients plus the coarser sum upsampled; dot (CPU
 * devices): level 0 writes the partials of v.out too, s->bands of them;
 * update (s->fuse, v = p): the first level makes iteration k - 1's
 * update. */
static bool
m06_multiply (M06Solve *s, cl_mem v, cl_mem out, int k, bool dot,
              bool update, ClfxError *error)
{
  ClfxLaunch coarse = { "m06_coarse", NULL, NULL, 1, { M06_COARSE_GROUP, 1 },
                        { M06_COARSE_GROUP, 1 } };
  int        c = s->coarse;
  cl_mem     fine = c > 1 && c < s->levels ? s->D[c - 1] : v;

  for (int l = 1; l < c; l++)
    {
      ClfxLaunch down = m06_level (s->cpu, "m06_down", "m06_down_v", s->w[l],
                                   s->h[l], s->h[l]);
      cl_mem     in = l == 1 ? v : s->D[l - 1];
      bool       ok;
      if (update && l == 1)
        {
          down.kernel = "m06_down_update_v";
          ok = CLFX_LAUNCH (s->g, &down, error, CLFX_ARG (in),
                            CLFX_INT (s->w[0]), CLFX_INT (s->h[0]),
                            CLFX_ARG (s->D[1]), CLFX_INT (s->w[1]),
                            CLFX_INT (s->h[1]), CLFX_ARG (s->st),
                            CLFX_INT (k), CLFX_ARG (s->x),
                            CLFX_ARG (s->saved), CLFX_ARG (s->r));
        }
      else
        ok = CLFX_LAUNCH (s->g, &down, error, CLFX_ARG (in),
                          CLFX_INT (s->w[l - 1]), CLFX_INT (s->h[l - 1]),
                          CLFX_ARG (s->D[l]), CLFX_INT (s->w[l]),
                          CLFX_INT (s->h[l]), CLFX_ARG (s->st), CLFX_INT (k));
      if (! ok)
        return false;
    }
  if (c < s->levels
      && ! CLFX_LAUNCH (s->g, &coarse, error,
                        CLFX_ARG (fine),
                        CLFX_INT (s->w[c - 1]), CLFX_INT (s->h[c - 1]),
                        CLFX_INT (s->levels - c), CLFX_ARG (s->packed),
                        CLFX_ARG (s->S[c]), CLFX_ARG (s->st), CLFX_INT (k)))
    return false;
  for (int l = c - 1; l >= 0; l--)
    {
      int        rows = l ? 1 : s->rows;
      ClfxLaunch apply = m06_level (s->cpu, "m06_apply", "m06_apply_v",
                                    s->w[l], s->h[l], l ? s->h[l] : s->bands);
      bool       top = l == s->levels - 1;
      /* The coarsest level reads no coarser sum: any buffer stands in. */
      cl_mem     in = l ? s->D[l] : v, coarse = top ? s->Cx[l] : s->S[l + 1];
      cl_mem     sum = l ? s->S[l] : out;
      bool       ok;
      if (s->cpu)
        ok = CLFX_LAUNCH (s->g, &apply, error, CLFX_ARG (in),
                          CLFX_ARG (s->Cx[l]), CLFX_ARG (s->Cy[l]),
                          CLFX_INT (s->w[l]), CLFX_INT (s->h[l]),
                          CLFX_ARG (coarse), CLFX_INT (! top), CLFX_ARG (sum),
                          CLFX_ARG (s->st), CLFX_INT (k), CLFX_INT (rows),
                          CLFX_INT (dot && l == 0), CLFX_ARG (s->partials));
      else
        ok = CLFX_LAUNCH (s->g, &apply, error, CLFX_ARG (in),
                          CLFX_ARG (s->Cx[l]), CLFX_ARG (s->Cy[l]),
                          CLFX_INT (s->w[l]), CLFX_INT (s->h[l]),
                          CLFX_ARG (coarse), CLFX_INT (! top), CLFX_ARG (sum),
                          CLFX_ARG (s->st), CLFX_INT (k));
      if (! ok)
        return false;
    }
  return true;
}

/* r = p = b - A x and r.r (the start, or a restart: mode). */
static bool
m06_residual (M06Solve *s, int mode, ClfxError *error)
{
  ClfxLaunch resid = m06_reduce (s, "m06_resid", "m06_resid_v");
  bool       ok = m06_multiply (s, s->x, s->Ap, 0, false, false, error);

  if (ok && s->cpu)
    ok = CLFX_LAUNCH (s->g, &resid, error, CLFX_ARG (s->b), CLFX_ARG (s->Ap),
                      CLFX_ARG (s->r), CLFX_ARG (s->p), CLFX_ARG (s->n),
                      CLFX_ARG (s->chunk), CLFX_ARG (s->partials));
  else if (ok)
    ok = CLFX_LAUNCH (s->g, &resid, error, CLFX_ARG (s->b), CLFX_ARG (s->Ap),
                      CLFX_ARG (s->r), CLFX_ARG (s->p), CLFX_ARG (s->n),
                      CLFX_ARG (s->chunk), CLFX_ARG (s->partials),
                      CLFX_LOCAL (4 * TM_SEL_GROUP));
  return ok && m06_final (s, mode, 0, s->groups, error);
}

static bool
m06_copy (M06Solve *s, cl_mem from, cl_mem to, ClfxError *error)
{
  ClfxLaunch copy = m06_vector ("m06_copy", s->n);

  return CLFX_LAUNCH (s->g, &copy, error, CLFX_ARG (from), CLFX_ARG (to),
                      CLFX_ARG (s->n));
}

/* a.b's partials (the GPU's m06_dot, the CPU devices' m06_dot_v). */
static bool
m06_dot (M06Solve *s, cl_mem a, cl_mem b, int k, ClfxError *error)
{
  ClfxLaunch dot = m06_reduce (s, "m06_dot", "m06_dot_v");

  if (s->cpu)
    return CLFX_LAUNCH (s->g, &dot, error, CLFX_ARG (a), CLFX_ARG (b),
                        CLFX_ARG (s->n), CLFX_ARG (s->chunk),
                        CLFX_ARG (s->partials), CLFX_ARG (s->st),
                        CLFX_INT (k));
  return CLFX_LAUNCH (s->g, &dot, error, CLFX_ARG (a), CLFX_ARG (b),
                      CLFX_ARG (s->n), CLFX_ARG (s->chunk),
                      CLFX_ARG (s->partials), CLFX_ARG (s->st), CLFX_INT (k),
                      CLFX_LOCAL (4 * TM_SEL_GROUP));
}

/* Iteration k: A p, alpha, r and r.r, the step's decisions, x and p; on
 * CPU devices p.Ap's partials come with A p (m06_multiply's dot) and the
 * vectors' kernels take chunks. */
static bool
m06_iterate (M06Solve *s, int k, ClfxError *error)
{
  ClfxLaunch upr = m06_reduce (s, "m06_update_r", "m06_update_r_v");
  ClfxLaunch upd = s->cpu ? m06_reduce (s, NULL, "m06_update_v")
                          : m06_vector ("m06_update", s->n);

  if (! m06_multiply (s, s->p, s->Ap, k, s->cpu, s->fuse, error)
      || (! s->cpu && ! m06_dot (s, s->p, s->Ap, k, error))
      || ! m06_final (s, M06_FIN_PAP, k, s->cpu ? s->bands : s->groups,
                      error))
    return false;
  if (s->cpu)
    return CLFX_LAUNCH (s->g, &upr, error, CLFX_ARG (s->r), CLFX_ARG (s->Ap),
                        CLFX_ARG (s->n), CLFX_ARG (s->chunk),
                        CLFX_ARG (s->partials), CLFX_ARG (s->st),
                        CLFX_INT (k))
           && m06_final (s, M06_FIN_RR, k, s->groups, error)
           && CLFX_LAUNCH (s->g, &upd, error, CLFX_ARG (s->x),
                           CLFX_ARG (s->saved), CLFX_ARG (s->p),
                           CLFX_ARG (s->r), CLFX_ARG (s->n),
                           CLFX_ARG (s->chunk), CLFX_ARG (s->st),
                           CLFX_INT (k), CLFX_INT (s->fuse));
  return CLFX_LAUNCH (s->g, &upr, error, CLFX_ARG (s->r), CLFX_ARG (s->Ap),
                      CLFX_ARG (s->n), CLFX_ARG (s->chunk),
                      CLFX_ARG (s->partials), CLFX_ARG (s->st), CLFX_INT (k),
                      CLFX_LOCAL (4 * TM_SEL_GROUP))
         && m06_final (s, M06_FIN_RR, k, s->groups, error)
         && CLFX_LAUNCH (s->g, &upd, error, CLFX_ARG (s->x),
                         CLFX_ARG (s->saved), CLFX_ARG (s->p), CLFX_ARG (s->r),
                         CLFX_ARG (s->n), CLFX_ARG (s->st), CLFX_INT (k));
}

/* Conjugate gradients from x: iterations queued M06_AHEAD at a time, the
 * state read after each batch (done; a restart due, which the host
 * makes: x from the best seen, its residual); then the best x kept. */
static bool
m06_solve (M06Solve *s, ClfxError *error)
{
  ClfxLaunch pick = m06_vector ("m06_pick", s->n);
  int        k = 1, itmax = (int) s->itmax;

  if (! m06_dot (s, s->b, s->b, 0, error)
      || ! m06_final (s, M06_FIN_BB, 0, s->groups, error)
      || ! m06_residual (s, M06_FIN_START, error)
      || ! m06_copy (s, s->x, s->saved, error))
    return false;
  while (k <= itmax)
    {
      int   last = k + M06_AHEAD - 1 < itmax ? k + M06_AHEAD - 1 : itmax;
      float state[M06_S_N];

      for (; k <= last; k++)
        if (! m06_iterate (s, k, error))
          return false;
      if (! clfx_graph_read (s->g, "mantiuk06's solver state", s->st, 0,
                             sizeof state, state, error))
        return false;
      if (state[M06_DONE] != 0.0f)
        break;
      if (state[M06_PAUSE] != 0.0f
          && ! (m06_copy (s, s->saved, s->x, error)
                && m06_residual (s, M06_FIN_RESTART, error)))
        return false;
      k = (int) state[M06_ITER] + 1;
    }
  if (s->cpu)
    {
      pick = m06_reduce (s, NULL, "m06_pick_v");
      return CLFX_LAUNCH (s->g, &pick, error, CLFX_ARG (s->x),
                          CLFX_ARG (s->saved), CLFX_ARG (s->n),
                          CLFX_ARG (s->chunk), CLFX_ARG (s->st));
    }
  return CLFX_LAUNCH (s->g, &pick, error, CLFX_ARG (s->x),
                      CLFX_ARG (s->saved), CLFX_ARG (s->n), CLFX_ARG (s->st));
}

/* GEGL's percentile point of n sorted values: the ranks below and above
 * (n - 1) pct / 100, and the fraction. */
static void
m06_rank (long n, double pct, cl_uint *below, cl_uint *above, double *d)
{
  double t = (double) (n - 1) * pct * 0.01;

  *below = (cl_uint) floor (t);
  *above = (cl_uint) ceil (t);
  *d = t - floor (t);
}

/* The four order statistics of x (M06_Q .. M06_Q + 3), then l_min and
 * l_max. */
static bool
m06_percentiles (M06Solve *s, ClfxError *error)
{
  ClfxLaunch range = TM_ONE ("m06_range");
  cl_uint    below[2], above[2];
  double     d[2];

  m06_rank (s->n, 0.1, &below[0], &above[0], &d[0]);
  m06_rank (s->n, 99.9, &below[1], &above[1], &d[1]);
  for (int which = 0; which < 2; which++)
    {
      const cl_uint *ranks = which ? above : below;
      const ClfxArg  tail[] = { CLFX_ARG (s->st),
                                CLFX_INT (M06_Q + 2 * which) };
      if (! tm_select_cl (s->g, "mantiuk06", "m06_hist", "m06_hist_v",
                          "m06_select", s->x, s->n, ranks[0], ranks[1], tail,
                          2, error))
        return false;
    }
  return CLFX_LAUNCH (s->g, &range, error, CLFX_ARG (s->st),
                      CLFX_FLOAT ((float) d[0]), CLFX_FLOAT ((float) d[1]),
                      CLFX_ARG (s->prm));
}

static cl_mem
m06_buffer (ClfxGraph *g, const char *what, int level, int w, int h,
            ClfxError *error)
{
  char name[48];

  snprintf (name, sizeof name, "mantiuk06 %s %d", what, level);
  return clfx_graph_buffer (g, name, 4 * (size_t) w * (size_t) h, error);
}

/* The coarse levels' Cx and Cy into their packed buffer, after each
 * level's pyramid, sum, Cx and Cy (m06_coarse), once the targets are
 * made (GPU, where the solve has coarse levels). */
static bool
m06_pack_coarse (M06Solve *s, ClfxError *error)
{
  size_t at = 0;

  if (s->coarse >= s->levels)
    return true;
  for (int l = s->coarse; l < s->levels; l++)
    at += 4 * (size_t) s->w[l] * (size_t) s->h[l];
  if (! (s->packed = clfx_graph_buffer (s->g, "mantiuk06 coarse levels",
                                        4 * at, error)))
    return false;
  at = 0;
  for (int l = s->coarse; l < s->levels; l++)
    {
      long       m = (long) s->w[l] * s->h[l];
      ClfxLaunch pack = m06_vector ("m06_pack", m);
      cl_long    cx = (cl_long) at + 2 * m, cy = (cl_long) at + 3 * m;
      if (! CLFX_LAUNCH (s->g, &pack, error, CLFX_ARG (s->Cx[l]),
                         CLFX_ARG (s->packed), CLFX_ARG (cx), CLFX_ARG (m))
          || ! CLFX_LAUNCH (s->g, &pack, error, CLFX_ARG (s->Cy[l]),
                            CLFX_ARG (s->packed), CLFX_ARG (cy),
                            CLFX_ARG (m)))
        return false;
      at += 4 * (size_t) m;
    }
  return true;
}

/* The graph after the field: the solve and the percentiles where whole
 * (one piece, or the first tile), then the map of the current piece. */
static bool
m06_cl (ClfxGraph *g, const TmState *tm, bool whole, cl_mem scan,
        cl_mem prm, ClfxError *error)
{
  const M06State *ms = (const M06State *) tm;
  const ClfxPlan *plan = clfx_graph_plan (g);
  const ClfxTile *t = clfx_graph_tile (g);
  int             w = plan->width, h = plan->height;
  M06Solve        s = { 0 };
  cl_mem          Bx[M06_MAX_LEVELS], By[M06_MAX_LEVELS], hist;
  bool            cpu = clfx_graph_source_is_buffer (g);
  /* CPU devices: the map eight pixels of a row in TM_MAP_ROWS rows a
   * work-item (m06_map_v). */
  ClfxLaunch      map
    = cpu ? m06_launch ("m06_map_v", (t->out.width + TM_V - 1) / TM_V,
                        (t->out.height + TM_MAP_ROWS - 1) / TM_MAP_ROWS)
          : m06_launch ("m06_map", t->out.width, t->out.height);
  static const float zero = 0.0f;

  s.g = g;
  s.cpu = cpu;
  /* Level 0's bands: at most 4096 (the partials' buffer). */
  s.rows = (h + 4095) / 4096;
  s.bands = (h + s.rows - 1) / s.rows;
  s.prm = prm;
  s.levels = m06_levels (w, h, s.w, s.h);
  for (s.coarse = cpu ? s.levels : 1;
       s.coarse < s.levels
       && ((long) s.w[s.coarse] * s.h[s.coarse] > M06_COARSE_PIXELS
           || s.levels - s.coarse > M06_COARSE_LEVELS);
       s.coarse++)
    ;
  s.fuse = cpu && s.levels > 1 && w % 2 == 0 && h % 2 == 0;
  s.n = (long) w * h;
  /* The reductions' chunks: a CPU device's work-item each (few, long:
   * two cores); on a GPU a group of TM_SEL_GROUP each, enough of them
   * to fill every compute unit (127 groups of 64 Ki left most of an
   * H200's idle at 3840x2160). */
  s.groups = (int) ((s.n + (cpu ? 65535 : 8191)) / (cpu ? 65536 : 8192));
  s.groups = s.groups < 1 ? 1 : s.groups > 4096 ? 4096 : s.groups;
  s.chunk = (s.n + s.groups - 1) / s.groups;
  s.tol2 = (float) (CLFX_MANTIUK06_TOL * CLFX_MANTIUK06_TOL);
  s.itmax = CLFX_MANTIUK06_ITMAX;
  if (! (s.x = tm_field_buffer (g, tm, error))
      || ! (s.st = clfx_graph_buffer (g, "mantiuk06 state", 4 * M06_S_N,
                                      error))
      || (whole
          && ! clfx_graph_fill (g, s.st, &zero, sizeof zero, 4 * M06_S_N,
                                error)))
    return false;
  if (whole && s.levels > 0)
    {
      /* Level 0's target gradients live in r and p until b is made. */
      if (! (s.b = m06_buffer (g, "b", 0, w, h, error))
          || ! (s.r = m06_buffer (g, "r", 0, w, h, error))
          || ! (s.p = m06_buffer (g, "p", 0, w, h, error))
          || ! (s.Ap = m06_buffer (g, "Ap", 0, w, h, error))
          || ! (s.saved = m06_buffer (g, "saved", 0, w, h, error))
          || ! (s.partials = clfx_graph_buffer (g, "mantiuk06 partials",
                                                4 * 4096, error)))
        return false;
      Bx[0] = s.r;
      By[0] = s.p;
      for (int l = 0; l < s.levels; l++)
        if (! (s.Cx[l] = m06_buffer (g, "Cx", l, s.w[l], s.h[l], error))
            || ! (s.Cy[l] = m06_buffer (g, "Cy", l, s.w[l], s.h[l], error))
            || (l > 0
                && (! (s.D[l] = m06_buffer (g, "pyramid", l, s.w[l], s.h[l],
                                            error))
                    || ! (s.S[l] = m06_buffer (g, "sum", l, s.w[l], s.h[l],
                                               error))
                    || ! (Bx[l] = m06_buffer (g, "Bx", l, s.w[l], s.h[l],
                                              error))
                    || ! (By[l] = m06_buffer (g, "By", l, s.w[l], s.h[l],
                                              error)))))
          return false;
      /* The pyramid of x, each level's target; b. */
      for (int l = 0; l < s.levels; l++)
        {
          ClfxLaunch down = m06_level (cpu, "m06_down", "m06_down_v", s.w[l],
                                       s.h[l], s.h[l]);
          ClfxLaunch target = m06_level (cpu, "m06_target", "m06_target_v",
                                         s.w[l], s.h[l], s.h[l]);
          cl_mem     in = l > 1 ? s.D[l - 1] : s.x, level = l ? s.D[l] : s.x;
          if ((l > 0
               && ! CLFX_LAUNCH (g, &down, error, CLFX_ARG (in),
                                 CLFX_INT (s.w[l - 1]), CLFX_INT (s.h[l - 1]),
                                 CLFX_ARG (s.D[l]), CLFX_INT (s.w[l]),
                                 CLFX_INT (s.h[l]), CLFX_ARG (s.st),
                                 CLFX_INT (0)))
              || ! CLFX_LAUNCH (g, &target, error, CLFX_ARG (level),
                                CLFX_INT (s.w[l]),
                                CLFX_INT (s.h[l]),
                                CLFX_FLOAT ((float) ms->contrast),
                                CLFX_FLOAT ((float) ms->detail),
                                CLFX_ARG (s.Cx[l]), CLFX_ARG (s.Cy[l]),
                                CLFX_ARG (Bx[l]), CLFX_ARG (By[l])))
            return false;
        }
      for (int l = s.levels - 1; l >= 0; l--)
        {
          ClfxLaunch div = m06_level (cpu, "m06_div", "m06_div_v", s.w[l],
                                      s.h[l], s.h[l]);
          bool       top = l == s.levels - 1;
          cl_mem     coarse = top ? Bx[l] : s.S[l + 1];
          cl_mem     sum = l ? s.S[l] : s.b;
          if (! CLFX_LAUNCH (g, &div, error, CLFX_ARG (Bx[l]),
                             CLFX_ARG (By[l]), CLFX_INT (s.w[l]),
                             CLFX_INT (s.h[l]), CLFX_ARG (coarse),
                             CLFX_INT (! top), CLFX_ARG (sum)))
            return false;
        }
      if (! m06_pack_coarse (&s, error) || ! m06_solve (&s, error)
          || ! m06_percentiles (&s, error))
        return false;
    }
  return (hist = tm_hist_buffer (g, "histogram after", TM_HA_N, error))
         && CLFX_LAUNCH (g, &map, error, CLFX_SRC, CLFX_DST, CLFX_ARG (scan),
                         CLFX_FLOAT (ms->tm.scale), CLFX_ARG (s.x),
                         CLFX_INT (w), CLFX_ARG (prm), CLFX_ARG (s.st),
                         CLFX_FLOAT ((float) ms->saturation),
                         CLFX_INT (s.levels == 0), CLFX_ARG (hist),
                         CLFX_LOCAL (4 * TM_HA_N))
         && (s.levels == 0
             || clfx_graph_probe_at (g, "x at 0.1 %, 99.9 %", s.st, M06_LMIN,
                                     2, error));
}

/* ---- CPU reference ------------------------------------------------------------ */

/* mantiuk06-ref.c's run on this image (every pixel as tm_ref_read gives
 * it), with its stopping error measured; once per plan. */
static const M06Cache *
m06_compute (const ClfxPlan *plan, const ClfxImage *src, double scale,
             ClfxError *error)
{
  M06State           *ms = plan->state;
  M06Cache           *c = ms->ref;
  long                n = (long) src->width * src->height;
  ClfxMantiuk06RefParams prm = { ms->contrast, ms->saturation, ms->detail,
                                  0, 0.0, false };
  ClfxMantiuk06Info   emulated;
  double             *in = NULL, *t = NULL, *tf = NULL, range;
  TmRef               r;

  if (c && c->src == src)
    return c;
  cache_free (c);
  ms->ref = NULL;
  if (! (c = calloc (1, sizeof *c))
      || ! (c->out = malloc ((size_t) (n ? n : 1) * 4 * sizeof *c->out))
      || ! (in = malloc ((size_t) (n ? n : 1) * 4 * sizeof *in))
      || ! (t = malloc ((size_t) (n ? n : 1) * sizeof *t))
      || ! (tf = malloc ((size_t) (n ? n : 1) * sizeof *tf)))
    goto nomem;
  c->src = src;
  tm_ref_collect (src, plan, scale, &r);
  for (int y = 0; y < src->height; y++)
    for (int x = 0; x < src->width; x++)
      {
        double *v = in + 4 * ((long) y * src->width + x);
        double  Y;
        tm_ref_read (src, plan, &r, x, y, scale, v);
        Y = tm_ref_luminance (v);
        for (int k = 0; k < 3 && Y > 0.0; k++)
          if (v[k] > 0.0)
            c->max_log2c = fmax (c->max_log2c, fabs (log2 (v[k] / Y)));
      }
  if (! clfx_mantiuk06_ref_d (src->width, src->height, in, c->out, &prm,
                              &c->info, t))
    goto nomem;
  /* Again with float's storage emulated (its colour left aside). */
  prm.emulate_float = true;
  if (! clfx_mantiuk06_ref_d (src->width, src->height, in,
                              (float *) in, &prm, &emulated, tf))
    goto nomem;
  c->float_iterations = emulated.iterations;
  for (long i = 0; i < n; i++)
    c->float_error = fmax (c->float_error, fabs (t[i] - tf[i]));
  range = c->info.l_max - c->info.l_min;
  c->max_t_x = ! M06_IS_FLAT (c->info.l_min, c->info.l_max)
                 ? fmax (fabs (c->info.l_min), fabs (c->info.l_max)) / range
                 : 0.0;
  free (in);
  free (t);
  free (tf);
  ms->ref = c;
  return c;
nomem:
  cache_free (c);
  free (in);
  free (t);
  free (tf);
  clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  return NULL;
}

/* The distance in t (the normalised log luminance) validation accepts
 * between the device's solve and the reference's.  Both run GEGL's
 * conjugate gradients from the same start with the same stopping rule:
 * they differ by float's rounding, which an iterative solve carries along
 * (estimated as fattal02's is: the reference runs again with every stored
 * value of the solve rounded to float, and M06_FLOAT_K times that run's
 * distance from the plain one is accepted), and by where they stop: near
 * the threshold the device may stop one iteration sooner or later, a
 * step of at most the reference's last (step_error, CG's steps shrinking
 * as it converges); plus 64 u of max |x| over the range, x's own
 * rounding through the pyramid's sums. */
#define M06_FLOAT_K 4.0

static double
m06_t_bound (const M06Cache *c)
{
  return M06_FLOAT_K * c->float_error + c->info.step_error
         + 64.0 * U * c->max_t_x;
}

/* The result's bound in linear light, relative: out = (c / Y)^s 10^(2.3 t
 * - 2.3): t's bound times 2.3 ln 10; the colour's: Y's 8 u, the division,
 * log2 and exp2 (3 ulp each, log2's carried as s |log2 (c / Y)| ln 2);
 * exp10's 3 ulp, the product; the read's eta in colour and Y. */
static void
m06_bound (const ClfxParams *p, const ClfxPlan *plan, const ClfxImage *src,
           ClfxTolerance *tol)
{
  const M06State *ms = plan->state;
  double          scale = exp2 (CLFX_PARAMS_OF (p, ClfxTonemapParams)->exposure);
  ClfxError       e = { 0 };
  const M06Cache *c = m06_compute (plan, src, scale, &e);
  double          dt, eta = tm_read_eta (plan, src), s = ms->saturation;

  clfx_tol_init (tol);
  if (! c)
    {
      clfx_tol_clause (tol, "mantiuk06's bound: %s", e.message);
      return;
    }
  dt = c->info.levels ? m06_t_bound (c) : 0.0;
  tol->rel_tol += expm1 (2.3 * log (10.0) * dt)
                  + s * (12.0 * U + 3.0 * U * log (2.0) * c->max_log2c)
                  + 8.0 * U + (1.0 + s) * 2.0 * eta;
  clfx_tol_clause (tol, "mantiuk06: t within %.3g (%g x %.3g, the "
                   "reference's run with float's storage emulated, %d "
                   "iterations for its %d; its last step %.3g; x's own "
                   "rounding), times 2.3 ln 10; colour (c / Y)^%g within "
                   "its float rounding",
                   dt, M06_FLOAT_K, c->float_error, c->float_iterations,
                   c->info.iterations, c->info.step_error, s);
}

static bool
m06_cpu (const ClfxParams *p, const ClfxPlan *plan, const ClfxImage *src,
         ClfxImage *dst, ClfxProbes *probes, ClfxError *error)
{
  const M06State *ms = plan->state;
  double          scale = exp2 (CLFX_PARAMS_OF (p, ClfxTonemapParams)->exposure);
  TmRef           r;
  TmRefHists      h;
  ClfxTolerance   lin;
  const M06Cache *c;

  if (! (c = m06_compute (plan, src, scale, error)))
    return false;
  if (probes)
    m06_bound (p, plan, src, &lin);
  tm_ref_run_made (plan, src, dst, scale, c->out, probes ? &lin : NULL, &r,
                   &h);
  if (probes && c->info.levels)
    {
      double l[2] = { c->info.l_min, c->info.l_max };
      double range = l[1] - l[0];
      if (! clfx_probes_add (probes, "x at 0.1 %, 99.9 %", l, 2, true,
                             m06_t_bound (c) * range
                               + 64.0 * U * fmax (fabs (l[0]), fabs (l[1])),
                             0.0,
                             "the solve's distance (mantiuk06's t bound "
                             "times the range) and x's own rounding (64 u "
                             "max |x|)"))
        return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
    }
  if (probes && ! tm_ref_probes (&ms->tm, &r, &h, probes))
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  return true;
}

static void
m06_tolerance (const ClfxParams *p, const ClfxPlan *plan,
               const ClfxDeviceInfo *dev, const ClfxImage *src,
               const ClfxImage *dst, ClfxTolerance *tol)
{
  (void) dev;
  m06_bound (p, plan, src, tol);
  tm_tol_encode (plan, dst, tol);
}

/* ---- the variant ----------------------------------------------------------- */

static const TmProbe m06_probes[] = { { NULL, 0, 0 } };

static bool
m06_plan (const ClfxParams *p, const ClfxImage *src, ClfxPlan *plan,
          ClfxError *error)
{
  const ClfxMantiuk06Params *mp
    = &CLFX_PARAMS_OF (p, ClfxTonemapParams)->mantiuk06;
  M06State                  *ms;

  /* GEGL's contrast 0 takes pfstmo's equalisation with factor 0, a flat
   * target: its result is no tone mapping (docs/TONEMAP.md). */
  if (mp->contrast < 0.001)
    return clfx_error_set (error, CLFX_ERR_INVALID,
                           "mantiuk06: mantiuk-contrast %g: it must be at "
                           "least 0.001", mp->contrast);
  if (! (ms = calloc (1, sizeof *ms)))
    return clfx_error_set (error, CLFX_ERR_NOMEM, "out of memory");
  plan->state = ms;
  plan->free_state = state_free;
  ms->tm.stats = true;
  ms->tm.log_eps = 1e-5;
  ms->tm.params = m06_params;
  ms->tm.probes = m06_probes;
  ms->tm.field_kernel = "m06_log";
  ms->tm.field_kernel_v = "m06_log_v";
  ms->tm.field_name = "mantiuk06 x";
  ms->tm.local = m06_cl;
  ms->contrast = mp->contrast;
  ms->saturation = mp->saturation;
  ms->detail = mp->detail;
  tm_plan_common (p, src, plan, &ms->tm);
  tm_plan_fields (plan, &ms->tm);
  /* x, b, r, p, A p, the best x, C at full size; the pyramid's levels
   * add a third of x, the sums, C and the targets; whole in tiles too. */
  plan->bytes_per_image_pixel = 4 * 8 + 4 * 6 / 3 + 1;
  plan->bytes_fixed += 4 * 4096 + 4 * 2 * TM_SEL_BINS + 4 * M06_S_N;
  return true;
}

static const char *const uses_mantiuk06[] = { "operator", "exposure",
                                              "mantiuk-contrast",
                                              "mantiuk-saturation",
                                              "mantiuk-detail", NULL };

const ClfxVariant clfx_variant_mantiuk06 = {
  "mantiuk06", "mantiuk06",
  CLFX_N_ ("Mantiuk 2006 contrast mapping (gegl:mantiuk06's, conjugate "
           "gradients on a gradient pyramid)"),
  uses_mantiuk06, m06_plan, NULL, tm_local_run_cl, m06_cpu, m06_tolerance, NULL,
  tm_describe, tm_field_stats_cl, CLFX_MANTIUK06_PLACE, NULL, NULL
};
