#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run). Each stage builds only what it runs, and
# g++ compiles each unit test once:
#   1. build/      g++, -O2: every test (unit, compile-fail, header, consumer, docs and
#                  example tests); every test must pass; the unit tests that build-clang/
#                  compiles optimized are compiled here at -O0;
#   2. build-asan/ clang 19, -O0: the unit tests that exercise memory (all but the static
#                  tests and the heavy ones whose kernels sanitized tests exercise) and the
#                  MPI tests, under AddressSanitizer and UBSan;
#   3. build-tsan/ g++: the thread tests (label "threads") under ThreadSanitizer;
#   4. build-clang/ clang 19, -O2, -Wall -Wextra -Werror: the unit tests that build-asan/
#                  leaves out, and the examples; the examples run but those labelled "long"
#                  (the CNN's training), which build/ runs;
#   5. build-fuzz/ the checkpoint loader, the saved model description reader and the data
#                  readers under libFuzzer (clang), each for a bounded time.
# Installs missing Debian packages first. Set TYPEFLOW_JOBS to change the parallelism (2).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$TYPEFLOW_ROOT"

bash scripts/install-deps.sh

echo "=== build/: the full test suite, g++"
# Each unit test is compiled twice: once by g++ here, once by clang (sanitized in
# build-asan/ or optimized in build-clang/), so both compilers build and pass every test.
# clang compiles a sanitized test in half of g++'s time (measured: 12-19 s against 19-44 s
# at -O0), hence clang for the sanitizers. The benchmarks are built by their own
# benchmarks/*/run.sh, which run them; CI does not.
# The unit tests that build-clang/ compiles optimized are compiled here at -O0
# (TYPEFLOW_UNOPTIMIZED_CLANG_OPTIMIZED_TESTS): half of g++'s time on a test goes to the
# optimizer (-ftime-report on autodiff.extremum_gradient: 15 of 28.5 s), and each test is
# still built optimized by one compiler and unoptimized by the other.
configure_main_build -DTYPEFLOW_BUILD_BENCHMARKS=OFF -DTYPEFLOW_UNOPTIMIZED_CLANG_OPTIMIZED_TESTS=ON
cmake --build build -j "$TYPEFLOW_JOBS"
ctest --test-dir build --output-on-failure --no-tests=error -j "$TYPEFLOW_JOBS"

echo "=== build-asan/: unit tests under AddressSanitizer and UBSan"
# -O0: the sanitizers see every access (nothing optimized away), and the tests compile in
# two thirds of -O1's time while they run in seconds; -g1 gives line numbers in the
# reports. The consumer, compile-fail and header tests check the build, not run-time
# behaviour: they run above.
cmake -S . -B build-asan -DCMAKE_CXX_COMPILER=clang++-19 -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-O0 -g1" \
  -DTYPEFLOW_SANITIZE=ON -DTYPEFLOW_BUILD_EXAMPLES=OFF -DTYPEFLOW_BUILD_BENCHMARKS=OFF
cmake --build build-asan -j "$TYPEFLOW_JOBS" --target typeflow_unit_tests
ctest --test-dir build-asan -L unit --output-on-failure --no-tests=error -j "$TYPEFLOW_JOBS"
# The MPI tests (label "mpi", 2 ranks each through mpiexec; an anchored label: "mpi" alone
# matches "compile-fail" too).
ctest --test-dir build-asan -L '^mpi$' --output-on-failure --no-tests=error -j "$TYPEFLOW_JOBS"

echo "=== build-tsan/: thread tests under ThreadSanitizer"
# Tests that run a session or a servable from many threads at once (typeflow_add_thread_test);
# a data race stops the test (TSAN_OPTIONS=halt_on_error=1). OpenBLAS, which is not
# instrumented, runs in the calling threads (OPENBLAS_NUM_THREADS=1). Both are set in the
# tests' environment by cmake/TypeflowTesting.cmake, so that ctest alone runs them so too.
cmake -S . -B build-tsan -DCMAKE_CXX_COMPILER=g++ -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -g1" \
  -DTYPEFLOW_SANITIZE_THREAD=ON -DTYPEFLOW_BUILD_EXAMPLES=OFF -DTYPEFLOW_BUILD_BENCHMARKS=OFF \
  -DTYPEFLOW_BUILD_TOOLS=OFF
cmake --build build-tsan -j "$TYPEFLOW_JOBS" --target typeflow_thread_tests
ctest --test-dir build-tsan -L threads --output-on-failure --no-tests=error -j "$TYPEFLOW_JOBS"

