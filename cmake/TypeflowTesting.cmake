# TypeflowTesting.cmake — helpers for typeflow's own tests and examples (not installed).
#
#   typeflow_configure_target(<target>)
#       standard C++ without GNU extensions, warnings as errors (GCC/Clang), and the
#       sanitizers when TYPEFLOW_SANITIZE is ON (ThreadSanitizer when TYPEFLOW_SANITIZE_THREAD is).
#   typeflow_add_test(<name> <source>...)
#       a doctest executable <name> sharing one compiled main; ctest test <name>, label "unit".
#   typeflow_add_thread_test(<name> <source>...)
#       a unit test whose code runs from several threads at once: typeflow_add_test, plus
#       the label "threads", and a place in the target typeflow_thread_tests. The
#       ThreadSanitizer build (TYPEFLOW_SANITIZE_THREAD) builds that target and runs
#       `ctest -L threads`: every test is defined there, only these are built and run.
#   typeflow_add_static_test(<name> <source>...)
#       a static test: a page of static_assert, so that a broken rule fails the build, and a
#       doctest executable with one test case that checks the same rules at run time.
#       typeflow_add_test, left out of the sanitizer build (compile-time rules: nothing for
#       the sanitizers to see at run time). It lives in the folder of what it tests.
#   typeflow_add_compile_fail_test(<name> <source> <regex> [DOCS] [MAX_LINES <n>] [MAX_BYTES <b>] [MAX_SECONDS <s>])
#       <source> (relative to tests/compile_fail/, or an absolute path such as a layer's
#       tests/<folder>/compile_fail/<case>.cpp, or docs/compile-errors/<case>.cpp) must fail
#       to compile; ctest test compile_fail.<name>, label "compile-fail", builds it once and
#       checks the output (cmake/TypeflowCompileFail.cmake): it matches <regex> (may be
#       empty with DOCS); with DOCS, it prints every line the docs show for <source> (label
#       "docs" too); MAX_LINES, MAX_BYTES and MAX_SECONDS bound the whole build output of
#       the failure (the build tool's lines included) and its wall time: one error, then stop.
#   typeflow_add_header_tests(<include dir>)
#       one TU per header, each including only that header: OBJECT target typeflow_header_tests.
#
# All unit-test executables are collected by the target typeflow_unit_tests, so a build
# can make just them (scripts/test.sh does so for the sanitizer build).
#
# TYPEFLOW_SKIP_SANITIZED_TESTS (cache, OFF): an unsanitized build leaves out the unit tests
# that the sanitizer build (TYPEFLOW_SANITIZE) runs. CI sets it for build-clang/, whose unit
# tests would otherwise be compiled twice by clang: the sanitized ones run in build-asan/,
# built by clang too.
#
# TYPEFLOW_UNOPTIMIZED_CLANG_OPTIMIZED_TESTS (cache, OFF): this build compiles at -O0 the
# unit tests that the sanitizer build leaves out, since build-clang/ compiles those at -O2;
# a folder keeps some optimized by listing them in TYPEFLOW_OPTIMIZED_TESTS. CI sets it for
# build/ (g++): at -O2, g++ spent half of one test's compile optimizing (extremum_gradient);
# at -O1 the optimizer's share is within the machine's noise for the tests measured since
# (benchmarks/RESULTS.md, "CI time: g++'s collector on huge pages"). Every unit test is
# still built once optimized (g++ in build/ or clang in build-clang/) and once unoptimized
# (clang under the sanitizers in build-asan/, or g++ here).
#
# TYPEFLOW_COMPILER_TEST_ENVIRONMENT (cache, empty): VAR=value entries set for the tests that
# run the compiler themselves, the compile-fail cases and the consumer projects. CI gives g++
# its huge pages there as in its builds (scripts/test.sh, huge_pages_environment): 29 of the
# cases, one at a time, ran in 30.4-31.3 s against 35.1-36.4 s without.
#
# TYPEFLOW_LIGHTLY_OPTIMIZED_TESTS (cache, OFF): an unsanitized build compiles at -O1, not
# at its build type's level, the unit tests it optimizes, those a folder lists in
# TYPEFLOW_OPTIMIZED_TESTS included (the g++-only seq2seq tests), and the seq2seq copy
# example (examples/CMakeLists.txt); the other examples keep the build type's -O2. CI sets
# it for build/ and build-clang/: g++ 12 and clang 19 compile a test 10-25% faster at -O1
# than at -O2 (with the precompiled header: conv_gradient_test 35.6 against 27.4 s,
# scan_test 30.7 against 24.9 s, g++), up to a third faster for some unrolled graphs
# (examples/seq2seq_copy.cpp 221-256 against 177-183 s, embedding_seq2seq_test 46-52
# against 36 s; the port 3%, buckets_test none: benchmarks/RESULTS.md, "CI time: the
# unrolled graphs at -O1"), and the tests are still built optimized; -O2's own warnings
# and code are the other examples' (each compiled at -O2 by both compilers, the seq2seq
# decoders and losses among them).

