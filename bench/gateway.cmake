# Gateway benchmarks: ingestion throughput (CSV parse, write) on a generated product file.
add_executable(ingest_bench ${CMAKE_CURRENT_SOURCE_DIR}/ingest_bench.cpp)
target_link_libraries(ingest_bench PRIVATE dq_ingest benchmark::benchmark)
