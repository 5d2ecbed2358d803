/* clfx-dialog.h: the settings dialog of plug-in-clfx-resize. */
#ifndef CLFX_DIALOG_H
#define CLFX_DIALOG_H

#include <libgimp/gimp.h>

G_BEGIN_DECLS

/* Shows the dialog (Settings with the sampler, device and a live
 * preview; Diagnostics with build logs, validation and timings).  Needs a
 * display.  Returns TRUE when OK was pressed; the config then holds the
 * edited values. */
gboolean clfx_dialog_run (GimpProcedure       *procedure,
                          GimpProcedureConfig *config,
                          GimpImage           *image,
                          GimpDrawable       **drawables);

G_END_DECLS

#endif