include_guard(GLOBAL)

set(TYPEFLOW_WARNING_FLAGS
    "$<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang,AppleClang>:-Wall;-Wextra;-Werror>")
# GCC and Clang spellings (TYPEFLOW_SANITIZE is for those compilers).
set(TYPEFLOW_SANITIZER_FLAGS
    -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
# TYPEFLOW_SANITIZE_SKIP (cache, ""): UBSan checks left out, for a cheaper sanitizer build
# (scripts/test.sh says which and why).
if(TYPEFLOW_SANITIZE_SKIP)
  list(APPEND TYPEFLOW_SANITIZER_FLAGS -fno-sanitize=${TYPEFLOW_SANITIZE_SKIP})
endif()
if(TYPEFLOW_SANITIZE_THREAD)
  if(TYPEFLOW_SANITIZE)
    message(FATAL_ERROR "TYPEFLOW_SANITIZE and TYPEFLOW_SANITIZE_THREAD cannot be combined: "
                        "ThreadSanitizer does not run with AddressSanitizer; use two build trees")
  endif()
  set(TYPEFLOW_SANITIZER_FLAGS -fsanitize=thread -fno-omit-frame-pointer)
endif()

function(typeflow_configure_target target)
  set_target_properties(${target} PROPERTIES CXX_EXTENSIONS OFF)
  target_compile_options(${target} PRIVATE ${TYPEFLOW_WARNING_FLAGS})
  if(TYPEFLOW_WITHOUT_GRAPH_REWRITES)  # every run evaluates its fetches as written
    target_compile_definitions(${target} PRIVATE TYPEFLOW_NO_GRAPH_REWRITES)
  endif()
  if(TYPEFLOW_SANITIZE OR TYPEFLOW_SANITIZE_THREAD)
    target_compile_options(${target} PRIVATE ${TYPEFLOW_SANITIZER_FLAGS})
    get_target_property(type ${target} TYPE)
    if(NOT type STREQUAL "OBJECT_LIBRARY")
      target_link_options(${target} PRIVATE ${TYPEFLOW_SANITIZER_FLAGS})
    endif()
  endif()
endfunction()

# Environment for running sanitized programs: a report stops the test with a stack trace.
# The trace names its functions only through llvm-symbolizer, which clang 19's runtime does
# not find on Debian unless told where it is (its frames are then bare addresses):
# ASAN_SYMBOLIZER_PATH and UBSAN_SYMBOLIZER_PATH point it at the one found here.
# Under ThreadSanitizer, OpenBLAS computes in the calling thread: it is not instrumented,
# and its worker threads hand buffers over by synchronization the tool cannot see (false
# reports), while the accesses that matter are typeflow's, in the callers' threads.
if(TYPEFLOW_SANITIZE AND CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  string(REGEX MATCH "^[0-9]+" typeflow_clang_major "${CMAKE_CXX_COMPILER_VERSION}")
  find_program(TYPEFLOW_LLVM_SYMBOLIZER NAMES llvm-symbolizer-${typeflow_clang_major} llvm-symbolizer
               DOC "llvm-symbolizer, for the sanitized tests' stack traces")
endif()
function(typeflow_set_test_environment test)
  if(TYPEFLOW_SANITIZE)
    set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT
      "ASAN_OPTIONS=detect_leaks=1" "UBSAN_OPTIONS=print_stacktrace=1")
    if(TYPEFLOW_LLVM_SYMBOLIZER)
      set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT
        "ASAN_SYMBOLIZER_PATH=${TYPEFLOW_LLVM_SYMBOLIZER}" "UBSAN_SYMBOLIZER_PATH=${TYPEFLOW_LLVM_SYMBOLIZER}")
    endif()
  elseif(TYPEFLOW_SANITIZE_THREAD)
    set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT
      "TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1" "OPENBLAS_NUM_THREADS=1")
  endif()
