#include "job_heartbeat.h"

#include <vector>

namespace dq::gateway {

std::shared_ptr<std::atomic<bool>> Heartbeats::Add(const std::string& consumer,
                                                   const std::string& entry_id) {
  auto lost = std::make_shared<std::atomic<bool>>(false);
  std::lock_guard lock(mu_);
  runs_[entry_id] = Run{consumer, lost};
  return lost;
}

void Heartbeats::Remove(const std::string& entry_id) {
  std::lock_guard lock(mu_);
  runs_.erase(entry_id);
}

int Heartbeats::Beat() {
  std::vector<std::pair<std::string, Run>> runs;
  {
    std::lock_guard lock(mu_);
    runs.assign(runs_.begin(), runs_.end());
  }
  int touched = 0;
  for (const auto& [entry_id, run] : runs) {
    auto owned = queue_.Heartbeat(run.consumer, entry_id);
    if (!owned.ok()) continue;  // the queue is down: try again next time
    if (*owned) {
      ++touched;
    } else {
      run.lost->store(true);
    }
  }
  return touched;
}

}  // namespace dq::gateway
