/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-family.h: families, variants and their typed parameters.
 *
 * A family is what users see as one operation: one PDB procedure, one
 * clfx-bench subcommand, one dialog, one self-test sweep (resize, filter,
 * tonemap).  A variant is one algorithm of a family (gaussian, reinhard05;
 * resize has one): one engine file and one .cl program.  The family table
 * is the single source of every user-facing list: PDB arguments, CLI
 * options, dialog widgets and their groups, report parameters, the
 * Script-Fu call text, the self-test sweep and the parity matrix.
 *
 * Parameters are rows typed by the offset of their field in the family's
 * parameter struct, so a variant reads p->zoom_x, never an index, and a
 * misspelled name is an error, not an out-of-bounds read. */
#ifndef CLFX_FAMILY_H
#define CLFX_FAMILY_H

#include <stdbool.h>
#include <stddef.h>

#include "clfx-error.h"
#include "clfx-host-image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Marks a user-facing string of the tables for translation without making
 * the engine depend on gettext: the plug-in translates it at run time with
 * the catalog that xgettext --keyword=CLFX_N_ fills. */
#define CLFX_N_(s) (s)

typedef enum
{
  CLFX_PARAM_INT,
  CLFX_PARAM_DOUBLE,
  CLFX_PARAM_BOOL,
  CLFX_PARAM_CHOICE,
  CLFX_PARAM_STRING
} ClfxParamType;

/* What a number measures, for the dialog and previews. */
typedef enum
{
  CLFX_UNIT_NONE,
  CLFX_UNIT_PIXELS,   /* a size of the result in pixels (resize's width) */
  CLFX_UNIT_DISTANCE  /* a distance in source pixels (a radius, a sigma):
                       * a preview at another scale scales it */
} ClfxUnit;

typedef struct
{
  const char *nick;  /* stable, lowercase: the PDB and CLI value */
  const char *label; /* for the dialog (translated by the plug-in) */
} ClfxChoice;

typedef struct
{
  const char *id;    /* "output", "sampler": the dialog's frame */
  const char *title; /* its title */
} ClfxParamGroup;

typedef struct
{
  const char       *name;   /* PDB argument and --option, e.g. "zoom-x" */
  const char       *label;  /* dialog label, with a mnemonic */
  const char       *blurb;  /* one line of help */
  ClfxParamType     type;
  size_t            offset; /* of the field in the family's struct */
  size_t            size;   /* of the field (STRING: its capacity) */
  double            min, max;       /* hard range (INT, DOUBLE) */
  double            def;            /* default; CHOICE: index; BOOL: 0/1 */
  double            ui_min, ui_max; /* the dialog's usual range */
  int               digits;         /* decimals the dialog shows */
  ClfxUnit          unit;
  int               group;          /* index into the family's groups */
  const ClfxChoice *choices;        /* NULL-terminated, CHOICE only */
  const char       *def_string;     /* STRING only */
  bool              plugin_only;    /* an argument of the plug-in's apply
                                     * step (resize's target), not of the
                                     * engine: no clfx-bench option */
  /* GEGL's name for the same property where it differs from name
   * (gaussian's method is gegl:gaussian-blur's "filter"): the argument's
   * name in the variant's own procedure, whose arguments are GEGL's.
   * The family procedure, the CLI, the module and the report keep name,
   * which scripts already use.  NULL: name. */
  const char       *gegl_name;
} ClfxParamSpec;

/* Rows, each checked at compile time to name a field of the right type.
 * The _AS forms give the row GEGL's name for the property (gegl_name). */
#define CLFX_FIELD_(st, field, ctype)                                        \
  offsetof (st, field),                                                      \
    sizeof (char[_Generic (((st *) 0)->field, ctype: 1, default: -1)])      \
      * sizeof (((st *) 0)->field)
