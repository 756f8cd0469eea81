#include "orphan_sweeper.h"

#include "dq/common/log.h"

namespace dq::gateway {

Result<bool> RedisSweepLease::TryTake(std::chrono::milliseconds ttl) {
  auto r = redis_.Command(
      {"SET", "dq:sweep:lease", owner_, "NX", "PX", std::to_string(std::max<int64_t>(1, ttl.count()))});
  if (!r.ok()) return r.status();
  return !r->is_nil();
}

OrphanSweeper::OrphanSweeper(artifact::ArtifactStore& store, JobLookup lookup, SweepLease& lease,
                             const Clock& clock, SweepOptions options, SweepMetrics& metrics)
    : store_(store),
      lookup_(std::move(lookup)),
      lease_(lease),
      clock_(clock),
      options_(options),
      metrics_(metrics) {}

OrphanSweeper::~OrphanSweeper() { Stop(); }

Result<std::optional<SweepStats>> OrphanSweeper::RunOnce() {
  CounterMetric& errors = metrics_.errors.Get();  // shown from the first round on
  // A little less than the interval, so the next round's holder is never refused by this one's
  // lease when the clocks of two processes tick a few milliseconds apart.
  const auto ttl = std::chrono::duration_cast<std::chrono::milliseconds>(options_.interval) * 9 / 10;
  auto taken = lease_.TryTake(ttl);
  if (!taken.ok()) {
    errors.Inc();
    log::Warn("orphan sweep skipped: no lease", {{"error", taken.status().message()}});
    return taken.status();
  }
  if (!*taken) return std::optional<SweepStats>();
  const int64_t now =
      std::chrono::duration_cast<std::chrono::seconds>(clock_.Now().time_since_epoch()).count();
  const auto start = std::chrono::steady_clock::now();
  auto stats = SweepOrphans(store_, lookup_, now, options_.grace.count());
  if (!stats.ok()) {
    errors.Inc();
    log::Warn("orphan sweep stopped", {{"error", stats.status().message()}});
    return stats.status();
  }
  metrics_.objects_deleted.Inc(static_cast<uint64_t>(stats->objects_deleted));
  log::Info("orphan sweep done",
            {{"jobs_seen", std::to_string(stats->jobs_seen)},
             {"prefixes_deleted", std::to_string(stats->prefixes_deleted)},
             {"objects_deleted", std::to_string(stats->objects_deleted)},
             {"ms", std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(
                                       std::chrono::steady_clock::now() - start)
                                       .count())}});
  return std::optional<SweepStats>(*stats);
}

void OrphanSweeper::Start() {
  thread_ = std::thread([this] {
    std::unique_lock lock(mu_);
    while (!stop_) {
      if (cv_.wait_for(lock, options_.interval, [this] { return stop_; })) break;
      lock.unlock();
      IgnoreError(RunOnce(), "logged and counted by RunOnce; the next round tries again");
      lock.lock();
    }
  });
}

void OrphanSweeper::Stop() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

}  // namespace dq::gateway
