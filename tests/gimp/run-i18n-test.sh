#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# run-i18n-test.sh: the plug-in under a Chinese and a German locale.  GIMP
# must show the translated menu label (pluginrc caches what the plug-in
# registered) and a translated error message, while the JSON report stays
# machine-readable (decimal points, English keys; German writes decimal
# commas).  Every catalog of po/LINGUAS installs beside the plug-in.  TAP
# on stdout.
#
#   run-i18n-test.sh PLUGIN CLFX_BENCH SCM_DIR WORK_DIR
set -u
plugin=$1 bench=$2 scm_dir=$3 work=$4
gimp=${CLFX_GIMP_CONSOLE:-gimp-console-3.0}
linguas=$(dirname "$0")/../../po/LINGUAS
n=0 failed=0
ok () {
  n=$((n + 1))
  if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else
    echo "not ok $n - $2"; failed=$((failed + 1)); fi
}
has_locale () { locale -a 2>/dev/null | grep -qi "^$1.utf-\?8$"; }

if ! command -v "$gimp" >/dev/null 2>&1 || ! has_locale zh_CN; then
  if [ "${CLFX_REQUIRE_DEVICE:-0}" = 1 ]; then
    echo "1..1"; echo "not ok 1 - $gimp or the zh_CN.UTF-8 locale is missing"
    exit 1
  fi
  echo "1..0 # SKIP $gimp or the zh_CN.UTF-8 locale is missing"
  exit 0
fi

rm -rf "$work"
mkdir -p "$work"
"$bench" --device reference --synthetic 40x30:u8 --output "$work/in.png" copy >/dev/null

# One GIMP profile per locale (pluginrc keeps the labels of the locale it
# was made under).  Only the locale differs from the other GIMP tests.
#   run_gimp TAG LOCALE LANGUAGE
run_gimp () {
  local dir=$work/$1
  mkdir -p "$dir/profile/plug-ins" "$dir/home" "$dir/out"
  "$(dirname "$0")/../../tools/install-plugin.sh" "$plugin" "$dir/profile/plug-ins"
  (export HOME="$dir/home" GIMP3_DIRECTORY="$dir/profile" \
     LANG=$2 LC_ALL=$2 LANGUAGE=$3
   cd "$dir" && timeout 300 "$gimp" -i -n --quit \
   --batch-interpreter plug-in-script-fu-eval \
   -b "(begin (define clfx-work \"$dir/out\") (define clfx-device \"auto\")
        (load \"$scm_dir/clfx-tests.scm\")
        (clfx-bad-case \"indexed\" \"$work/in.png\" \"indexed\"
          (lambda (img drw) (plug-in-clfx-resize #:run-mode RUN-NONINTERACTIVE
             #:image img #:drawables (vector drw) #:width 10 #:height 10)))
        (let* ((img (gimp-file-load RUN-NONINTERACTIVE \"$work/in.png\"))
               (drw (vector-ref (gimp-image-get-selected-drawables img) 0)))
          (plug-in-clfx-resize #:run-mode RUN-NONINTERACTIVE #:image img
             #:drawables (vector drw) #:width 20 #:height 10 #:zoom-x 0.5
             #:report-file \"$dir/out/report.json\")
          (gimp-image-delete img)))" >"$dir/gimp.log" 2>&1)
}

# check_run TAG LOCALE MENU_LABEL INDEXED_ERROR OPERATOR_LABEL
check_run () {
  local dir=$work/$1
  grep -qF "$3" "$dir/profile/pluginrc"
  ok $? "$2: the menu label is translated (pluginrc has '$3')"
  # A variant's own procedure: the GEGL module's title of its operation.
  grep -qF "\"$5\"" "$dir/profile/pluginrc"
  ok $? "$2: a variant's own menu label is translated (pluginrc has '$5')"
  grep -a "^CLFX-ERROR indexed: " "$dir/gimp.log" | grep -qF "$4"
  ok $? "$2: the error for an indexed image is translated: $(grep -a '^CLFX-ERROR indexed' "$dir/gimp.log" | head -c 200)"
  python3 - "$dir/out/report.json" <<'PY'
import json, sys
text = open(sys.argv[1], encoding="utf-8").read()
r = json.loads(text)
assert r["parameters"]["zoom-x"] == 0.5 and '"zoom-x":0.5' in text, text[:300]
PY
  ok $? "$2: the report is still machine-readable (\"zoom-x\":0.5, English keys)"
}

# Every catalog po/LINGUAS names is installed (the build made them all).
mkdir -p "$work/installed"
"$(dirname "$0")/../../tools/install-plugin.sh" "$plugin" "$work/installed"
for lang in $(sed 's/#.*//' "$linguas"); do
  [ -f "$work/installed/clfx/locale/$lang/LC_MESSAGES/clfx.mo" ]
  ok $? "the $lang catalog is installed beside the plug-in"
done

run_gimp zh zh_CN.UTF-8 zh_CN
ok $? "gimp-console ran under zh_CN.UTF-8"
check_run zh zh_CN '调整大小 (OpenCL)(_R)...' '不支持索引图像' \
  '高斯模糊 (OpenCL)...'

if has_locale de_DE; then
  run_gimp de de_DE.UTF-8 de
  ok $? "gimp-console ran under de_DE.UTF-8"
  check_run de de_DE '_Größe ändern (OpenCL)...' \
    'indizierte Bilder werden nicht unterstützt' \
    'Gauß’scher Weichzeichner (OpenCL)...'
elif [ "${CLFX_REQUIRE_DEVICE:-0}" = 1 ]; then
  ok 1 "the de_DE.UTF-8 locale is missing"
else
  ok 0 "# SKIP the de_DE.UTF-8 locale is missing"
fi

echo "1..$n"
[ $failed -eq 0 ]
