#include "job_runner.h"

#include <algorithm>

#include "dq/common/log.h"
#include "dq/common/time_format.h"
#include "dq/ingest/row_reader.h"
#include "dq/report/cleaned_file.h"
#include "dq/report/stage_timer.h"
#include "validate/validate_request.h"

namespace dq::gateway {
namespace {

using report::CleanedFile;
using report::CompareIssues;
using report::CompareOptions;
using report::Fixed1;
using report::StageTimer;

bool IsFenced(const Status& s) {
  return s.code() == ErrorCode::kAborted || s.code() == ErrorCode::kNotFound;
}

Status Superseded() { return Status(ErrorCode::kAborted, "a newer attempt owns the job"); }

void LogBookkeepingError(const char* step, const std::string& job_id, const Status& s) {
  log::Warn(std::string("job bookkeeping failed: ") + step,
            {{"job_id", job_id}, {"step", step}, {"error", s.message()}});
}

}  // namespace

JobRunnerMetrics::JobRunnerMetrics(Metrics& registry)
    : jobs_done(registry, "dq_jobs_total", "Jobs finished by status", "status=\"done\""),
      jobs_failed(registry, "dq_jobs_total", "Jobs finished by status", "status=\"failed\""),
      ack_errors(registry, "dq_job_bookkeeping_errors_total",
                 "Writes after a job's end that failed and are redone by a later claim, by step",
                 "step=\"ack\""),
      mark_published_errors(
          registry, "dq_job_bookkeeping_errors_total",
          "Writes after a job's end that failed and are redone by a later claim, by step",
          "step=\"mark_published\""),
      job_seconds(registry, "dq_job_seconds", "Time from a worker taking a job to its end") {}

JobRunnerMetrics& JobRunnerMetrics::Global() {
  static JobRunnerMetrics* metrics = new JobRunnerMetrics(Metrics::Global());  // never destroyed
  return *metrics;
}

// A failed bookkeeping write loses nothing (see the callers), but a run of them says Redis is in
// trouble: each is logged and counted.
void JobRunner::Ack(const QueueEntry& entry) {
  // Not acknowledged, the entry stays pending: the reclaim hands it to a worker again, whose
  // claim finds the job finished (or gone) and acknowledges it then.
  if (Status s = queue_.Ack(entry.entry_id); !s.ok()) {
    LogBookkeepingError("ack", entry.job_id, s);
    metrics_.ack_errors.Inc();
  }
}

const char* RunOutcomeName(RunOutcome o) {
  switch (o) {
    case RunOutcome::kDone: return "done";
    case RunOutcome::kFailed: return "failed";
    case RunOutcome::kAlreadyFinished: return "already_finished";
    case RunOutcome::kGone: return "gone";
    case RunOutcome::kCancelled: return "cancelled";
    case RunOutcome::kSuperseded: return "superseded";
    case RunOutcome::kNotAccepted: return "not_accepted";
    case RunOutcome::kAbandoned: return "abandoned";
    case RunOutcome::kRetryLater: return "retry_later";
  }
  return "unknown";
}

RunOutcome JobRunner::Run(const QueueEntry& entry, const std::atomic<bool>& lost) {
  const auto now = clock_.Now();
  auto claim = store_.ClaimJob(entry.account_id, entry.job_id, FormatIso8601Millis(now));
  if (!claim.ok()) {
    // Redis full or unreachable: the job stays queued, unchanged, and is taken again later.
    log::Warn("job not taken now; it stays queued",
              {{"job_id", entry.job_id}, {"error", claim.status().message()}});
    return RunOutcome::kRetryLater;
  }
  Job& job = claim->job;
  switch (claim->kind) {
    case ClaimKind::kGone:
      Ack(entry);
      return RunOutcome::kGone;
    case ClaimKind::kFinished:
      if (job.event_published) {
        Ack(entry);
        return RunOutcome::kAlreadyFinished;
      }
      return Publish(job, entry, RunOutcome::kAlreadyFinished);
    case ClaimKind::kNotAccepted:
      if (UnixMillis(now) - job.created_ms < options_.accept_timeout.count()) {
        return RunOutcome::kNotAccepted;
      }
      if (!store_.Abandon(job).ok()) return RunOutcome::kRetryLater;
      Ack(entry);
      return RunOutcome::kAbandoned;
    case ClaimKind::kRun:
      break;
  }
  // This claim is attempt number job.attempts; the earlier ones either were postponed or ended
  // unexplained.
  if (job.attempts - job.postponed > options_.max_attempts) {
    return Fail(job, entry,
                "The job could not be completed after " +
                    std::to_string(job.attempts - 1 - job.postponed) + " attempts.");
  }
  if (job.postponed > options_.max_postponed) {
    return Fail(job, entry,
                "The job could not be completed: the validator or the store was unavailable in " +
                    std::to_string(job.postponed) + " attempts.");
  }
  const int64_t reserved_rows = job.rows_total;  // what the upload took from the quota
  JobStages stages;
  Status s = Process(job, lost, stages);
  if (s.ok()) {
    log::Info("job stages (ms of wall time)",
              {{"job_id", job.id}, {"fetch", Fixed1(stages.fetch)}, {"read", Fixed1(stages.read)},
               {"encode", Fixed1(stages.encode)}, {"send", Fixed1(stages.send)},
               {"wait", Fixed1(stages.wait)}, {"apply", Fixed1(stages.apply)},
               {"store", Fixed1(stages.store)}, {"tail", Fixed1(stages.tail)},
               {"finish", Fixed1(stages.finish)}});
    return Publish(job, entry, RunOutcome::kDone);
  }
  if (IsFenced(s)) return Fenced(s, entry);
  if (s.code() == ErrorCode::kUnavailable) {
    log::Warn("job postponed", {{"job_id", job.id}, {"error", s.message()}});
    Status p = store_.Postpone(job);  // best effort: a reclaim puts it right later
    if (IsFenced(p)) return Fenced(p, entry);
    return RunOutcome::kRetryLater;
  }
  log::Error("job failed", {{"job_id", job.id}, {"error", s.message()}});
  job.rows_total = reserved_rows;
  return Fail(job, entry, s.message());
}

Status JobRunner::Process(Job& job, const std::atomic<bool>& lost, JobStages& stages) {
  JobOutput output(job, options_.output);
  IssueKeys keys;  // this attempt's issues, for the comparison with the feed's previous job
  auto stream = validator_.Open();
  Status s = Stream(job, output, *stream, lost, stages, keys);
  if (!s.ok()) {
    stream->Cancel();
    return s;
  }
  if (lost.load()) return Superseded();
  if (job.format == ingest::FileFormat::kXlsx) {
    StageTimer t(stages.finish);
    if (Status w = StoreWorkbook(job, output, keys); !w.ok()) return w;
  } else {
    job.cleaned_from = kCleanedFromFixes;  // the upload stays: the download writes from it
  }
  JobEnd end;
  end.status = JobStatus::kDone;
  end.finished_at = FormatIso8601Millis(clock_.Now());
  job.status = end.status;
  job.finished_at = end.finished_at;
  JobWrite last = output.TakeWrite();
  job.issues = last.issues_stored;
  job.issues_found = last.issues_found;
  job.rows_done = last.rows_done;
  StageTimer t(stages.finish);
  for (const auto& issue : last.issues) keys.Add(issue);
  CompareWithPrevious(job, keys, last.issues_found <= last.issues_stored);
  Status finished = store_.Finish(job, last, end);
  // Kept only once the job is done with exactly these issues stored.
  if (finished.ok()) recent_keys_.Keep(job.account_id, job.id, std::move(keys));
  return finished;
}

void RecentIssueKeys::Keep(const std::string& account_id, const std::string& job_id,
                           IssueKeys keys) {
  if (max_jobs_ == 0 || keys.size() > max_entries_) return;
  std::lock_guard lock(mu_);
  entries_ += keys.size();
  kept_.push_front({account_id, job_id, std::move(keys)});
  while (kept_.size() > max_jobs_ || entries_ > max_entries_) {
    entries_ -= kept_.back().keys.size();
    kept_.pop_back();
  }
}

std::optional<IssueKeys> RecentIssueKeys::Take(const std::string& account_id,
                                               const std::string& job_id) {
  std::lock_guard lock(mu_);
  for (auto it = kept_.begin(); it != kept_.end(); ++it) {
    if (it->account_id != account_id || it->job_id != job_id) continue;
    IssueKeys keys = std::move(it->keys);
    entries_ -= keys.size();
    kept_.erase(it);
    return keys;
  }
  return std::nullopt;
}

size_t RecentIssueKeys::jobs() const {
  std::lock_guard lock(mu_);
  return kept_.size();
}

void JobRunner::CompareWithPrevious(Job& job, IssueKeys& keys, bool complete) {
  job.previous_job_id.clear();
  job.changes.clear();
  if (job.feed.empty()) return;
  JobQuery query;
  query.feed = job.feed;
  query.before_ms = job.created_ms;
  query.limit = 30;
  auto jobs = store_.Query(job.account_id, query);
  if (!jobs.ok()) {
    log::Warn("feed not compared", {{"job_id", job.id}, {"error", jobs.status().message()}});
    return;
  }
  const Job* previous = nullptr;
  for (const auto& j : *jobs) {
    if (j.status == JobStatus::kDone && j.id != job.id) {
      previous = &j;
      break;
    }
  }
  if (previous == nullptr) return;
  // Kept by this runner when it finished that job, or read back from the store.
  std::optional<IssueKeys> kept = recent_keys_.Take(job.account_id, previous->id);
  IssueKeys before = kept ? std::move(*kept) : IssueKeys();
  const int64_t page = std::max<int64_t>(1, options_.compare_page);
  for (int64_t at = 0; !kept; at += page) {
    auto records = store_.Issues(*previous, at, page);
    if (!records.ok()) {
      log::Warn("feed not compared",
                {{"job_id", job.id}, {"error", records.status().message()}});
      return;
    }
    for (const auto& r : *records) before.Add(r);
    if (static_cast<int64_t>(records->size()) < page) break;
  }
  CompareOptions options;
  options.previous_job_id = previous->id;
  options.complete = complete && previous->issues_found <= previous->issues;
  options.partial_rows = job.max_rows > 0 || previous->max_rows > 0;
  job.previous_job_id = previous->id;
  job.changes = CompareIssues(before, keys, options)
                    .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Every other format's cleaned file is written on download, a part at a time, from the upload
// and the fixes. A workbook cannot be: the XLSX reader holds the whole upload and the writer the
// whole sheet, so each download would hold the file several times over, and a few parallel ones
// could exhaust the gateway. So an XLSX job writes its workbook once, here, with the same
// CleanedFile, and keeps it whole; the download sends the stored pieces, and the upload goes
// with the finish.
Status JobRunner::StoreWorkbook(Job& job, JobOutput& output, IssueKeys& keys) {
  JobWrite write = output.TakeWrite();
  for (const auto& issue : write.issues) keys.Add(issue);
  if (Status s = store_.Write(job, write); !s.ok()) return s;  // every fix stored
  CleanedFile file(job, [&](int64_t i) { return store_.FilePiece(job, i); },
                   [&](int64_t i) { return store_.FixesPiece(job, i); });
  std::string book;
  // Asked for everything at once, it ends or fails in one call (a workbook is built whole).
  if (auto more = file.Next(&book, SIZE_MAX); !more.ok()) return more.status();
  const size_t piece = std::max<size_t>(1, options_.workbook_piece_bytes);
  for (size_t at = 0; at < book.size(); at += piece) {
    const std::string_view part = std::string_view(book).substr(at, piece);
    if (Status s = store_.WriteCleanedPiece(job, part); !s.ok()) return s;
  }
  return Status::Ok();
}

Status JobRunner::Stream(Job& job, JobOutput& output, ValidatorStream& stream,
                         const std::atomic<bool>& lost, JobStages& stages, IssueKeys& keys) {
  auto piece = [&](int64_t i) -> Result<std::string> {
    if (handoff_ != nullptr) {
      if (auto raw = handoff_->Take(job.account_id, job.id, i)) return std::move(*raw);
    }
    return store_.FilePiece(job, i);
  };
  report::StreamInput input{job, piece, job.rows_total};
  input.max_rows = job.max_rows;
  const report::StreamOptions options{options_.chunk_rows, options_.chunks_in_flight};
  // After each answer: stored (one fenced write) once enough output is pending.
  auto after_answer = [&](bool last) -> Status {
    if (lost.load()) return Superseded();
    if (last || !output.WriteDue()) return Status::Ok();
    StageTimer t(stages.store);
    JobWrite write = output.TakeWrite();
    for (const auto& issue : write.issues) keys.Add(issue);
    return store_.Write(job, write);
  };
  validator::v1::Stats st;
  if (Status s = report::StreamCheck(input, output, stream, options, after_answer, stages, &st);
      !s.ok()) {
    return s;
  }
  job.rows_total = static_cast<int64_t>(st.rows());
  job.rows_error = static_cast<int64_t>(st.rows_error());
  job.rows_warning = static_cast<int64_t>(st.rows_warning());
  job.rows_fixed = static_cast<int64_t>(st.rows_fixed());
  job.errors = static_cast<int64_t>(st.errors());
  job.warnings = static_cast<int64_t>(st.warnings());
  job.fixes = static_cast<int64_t>(st.fixes());
  job.health_score = st.score();
  if (!job.platform.empty()) job.channels = ChannelsJson(st);
  return Status::Ok();
}

RunOutcome JobRunner::Fail(Job& job, const QueueEntry& entry, const std::string& error) {
  JobEnd end;
  end.status = JobStatus::kFailed;
  end.error = error;
  end.finished_at = FormatIso8601Millis(clock_.Now());
  end.refund = job.rows_total;
  job.status = end.status;
  job.error = end.error;
  job.finished_at = end.finished_at;
  JobWrite none;
  none.rows_done = job.rows_done;
  none.issues_stored = job.issues;
  none.issues_found = job.issues_found;
  Status s = store_.Finish(job, none, end);
  if (IsFenced(s)) return Fenced(s, entry);
  if (!s.ok()) {
    log::Warn("job state not saved; it will be retried", {{"job_id", job.id}});
    return RunOutcome::kRetryLater;  // not acknowledged: another attempt finishes it
  }
  return Publish(job, entry, RunOutcome::kFailed);
}

RunOutcome JobRunner::Publish(const Job& job, const QueueEntry& entry, RunOutcome success) {
  const auto now = clock_.Now();
  events::JobComplete e;
  e.job_id = job.id;
  e.filename = job.filename;
  e.status = JobStatusName(job.status);
  e.timestamp = job.finished_at.empty() ? FormatIso8601Millis(now) : job.finished_at;
  e.rows = job.rows_total;
  e.errors = job.errors;
  e.warnings = job.warnings;
  e.fixes = job.fixes;
  e.score = job.health_score;
  if (Status s = events_.Publish(events::JobCompleteRecord(job.account_id, e, UnixMillis(now)));
      !s.ok()) {
    // Not acknowledged: the next attempt finds the job finished but unpublished and publishes.
    log::Warn("job.complete not published; it will be published again", {{"job_id", job.id}});
    return RunOutcome::kRetryLater;
  }
  // Not marked, the event is published again by the next claim of the job, if there is one (the
  // entry is not acknowledged, or is reclaimed): receivers deduplicate by delivery id.
  if (Status s = store_.MarkPublished(job); !s.ok()) {
    LogBookkeepingError("mark_published", job.id, s);
    metrics_.mark_published_errors.Inc();
  }
  Ack(entry);
  metrics_.Finished(job.status).Inc();
  log::Info("job finished", {{"job_id", job.id}, {"status", std::string(JobStatusName(job.status))},
                             {"rows", std::to_string(job.rows_total)}});
  return success;
}

RunOutcome JobRunner::Fenced(const Status& s, const QueueEntry& entry) {
  if (s.code() == ErrorCode::kNotFound) {  // deleted: nothing more to do for anyone
    Ack(entry);
    return RunOutcome::kCancelled;
  }
  return RunOutcome::kSuperseded;  // the newer attempt owns the entry; leave it alone
}

}  // namespace dq::gateway
