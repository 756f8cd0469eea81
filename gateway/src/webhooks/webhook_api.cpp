#include "webhook_api.h"

#include <algorithm>
#include <array>
#include <set>

#include "dq/http/error_response.h"
#include "dq/http/json_body.h"
#include "dq/http/json_util.h"
#include "jobs/jobs_api.h"
#include "dq/webhook/delivery.h"
#include "dq/common/crypto.h"
#include "dq/common/time_format.h"
#include "dq/common/event.h"
#include "dq/webhook/signer.h"

namespace dq::gateway {
namespace {

using nlohmann::json;

constexpr size_t kMaxUrlChars = 2048;

json Nullable(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }

std::string IsoFromMillis(int64_t ms) {
  return FormatIso8601Millis(std::chrono::system_clock::time_point(std::chrono::milliseconds(ms)));
}

json WebhookJson(const std::optional<Webhook>& hook, int64_t now_ms) {
  const Webhook h = hook.value_or(Webhook{"", "", false});
  const bool overlap = SigningSecrets(h, now_ms).size() > 1;
  return {{"url", Nullable(h.url)},
          {"enabled", !h.url.empty() && h.enabled},
          {"secret_set", !h.secret.empty()},
          {"secret_hint", Nullable(SecretHint(h.secret))},
          {"previous_secret_hint", overlap ? json(SecretHint(h.previous_secret)) : json(nullptr)},
          {"previous_secret_until",
           overlap ? json(IsoFromMillis(h.previous_until_ms)) : json(nullptr)}};
}

// A string field of the payload's top-level object ("" when absent).
std::string PayloadField(const json& p, std::initializer_list<const char*> names) {
  if (!p.is_object()) return "";
  for (const char* name : names) {
    if (auto it = p.find(name); it != p.end() && it->is_string()) return it->get<std::string>();
  }
  return "";
}

constexpr std::array<std::string_view, 5> kOutcomes = {"delivered", "retry", "failed",
                                                       "dead_letter", "skipped"};

}  // namespace

std::string SecretHint(std::string_view secret) {
  if (secret.empty()) return "";
  const std::string_view tail = secret.size() > 4 ? secret.substr(secret.size() - 4) : secret;
  const std::string_view head =
      secret.starts_with(webhook::kStandardSecretPrefix) ? webhook::kStandardSecretPrefix : "";
  return std::string(head) + "…" + std::string(tail);
}

http::HttpResponse WebhookApi::Get(const Principal& who) {
  auto hook = deps_.accounts.GetWebhook(who.account.id);
  if (!hook.ok()) return http::ErrorResponse(hook.status());
  return http::JsonResponse(200, http::DumpJson(WebhookJson(*hook, UnixMillis(deps_.clock.Now()))));
}

http::HttpResponse WebhookApi::Put(const http::HttpRequest& request, const Principal& who) {
  auto body = http::ParseJsonObjectBody(request);
  if (!body.ok()) return http::ErrorResponse(body.status());
  auto url = http::StringField(*body, "url", true, kMaxUrlChars);
  if (!url.ok()) return http::ErrorResponse(url.status());
  auto enabled = http::BoolField(*body, "enabled");
  if (!enabled.ok()) return http::ErrorResponse(enabled.status());
  if (auto checked = webhook::ValidateWebhookUrl(**url, deps_.url_policy); !checked.ok()) {
    return http::ErrorResponse(
        Status(ErrorCode::kInvalidWebhookUrl,
               "The webhook URL is refused: " + checked.status().message() + ".",
               {{"url", checked.status().message()}}));
  }
  auto before = deps_.accounts.GetWebhook(who.account.id);
  if (!before.ok()) return http::ErrorResponse(before.status());
  if (Status s = deps_.accounts.SetWebhookTarget(who.account.id, **url, enabled->value_or(true));
      !s.ok()) {
    return http::ErrorResponse(s);
  }
  // A new webhook gets its signing secret with it, so no delivery ever goes out unsigned.
  std::string created;
  if (!before->has_value() || (*before)->secret.empty()) {
    created = webhook::NewStandardSecret();
    if (Status s = deps_.accounts.RollWebhookSecret(who.account.id, created, 0); !s.ok()) {
      return http::ErrorResponse(s);
    }
  }
  auto hook = deps_.accounts.GetWebhook(who.account.id);
  if (!hook.ok()) return http::ErrorResponse(hook.status());
  json out = WebhookJson(*hook, UnixMillis(deps_.clock.Now()));
  if (created.empty()) return http::JsonResponse(200, http::DumpJson(out));
  out["secret"] = created;
  http::HttpResponse r = http::JsonResponse(200, http::DumpJson(out));
  r.SetHeader("Cache-Control", "no-store");
  return r;
}

http::HttpResponse WebhookApi::RollSecret(const Principal& who) {
  const std::string secret = webhook::NewStandardSecret();
  const int64_t now_ms = UnixMillis(deps_.clock.Now());
  const int64_t until = deps_.secret_overlap_ms > 0 ? now_ms + deps_.secret_overlap_ms : 0;
  if (Status s = deps_.accounts.RollWebhookSecret(who.account.id, secret, until); !s.ok()) {
    return http::ErrorResponse(s);
  }
  auto hook = deps_.accounts.GetWebhook(who.account.id);
  if (!hook.ok()) return http::ErrorResponse(hook.status());
  json out = WebhookJson(*hook, now_ms);
  http::HttpResponse r = http::JsonResponse(
      200, http::DumpJson(json{{"secret", secret},
                               {"secret_hint", SecretHint(secret)},
                               {"previous_secret_until", out["previous_secret_until"]}}));
  r.SetHeader("Cache-Control", "no-store");
  return r;
}

http::HttpResponse WebhookApi::Test(const Principal& who) {
  auto hook = deps_.accounts.GetWebhook(who.account.id);
  if (!hook.ok()) return http::ErrorResponse(hook.status());
  if (!hook->has_value() || (*hook)->url.empty()) {
    return http::ErrorResponse(
        Status(ErrorCode::kInvalidRequest, "Save an endpoint URL before sending a test event."));
  }
  const auto now = deps_.clock.Now();
  webhook::Event event;
  event.type = std::string(webhook::kJobCompleteType);
  event.account_id = who.account.id;
  event.delivery_id = NewUuidV4();
  event.created_ms = UnixMillis(now);
  const std::string job_id = NewUuidV4();
  event.payload =
      http::DumpJson(json{{"event", "job.complete"},
                          {"timestamp", FormatIso8601Millis(now)},
                          {"jobId", job_id},
                          {"filename", "test.csv"},
                          {"rows", 0},
                          {"stats", {{"errors", 0}, {"warnings", 0}, {"fixes", 0}, {"score", 100}}},
                          {"status", "done"},
                          {"test", true}});
  event.first_attempt_ms = event.created_ms;
  event.test = true;
  if (Status s = deps_.log.ScheduleRetry(event, event.created_ms, ""); !s.ok()) {
    return http::ErrorResponse(s);
  }
  return http::JsonResponse(
      202, http::DumpJson(
               json{{"delivery_id", event.delivery_id}, {"job_id", job_id}, {"status", "queued"}}));
}

http::HttpResponse WebhookApi::Deliveries(const http::HttpRequest& request, const Principal& who) {
  auto limit = IntParam(request, "limit", 20, 1, webhook::kDeliveryLogSize);
  if (!limit.ok()) return http::ErrorResponse(limit.status());
  const std::string status = request.Query("status").value_or("");
  if (!status.empty() &&
      std::find(kOutcomes.begin(), kOutcomes.end(), status) == kOutcomes.end()) {
    const std::string allowed = "must be one of delivered, retry, failed, dead_letter, skipped";
    return http::ErrorResponse(
        Status(ErrorCode::kInvalidRequest, "status: " + allowed, {{"status", allowed}}));
  }
  // The filter runs over the whole kept log (it is bounded), then the limit applies.
  auto attempts = deps_.log.Deliveries(
      who.account.id, status.empty() ? static_cast<int>(*limit) : webhook::kDeliveryLogSize);
  if (!attempts.ok()) return http::ErrorResponse(attempts.status());
  auto dead = deps_.log.DeadLetters(who.account.id, webhook::kDeliveryLogSize);
  if (!dead.ok()) return http::ErrorResponse(dead.status());
  std::set<std::string> dead_ids;
  for (const auto& d : *dead) dead_ids.insert(d.event.delivery_id);
  json list = json::array();
  // Only a delivery's newest attempt can have a retry still to come (the log is newest first).
  std::set<std::string> seen;
  for (const auto& a : *attempts) {
    const bool newest = seen.insert(a.delivery_id).second;
    if (!status.empty() && a.outcome != status) continue;
    if (list.size() >= static_cast<size_t>(*limit)) break;
    const json payload = json::parse(a.payload, nullptr, false);
    const bool test = a.test || (payload.is_object() && payload.value("test", false) == true);
    list.push_back({{"delivery_id", a.delivery_id},
                    {"event", a.event.empty() ? "job.complete" : a.event},
                    {"test", test},
                    {"job_id", Nullable(PayloadField(payload, {"jobId", "job_id"}))},
                    {"filename", Nullable(PayloadField(payload, {"filename"}))},
                    {"attempt", a.attempt},
                    {"status_code", a.http_status > 0 ? json(a.http_status) : json(nullptr)},
                    {"error", Nullable(a.error)},
                    {"duration_ms", a.latency_ms},
                    {"at", a.time},
                    {"next_retry_at", newest && a.next_attempt_ms > 0
                                          ? json(IsoFromMillis(a.next_attempt_ms))
                                          : json(nullptr)},
                    {"outcome", a.outcome},
                    {"dead", a.outcome == "dead_letter" && dead_ids.count(a.delivery_id) > 0},
                    {"request_body", a.payload},
                    {"response_body", a.response},
                    {"response_truncated", a.response_truncated}});
  }
  return http::JsonResponse(200, http::DumpJson(list));
}

http::HttpResponse WebhookApi::Redeliver(const Principal& who, const std::string& delivery_id) {
  Status s = deps_.log.Redeliver(who.account.id, delivery_id, UnixMillis(deps_.clock.Now()));
  if (!s.ok()) {
    if (s.code() == ErrorCode::kNotFound) {
      return http::ErrorResponse(
          Status(ErrorCode::kNotFound,
                 "There is no delivery " + delivery_id + " in this account's delivery log."));
    }
    return http::ErrorResponse(s);
  }
  return http::JsonResponse(
      202, http::DumpJson(json{{"delivery_id", delivery_id}, {"status", "queued"}}));
}

}  // namespace dq::gateway
