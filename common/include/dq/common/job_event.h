// The one definition of the `job.complete` event and of the `dq:events` stream record that
// carries it (docs/events.md). The gateway's job workers write it, the notifier reads it; both use
// these functions, so the two sides cannot drift apart. Pure: encoding and parsing only.
//
//   XADD dq:events MAXLEN ~ 1000000 * type job.complete account_id <acct> delivery_id <job id>
//        payload <JSON bytes POSTed to the webhook> created_ms <Unix ms>
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dq/common/status.h"

namespace dq::events {

inline constexpr std::string_view kStreamKey = "dq:events";
inline constexpr std::string_view kStreamMaxLen = "1000000";  // approximate trim (MAXLEN ~)
inline constexpr std::string_view kJobCompleteType = "job.complete";

// Field names of a stream record.
inline constexpr std::string_view kFieldType = "type";
inline constexpr std::string_view kFieldAccountId = "account_id";
inline constexpr std::string_view kFieldDeliveryId = "delivery_id";
inline constexpr std::string_view kFieldPayload = "payload";
inline constexpr std::string_view kFieldCreatedMs = "created_ms";

// What a job.complete says (the webhook body of the specification, plus `status`).
struct JobComplete {
  std::string job_id;
  std::string filename;
  std::string status;     // "done" | "failed"
  std::string timestamp;  // ISO 8601 UTC with milliseconds
  int64_t rows = 0;
  int64_t errors = 0;
  int64_t warnings = 0;
  int64_t fixes = 0;
  int64_t score = 0;
  bool test = false;  // a test delivery from the webhook settings ("test": true)
  bool operator==(const JobComplete&) const = default;
};

// The exact JSON bytes POSTed to the receiver. Deterministic: same event, same bytes.
std::string EncodeJobComplete(const JobComplete& event);
// Errors (kInvalidRequest): not a JSON object, or a field missing or of the wrong type.
Result<JobComplete> DecodeJobComplete(std::string_view payload);

// One record of the stream.
struct StreamRecord {
  std::string type = std::string(kJobCompleteType);
  std::string account_id;
  std::string delivery_id;  // the job id: the same for every attempt that publishes the job
  std::string payload;
  int64_t created_ms = 0;
  bool operator==(const StreamRecord&) const = default;
};

// Field/value pairs for XADD, in a fixed order.
std::vector<std::pair<std::string, std::string>> ToStreamFields(const StreamRecord& record);
// The inverse. Errors (kInvalidRequest): a missing or empty account_id, delivery_id or payload
// ("event is missing <field>"), a created_ms that is not an integer. A missing type defaults to
// job.complete; a missing created_ms to 0.
Result<StreamRecord> FromStreamFields(
    const std::vector<std::pair<std::string, std::string>>& fields);

// The record of a job's completion: delivery id = job id, so receivers deduplicate a job that is
// published twice (an attempt died between publishing and acknowledging).
StreamRecord JobCompleteRecord(std::string account_id, const JobComplete& event,
                               int64_t created_ms);

}  // namespace dq::events
