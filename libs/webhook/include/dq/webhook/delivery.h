// The pure steps of one delivery: the request to send, and what to do with the answer.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dq/common/event.h"
#include "dq/webhook/http_sender.h"
#include "dq/webhook/retry_policy.h"

namespace dq::webhook {

// The POST for an event: the payload bytes unchanged, Content-Type: application/json,
// X-Service-Event, X-Service-Delivery and, when secret is not empty, X-Service-Signature. When
// the secret has the Standard Webhooks form ("whsec_" + base64), also webhook-id,
// webhook-timestamp (timestamp_s, Unix seconds of this attempt) and webhook-signature.
HttpPost BuildDelivery(const Event& event, const std::string& url, const std::string& secret,
                       int64_t timestamp_s = 0);
// The same while a rolled secret overlaps (docs/notifier.md, "Rolling the secret"). secrets:
// newest first, as SigningSecrets() gives them. X-Service-Signature keeps the specification's
// one-value form and is keyed with the oldest secret still signing (the one deployed receivers
// know); webhook-signature lists one "v1,<sig>" per whsec_ secret, newest first, separated by
// single spaces, as Standard Webhooks allows.
HttpPost BuildDelivery(const Event& event, const std::string& url,
                       const std::vector<std::string>& secrets, int64_t timestamp_s);

// Success is any 2xx.
inline bool IsSuccess(const HttpResult& r) { return r.error.empty() && r.status >= 200 && r.status < 300; }

// kFailed: a test event that failed; test events are attempted once and never retried.
// kDeferred: not attempted now (its account or destination is at its limit): put back on the
// schedule unchanged; never logged.
// kSuperseded: no attempt was made, because a redeliver replaced the retry it came from (the
// redelivered attempt goes instead).
enum class Outcome { kDelivered, kRetry, kDeadLetter, kSkipped, kFailed, kDeferred, kSuperseded };
// "delivered", "retry", "dead_letter", "skipped", "failed", "deferred", "superseded"
std::string_view OutcomeName(Outcome o);

struct Decision {
  Outcome outcome = Outcome::kDelivered;
  int64_t next_attempt_ms = 0;  // kRetry only
};

// What follows an attempt made at now_ms with result r. event.attempts counts the failures
// before this attempt. A failed test event is kFailed, whatever the schedule.
Decision Decide(const Event& event, const HttpResult& r, const RetryPolicy& policy,
                int64_t now_ms);

// One line of the delivery log: "404", "500", "timeout", "refused address ..." and so on.
std::string DescribeFailure(const HttpResult& r);

}  // namespace dq::webhook
