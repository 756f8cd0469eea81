#include "validate_pool.h"

#include <algorithm>

namespace dq::gateway {

ValidatePool::Ticket& ValidatePool::Ticket::operator=(Ticket&& other) noexcept {
  if (this != &other) {
    if (pool_ != nullptr) pool_->Release(account_);
    pool_ = other.pool_;
    account_ = std::move(other.account_);
    deadline_ = other.deadline_;
    other.pool_ = nullptr;
  }
  return *this;
}

ValidatePool::Ticket::~Ticket() {
  if (pool_ != nullptr) pool_->Release(account_);
}

ValidatePool::ValidatePool(ValidatePoolOptions options) : options_(options) {
  const int threads = std::max(1, options_.threads);
  for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { Loop(); });
}

ValidatePool::~ValidatePool() { Stop(); }

Result<ValidatePool::Ticket> ValidatePool::Admit(std::string_view account_id) {
  std::lock_guard lock(mu_);
  if (stopping_) {
    return Status(ErrorCode::kUnavailable, "The service is shutting down; retry shortly.");
  }
  auto it = per_account_.find(account_id);
  const int mine = it == per_account_.end() ? 0 : it->second;
  if (mine >= options_.per_account) {
    return Status(ErrorCode::kTooManyRequests,
                  "This account already has " + std::to_string(mine) +
                      " validation calls in progress (the limit); retry when one has finished.");
  }
  if (admitted_ - running_ >= static_cast<size_t>(std::max(0, options_.queue))) {
    return Status(ErrorCode::kUnavailable,
                  "The validation service is busy; retry shortly.");
  }
  if (it == per_account_.end()) it = per_account_.emplace(std::string(account_id), 0).first;
  ++it->second;
  ++admitted_;
  Ticket t;
  t.pool_ = this;
  t.account_ = std::string(account_id);
  t.deadline_ = std::chrono::steady_clock::now() + options_.deadline;
  return t;
}

void ValidatePool::Release(const std::string& account) {
  std::lock_guard lock(mu_);
  auto it = per_account_.find(account);
  if (it != per_account_.end() && --it->second <= 0) per_account_.erase(it);
  if (admitted_ > 0) --admitted_;
}

void ValidatePool::Run(Ticket ticket, std::function<void(Deadline)> work,
                       std::function<void()> expired) {
  {
    std::lock_guard lock(mu_);
    if (!stopping_) {
      tasks_.push_back(Task{std::move(ticket), std::move(work), std::move(expired)});
      ready_.notify_one();
      return;
    }
  }
  expired();  // the ticket's slot is given back as it goes out of scope
}

void ValidatePool::Loop() {
  while (true) {
    Task task;
    {
      std::unique_lock lock(mu_);
      ready_.wait(lock, [this] { return stopping_ || !tasks_.empty(); });
      if (tasks_.empty()) return;  // stopping, nothing left
      task = std::move(tasks_.front());
      tasks_.pop_front();
      ++running_;
    }
    const Deadline deadline = task.ticket.deadline();
    bool stopping = false;
    {
      std::lock_guard lock(mu_);
      stopping = stopping_;
    }
    if (stopping || std::chrono::steady_clock::now() >= deadline) {
      task.expired();
    } else {
      task.work(deadline);
    }
    {
      std::lock_guard lock(mu_);
      --running_;
    }
    task.ticket = Ticket();  // gives the slot back
  }
}

void ValidatePool::Stop() {
  {
    std::lock_guard lock(mu_);
    if (stopping_ && threads_.empty()) return;
    stopping_ = true;
  }
  ready_.notify_all();
  for (auto& t : threads_) {
    if (t.joinable()) t.join();
  }
  threads_.clear();
}

size_t ValidatePool::queued() const {
  std::lock_guard lock(mu_);
  return tasks_.size();
}

int ValidatePool::admitted(std::string_view account_id) const {
  std::lock_guard lock(mu_);
  auto it = per_account_.find(account_id);
  return it == per_account_.end() ? 0 : it->second;
}

}  // namespace dq::gateway
