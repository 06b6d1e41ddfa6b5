# TypeflowCompileFail.cmake — the one runner of every compile-fail test (ctest runs it as
# `cmake -D SPEC=<file> -P`, see typeflow_add_compile_fail_test in TypeflowTesting.cmake).
#
# SPEC, written at configure time, sets BUILD_DIR, TARGET, CONFIG and ROOT (and, with Makefiles,
# MAKE_PROGRAM, MAKE_DIR and MAKE_RULE: the target's rule in the tree's Makefile2), and what to
# check:
#   REGEX          the build's output must match it (the culprit and our static_assert text);
#   DOCS_SOURCE    docs/compile-errors/<file>.cpp: every line of the ```text block after
#                  `<!-- diagnostic: <that file> -->` in docs/**/*.md must be in the output
#                  (the diagnostics the docs show are the compiler's, verbatim);
#   MAX_LINES, MAX_BYTES, MAX_SECONDS
#                  bounds on the whole output of the failed build (the build tool's lines
#                  included) and on its wall time: one short error, then stop.
# The target is built once; it must fail. Prints what it measured.
include("${SPEC}")

string(TIMESTAMP started "%s")
if(DEFINED MAKE_RULE)
  execute_process(
    COMMAND "${MAKE_PROGRAM}" -s -f CMakeFiles/Makefile2 "${MAKE_RULE}"
    WORKING_DIRECTORY "${MAKE_DIR}"
    RESULT_VARIABLE result
    OUTPUT_VARIABLE out
    ERROR_VARIABLE out)
else()
  execute_process(
    COMMAND "${CMAKE_COMMAND}" --build "${BUILD_DIR}" --target "${TARGET}" --config "${CONFIG}"
    RESULT_VARIABLE result
    OUTPUT_VARIABLE out
    ERROR_VARIABLE out)
endif()
string(TIMESTAMP finished "%s")
math(EXPR seconds "${finished} - ${started}")
if(result EQUAL 0)
  message(FATAL_ERROR "${TARGET} compiled, but it must fail to compile")
endif()
# GCC quotes with ‘ ’ in UTF-8 locales and with ' ' otherwise (ctest sets LC_ALL=C).
string(REPLACE "‘" "'" out "${out}")
string(REPLACE "’" "'" out "${out}")

string(LENGTH "${out}" bytes)
string(REGEX MATCHALL "\n" newlines "${out}")
list(LENGTH newlines lines)
message(STATUS "${TARGET}: the failed build printed ${lines} lines, ${bytes} bytes in about ${seconds} s")

set(problems "")
if(DEFINED REGEX AND NOT REGEX STREQUAL "" AND NOT out MATCHES "${REGEX}")
  string(APPEND problems "  the output does not match the expected diagnostic:\n    ${REGEX}\n")
endif()

if(DEFINED DOCS_SOURCE)
  file(GLOB_RECURSE documents "${ROOT}/docs/*.md")
  list(SORT documents)
  set(shown FALSE)
  foreach(document IN LISTS documents)
    file(READ "${document}" doc)
    set(marker "<!-- diagnostic: ${DOCS_SOURCE} -->\n```text\n")
    string(FIND "${doc}" "${marker}" at)
    if(at EQUAL -1)
      continue()
    endif()
    set(shown TRUE)
    string(LENGTH "${marker}" marker_length)
    math(EXPR at "${at} + ${marker_length}")
    string(SUBSTRING "${doc}" ${at} -1 block)
    string(FIND "${block}" "```" block_end)
    string(SUBSTRING "${block}" 0 ${block_end} block)
    string(REPLACE "‘" "'" block "${block}")
    string(REPLACE "’" "'" block "${block}")
    file(RELATIVE_PATH doc_name "${ROOT}" "${document}")
    while(NOT block STREQUAL "")
      string(FIND "${block}" "\n" eol)
      string(SUBSTRING "${block}" 0 ${eol} line)
      math(EXPR eol "${eol} + 1")
      string(SUBSTRING "${block}" ${eol} -1 block)
      if(NOT line STREQUAL "")
        string(FIND "${out}" "${line}" found)
        if(found EQUAL -1)
          string(APPEND problems "  ${doc_name} shows a line the compiler does not print:\n    ${line}\n")
        endif()
      endif()
    endwhile()
  endforeach()
  if(NOT shown)
    string(APPEND problems "  no `<!-- diagnostic: ${DOCS_SOURCE} -->` followed by a ```text block in docs/\n")
  endif()
endif()

if(DEFINED MAX_LINES AND lines GREATER MAX_LINES)
  string(APPEND problems "  the diagnostic is ${lines} lines long, more than ${MAX_LINES}\n")
endif()
if(DEFINED MAX_BYTES AND bytes GREATER MAX_BYTES)
  string(APPEND problems "  the diagnostic is ${bytes} bytes long, more than ${MAX_BYTES}\n")
endif()
if(DEFINED MAX_SECONDS AND seconds GREATER MAX_SECONDS)
  string(APPEND problems "  the failed build took ${seconds} s, more than ${MAX_SECONDS}\n")
endif()

if(NOT problems STREQUAL "")
  string(SUBSTRING "${out}" 0 6000 head)
  message(FATAL_ERROR "${TARGET}:\n${problems}the output begins:\n${head}")
endif()
