// JobRunner: one queue entry taken to its end, as plain logic over JobStore, ValidatorStream,
// EventPublisher, JobQueue and Clock. No thread, socket or Redis call lives here; the worker pool
// (job_worker.h) is a thin loop around Run(), and the unit tests drive it with the fakes.
//
// The steps, each one atomic in the store (docs/architecture.md, "The job flow"):
//   1. claim      new fencing token, status processing, earlier output dropped
//   2. stream     the upload's rows through the validator in chunks, several in flight; the
//                 answers' output is stored in fenced Writes of about one cleaned piece each
//                 (issues, cleaned piece, counters, summary)
//   3. compare    with the feed's previous done job: what is new, resolved and still open
//                 (dq/report/job_changes.h), from this attempt's issues and the previous job's stored ones
//   3. finish     last output + state done/failed + counters + upload deleted + refund, fenced
//   4. publish    job.complete appended (delivery id = job id), then marked published
//   5. ack        the queue entry is done
// A write refused because a newer attempt exists stops this attempt without touching anything
// (the newer one owns the entry). A write refused because the job was deleted stops it too: the
// entry is acknowledged and no event is sent. A claim that finds the job finished but not
// published publishes it (a crash between 3 and 4 loses no event).
#pragma once

#include <atomic>
#include <chrono>
#include <list>
#include <mutex>
#include <optional>
#include <string>

#include "dq/common/clock.h"
#include "dq/common/metrics.h"
#include "dq/report/check_stream.h"
#include "dq/report/job_output.h"
#include "dq/report/validator_stream.h"
#include "event_publisher.h"
#include "dq/report/job_changes.h"
#include "job_queue.h"
#include "job_store.h"
#include "upload_handoff.h"

namespace dq::gateway {

// The job's output and its validator stream are shared with `dq check` (libs/report).
using report::IssueKeys;
using report::JobOutput;
using report::JobStages;
using report::OutputOptions;
using report::ValidatorStream;
using report::ValidatorStreamFactory;

struct RunnerOptions {
  size_t chunk_rows = report::StreamOptions{}.chunk_rows;  // rows per RowChunk, as dq check
  // Chunks sent to the validator and not yet answered, at most. More than one lets the validator
  // check the next chunks while the worker applies and stores an answer (a Redis write waits for
  // its fsync). Memory: (chunks_in_flight + 1) chunks of rows.
  size_t chunks_in_flight = report::StreamOptions{}.chunks_in_flight;
  // Attempts that ended without saying why (a crashed or lost worker) before the job fails.
  // Postponed attempts (a dependency was down) do not count; they have their own, larger bound,
  // so that a job that takes the validator down with it every time still ends.
  int max_attempts = 5;
  int max_postponed = 50;
  // A queued job not yet accepted after this long lost its upload (the gateway died before
  // answering): it is removed and its quota given back.
  std::chrono::milliseconds accept_timeout{120000};
  OutputOptions output;
  // An XLSX job's cleaned workbook is stored in pieces of this size (StoreWorkbook).
  size_t workbook_piece_bytes = 1024 * 1024;
  // The previous job's issues are read in pages of this many to compare them (dq/report/job_changes.h).
  int64_t compare_page = 1000;
  // The issue keys of the jobs this runner finished last are kept (RecentIssueKeys), at most
  // this many jobs and this many keys in all (~50 bytes each), so that the next job of a feed
  // compares with them rather than reading its previous job's issues back from the store and
  // parsing them. 0 jobs: always read.
  size_t recent_keys_jobs = 8;
  size_t recent_keys_entries = 400000;
};

// The issue keys (dq/report/job_changes.h) of the jobs finished last, by account and job id: a
// finished job's stored issues never change, and its keys were made from the very records it
// stored, so they compare as the records read back would. Take() hands a job's keys out once
// (the comparison sorts them); the oldest go first when a bound is passed. Thread-safe.
class RecentIssueKeys {
 public:
  RecentIssueKeys(size_t max_jobs, size_t max_entries)
      : max_jobs_(max_jobs), max_entries_(max_entries) {}
  void Keep(const std::string& account_id, const std::string& job_id, IssueKeys keys);
  std::optional<IssueKeys> Take(const std::string& account_id, const std::string& job_id);
  size_t jobs() const;

