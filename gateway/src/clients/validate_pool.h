// Where POST /v1/validate waits for the validator: a bounded pool of threads, so no HTTP thread
// ever waits on it (docs/architecture.md, "Threads").
//
// A call is admitted on the HTTP thread, in constant time, or refused at once:
//   - an account may have at most per_account calls admitted (running or queued); one more is
//     refused with kTooManyRequests, so a tenant with a hung or slow batch holds its own slots
//     and nobody else's;
//   - at most `queue` calls wait for a thread; one more is refused with kUnavailable.
// An admitted call runs on one of `threads` threads with a deadline counted from admission: a
// call still queued when its deadline passes is not started (`expired` runs instead), and a
// started one gets what is left of it as its gRPC deadline.
//
// Thread-safe. Stop() (or the destructor) answers queued calls as expired and waits for running
// ones, which end by their deadline.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "dq/common/status.h"

namespace dq::gateway {

struct ValidatePoolOptions {
  int threads = 16;       // DQ_VALIDATE_THREADS: validator calls in flight at once
  int per_account = 4;    // DQ_VALIDATE_PER_ACCOUNT: admitted calls per account
  int queue = 64;         // DQ_VALIDATE_QUEUE: admitted calls waiting for a thread
  std::chrono::milliseconds deadline{10'000};  // from admission to the answer
};

class ValidatePool {
 public:
  using Deadline = std::chrono::steady_clock::time_point;

  explicit ValidatePool(ValidatePoolOptions options);
  ~ValidatePool();
  ValidatePool(const ValidatePool&) = delete;
  ValidatePool& operator=(const ValidatePool&) = delete;

  // A slot held for one call of an account. Moving it moves the slot; destroying a ticket that
  // was never run gives the slot back.
  class Ticket {
   public:
    Ticket() = default;
    Ticket(Ticket&& other) noexcept { *this = std::move(other); }
    Ticket& operator=(Ticket&& other) noexcept;
    ~Ticket();
    explicit operator bool() const { return pool_ != nullptr; }
    Deadline deadline() const { return deadline_; }

   private:
    friend class ValidatePool;
    ValidatePool* pool_ = nullptr;
    std::string account_;
    Deadline deadline_{};
  };

  // Errors: kTooManyRequests (the account's calls are at per_account), kUnavailable (the queue
  // is full, or the pool is stopping). The messages are for the caller and exact (tested).
  Result<Ticket> Admit(std::string_view account_id);

  // Runs work(deadline) on a pool thread, or expired() when the deadline passes first (or the
  // pool stops). Exactly one of them runs, once; the ticket's slot is given back after it.
  void Run(Ticket ticket, std::function<void(Deadline)> work, std::function<void()> expired);

  void Stop();

  // For tests and metrics.
  size_t queued() const;
  int admitted(std::string_view account_id) const;

 private:
  struct Task {
    Ticket ticket;
    std::function<void(Deadline)> work;
    std::function<void()> expired;
  };
  void Release(const std::string& account);
  void Loop();

  const ValidatePoolOptions options_;
  mutable std::mutex mu_;
  std::condition_variable ready_;
  std::deque<Task> tasks_;
  std::map<std::string, int, std::less<>> per_account_;
  size_t admitted_ = 0;  // tickets alive
  size_t running_ = 0;   // of those, taken by a thread
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace dq::gateway
