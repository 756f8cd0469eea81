// RedisJobStore (redis_job_store.h): reading a job's files, from the artifact store or from
// Redis as the job has them: the upload's pieces (FilePiece, for the worker), its issues, fixes
// pieces, cleaned file pieces and summary (Issues, FixesPiece, CleanedPiece, Summary, read as
// committed: Committed).
#include "job_artifacts.h"
#include "piece_codec.h"
#include "redis_job_store.h"
#include "redis_job_store_internal.h"

namespace dq::gateway {
namespace {

// One object of the store, decompressed; kNotFound when it is not there.
Result<std::string> ReadPiece(artifact::ArtifactStore& store, const Result<std::string>& key) {
  if (!key.ok()) return key.status();
  auto stored = store.GetAll(*key, static_cast<int64_t>(kMaxPieceBytes));
  if (!stored.ok()) return stored.status();
  return DecompressPiece(*stored);
}

Status NoStore(const Job& job) {
  return Status(ErrorCode::kInternal, "job " + job.id +
                                          " keeps its files in the artifact store, which this "
                                          "process has not been given (DQ_ARTIFACT_STORE)");
}

}  // namespace

using redis_store::Int;

Result<Job> RedisJobStore::Committed(const Job& job) {
  if (artifacts_ == nullptr || job.finished()) return job;
  auto r = redis_.Command({"HMGET", JobKey(job.account_id, job.id), "issue_pages", "fix_pieces",
                           "cleaned_pieces", "output_attempt"});
  if (!r.ok()) return r.status();
  if (r->elements.size() != 4) return job;
  Job now = job;
  now.issue_pages = Int(r->elements[0].str);
  now.fix_pieces = Int(r->elements[1].str);
  now.cleaned_pieces = Int(r->elements[2].str);
  now.output_attempt = r->elements[3].str;
  return now;
}

Result<std::string> RedisJobStore::FilePiece(const Job& job, int64_t index) {
  if (job.file_store == kFileInStore) {
    if (artifacts_ == nullptr) return NoStore(job);
    auto key = FilePieceKey(job, index);
    if (!key.ok()) return key.status();
    auto stored = artifacts_->GetAll(*key, static_cast<int64_t>(kMaxPieceBytes));
    if (stored.ok()) return DecodePiece(job.pieces, std::move(*stored));
    if (stored.status().code() != ErrorCode::kNotFound) return stored.status();
    auto exists = redis_.Command({"EXISTS", JobKey(job.account_id, job.id)});
    if (exists.ok() && exists->integer == 0) {
      return Status(ErrorCode::kNotFound, "job " + job.id + " was deleted");
    }
    return Status(ErrorCode::kInternal,
                  "piece " + std::to_string(index) + " of the upload is missing");
  }
  auto reply =
      redis_.Command({"LINDEX", JobPartKey(job.account_id, job.id, "file"), std::to_string(index)});
  if (!reply.ok()) return reply.status();
  if (reply->is_nil()) {
    // Deleted with the job, or (a bug) lost: either way this attempt cannot go on.
    auto exists = redis_.Command({"EXISTS", JobKey(job.account_id, job.id)});
    if (exists.ok() && exists->integer == 0) {
      return Status(ErrorCode::kNotFound, "job " + job.id + " was deleted");
    }
    return Status(ErrorCode::kInternal,
                  "piece " + std::to_string(index) + " of the upload is missing");
  }
  return DecodePiece(job.pieces, std::move(reply->str));
}

Result<std::vector<std::string>> RedisJobStore::Issues(const Job& snapshot, int64_t offset,
                                                       int64_t count) {
  auto committed = Committed(snapshot);
  if (!committed.ok()) return committed.status();
  const Job& job = *committed;
  // The records in the :issues list: every issue of a job stored before the artifact store, or
  // those not yet in a whole page.
  auto list = [&](int64_t from, int64_t n) -> Result<std::vector<std::string>> {
    const int64_t stop = n < 0 ? -1 : from + n - 1;
    auto reply = redis_.Command({"LRANGE", JobPartKey(job.account_id, job.id, "issues"),
                                 std::to_string(from), std::to_string(stop)});
    if (!reply.ok()) return reply.status();
    std::vector<std::string> out;
    out.reserve(reply->elements.size());
    for (auto& e : reply->elements) out.push_back(std::move(e.str));
    return out;
  };
  if (job.issue_pages == 0) return list(offset, count);
  if (artifacts_ == nullptr) return NoStore(job);
  return ReadIssues(*artifacts_, job, offset, count, list);
}

Result<std::optional<std::string>> RedisJobStore::FixesPiece(const Job& snapshot, int64_t index) {
  auto committed = Committed(snapshot);
  if (!committed.ok()) return committed.status();
  const Job& job = *committed;
  if (index < job.fix_pieces) {
    if (artifacts_ == nullptr) return NoStore(job);
    auto piece = ReadPiece(*artifacts_, FixPieceKey(job, job.output_attempt, index));
    if (!piece.ok()) return piece.status();
    return std::optional<std::string>(std::move(*piece));
  }
  auto reply = redis_.Command({"LINDEX", JobPartKey(job.account_id, job.id, "fixes"),
                               std::to_string(index - job.fix_pieces)});
  if (!reply.ok()) return reply.status();
  if (reply->is_nil()) return std::optional<std::string>();
  return std::optional<std::string>(std::move(reply->str));
}

Result<std::optional<std::string>> RedisJobStore::CleanedPiece(const Job& snapshot,
                                                               int64_t index) {
  auto committed = Committed(snapshot);
  if (!committed.ok()) return committed.status();
  const Job& job = *committed;
  if (index < job.cleaned_pieces) {
    if (artifacts_ == nullptr) return NoStore(job);
    auto piece = ReadPiece(*artifacts_, CleanedPieceKey(job, job.output_attempt, index));
    if (!piece.ok()) return piece.status();
    return std::optional<std::string>(std::move(*piece));
  }
  auto reply = redis_.Command({"LINDEX", JobPartKey(job.account_id, job.id, "cleaned"),
                               std::to_string(index - job.cleaned_pieces)});
  if (!reply.ok()) return reply.status();
  if (reply->is_nil()) return std::optional<std::string>();
  auto piece = DecodePiece(job.pieces, std::move(reply->str));
  if (!piece.ok()) return piece.status();
  return std::optional<std::string>(std::move(*piece));
}

Result<std::string> RedisJobStore::Summary(const Job& job) {
  auto reply = redis_.Command({"GET", JobPartKey(job.account_id, job.id, "summary")});
  if (!reply.ok()) return reply.status();
  return reply->is_nil() ? std::string() : std::move(reply->str);
}

}  // namespace dq::gateway
