#!/bin/sh
# SPDX-License-Identifier: MIT
# ServeScope environment probe: run on the server host, keep its output beside the benchmark and
# pass it to `servescope-cli run EXPERIMENT --env-snapshot FILE` (or import it in the GUI). Prints
# {"env_snapshot": {...}} with what this host can tell: GPU model and count, driver, power cap,
# CUDA, PyTorch, vLLM/SGLang version and commit, CPU, memory, kernel. Plain POSIX sh; every tool
# it asks (nvidia-smi, python3, git) is optional and a field it cannot read is left out.
# Usage: env-probe.sh [--python PYTHON] > env.json
set -u
PY=python3
while [ $# -gt 0 ]; do
    case "$1" in
    --python) PY="$2"; shift 2 ;;
    -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
    *) echo "env-probe.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done

first=1
# JSON string: backslash, quote and control characters escaped.
jstr() {
    printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/\t/\\t/g' | tr -d '\r\n'
}
field() { # name value [number]
    [ -n "$2" ] || return 0
    if [ "$first" = 1 ]; then first=0; else printf ',\n'; fi
    if [ "${3:-}" = number ] && printf '%s' "$2" | grep -Eq '^-?[0-9]+(\.[0-9]+)?$'; then
        printf '    "%s": %s' "$1" "$2"
    else
        printf '    "%s": "%s"' "$1" "$(jstr "$2")"
    fi
}
trim() { sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//'; }

printf '{\n  "env_snapshot": {\n'
if command -v nvidia-smi >/dev/null 2>&1; then
    gpus=$(nvidia-smi --query-gpu=name,driver_version,power.limit,memory.total --format=csv,noheader,nounits 2>/dev/null)
    if [ -n "$gpus" ]; then
        line=$(printf '%s\n' "$gpus" | head -n 1)
        field gpu "$(printf '%s' "$line" | cut -d, -f1 | trim)"
        field gpu_count "$(printf '%s\n' "$gpus" | grep -c .)" number
        field driver_version "$(printf '%s' "$line" | cut -d, -f2 | trim)"
        field power_cap_w "$(printf '%s' "$line" | cut -d, -f3 | trim | sed 's/\.00*$//')" number
        field gpu_memory_mib "$(printf '%s' "$line" | cut -d, -f4 | trim)" number
    fi
    field cuda_driver_version "$(nvidia-smi 2>/dev/null | sed -n 's/.*CUDA Version: *\([0-9.]*\).*/\1/p' | head -n 1)"
fi
if command -v "$PY" >/dev/null 2>&1; then
    # One interpreter start; each module is optional.
    pyout=$("$PY" - 2>/dev/null <<'PYEOF'
import importlib
def version(mod):
    try:
        m = importlib.import_module(mod)
        return getattr(m, "__version__", "")
    except Exception:
        return ""
print("pytorch_version=" + version("torch"))
try:
    import torch
    print("cuda_version=" + (torch.version.cuda or ""))
except Exception:
    pass
print("vllm_version=" + version("vllm"))
print("sglang_version=" + version("sglang"))
try:
    import vllm, os, subprocess
    root = os.path.dirname(os.path.dirname(vllm.__file__))
    out = subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    print("vllm_commit=" + out.stdout.strip())
except Exception:
    pass
PYEOF
)
    for key in pytorch_version cuda_version vllm_version vllm_commit sglang_version; do
        field "$key" "$(printf '%s\n' "$pyout" | sed -n "s/^$key=//p" | head -n 1)"
    done
fi
if [ -r /proc/cpuinfo ]; then
    field cpu_model "$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo | head -n 1)"
fi
field cpu_cores "$(getconf _NPROCESSORS_ONLN 2>/dev/null)" number
if [ -r /proc/meminfo ]; then
    field memory_gb "$(awk '/^MemTotal:/ { printf "%d", $2 / 1048576 + 0.5 }' /proc/meminfo)" number
fi
field kernel "$(uname -r 2>/dev/null)"
printf '\n  }\n}\n'
