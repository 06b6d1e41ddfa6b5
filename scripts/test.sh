#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run). Each stage builds only what it runs, and
# g++ compiles each unit test once:
#   1. build/      g++: every test (unit, compile-fail, header, consumer, docs and
#                  example tests); every test must pass; the examples at -O2 but the
#                  seq2seq copy example, the unit tests and that example at -O1 but those
#                  that build-clang/ compiles optimized, here at -O0;
#   2. build-asan/ clang 19, -O0: the unit tests that exercise memory (all but the static
#                  tests and the heavy ones whose kernels sanitized tests exercise) and the
#                  MPI tests, under AddressSanitizer and UBSan (but its per-access checks);
#   3. build-tsan/ g++: the thread tests (label "threads") under ThreadSanitizer;
#   4. build-clang/ clang 19, -O1/-O2, -Wall -Wextra -Werror: the unit tests that build-asan/
#                  leaves out, and the examples; the examples run but those labelled "long"
#                  (the CNN's training), which build/ runs;
#   5. build-fuzz/ the checkpoint loader, the saved model description reader and the data
#                  readers under libFuzzer (clang), each for a bounded time.
# The compilers run with their memory on huge pages (build_on_huge_pages, scripts/common.sh),
# in the builds and in build/'s tests that compile.
# Installs missing Debian packages first. Set TYPEFLOW_JOBS to change the parallelism (2).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$TYPEFLOW_ROOT"

bash scripts/install-deps.sh

# Every build links with lld: some 460 test and example programs, up to 100 MB of objects
# each under AddressSanitizer. GNU ld took 134 s to link build-asan/'s programs, lld 49 s;
# build/'s 77 and 36 s, build-clang/'s 29 and 21 s; in a whole run, where links go beside
# compiles, about 20 s of wall time (benchmarks/RESULTS.md, "CI time: the linker").
linker=-DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld

echo "=== build/: the full test suite, g++"
# Each unit test is compiled twice: once by g++ here, once by clang (sanitized in
# build-asan/ or optimized in build-clang/), so both compilers build and pass every test.
# clang compiles a sanitized test in half of g++'s time (measured: 12-19 s against 19-44 s
# at -O0), hence clang for the sanitizers. The benchmarks are built by their own
# benchmarks/*/run.sh, which run them; CI does not.
# The unit tests that build-clang/ compiles optimized are compiled here at -O0
# (TYPEFLOW_UNOPTIMIZED_CLANG_OPTIMIZED_TESTS): at -O2, half of g++'s time on a test went to
# the optimizer (-ftime-report on autodiff.extremum_gradient: 15 of 28.5 s), though at -O1
# the difference is within noise (benchmarks/RESULTS.md); each test is still built
# optimized by one compiler and unoptimized by the other.
# The tests it optimizes are compiled at -O1 (TYPEFLOW_LIGHTLY_OPTIMIZED_TESTS: 10-25% less
# compile time than -O2; up to a third less for some unrolled seq2seq graphs, nothing for
# others), and so is the seq2seq copy example; the other examples at -O2.
# The compile-fail cases and the consumer projects run g++ under ctest: they take the builds'
# huge pages too (TYPEFLOW_COMPILER_TEST_ENVIRONMENT).
configure_main_build "$linker" -DTYPEFLOW_BUILD_BENCHMARKS=OFF -DTYPEFLOW_UNOPTIMIZED_CLANG_OPTIMIZED_TESTS=ON \
  -DTYPEFLOW_LIGHTLY_OPTIMIZED_TESTS=ON "-DTYPEFLOW_COMPILER_TEST_ENVIRONMENT=$(huge_pages_environment gcc)"
build_on_huge_pages gcc build -j "$TYPEFLOW_JOBS"
ctest --test-dir build --output-on-failure --no-tests=error -j "$TYPEFLOW_JOBS"

