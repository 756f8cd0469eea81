#include "worker_pool.h"

#include <algorithm>

namespace dq::validator {

WorkerPool::WorkerPool(size_t threads) {
  const size_t helpers = threads > 1 ? threads - 1 : 0;
  helpers_.reserve(helpers);
  for (size_t i = 0; i < helpers; ++i) helpers_.emplace_back([this] { Run(); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  work_.notify_all();
  for (std::thread& t : helpers_) t.join();
}

void WorkerPool::Offer(Job* job) {
  if (helpers_.empty()) return;
  {
    std::lock_guard lock(mu_);
    queue_.push_back(job);
  }
  work_.notify_all();
}

void WorkerPool::Withdraw(Job* job) {
  if (helpers_.empty()) return;
  std::unique_lock lock(mu_);
  if (auto it = std::find(queue_.begin(), queue_.end(), job); it != queue_.end()) queue_.erase(it);
  left_.wait(lock, [job] { return job->inside_ == 0; });
}

void WorkerPool::Run() {
  std::unique_lock lock(mu_);
  while (true) {
    work_.wait(lock, [this] { return stop_ || !queue_.empty(); });
    if (stop_) return;
    Job* job = queue_.front();
    ++job->inside_;
    lock.unlock();
    job->Work();
    lock.lock();
    // Work() returned: nothing is left to claim, so no helper needs to enter this job again.
    if (auto it = std::find(queue_.begin(), queue_.end(), job); it != queue_.end()) {
      queue_.erase(it);
    }
    if (--job->inside_ == 0) left_.notify_all();
  }
}

}  // namespace dq::validator
