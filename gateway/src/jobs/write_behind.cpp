#include "write_behind.h"

#include <utility>

namespace dq::gateway {

WriteBehind::WriteBehind(JobStore& store, const Job& job, size_t depth)
    : store_(store), job_(job), depth_(depth) {}

WriteBehind::~WriteBehind() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
    // The write under way (the front, while busy) finishes; the ones behind it are dropped.
    while (queue_.size() > (busy_ ? 1u : 0u)) queue_.pop_back();
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

Status WriteBehind::Submit(JobWrite write) {
  if (depth_ == 0) {
    if (!failed_.ok()) return failed_;
    failed_ = store_.Write(job_, write);
    return failed_;
  }
  std::unique_lock<std::mutex> lock(mu_);
  changed_.wait(lock, [&] { return !failed_.ok() || queue_.size() < depth_; });
  if (!failed_.ok()) return failed_;
  queue_.push_back(std::move(write));
  if (!thread_.joinable()) thread_ = std::thread([this] { Loop(); });
  lock.unlock();
  changed_.notify_all();
  return Status::Ok();
}

Status WriteBehind::Drain() {
  std::unique_lock<std::mutex> lock(mu_);
  changed_.wait(lock, [&] { return !failed_.ok() || queue_.empty(); });
  return failed_;
}

void WriteBehind::Loop() {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    changed_.wait(lock, [&] { return stop_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopped, nothing under way
    busy_ = true;
    lock.unlock();
    // The front stays queued while it is written: Submit counts it against the depth, and
    // Drain waits for it.
    Status s = store_.Write(job_, queue_.front());
    lock.lock();
    busy_ = false;
    queue_.pop_front();
    if (!s.ok()) {
      failed_ = std::move(s);
      queue_.clear();
    }
    changed_.notify_all();
    if (stop_ && queue_.empty()) return;
  }
}

}  // namespace dq::gateway
