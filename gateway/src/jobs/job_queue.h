// The durable work queue of jobs, and the event stream the notifier reads.
//
// Queue: the Redis stream `dq:jobs:queue` with the consumer group `workers`. A worker takes an
// entry with XREADGROUP, keeps it alive with Touch() (an XCLAIM to itself that resets its idle
// time) while it works, and acknowledges it when the job ends. An entry whose worker died stops
// being touched; once idle longer than the claim timeout, any worker takes it over with
// XAUTOCLAIM and runs the job again from the start. So an accepted job is never lost and never
// stuck in `processing`.
//
// Events: `dq:events` (docs/events.md).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "dq/common/redis_client.h"
#include "dq/common/status.h"

namespace dq::gateway {

struct QueueEntry {
  std::string entry_id;
  std::string account_id;
  std::string job_id;
};

class JobQueue {
 public:
  // `blocking` must have a read timeout longer than the block time passed to Next().
  JobQueue(RedisClient& redis, RedisClient& blocking) : redis_(redis), blocking_(blocking) {}

  // Creates the consumer group if it is missing.
  Status EnsureGroup();
  Status Enqueue(const std::string& account_id, const std::string& job_id);
  // A new entry for consumer, waiting up to block; nullopt if none came.
  Result<std::optional<QueueEntry>> Next(const std::string& consumer,
                                         std::chrono::milliseconds block);
  // Entries idle longer than min_idle (their worker is gone), now owned by consumer.
  Result<std::vector<QueueEntry>> Reclaim(const std::string& consumer,
                                          std::chrono::milliseconds min_idle, int count);
  // Resets the entry's idle time: "still working on it".
  Status Touch(const std::string& consumer, const std::string& entry_id);
  // Done with the entry for good.
  Status Ack(const std::string& entry_id);

  // Appends a job.complete event for the notifier.
  Status PublishEvent(const std::string& account_id, const std::string& delivery_id,
                      const std::string& payload, int64_t created_ms);

 private:
  RedisClient& redis_;
  RedisClient& blocking_;
};

inline constexpr const char* kJobQueueKey = "dq:jobs:queue";
inline constexpr const char* kJobQueueGroup = "workers";
inline constexpr const char* kEventsKey = "dq:events";

}  // namespace dq::gateway
