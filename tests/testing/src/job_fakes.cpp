#include "dq/testing/job_fakes.h"

#include <algorithm>

#include "dq/testing/gateway_fakes.h"

namespace dq::testing {
namespace {

Status Down() { return Status(ErrorCode::kUnavailable, "injected: store unreachable"); }
std::string Id(std::string_view account, std::string_view id) {
  return std::string(account) + "/" + std::string(id);
}

}  // namespace

// --- InMemoryJobStore --------------------------------------------------------------------------

bool InMemoryJobStore::FailBefore(const std::string& step) {
  if (down_) return true;
  if (faults_ != nullptr && faults_->Step("store." + step)) {
    if (!faults_->after) return true;
    fail_after_ = true;
  }
  return false;
}

Status InMemoryJobStore::After(Status s) {
  if (fail_after_) {
    fail_after_ = false;
    return Down();
  }
  return s;
}

Status InMemoryJobStore::Create(const gateway::Job& job, gateway::UploadPieces& pieces) {
  std::lock_guard lock(mu_);
  if (FailBefore("create")) return Down();
  Stored s;
  s.job = job;
  s.job.accepted = false;
  for (auto c : pieces.raw_pieces()) s.file.emplace_back(c);
  jobs_[Id(job.account_id, job.id)] = std::move(s);
  return After(Status::Ok());
}

Status InMemoryJobStore::Accept(const gateway::Job& job) {
  std::lock_guard lock(mu_);
  if (FailBefore("accept")) return Down();
  auto it = jobs_.find(Id(job.account_id, job.id));
  if (it == jobs_.end()) return After(Status(ErrorCode::kInternal, "the job vanished"));
  it->second.job.accepted = true;
  return After(Status::Ok());
}

Status InMemoryJobStore::Abandon(const gateway::Job& job) {
  std::lock_guard lock(mu_);
  if (FailBefore("abandon")) return Down();
  auto it = jobs_.find(Id(job.account_id, job.id));
  if (it != jobs_.end() && !it->second.job.accepted) {
    if (!it->second.job.refunded) refunded_ += it->second.job.rows_total;
    idempotency_.erase(Id(job.account_id, it->second.job.idempotency_key));
    jobs_.erase(it);
  }
  return After(Status::Ok());
}

Result<std::optional<gateway::Job>> InMemoryJobStore::Get(std::string_view account_id,
                                                          std::string_view id) {
  std::lock_guard lock(mu_);
  if (FailBefore("get")) return Down();
  auto it = jobs_.find(Id(account_id, id));
  if (it == jobs_.end()) return std::optional<gateway::Job>();
  return std::optional<gateway::Job>(it->second.job);
}

Result<std::vector<gateway::Job>> InMemoryJobStore::List(std::string_view account_id, int limit) {
  return ListBefore(account_id, 0, limit);
}

Result<std::vector<gateway::Job>> InMemoryJobStore::ListBefore(std::string_view account_id,
                                                               int64_t before_ms, int limit) {
  std::lock_guard lock(mu_);
  if (FailBefore("list")) return Down();
  std::vector<gateway::Job> out;
  for (const auto& [k, s] : jobs_) {
    if (s.job.account_id == account_id && s.job.accepted &&
        (before_ms <= 0 || s.job.created_ms < before_ms)) {
      out.push_back(s.job);
    }
  }
  std::sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return a.created_ms > b.created_ms; });
  if (out.size() > static_cast<size_t>(limit)) out.resize(static_cast<size_t>(limit));
  return out;
}

Result<std::vector<gateway::Job>> InMemoryJobStore::Query(std::string_view account_id,
                                                          const gateway::JobQuery& query) {
  auto all = ListBefore(account_id, query.before_ms, gateway::kJobQueryScan);
  if (!all.ok()) return all.status();
  std::vector<gateway::Job> out;
  for (auto& j : *all) {
    if (static_cast<int>(out.size()) < query.limit &&
        gateway::JobMatches(query, j.feed, j.filename)) {
      out.push_back(std::move(j));
    }
  }
  return out;
}

