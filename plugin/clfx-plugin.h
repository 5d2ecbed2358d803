/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clfx-plugin.h: what the plug-in's files share: i18n macros, the
 * binary's and the self-test's names and the display check. */
#ifndef CLFX_PLUGIN_H
#define CLFX_PLUGIN_H

#include <libintl.h>

#include <libgimp/gimp.h>

#define _(s)  gettext (s)
#define N_(s) (s)

#define CLFX_PLUG_IN_BINARY      "clfx"
#define CLFX_PROC_SELFTEST       "plug-in-clfx-selftest"

G_BEGIN_DECLS

/* Whether a GUI can be opened: gimp_ui_init aborts the process when there
 * is no display, so interactive runs must ask first. */
gboolean clfx_plugin_have_display (void);

G_END_DECLS

#endif