echo "=== build-clang/: the unsanitized unit tests and the examples built with clang 19"
# The same sources and warnings as build/, through clang's front end and libstdc++, -O2; the
# unit tests build-asan/ compiled with clang are left out (TYPEFLOW_SKIP_SANITIZED_TESTS).
# Benchmarks are left out; the examples run as in build/ (the flagship trains one epoch).
cmake -S . -B build-clang -DCMAKE_CXX_COMPILER=clang++-19 -DCMAKE_BUILD_TYPE=Release \
  "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG" -DTYPEFLOW_BUILD_BENCHMARKS=OFF -DTYPEFLOW_SKIP_SANITIZED_TESTS=ON
cmake --build build-clang -j "$TYPEFLOW_JOBS" --target typeflow_unit_tests typeflow_examples
# The examples labelled "long" (the CNN's minutes of training) are built, not run again.
ctest --test-dir build-clang -L "unit|example" -LE "docs|long" --output-on-failure --no-tests=error -j "$TYPEFLOW_JOBS"

# --- fuzzing (tests/fuzz/) ----------------------------------------------------------------------
echo "=== build-fuzz/: the checkpoint loader under libFuzzer, ASan and UBSan, for a bounded time"
# clang's libFuzzer starts from the committed corpus (valid and malformed checkpoints) and runs
# for TYPEFLOW_FUZZ_SECONDS (60); a crash, a sanitizer report, a leak, an allocation over
# 512 MB or an input slower than 10 s fails the run. New inputs go to build-fuzz/corpus-new.
cmake -S tests/fuzz -B build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Release
cmake --build build-fuzz -j "$TYPEFLOW_JOBS"
rm -rf build-fuzz/corpus-new && mkdir -p build-fuzz/corpus-new
if ! UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1" \
  build-fuzz/checkpoint_loader_fuzz build-fuzz/corpus-new tests/fuzz/corpus \
  -max_total_time="${TYPEFLOW_FUZZ_SECONDS:-60}" -rss_limit_mb=2048 -malloc_limit_mb=512 -timeout=10 \
  -print_final_stats=1 -artifact_prefix=build-fuzz/ >build-fuzz/fuzz.log 2>&1; then
  tail -n 80 build-fuzz/fuzz.log
  echo "checkpoint loader fuzzing failed: the input is in build-fuzz/ (crash-*, leak-*, oom-*, timeout-*)"
  exit 1
fi
tail -n 7 build-fuzz/fuzz.log

echo "=== build-fuzz/: the saved model description reader under libFuzzer, for a bounded time"
# The same rules, on saved_model.json (corpus: tests/fuzz/corpus_saved_model/), for
# TYPEFLOW_FUZZ_DESCRIPTION_SECONDS (30).
rm -rf build-fuzz/corpus-saved-model-new && mkdir -p build-fuzz/corpus-saved-model-new
if ! UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1" \
  build-fuzz/saved_model_description_fuzz build-fuzz/corpus-saved-model-new tests/fuzz/corpus_saved_model \
  -max_total_time="${TYPEFLOW_FUZZ_DESCRIPTION_SECONDS:-30}" -rss_limit_mb=2048 -malloc_limit_mb=512 -timeout=10 \
  -print_final_stats=1 -artifact_prefix=build-fuzz/ >build-fuzz/fuzz-saved-model.log 2>&1; then
  tail -n 80 build-fuzz/fuzz-saved-model.log
  echo "saved model description fuzzing failed: the input is in build-fuzz/ (crash-*, leak-*, oom-*, timeout-*)"
  exit 1
fi
tail -n 7 build-fuzz/fuzz-saved-model.log
echo "=== build-fuzz/: the data readers under libFuzzer, for a bounded time"
# The same rules, on the readers (IDX, .npy, .npz, TFRecord, CSV; corpus: tests/fuzz/corpus_readers/),
# for TYPEFLOW_FUZZ_READERS_SECONDS (30).
rm -rf build-fuzz/corpus-readers-new && mkdir -p build-fuzz/corpus-readers-new
if ! UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1" \
  build-fuzz/readers_fuzz build-fuzz/corpus-readers-new tests/fuzz/corpus_readers \
  -max_total_time="${TYPEFLOW_FUZZ_READERS_SECONDS:-30}" -rss_limit_mb=2048 -malloc_limit_mb=512 -timeout=10 \
  -print_final_stats=1 -artifact_prefix=build-fuzz/ >build-fuzz/fuzz-readers.log 2>&1; then
  tail -n 80 build-fuzz/fuzz-readers.log
  echo "data readers fuzzing failed: the input is in build-fuzz/ (crash-*, leak-*, oom-*, timeout-*)"
  exit 1
fi
tail -n 7 build-fuzz/fuzz-readers.log
# --- end of fuzzing ---------------------------------------------------------------------------

echo "=== all tests passed"
