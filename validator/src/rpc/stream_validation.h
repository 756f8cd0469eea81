// The logic of the validator's RPCs without the transport: turns v1 messages into Session calls
// and the results back into v1 messages. ValidatorService only reads and writes the stream around
// it, so tests and benchmarks drive this class directly, with no server.
//
// One StreamValidation per ValidateStream call:
//
//   auto v = StreamValidation::Start(ref, spec, &pool);       // the BatchSpec
//   v->Begin(chunk1);   // checked, then evaluated on the pool's threads...
//   read chunk2;        // ...while the caller reads the next chunk
//   v->End(&issues1);   // the caller helps, and gets chunk1's issues in row order
//   v->Begin(chunk2); ... v->End(&issues2);
//   v->Finish(&batch_issues, &stats);
//
// A service that reads on one thread and answers on another splits Begin in two: Check (the
// reading thread: the rows' shape, their UTF-8, what their dates show) and Begin(Checked) (the
// answering thread: evaluation starts at once), so the answering thread does no pass over the
// rows of its own.
//
// The answers are the same, byte for byte, whatever the pool's size (session.h explains how).
// Not thread-safe: one thread drives one call; calls may share a pool.
#pragma once

#include <memory>
#include <vector>

#include "answer_wire.h"
#include "engine/reference_data.h"
#include "engine/session.h"
#include "engine/worker_pool.h"
#include "dq/common/status.h"
#include "dq/validator/v1/validator.pb.h"

namespace dq::validator::rpc {

class StreamValidation {
 public:
  // Errors: kInvalidRequest for a spec FromProto rejects. pool may be nullptr (one thread).
  static Result<std::unique_ptr<StreamValidation>> Start(const ReferenceData& ref,
                                                         const v1::BatchSpec& spec,
                                                         WorkerPool* pool);

  // A chunk Check has accepted: its row count (repeated Row or PackedRows), a reader of its
  // rows (valid while the chunk is alive and unchanged), and what its rows show of the
  // column-wide conventions (Session::ObserveRows).
  struct Checked {
    size_t rows = 0;
    Session::RowReader read;
    dates::DateOrder observed = dates::DateOrder::kUnknown;
    std::vector<RowKind> kinds;  // one per row, or empty when every row is a product
  };

  // Checks that every row of chunk has the values the spec needs, then starts evaluating them.
  // chunk must stay alive and unchanged until End() returns. Errors: kInvalidRequest naming the
  // first row with a wrong value count or an unknown kind, or packed kinds of another count than
  // the rows (nothing is started then).
  Status Begin(const v1::RowChunk& chunk);
  // Begin's check alone, for a chunk that will follow `rows_before` rows; any thread, also while
  // another chunk is being evaluated.
  Result<Checked> Check(const v1::RowChunk& chunk, uint64_t rows_before) const;
  // Starts evaluating a chunk Check accepted (for the rows that follow those begun so far).
  // Up to Session::kMaxOpenChunks may be open: begin the next before ending the current one and
  // the pool moves on to it while End hands the current one's issues over.
  void Begin(Checked checked);
  // Waits for the oldest chunk begun and writes its issues and rows_done to out (cleared first).
  void End(v1::IssueChunk* out);
  // After the last chunk: the batch-level issues (with rows_done) and the stats.
  void Finish(v1::IssueChunk* issues, v1::Stats* stats);

  uint64_t rows() const { return session_.rows(); }

 private:
  StreamValidation(const ReferenceData& ref, BatchSpec spec, v1::BatchSpec proto_spec,
                   WorkerPool* pool)
      : proto_spec_(std::move(proto_spec)), session_(ref, std::move(spec), pool) {}

  v1::BatchSpec proto_spec_;  // value_index
  Session session_;
  size_t open_ = 0;  // chunks begun and not ended
};

// The most a Validate answer may carry, estimated before it is built, so neither side ever holds
// a message over its gRPC limit (64 MiB).
inline constexpr size_t kMaxAnswerBytes = 60u << 20;

// One ValidateRequest (the unary call) on the caller's thread, checked: its issues ordered by
// row, its stats. Errors: as Start() and Begin(); kPayloadTooLarge (OUT_OF_RANGE on the wire)
// when the answer would pass kMaxAnswerBytes (values of tens of KB mapped to many fields).
// The service encodes the answer with AnswerWire (answer_wire.h).
Status CheckBatch(const ReferenceData& ref, const v1::ValidateRequest& request,
                  BatchAnswer* answer);

// The same answer as a message (the ToProto of CheckBatch's), for tests and benchmarks.
Status ValidateBatch(const ReferenceData& ref, const v1::ValidateRequest& request,
                     v1::ValidateResponse* response);

}  // namespace dq::validator::rpc
