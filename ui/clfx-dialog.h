/* clfx-dialog.h: the dialog of every family procedure. */
#ifndef CLFX_DIALOG_H
#define CLFX_DIALOG_H

#include <libgimp/gimp.h>

#include "clfx-family.h"

G_BEGIN_DECLS

/* Shows the family's dialog (Settings: its parameter groups, the device
 * and a live preview; Diagnostics: build logs, validation, execution and
 * timings).  Needs a display.  Returns TRUE when OK was pressed; the
 * config then holds the edited values. */
gboolean clfx_dialog_run (GimpProcedure       *procedure,
                          const ClfxFamily    *family,
                          GimpProcedureConfig *config,
                          GimpImage           *image,
                          GimpDrawable       **drawables);

G_END_DECLS

#endif
