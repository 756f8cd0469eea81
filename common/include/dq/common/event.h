// The job.complete event as the notifier carries it: read from the `dq:events` stream (see
// docs/events.md), kept as JSON while a retry is scheduled or after it is dead-lettered.
// Pure: parsing and encoding only.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "dq/common/job_event.h"
#include "dq/common/status.h"

namespace dq::webhook {

// The stream and its record format are defined once, in common/ (dq/common/job_event.h).
inline constexpr std::string_view kEventStream = events::kStreamKey;
inline constexpr std::string_view kConsumerGroup = "notifier";
inline constexpr std::string_view kJobCompleteType = events::kJobCompleteType;

struct Event {
  std::string type;         // "job.complete"
  std::string account_id;
  std::string delivery_id;  // UUIDv4, the same on every attempt
  std::string payload;      // the exact bytes to POST
  int64_t created_ms = 0;   // Unix ms when the job worker appended the event
  int attempts = 0;         // failed attempts so far
  int64_t first_attempt_ms = 0;  // start of the retry schedule (created_ms for stream events)
  bool test = false;  // a test event (POST …/webhook/test): attempted once, never retried
  bool operator==(const Event&) const = default;
};

// Builds an event from a stream entry's field/value pairs. Errors (kInvalidRequest): a missing
// or empty account_id, delivery_id or payload ("event is missing <field>"), a created_ms that is
// not an integer. A missing type defaults to job.complete; a missing created_ms to 0.
Result<Event> EventFromStreamFields(const std::vector<std::pair<std::string, std::string>>& fields);

// A compact JSON object holding every field; the inverse is EventFromJson. The encoding is
// deterministic (same event, same bytes), so scheduling the same retry twice is idempotent.
std::string EventToJson(const Event& event);
Result<Event> EventFromJson(std::string_view json);

}  // namespace dq::webhook
