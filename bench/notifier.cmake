# notifier_bench: deliveries per second and XADD-to-receipt latency, end to end (redis-server,
# the dq-notifier binary, a local receiver). A driver program, not a Google Benchmark: the unit
# of work is a whole pipeline. Needs the test harness (DQ_BUILD_TESTS=ON).
if(TARGET dq_testing)
  add_executable(notifier_bench ${CMAKE_CURRENT_LIST_DIR}/notifier_bench.cpp)
  target_link_libraries(notifier_bench PRIVATE dq_notifier_lib dq_testing)
  target_include_directories(notifier_bench PRIVATE
    ${PROJECT_SOURCE_DIR}/tests/integration/notifier)
  target_compile_definitions(notifier_bench PRIVATE DQ_NOTIFIER_BIN="$<TARGET_FILE:dq-notifier>")
  add_dependencies(notifier_bench dq-notifier)
endif()
