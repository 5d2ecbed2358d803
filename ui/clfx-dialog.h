/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-dialog.h: the dialog of every family procedure. */
#ifndef CLFX_DIALOG_H
#define CLFX_DIALOG_H

#include <libgimp/gimp.h>

#include "clfx-args.h"

G_BEGIN_DECLS

/* Shows the procedure's dialog (Settings: its parameter groups, the
 * device and a live preview; Diagnostics: build logs, validation,
 * execution and timings): a family's, or a variant's with only that
 * variant's rows.  Needs a display.  Returns TRUE when OK was pressed;
 * the config then holds the edited values. */
gboolean clfx_dialog_run (GimpProcedure       *procedure,
                          const ClfxProcSpec  *proc,
                          GimpProcedureConfig *config,
                          GimpImage           *image,
                          GimpDrawable       **drawables);

G_END_DECLS

#endif
