// The validator in this process: the ValidatorStream the job runner talks to over gRPC,
// implemented over the same StreamValidation the validator's RPC serves (dq_engine_v1), so the
// chunks' issues, the batch-level issues and the stats are those dq-validator would send.
//
//   WorkerPool pool(AvailableCpus());
//   InProcessValidatorFactory validators(&pool);
//   auto stream = validators.Open();   // then as validator_stream.h says
//
// A chunk sent is copied (the caller reuses its message) and begun at once while fewer than
// Session::kMaxOpenChunks are open, so the pool evaluates it while the caller reads the next rows;
// Receive() ends the oldest. Errors: the validator's (kInvalidRequest for a spec or a chunk it
// refuses), sticky. One stream is used by one thread; the factory is thread-safe.
#pragma once

#include <deque>
#include <functional>
#include <memory>

#include "dq/report/validator_stream.h"
#include "engine/reference_data.h"
#include "engine/worker_pool.h"
#include "rpc/stream_validation.h"

namespace dq::offline {

// Called with every issue the stream hands out, chunks and tail alike, and with the rows done.
struct StreamObserver {
  std::function<void(const validator::v1::Issue&)> issue;
  std::function<void(uint64_t rows_done)> progress;
};

class InProcessValidatorFactory final : public report::ValidatorStreamFactory {
 public:
  // pool: the evaluation threads (nullptr: the caller's alone); must outlive the streams.
  explicit InProcessValidatorFactory(validator::WorkerPool* pool, StreamObserver observer = {})
      : pool_(pool), observer_(std::move(observer)) {}
  std::unique_ptr<report::ValidatorStream> Open() override;

 private:
  validator::WorkerPool* pool_;
  StreamObserver observer_;
};

}  // namespace dq::offline
