#!/usr/bin/env bash
# benchmarks/cnn/run.sh — the convolutional model's benchmark, side by side in one run: one
# epoch (1875 steps of 32) of the Fashion-MNIST CNN of examples/cnn/model.hpp trained by
# typeflow (cnn_typeflow.cpp), by the same model written by hand on im2col + cblas_sgemm
# (cnn_handwritten.cpp) and by PyTorch (cnn_pytorch.py); then the compile time and compiler
# peak memory (/usr/bin/time -v) of the training program (cnn_typeflow.cpp).
# Everything at 1 thread (OPENBLAS_NUM_THREADS=1, torch.set_num_threads(1), OMP_NUM_THREADS=1,
# OMP_WAIT_POLICY=PASSIVE); one process per run, the order rotated each repetition. Prints
# the markdown of benchmarks/RESULTS.md ("Convolutional models") with the machine, the date,
# the load and the verdict against each target. Installs the Debian packages it needs.
#
#   benchmarks/cnn/run.sh [repetitions] [steps]   (default 3 and 1875; env BUILD_DIR,
#                                                  COMPILE_REPS (3), JOBS (1), BENCH_CPU (0:
#                                                  every measured process on CPU 0; "none"
#                                                  to leave them unpinned; common.sh))
#
# Not run by CI. Raw results go to $BUILD_DIR/cnn-results/.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
reps=${1:-3}
steps=${2:-1875}
compile_reps=${COMPILE_REPS:-3}
jobs=${JOBS:-1}
build=${BUILD_DIR:-$root/build-cnn}
out=$build/cnn-results
python=/usr/bin/python3   # Debian's, where python3-torch lives

packages=(g++ make cmake libboost-dev libxtensor-dev libxtensor-blas-dev libopenblas-dev libcereal-dev
          libbenchmark-dev zlib1g-dev dataset-fashion-mnist python3-torch python3-numpy time)
source "$root/benchmarks/common.sh"
bench_pin  # the measured processes on one CPU (BENCH_CPU, default 0; common.sh)
install_missing_packages "${packages[@]}"

cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG" \
  -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DTYPEFLOW_BUILD_TESTS=OFF -DTYPEFLOW_BUILD_EXAMPLES=OFF >&2
cmake --build "$build" -j"$jobs" --target bench_cnn_typeflow bench_cnn_handwritten >&2
bin=$build/benchmarks/cnn
rm -rf "$out"
mkdir -p "$out"
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 OMP_WAIT_POLICY=PASSIVE

{
  echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "nproc=$(OMP_NUM_THREADS= nproc)"
  echo "cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -1)"
  echo "gxx=$(g++ --version | head -1)"
  echo "openblas=$(dpkg-query -W -f='${Version}' libopenblas0-pthread 2>/dev/null || echo '?')"
  echo "openblas_core=$(openblas_core)"
  echo "torch=$($python -c 'import torch; print(torch.__version__)')"
  echo "onednn_isa=$(onednn_isa)"
  echo "commit=$(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- include 2>/dev/null || echo ' (include/ modified)')"
  echo "steps=$steps"
  echo "pinned=$(pinning)"
  echo "load_start=$(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/machine.txt"

run_one() {  # impl rep
  local impl=$1 r=$2 line
  case $impl in
    typeflow)    line=$("${pin[@]}" "$bin/bench_cnn_typeflow" 1 "$steps") ;;
    handwritten) line=$("${pin[@]}" "$bin/bench_cnn_handwritten" 1 "$steps") ;;
    pytorch)     line=$("${pin[@]}" $python "$here/cnn_pytorch.py" 1 1 "$steps") ;;
  esac
  echo "{\"rep\": $r, \"load\": \"$(cut -d' ' -f1 /proc/loadavg)\", \"result\": $line}" >> "$out/epochs.jsonl"
  echo "run.sh:   $impl: $line" >&2
}
impls=(typeflow handwritten pytorch)
for r in $(seq 1 "$reps"); do
  echo "run.sh: epochs, repetition $r/$reps" >&2
  for k in 0 1 2; do run_one "${impls[$(( (r + k) % 3 ))]}" "$r"; done
done

# The compile of the training program, with CMake's exact command.
{ read -r dir; read -r cmd; } < <($python - "$build/compile_commands.json" "$out" <<'PY'
import json, shlex, sys
db, out = sys.argv[1:]
for e in json.load(open(db)):
    if e["file"].endswith("/benchmarks/cnn/cnn_typeflow.cpp"):
        args = shlex.split(e["command"])
        args[args.index("-o") + 1] = f"{out}/cnn_typeflow.o"
        print(e["directory"])
        print(shlex.join(args))
        break
else:
    sys.exit("no compile command for cnn_typeflow.cpp")
PY
)
for r in $(seq 1 "$compile_reps"); do
  echo "run.sh: compiling cnn_typeflow.cpp, repetition $r/$compile_reps" >&2
  (cd "$dir" && eval "${pin[*]} /usr/bin/time -v $cmd") 2> "$out/compile_$r.txt"
done
echo "load_end=$(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"

$python "$here/summarize.py" "$out"
