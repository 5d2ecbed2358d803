#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# build.sh OUT: the Debian source and binary packages of the tree at /src
# (a clean clone), built in a copy under /tmp, checked by lintian; the
# packages and lintian's report go to /src/OUT.  Run inside ci/env's root
# by ci/package.
set -eu
out=/src/$1
rm -rf /tmp/deb "$out"
mkdir -p /tmp/deb/clfx "$out"
cp -r /src/. /tmp/deb/clfx
rm -rf /tmp/deb/clfx/.git "/tmp/deb/clfx/$1"
cd /tmp/deb/clfx
# One version, meson.build's: debian/changelog must say the same.
version=$(meson introspect --projectinfo meson.build |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["version"])')
changelog=$(dpkg-parsechangelog -S Version)
if [ "$version" != "$changelog" ]; then
  echo "debian/changelog's version $changelog is not meson.build's $version" >&2
  exit 1
fi
DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" dpkg-buildpackage -us -uc \
  >/tmp/deb/build.log 2>&1 || { tail -40 /tmp/deb/build.log >&2; exit 1; }
cp /tmp/deb/build.log /tmp/deb/*.deb /tmp/deb/*.dsc /tmp/deb/*.tar.* \
  /tmp/deb/*.changes "$out"
# Errors fail; every other tag is listed (docs/DEVELOPING.md, "The
# Debian packages", says why each is left).
lintian --pedantic --display-experimental --fail-on error \
  /tmp/deb/*.changes 2>&1 | grep -v 'running with root privileges' \
  | tee "$out/lintian.txt"
