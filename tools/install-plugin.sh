#!/bin/sh
# install-plugin.sh: put a built clfx plug-in into a GIMP plug-ins folder
# (a private profile's, for tests and the demo), with its catalogs.
#
#   tools/install-plugin.sh BUILD/plugin/clfx PLUGINS_DIR
#
# GIMP 3 only registers a plug-in that sits in a folder of its own name,
# and looks for its translations in that folder's locale/ (set_i18n).
# The catalogs are taken from the build's po/ folder beside plugin/.
set -eu
plugin=$1 dir=$2/clfx
po=$(dirname "$plugin")/../po
mkdir -p "$dir"
cp "$plugin" "$dir/clfx"
for mo in "$po"/*/LC_MESSAGES/clfx.mo; do
  [ -f "$mo" ] || continue
  lang=$(basename "$(dirname "$(dirname "$mo")")")
  mkdir -p "$dir/locale/$lang/LC_MESSAGES"
  cp "$mo" "$dir/locale/$lang/LC_MESSAGES/clfx.mo"
done
