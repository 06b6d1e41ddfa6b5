# cmake -D DOCUMENT=<file> -D SNIPPET=<file> -P TypeflowCheckSnippet.cmake
# Fails unless DOCUMENT contains the whole text of SNIPPET verbatim: a code sample in the
# docs is the compiled and tested file, not a copy that drifts from it.
foreach(var IN ITEMS DOCUMENT SNIPPET)
  if(NOT EXISTS "${${var}}")
    message(FATAL_ERROR "${var} '${${var}}' does not exist")
  endif()
endforeach()
file(READ "${DOCUMENT}" document)
file(READ "${SNIPPET}" snippet)
string(FIND "${document}" "${snippet}" position)
if(position EQUAL -1)
  message(FATAL_ERROR "${DOCUMENT} does not contain ${SNIPPET} verbatim; copy the file into it")
endif()
