#!/usr/bin/env bash
# benchmarks/rnn/run.sh — the recurrent models' benchmarks, side by side in one run:
#   1. one training step of the TensorFlow 1.x question's model (bidirectional GRU(10) over
#      [32, 10, 30], mean over time, dense 5, softmax cross-entropy, Adam): typeflow
#      (bigru_typeflow.cpp) vs PyTorch (pytorch_rnn.py bigru);
#   2. one training step of a GRU(128) over [64, 50, 64], last state into dense 10: typeflow
#      (gru128_typeflow.cpp, also its forward pass alone) vs PyTorch, and this machine's
#      cblas_sgemm rate at the step's matrix shapes (sgemm_rate.cpp) for the gemm bound;
#   3. compile time and compiler peak memory (/usr/bin/time -v) of bigru_typeflow.cpp, of
#      gru128_typeflow.cpp with the sequence length 10 and 50, and of static_rnn_compile.cpp
#      (static_rnn of 8 steps of a 2-layer GRU; also with <typeflow/tu_local.hpp>), interleaved;
#   4. cblas_sgemm with beta = 0 against memset and beta = 1, as typeflow calls it (sgemm_rate.cpp).
# Everything at 1 thread (OPENBLAS_NUM_THREADS=1, torch.set_num_threads(1), OMP_NUM_THREADS=1);
# one process per run, the order rotated each repetition. Prints the markdown of
# benchmarks/RESULTS.md ("Recurrent models") with the machine, the date, the load and the
# verdict against each target. Installs the Debian packages it needs.
#
#   benchmarks/rnn/run.sh [repetitions]      (default 5; env BUILD_DIR, COMPILE_REPS (3),
#                                             STATIC_COMPILE_REPS (COMPILE_REPS),
#                                             STATIC_COMPILE_CPU_LIMIT (300 s: 10x its budget), JOBS (1),
#                                             BENCH_CPU (0: every measured process on CPU 0;
#                                             "none" to leave them unpinned; common.sh))
#
# Not run by CI. Raw results go to $BUILD_DIR/rnn-results/.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
reps=${1:-5}
compile_reps=${COMPILE_REPS:-3}
static_compile_reps=${STATIC_COMPILE_REPS:-$compile_reps}  # static_rnn's compile is the long one
static_cpu_limit=${STATIC_COMPILE_CPU_LIMIT:-300}  # seconds of CPU after which its compiler is stopped
jobs=${JOBS:-1}
build=${BUILD_DIR:-$root/build-rnn}
out=$build/rnn-results
python=/usr/bin/python3   # Debian's, where python3-torch lives

# --- Debian packages ----------------------------------------------------------------------
packages=(g++ make cmake libboost-dev libxtensor-dev libxtensor-blas-dev libopenblas-dev libcereal-dev
          libbenchmark-dev python3-torch python3-numpy time)
source "$root/benchmarks/common.sh"
bench_pin  # the measured processes on one CPU (BENCH_CPU, default 0; common.sh)
install_missing_packages "${packages[@]}"

# --- build: Release at -O2 (CMake's Release default is -O3), one job by default ----------------
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG" \
  -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DTYPEFLOW_BUILD_TESTS=OFF -DTYPEFLOW_BUILD_EXAMPLES=OFF >&2
# static_rnn_compile.cpp is compiled only by part 3 (its target is out of `all`): its compile is long.
targets=(bench_rnn_bigru_typeflow bench_rnn_gru128_typeflow bench_rnn_sgemm)
cmake --build "$build" -j"$jobs" --target "${targets[@]}" >&2
bin=$build/benchmarks/rnn
rm -rf "$out"
mkdir -p "$out"
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 OMP_WAIT_POLICY=PASSIVE

