// JobQueue on Redis streams with the consumer group `workers`, split into partitions
// (dq/common/partitions.h; DQ_QUEUE_PARTITIONS): {dq:jobs:queue:<p>}. An account's jobs go to
// partition PartitionOf(account). XREADGROUP to take and XAUTOCLAIM to take over, one partition
// at a time (a command never spans slots); a Lua script for the heartbeat (XCLAIM only if the
// caller still owns the entry); XACK + XDEL to finish.
//
// Worker threads share the partitions: the worker whose consumer name ends in "-<i>" (of
// `workers`) reads PartitionShare(i, workers, partitions), taking from them in turn so that no
// partition waits behind a busy one. The single stream of older releases, dq:jobs:queue, is read
// too (by worker 0, and by every Reclaim): jobs queued before an upgrade still run.
//
// Entry ids are "<p>/<stream id>" (p = -1: the old stream).
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "dq/common/redis_client.h"
#include "job_queue.h"

namespace dq::gateway {

class RedisJobQueue final : public JobQueue {
 public:
  // `blocking` must have a read timeout longer than the block time passed to Next().
  // partitions < 1: redis.options().partitions. workers: the worker threads of this process (0:
  // each consumer reads every partition).
  RedisJobQueue(RedisClient& redis, RedisClient& blocking, int partitions = 0, int workers = 0);

  Status EnsureGroup() override;
  Status Enqueue(const std::string& account_id, const std::string& job_id) override;
  Result<std::optional<QueueEntry>> Next(const std::string& consumer,
                                         std::chrono::milliseconds block) override;
  Result<std::vector<QueueEntry>> Reclaim(const std::string& consumer,
                                          std::chrono::milliseconds min_idle, int count) override;
  Result<bool> Heartbeat(const std::string& consumer, const std::string& entry_id) override;
  Status Ack(const std::string& entry_id) override;

  int partitions() const { return partitions_; }
  // The partitions (kLegacyPartition for the old stream) consumer reads, in its order.
  std::vector<int> ShareOf(const std::string& consumer) const;

 private:
  struct Cursor {
    std::vector<int> share;
    size_t next = 0;
  };
  Status EnsureGroupOn(int partition);
  // One XREADGROUP on partition p; nullopt when nothing came.
  Result<std::optional<QueueEntry>> ReadOne(int partition, const std::string& consumer,
                                            std::chrono::milliseconds block);
  Result<std::vector<QueueEntry>> ReclaimOn(int partition, const std::string& consumer,
                                            std::chrono::milliseconds min_idle, int count);

  RedisClient& redis_;
  RedisClient& blocking_;
  int partitions_;
  int workers_;
  std::mutex mu_;
  std::map<std::string, Cursor> cursors_;  // by consumer
};

// The stream of older releases (one key for every job), still drained.
inline constexpr const char* kJobQueueKey = "dq:jobs:queue";
inline constexpr const char* kJobQueueGroup = "workers";

// The key of the queue's partition p ({dq:jobs:queue:<p>}; kJobQueueKey for kLegacyPartition).
std::string JobQueueKey(int partition);

}  // namespace dq::gateway
