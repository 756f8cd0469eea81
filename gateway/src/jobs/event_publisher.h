// Where job.complete events go (the interface): RedisEventPublisher appends them to the
// `dq:events` stream the notifier reads; RecordingEventPublisher (tests/testing) keeps them.
//
// Publishing is at-least-once: a job finished but not yet marked published is published again by
// the next attempt, with the same delivery id (the job id), and receivers deduplicate on it.
//
// Errors: kUnavailable when the stream cannot be reached. Thread-safe.
#pragma once

#include "dq/common/job_event.h"
#include "dq/common/status.h"

namespace dq::gateway {

class EventPublisher {
 public:
  virtual ~EventPublisher() = default;
  virtual Status Publish(const events::StreamRecord& record) = 0;
};

}  // namespace dq::gateway