Status InMemoryJobStore::KeepUpload(const gateway::KeptUpload& upload, std::string_view file) {
  std::lock_guard lock(mu_);
  if (FailBefore("keep_upload")) return Down();
  kept_[upload.account_id + "/" + upload.id] = {upload, std::string(file)};
  return Status::Ok();
}

Result<std::optional<std::pair<gateway::KeptUpload, std::string>>>
InMemoryJobStore::KeptUploadFile(std::string_view account_id, std::string_view id) {
  std::lock_guard lock(mu_);
  if (FailBefore("kept_upload")) return Down();
  auto it = kept_.find(std::string(account_id) + "/" + std::string(id));
  if (it == kept_.end()) return std::optional<std::pair<gateway::KeptUpload, std::string>>();
  return std::optional<std::pair<gateway::KeptUpload, std::string>>(it->second);
}

Status InMemoryJobStore::DropKeptUpload(std::string_view account_id, std::string_view id) {
  std::lock_guard lock(mu_);
  kept_.erase(std::string(account_id) + "/" + std::string(id));
  return Status::Ok();
}

Result<bool> InMemoryJobStore::Delete(std::string_view account_id, std::string_view id) {
  std::lock_guard lock(mu_);
  if (FailBefore("delete")) return Down();
  auto it = jobs_.find(Id(account_id, id));
  if (it == jobs_.end()) return false;
  const gateway::Job& j = it->second.job;
  if (!j.refunded &&
      (j.status == gateway::JobStatus::kQueued || j.status == gateway::JobStatus::kProcessing)) {
    refunded_ += j.rows_total - j.rows_done;
  }
  idempotency_.erase(Id(account_id, j.idempotency_key));
  jobs_.erase(it);
  if (fail_after_) {
    fail_after_ = false;
    return Down();
  }
  return true;
}

Result<std::vector<std::string>> InMemoryJobStore::Issues(const gateway::Job& job,
                                                          int64_t offset, int64_t count) {
  std::lock_guard lock(mu_);
  if (FailBefore("issues")) return Down();
  auto it = jobs_.find(Id(job.account_id, job.id));
  std::vector<std::string> out;
  if (it == jobs_.end()) return out;
  const auto& all = it->second.issues;
  for (int64_t i = offset; i < static_cast<int64_t>(all.size()) && (count < 0 || i < offset + count);
       ++i) {
    out.push_back(all[static_cast<size_t>(i)]);
  }
  return out;
}

Result<std::optional<std::string>> InMemoryJobStore::FixesPiece(const gateway::Job& job,
                                                                int64_t index) {
  std::lock_guard lock(mu_);
  if (FailBefore("fixes")) return Down();
  auto it = jobs_.find(Id(job.account_id, job.id));
  if (it == jobs_.end() || index < 0 || index >= static_cast<int64_t>(it->second.fixes.size())) {
    return std::optional<std::string>();
  }
  return std::optional<std::string>(it->second.fixes[static_cast<size_t>(index)]);
}

Result<std::optional<std::string>> InMemoryJobStore::CleanedPiece(const gateway::Job& job,
                                                                  int64_t index) {
  std::lock_guard lock(mu_);
  if (FailBefore("cleaned")) return Down();
  auto it = jobs_.find(Id(job.account_id, job.id));
  if (it == jobs_.end() || index < 0 ||
      index >= static_cast<int64_t>(it->second.cleaned.size())) {
    return std::optional<std::string>();
  }
  return std::optional<std::string>(it->second.cleaned[static_cast<size_t>(index)]);
}

Result<std::string> InMemoryJobStore::Summary(const gateway::Job& job) {
  std::lock_guard lock(mu_);
  if (FailBefore("summary")) return Down();
  auto it = jobs_.find(Id(job.account_id, job.id));
  return it == jobs_.end() ? std::string() : it->second.summary;
}

Result<gateway::IdempotencyRecord> InMemoryJobStore::ClaimIdempotencyKey(
    std::string_view account_id, std::string_view key, std::string_view body_hash,
    std::string_view job_id) {
  std::lock_guard lock(mu_);
  if (FailBefore("idempotency")) return Down();
  gateway::IdempotencyRecord r;
  const std::string k = Id(account_id, key);
  auto it = idempotency_.find(k);
  if (it == idempotency_.end()) {
    idempotency_[k] = std::string(body_hash) + " " + std::string(job_id);
    r.fresh = true;
    r.body_hash = body_hash;
    r.job_id = job_id;
    return r;
  }
  r.body_hash = it->second.substr(0, it->second.find(' '));
  r.job_id = it->second.substr(it->second.find(' ') + 1);
  return r;
}