echo "=== build-asan/: unit tests under AddressSanitizer and UBSan"
# -O0: the sanitizers see every access (nothing optimized away), and the tests compile in
# two thirds of -O1's time while they run in seconds. No debug information: line tables
# (-g1) cost 8-21% of a sanitized test's compile (benchmarks/RESULTS.md, "Debug builds").
# UBSan's reports still give the file and line (they are compiled into its checks), and
# ASan's stacks name each function; for ASan's lines, rebuild the test with
# -DCMAKE_CXX_FLAGS_DEBUG="-O0 -g1". The consumer, compile-fail and header tests check the
# build, not run-time behaviour: they run above.
# UBSan without its alignment, null and vptr checks (TYPEFLOW_SANITIZE_SKIP): they check
# nearly every member access and reference binding of the graph's templates, and cost 17%
# of the sanitized tests' compile and half to four fifths of their objects (five tests:
# 125 against 104 s of CPU; control.scan 79 against 17 MB; benchmarks/RESULTS.md, "CI time:
# UBSan's per-access checks"). ASan still stops at a null or wild access; the fuzzers
# (build-fuzz/), which read the files where a misaligned load could come from, keep all of
# UBSan.
cmake -S . -B build-asan "$linker" -DCMAKE_CXX_COMPILER=clang++-19 -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-O0 -g0" \
  -DTYPEFLOW_SANITIZE=ON -DTYPEFLOW_SANITIZE_SKIP=alignment,null,vptr -DTYPEFLOW_BUILD_EXAMPLES=OFF \
  -DTYPEFLOW_BUILD_BENCHMARKS=OFF
build_on_huge_pages clang build-asan -j "$TYPEFLOW_JOBS" --target typeflow_unit_tests
ctest --test-dir build-asan -L unit --output-on-failure --no-tests=error -j "$TYPEFLOW_JOBS"
# The MPI tests (label "mpi", 2 ranks each through mpiexec; an anchored label: "mpi" alone
# matches "compile-fail" too).
ctest --test-dir build-asan -L '^mpi$' --output-on-failure --no-tests=error -j "$TYPEFLOW_JOBS"

echo "=== build-tsan/: thread tests under ThreadSanitizer"
# Tests that run a session or a servable from many threads at once (typeflow_add_thread_test);
# a data race stops the test (TSAN_OPTIONS=halt_on_error=1). OpenBLAS, which is not
# instrumented, runs in the calling threads (OPENBLAS_NUM_THREADS=1). Both are set in the
# tests' environment by cmake/TypeflowTesting.cmake, so that ctest alone runs them so too.
cmake -S . -B build-tsan "$linker" -DCMAKE_CXX_COMPILER=g++ -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -g1" \
  -DTYPEFLOW_SANITIZE_THREAD=ON -DTYPEFLOW_BUILD_EXAMPLES=OFF -DTYPEFLOW_BUILD_BENCHMARKS=OFF \
  -DTYPEFLOW_BUILD_TOOLS=OFF
build_on_huge_pages gcc build-tsan -j "$TYPEFLOW_JOBS" --target typeflow_thread_tests
ctest --test-dir build-tsan -L threads --output-on-failure --no-tests=error -j "$TYPEFLOW_JOBS"

echo "=== build-clang/: the unsanitized unit tests and the examples built with clang 19"
# The same sources and warnings as build/, through clang's front end and libstdc++, the
# examples at -O2 and the tests at -O1 (TYPEFLOW_LIGHTLY_OPTIMIZED_TESTS); the
# unit tests build-asan/ compiled with clang are left out (TYPEFLOW_SKIP_SANITIZED_TESTS).
# Benchmarks are left out; the examples run as in build/ (the flagship trains one epoch).
# The examples share a precompiled <typeflow/typeflow.hpp> here (TYPEFLOW_PRECOMPILED_EXAMPLES:
# 1-2 s of each of some fifty compiles); build/ compiles each from its own includes.
cmake -S . -B build-clang "$linker" -DCMAKE_CXX_COMPILER=clang++-19 -DCMAKE_BUILD_TYPE=Release \
  "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG" -DTYPEFLOW_BUILD_BENCHMARKS=OFF -DTYPEFLOW_SKIP_SANITIZED_TESTS=ON \
  -DTYPEFLOW_PRECOMPILED_EXAMPLES=ON -DTYPEFLOW_LIGHTLY_OPTIMIZED_TESTS=ON
