#include "dq/webhook/delivery.h"

#include "dq/webhook/signer.h"

namespace dq::webhook {

HttpPost BuildDelivery(const Event& event, const std::string& url, const std::string& secret,
                       int64_t timestamp_s) {
  std::vector<std::string> secrets;
  if (!secret.empty()) secrets.push_back(secret);
  return BuildDelivery(event, url, secrets, timestamp_s);
}

HttpPost BuildDelivery(const Event& event, const std::string& url,
                       const std::vector<std::string>& secrets, int64_t timestamp_s) {
  HttpPost post;
  post.url = url;
  post.body = event.payload;
  post.headers.emplace_back("Content-Type", "application/json");
  post.headers.emplace_back(std::string(kEventHeader), event.type);
  post.headers.emplace_back(std::string(kDeliveryHeader), event.delivery_id);
  if (secrets.empty()) return post;
  if (auto sig = SignatureHeaderValue(post.body, secrets.back())) {
    post.headers.emplace_back(std::string(kSignatureHeader), *sig);
  }
  const std::string timestamp = std::to_string(timestamp_s);
  std::string standard;
  for (const auto& secret : secrets) {
    if (auto sig = StandardSignature(event.delivery_id, timestamp, post.body, secret)) {
      if (!standard.empty()) standard += ' ';
      standard += *sig;
    }
  }
  if (!standard.empty()) {
    post.headers.emplace_back(std::string(kWebhookIdHeader), event.delivery_id);
    post.headers.emplace_back(std::string(kWebhookTimestampHeader), timestamp);
    post.headers.emplace_back(std::string(kWebhookSignatureHeader), standard);
  }
  return post;
}

std::string_view OutcomeName(Outcome o) {
  switch (o) {
    case Outcome::kDelivered: return "delivered";
    case Outcome::kRetry: return "retry";
    case Outcome::kDeadLetter: return "dead_letter";
    case Outcome::kSkipped: return "skipped";
    case Outcome::kFailed: return "failed";
    case Outcome::kDeferred: return "deferred";
    case Outcome::kSuperseded: return "superseded";
  }
  return "unknown";
}

Decision Decide(const Event& event, const HttpResult& r, const RetryPolicy& policy,
                int64_t now_ms) {
  if (IsSuccess(r)) return {Outcome::kDelivered, 0};
  if (event.test) return {Outcome::kFailed, 0};
  const int64_t first = event.first_attempt_ms > 0 ? event.first_attempt_ms : now_ms;
  if (auto next = policy.NextAttemptMs(event.attempts + 1, first, now_ms)) {
    return {Outcome::kRetry, *next};
  }
  return {Outcome::kDeadLetter, 0};
}

std::string DescribeFailure(const HttpResult& r) {
  if (!r.error.empty()) return r.error;
  if (IsSuccess(r)) return "";
  return "HTTP " + std::to_string(r.status);
}

}  // namespace dq::webhook