Status InMemoryJobStore::ReleaseIdempotencyKey(std::string_view account_id, std::string_view key,
                                               std::string_view body_hash,
                                               std::string_view job_id) {
  std::lock_guard lock(mu_);
  auto it = idempotency_.find(Id(account_id, key));
  if (it != idempotency_.end() &&
      it->second == std::string(body_hash) + " " + std::string(job_id)) {
    idempotency_.erase(it);
  }
  return Status::Ok();
}

Result<gateway::Claim> InMemoryJobStore::ClaimJob(std::string_view account_id,
                                                  std::string_view id,
                                                  std::string_view started_at) {
  std::lock_guard lock(mu_);
  if (FailBefore("claim")) return Down();
  gateway::Claim c;
  auto it = jobs_.find(Id(account_id, id));
  if (it != jobs_.end()) {
    Stored& s = it->second;
    if (s.job.finished()) {
      c.kind = gateway::ClaimKind::kFinished;
    } else if (!s.job.accepted) {
      c.kind = gateway::ClaimKind::kNotAccepted;
    } else {
      c.kind = gateway::ClaimKind::kRun;
      previous_claim_[it->first] = s.job.claim_id;
      s.job.attempts += 1;
      // Unique for the store's life, like the random ids of the real one: never reissued, even
      // when LoseLastClaim takes a claim back.
      s.job.claim_id = "claim-" + std::to_string(++claims_);
      s.job.status = gateway::JobStatus::kProcessing;
      s.job.started_at = started_at;
      s.job.rows_done = s.job.issues = s.job.issues_found = 0;
      s.issues.clear();
      s.fixes.clear();
      s.cleaned.clear();
      s.summary.clear();
    }
    c.job = s.job;
  }
  if (fail_after_) {
    fail_after_ = false;
    return Down();
  }
  return c;
}

Result<std::string> InMemoryJobStore::FilePiece(const gateway::Job& job, int64_t index) {
  std::lock_guard lock(mu_);
  if (FailBefore("file")) return Down();
  auto it = jobs_.find(Id(job.account_id, job.id));
  if (it == jobs_.end()) return Status(ErrorCode::kNotFound, "job was deleted");
  if (index >= static_cast<int64_t>(it->second.file.size())) {
    return Status(ErrorCode::kInternal,
                  "piece " + std::to_string(index) + " of the upload is missing");
  }
  return it->second.file[static_cast<size_t>(index)];
}

Status InMemoryJobStore::Fence(const gateway::Job& job, Stored** out) {
  auto it = jobs_.find(Id(job.account_id, job.id));
  if (it == jobs_.end()) return Status(ErrorCode::kNotFound, "job was deleted");
  if (job.claim_id.empty() || it->second.job.claim_id != job.claim_id) {
    return Status(ErrorCode::kAborted, "a newer attempt owns the job");
  }
  *out = &it->second;
  return Status::Ok();
}

Status InMemoryJobStore::Apply(const gateway::Job& job, const gateway::JobWrite& w,
                               const gateway::JobEnd* end) {
  std::lock_guard lock(mu_);
  if (FailBefore(end ? "finish" : "write")) return Down();
  Stored* s = nullptr;
  if (Status f = Fence(job, &s); !f.ok()) return After(f);
  s->issues.insert(s->issues.end(), w.issues.begin(), w.issues.end());
  if (!w.fixes.empty()) s->fixes.push_back(w.fixes);
  if (!w.summary_json.empty()) s->summary = w.summary_json;
  if (end != nullptr) {
    const bool refunded = s->job.refunded;
    const bool published = s->job.event_published;
    const bool accepted = s->job.accepted;
    const std::string idem = s->job.idempotency_key;
    s->job = job;
    s->job.refunded = refunded;
    s->job.event_published = published;
    s->job.accepted = accepted;
    s->job.idempotency_key = idem;
    // A done job whose cleaned file comes from its fixes keeps its upload and fixes; any other
    // end drops both.
    if (end->status != gateway::JobStatus::kDone || job.cleaned_from != gateway::kCleanedFromFixes) {
      s->file.clear();
      s->fixes.clear();
    }
    if (end->refund > 0 && !s->job.refunded) {
      refunded_ += end->refund;
      s->job.refunded = true;
    }
  }
  s->job.rows_done = w.rows_done;
  s->job.issues = w.issues_stored;
  s->job.issues_found = w.issues_found;
  return After(Status::Ok());
}

