#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Sets up and builds like test.sh (build/, RelWithDebInfo: in CI the tree test.sh just built), then
# makes the Debian package with CPack (packaging/cpack.cmake). Prints the package's path last.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# CPack's DEB generator runs dpkg-shlibdeps (dpkg-dev) and file on the executables.
SERVESCOPE_EXTRA_PACKAGES="dpkg-dev file" "$ROOT/scripts/setup.sh"
rm -f "$ROOT"/build/packages/servescope_*.deb
(cd "$ROOT/build" && cpack --config CPackConfig.cmake) >&2
deb=("$ROOT"/build/packages/servescope_*.deb)
[ -f "${deb[0]}" ] || { echo "package.sh: cpack wrote no build/packages/servescope_*.deb" >&2; exit 1; }
echo "${deb[0]}"
