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