#define CLFX_PARAM_INT_ROW_AS(gegl, st, field, name, label, blurb, min, max, \
                              def, ui_min, ui_max, unit, group)              \
  { name, label, blurb, CLFX_PARAM_INT, CLFX_FIELD_ (st, field, int), min,  \
    max, def, ui_min, ui_max, 0, unit, group, NULL, NULL, false, gegl }
#define CLFX_PARAM_DOUBLE_ROW_AS(gegl, st, field, name, label, blurb, min,   \
                                 max, def, ui_min, ui_max, digits, unit,     \
                                 group)                                      \
  { name, label, blurb, CLFX_PARAM_DOUBLE,                                   \
    CLFX_FIELD_ (st, field, double), min, max, def, ui_min, ui_max, digits,  \
    unit, group, NULL, NULL, false, gegl }
#define CLFX_PARAM_BOOL_ROW_AS(gegl, st, field, name, label, blurb, def,     \
                               group)                                        \
  { name, label, blurb, CLFX_PARAM_BOOL, CLFX_FIELD_ (st, field, bool), 0,  \
    1, def, 0, 1, 0, CLFX_UNIT_NONE, group, NULL, NULL, false, gegl }
#define CLFX_PARAM_CHOICE_ROW_AS(gegl, st, field, name, label, blurb,        \
                                 choices, def, group)                        \
  { name, label, blurb, CLFX_PARAM_CHOICE, CLFX_FIELD_ (st, field, int), 0, \
    0, def, 0, 0, 0, CLFX_UNIT_NONE, group, choices, NULL, false, gegl }
#define CLFX_PARAM_STRING_ROW_AS(gegl, st, field, name, label, blurb, def,   \
                                 group)                                      \
  { name, label, blurb, CLFX_PARAM_STRING, offsetof (st, field),             \
    sizeof (char[_Generic (((st *) 0)->field, char *: 1, default: -1)])      \
      * sizeof (((st *) 0)->field),                                          \
    0, 0, 0, 0, 0, 0, CLFX_UNIT_NONE, group, NULL, def, false, gegl }
#define CLFX_PARAM_INT_ROW(...) CLFX_PARAM_INT_ROW_AS (NULL, __VA_ARGS__)
#define CLFX_PARAM_DOUBLE_ROW(...) CLFX_PARAM_DOUBLE_ROW_AS (NULL, __VA_ARGS__)
#define CLFX_PARAM_BOOL_ROW(...) CLFX_PARAM_BOOL_ROW_AS (NULL, __VA_ARGS__)
#define CLFX_PARAM_CHOICE_ROW(...) CLFX_PARAM_CHOICE_ROW_AS (NULL, __VA_ARGS__)
#define CLFX_PARAM_STRING_ROW(...) CLFX_PARAM_STRING_ROW_AS (NULL, __VA_ARGS__)

/* Where a variant of a family with several (filter, tonemap) stands as an
 * operator of its own: the plug-in's procedure for it and the GEGL
 * module's clfx:NAME sit beside GIMP's and GEGL's own operation of the
 * kind.  Each variant's header says it (CLFX_NAME_PLACE). */
typedef struct
{
  const char *gegl_name;  /* GEGL's operation of the same definition,
                           * without "gegl:" ("gaussian-blur"); NULL where
                           * GEGL has none */
  const char *categories; /* GEGL's categories, beside GEGL's own */
  const char *menu_path;  /* the GIMP menu where GIMP puts its own filter
                           * of the kind */
  const char *title;      /* GIMP's own name of the operator (its menu
                           * entry's, else GEGL's title), ours where
                           * neither has it: "Gaussian Blur" (CLFX_N_) */
} ClfxOperatorPlace;

/* Room for any family's parameter struct (checked where each is defined). */
#define CLFX_PARAMS_BYTES 2048

typedef struct ClfxFamily  ClfxFamily;
typedef struct ClfxVariant ClfxVariant;

/* A family's parameter values: its struct, in aligned storage.  Plain
 * data: copy it by assignment. */
