// Job workers: threads in the gateway process (DQ_WORKERS per replica) that take jobs from the
// queue and run them.
//
// Running a job: mark it processing; stream the stored upload through the validator in chunks
// (one ValidateStream call, so duplicates and outliers see the whole file); for each chunk,
// store its issues and its cleaned rows as they come; then store the counters, mark it done,
// delete the upload, publish job.complete and acknowledge the queue entry. Memory is one chunk
// of rows plus one piece of cleaned output, whatever the file's size.
//
// Failures: when Redis or the validator is unavailable, the job goes back to `queued` and its
// entry stays pending, to be taken again (by any worker) once the claim timeout passes. Any
// other failure, or a job that failed to finish five times, ends it `failed` with an error,
// gives its records back to the quota, and publishes job.complete with status failed.
#pragma once

#include <grpcpp/grpcpp.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "../limits/quota.h"
#include "dq/common/clock.h"
#include "dq/validator/v1/validator.grpc.pb.h"
#include "job_queue.h"
#include "job_store.h"

namespace dq::gateway {

struct WorkerOptions {
  int threads = 2;
  std::chrono::milliseconds claim_idle{30000};  // a worker silent this long is presumed dead
  std::chrono::milliseconds heartbeat{5000};    // how often a busy worker says it is alive
  size_t chunk_rows = 4096;                     // rows per RowChunk
  size_t cleaned_piece_bytes = 1024 * 1024;     // stored cleaned-file piece size
  std::chrono::milliseconds stream_deadline{30 * 60 * 1000};
  int max_attempts = 5;
};

class JobWorkers {
 public:
  JobWorkers(JobStore& store, JobQueue& queue, QuotaService& quota,
             std::shared_ptr<grpc::Channel> validator, const Clock& clock, WorkerOptions options);
  ~JobWorkers();

  void Start();
  // Stops taking new jobs; jobs in progress go on. Called when the gateway starts draining.
  void RequestStop() { stop_ = true; }
  // Stops and waits up to `grace` for the threads to finish. A thread still busy then (a long
  // job, or a Redis call stuck in a DNS lookup) is left behind: its job was never acknowledged,
  // so another worker takes it again after the claim timeout. Shutdown never hangs on it.
  void Stop(std::chrono::milliseconds grace = std::chrono::seconds(3));

  // Runs one job to its end (exposed for tests). Returns false when it must be retried later.
  bool Run(const QueueEntry& entry, const std::string& consumer);

 private:
  void Loop(int index);
  // kUnavailable: retry later. Other errors: the job fails.
  Status Process(Job& job, const QueueEntry& entry, const std::string& consumer);
  void Finish(Job& job, const QueueEntry& entry, const std::string& status,
              const std::string& error);

  JobStore& store_;
  JobQueue& queue_;
  QuotaService& quota_;
  std::unique_ptr<validator::v1::Validator::Stub> stub_;
  const Clock& clock_;
  WorkerOptions options_;
  std::atomic<bool> stop_{false};
  std::vector<std::thread> threads_;
  // One flag per thread, set as its loop returns; shared so a detached thread may still set it.
  std::vector<std::shared_ptr<std::atomic<bool>>> finished_;
};

}  // namespace dq::gateway
