#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Sets up (packages, build) and runs every test. Extra arguments go to ctest (e.g. -L unit).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$ROOT/scripts/setup.sh"
export QT_QPA_PLATFORM=offscreen
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
# Most integration tests wait on the simulator's clock, not on a core: twice as many run as there are cores.
ctest --test-dir "$ROOT/build" --output-on-failure -j"$((2 * $(nproc)))" "$@"
