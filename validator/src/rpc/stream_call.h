// One ValidateStream call over a gRPC stream: who reads, who evaluates, who writes.
//
// With one evaluation thread the call's own thread reads a chunk, evaluates it and writes its
// answer, then reads the next. With more, it only reads (parsing is a third of the work on a
// product file) and checks each chunk, and a second thread of the call begins, ends and
// answers the chunks in order with the pool, two chunks at most in memory. The reader never
// waits for an answer and the writer never waits for a read, so a client that sends its next
// chunk only after reading an answer, or that keeps several chunks in flight, is served either
// way (gRPC allows one Read and one Write at a time on a stream, from different threads).
//
// Errors: as ValidateStream in the proto. Chunks before a bad one are answered first.
#pragma once

#include <grpcpp/grpcpp.h>
#include <grpcpp/support/sync_stream.h>

#include <cstdint>
#include <functional>

#include "engine/reference_data.h"
#include "engine/worker_pool.h"
#include "dq/validator/v1/validator.pb.h"

namespace dq::validator::rpc {

using StreamIo =
    grpc::ServerReaderWriterInterface<v1::ValidateStreamResponse, v1::ValidateStreamRequest>;

// cancelled: polled before each chunk (ServerContext::IsCancelled). *rows: rows evaluated.
grpc::Status RunValidateStream(const ReferenceData& ref, WorkerPool* pool, StreamIo* stream,
                               const std::function<bool()>& cancelled, uint64_t* rows);

}  // namespace dq::validator::rpc
