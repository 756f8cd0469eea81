// EventPublisher on the Redis stream `dq:events` (format: dq/common/job_event.h).
#pragma once

#include "dq/common/redis_client.h"
#include "event_publisher.h"

namespace dq::gateway {

class RedisEventPublisher final : public EventPublisher {
 public:
  explicit RedisEventPublisher(RedisClient& redis) : redis_(redis) {}
  Status Publish(const events::StreamRecord& record) override;

 private:
  RedisClient& redis_;
};

}  // namespace dq::gateway
