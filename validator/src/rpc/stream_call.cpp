#include "stream_call.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "convert.h"
#include "stream_validation.h"

namespace dq::validator::rpc {
namespace {

grpc::Status NotAChunk() {
  return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                      "only RowChunk messages may follow the BatchSpec");
}

grpc::Status Cancelled() { return grpc::Status(grpc::StatusCode::CANCELLED, "cancelled"); }

// A chunk as read, and what the reading thread's check found in it.
struct Slot {
  v1::ValidateStreamRequest request;
  StreamValidation::Checked checked;
};

// The chunks between the reading thread and the answering one: a few slots, each either free
// (the reader may fill it) or ready (the answerer evaluates it, then frees it). More than two:
// parsing into a buffer the other cores have just read costs up to twice as much (every line
// must first be taken back from their caches), so a freed buffer waits a while before reuse.
constexpr int kBuffers = 4;

class Handoff {
 public:
  // A free slot, waiting while all are in use; nullptr once the answerer has stopped.
  Slot* TakeFree() {
    std::unique_lock lock(mu_);
    changed_.wait(lock, [&] { return !free_.empty() || stopped_; });
    if (stopped_) return nullptr;
    const int i = free_.front();  // the one freed longest ago
    free_.pop_front();
    return &slots_[i];
  }
  void PushReady(Slot* b) { Put(ready_, b); }
  void Release(Slot* b) { Put(free_, b); }
  // The next ready slot in order. With wait, nullptr when the reader has closed and none is
  // left; without, nullptr also when the next one is not ready yet.
  Slot* TakeReady(bool wait) {
    std::unique_lock lock(mu_);
    if (wait) changed_.wait(lock, [&] { return !ready_.empty() || closed_; });
    if (ready_.empty()) return nullptr;
    const int i = ready_.front();
    ready_.pop_front();
    return &slots_[i];
  }
  void Close() { Set(closed_); }  // reader: no more chunks
  void Stop() { Set(stopped_); }  // answerer: the peer is gone

 private:
  void Put(std::deque<int>& q, Slot* b) {
    {
      std::lock_guard lock(mu_);
      q.push_back(static_cast<int>(b - slots_));
    }
    changed_.notify_all();
  }
  void Set(bool& flag) {
    {
      std::lock_guard lock(mu_);
      flag = true;
    }
    changed_.notify_all();
  }

  Slot slots_[kBuffers];
  std::mutex mu_;
  std::condition_variable changed_;
  std::deque<int> free_ = {0, 1, 2, 3};
  std::deque<int> ready_;
  bool closed_ = false;
  bool stopped_ = false;
};

// One thread: read, check, evaluate, answer; then the next chunk.
grpc::Status Sequential(StreamValidation& v, StreamIo* stream,
                        const std::function<bool()>& cancelled) {
  v1::ValidateStreamRequest request;
  v1::ValidateStreamResponse response;
  while (stream->Read(&request)) {
    if (cancelled()) return Cancelled();
    if (!request.has_chunk()) return NotAChunk();
    if (Status s = v.Begin(request.chunk()); !s.ok()) return ToGrpcStatus(s);
    response.Clear();
    v.End(response.mutable_issues());
    if (!stream->Write(response)) return grpc::Status(grpc::StatusCode::CANCELLED, "peer gone");
  }
  return grpc::Status::OK;
}

// This thread reads and checks; another evaluates and answers in order. The answering thread
// keeps the chunk after the one it ends begun whenever the reader has it ready, so the pool
// moves on to it as soon as the current chunk has no slice left to claim, and evaluates it while
// the current chunk's answer is built, serialized and sent.
grpc::Status Pipelined(StreamValidation& v, StreamIo* stream,
                       const std::function<bool()>& cancelled) {
  Handoff handoff;
  bool peer_gone = false;
  std::thread answerer([&] {
    v1::ValidateStreamResponse response;
    Slot* slot = handoff.TakeReady(/*wait=*/true);
    if (slot != nullptr) v.Begin(std::move(slot->checked));
    while (slot != nullptr) {
      Slot* next = handoff.TakeReady(/*wait=*/false);
      if (next != nullptr) v.Begin(std::move(next->checked));  // reads no response
      v.End(response.mutable_issues());  // slot's chunk: the oldest begun
      handoff.Release(slot);
      if (!stream->Write(response)) {
        // The chunk begun reads its slot, which must outlive its evaluation: end it first.
        if (next != nullptr) v.End(response.mutable_issues());
        peer_gone = true;
        handoff.Stop();
        return;
      }
      if (next == nullptr) {
        next = handoff.TakeReady(/*wait=*/true);
        if (next != nullptr) v.Begin(std::move(next->checked));
      }
      slot = next;
    }
  });
  grpc::Status status = grpc::Status::OK;
  uint64_t rows = 0;
  while (Slot* slot = handoff.TakeFree()) {
    if (!stream->Read(&slot->request)) break;
    if (cancelled()) {
      status = Cancelled();
      break;
    }
    if (!slot->request.has_chunk()) {
      status = NotAChunk();
      break;
    }
    auto checked = v.Check(slot->request.chunk(), rows);
    if (!checked.ok()) {
      status = ToGrpcStatus(checked.status());
      break;
    }
    rows += checked->rows;
    slot->checked = std::move(*checked);
    handoff.PushReady(slot);
  }
  handoff.Close();
  answerer.join();  // the chunks before an error are answered first
  if (status.ok() && peer_gone) return grpc::Status(grpc::StatusCode::CANCELLED, "peer gone");
  return status;
}

}  // namespace

grpc::Status RunValidateStream(const ReferenceData& ref, WorkerPool* pool, StreamIo* stream,
                               const std::function<bool()>& cancelled, uint64_t* rows) {
  *rows = 0;
  v1::ValidateStreamRequest first;
  if (!stream->Read(&first) || !first.has_spec()) {
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                        "the first message of a stream must carry the BatchSpec");
  }
  auto call = StreamValidation::Start(ref, first.spec(), pool);
  if (!call.ok()) return ToGrpcStatus(call.status());
  StreamValidation& v = **call;
  const grpc::Status status = pool && pool->threads() > 1 ? Pipelined(v, stream, cancelled)
                                                          : Sequential(v, stream, cancelled);
  *rows = v.rows();
  if (!status.ok()) return status;
  v1::ValidateStreamResponse issues, stats;
  v.Finish(issues.mutable_issues(), stats.mutable_stats());
  stream->Write(issues);
  stream->Write(stats);
  return grpc::Status::OK;
}

}  // namespace dq::validator::rpc
