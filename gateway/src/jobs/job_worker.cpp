#include "job_worker.h"

#include <unistd.h>

#include <algorithm>

#include "dq/common/log.h"

namespace dq::gateway {
namespace {

std::string ConsumerName(int index) {
  char host[256] = {0};
  gethostname(host, sizeof host - 1);
  return std::string(host) + "-" + std::to_string(getpid()) + "-" + std::to_string(index);
}

}  // namespace

JobWorkers::JobWorkers(JobQueue& queue, JobRunner& runner, WorkerOptions options)
    : queue_(queue), runner_(runner), options_(options), heartbeats_(queue) {}

JobWorkers::~JobWorkers() { Stop(); }

void JobWorkers::Start() {
  if (Status s = queue_.EnsureGroup(); !s.ok()) {
    log::Warn("job queue group not created yet", {{"error", s.message()}});
  }
  // Thread 0 is the heartbeat; the others run jobs.
  for (int i = 0; i <= options_.threads; ++i) {
    auto done = std::make_shared<std::atomic<bool>>(false);
    finished_.push_back(done);
    threads_.emplace_back([this, i, done] {
      if (i == 0) {
        HeartbeatLoop();
      } else {
        Loop(i - 1);
      }
      done->store(true);
    });
  }
}

void JobWorkers::Stop(std::chrono::milliseconds grace) {
  stop_ = true;
  beat_cv_.notify_all();
  const auto deadline = std::chrono::steady_clock::now() + grace;
  for (size_t i = 0; i < threads_.size(); ++i) {
    while (!finished_[i]->load() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (!threads_[i].joinable()) continue;
    if (finished_[i]->load()) {
      threads_[i].join();
    } else {
      log::Warn("job worker still busy at shutdown; its job will be taken again");
      threads_[i].detach();
    }
  }
  threads_.clear();
  finished_.clear();
}

void JobWorkers::HeartbeatLoop() {
  std::unique_lock lock(beat_mu_);
  while (!stop_) {
    beat_cv_.wait_for(lock, options_.heartbeat, [this] { return stop_.load(); });
    lock.unlock();
    heartbeats_.Beat();
    lock.lock();
  }
}

void JobWorkers::RunEntry(const QueueEntry& entry, const std::string& consumer) {
  const auto lost = heartbeats_.Add(consumer, entry.entry_id);
  const auto start = std::chrono::steady_clock::now();
  RunOutcome outcome = runner_.Run(entry, *lost);
  // An upload still answering its client (the entry is queued a moment before the job is
  // accepted, so a free worker usually gets here first): look again soon, then less often
  // (1, 2, 4, ... 50 ms; about 2 s in all) before leaving the entry to the reclaim.
  auto pause = std::chrono::milliseconds(1);
  for (int i = 0; i < 50 && outcome == RunOutcome::kNotAccepted && !stop_; ++i) {
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(50));
    outcome = runner_.Run(entry, *lost);
  }
  heartbeats_.Remove(entry.entry_id);
  if (outcome == RunOutcome::kDone || outcome == RunOutcome::kFailed) {
    runner_.metrics().job_seconds.Observe(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  if (outcome == RunOutcome::kRetryLater) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1000));
  }
}

void JobWorkers::Loop(int index) {
  const std::string consumer = ConsumerName(index);
  auto last_reclaim = std::chrono::steady_clock::time_point();
  while (!stop_) {
    std::vector<QueueEntry> work;
    // Now and then, take over jobs whose worker went silent.
    if (std::chrono::steady_clock::now() - last_reclaim > options_.claim_idle / 4) {
      last_reclaim = std::chrono::steady_clock::now();
      auto stale = queue_.Reclaim(consumer, options_.claim_idle, 1);
      if (stale.ok()) work = std::move(*stale);
    }
    if (work.empty()) {
      auto next = queue_.Next(consumer, std::chrono::milliseconds(1000));
      if (!next.ok()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(500));  // Redis down: wait
        continue;
      }
      if (next->has_value()) work.push_back(std::move(**next));
    }
    for (const auto& entry : work) RunEntry(entry, consumer);
  }
}

}  // namespace dq::gateway
