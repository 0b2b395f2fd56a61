#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The layering as written in docs/design.md, checked on the sources:
# - the libraries are listed once, bottom up, in docs/design.md's layout table, and a library links
#   (in its CMakeLists.txt) only libraries listed before it;
# - a core library includes headers only from itself and the libraries it links (transitively), and
#   nothing under core/ includes a views/ header or a Widgets or Charts header;
# - views/ is one library over folders listed bottom up in views/CMakeLists.txt (views_folders): a
#   file includes headers of its own folder, of folders listed before it, and of views/charts only.
# Prints each offence and exits 1 when there is one. Run by .ci/run before the build.
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
# The link order: each library's links come before it in the documented list.
mapfile -t order < <(grep -oE '^\| `(core|views)/[a-z]+/` ' "$ROOT/docs/design.md" | sed -E 's/^\| `[a-z]+\/([a-z]+)\/` /\1/')
declare -A rank
for i in "${!order[@]}"; do
    rank[${order[$i]}]=$i
done
for lib in "${libs[@]}" charts; do
    dir="$lib"
    [[ "$lib" == charts ]] && dir="../views/charts"
    if [[ -z "${rank[$lib]:-}" ]]; then
        echo "core/$lib: not listed in docs/design.md's layout table" >&2
        bad=1
        continue
    fi
    for dep in $(direct_deps "$dir"); do
        [[ "$dep" == "$lib" || "$dep" == options ]] && continue
        if [[ -z "${rank[$dep]:-}" || ${rank[$dep]} -ge ${rank[$lib]} ]]; then
            echo "$dir/CMakeLists.txt: $lib links $dep, which docs/design.md lists after it" >&2
            bad=1
        fi
    done
done

# views/: folders bottom up; a header is found by its name (the library adds every folder to the path).
cd "$ROOT/views"
read -r -a folders < <(sed -nE 's/^set\(views_folders (.*)\)$/\1/p' CMakeLists.txt)
declare -A level home
for i in "${!folders[@]}"; do
    level[${folders[$i]}]=$i
    for h in "${folders[$i]}"/*.h; do
        name="$(basename "$h")"
        if [[ -n "${home[$name]:-}" ]]; then
            echo "views/$h: a header of this name is also in views/${home[$name]}" >&2
            bad=1
        fi
        home[$name]="${folders[$i]}"
    done
done
for folder in "${folders[@]}"; do
    while IFS= read -r line; do
        file="${line%%:*}"
        name="$(sed -E 's/.*#include "([^"]+)".*/\1/' <<<"$line")"
        target="${home[$name]:-}"
        if [[ -n "$target" && ${level[$target]} -gt ${level[$folder]} ]]; then
            echo "views/$file: includes $name of views/$target, a folder above views/$folder" >&2
            bad=1
        fi
    done < <(grep -HnE '^#include "[a-z]+\.h"' "$folder"/*.cpp "$folder"/*.h 2>/dev/null || true)
done
exit "$bad"
