#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Sets up (packages, build), then opens ServeScope on the demo project against the built-in
# simulated server. With --headless: runs the demo experiment with servescope-cli instead.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$ROOT/scripts/setup.sh"
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

DEMO="$ROOT/resources/demo/demo-experiment.json"
OUT="$ROOT/build/demo"
mkdir -p "$OUT"

if [ "${1:-}" = "--headless" ]; then
    shift
    rm -rf "$OUT/results"
    exec "$ROOT/build/app/servescope-cli" run "$DEMO" --project "$OUT/demo.servescope" --out-dir "$OUT/results" \
        --sim-time-scale 10 "$@"
fi

if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    echo "run.sh: no display (DISPLAY/WAYLAND_DISPLAY unset). Use 'scripts/run.sh --headless'," >&2
    echo "        or start a virtual one: xvfb-run -a scripts/run.sh" >&2
    exit 2
fi
exec "$ROOT/build/app/gui/servescope" --demo "$@"
