// Webhook self-service, one implementation behind both doors (/v1/webhook… with an API key,
// /console/api/webhook… with a session): read and set the URL, roll the secret, send a test
// event, read the delivery log, redeliver. The URL is checked by the notifier's own address
// policy (library dq_webhook). Nothing here sends HTTP: a test event is queued for the notifier
// (the webhook retry schedule, due at once, as a redelivery is), so a slow or dead receiver
// never holds an HTTP thread.
#pragma once

#include <functional>
#include <memory>

#include "auth/authenticator.h"
#include "dq/http/http_types.h"
#include "dq/webhook/address_policy.h"
#include "dq/common/delivery_log.h"
#include "dq/common/account_store.h"
#include "dq/common/clock.h"

namespace dq::gateway {

struct WebhookApiDeps {
  AccountStore& accounts;
  webhook::RedisDeliveryLog& log;
  webhook::UrlPolicy url_policy;
  const Clock& clock;
  // How long a rolled secret keeps signing beside the new one (DQ_WEBHOOK_SECRET_OVERLAP_S).
  int64_t secret_overlap_ms = 86'400'000;
};

class WebhookApi {
 public:
  explicit WebhookApi(WebhookApiDeps deps) : deps_(std::move(deps)) {}

  // GET: {url, enabled, secret_set, secret_hint, previous_secret_hint,
  // previous_secret_until}; the secrets themselves are never returned.
  http::HttpResponse Get(const Principal& who);
  // PUT {url, enabled (default true)}: 200 with the GET body; 400 invalid_webhook_url with the
  // policy's reason. When the account has no secret yet, one is created and the answer carries
  // it, once, as `secret`.
  http::HttpResponse Put(const http::HttpRequest& request, const Principal& who);
  // POST …/secret: a new "whsec_" secret, returned once: {secret, secret_hint,
  // previous_secret_until}. The replaced secret keeps signing until previous_secret_until.
  http::HttpResponse RollSecret(const Principal& who);
  // POST …/test: queues a job.complete with "test": true for the notifier, due now: 202
  // {delivery_id, job_id, status: "queued"}. The notifier attempts it once (never retried); the
  // outcome appears in the delivery log under that delivery_id.
  http::HttpResponse Test(const Principal& who);
  // GET …/deliveries?limit=1..100 (default 20)&status=<outcome>: newest attempts first, of the
  // last 100 kept, only those with that outcome when status is given.
  http::HttpResponse Deliveries(const http::HttpRequest& request, const Principal& who);
  // POST …/deliveries/:id/redeliver: 202; 404 for an unknown delivery.
  http::HttpResponse Redeliver(const Principal& who, const std::string& delivery_id);

 private:
  WebhookApiDeps deps_;
};

// "whsec_…" + the secret's last 4 characters; "" for no secret.
std::string SecretHint(std::string_view secret);

}  // namespace dq::gateway
