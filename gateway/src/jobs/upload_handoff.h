// The raw pieces of the uploads this process stored moments ago, for its own workers. With
// DQ_ROLE=all a job usually runs in the process that took its upload, a few milliseconds later;
// it then reads each piece here instead of reading it back from the store and decompressing it
// (~11 ms of a worker's CPU for a 24.5 MB file, on the job's critical path: docs/PERFORMANCE.md,
// "Upload to done: what overlaps now").
//
// Never the only copy: the store has every piece before a job exists, and a piece not here is
// read from the store. So what is kept is bounded (bytes in all; entries past their age go) and
// each piece is handed out once (a second attempt of the job reads the store). A job run by
// another process leaves its entry here until it ages out or is pushed out by newer ones.
//
//   UploadHandoff handoff(64 << 20, std::chrono::seconds(30), clock);
//   handoff.Keep(account_id, job_id, std::move(pieces));   // the upload, once stored
//   auto piece = handoff.Take(account_id, job_id, 0);       // the worker; nullopt: the store
#pragma once

#include <chrono>
#include <cstdint>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "dq/common/clock.h"

namespace dq::gateway {

class UploadHandoff {
 public:
  static constexpr size_t kDefaultMaxBytes = size_t{64} << 20;
  static constexpr std::chrono::seconds kDefaultMaxAge{30};

  UploadHandoff(size_t max_bytes, std::chrono::milliseconds max_age, const Clock& clock)
      : max_bytes_(max_bytes), max_age_(max_age), clock_(clock) {}

  // Keeps the pieces of the job, pushing out the oldest entries to make room; false (nothing
  // kept) when they alone are more than the bound.
  bool Keep(const std::string& account_id, const std::string& job_id,
            std::vector<std::string> pieces);
  // Piece `index` of the job, handed out once; nullopt when it is not here (never kept, taken
  // already, pushed out or aged out).
  std::optional<std::string> Take(const std::string& account_id, const std::string& job_id,
                                  int64_t index);
  size_t bytes() const;
  size_t max_bytes() const { return max_bytes_; }

 private:
  struct Entry {
    std::string account_id, job_id;
    std::chrono::system_clock::time_point kept_at;
    std::vector<std::optional<std::string>> pieces;
    size_t bytes = 0;
  };
  void DropAgedLocked();

  const size_t max_bytes_;
  const std::chrono::milliseconds max_age_;
  const Clock& clock_;
  mutable std::mutex mu_;
  std::list<Entry> entries_;  // oldest first; under mu_
  size_t bytes_ = 0;          // under mu_
};

}  // namespace dq::gateway
