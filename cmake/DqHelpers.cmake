# Two helpers keep each component's CMakeLists.txt a declarative list of sources.
include(GoogleTest)

# dq_test(NAME name SOURCES ... LIBS ... [LABELS unit|integration])
# One GoogleTest executable registered with CTest; tests are discovered per case.
#
# Every test executable links tests/testing/src/suite_setup_guard.cpp: a test suite whose
# SetUpTestSuite failed (a stack that did not start) ends the process with exit code 1. Without
# it GoogleTest reports that suite's tests as "[  SKIPPED ]", CMake's skip rule for GoogleTest
# matches that, and CTest counted the failure as a skip in a green run.
function(dq_test)
  cmake_parse_arguments(T "" "NAME" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${T_NAME} ${T_SOURCES} $<TARGET_OBJECTS:dq_suite_setup_guard>)
  target_link_libraries(${T_NAME} PRIVATE ${T_LIBS} GTest::gtest GTest::gmock GTest::gtest_main)
  if(NOT T_LABELS)
    set(T_LABELS unit)
  endif()
  if("integration" IN_LIST T_LABELS)
    # Tests that start servers take the loopback_ports lock, so no two run at once (see
    # tests/CMakeLists.txt).
    gtest_discover_tests(${T_NAME}
      PROPERTIES LABELS "${T_LABELS}" RESOURCE_LOCK loopback_ports
      DISCOVERY_TIMEOUT 60)
  else()
    gtest_discover_tests(${T_NAME}
      PROPERTIES LABELS "${T_LABELS}"
      DISCOVERY_TIMEOUT 60)
  endif()
endfunction()

# dq_service(NAME binary LIB library)
# A service binary: main.cpp plus the component library.
function(dq_service)
  cmake_parse_arguments(S "" "NAME;LIB" "" ${ARGN})
  add_executable(${S_NAME} main.cpp)
  target_link_libraries(${S_NAME} PRIVATE ${S_LIB})
endfunction()
