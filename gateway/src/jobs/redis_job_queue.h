// JobQueue on the Redis stream `dq:jobs:queue` with the consumer group `workers`: XREADGROUP to
// take, XAUTOCLAIM to take over, a Lua script for the heartbeat (XCLAIM only if the caller still
// owns the entry), XACK + XDEL to finish.
#pragma once

#include "dq/common/redis_client.h"
#include "job_queue.h"

namespace dq::gateway {

class RedisJobQueue final : public JobQueue {
 public:
  // `blocking` must have a read timeout longer than the block time passed to Next().
  RedisJobQueue(RedisClient& redis, RedisClient& blocking) : redis_(redis), blocking_(blocking) {}

  Status EnsureGroup() override;
  Status Enqueue(const std::string& account_id, const std::string& job_id) override;
  Result<std::optional<QueueEntry>> Next(const std::string& consumer,
                                         std::chrono::milliseconds block) override;
  Result<std::vector<QueueEntry>> Reclaim(const std::string& consumer,
                                          std::chrono::milliseconds min_idle, int count) override;
  Result<bool> Heartbeat(const std::string& consumer, const std::string& entry_id) override;
  Status Ack(const std::string& entry_id) override;

 private:
  RedisClient& redis_;
  RedisClient& blocking_;
};

inline constexpr const char* kJobQueueKey = "dq:jobs:queue";
inline constexpr const char* kJobQueueGroup = "workers";

}  // namespace dq::gateway