endfunction()

# --- doctest unit tests ----------------------------------------------------------------

if(TYPEFLOW_BUILD_TESTS)
  # Found here, at the top level, so that doctest::doctest is visible in every test dir.
  find_package(doctest REQUIRED)
  # doctest's main() is compiled once and linked into every test executable.
  add_library(typeflow_doctest_main OBJECT "${PROJECT_SOURCE_DIR}/tests/doctest_main.cpp")
  target_link_libraries(typeflow_doctest_main PUBLIC doctest::doctest)
  target_compile_features(typeflow_doctest_main PRIVATE cxx_std_20)
  typeflow_configure_target(typeflow_doctest_main)
  add_custom_target(typeflow_unit_tests)
  add_custom_target(typeflow_thread_tests)

  # One precompiled header for every unit test: parsing typeflow, xtensor, Boost and
  # doctest is a third of a test's compile time, and there are many small tests.
  file(WRITE "${PROJECT_BINARY_DIR}/typeflow_pch.cpp" "// the precompiled header's own TU\n")
  add_library(typeflow_test_pch OBJECT "${PROJECT_BINARY_DIR}/typeflow_pch.cpp")
  target_link_libraries(typeflow_test_pch PUBLIC typeflow::typeflow doctest::doctest)
  typeflow_configure_target(typeflow_test_pch)
  target_precompile_headers(typeflow_test_pch PRIVATE <typeflow/typeflow.hpp> <doctest/doctest.h>)
  # TYPEFLOW_LIGHTLY_OPTIMIZED_TESTS applies to unsanitized builds only.
  set(typeflow_tests_at_O1 FALSE)
  if(TYPEFLOW_LIGHTLY_OPTIMIZED_TESTS AND NOT TYPEFLOW_SANITIZE AND NOT TYPEFLOW_SANITIZE_THREAD)
    set(typeflow_tests_at_O1 TRUE)
    # The tests compiled at -O1 take the precompiled header made at -O1.
    target_compile_options(typeflow_test_pch PRIVATE -O1)
  endif()
  if(TYPEFLOW_UNOPTIMIZED_CLANG_OPTIMIZED_TESTS)
    # The same header for the tests compiled at -O0: a precompiled header is only used
    # with the optimization level it was made with.
    add_library(typeflow_test_pch_O0 OBJECT "${PROJECT_BINARY_DIR}/typeflow_pch.cpp")
    target_link_libraries(typeflow_test_pch_O0 PUBLIC typeflow::typeflow doctest::doctest)
    typeflow_configure_target(typeflow_test_pch_O0)
    target_compile_options(typeflow_test_pch_O0 PRIVATE -O0)
    target_precompile_headers(typeflow_test_pch_O0 PRIVATE <typeflow/typeflow.hpp> <doctest/doctest.h>)
  endif()
endif()

