# Gateway benchmarks: ingestion throughput (CSV parse, write) on a generated product file.
add_executable(ingest_bench ${CMAKE_CURRENT_SOURCE_DIR}/ingest_bench.cpp)
target_link_libraries(ingest_bench PRIVATE dq_ingest benchmark::benchmark)

# XLSX reading (MB/s of sheet XML) and gzip decompression (MB/s of output).
add_executable(files_bench ${CMAKE_CURRENT_SOURCE_DIR}/files_bench.cpp)
target_link_libraries(files_bench PRIVATE dq_ingest dq::zip ZLIB::ZLIB benchmark::benchmark)

# The rate limiter's per-decision latency against a real redis-server (p50/p99).
add_executable(limiter_bench limiter_bench.cpp)
target_link_libraries(limiter_bench PRIVATE dq_gateway_lib dq_testing)

# POST /v1/validate without the network (parse, validator request, answer), and the JSON reader
# choice (ours, simdjson On-Demand, nlohmann's DOM) on the same 500-row body.
add_executable(validate_bench validate_bench.cpp)
target_link_libraries(validate_bench PRIVATE dq_gateway_lib simdjson::simdjson benchmark::benchmark)

# The floor under POST /v1/validate: a server that only takes the body and sends a fixed answer
# (optionally parsing the body with simdjson), for scripts/bench-validate-floor.sh.
add_executable(http_floor http_floor.cpp)
target_link_libraries(http_floor PRIVATE simdjson::simdjson Threads::Threads)

# The floor the fixed design puts under POST /v1/validate: the gateway's HTTP server alone, then
# with a gRPC hop carrying dq's messages or bare bytes, none doing any work; and the validator's
# work on the same call in process (hence the validator's library); for
# scripts/bench-validate-floor.sh.
add_executable(transport_floor transport_floor.cpp)
target_link_libraries(transport_floor PRIVATE dq_gateway_lib dq_validator_lib)
