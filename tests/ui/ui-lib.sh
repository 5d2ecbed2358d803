# SPDX-License-Identifier: GPL-3.0-or-later
# ui-lib.sh: what the GUI tests share (sourced, not run): a private
# profile and display, Xvfb with a window manager, and finding windows.
#
#   ui_start TAG TOOL...   skip (77), or fail under CLFX_REQUIRE_DEVICE=1,
#                          when a TOOL is missing; make $WORK; export HOME,
#                          GIMP3_DIRECTORY and DISPLAY (a display Xvfb
#                          finds free);
#                          start Xvfb and openbox; stop them (and
#                          $GIMP_PID, $BUS_PID) on exit.
#   ui_dialog_env           the plug-in's debug lines in GIMP's output, no
#                           accessibility bridge, each preview shown
#                           written to $PREVIEWS (CLFX_DEV=preview-dump)
#   find_window REGEX TRIES   a window's id, or nothing
#   wait_for_file FILE TRIES  until FILE is written (status 1: not in time)

skip_or_fail ()
{
  if [ "${CLFX_REQUIRE_DEVICE:-0}" = 1 ]; then
    echo "1..1"
    echo "not ok 1 - $1 (CLFX_REQUIRE_DEVICE=1)"
    exit 1
  fi
  echo "1..0 # SKIP $1"
  exit 77
}

XVFB_PID= OB_PID= GIMP_PID= BUS_PID=

# Only our own processes, by id.
ui_cleanup ()
{
  for pid in $GIMP_PID $OB_PID $XVFB_PID $BUS_PID; do
    kill "$pid" 2>/dev/null
  done
  sleep 0.5
  for pid in $GIMP_PID $OB_PID $XVFB_PID $BUS_PID; do
    kill -9 "$pid" 2>/dev/null
  done
  rm -rf "$WORK"
}

ui_start ()
{
  tag=$1
  shift
  for tool in Xvfb gimp-3.0 openbox xdotool import "$@"; do
    command -v "$tool" >/dev/null 2>&1 || skip_or_fail "$tool is missing"
  done
  WORK=$(mktemp -d "/tmp/clfx-$tag.XXXXXX")
  trap ui_cleanup EXIT INT TERM
  export HOME="$WORK/home"
  export GIMP3_DIRECTORY="$WORK/profile"
  # Cold kernel caches, clfx's and PoCL's, under the fresh HOME (not the
  # test run's shared ones).
  unset XDG_CACHE_HOME POCL_CACHE_DIR CLFX_CACHE_DIR
  mkdir -p "$HOME" "$GIMP3_DIRECTORY"
  echo '(show-welcome-dialog no)' > "$GIMP3_DIRECTORY/gimprc"

  # Xvfb takes the first display it can listen on and says which: a
  # display picked by looking at /tmp would clash with runs whose /tmp is
  # another (ci/env gives each its own) while X's abstract sockets are
  # shared.
  Xvfb -displayfd 3 -screen 0 1400x1000x24 -nolisten tcp \
    3>"$WORK/display" >"$WORK/xvfb.log" 2>&1 &
  XVFB_PID=$!
  for i in $(seq 20); do
    [ -s "$WORK/display" ] && break
    sleep 0.5
  done
  DISPLAY_NUM=$(head -n 1 "$WORK/display" 2>/dev/null)
  [ -n "$DISPLAY_NUM" ] || skip_or_fail "Xvfb did not start (xvfb.log: $(tail -n 3 "$WORK/xvfb.log" 2>/dev/null))"
  export DISPLAY=":$DISPLAY_NUM"
  openbox >"$WORK/openbox.log" 2>&1 &
  OB_PID=$!
  sleep 1
}

# wait_for_file FILE TRIES: until FILE is there and not empty, half a
# second a try (the plug-in writes its report or preview when done).
wait_for_file ()
{
  for i in $(seq "$2"); do
    [ -s "$1" ] && return 0
    sleep 0.5
  done
  return 1
}

# Poll rather than `search --sync`: xdotool can exit on an X error when
# one of GIMP's start-up windows vanishes while it is being searched.
find_window ()
{
  for i in $(seq "$2"); do
    w=$(xdotool search --name "$1" 2>/dev/null | head -1)
    [ -n "$w" ] && { echo "$w"; return; }
    sleep 0.5
  done
}

ui_dialog_env ()
{
  export G_MESSAGES_DEBUG=clfx
  export NO_AT_BRIDGE=1
  PREVIEWS="$WORK/previews"
  export CLFX_DEV="preview-dump=$PREVIEWS"
  mkdir -p "$PREVIEWS"
  # The checks' reader of those (previewlib.py, beside this file).
  export PYTHONPATH="$(dirname "$0")${PYTHONPATH:+:$PYTHONPATH}"
}
