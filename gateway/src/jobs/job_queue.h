// The durable work queue of jobs (the interface). RedisJobQueue (redis_job_queue.h) keeps it in
// a Redis stream with a consumer group; InMemoryJobQueue (tests/testing) is its fake.
//
// An entry taken by a worker stays pending until acknowledged. A live worker keeps its entries
// alive with Heartbeat(); an entry whose worker went silent longer than the claim timeout is
// taken over by another worker (Reclaim) and its job run again from the start, under a new
// fencing token. So an accepted job is never lost and never stuck in `processing`.
//
// Errors (every method): kUnavailable when the queue cannot be reached. Thread-safe.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "dq/common/status.h"

namespace dq::gateway {

struct QueueEntry {
  std::string entry_id;
  std::string account_id;
  std::string job_id;
};

class JobQueue {
 public:
  virtual ~JobQueue() = default;
  // Prepares the queue (creates the consumer group if it is missing).
  virtual Status EnsureGroup() = 0;
  virtual Status Enqueue(const std::string& account_id, const std::string& job_id) = 0;
  // A new entry for consumer, waiting up to block; nullopt if none came.
  virtual Result<std::optional<QueueEntry>> Next(const std::string& consumer,
                                                 std::chrono::milliseconds block) = 0;
  // Entries idle longer than min_idle (their worker is gone), now owned by consumer.
  virtual Result<std::vector<QueueEntry>> Reclaim(const std::string& consumer,
                                                  std::chrono::milliseconds min_idle,
                                                  int count) = 0;
  // "Still working on it": resets the entry's idle time, but only while consumer owns it; it
  // never takes an entry from another consumer. False when consumer no longer owns the entry.
  virtual Result<bool> Heartbeat(const std::string& consumer, const std::string& entry_id) = 0;
  // Done with the entry for good.
  virtual Status Ack(const std::string& entry_id) = 0;
};

}  // namespace dq::gateway
