#include "in_process_validator.h"

#include <utility>

#include "engine/session.h"

namespace dq::offline {
namespace {

namespace v1 = validator::v1;

class InProcessValidatorStream final : public report::ValidatorStream {
 public:
  InProcessValidatorStream(validator::WorkerPool* pool, const StreamObserver& observer)
      : pool_(pool), observer_(observer) {}

  ~InProcessValidatorStream() override { Cancel(); }

  Status Start(const v1::BatchSpec& spec) override {
    auto started =
        validator::rpc::StreamValidation::Start(validator::ReferenceData::Default(), spec, pool_);
    if (!started.ok()) return Fail(started.status());
    validation_ = std::move(*started);
    return Status::Ok();
  }

  Status Send(const v1::RowChunk& chunk) override {
    if (!error_.ok()) return error_;
    if (!validation_ || writes_done_) {
      return Fail(Status(ErrorCode::kInternal, "a chunk sent outside a started stream"));
    }
    waiting_.push_back(std::make_unique<v1::RowChunk>(chunk));
    return BeginWaiting();
  }

  Status Receive(v1::IssueChunk* out) override {
    if (!error_.ok()) return error_;
    if (Status s = BeginWaiting(); !s.ok()) return s;
    if (open_.empty()) return Fail(Status(ErrorCode::kInternal, "no chunk is waiting for issues"));
    validation_->End(out);
    open_.pop_front();  // ended: its rows are no longer read
    Observe(*out);
    return BeginWaiting();  // the next chunk is evaluated while the caller applies this answer
  }

  Status WritesDone() override {
    if (!error_.ok()) return error_;
    if (!validation_) return Fail(Status(ErrorCode::kInternal, "the stream was not started"));
    while (!open_.empty() || !waiting_.empty()) {  // never, when used as documented
      v1::IssueChunk unread;
      if (Status s = Receive(&unread); !s.ok()) return s;
    }
    writes_done_ = true;
    validation_->Finish(tail_issues_.mutable_issues(), tail_stats_.mutable_stats());
    Observe(tail_issues_.issues());
    return Status::Ok();
  }

  Result<bool> Tail(v1::ValidateStreamResponse* out) override {
    if (!error_.ok()) return error_;
    if (!writes_done_) return Fail(Status(ErrorCode::kInternal, "Tail before WritesDone"));
    // As the validator's stream ends: the batch-level issues, then the stats.
    switch (tail_sent_++) {
      case 0: *out = tail_issues_; return true;
      case 1: *out = tail_stats_; return true;
      default: return false;
    }
  }

  void Cancel() override {
    // A chunk begun reads its copy until it is ended: end them before they go.
    if (validation_) {
      v1::IssueChunk discarded;
      while (!open_.empty()) {
        validation_->End(&discarded);
        open_.pop_front();
      }
    }
    waiting_.clear();
  }

 private:
  Status Fail(Status s) {
    error_ = s;
    return s;
  }

  // Begins the chunks waiting while fewer than the session allows are open.
  Status BeginWaiting() {
    while (!waiting_.empty() && open_.size() < validator::Session::kMaxOpenChunks) {
      if (Status s = validation_->Begin(*waiting_.front()); !s.ok()) return Fail(s);
      open_.push_back(std::move(waiting_.front()));
      waiting_.pop_front();
    }
    return Status::Ok();
  }

  void Observe(const v1::IssueChunk& chunk) {
    Observe(chunk.issues());
    if (observer_.progress) observer_.progress(chunk.rows_done());
  }
  void Observe(const google::protobuf::RepeatedPtrField<v1::Issue>& issues) {
    if (!observer_.issue) return;
    for (const auto& i : issues) observer_.issue(i);
  }

  validator::WorkerPool* pool_;
  const StreamObserver& observer_;
  std::unique_ptr<validator::rpc::StreamValidation> validation_;
  std::deque<std::unique_ptr<v1::RowChunk>> waiting_;  // sent, not begun
  std::deque<std::unique_ptr<v1::RowChunk>> open_;     // begun, not ended (their rows are read)
  bool writes_done_ = false;
  v1::ValidateStreamResponse tail_issues_, tail_stats_;
  int tail_sent_ = 0;
  Status error_ = Status::Ok();
};

}  // namespace

std::unique_ptr<report::ValidatorStream> InProcessValidatorFactory::Open() {
  return std::make_unique<InProcessValidatorStream>(pool_, observer_);
}

}  // namespace dq::offline
