// The heartbeat of the entries a worker pool is running, on its own timer: however long one
// validator batch takes, every entry in progress is touched every interval. A touch that finds
// the entry owned by another consumer marks the run lost, so that attempt stops at its next
// step (its writes would be refused by the fence anyway). Thread-safe.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "job_queue.h"

namespace dq::gateway {

class Heartbeats {
 public:
  explicit Heartbeats(JobQueue& queue) : queue_(queue) {}

  // Registers a run; the returned flag becomes true once the entry is lost.
  std::shared_ptr<std::atomic<bool>> Add(const std::string& consumer, const std::string& entry_id);
  void Remove(const std::string& entry_id);
  // Touches every registered entry once. Returns how many were touched.
  int Beat();

 private:
  struct Run {
    std::string consumer;
    std::shared_ptr<std::atomic<bool>> lost;
  };
  JobQueue& queue_;
  std::mutex mu_;
  std::map<std::string, Run> runs_;  // by entry id
};

}  // namespace dq::gateway
