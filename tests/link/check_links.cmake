# Fails when BINARY's dynamic dependencies (ldd) name any library matching FORBIDDEN (a regex).
# Run as: cmake -DBINARY=... -DFORBIDDEN=... -P check_links.cmake
execute_process(COMMAND ldd ${BINARY} OUTPUT_VARIABLE deps RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ldd ${BINARY} failed")
endif()
string(REGEX MATCHALL "[^\n]*(${FORBIDDEN})[^\n]*" hits "${deps}")
if(hits)
  message(FATAL_ERROR "${BINARY} links what it must not (${FORBIDDEN}):\n${hits}")
endif()
message(STATUS "${BINARY}: no ${FORBIDDEN}")
