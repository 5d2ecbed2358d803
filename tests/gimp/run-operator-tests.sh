#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# run-operator-tests.sh: each variant's own procedure (plug-in-clfx-
# gaussian-blur, ...) in one real gimp-console-3.0, through Python-Fu,
# with a throwaway profile.  TAP on stdout.
#
#   run-operator-tests.sh PLUGIN CLFX_BENCH OPERATOR_TABLE SRC_DIR WORK_DIR
#
# operator-table prints what the family table says the procedures are;
# operators-pdb.py, inside GIMP, lists the PDB's plug-in-clfx-*
# procedures and runs each operator's and its family's procedure on a
# small image; check-operators.py compares the three with GEGL's own
# operations.  The runs use the CPU reference (device "reference",
# $CLFX_TEST_DEVICE overrides it): they check that both procedures hand
# the engine the same values, which the device suites check the engine
# for.  Without GIMP (or $CLFX_GIMP_CONSOLE) the test is skipped, or
# fails when CLFX_REQUIRE_DEVICE=1.
set -u

plugin=$1 bench=$2 table_tool=$3 src=$4 work=$5
gimp=${CLFX_GIMP_CONSOLE:-gimp-console-3.0}
device=${CLFX_TEST_DEVICE:-reference}

. "$(dirname "$0")/gimp-lib.sh"
need_gimp "$gimp"

rm -rf "$work"
mkdir -p "$work/profile/plug-ins" "$work/home" || exit 1
"$(dirname "$0")/../../tools/install-plugin.sh" "$plugin" \
  "$work/profile/plug-ins" >/dev/null || exit 1
export HOME="$work/home" GIMP3_DIRECTORY="$work/profile"
export XDG_CACHE_HOME="$work/home/.cache" XDG_CONFIG_HOME="$work/home/.config"
# The table's labels are the untranslated ones.
export LANG=C LC_ALL=C LANGUAGE=
unset CLFX_CACHE_DIR

"$bench" --device reference --synthetic 48x36:u8 --channels 4 \
  --output "$work/in.png" copy >/dev/null || exit 1
"$table_tool" > "$work/table.json" || exit 1

start=$(date +%s.%N)
(cd "$work" && timeout 600 "$gimp" -i -n --quit \
   --batch-interpreter python-fu-eval \
   -b "clfx_table = '$work/table.json'; clfx_input = '$work/in.png'; clfx_out = '$work/pdb.json'; clfx_device = '$device'; exec(open('$src/operators-pdb.py').read())" \
   >"$work/gimp.log" 2>&1)
status=$?
seconds=$(echo "$start $(date +%s.%N)" | awk '{ printf "%.1f", $2 - $1 }')
[ $status -eq 0 ] || sed 's/^/# /' "$work/gimp.log" | tail -30

python3 "$src/check-operators.py" "$work/table.json" "$work/pdb.json" \
  "$status" "$seconds"
