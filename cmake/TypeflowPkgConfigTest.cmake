# cmake -D PKG_CONFIG=<pkg-config> -D PKG_CONFIG_PATH=<dir> -D CXX=<compiler>
#       -D SOURCE=<main.cpp> -D OUTPUT=<executable> -P TypeflowPkgConfigTest.cmake
# Builds SOURCE with nothing but the flags `pkg-config --cflags --libs typeflow` gives
# (plus -std=c++20), as a Makefile user would, then runs it: it must exit with 0.
set(ENV{PKG_CONFIG_PATH} "${PKG_CONFIG_PATH}")
execute_process(COMMAND "${PKG_CONFIG}" --cflags --libs typeflow
                OUTPUT_VARIABLE flags OUTPUT_STRIP_TRAILING_WHITESPACE
                RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "pkg-config cannot resolve typeflow in ${PKG_CONFIG_PATH}")
endif()
message(STATUS "pkg-config --cflags --libs typeflow: ${flags}")
separate_arguments(flags UNIX_COMMAND "${flags}")
get_filename_component(output_dir "${OUTPUT}" DIRECTORY)
file(MAKE_DIRECTORY "${output_dir}")
execute_process(COMMAND "${CXX}" -std=c++20 -Wall -Wextra -Werror "${SOURCE}" -o "${OUTPUT}" ${flags}
                RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "compiling ${SOURCE} with the pkg-config flags failed")
endif()
execute_process(COMMAND "${OUTPUT}" RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${OUTPUT} exited with ${result}")
endif()
