// The notifier's work in hand (stream entries and claimed retries), queued per account and
// handed to the delivery threads round-robin across accounts, at most per_account of one
// account's at a time.
//
// Why per account: the event stream and the retry schedule are one line for every tenant. With
// one FIFO of work, a tenant with a thousand events (or a dead endpoint that holds each attempt
// for the whole timeout) came before everybody behind it. Here each account waits in its own
// line: a thread takes the next account that may start an attempt, so another tenant's event
// waits for a free thread, never for the busy tenant's backlog.
//
// Bounded twice:
//   - an account's line holds what its attempts can work off in about `wait_budget_ms`, judged
//     from how long its recent attempts took (a moving average): at least 4 attempts per
//     attempt in flight, at most `max_backlog`. So an item never waits in memory much longer than
//     the retry lease and the stream's claim idle time allow, however slow the receiver, and a
//     fast receiver is not starved by the bound. Beyond it the caller puts the item on the
//     retry schedule, so the stream keeps moving;
//   - `capacity` items in all; beyond it the readers stop taking work (it stays in Redis, where
//     another replica can take it).
// Thread-safe.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dq/common/event.h"

namespace dq::notifier {

struct WorkItem {
  enum class Kind { kStreamEntry, kRetry } kind = Kind::kStreamEntry;
  std::string entry_id;   // kStreamEntry: the stream entry to acknowledge
  std::string member;     // kRetry: the schedule's member
  webhook::Event event;
};

struct FairQueueOptions {
  size_t capacity = 128;       // items in all
  int per_account = 2;         // attempts of one account in flight
  int64_t wait_budget_ms = 10'000;  // how long an item may expect to wait in its line
  size_t max_backlog = 256;    // items of one account, whatever its speed
};

class FairQueue {
 public:
  explicit FairQueue(FairQueueOptions options) : o_(options) {}

  enum class Push { kQueued, kAccountFull, kFull };
  // Queues item (moved from only when kQueued).
  Push Add(WorkItem& item);
  // The next item of the next account that may start an attempt; waits for one. nullopt once
  // stopped (what is left stays in Redis). The item's account counts one attempt in flight
  // until Done(account, ms) says how long it took.
  std::optional<WorkItem> Take();
  void Done(const std::string& account, int64_t attempt_ms);

  // Room for this many more items now.
  size_t Space() const;
  // Waits until there is room (or stop); false when stopping.
  bool WaitForSpace();
  // Room in each account's line for a claim: accounts with a line and their room (0: none; the
  // claim leaves their retries on the schedule), and the room of an account with no line.
  std::vector<std::pair<std::string, int>> ClaimRooms() const;
  int DefaultRoom() const { return static_cast<int>(MinBacklog()); }
  // Waits up to ms for a line to make room for a claim; false when stopping.
  bool WaitForRoom(int64_t ms);
  void Stop();

  // For tests.
  size_t size() const;
  int InFlight(const std::string& account) const;
  size_t BacklogOf(const std::string& account) const;

 private:
  struct Line {
    std::deque<WorkItem> items;
    int in_flight = 0;
    bool ready = false;       // in ready_
    double attempt_ms = 0;    // moving average; 0: none yet
  };
  size_t MinBacklog() const { return static_cast<size_t>(std::max(1, o_.per_account)) * 4; }
  size_t Backlog(const Line& line) const;
  void MaybeReady(const std::string& account, Line& line);

  const FairQueueOptions o_;
  mutable std::mutex mu_;
  std::condition_variable work_;
  std::condition_variable space_;
  std::condition_variable room_;
  uint64_t room_epoch_ = 0;  // counts lines that made room for a claim
  std::map<std::string, Line, std::less<>> lines_;
  std::deque<std::string> ready_;  // accounts with items and room for an attempt, in turn
  size_t size_ = 0;
  bool stopped_ = false;
};

}  // namespace dq::notifier