typedef struct
{
  const ClfxFamily *family;
  _Alignas (16) unsigned char data[CLFX_PARAMS_BYTES];
} ClfxParams;

/* The typed view of p's values; the size check catches a struct of
 * another family. */
#define CLFX_PARAMS_OF(p, type)                                              \
  ((const type *) clfx_params_data ((p), sizeof (type)))
#define CLFX_PARAMS_OF_MUT(p, type)                                          \
  ((type *) clfx_params_data ((p), sizeof (type)))
void *clfx_params_data (const ClfxParams *p, size_t size);

/* How the plug-in applies a family's result. */
typedef enum
{
  CLFX_APPLY_GEOMETRY, /* the result has its own size (resize): the layer
                        * or the canvas changes, all or nothing */
  CLFX_APPLY_SHADOW    /* same size (filter, tonemap): through the shadow
                        * buffer over the selection plus the halo, merged */
} ClfxApplyKind;

struct ClfxFamily
{
  const char            *name;       /* "resize": the CLI subcommand and
                                      * the report's "operation" */
  const char            *procedure;  /* "plug-in-clfx-resize"; NULL for an
                                      * internal family (copy) */
  const char            *menu_label; /* "_Resize (OpenCL)..." */
  const char            *title;      /* the dialog's title */
  const char            *blurb;      /* one line */
  /* The procedure's help text: help, then each variant's part
   * (help_variants, in choice order) with help_separator between two,
   * then help_end; each a translatable piece of its own, so that a
   * variant's part lives in its own header (clfx_family_help joins
   * them). */
  const char            *help;
  const char *const     *menu_paths; /* NULL-terminated */
  ClfxApplyKind          apply;
  const ClfxParamSpec   *params;
  int                    n_params;
  const ClfxParamGroup  *groups;
  int                    n_groups;
  size_t                 params_size;
  /* The CHOICE parameter naming the variant (its choices and `variants`
   * are in the same order), or -1 when the family has one variant. */
  int                    variant_param;
  const ClfxVariant *const *variants;
  int                    n_variants;
  /* The self-test sweep: the product of these parameters' values (every
   * choice of a CHOICE, both values of a BOOL; NULL-terminated), each case
   * kept only where the parameters are valid (clfx_params_check and the
   * variant's plan; the spec's forbidden sampler pairs drop out). */
  const char *const     *sweep;
  /* Optional: sets the other parameters of sweep case k (resize alternates
   * enlarging with zoom below 1 and shrinking by more than 2x). */
  void (*sweep_case) (ClfxParams *p, int k);
  /* The rest of the help text (see help); NULL: none. */
  const char *const     *help_variants;
  const char            *help_separator;
  const char            *help_end;
  /* The help text of a variant's own procedure (clfx_operator_help):
   * help_operator, that variant's part, help_operator_end; NULL: help,
   * help_end. */
  const char            *help_operator;
  const char            *help_operator_end;
};

/* The whole help text of f, each piece passed through translate (NULL:
 * as it is); free() it. */
char *clfx_family_help (const ClfxFamily *f,
                        const char *(*translate) (const char *));

/* Sweep case k of family f into p (defaults, then the crossed values,
 * then sweep_case); false when k is past the last case.  Cases whose
 * values are refused are still counted: callers check them (validity
 * depends on the source too). */
bool clfx_family_sweep_case (const ClfxFamily *f, int k, ClfxParams *p);

/* NULL-terminated: every family, internal ones last. */
const ClfxFamily *const *clfx_families (void);
const ClfxFamily        *clfx_family_find (const char *name);
/* The row of parameter `name`, or NULL. */
const ClfxParamSpec     *clfx_family_param (const ClfxFamily *f,
                                            const char       *name);
int                      clfx_choice_count (const ClfxParamSpec *s);

