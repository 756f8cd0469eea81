#include "worker_pool.h"

#include <algorithm>
#include <chrono>

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
    queued_.store(queue_.size(), std::memory_order_relaxed);
  }
  work_.notify_all();
}

void WorkerPool::Withdraw(Job* job) {
  if (helpers_.empty()) return;
  std::unique_lock lock(mu_);
  if (auto it = std::find(queue_.begin(), queue_.end(), job); it != queue_.end()) queue_.erase(it);
  queued_.store(queue_.size(), std::memory_order_relaxed);
  left_.wait(lock, [job] { return job->inside_ == 0; });
}

void WorkerPool::Run() {
  std::unique_lock lock(mu_);
  while (true) {
    if (queue_.empty() && !stop_) {
      // A stream offers its next chunk within microseconds of the last: look for it briefly
      // before sleeping, since waking a sleeping thread can cost more than a slice's work.
      lock.unlock();
      const auto until = std::chrono::steady_clock::now() + kSpin;
      while (queued_.load(std::memory_order_relaxed) == 0 &&
             std::chrono::steady_clock::now() < until) {
      }
      lock.lock();
    }
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
      queued_.store(queue_.size(), std::memory_order_relaxed);
    }
    if (--job->inside_ == 0) left_.notify_all();
  }
}

namespace {

class Tasks final : public WorkerPool::Job {
 public:
  Tasks(size_t n, const std::function<void(size_t)>& task) : n_(n), task_(task) {}
  void Work() override {
    for (size_t k = next_.fetch_add(1); k < n_; k = next_.fetch_add(1)) task_(k);
  }

 private:
  const size_t n_;
  const std::function<void(size_t)>& task_;
  std::atomic<size_t> next_{0};
};

}  // namespace

void RunTasks(WorkerPool* pool, size_t n, const std::function<void(size_t)>& task) {
  Tasks tasks(n, task);
  const bool offered = pool != nullptr && n > 1;
  if (offered) pool->Offer(&tasks);
  tasks.Work();
  if (offered) pool->Withdraw(&tasks);  // waits for the tasks helpers are still running
}

}  // namespace dq::validator