 private:
  struct Kept {
    std::string account_id, job_id;
    IssueKeys keys;
  };
  const size_t max_jobs_, max_entries_;
  mutable std::mutex mu_;
  std::list<Kept> kept_;  // newest first; under mu_
  size_t entries_ = 0;    // under mu_
};

enum class RunOutcome {
  kDone,            // finished done, published, acknowledged
  kFailed,          // finished failed (refunded), published, acknowledged
  kAlreadyFinished, // an earlier attempt finished it; its event is published, entry acked
  kGone,            // no such job (deleted, expired): entry acked, nothing sent
  kCancelled,       // deleted while this attempt ran: stopped, entry acked, nothing sent
  kSuperseded,      // a newer attempt owns the job: stopped, nothing written
  kNotAccepted,     // its upload is still answering: try the entry again shortly
  kAbandoned,       // never accepted, too old: removed, quota given back, entry acked
  kRetryLater,      // a dependency is down: the entry stays pending and is taken again later
};

const char* RunOutcomeName(RunOutcome outcome);

// The job runner's and the workers' series, declared once (docs/deploy.md lists them). Each
// appears on /metrics at its first use.
struct JobRunnerMetrics {
  explicit JobRunnerMetrics(Metrics& registry);
  // The process's, over Metrics::Global() (what /metrics shows).
  static JobRunnerMetrics& Global();

  LazyCounter jobs_done;    // dq_jobs_total{status="done"}
  LazyCounter jobs_failed;  // dq_jobs_total{status="failed"}
  // dq_job_bookkeeping_errors_total{step}: writes after a job's end that failed; a later claim
  // redoes them (JobRunner::Ack, JobRunner::Publish).
  LazyCounter ack_errors;             // step="ack"
  LazyCounter mark_published_errors;  // step="mark_published"
  LazyHistogram job_seconds;  // dq_job_seconds: from a worker taking a job to its end

  // jobs_done or jobs_failed.
  LazyCounter& Finished(JobStatus status) {
    return status == JobStatus::kDone ? jobs_done : jobs_failed;
  }
};

class JobRunner {
 public:
  JobRunner(JobStore& store, JobQueue& queue, ValidatorStreamFactory& validator,
            EventPublisher& events, const Clock& clock, RunnerOptions options,
            JobRunnerMetrics& metrics = JobRunnerMetrics::Global())
      : store_(store), queue_(queue), validator_(validator), events_(events), clock_(clock),
        options_(options), metrics_(metrics),
        recent_keys_(options.recent_keys_jobs, options.recent_keys_entries) {}

  JobRunnerMetrics& metrics() { return metrics_; }
  const RecentIssueKeys& recent_keys() const { return recent_keys_; }
  // Where uploads this process took leave their raw pieces (upload_handoff.h); the stream
  // reads a piece from there when it is there, from the store otherwise. Before the first Run.
  void SetUploadHandoff(UploadHandoff* handoff) { handoff_ = handoff; }

  // Runs the entry's job. `lost` is set by the heartbeat when the entry was taken over by
  // another worker; the attempt then stops at its next step. Thread-safe (one call per entry).
  RunOutcome Run(const QueueEntry& entry, const std::atomic<bool>& lost);

 private:
  // Streams the job and finishes it `done`. kAborted / kNotFound: fenced out. kUnavailable:
  // retry later. Other errors: the job fails.
  Status Process(Job& job, const std::atomic<bool>& lost, JobStages& stages);
  // Writes an XLSX job's cleaned workbook once, from the stored upload and fixes, and stores it.
  Status StoreWorkbook(Job& job, JobOutput& output, IssueKeys& keys);
  Status Stream(Job& job, JobOutput& output, ValidatorStream& stream,
                const std::atomic<bool>& lost, JobStages& stages, IssueKeys& keys);
  // Sets job.previous_job_id and job.changes when the feed has an earlier done job. Best
  // effort: a store error leaves them empty (the job is still done) and is logged.
  void CompareWithPrevious(Job& job, IssueKeys& keys, bool complete);
  // Finishes as failed, then publishes.
  RunOutcome Fail(Job& job, const QueueEntry& entry, const std::string& error);
  // Publishes job.complete for a finished job, marks it, acks the entry.
  RunOutcome Publish(const Job& job, const QueueEntry& entry, RunOutcome success);
  // Acknowledges the entry; a failure is logged and counted (the reclaim redoes it).
  void Ack(const QueueEntry& entry);
  // What a fenced-out write means for the entry.
  RunOutcome Fenced(const Status& s, const QueueEntry& entry);

  JobStore& store_;
  JobQueue& queue_;
  ValidatorStreamFactory& validator_;
  EventPublisher& events_;
  const Clock& clock_;
  RunnerOptions options_;
  JobRunnerMetrics& metrics_;
  RecentIssueKeys recent_keys_;
  UploadHandoff* handoff_ = nullptr;
};

}  // namespace dq::gateway
