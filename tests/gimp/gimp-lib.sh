# SPDX-License-Identifier: GPL-3.0-or-later
# gimp-lib.sh: what the GIMP batch tests share (sourced, not run).
#
#   need_gimp GIMP   returns where GIMP runs; without it the test is
#                    skipped, or fails under CLFX_REQUIRE_DEVICE=1 (CI),
#                    and the script exits
need_gimp ()
{
  command -v "$1" >/dev/null 2>&1 && return 0
  if [ "${CLFX_REQUIRE_DEVICE:-0}" = 1 ]; then
    echo "1..1"; echo "not ok 1 - $1 not found (CLFX_REQUIRE_DEVICE=1)"
    exit 1
  fi
  echo "1..0 # SKIP $1 not found"
  exit 0
}