function(typeflow_add_test name)
  if(ARGC LESS 2)
    message(FATAL_ERROR "typeflow_add_test(${name}): give at least one source file")
  endif()
  # A directory may set TYPEFLOW_SANITIZED_TESTS to the names of its tests that the
  # sanitizer build runs; the others (heavy to compile, and exercising the same kernels
  # as the ones listed) are built and run only by unsanitized builds. With
  # TYPEFLOW_SKIP_SANITIZED_TESTS, an unsanitized build leaves out the ones the sanitizer
  # build runs, so that CI compiles each unit test once with each compiler (scripts/test.sh).
  set(sanitized TRUE)
  if(DEFINED TYPEFLOW_SANITIZED_TESTS AND NOT name IN_LIST TYPEFLOW_SANITIZED_TESTS)
    set(sanitized FALSE)
  endif()
  if(TYPEFLOW_SANITIZE AND NOT sanitized)
    return()
  endif()
  if(TYPEFLOW_SKIP_SANITIZED_TESTS AND sanitized AND NOT TYPEFLOW_SANITIZE AND NOT TYPEFLOW_SANITIZE_THREAD)
    return()
  endif()
  add_executable(${name} ${ARGN})
  target_link_libraries(${name} PRIVATE typeflow::typeflow typeflow_doctest_main)
  typeflow_configure_target(${name})
  # TYPEFLOW_UNOPTIMIZED_CLANG_OPTIMIZED_TESTS: a test that the sanitizer build leaves out
  # is compiled optimized by build-clang/, so build/ compiles it at -O0 (unless the folder
  # lists it in TYPEFLOW_OPTIMIZED_TESTS: training loops that are slow unoptimized).
  if(TYPEFLOW_UNOPTIMIZED_CLANG_OPTIMIZED_TESTS AND NOT sanitized AND NOT TYPEFLOW_SANITIZE
     AND NOT TYPEFLOW_SANITIZE_THREAD AND NOT name IN_LIST TYPEFLOW_OPTIMIZED_TESTS)
    target_compile_options(${name} PRIVATE -O0)
    target_precompile_headers(${name} REUSE_FROM typeflow_test_pch_O0)
  elseif(typeflow_tests_at_O1)
    target_compile_options(${name} PRIVATE -O1)
    target_precompile_headers(${name} REUSE_FROM typeflow_test_pch)
  else()
    target_precompile_headers(${name} REUSE_FROM typeflow_test_pch)
  endif()
  add_dependencies(typeflow_unit_tests ${name})
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES LABELS unit)
  typeflow_set_test_environment(${name})
endfunction()

function(typeflow_add_thread_test name)
  typeflow_add_test(${name} ${ARGN})
  if(TARGET ${name})  # not when TYPEFLOW_SANITIZED_TESTS leaves it out of the ASan build
    set_tests_properties(${name} PROPERTIES LABELS "unit;threads")
    add_dependencies(typeflow_thread_tests ${name})
  endif()
endfunction()

# TYPEFLOW_SANITIZED_TESTS set to none in this function's scope only: the sanitizer build
# leaves the test out, and the directory's other tests keep their own list (or none).
function(typeflow_add_static_test name)
  set(TYPEFLOW_SANITIZED_TESTS "")
  typeflow_add_test(${name} ${ARGN})
endfunction()

# --- compile-fail tests ----------------------------------------------------------------
# The target is EXCLUDE_FROM_ALL; the test builds it once, requires the build to fail, and
# checks the *reason* of the failure: pick a regex that only the intended diagnostic prints
# (the static_assert text or the name of the diagnostic type), not the file name, which the
# build tool echoes too. One runner for every case: tests/**/compile_fail/ and the failing
# programs the docs show (docs/compile-errors/).

#
# The cases share one precompiled <typeflow/typeflow.hpp>, built with the tree: parsing the
# library is most of a case's time (3 s of 3.5 with g++), and the cases parse it over 120
# times. The header is included first (the compiler's -include), as every case includes it
# anyway; the diagnostics are the same, since they come from instantiations in the case.
function(typeflow_compile_fail_pch_target out)
  set(pch typeflow_compile_fail_pch)
  if(NOT TARGET ${pch})
    set(source "${PROJECT_BINARY_DIR}/typeflow_compile_fail_pch.cpp")
    file(CONFIGURE OUTPUT "${source}" CONTENT "// The object that carries the compile-fail cases' precompiled header.\n")
    add_library(${pch} OBJECT "${source}")
    target_link_libraries(${pch} PRIVATE typeflow::typeflow)
    typeflow_configure_target(${pch})
    target_precompile_headers(${pch} PRIVATE <typeflow/typeflow.hpp>)
  endif()
  set(${out} ${pch} PARENT_SCOPE)
endfunction()

