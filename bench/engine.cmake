# Rule-engine benchmark (Google Benchmark) and engine_check, a by-hand checker for gen_catalog.py
# files. Both link dq_engine only.
add_executable(engine_bench
  ${CMAKE_CURRENT_LIST_DIR}/engine_bench.cpp
  ${CMAKE_CURRENT_LIST_DIR}/engine_data.cpp)
target_link_libraries(engine_bench PRIVATE dq_engine benchmark::benchmark)

add_executable(engine_check
  ${CMAKE_CURRENT_LIST_DIR}/engine_check.cpp
  ${CMAKE_CURRENT_LIST_DIR}/engine_data.cpp)
target_link_libraries(engine_check PRIVATE dq_engine)

# phone_agreement: the engine's phone fast path against libphonenumber on N random numbers.
add_executable(phone_agreement ${CMAKE_CURRENT_LIST_DIR}/phone_agreement.cpp)
target_link_libraries(phone_agreement PRIVATE dq_phone_samples)

# One streamed job through the validator's stream logic on 1 and 2 evaluation threads (wire
# parsing included), and the engine alone on 1 and 2 threads.
add_executable(stream_bench
  ${CMAKE_CURRENT_LIST_DIR}/stream_bench.cpp
  ${CMAKE_CURRENT_LIST_DIR}/engine_data.cpp)
target_link_libraries(stream_bench PRIVATE dq_validator_lib benchmark::benchmark)
