#!/bin/bash
# run-i18n-test.sh: the plug-in under a Chinese locale.  GIMP must show
# the translated menu label (pluginrc caches what the plug-in registered)
# and a translated error message, while the JSON report stays
# machine-readable (decimal points, English keys).  TAP on stdout.
#
#   run-i18n-test.sh PLUGIN CLFX_BENCH SCM_DIR WORK_DIR
set -u
plugin=$1 bench=$2 scm_dir=$3 work=$4
gimp=${CLFX_GIMP_CONSOLE:-gimp-console-3.0}
n=0 failed=0
ok () {
  n=$((n + 1))
  if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else
    echo "not ok $n - $2"; failed=$((failed + 1)); fi
}

if ! command -v "$gimp" >/dev/null 2>&1 || ! locale -a 2>/dev/null | grep -qi '^zh_CN.utf-\?8$'; then
  if [ "${CLFX_REQUIRE_DEVICE:-0}" = 1 ]; then
    echo "1..1"; echo "not ok 1 - $gimp or the zh_CN.UTF-8 locale is missing"
    exit 1
  fi
  echo "1..0 # SKIP $gimp or the zh_CN.UTF-8 locale is missing"
  exit 0
fi

rm -rf "$work"
mkdir -p "$work/profile/plug-ins" "$work/home" "$work/out"
"$(dirname "$0")/../../tools/install-plugin.sh" "$plugin" "$work/profile/plug-ins"
[ -f "$work/profile/plug-ins/clfx/locale/zh_CN/LC_MESSAGES/clfx.mo" ]
ok $? "the zh_CN catalog is installed beside the plug-in"
export HOME="$work/home" GIMP3_DIRECTORY="$work/profile"
"$bench" --device reference --synthetic 40x30:u8 --output "$work/in.png" copy >/dev/null

# Only the locale: everything else as in the other GIMP tests.
export LANG=zh_CN.UTF-8 LC_ALL=zh_CN.UTF-8 LANGUAGE=zh_CN
(cd "$work" && timeout 300 "$gimp" -i -n --quit \
   --batch-interpreter plug-in-script-fu-eval \
   -b "(begin (define clfx-work \"$work/out\") (define clfx-device \"auto\")
        (load \"$scm_dir/clfx-tests.scm\")
        (clfx-bad-case \"indexed\" \"$work/in.png\" \"indexed\"
          (lambda (img drw) (plug-in-clfx-resize #:run-mode RUN-NONINTERACTIVE
             #:image img #:drawables (vector drw) #:width 10 #:height 10)))
        (let* ((img (gimp-file-load RUN-NONINTERACTIVE \"$work/in.png\"))
               (drw (vector-ref (gimp-image-get-selected-drawables img) 0)))
          (plug-in-clfx-resize #:run-mode RUN-NONINTERACTIVE #:image img
             #:drawables (vector drw) #:width 20 #:height 10 #:zoom-x 0.5
             #:report-file \"$work/out/zh.json\")
          (gimp-image-delete img)))" >"$work/gimp.log" 2>&1)
ok $? "gimp-console ran under zh_CN.UTF-8"

grep -q '调整大小 (OpenCL)(_R)...' "$work/profile/pluginrc"
ok $? "the menu label is translated (pluginrc)"
# A variant's own procedure: the GEGL module's title of its operation.
grep -q '"高斯模糊 (OpenCL)..."' "$work/profile/pluginrc"
ok $? "a variant's own menu label is translated (pluginrc)"
grep -a "^CLFX-ERROR indexed: " "$work/gimp.log" | grep -q '不支持索引图像'
ok $? "the error for an indexed image is translated: $(grep -a '^CLFX-ERROR indexed' "$work/gimp.log" | head -c 200)"
python3 - "$work/out/zh.json" <<'PY'
import json, sys
text = open(sys.argv[1], encoding="utf-8").read()
r = json.loads(text)
assert r["parameters"]["zoom-x"] == 0.5 and '"zoom-x":0.5' in text, text[:300]
PY
ok $? "the report is still machine-readable (\"zoom-x\":0.5, English keys)"

echo "1..$n"
[ $failed -eq 0 ]