function(typeflow_add_compile_fail_test name source regex)
  cmake_parse_arguments(PARSE_ARGV 3 arg "DOCS" "MAX_LINES;MAX_BYTES;MAX_SECONDS" "")
  if(NOT IS_ABSOLUTE "${source}")
    set(source "${PROJECT_SOURCE_DIR}/tests/compile_fail/${source}")
  endif()
  set(target compile_fail_${name})
  add_library(${target} OBJECT EXCLUDE_FROM_ALL "${source}")
  target_link_libraries(${target} PRIVATE typeflow::typeflow)
  typeflow_configure_target(${target})
  typeflow_compile_fail_pch_target(pch)
  target_precompile_headers(${target} REUSE_FROM ${pch})
  # What the runner checks, as CMake code: a bracket argument keeps the regex verbatim.
  set(spec "${CMAKE_CURRENT_BINARY_DIR}/${target}.cmake")
  set(text "set(BUILD_DIR [==[${PROJECT_BINARY_DIR}]==])\nset(TARGET ${target})\n")
  # With Makefiles the runner makes the target's rule in the tree's Makefile2 directly: what
  # `cmake --build --target` runs, without its check of the build system (a CMake run that
  # reads the whole tree's state). Twenty cases run alternately both ways: 1.24 s a case
  # through `cmake --build`, 0.96 s directly.
  if(CMAKE_GENERATOR STREQUAL "Unix Makefiles")
    file(RELATIVE_PATH folder "${CMAKE_BINARY_DIR}" "${CMAKE_CURRENT_BINARY_DIR}")
    if(NOT folder STREQUAL "")
      string(APPEND folder "/")
    endif()
    string(APPEND text "set(MAKE_PROGRAM [==[${CMAKE_MAKE_PROGRAM}]==])\nset(MAKE_DIR [==[${CMAKE_BINARY_DIR}]==])\n")
    string(APPEND text "set(MAKE_RULE [==[${folder}CMakeFiles/${target}.dir/all]==])\n")
  endif()
  string(APPEND text "set(ROOT [==[${PROJECT_SOURCE_DIR}]==])\nset(REGEX [==[${regex}]==])\n")
  foreach(bound MAX_LINES MAX_BYTES MAX_SECONDS)
    if(arg_${bound})
      string(APPEND text "set(${bound} ${arg_${bound}})\n")
    endif()
  endforeach()
  set(labels compile-fail)
  if(arg_DOCS)
    file(RELATIVE_PATH shown "${PROJECT_SOURCE_DIR}" "${source}")
    string(APPEND text "set(DOCS_SOURCE [==[${shown}]==])\n")
    list(APPEND labels docs)
  endif()
  file(CONFIGURE OUTPUT "${spec}" CONTENT "${text}")
  add_test(NAME compile_fail.${name}
           COMMAND "${CMAKE_COMMAND}" "-DSPEC=${spec}" "-DCONFIG=$<CONFIG>"
                   -P "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/TypeflowCompileFail.cmake")
  # LC_ALL=C: the compiler quotes with ASCII ' instead of the locale's quotation marks.
  set_tests_properties(compile_fail.${name} PROPERTIES
    LABELS "${labels}"
    ENVIRONMENT LC_ALL=C)
  if(TYPEFLOW_COMPILER_TEST_ENVIRONMENT)
    set_property(TEST compile_fail.${name} APPEND PROPERTY ENVIRONMENT ${TYPEFLOW_COMPILER_TEST_ENVIRONMENT})
  endif()
  # ctest -j runs the cases side by side. The Makefile generators take that: each case
  # builds its own object with its target's own rules, and what the targets share is read
  # only (the build system's check: nothing to regenerate once the tree is built) or a
  # display (the progress counter). Ninja keeps one log and one dependency database per
  # tree, which two ninja processes would both write: there, one case at a time.
  if(CMAKE_GENERATOR MATCHES "Ninja")
    set_property(TEST compile_fail.${name} PROPERTY RESOURCE_LOCK typeflow_build_tree)
  endif()
endfunction()

# typeflow_add_diagnostic_test(<case> <type> <message>): the compile-fail case
# compile_fail/<case>.cpp of the calling folder fails with one static_assert whose
# diagnostic type (a `typeflow::<type>::value` that names the user's values) and message are
# given as regexes; at most 20 lines of diagnostics. g++ prints the message, then the note
# with the type; clang the type, then the message.
function(typeflow_add_diagnostic_test case type message)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    set(regex "error: static assertion failed due to requirement '(typeflow::)?${type}::value': ${message}")
  else()
    set(regex "error: static assertion failed: ${message}.*typeflow::${type}::value' evaluates to false")
  endif()
  typeflow_add_compile_fail_test(${case} "${CMAKE_CURRENT_SOURCE_DIR}/compile_fail/${case}.cpp" "${regex}"
    MAX_LINES 20)
