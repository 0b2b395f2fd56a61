#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Sets up (packages, build) and runs every test. Extra arguments go to ctest (e.g. -L unit).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$ROOT/scripts/setup.sh"
export QT_QPA_PLATFORM=offscreen
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
ctest --test-dir "$ROOT/build" --output-on-failure -j"$(nproc)" "$@"
