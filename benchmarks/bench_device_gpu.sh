#!/usr/bin/env bash
# bench_device.py on a GPU machine, the GPU kit's way (see ../shared/gpu/README.md):
# the wheels in .gpu/whl (captum, skorch) go into a temporary site directory,
# sklearn_xai is imported from this checkout, and $OUT (default .gpu/out)
# receives env.txt, bench_device.log, bench_device.json and bench_device.md.
# Arguments are passed on to bench_device.py, e.g.
#   bash benchmarks/bench_device_gpu.sh --device cuda --guard 330
# As with the kit, GPU_SMALL=1 adds --small and GPU_GUARD=S adds --guard S
# (arguments given after them win).
set -o pipefail
cd "$(dirname "$0")/.." || exit 1
OUT=${OUT:-.gpu/out}
PY=${PY:-python3}
SITE=$(mktemp -d) || exit 1
trap 'rm -rf "$SITE"' EXIT
mkdir -p "$OUT"
{
  echo "== date"; date -u
  echo "== commit"; echo "${GPU_COMMIT:-$(cat .gpu/COMMIT 2>/dev/null || git rev-parse HEAD 2>/dev/null || echo unknown)}"
  echo "== nvidia-smi"; (command -v nvidia-smi >/dev/null && nvidia-smi) || echo "no nvidia-smi"
  echo "== python"; "$PY" --version
  echo "== lscpu"; (lscpu 2>/dev/null | grep -E 'Model name|^CPU\(s\)') || nproc
} > "$OUT/env.txt" 2>&1
cat "$OUT/env.txt"
shopt -s nullglob
whl=(.gpu/whl/*.whl)
shopt -u nullglob
if [ ${#whl[@]} -gt 0 ]; then
  "$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir \
    --target "$SITE" "${whl[@]}" || { echo "wheel install failed"; exit 1; }
fi
# scikit-learn only if the machine's is older than the 1.6 that sklearn_xai needs
if ! "$PY" -c 'import sklearn,sys; v=tuple(int(p) for p in sklearn.__version__.split(".")[:2]); sys.exit(0 if v>=(1,6) else 1)' 2>/dev/null; then
  shopt -s nullglob
  opt=(.gpu/whl_opt/*.whl)
  shopt -u nullglob
  [ ${#opt[@]} -gt 0 ] && "$PY" -m pip install -q --no-index --no-deps --no-compile \
    --no-cache-dir --target "$SITE" "${opt[@]}"
fi
export PYTHONPATH="$PWD:$SITE${PYTHONPATH:+:$PYTHONPATH}"
kit=()
[ "${GPU_SMALL:-0}" = 1 ] && kit+=(--small)
[ -n "$GPU_GUARD" ] && kit+=(--guard "$GPU_GUARD")
PYTHONUNBUFFERED=1 OUT="$OUT" "$PY" benchmarks/bench_device.py --out "$OUT" "${kit[@]}" "$@" 2>&1 \
  | tee "$OUT/bench_device.log"