endfunction()

# --- header self-containment (STYLE.md 14) ---------------------------------------------
# Each header is compiled on its own in a generated TU that includes it twice (so a
# missing #pragma once shows too). A header that needs an include it does not write
# fails here, whatever the order of includes elsewhere.

# The third-party headers typeflow's own include (the header tests' precompiled header).
set(TYPEFLOW_THIRD_PARTY_HEADERS
    <xtensor/xarray.hpp> <xtensor/xtensor.hpp> <xtensor/xfixed.hpp> <xtensor/xnoalias.hpp>
    <xtensor/xmanipulation.hpp> <xtensor/xadapt.hpp> <xtensor/xmath.hpp>
    <boost/mp11/algorithm.hpp> <boost/mp11/bind.hpp> <boost/hana/map.hpp> <boost/hana/tuple.hpp>
    <boost/hana/members.hpp> <boost/hana/accessors.hpp> <boost/hana/for_each.hpp> <boost/hana/unpack.hpp>
    <cereal/cereal.hpp> <cereal/archives/portable_binary.hpp>)

function(typeflow_add_header_tests include_dir)
  file(GLOB_RECURSE headers CONFIGURE_DEPENDS
       RELATIVE "${include_dir}" "${include_dir}/typeflow/*.hpp")
  list(SORT headers)
  # The headers of distributed/ include <mpi.h>: they are compiled against typeflow::mpi,
  # when MPI was found, in a target of their own.
  set(sources "")
  set(mpi_sources "")
  foreach(header IN LISTS headers)
    string(REGEX REPLACE "[/.]" "_" stem "${header}")
    set(tu "${CMAKE_CURRENT_BINARY_DIR}/header_tests/${stem}.cpp")
    file(CONFIGURE OUTPUT "${tu}" CONTENT
         "// Generated by typeflow_add_header_tests: ${header} must compile on its own.\n#include <${header}>\n#include <${header}>\n")
    if(header MATCHES "^typeflow/distributed/")
      list(APPEND mpi_sources "${tu}")
    else()
      list(APPEND sources "${tu}")
    endif()
  endforeach()
  add_library(typeflow_header_tests OBJECT ${sources})
  target_link_libraries(typeflow_header_tests PRIVATE typeflow::typeflow)
  typeflow_configure_target(typeflow_header_tests)
  # Parsing xtensor, Boost and cereal is nine tenths of a header test's compile time (8 of 9 s
  # for train/momentum.hpp, g++ -O2), and there are over 150 headers: they come
  # precompiled, once for the target. What these tests check is typeflow's own includes, each
  # header naming the typeflow headers it uses; a third-party or standard header it forgot
  # is masked here, as it mostly was already by xtensor's own includes.
  target_precompile_headers(typeflow_header_tests PRIVATE ${TYPEFLOW_THIRD_PARTY_HEADERS})
  if(TARGET typeflow_mpi AND mpi_sources)
    add_library(typeflow_mpi_header_tests OBJECT ${mpi_sources})
    target_link_libraries(typeflow_mpi_header_tests PRIVATE typeflow::mpi)
    typeflow_configure_target(typeflow_mpi_header_tests)
  endif()
endfunction()

# How the tests and examples run a job of 2 MPI ranks (tests/distributed/, examples/):
# TYPEFLOW_MPIEXEC, the command before the program, and TYPEFLOW_MPI_TEST_ENVIRONMENT, the
# tests' environment. --oversubscribe lets 2 ranks start on a machine with fewer free
# slots; Open MPI refuses to run as root unless told, so the flag and the environment that
# allow it are given when configuring as root (CI). OpenBLAS runs in the ranks' threads.
if(TARGET typeflow_mpi)
  set(TYPEFLOW_MPIEXEC ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 --oversubscribe)
  execute_process(COMMAND id -u OUTPUT_VARIABLE typeflow_uid OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(typeflow_uid STREQUAL "0")
    list(APPEND TYPEFLOW_MPIEXEC --allow-run-as-root)
  endif()
  list(APPEND TYPEFLOW_MPIEXEC ${MPIEXEC_PREFLAGS})
  set(TYPEFLOW_MPI_TEST_ENVIRONMENT
      OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
      OPENBLAS_NUM_THREADS=1)
endif()
