#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# install-plugin.sh: put a built clfx plug-in into a GIMP plug-ins folder
# (a private profile's, for tests and the demo), with its catalogs; or,
# with --gegl, the GEGL module into a GEGL plug-ins folder.
#
#   tools/install-plugin.sh BUILD/plugin/clfx PLUGINS_DIR
#   tools/install-plugin.sh --gegl BUILD/gegl-module/clfx-gegl.so [DIR]
#
# GIMP 3 only registers a plug-in that sits in a folder of its own name,
# and looks for its translations in that folder's locale/ (set_i18n).
# The catalogs are taken from the build's po/ folder beside plugin/.
#
# GEGL (in GIMP, and the gegl command) loads every module in the user's
# folder, $XDG_DATA_HOME/gegl-0.4/plug-ins (~/.local/share/... by
# default), the DIR this uses when none is given.  Remove the file to
# uninstall it.  Do not point GEGL_PATH at it instead: that hides GEGL's
# own operations from GIMP.  The module's translations (the plug-in's
# catalogs, from a build with the plug-in) go beside it, in clfx-locale/:
# remove that folder too to uninstall.
set -eu
# The catalogs of a build's po/ folder ($1) into $2/LANG/LC_MESSAGES/.
catalogs () {
  for mo in "$1"/*/LC_MESSAGES/clfx.mo; do
    [ -f "$mo" ] || continue
    lang=$(basename "$(dirname "$(dirname "$mo")")")
    mkdir -p "$2/$lang/LC_MESSAGES"
    cp "$mo" "$2/$lang/LC_MESSAGES/clfx.mo"
  done
}
if [ "${1:-}" = --gegl ]; then
  module=$2
  dir=${3:-${XDG_DATA_HOME:-$HOME/.local/share}/gegl-0.4/plug-ins}
  mkdir -p "$dir"
  # Copied to a new name and moved into place: a GIMP already running
  # keeps the file it mapped.
  cp "$module" "$dir/.clfx-gegl.so.new"
  mv -f "$dir/.clfx-gegl.so.new" "$dir/clfx-gegl.so"
  catalogs "$(dirname "$module")/../po" "$dir/clfx-locale"
  exit 0
fi
plugin=$1 dir=$2/clfx
mkdir -p "$dir"
cp "$plugin" "$dir/clfx"
catalogs "$(dirname "$plugin")/../po" "$dir/locale"
