/* clfx-ops.h: the operation table.  One row per op: its parameters (which
 * also become the PDB arguments, the dialog widgets and clfx-bench's
 * options), its OpenCL launch, its CPU reference and its tolerance model. */
#ifndef CLFX_OPS_H
#define CLFX_OPS_H

#include <stdbool.h>
#include <stddef.h>

#include "../clfx-context.h"
#include "../clfx-host-image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Marks a user-facing string of the op table for translation without
 * making the engine depend on gettext: the plug-in translates it at run
 * time with the catalog that xgettext --keyword=CLFX_N_ fills. */
#define CLFX_N_(s) (s)

typedef enum
{
  CLFX_PARAM_INT,
  CLFX_PARAM_DOUBLE,
  CLFX_PARAM_BOOL,
  CLFX_PARAM_CHOICE,
  CLFX_PARAM_STRING
} ClfxParamType;

typedef struct
{
  const char *nick;  /* stable, lowercase: the PDB and CLI value */
  const char *label; /* for the dialog (marked N_ by the plug-in) */
} ClfxChoice;

typedef struct
{
  const char       *name;  /* PDB argument name and --option, e.g. "zoom-x" */
  const char       *label; /* dialog label, with a mnemonic */
  const char       *blurb; /* one line of help */
  ClfxParamType     type;
  double            min, max, def; /* numbers; def = choice index / 0|1 */
  const ClfxChoice *choices;       /* NULL-terminated, for CHOICE */
  const char       *def_string;    /* for STRING */
} ClfxParamSpec;

/* One parameter's value; CHOICE holds the choice index in i. */
typedef struct
{
  int         i;
  double      d;
  bool        b;
  const char *s;
} ClfxValue;

#define CLFX_MAX_PARAMS 16

typedef struct
{
  const char *op; /* the op's name, for messages */
  ClfxValue   v[CLFX_MAX_PARAMS];
} ClfxParams;

/* What validation should accept, and why (the report states it). */
typedef struct
{
  double abs_tol;
  double rel_tol;
  char   basis[384];
} ClfxTolerance;

typedef struct ClfxOpInfo ClfxOpInfo;
struct ClfxOpInfo
{
  const char          *name;
  const char          *blurb;
  const ClfxParamSpec *params;
  int                  n_params;
  /* Checks the parameters against the source and sizes the result. */
  bool (*prepare) (const ClfxParams *p, const ClfxImage *src, int *dst_w,
                   int *dst_h, ClfxError *error);
  /* The OpenCL path: src in, dst (allocated by the caller) out. */
  bool (*run_cl) (ClfxContext *ctx, const ClfxImage *src, ClfxImage *dst,
                  const ClfxParams *p, ClfxError *error);
  /* The CPU reference, same math. */
  bool (*run_cpu) (const ClfxImage *src, ClfxImage *dst, const ClfxParams *p,
                   ClfxError *error);
  /* Tolerance for comparing run_cl with run_cpu on this device. */
  void (*tolerance) (const ClfxDeviceInfo *dev, const ClfxImage *src,
                     const ClfxImage *dst, const ClfxParams *p,
                     ClfxTolerance *tol);
  /* Optional (NULL when the reference is exact): per channel, the lowest
   * and highest results the spec allows, for the places where the CPU
   * reference `ref` (run_cpu's result) cannot know which one the device
   * picks; elsewhere both equal ref.  lo and hi are allocated like ref.
   * See clfx_validate_bounded. */
  bool (*run_cpu_bounds) (const ClfxImage *src, const ClfxImage *ref,
                          ClfxImage *lo, ClfxImage *hi, const ClfxParams *p,
                          ClfxError *error);
  /* Short variant name for the report ("lanczos3"). */
  const char *(*variant) (const ClfxParams *p);
};

const ClfxOpInfo *clfx_op_find (const char *name);
/* NULL-terminated list of all ops. */
const ClfxOpInfo *const *clfx_ops (void);

/* Index of parameter `name` in op, or -1. */
int  clfx_op_param_index (const ClfxOpInfo *op, const char *name);
/* Fills every value with its default. */
void clfx_params_defaults (const ClfxOpInfo *op, ClfxParams *p);
/* Sets a parameter from text (a CLI value or a PDB string): numbers are
 * parsed locale-independently, choices by nick, booleans as
 * true/false/1/0/yes/no.  Out-of-range or unknown values are errors that
 * name the parameter and what it accepts. */
bool clfx_params_set (const ClfxOpInfo *op, ClfxParams *p, const char *name,
                      const char *text, ClfxError *error);
/* Checks every value against its spec (ranges, choice indices). */
bool clfx_params_check (const ClfxOpInfo *op, const ClfxParams *p,
                        ClfxError *error);

/* Locale-independent strtod (JSON and the CLI must not depend on LC_NUMERIC). */
double clfx_strtod (const char *s, char **end);

/* The ops. */
extern const ClfxOpInfo clfx_op_resize;
extern const ClfxOpInfo clfx_op_copy;

#ifdef __cplusplus
}
#endif

#endif
