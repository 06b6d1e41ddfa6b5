#!/usr/bin/env bash
# benchmarks/distributed/run.sh — issue 14's benchmarks, side by side in one run: the
# flagship's epoch (examples/flagship_mpi.cpp, global batch 64, through mpirun; its
# gradient allreduces timed by allreduce_timer.cpp) on
#   tf_1x1   1 rank,  OPENBLAS_NUM_THREADS=1
#   tf_1x2   1 rank,  OPENBLAS_NUM_THREADS=2
#   tf_2x1   2 ranks, OPENBLAS_NUM_THREADS=1 (32 rows of each global batch a rank)
# and the peer, benchmarks/distributed/ddp_pytorch.py (OMP_WAIT_POLICY=PASSIVE, 1 thread a
# process):
#   torch_ddp_2  DistributedDataParallel, gloo, 2 processes, 32 rows of each batch of 64
#   torch_1      PyTorch's single process
# and, after the repetitions, the gradient buffer's allreduce alone in its three call
# patterns (allreduce_modes.cpp, 2 runs of 2 ranks).
# One process (or job) per mode and repetition, the modes' order rotated every repetition.
# mpirun runs with --bind-to none (the 2-thread rank needs both cores) and without
# --oversubscribe (which makes Open MPI's waits yield). Prints the markdown of
# benchmarks/RESULTS.md ("Data-parallel training") with the machine, the date, the load and
# the verdicts against the issue's targets. Installs the Debian packages it needs.
#
#   benchmarks/distributed/run.sh [repetitions] [epochs]   (default 5 and 3; env BUILD_DIR, JOBS (1))
#
# Not run by CI. Raw results go to $BUILD_DIR/distributed-results/.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
reps=${1:-5}
epochs=${2:-3}
jobs=${JOBS:-1}
build=${BUILD_DIR:-$root/build-distributed-bench}
out=$build/distributed-results
python=/usr/bin/python3   # Debian's, where python3-torch lives

packages=(g++ make cmake libboost-dev libxtensor-dev libxtensor-blas-dev libopenblas-dev libcereal-dev
          libbenchmark-dev zlib1g-dev libopenmpi-dev openmpi-bin dataset-fashion-mnist python3-numpy python3-torch)
source "$root/benchmarks/common.sh"
install_missing_packages "${packages[@]}"

cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG" \
  -DTYPEFLOW_BUILD_TESTS=OFF -DTYPEFLOW_BUILD_EXAMPLES=OFF -DTYPEFLOW_BUILD_BENCHMARKS=ON -DTYPEFLOW_WITH_MPI=ON >&2
cmake --build "$build" -j"$jobs" --target bench_distributed_flagship bench_allreduce_modes >&2
bench=$build/benchmarks/distributed/bench_distributed_flagship
rm -rf "$out"
mkdir -p "$out"

# MPIRUN_EXTRA: more mpirun flags, e.g. "--mca mpi_yield_when_idle 1" (waits that yield the
# core, for a loaded machine); recorded in machine.txt.
mpirun_flags=(--bind-to none ${MPIRUN_EXTRA:-})
[ "$(id -u)" -ne 0 ] || mpirun_flags+=(--allow-run-as-root)
export OMP_WAIT_POLICY=PASSIVE OMP_NUM_THREADS=1

{
  echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "nproc=$(OMP_NUM_THREADS= nproc)"
  echo "cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -1)"
  echo "gxx=$(g++ --version | head -1)"
  echo "mpi=$(mpirun --version | head -1)"
  echo "torch=$($python -c 'import torch; print(torch.__version__)')"
  echo "commit=$(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- include examples 2>/dev/null || echo ' (modified)')"
  echo "epochs=$epochs"
  echo "mpirun_flags=${mpirun_flags[*]}"
  echo "load_start=$(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/machine.txt"

# run MODE REP: one process (or job) of MODE, its output in $out/MODE.REP.txt, a failure's
# exit status recorded there (a program that misses its accuracy still timed its epochs)
run() {
  local mode=$1 rep=$2 log="$out/$1.$2.txt"
  echo "load $(cut -d' ' -f1 /proc/loadavg)" > "$log"
  run_mode "$mode" 2>&1 | tr '\r' '\n' | grep -v '^step ' >> "$log" || true
}
run_mode() {
  local status=0
  case $1 in
    tf_1x1) OPENBLAS_NUM_THREADS=1 mpirun "${mpirun_flags[@]}" -np 1 "$bench" "$epochs" ;;
    tf_1x2) OPENBLAS_NUM_THREADS=2 mpirun "${mpirun_flags[@]}" -np 1 "$bench" "$epochs" ;;
    tf_2x1) OPENBLAS_NUM_THREADS=1 mpirun "${mpirun_flags[@]}" -np 2 "$bench" "$epochs" ;;
    torch_ddp_2) $python "$here/ddp_pytorch.py" 2 "$epochs" ;;
    torch_1) $python "$here/ddp_pytorch.py" 1 "$epochs" ;;
  esac || status=$?
  [ "$status" -eq 0 ] || echo "exit status $status"
}

modes=(tf_1x1 tf_1x2 tf_2x1 torch_ddp_2 torch_1)
for r in $(seq 1 "$reps"); do
  echo "run.sh: repetition $r/$reps" >&2
  for k in $(seq 0 $(( ${#modes[@]} - 1 ))); do
    run "${modes[$(( (r + k) % ${#modes[@]} ))]}" "$r"
  done
done
# The gradient buffer's allreduce alone, in its three call patterns (allreduce_modes.cpp).
for r in 1 2; do
  mpirun "${mpirun_flags[@]}" -np 2 "$build/benchmarks/distributed/bench_allreduce_modes" >> "$out/allreduce_modes.log"
done
echo "load_end=$(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"

$python "$here/summarize.py" "$out"
