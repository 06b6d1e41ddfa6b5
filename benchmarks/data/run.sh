#!/usr/bin/env bash
# benchmarks/data/run.sh — the input pipeline's benchmarks of issue 13, side by side in one run:
#   1. the flagship's epoch (bench_data_flagship_epoch) with hand-gathered batches against
#      from_tensor_slices -> shuffle(60000) -> batch(64, drop_remainder) -> repeat ->
#      prefetch(2), and the same without prefetch; the modes alternate, one process each,
#      the order rotated every repetition;
#   2. the readers against numpy and pandas on the same files (benchmarks/readers/compare.py).
# OpenBLAS and PyTorch-free: 1 OpenBLAS thread, so that the pipeline's thread has the
# second core. Prints the markdown of benchmarks/RESULTS.md ("Input pipelines") with the
# machine, the date, the load, and the verdict against the 1.05x target. Installs the
# Debian packages it needs.
#
#   benchmarks/data/run.sh [repetitions] [epochs]   (default 3 and 3; env BUILD_DIR, JOBS (1))
#
# Not run by CI. Raw results go to $BUILD_DIR/data-results/.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
reps=${1:-3}
epochs=${2:-3}
jobs=${JOBS:-1}
build=${BUILD_DIR:-$root/build-data-bench}
out=$build/data-results
python=/usr/bin/python3   # Debian's, where python3-numpy and python3-pandas live

packages=(g++ make cmake libboost-dev libxtensor-dev libxtensor-blas-dev libopenblas-dev libcereal-dev
          libbenchmark-dev zlib1g-dev dataset-fashion-mnist python3-numpy python3-pandas)
source "$root/benchmarks/common.sh"
install_missing_packages "${packages[@]}"

cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG" \
  -DTYPEFLOW_BUILD_TESTS=OFF -DTYPEFLOW_BUILD_EXAMPLES=OFF -DTYPEFLOW_BUILD_BENCHMARKS=ON >&2
cmake --build "$build" -j"$jobs" --target bench_data_flagship_epoch bench_readers >&2
rm -rf "$out"
mkdir -p "$out"
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1

{
  echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "nproc=$(OMP_NUM_THREADS= nproc)"
  echo "cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -1)"
  echo "gxx=$(g++ --version | head -1)"
  echo "commit=$(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- include 2>/dev/null || echo ' (include/ modified)')"
  echo "epochs=$epochs"
  echo "load_start=$(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/machine.txt"

modes=(gathered pipeline pipeline_no_prefetch)
for r in $(seq 1 "$reps"); do
  echo "run.sh: epochs, repetition $r/$reps" >&2
  for k in 0 1 2; do
    mode=${modes[$(( (r + k) % 3 ))]}
    "$build/benchmarks/data/bench_data_flagship_epoch" "$mode" "$epochs" |
      while read -r line; do echo "{\"rep\": $r, \"load\": \"$(cut -d' ' -f1 /proc/loadavg)\", \"result\": $line}"; done \
      >> "$out/epochs.jsonl"
  done
done

echo "run.sh: readers against numpy and pandas" >&2
$python "$root/benchmarks/readers/compare.py" "$build/benchmarks/readers/bench_readers" "$reps" > "$out/readers.txt"
echo "load_end=$(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"

$python "$here/summarize.py" "$out"
