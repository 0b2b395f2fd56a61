#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the libFuzzer targets (tests/fuzz) with clang-14, AddressSanitizer and UBSan into
# build-fuzz/ and runs each for a bounded time. Fails on any crash, leak, hang (an input taking
# longer than FUZZ_TIMEOUT s), out-of-memory or broken property; a failing input is copied to
# tests/data/fuzz-regressions/<target>/, which tst_fuzzregressions replays in the normal build.
#
#   scripts/fuzz.sh [TARGET...]          all targets when none is named
#   FUZZ_SECONDS=60 FUZZ_TIMEOUT=10 FUZZ_RSS_MB=2048 FUZZ_JOBS=2 scripts/fuzz.sh
#
# Needs the Qt packages scripts/setup.sh installs; installs clang-14 and its libFuzzer runtime.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="$ROOT/build-fuzz"
SECONDS_EACH="${FUZZ_SECONDS:-60}"
TIMEOUT="${FUZZ_TIMEOUT:-10}"
RSS_MB="${FUZZ_RSS_MB:-2048}"
ALL_TARGETS=(sseparser httpresponse experiment_json experiment_toml resultfile chunkjson yamlsubset)
TARGETS=("$@")
((${#TARGETS[@]})) || TARGETS=("${ALL_TARGETS[@]}")
for t in "${TARGETS[@]}"; do
    [[ " ${ALL_TARGETS[*]} " == *" $t "* ]] || { echo "fuzz: unknown target '$t' (${ALL_TARGETS[*]})" >&2; exit 2; }
done

# libclang-rt-14-dev holds libclang_rt.fuzzer-x86_64.a and the sanitizer runtimes.
if ! command -v clang++-14 >/dev/null || ! compgen -G "/usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a" >/dev/null; then
    echo "fuzz: installing clang-14 libclang-rt-14-dev" >&2
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -q
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends clang-14 libclang-rt-14-dev
fi

# Debug with -O1: Qt's inline Q_ASSERTs (QByteArrayView bounds) stay on and the fuzzers stay fast.
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" \
    -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 -DSERVESCOPE_FUZZ=ON \
    -DSERVESCOPE_WERROR="${SERVESCOPE_WERROR:-OFF}" -DSERVESCOPE_PCH=OFF \
    "${launcher[@]}" >/dev/null
cmake --build "$BUILD" --target fuzzers -j"$(nproc)"

# Leaks are checked (LeakSanitizer, on by default); Qt's own lazily built statics stay reachable
# and are not reported, so no suppressions are needed (tests/fuzz/lsan.supp says how to add one).
export ASAN_OPTIONS="detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$ROOT/tests/fuzz/lsan.supp:print_suppressions=0"

# Runs one target; its summary line (and what failed) goes to $BUILD/logs/<target>.summary.
fuzz_one() {
    local t=$1 seeds="$BUILD/seeds/$1" corpus="$BUILD/corpus/$1" artifacts="$BUILD/artifacts/$1"
    local log="$BUILD/logs/$1.log" out="$BUILD/logs/$1.summary" globs maxlen rc=0 line a
    rm -rf "$seeds" "$artifacts" "$out"
    mkdir -p "$seeds" "$corpus" "$artifacts" "$(dirname "$log")"
    # Seeds: the fixtures corpora.txt lists for the target, and every past regression.
    globs=$(awk -v t="$t" '$1 == t { $1 = ""; print }' "$ROOT/tests/fuzz/corpora.txt")
    (
        cd "$ROOT"
        shopt -s nullglob
        for f in $globs tests/data/fuzz-regressions/"$t"/*; do cp "$f" "$seeds/"; done
    )
    maxlen=16384
    [ "$t" = resultfile ] && maxlen=32768
    [ "$t" = yamlsubset ] && maxlen=32768
    echo "=== fuzz $t: ${SECONDS_EACH} s, $(ls "$seeds" | wc -l) seeds, corpus $corpus"
    "$BUILD/tests/fuzz/fuzz_$t" -max_total_time="$SECONDS_EACH" -timeout="$TIMEOUT" -rss_limit_mb="$RSS_MB" \
        -max_len="$maxlen" -dict="$ROOT/tests/fuzz/dict/$t.dict" -artifact_prefix="$artifacts/" \
        -print_final_stats=1 "$corpus" "$seeds" >"$log" 2>&1 || rc=$?
    stat() { awk -v k="stat::$1:" '$1 == k { print $2 }' "$log"; }
    line="fuzz $t: $(stat number_of_executed_units) executions, $(stat average_exec_per_sec)/s, corpus $(ls "$corpus" | wc -l) inputs, peak RSS $(stat peak_rss_mb) MB"
    if ((rc != 0)); then
        tail -n 60 "$log"
        mkdir -p "$ROOT/tests/data/fuzz-regressions/$t"
        for a in "$artifacts"/*; do
            [ -e "$a" ] || continue
            cp "$a" "$ROOT/tests/data/fuzz-regressions/$t/"
            line+=$'\n'"    failing input: tests/data/fuzz-regressions/$t/$(basename "$a") (fix the parser, keep the file)"
        done
        line+=$'\n'"    FAILED (exit $rc), log $log"
    fi
    echo "$line" >"$out"
    return "$rc"
}

# Targets run side by side, one per core (FUZZ_JOBS): each still fuzzes for SECONDS_EACH.
jobs_max="${FUZZ_JOBS:-$(nproc)}"
declare -A pids=()
for t in "${TARGETS[@]}"; do
    while (($(jobs -rp | wc -l) >= jobs_max)); do
        wait -n || true
    done
    fuzz_one "$t" &
    pids[$t]=$!
done
failed=()
summary=()
for t in "${TARGETS[@]}"; do
    wait "${pids[$t]}" || failed+=("$t")
    summary+=("$(cat "$BUILD/logs/$t.summary")")
done

echo "=== fuzz summary"
printf '%s\n' "${summary[@]}"
if ((${#failed[@]})); then
    echo "fuzz: failed: ${failed[*]}" >&2
    exit 1
fi
