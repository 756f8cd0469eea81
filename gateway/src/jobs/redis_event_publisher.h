// EventPublisher on the event stream's partitions (format: dq/common/job_event.h; partitions:
// dq/common/partitions.h): an account's events go to {dq:events:<PartitionOf(account)>}, each
// partition trimmed to its share of kStreamMaxLen.
#pragma once

#include "dq/common/redis_client.h"
#include "event_publisher.h"

namespace dq::gateway {

class RedisEventPublisher final : public EventPublisher {
 public:
  // partitions < 1: redis.options().partitions.
  explicit RedisEventPublisher(RedisClient& redis, int partitions = 0);
  Status Publish(const events::StreamRecord& record) override;

 private:
  RedisClient& redis_;
  int partitions_;
};

}  // namespace dq::gateway
