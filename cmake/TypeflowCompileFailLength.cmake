# TypeflowCompileFailLength.cmake — run by ctest (cmake -P) for compile_fail.<name>.short:
# builds TARGET in BUILD_DIR, which must fail, and fails when the build's whole output
# (compiler and build tool) has more than MAX_LINES lines. Prints the counts it measured.
execute_process(
  COMMAND "${CMAKE_COMMAND}" --build "${BUILD_DIR}" --target "${TARGET}" --config "${CONFIG}"
  RESULT_VARIABLE result
  OUTPUT_VARIABLE out
  ERROR_VARIABLE out)
if(result EQUAL 0)
  message(FATAL_ERROR "${TARGET} compiled, but it must fail to compile")
endif()
string(LENGTH "${out}" bytes)
string(REGEX MATCHALL "\n" newlines "${out}")
list(LENGTH newlines lines)
message(STATUS "${TARGET}: the failed build printed ${lines} lines, ${bytes} bytes (at most ${MAX_LINES} lines)")
if(lines GREATER MAX_LINES)
  message(FATAL_ERROR "${TARGET}: the diagnostic is ${lines} lines long, more than ${MAX_LINES}:\n${out}")
endif()