Status InMemoryJobStore::Write(const gateway::Job& job, const gateway::JobWrite& w) {
  return Apply(job, w, nullptr);
}

Status InMemoryJobStore::WriteCleanedPiece(const gateway::Job& job, std::string_view piece) {
  std::lock_guard lock(mu_);
  if (FailBefore("write_cleaned")) return Down();
  Stored* s = nullptr;
  if (Status f = Fence(job, &s); !f.ok()) return After(f);
  s->cleaned.emplace_back(piece);
  return After(Status::Ok());
}

Status InMemoryJobStore::Finish(const gateway::Job& job, const gateway::JobWrite& w,
                                const gateway::JobEnd& end) {
  return Apply(job, w, &end);
}

Status InMemoryJobStore::Postpone(const gateway::Job& job) {
  std::lock_guard lock(mu_);
  if (FailBefore("postpone")) return Down();
  Stored* s = nullptr;
  if (Status f = Fence(job, &s); !f.ok()) return After(f);
  if (!s->job.finished()) {
    s->job.status = gateway::JobStatus::kQueued;
    s->job.postponed += 1;
  }
  return After(Status::Ok());
}

Status InMemoryJobStore::MarkPublished(const gateway::Job& job) {
  std::lock_guard lock(mu_);
  if (FailBefore("mark_published")) return Down();
  auto it = jobs_.find(Id(job.account_id, job.id));
  if (it != jobs_.end()) it->second.job.event_published = true;
  return After(Status::Ok());
}

void InMemoryJobStore::LoseLastClaim(const std::string& id) {
  std::lock_guard lock(mu_);
  for (auto& [k, s] : jobs_) {
    if (s.job.id != id || s.job.attempts == 0) continue;
    s.job.attempts -= 1;
    s.job.claim_id = previous_claim_[k];
  }
}

std::optional<gateway::Job> InMemoryJobStore::job(const std::string& id) {
  std::lock_guard lock(mu_);
  for (const auto& [k, s] : jobs_) {
    if (s.job.id == id) return s.job;
  }
  return std::nullopt;
}

void InMemoryJobStore::add_stored_cleaned_piece(const std::string& id, std::string piece) {
  std::lock_guard lock(mu_);
  for (auto& [k, s] : jobs_) {
    if (s.job.id != id) continue;
    s.job.cleaned_from.clear();
    s.cleaned.push_back(std::move(piece));
  }
}

size_t InMemoryJobStore::keys_of(const std::string& id) {
  std::lock_guard lock(mu_);
  size_t n = 0;
  for (const auto& [k, s] : jobs_) {
    if (s.job.id != id) continue;
    n += 1 + !s.file.empty() + !s.issues.empty() + !s.fixes.empty() + !s.cleaned.empty() +
         !s.summary.empty();
  }
  for (const auto& [k, v] : idempotency_) n += v.find(id) != std::string::npos;
  return n;
}

// --- InMemoryJobQueue --------------------------------------------------------------------------

Status InMemoryJobQueue::Enqueue(const std::string& account_id, const std::string& job_id) {
  if (Fail("queue.enqueue")) return Down();
  waiting_.push_back({std::to_string(++next_id_) + "-0", account_id, job_id});
  return Status::Ok();
}

Result<std::optional<gateway::QueueEntry>> InMemoryJobQueue::Next(const std::string& consumer,
                                                                  std::chrono::milliseconds) {
  if (waiting_.empty()) return std::optional<gateway::QueueEntry>();
  gateway::QueueEntry e = waiting_.front();
  waiting_.pop_front();
  pending_[e.entry_id] = {consumer, e};
  return std::optional<gateway::QueueEntry>(e);
}

