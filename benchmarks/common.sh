# benchmarks/common.sh — sourced by the benchmarks' run.sh scripts.

# install_missing_packages PKG...: installs with apt-get (through sudo unless root) the
# Debian packages of the list that are not installed; prints what it installs on stderr.
install_missing_packages() {
  local p missing=() as_root=()
  for p in "$@"; do
    [ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)" = installed ] || missing+=("$p")
  done
  [ ${#missing[@]} -gt 0 ] || return 0
  [ "$(id -u)" -eq 0 ] || as_root=(sudo)
  echo "run.sh: installing ${missing[*]}" >&2
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update >&2
  "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >&2
}

# openblas_core: the OpenBLAS kernels this run's processes use (typeflow's, the hand-written
# programs' and PyTorch's, which reaches OpenBLAS through libblas.so.3), for the machine line:
# "Haswell (OPENBLAS_CORETYPE=Haswell; OpenBLAS alone picks Cooperlake)", or the name alone
# when nothing overrides OpenBLAS's own choice.
#
# They matter: Debian's OpenBLAS 0.3.21 (DYNAMIC_ARCH) picks its kernels at load time from
# the CPU's family and model unless OPENBLAS_CORETYPE names them, and the machine of the
# 2026-12-04 runs sets OPENBLAS_CORETYPE=Haswell (AVX2) in its environment. On that 2-core
# AMD EPYC of family 26 (AVX-512), cblas_sgemm at 1 thread ran at 93-103 GFLOP/s with the
# Haswell kernels and at 146-177 with the Cooperlake ones OpenBLAS picks by itself (the
# GRU(128) step's shapes; benchmarks/RESULTS.md, "OpenBLAS's kernels").
# PyTorch's convolutions are oneDNN's, which choose their instructions themselves
# (onednn_isa below) whatever OPENBLAS_CORETYPE says; ONEDNN_MAX_CPU_ISA=AVX2 holds them to
# AVX2 as OPENBLAS_CORETYPE=Haswell holds OpenBLAS.
# The scripts keep the environment as they find it; set both variables to compare.
openblas_core() {
  local probe='import ctypes
lib = ctypes.CDLL("libopenblas.so.0")
lib.openblas_get_corename.restype = ctypes.c_char_p
print(lib.openblas_get_corename().decode())'
  local used own
  used=$(/usr/bin/python3 -c "$probe" 2>/dev/null || echo '?')
  if [ -z "${OPENBLAS_CORETYPE:-}" ]; then
    echo "$used"
    return
  fi
  own=$(env -u OPENBLAS_CORETYPE /usr/bin/python3 -c "$probe" 2>/dev/null || echo '?')
  echo "$used (OPENBLAS_CORETYPE=$OPENBLAS_CORETYPE; OpenBLAS alone picks $own)"
}

# onednn_isa: the instruction set PyTorch's oneDNN primitives use in this environment
# (ONEDNN_MAX_CPU_ISA caps it), as oneDNN's verbose mode names it: "Intel AVX2", or "Intel
# AVX-512 with ... Intel AMX ..." on the 2026-12-07 machine when nothing caps it.
onednn_isa() {
  local probe='import torch, torch.nn.functional as F
torch.set_num_threads(1)
F.conv2d(torch.zeros(32, 1, 28, 28), torch.zeros(32, 1, 3, 3), padding=1)'
  local isa
  isa=$(ONEDNN_VERBOSE=1 DNNL_VERBOSE=1 OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 -c "$probe" 2>/dev/null \
          | sed -n 's/^onednn_verbose,info,cpu,isa://p' | head -1)
  echo "${isa:-?}${ONEDNN_MAX_CPU_ISA:+ (ONEDNN_MAX_CPU_ISA=$ONEDNN_MAX_CPU_ISA)}"
}

# bench_pin: the CPU affinity of the measured processes, in the array `pin`, put before each
# timed command (the programs, the PyTorch scripts, the timed compiles; not the build).
#
# The two CPUs of the machine of the 2026-12-04 runs are not alike: the same compile is
# 1.5-1.6x slower on CPU 1 (benchmarks/RESULTS.md, "The machine's two CPUs"). A benchmark
# whose two programs ran one after the other could land on different CPUs, and the ratio
# then measured the CPUs. So by default every measured process runs on CPU 0
# (BENCH_CPU=0); set BENCH_CPU to another CPU, or to "none" to leave them to the scheduler.
# The machine line names the CPU (`pinned`). benchmarks/distributed/ does not pin: its
# ranks use both cores.
bench_pin() {
  BENCH_CPU=${BENCH_CPU:-0}
  pin=()
  if [ "$BENCH_CPU" != none ]; then
    command -v taskset > /dev/null || { echo "run.sh: BENCH_CPU needs taskset (util-linux)" >&2; exit 1; }
    taskset -c "$BENCH_CPU" true 2> /dev/null || { echo "run.sh: cannot pin to CPU $BENCH_CPU" >&2; exit 1; }
    pin=(taskset -c "$BENCH_CPU")
  fi
}
# pinning: what bench_pin chose, for the machine line ("CPU 0", or "no CPU in particular
# (not pinned)").
pinning() {
  if [ ${#pin[@]} -eq 0 ]; then echo "no CPU in particular (not pinned)"; else echo "CPU $BENCH_CPU"; fi
}
