// The scheduled sweep of orphaned job objects (issue 34): objects of failed or fenced-out
// attempts, of jobs that expired or were deleted while the store could not delete at once, and of
// uploads whose gateway died before the job existed. A worker duty: every process that runs job
// workers (DQ_ROLE worker or all) has a sweeper, and a lease in Redis lets only one of them sweep
// per interval.
//
// The sweep itself is SweepOrphans (job_artifacts.h): it deletes only what no live job names,
// and only objects older than the grace, so an object between its write and its commit is never
// taken. Any failure (the store or Redis unreachable) stops a round before it deletes on a guess.
//
// Thread-safety: Start/Stop from one thread; RunOnce may be called from any one thread at a time.
#pragma once

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "dq/artifact/artifact_store.h"
#include "dq/common/clock.h"
#include "dq/common/redis_client.h"
#include "dq/common/status.h"
#include "job_artifacts.h"
#include "jobs/sweep_metrics.h"

namespace dq::gateway {

// Who sweeps this interval. TryTake answers true to at most one caller per `ttl`; the lease is
// never given back, it expires (a sweep that outlives it at worst runs beside the next one, which
// is harmless: both delete only orphans). Errors: kUnavailable.
class SweepLease {
 public:
  virtual ~SweepLease() = default;
  virtual Result<bool> TryTake(std::chrono::milliseconds ttl) = 0;
};

// SET dq:sweep:lease <owner> NX PX ttl (deploy/redis/users.acl grants it to dq-worker and
// dq-gateway).
class RedisSweepLease final : public SweepLease {
 public:
  RedisSweepLease(RedisClient& redis, std::string owner)
      : redis_(redis), owner_(std::move(owner)) {}
  Result<bool> TryTake(std::chrono::milliseconds ttl) override;

 private:
  RedisClient& redis_;
  std::string owner_;
};

struct SweepOptions {
  std::chrono::seconds interval{3600};  // DQ_ARTIFACT_SWEEP_INTERVAL_SECONDS
  std::chrono::seconds grace{3600};     // DQ_ARTIFACT_SWEEP_GRACE_SECONDS
};

class OrphanSweeper {
 public:
  OrphanSweeper(artifact::ArtifactStore& store, JobLookup lookup, SweepLease& lease,
                const Clock& clock, SweepOptions options,
                SweepMetrics& metrics = SweepMetrics::Global());
  ~OrphanSweeper();

  // One round: takes the lease and sweeps. nullopt when another process holds the lease.
  // Logs and counts the round (dq_artifact_sweep_objects_deleted_total, _errors_total).
  Result<std::optional<SweepStats>> RunOnce();

  // A thread that runs a round every interval, the first one an interval after Start.
  void Start();
  void Stop();

 private:
  artifact::ArtifactStore& store_;
  JobLookup lookup_;
  SweepLease& lease_;
  const Clock& clock_;
  SweepOptions options_;
  SweepMetrics& metrics_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace dq::gateway