# --- the machine ------------------------------------------------------------------------------
{
  echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "nproc=$(OMP_NUM_THREADS= nproc)"  # nproc obeys OMP_NUM_THREADS, exported above
  echo "cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -1)"
  echo "gxx=$(g++ --version | head -1)"
  echo "openblas=$(dpkg-query -W -f='${Version}' libopenblas0-pthread 2>/dev/null || echo '?')"
  echo "openblas_core=$(openblas_core)"
  echo "pinned=$(pinning)"
  echo "torch=$($python -c 'import torch; print(torch.__version__)')"
  echo "commit=$(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- include 2>/dev/null || echo ' (include/ modified)')"
  echo "static_compile_cpu_limit=$static_cpu_limit"
  echo "load_start=$(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/machine.txt"

# --- 1 and 2. training steps ------------------------------------------------------------------
run_one() {  # impl rep
  local impl=$1 r=$2 line
  case $impl in
    bigru_typeflow)   line=$("${pin[@]}" "$bin/bench_rnn_bigru_typeflow" 5 500 50) ;;
    bigru_pytorch)    line=$("${pin[@]}" $python "$here/pytorch_rnn.py" bigru 5 100 10) ;;
    gru128_typeflow)  line=$("${pin[@]}" "$bin/bench_rnn_gru128_typeflow" train 5 10 3) ;;
    gru128_forward)   line=$("${pin[@]}" "$bin/bench_rnn_gru128_typeflow" forward 5 10 3) ;;
    gru128_pytorch)   line=$("${pin[@]}" $python "$here/pytorch_rnn.py" gru128 5 10 3) ;;
    sgemm)            line=$("${pin[@]}" "$bin/bench_rnn_sgemm" 7 1000) ;;
  esac
  echo "{\"rep\": $r, \"load\": \"$(cut -d' ' -f1 /proc/loadavg)\", \"result\": $line}" >> "$out/steps.jsonl"
  echo "run.sh:   $impl: $line" >&2
}
bigru=(bigru_typeflow bigru_pytorch)
gru128=(gru128_typeflow gru128_pytorch gru128_forward sgemm)
for r in $(seq 1 "$reps"); do
  echo "run.sh: training steps, repetition $r/$reps" >&2
  for k in 0 1; do run_one "${bigru[$(( (r + k) % 2 ))]}" "$r"; done
  for k in 0 1 2 3; do run_one "${gru128[$(( (r + k) % 4 ))]}" "$r"; done
done

# --- 3. compile time and memory ---------------------------------------------------------------
compile_command() {  # name extra-flag: the exact command CMake uses for benchmarks/rnn/$1.cpp
  $python - "$build/compile_commands.json" "$1" "$2" "$out" <<'PY'
import json, shlex, sys
db, name, extra, out = sys.argv[1:]
for e in json.load(open(db)):
    if e["file"].endswith(f"/benchmarks/rnn/{name}.cpp"):
        args = shlex.split(e["command"])
        args[args.index("-o") + 1] = f"{out}/{name}.o"
        if extra:
            args.insert(1, extra)
        print(e["directory"])
        print(shlex.join(args))
        break
else:
    sys.exit(f"no compile command for {name}")
PY
}
# label source extra-flag
subjects=("bigru bigru_typeflow -" "gru128_t10 gru128_typeflow -DGRU128_TIME=10"
          "gru128_t50 gru128_typeflow -DGRU128_TIME=50" "static_rnn static_rnn_compile -"
          "static_rnn_tu_local static_rnn_compile -DSTATIC_RNN_TU_LOCAL")
for r in $(seq 1 "$compile_reps"); do
  for k in 0 1 2 3 4; do
    read -r label src flag <<< "${subjects[$(( (r + k) % 5 ))]}"
    [ "$flag" = - ] && flag=
    if [[ "$label" == static_rnn* ]] && [ "$r" -gt "$static_compile_reps" ]; then continue; fi
    echo "run.sh: compiling $label ($src.cpp $flag), repetition $r/$compile_reps" >&2
    { read -r dir; read -r cmd; } < <(compile_command "$src" "$flag")
    limit=unlimited
    [[ "$label" == static_rnn* ]] && limit=$static_cpu_limit
    # ulimit -t: the compiler is stopped (SIGXCPU) past the limit; the result is then a lower bound.
    (cd "$dir" && ulimit -t "$limit" && eval "${pin[*]} /usr/bin/time -v $cmd") 2> "$out/compile_${label}_$r.txt" ||
      echo "run.sh:   $label: the compiler stopped or failed (see $out/compile_${label}_$r.txt)" >&2
  done
done
echo "load_end=$(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"

$python "$here/summarize.py" "$out"

# --- 4. beta = 0 against memset and beta = 1 (ops::detail::gemm's way), after the rest -------
echo
echo '**4. cblas_sgemm with beta = 0 against memset and beta = 1** (`bench_rnn_sgemm beta`, CPU time, median of 7, interleaved)'
echo
echo '```'
"${pin[@]}" "$bin/bench_rnn_sgemm" beta 7
echo '```'
