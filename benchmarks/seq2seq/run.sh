#!/usr/bin/env bash
# benchmarks/seq2seq/run.sh — issue 12's comparison: one training step of seq2seq_test.py's
# testModelWithBuckets copy model (two GRU(24) layers in an embedding_attention_seq2seq,
# batch 8, sampled softmax with 8 samples, gradients clipped by their global norm 30, Adam)
# per bucket, (4, 4) and (8, 8): typeflow (copy_typeflow.cpp, one program per bucket) against
# PyTorch (pytorch_seq2seq.py); with FULL=1 also the full-softmax variant of both.
# Everything at 1 thread (OPENBLAS_NUM_THREADS=1, torch.set_num_threads(1), OMP_NUM_THREADS=1);
# one process per run, the order rotated each repetition. Prints the markdown of
# benchmarks/RESULTS.md ("Sequence-to-sequence: one training step against PyTorch") with the
# machine, the date, the load and the verdict against the target (5x). Installs the Debian
# packages it needs.
#
#   benchmarks/seq2seq/run.sh [repetitions]   (default 5; env BUILD_DIR, FULL (1), JOBS (1),
#                                              BENCH_CPU (0: every measured process on CPU 0;
#                                              "none" to leave them unpinned; common.sh))
#
# The typeflow programs compile for two to four minutes each at -O2 (one bucket's graph each);
# they are built one after the other. Not run by CI. Raw results go to $BUILD_DIR/seq2seq-results/.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
reps=${1:-5}
full=${FULL:-1}
jobs=${JOBS:-1}
build=${BUILD_DIR:-$root/build-seq2seq}
out=$build/seq2seq-results
python=/usr/bin/python3   # Debian's, where python3-torch lives

# --- Debian packages ----------------------------------------------------------------------
packages=(g++ make cmake libboost-dev libxtensor-dev libxtensor-blas-dev libopenblas-dev libcereal-dev
          libbenchmark-dev python3-torch python3-numpy)
source "$root/benchmarks/common.sh"
bench_pin  # the measured processes on one CPU (BENCH_CPU, default 0; common.sh)
install_missing_packages "${packages[@]}"

# --- build: Release at -O2 (CMake's Release default is -O3), one job by default ----------------
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG" \
  -DTYPEFLOW_BUILD_TESTS=OFF -DTYPEFLOW_BUILD_EXAMPLES=OFF >&2
models=(4 8)
[ "$full" = 1 ] && models+=(4-full 8-full)
targets=()
for m in "${models[@]}"; do targets+=("bench_seq2seq_copy${m/-/_}"); done
cmake --build "$build" -j"$jobs" --target "${targets[@]}" >&2
bin=$build/benchmarks/seq2seq
rm -rf "$out"
mkdir -p "$out"
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 OMP_WAIT_POLICY=PASSIVE

# --- the machine ------------------------------------------------------------------------------
{
  echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "nproc=$(OMP_NUM_THREADS= nproc)"  # nproc obeys OMP_NUM_THREADS, exported above
  echo "cpu=$(grep -m1 'model name' /proc/cpuinfo | sed 's/^model name[[:space:]]*: *//')"
  echo "gxx=$(g++ --version | head -1)"
  echo "torch=$($python -c 'import torch; print(torch.__version__)')"
  echo "commit=$(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- include 2>/dev/null || echo ' (include/ modified)')"
  echo "pinned=$(pinning)"
  echo "load_start=$(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/machine.txt"

# --- the training steps: per model, typeflow and PyTorch, the order alternating -----------------
run_one() {  # impl model rep
  local impl=$1 m=$2 r=$3 line
  case $impl in
    typeflow) line=$("${pin[@]}" "$bin/bench_seq2seq_copy${m/-/_}" 5 200 20) ;;
    pytorch)  line=$("${pin[@]}" $python "$here/pytorch_seq2seq.py" "$m" 5 50 10) ;;
  esac
  echo "{\"rep\": $r, \"load\": \"$(cut -d' ' -f1 /proc/loadavg)\", \"result\": $line}" >> "$out/steps.jsonl"
  echo "run.sh:   $impl $m: $line" >&2
}
impls=(typeflow pytorch)
n=${#models[@]}
for r in $(seq 1 "$reps"); do
  echo "run.sh: training steps, repetition $r/$reps" >&2
  for k in $(seq 0 $((n - 1))); do
    m=${models[$(( (r + k) % n ))]}
    for j in 0 1; do run_one "${impls[$(( (r + k + j) % 2 ))]}" "$m" "$r"; done
  done
done
echo "load_end=$(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"

$python "$here/summarize.py" "$out"
