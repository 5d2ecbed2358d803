#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# check-catalogs.sh: every catalog po/LINGUAS names translates every
# message of the current template: none missing, none untranslated, none
# fuzzy, and msgfmt --check accepts it (printf formats, header).  A string
# added to the sources without its translations fails here, never skips.
# The template is made afresh with xgettext as po/meson.build's
# i18n.gettext makes it (the same POTFILES.in and keywords).  TAP on stdout.
#
#   check-catalogs.sh SOURCE_ROOT WORK_DIR XGETTEXT_ARG...
set -u
src=$1 work=$2
shift 2
n=0 failed=0
ok () {
  n=$((n + 1))
  if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else
    echo "not ok $n - $2"; failed=$((failed + 1)); fi
}
# The msgids of a catalog's entries, as TAP diagnostics (60 lines at most).
show () {
  awk '/^msg(ctxt|id) /{ p = 1 } /^msgstr/{ p = 0 } p' | head -n 60 |
    sed 's/^/#   /'
}

for tool in xgettext msgfmt msgmerge msgattrib; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "1..1"; echo "not ok 1 - $tool (gettext) is missing"; exit 1
  fi
done
rm -rf "$work"
mkdir -p "$work"
pot=$work/clfx.pot
(cd "$src" && xgettext --package-name=clfx --files-from=po/POTFILES.in \
   -o "$pot" "$@")
ok $? "the template is made from po/POTFILES.in ($(grep -c '^msgid ' "$pot" 2>/dev/null) msgids with the header)"

langs=$(sed 's/#.*//' "$src/po/LINGUAS" | tr -s ' \t' '\n\n' | grep .)
[ -n "$langs" ]
ok $? "po/LINGUAS names catalogs: $(echo $langs)"

for lang in $langs; do
  po=$src/po/$lang.po
  if [ ! -f "$po" ]; then ok 1 "$lang: po/$lang.po exists"; continue; fi
  err=$(msgfmt --check -o /dev/null "$po" 2>&1)
  ok $? "$lang: msgfmt --check accepts po/$lang.po"
  [ -z "$err" ] || echo "$err" | sed 's/^/#   /'
  # The catalog as the template's update-po would leave it, without
  # guessing: a message the catalog lacks comes out untranslated.
  merged=$work/$lang.po
  msgmerge --quiet --no-fuzzy-matching --no-wrap -o "$merged" "$po" "$pot"
  ok $? "$lang: msgmerge with the template"
  stats=$(msgfmt --statistics -o /dev/null "$merged" 2>&1)
  missing=$(msgattrib --untranslated --no-obsolete --no-wrap "$merged")
  fuzzy=$(msgattrib --only-fuzzy --no-obsolete --no-wrap "$merged" |
          awk 'BEGIN { RS = "" } ! /^(#[^\n]*\n)*msgid ""\nmsgstr/')
  [ -z "$missing" ]
  ok $? "$lang: every message of the template is translated ($stats)"
  [ -z "$missing" ] || echo "$missing" | awk 'BEGIN { RS = "" } NR > 1' | show
  [ -z "$fuzzy" ]
  ok $? "$lang: no fuzzy translation"
  [ -z "$fuzzy" ] || echo "$fuzzy" | show
done

echo "1..$n"
[ $failed -eq 0 ]