/* Parameters. */
void clfx_params_defaults (const ClfxFamily *f, ClfxParams *p);
/* Sets a parameter from text (a CLI value, a PDB string): numbers are
 * parsed locale-independently, choices by nick, booleans as
 * true/false/1/0/yes/no.  Unknown names, out-of-range or unknown values
 * are errors naming the parameter and what it accepts; p changes only on
 * success. */
bool clfx_params_set (ClfxParams *p, const char *name, const char *text,
                      ClfxError *error);
/* Checks every value against its row (ranges, choice indices, strings
 * terminated). */
bool clfx_params_check (const ClfxParams *p, ClfxError *error);

/* Typed access through a row (the PDB, the dialog, the report). */
int         clfx_param_get_int    (const ClfxParams *p, const ClfxParamSpec *s);
double      clfx_param_get_double (const ClfxParams *p, const ClfxParamSpec *s);
bool        clfx_param_get_bool   (const ClfxParams *p, const ClfxParamSpec *s);
const char *clfx_param_get_string (const ClfxParams *p, const ClfxParamSpec *s);
/* CHOICE: the value's nick. */
const char *clfx_param_get_nick   (const ClfxParams *p, const ClfxParamSpec *s);
void        clfx_param_set_int    (ClfxParams *p, const ClfxParamSpec *s, int v);
void        clfx_param_set_double (ClfxParams *p, const ClfxParamSpec *s,
                                   double v);
void        clfx_param_set_bool   (ClfxParams *p, const ClfxParamSpec *s, bool v);
/* STRING: copied, cut to the row's capacity (a too-long value is refused
 * by clfx_params_set, which callers with text from users go through). */
void        clfx_param_set_string (ClfxParams *p, const ClfxParamSpec *s,
                                   const char *v);
/* The value as text, as clfx_params_set reads it back (the report, the
 * Script-Fu call); returns buf. */
const char *clfx_param_format     (const ClfxParams *p, const ClfxParamSpec *s,
                                   char *buf, size_t n);

/* The variant the values select. */
const ClfxVariant *clfx_params_variant (const ClfxParams *p);
/* Whether variant v reads parameter s (others are insensitive in the
 * dialog and left out of its self-test sweep). */
bool clfx_variant_uses (const ClfxVariant *v, const ClfxParamSpec *s);

/* A family whose variants are operators of their own, each with its own
 * procedure besides the family's (a public family with a variant
 * choice: filter, tonemap). */
bool clfx_family_has_operators (const ClfxFamily *f);
/* The procedure of variant k of f as an operator of its own into buf:
 * "plug-in-clfx-" and GEGL's name of the operation where GEGL has it
 * (plug-in-clfx-gaussian-blur), else the variant's name
 * (plug-in-clfx-drago03).  False where f has no such procedures or buf
 * is too small. */
bool clfx_operator_procedure (const ClfxFamily *f, int k, char *buf,
                              size_t n);
/* Whether row i of f is an argument of variant k's procedure: the rows
 * the variant reads, less the variant's choice, and the plug-in's rows
 * (in-process, ...). */
bool clfx_operator_has_row (const ClfxFamily *f, int k, int i);
/* The row's argument name in a variant's procedure: GEGL's where the
 * row has one (gegl_name), else its own. */
const char *clfx_operator_arg_name (const ClfxParamSpec *s);
/* The help text of variant k's procedure: the family's, with only that
 * variant's part; free() it. */
char *clfx_operator_help (const ClfxFamily *f, int k,
                          const char *(*translate) (const char *));

/* Locale-independent strtod (JSON and the CLI must not depend on
 * LC_NUMERIC). */
double clfx_strtod (const char *s, char **end);

/* The families. */
extern const ClfxFamily clfx_family_resize;
extern const ClfxFamily clfx_family_copy;
extern const ClfxFamily clfx_family_filter;
extern const ClfxFamily clfx_family_tonemap;

#ifdef __cplusplus
}
#endif

#endif
