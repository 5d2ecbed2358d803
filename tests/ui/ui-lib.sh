# ui-lib.sh: what the GUI tests share (sourced, not run): a private
# profile and display, Xvfb with a window manager, and finding windows.
#
#   ui_start TAG TOOL...   skip (77), or fail under CLFX_REQUIRE_DEVICE=1,
#                          when a TOOL is missing; make $WORK; export HOME,
#                          GIMP3_DIRECTORY and DISPLAY (a free :90..:99);
#                          start Xvfb and openbox; stop them (and
#                          $GIMP_PID, $BUS_PID) on exit.
#   find_window REGEX TRIES   a window's id, or nothing

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
  # A free display in :90..:99 (parallel runs and other sessions may hold
  # one).
  DISPLAY_NUM=
  for n in 90 91 92 93 94 95 96 97 98 99; do
    if [ ! -e "/tmp/.X11-unix/X$n" ] && [ ! -e "/tmp/.X$n-lock" ]; then
      DISPLAY_NUM=$n
      break
    fi
  done
  [ -n "$DISPLAY_NUM" ] || skip_or_fail "no free X display in :90..:99"
  export DISPLAY=":$DISPLAY_NUM"
  export HOME="$WORK/home"
  export GIMP3_DIRECTORY="$WORK/profile"
  # Cold kernel caches, clfx's and PoCL's, under the fresh HOME (not the
  # test run's shared ones).
  unset XDG_CACHE_HOME POCL_CACHE_DIR CLFX_CACHE_DIR
  mkdir -p "$HOME" "$GIMP3_DIRECTORY"
  echo '(show-welcome-dialog no)' > "$GIMP3_DIRECTORY/gimprc"

  Xvfb "$DISPLAY" -screen 0 1400x1000x24 -nolisten tcp >"$WORK/xvfb.log" 2>&1 &
  XVFB_PID=$!
  for i in 1 2 3 4 5 6 7 8 9 10; do
    [ -e "/tmp/.X11-unix/X$DISPLAY_NUM" ] && break
    sleep 0.5
  done
  openbox >"$WORK/openbox.log" 2>&1 &
  OB_PID=$!
  sleep 1
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
