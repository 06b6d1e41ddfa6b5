#!/usr/bin/env bash
# What debug information costs a typeflow program's compile (benchmarks/RESULTS.md,
# "Debug builds"). Compiles each example below at -O0 with and without -g, with g++ and
# clang, one compile at a time, and prints a markdown table of CPU seconds, peak resident
# memory and the object's size. A compile that exceeds MEM_LIMIT_MB of address space fails
# ("over the limit") instead of waking the kernel's OOM killer.
#
#   benchmarks/compile/debug_info.sh
#   EXAMPLES="examples/flagship.cpp" COMPILERS="clang++-19" benchmarks/compile/debug_info.sh
#
# Environment:
#   EXAMPLES      sources under the repository (examples/flagship.cpp and
#                 examples/bidirectional_gru/train.cpp)
#   COMPILERS     (g++ clang++-19)
#   DEBUG_FLAGS   the debug settings compared, ';'-separated ("none;-g1;-g")
#   MEM_LIMIT_MB  address-space limit of a compile (12288)
#   BENCH_CPU     the CPU each compile runs on (0; "none": not pinned; benchmarks/common.sh)
set -u -o pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
EXAMPLES="${EXAMPLES:-examples/flagship.cpp examples/bidirectional_gru/train.cpp}"
COMPILERS="${COMPILERS:-g++ clang++-19}"
DEBUG_FLAGS="${DEBUG_FLAGS:-none;-g1;-g}"
MEM_LIMIT_MB="${MEM_LIMIT_MB:-12288}"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT

[[ -x /usr/bin/time ]] || { echo "debug_info.sh: needs /usr/bin/time (Debian package 'time')" >&2; exit 1; }
source "$ROOT/benchmarks/common.sh"
bench_pin

echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') on $(nproc) cores, typeflow at $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?'), -O0, one compile at a time, on $(pinning)."
echo
echo "| program | compiler | debug | CPU s | peak memory | object |"
echo "|---|---|---|---|---|---|"
for src in $EXAMPLES; do
  for cxx in $COMPILERS; do
    flags=(-std=c++20 -O0 -ftemplate-depth=4096 -I"$ROOT/include" -I"$ROOT/examples")
    if [[ "$cxx" == clang* ]]; then
      flags+=(-fbracket-depth=4096 -fno-relaxed-template-template-args
              -Wno-deprecated-no-relaxed-template-template-args)
    fi
    IFS=';' read -r -a settings <<< "$DEBUG_FLAGS"
    for g in "${settings[@]}"; do
      debug=()
      [[ "$g" != none ]] && read -r -a debug <<< "$g"
      rm -f "$OUT/o.o"
      ( ulimit -v $((MEM_LIMIT_MB * 1024))
        "${pin[@]}" /usr/bin/time -f "%U %S %M" -o "$OUT/time" \
          "$cxx" "${flags[@]}" "${debug[@]}" -c "$ROOT/$src" -o "$OUT/o.o" ) > "$OUT/log" 2>&1
      status=$?
      read -r user sys kb < <(tail -n 1 "$OUT/time")
      cpu=$(echo "$user + $sys" | bc)
      mem="$((kb / 1024)) MB"
      if [[ $status -eq 0 ]]; then
        object="$(( $(stat -c %s "$OUT/o.o") / 1048576 )) MB"
      else
        object="failed: over the ${MEM_LIMIT_MB} MB limit"
        grep -q -i "memory\|killed\|bad_alloc" "$OUT/log" || object="failed: $(grep -m1 error "$OUT/log")"
      fi
      echo "| \`$src\` | $cxx | $g | $cpu | $mem | $object |"
    done
  done
done
