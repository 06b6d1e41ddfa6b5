#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run):
#   1. build/      -O2 build of everything (unit, compile-fail, header, consumer, docs and
#                  example tests); every test must pass;
#   2. build-asan/ the unit tests again under AddressSanitizer and UBSan.
# Installs missing Debian packages first. Set TYPEFLOW_JOBS to change the parallelism (2).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$TYPEFLOW_ROOT"

bash scripts/install-deps.sh

echo "=== build/: the full test suite"
configure_main_build
cmake --build build -j "$TYPEFLOW_JOBS"
ctest --test-dir build --output-on-failure --no-tests=error -j "$TYPEFLOW_JOBS"

echo "=== build-asan/: unit tests under AddressSanitizer and UBSan"
# -O1 keeps the sanitized tests fast; -g1 gives line numbers in the reports. The consumer,
# compile-fail and header tests check the build, not run-time behaviour: they run above.
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -g1" \
  -DTYPEFLOW_SANITIZE=ON -DTYPEFLOW_BUILD_EXAMPLES=OFF -DTYPEFLOW_BUILD_BENCHMARKS=OFF
cmake --build build-asan -j "$TYPEFLOW_JOBS" --target typeflow_unit_tests
ctest --test-dir build-asan -L unit --output-on-failure --no-tests=error -j "$TYPEFLOW_JOBS"

echo "=== all tests passed"
