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

# clang_build <cmake --build arguments>: a build whose compiler is clang, with its heap on
# transparent huge pages. clang takes its memory from malloc, and glibc's tunable
# glibc.malloc.hugetlb=1 makes malloc ask the kernel for huge pages (madvise), which it gives
# where its THP mode is "madvise", as on CI's machines: a sixth of the page faults and 10-17%
# less compile time per test (benchmarks/RESULTS.md, "CI time: clang's heap on huge pages").
# Nothing changes where the mode is "always" or "never". g++ maps its collector's pages
# itself, and gains nothing from it.
clang_build() {
  GLIBC_TUNABLES="${GLIBC_TUNABLES:+$GLIBC_TUNABLES:}glibc.malloc.hugetlb=1" cmake --build "$@"
}
