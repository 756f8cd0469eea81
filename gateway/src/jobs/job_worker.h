// Job workers: threads in the gateway process (DQ_WORKERS per replica) that take entries from the
// queue and hand each to the JobRunner (job_runner.h, where the logic lives), plus one heartbeat
// thread that keeps every entry in progress alive (job_heartbeat.h).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "job_heartbeat.h"
#include "job_queue.h"
#include "job_runner.h"

namespace dq::gateway {

struct WorkerOptions {
  int threads = 2;
  std::chrono::milliseconds claim_idle{30000};  // a worker silent this long is presumed dead
  std::chrono::milliseconds heartbeat{5000};    // how often a busy worker says it is alive
};

class JobWorkers {
 public:
  JobWorkers(JobQueue& queue, JobRunner& runner, WorkerOptions options);
  ~JobWorkers();

  void Start();
  // Stops taking new jobs; jobs in progress go on. Called when the gateway starts draining.
  void RequestStop() { stop_ = true; }
  // Stops and waits up to `grace` for the threads to finish. A thread still busy then (a long
  // job, or a Redis call stuck in a DNS lookup) is left behind: its job was never acknowledged,
  // so another worker takes it again after the claim timeout. Shutdown never hangs on it.
  void Stop(std::chrono::milliseconds grace = std::chrono::seconds(3));

 private:
  void Loop(int index);
  void HeartbeatLoop();
  void RunEntry(const QueueEntry& entry, const std::string& consumer);

  JobQueue& queue_;
  JobRunner& runner_;
  WorkerOptions options_;
  Heartbeats heartbeats_;
  std::atomic<bool> stop_{false};
  std::vector<std::thread> threads_;
  // One flag per thread, set as its loop returns; shared so a detached thread may still set it.
  std::vector<std::shared_ptr<std::atomic<bool>>> finished_;
  std::mutex beat_mu_;
  std::condition_variable beat_cv_;
};

}  // namespace dq::gateway
