#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# installed.sh DEB_DIR: the packages of /src/DEB_DIR installed with
# apt-get into the root this runs in (ci/package gives it a throwaway
# copy of ci/env's root) and checked there as a user meets them, then
# purged: GIMP finds the plug-in in its system folder (no GIMP3_DIRECTORY)
# and runs each family once with validation; gegl finds the clfx:
# operations; clfx-bench --list-devices runs; the purge leaves no file
# behind.  TAP on stdout.
set -u
debs=/src/$1
data=/src/data
n=0 failed=0
ok () {
  n=$((n + 1))
  if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else
    echo "not ok $n - $2"; failed=$((failed + 1)); fi
}
diag () { sed 's/^/# /'; }
# Every file outside what package management, the kernel and this run
# own (HOME is under /tmp).
files () {
  find / -xdev \( -path /proc -o -path /sys -o -path /dev -o -path /run \
    -o -path /tmp -o -path /src -o -path /shared -o -path /var/lib/dpkg \
    -o -path /var/lib/apt -o -path /var/cache -o -path /var/log \) -prune \
    -o -print | sort
}
export DEBIAN_FRONTEND=noninteractive
files >/tmp/before
unset GEGL_PATH GIMP3_DIRECTORY CLFX_CACHE_DIR XDG_CACHE_HOME
apt-get install -y -q "$debs"/gimp-plugin-clfx_*_*.deb \
  "$debs"/clfx-bench_*_*.deb >/tmp/apt.log 2>&1
st=$?
ok $st "apt-get install ./gimp-plugin-clfx_*.deb ./clfx-bench_*.deb"
[ $st -eq 0 ] || diag </tmp/apt.log
for p in gimp-plugin-clfx clfx-bench; do
  missing=$(dpkg -L "$p" | while read -r f; do [ -e "$f" ] || echo "$f"; done)
  ok $([ -z "$missing" ] && dpkg -s "$p" >/dev/null 2>&1; echo $?) \
    "$p is installed, every file it lists there"
done

clfx-bench --list-devices >/tmp/devices.txt 2>&1
ok $([ $? -eq 0 ] && grep -q '^\[0\]' /tmp/devices.txt; echo $?) \
  "clfx-bench --list-devices runs and finds a device"
ok $([ -f /usr/share/man/man1/clfx-bench.1.gz ]; echo $?) \
  "clfx-bench's manual page"

# gegl: the module from GEGL's own folder.
gegl --exists clfx:reinhard05 clfx:gaussian clfx:median >/dev/null 2>&1
ok $? "gegl finds the clfx: operations in its system folder"
gegl "$data/sample.png" -o /tmp/gegl-gaussian.png -- clfx:gaussian \
  std-dev-x=2 std-dev-y=2 validate=true report-file=/tmp/gegl.json \
  >/tmp/gegl.log 2>&1
st=$?
ok $([ $st -eq 0 ] && [ -s /tmp/gegl-gaussian.png ]; echo $?) \
  "gegl runs clfx:gaussian (status $st)"
[ $st -eq 0 ] || diag </tmp/gegl.log

# GIMP: the procedures from the system folder, one run of each family
# with validation, each report's verdict read back.
cat >/tmp/installed.scm <<SCM
(script-fu-use-v3)
(define (run-on input proc name args)
  (let* ((img (gimp-file-load RUN-NONINTERACTIVE input))
         (drw (gimp-image-get-selected-drawables img)))
    (apply proc
           (append (list #:run-mode RUN-NONINTERACTIVE #:image img
                         #:drawables drw #:validate #t #:device "auto"
                         #:report-file (string-append "/tmp/" name ".json"))
                   args))
    (gimp-image-delete img)))
(run-on "$data/sample.png" plug-in-clfx-resize "resize"
        (list #:target "image" #:width 300 #:height 200 #:filter "lanczos3"))
(run-on "$data/sample.png" plug-in-clfx-filter "filter"
        (list #:filter "gaussian" #:std-dev-x 2.0 #:std-dev-y 2.0))
(run-on "$data/sample-hdr.pfm" plug-in-clfx-tonemap "tonemap"
        (list #:operator "reinhard05"))
SCM
timeout 600 gimp-console-3.0 -i -n --quit \
  --batch-interpreter plug-in-script-fu-eval \
  -b '(load "/tmp/installed.scm")' >/tmp/gimp.log 2>&1
st=$?
ok $st "gimp-console-3.0 runs the batch (status $st)"
[ $st -eq 0 ] || tail -20 /tmp/gimp.log | diag
rc=$(find "$HOME/.config/GIMP" -name pluginrc 2>/dev/null | head -1)
# GIMP writes its own folder as ${gimp_plug_in_dir}.
ok $([ -n "$rc" ] && grep -q '"${gimp_plug_in_dir}/plug-ins/clfx/clfx"' "$rc";
     echo $?) "GIMP registered the plug-in from its system folder"
[ -n "$rc" ] && grep 'plug-ins/clfx' "$rc" | head -3 | diag
for family in resize filter tonemap gegl; do
  python3 - "/tmp/$family.json" >/tmp/verdict.txt 2>&1 <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
v = r["validation"]
print("%s %s on %s: validation %s, %d mismatches, fallback '%s'"
      % (r["operation"], r["variant"], r["device"]["name"],
         "passed" if v["passed"] else "FAILED", v["mismatches"], r["fallback"]))
sys.exit(0 if v["passed"] and not r["fallback"] else 1)
PY
  ok $? "the $family run was validated: $(head -1 /tmp/verdict.txt)"
done

apt-get purge -y -q gimp-plugin-clfx clfx-bench >/tmp/purge.log 2>&1
ok $? "apt-get purge gimp-plugin-clfx clfx-bench"
files >/tmp/after
diff /tmp/before /tmp/after >/tmp/left.txt
ok $? "the purge leaves no file behind"
[ -s /tmp/left.txt ] && diag </tmp/left.txt
echo "1..$n"
[ $failed -eq 0 ]
