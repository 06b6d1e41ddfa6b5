# scripts/common.sh — sourced by test.sh and run-example.sh: the repository root, the
# number of build jobs, and the configuration of the main build directory build/.
set -euo pipefail

TYPEFLOW_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# 2 cores: more jobs only make the compilers (heavy template code) fight for memory and CPU.
TYPEFLOW_JOBS=${TYPEFLOW_JOBS:-2}

# build/: optimized like a user's release build (-O2), with the tests and examples; further
# arguments go to cmake.
configure_main_build() {
  cmake -S "$TYPEFLOW_ROOT" -B "$TYPEFLOW_ROOT/build" \
    -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG" "$@"
}

# build_on_huge_pages <gcc|clang> <cmake --build arguments>: a build whose compiler takes
# its memory in transparent huge pages. A compile here spends 10-25% of its time in page
# faults, one per 4 KB page it touches, and where the kernel's THP mode is "madvise", as on
# CI's machines, memory gets huge pages only if it asks. glibc's tunable
# glibc.malloc.hugetlb=1 has malloc ask, which is all clang needs (a sixth of the page
# faults, 10-17% less compile time per test: benchmarks/RESULTS.md, "CI time: clang's heap on
# huge pages"). g++ maps its collector's pages itself: for gcc, scripts/hugepages.c is
# preloaded too and asks for those (a tenth to a quarter of the page faults, 10-20% less
# CPU: "CI time: g++'s collector on huge pages"); it does nothing for clang's faults, and is
# left out there. Nothing changes where the mode is "always" or "never". For builds, and for
# the tests that run the compiler themselves (TYPEFLOW_COMPILER_TEST_ENVIRONMENT): the other
# tests run without it (ASan wants its runtime loaded first).
build_on_huge_pages() {
  local compiler=$1 entries
  shift
  entries=$(huge_pages_environment "$compiler") || return
  (
    while IFS= read -r entry; do export "${entry?}"; done <<<"${entries//;/$'\n'}"
    cmake --build "$@"
  )
}

# huge_pages_environment <gcc|clang>: the environment of build_on_huge_pages, as the
# VAR=value;VAR=value list that CMake's ENVIRONMENT test property takes; each value extends
# the variable's value in this environment.
huge_pages_environment() {
  local compiler=$1 preload=""
  case "$compiler" in
    gcc) preload=$(huge_pages_preload) ;;
    clang) ;;
    *) echo "huge_pages_environment: the argument is gcc or clang, not '$compiler'" >&2; return 2 ;;
  esac
  local entries="GLIBC_TUNABLES=${GLIBC_TUNABLES:+$GLIBC_TUNABLES:}glibc.malloc.hugetlb=1"
  if [ -n "$preload" ] || [ -n "${LD_PRELOAD:-}" ]; then
    entries+=";LD_PRELOAD=${preload}${LD_PRELOAD:+${preload:+:}$LD_PRELOAD}"
  fi
  echo "$entries"
}

# huge_pages_preload: prints the path of scripts/hugepages.c built as a shared library
# (build-hugepages/), building it when it is missing or older than its source; prints
# nothing, with a warning, when it cannot be built (the build then runs without it).
huge_pages_preload() {
  local source="$TYPEFLOW_ROOT/scripts/hugepages.c"
  local library="$TYPEFLOW_ROOT/build-hugepages/libtypeflow_hugepages.so"
  if [ ! -f "$library" ] || [ "$source" -nt "$library" ]; then
    mkdir -p "$(dirname "$library")"
    if ! cc -O2 -Wall -Wextra -Werror -shared -fPIC -o "$library" "$source" -ldl >&2; then
      echo "warning: scripts/hugepages.c did not build; compiling without it" >&2
      rm -f "$library"
      return 0
    fi
  fi
  echo "$library"
}