Result<std::vector<gateway::QueueEntry>> InMemoryJobQueue::Reclaim(const std::string& consumer,
                                                                   std::chrono::milliseconds,
                                                                   int count) {
  std::vector<gateway::QueueEntry> out;
  for (auto& [id, p] : pending_) {
    if (static_cast<int>(out.size()) >= count) break;
    p.first = consumer;
    out.push_back(p.second);
  }
  return out;
}

Result<bool> InMemoryJobQueue::Heartbeat(const std::string& consumer,
                                         const std::string& entry_id) {
  if (Fail("queue.heartbeat")) return Down();
  ++heartbeats_;
  auto it = pending_.find(entry_id);
  return it != pending_.end() && it->second.first == consumer;
}

Status InMemoryJobQueue::Ack(const std::string& entry_id) {
  if (Fail("queue.ack")) {
    if (faults_->after) pending_.erase(entry_id);
    return Down();
  }
  pending_.erase(entry_id);
  return Status::Ok();
}

// --- FakeValidatorStream -----------------------------------------------------------------------

class FakeValidatorStream final : public report::ValidatorStream {
 public:
  explicit FakeValidatorStream(FakeValidatorStreamFactory& f) : f_(f) {}
  Status Start(const validator::v1::BatchSpec&) override {
    if (f_.down) return Status(ErrorCode::kUnavailable, "validator unreachable");
    return Fail("validator.start");
  }
  Status Send(const validator::v1::RowChunk& chunk) override {
    if (Status s = Fail("validator.send"); !s.ok()) return s;
    if (f_.refuse) return Status(ErrorCode::kInvalidRequest, "validator refused the chunk");
    validator::v1::IssueChunk answer;
    for (const auto& row : RowsOf(chunk.packed())) {
      ++rows_;
      for (auto& i : f_.issues_for_(rows_, row)) *answer.add_issues() = std::move(i);
    }
    answer.set_rows_done(rows_);
    answers_.push_back(std::move(answer));
    return Status::Ok();
  }
  Status Receive(validator::v1::IssueChunk* out) override {
    if (Status s = Fail("validator.receive"); !s.ok()) return s;
    if (answers_.empty()) return Status(ErrorCode::kUnavailable, "nothing in flight");
    *out = std::move(answers_.front());
    answers_.pop_front();
    return Status::Ok();
  }
  Status WritesDone() override { return Fail("validator.writes_done"); }
  Result<bool> Tail(validator::v1::ValidateStreamResponse* out) override {
    if (Status s = Fail("validator.tail"); !s.ok()) return s;
    out->Clear();
    if (tail_ == 0 && !f_.tail_issues.empty()) {
      for (const auto& i : f_.tail_issues) *out->mutable_issues()->add_issues() = i;
      ++tail_;
      return true;
    }
    if (tail_ <= 1) {
      tail_ = 2;
      auto* st = out->mutable_stats();
      st->set_rows(rows_ - std::min(rows_, f_.lose_rows));
      st->set_score(90);
      return true;
    }
    return false;
  }
  void Cancel() override { ++f_.cancelled; }

 private:
  Status Fail(const std::string& step) {
    if (f_.faults_ != nullptr && f_.faults_->Step(step)) {
      return Status(ErrorCode::kUnavailable, "injected: validator stream broke");
    }
    return Status::Ok();
  }
  FakeValidatorStreamFactory& f_;
  uint64_t rows_ = 0;
  int tail_ = 0;
  std::deque<validator::v1::IssueChunk> answers_;
};

std::unique_ptr<report::ValidatorStream> FakeValidatorStreamFactory::Open() {
  ++opened;
  return std::make_unique<FakeValidatorStream>(*this);
}

// --- RecordingEventPublisher -------------------------------------------------------------------

Status RecordingEventPublisher::Publish(const events::StreamRecord& record) {
  if (faults_ != nullptr && faults_->Step("events.publish")) {
    if (faults_->after) records.push_back(record);
    return Down();
  }
  records.push_back(record);
  return Status::Ok();
}

}  // namespace dq::testing
