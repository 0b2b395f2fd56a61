#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The layering as written in docs/design.md, checked on the sources: a core library includes headers
# only from itself and the libraries it links (read from its CMakeLists.txt, transitively), and
# nothing under core/ includes a views/ header or a Widgets or Charts header. Prints each upward
# include and exits 1 when there is one. Run by .ci/run before the build.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT/core"

libs=()
for d in */; do
    libs+=("${d%/}")
done

# The servescope_* libraries a folder's CMakeLists.txt links (public or private).
direct_deps() {
    sed -n '/target_link_libraries/,/)/p' "$1/CMakeLists.txt" | grep -o 'servescope_[a-z]*' | sed 's/^servescope_//' |
        sort -u
}

declare -A deps
for lib in "${libs[@]}"; do
    deps[$lib]="$(direct_deps "$lib" | tr '\n' ' ')"
done

# Transitive closure: what a library may include.
allowed_of() {
    local -A seen=()
    local queue=("$1") next dep
    while ((${#queue[@]})); do
        next="${queue[0]}"
        queue=("${queue[@]:1}")
        for dep in ${deps[$next]:-}; do
            if [[ -z "${seen[$dep]:-}" ]]; then
                seen[$dep]=1
                queue+=("$dep")
            fi
        done
    done
    echo "$1 ${!seen[*]}"
}

bad=0
for lib in "${libs[@]}"; do
    allowed=" $(allowed_of "$lib") "
    while IFS= read -r line; do
        file="${line%%:*}"
        target="$(sed -E 's/.*#include "([a-z]+)\/.*/\1/' <<<"$line")"
        if [[ " ${libs[*]} " == *" $target "* && "$allowed" != *" $target "* ]]; then
            echo "core/$file: includes core/$target, which core/$lib does not link" >&2
            bad=1
        fi
    done < <(grep -HnE '^#include "[a-z]+/' "$lib"/*.cpp "$lib"/*.h 2>/dev/null || true)
done
if grep -rnE '^#include ["<](views/|charts/|QtWidgets|QtCharts|QWidget>|QApplication>|QDialog>|QChart)' . >&2; then
    echo "core/: the lines above include a views, Widgets or Charts header" >&2
    bad=1
fi
exit "$bad"
