# TypeflowCompileFailLength.cmake — run by ctest (cmake -P) for compile_fail.<name>.short:
# builds TARGET in BUILD_DIR, which must fail, and fails when the build's whole output
# (compiler and build tool) has more than MAX_LINES lines, or, where given, more than
# MAX_BYTES bytes, or when the failed build took more than MAX_SECONDS (whole seconds, wall
# clock: a bound against runaway diagnostics, not a benchmark). Prints what it measured.
string(TIMESTAMP started "%s")
execute_process(
  COMMAND "${CMAKE_COMMAND}" --build "${BUILD_DIR}" --target "${TARGET}" --config "${CONFIG}"
  RESULT_VARIABLE result
  OUTPUT_VARIABLE out
  ERROR_VARIABLE out)
if(result EQUAL 0)
  message(FATAL_ERROR "${TARGET} compiled, but it must fail to compile")
endif()
string(TIMESTAMP finished "%s")
math(EXPR seconds "${finished} - ${started}")
string(LENGTH "${out}" bytes)
string(REGEX MATCHALL "\n" newlines "${out}")
list(LENGTH newlines lines)
message(STATUS "${TARGET}: the failed build printed ${lines} lines, ${bytes} bytes in about ${seconds} s "
               "(at most ${MAX_LINES} lines)")
if(lines GREATER MAX_LINES)
  message(FATAL_ERROR "${TARGET}: the diagnostic is ${lines} lines long, more than ${MAX_LINES}:\n${out}")
endif()
if(DEFINED MAX_BYTES AND bytes GREATER MAX_BYTES)
  string(SUBSTRING "${out}" 0 4000 head)
  message(FATAL_ERROR "${TARGET}: the diagnostic is ${bytes} bytes long, more than ${MAX_BYTES}; it begins:\n${head}")
endif()
if(DEFINED MAX_SECONDS AND seconds GREATER MAX_SECONDS)
  message(FATAL_ERROR "${TARGET}: the failed build took ${seconds} s, more than ${MAX_SECONDS}")
endif()
