#!/usr/bin/env bash
# benchmarks/training/run.sh — issue 3's "Speed" benchmarks, side by side in one run:
#   1. scalar linear regression step: typeflow vs the hand-written loop (Google Benchmark,
#      repetitions randomly interleaved);
#   2. one epoch of the 784-128-10 MLP on Fashion-MNIST at 1 and 2 threads: typeflow vs
#      hand-written OpenBLAS vs PyTorch, one process per run, the order rotated each
#      repetition; plus the Adam variant, typeflow vs xtensor written directly;
#   3. compile time and compiler peak memory (/usr/bin/time -v) of the Adam MLP program,
#      typeflow vs xtensor written directly, interleaved.
# Prints the markdown tables of benchmarks/RESULTS.md ("Training speed") with the machine,
# the date and the verdict against each target. Installs the Debian packages it needs.
#
#   benchmarks/training/run.sh [repetitions]      (default 5; env BUILD_DIR, COMPILE_REPS)
#
# Not run by CI. Raw results go to $BUILD_DIR/training-results/.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
reps=${1:-5}
compile_reps=${COMPILE_REPS:-3}
build=${BUILD_DIR:-$root/build-training}
out=$build/training-results
python=/usr/bin/python3   # Debian's, where python3-torch lives

# --- Debian packages ----------------------------------------------------------------------
packages=(g++ make cmake libboost-dev libxtensor-dev libxtensor-blas-dev libopenblas-dev libcereal-dev
          libbenchmark-dev zlib1g-dev dataset-fashion-mnist python3-torch python3-numpy time)
source "$root/benchmarks/common.sh"
install_missing_packages "${packages[@]}"

# --- build: Release at -O2 (CMake's Release default is -O3), at most 2 jobs ----------------------
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG" \
  -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DTYPEFLOW_BUILD_TESTS=OFF -DTYPEFLOW_BUILD_EXAMPLES=OFF >&2
targets=(bench_training_scalar bench_training_mlp_typeflow bench_training_mlp_cblas
         bench_training_mlp_adam_typeflow bench_training_mlp_xtensor_direct)
cmake --build "$build" -j2 --target "${targets[@]}" >&2
bin=$build/benchmarks/training
rm -rf "$out"
mkdir -p "$out"

# --- the machine ------------------------------------------------------------------------------
{
  echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "nproc=$(nproc)"
  echo "cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -1)"
  echo "gxx=$(g++ --version | head -1)"
  echo "openblas=$(dpkg-query -W -f='${Version}' libopenblas0-pthread 2>/dev/null || echo '?')"
  echo "openblas_core=$(openblas_core)"
  echo "torch=$($python -c 'import torch; print(torch.__version__)')"
  echo "commit=$(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- include 2>/dev/null || echo ' (include/ modified)')"
  echo "load_start=$(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/machine.txt"

# --- 1. scalar step ---------------------------------------------------------------------------
echo "run.sh: scalar linear regression, $reps repetitions" >&2
"$bin/bench_training_scalar" --benchmark_repetitions="$reps" --benchmark_enable_random_interleaving=true \
  --benchmark_out="$out/scalar.json" --benchmark_out_format=json >&2

# --- 2. MLP epochs ----------------------------------------------------------------------------
run_mlp() {  # impl threads rep
  local impl=$1 t=$2 r=$3 line
  case $impl in
    # OMP_WAIT_POLICY=PASSIVE: with GNU OpenMP's default spin-waiting, 2 threads on this
    # loaded 2-core machine took 45-106 s per epoch instead of ~3 s (the spinning worker holds
    # the core its partner needs); passive waiting is PyTorch's best setting here.
    pytorch) line=$(OPENBLAS_NUM_THREADS=$t OMP_NUM_THREADS=$t OMP_WAIT_POLICY=PASSIVE \
                    $python "$here/mlp_pytorch.py" "$t") ;;
    *) line=$(OPENBLAS_NUM_THREADS=$t "$bin/bench_training_mlp_$impl") ;;
  esac
  echo "{\"threads\": $t, \"rep\": $r, \"result\": $line}" >> "$out/mlp.jsonl"
  echo "run.sh:   $impl, $t thread(s): $line" >&2
}
impls=(cblas typeflow pytorch)
for t in 1 2; do
  for r in $(seq 1 "$reps"); do
    echo "run.sh: MLP epoch, $t thread(s), repetition $r/$reps" >&2
    for k in 0 1 2; do run_mlp "${impls[$(( (r + k) % 3 ))]}" "$t" "$r"; done
  done
done
for r in $(seq 1 "$reps"); do
  echo "run.sh: Adam MLP epoch, 1 thread, repetition $r/$reps" >&2
  if (( r % 2 )); then run_mlp adam_typeflow 1 "$r"; run_mlp xtensor_direct 1 "$r"
  else run_mlp xtensor_direct 1 "$r"; run_mlp adam_typeflow 1 "$r"; fi
done

# --- 3. compile time and memory ---------------------------------------------------------------
compile_command() {  # the exact command CMake uses for benchmarks/training/$1.cpp, output elsewhere
  $python - "$build/compile_commands.json" "$1" "$out" <<'PY'
import json, shlex, sys
db, name, out = sys.argv[1:]
for e in json.load(open(db)):
    if e["file"].endswith(f"/benchmarks/training/{name}.cpp"):
        args = shlex.split(e["command"])
        args[args.index("-o") + 1] = f"{out}/{name}.o"
        print(e["directory"])
        print(shlex.join(args))
        break
else:
    sys.exit(f"no compile command for {name}")
PY
}
for r in $(seq 1 "$compile_reps"); do
  for f in mlp_adam_typeflow mlp_xtensor_direct; do
    echo "run.sh: compiling $f.cpp, repetition $r/$compile_reps" >&2
    { read -r dir; read -r cmd; } < <(compile_command "$f")
    (cd "$dir" && eval "/usr/bin/time -v $cmd") 2> "$out/compile_${f}_$r.txt"
  done
done
echo "load_end=$(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"

$python "$here/summarize.py" "$out"