build_on_huge_pages clang build-clang -j "$TYPEFLOW_JOBS" --target typeflow_unit_tests_and_examples
# The examples labelled "long" (the CNN's minutes of training) are built, not run again.
ctest --test-dir build-clang -L "unit|example" -LE "docs|long" --output-on-failure --no-tests=error -j "$TYPEFLOW_JOBS"

# --- fuzzing (tests/fuzz/) ----------------------------------------------------------------------
echo "=== build-fuzz/: the checkpoint loader, the saved model description reader and the data readers under libFuzzer"
# clang's libFuzzer, with ASan and UBSan, starts each fuzzer from its committed corpus (valid
# and malformed inputs) and runs it for a bounded time; a crash, a sanitizer report, a leak,
# an allocation over 512 MB or an input slower than 10 s fails the run. New inputs go to
# build-fuzz/corpus-*-new. Each fuzzer is single-threaded, so the checkpoint loader
# (TYPEFLOW_FUZZ_SECONDS, 60; corpus tests/fuzz/corpus/) runs on one core while the saved
# model description reader (TYPEFLOW_FUZZ_DESCRIPTION_SECONDS, 30; tests/fuzz/corpus_saved_model/)
# and the data readers (TYPEFLOW_FUZZ_READERS_SECONDS, 30; IDX, .npy, .npz, TFRecord, CSV;
# tests/fuzz/corpus_readers/) run one after the other on the other.
cmake -S tests/fuzz -B build-fuzz "$linker" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Release
build_on_huge_pages clang build-fuzz -j "$TYPEFLOW_JOBS"
# fuzz <fuzzer> <name> <corpus> <seconds>: runs build-fuzz/<fuzzer> into
# build-fuzz/corpus-<name>-new, its output in build-fuzz/fuzz-<name>.log.
fuzz() {
  rm -rf "build-fuzz/corpus-$2-new" && mkdir -p "build-fuzz/corpus-$2-new"
  UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1" \
    "build-fuzz/$1" "build-fuzz/corpus-$2-new" "$3" \
    -max_total_time="$4" -rss_limit_mb=2048 -malloc_limit_mb=512 -timeout=10 \
    -print_final_stats=1 -artifact_prefix=build-fuzz/ >"build-fuzz/fuzz-$2.log" 2>&1
}
# report <name> <what> <status>: the end of the log, or, on failure, more of it and the culprit.
report() {
  if [ "$3" -ne 0 ]; then
    tail -n 80 "build-fuzz/fuzz-$1.log"
    echo "$2 fuzzing failed: the input is in build-fuzz/ (crash-*, leak-*, oom-*, timeout-*)"
    return 1
  fi
  echo "--- $2"
  tail -n 7 "build-fuzz/fuzz-$1.log"
}
fuzz checkpoint_loader_fuzz checkpoint-loader tests/fuzz/corpus "${TYPEFLOW_FUZZ_SECONDS:-60}" &
loader=$!
status_description=0 status_readers=0 status_loader=0
fuzz saved_model_description_fuzz saved-model tests/fuzz/corpus_saved_model \
  "${TYPEFLOW_FUZZ_DESCRIPTION_SECONDS:-30}" || status_description=$?
fuzz readers_fuzz readers tests/fuzz/corpus_readers "${TYPEFLOW_FUZZ_READERS_SECONDS:-30}" || status_readers=$?
wait "$loader" || status_loader=$?
failed=0
report checkpoint-loader "checkpoint loader" "$status_loader" || failed=1
report saved-model "saved model description" "$status_description" || failed=1
report readers "data readers" "$status_readers" || failed=1
[ "$failed" -eq 0 ] || exit 1
# --- end of fuzzing ---------------------------------------------------------------------------

echo "=== all tests passed"
