// One delivery from start to durable outcome: look up the account's webhook, check its URL,
// sign, POST, record what follows (nothing, a scheduled retry or a dead letter), then log the
// attempt: what the delivery log shows is settled, so a redeliver made from it comes after. The
// dispatcher owns no thread and no socket: callers pass the HttpSender of their thread, and
// acknowledge the stream entry (or drop the claimed retry) only when Handle() returns OK. That
// ordering is the at-least-once guarantee.
//
// With a FairGate, an attempt starts only when the gate lets it (fair_gate.h): one that may not
// start now is put back on the retry schedule, due after `defer_ms`, unchanged (it costs no
// attempt), and Handle() answers kDeferred; one whose destination's breaker is open fails at
// once without a connection.
//
// An attempt sends only under its delivery's send lease (DeliveryStore::BeginSend), taken after
// the gate lets it start: while another attempt of the same delivery is sending (a redeliver made
// while a retry was in flight), it is put back on the schedule like a gated one (kDeferred); when
// the retry it came from was replaced by a redeliver, it is not made (kSuperseded). A delivered
// attempt cancels a redeliver scheduled while it was in flight (EndSend). So the receiver never
// gets both an attempt that was in flight and the redeliver made meanwhile. send_lease_ms bounds
// the lease of an attempt whose process dies mid-POST: longer than one attempt can take.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "dq/webhook/address_policy.h"
#include "dq/webhook/delivery.h"
#include "dq/webhook/fair_gate.h"
#include "dq/common/delivery_log.h"
#include "dq/common/account_store.h"
#include "dq/common/clock.h"
#include "dq/common/event.h"
#include "dq/common/metrics.h"
#include "dq/webhook/http_sender.h"
#include "dq/webhook/retry_policy.h"

namespace dq::webhook {

using WebhookLookup = std::function<Result<std::optional<Webhook>>(std::string_view account_id)>;

// The dispatcher's series, declared once (docs/notifier.md lists them). Each appears on /metrics
// at its first use.
struct DispatcherMetrics {
  explicit DispatcherMetrics(Metrics& registry);
  // The process's, over Metrics::Global() (what /metrics shows).
  static DispatcherMetrics& Global();

  // dq_notifier_deliveries_total{outcome}: one per Outcome, indexed by it.
  std::array<std::unique_ptr<LazyCounter>, 7> deliveries;
  LazyCounter breaker_refusals;         // dq_notifier_breaker_refusals_total
  LazyHistogram http_seconds;           // dq_notifier_http_seconds
  LazyHistogram event_to_delivery_seconds;  // dq_notifier_event_to_delivery_seconds

  LazyCounter& Delivery(Outcome outcome) { return *deliveries[static_cast<size_t>(outcome)]; }
};

class Dispatcher {
 public:
  Dispatcher(WebhookLookup lookup, DeliveryStore& store, const RetryPolicy& policy,
             const Clock& clock, UrlPolicy url_policy, FairGate* gate = nullptr,
             int64_t defer_ms = 1000, int64_t send_lease_ms = 60'000,
             DispatcherMetrics& metrics = DispatcherMetrics::Global())
      : lookup_(std::move(lookup)),
        store_(store),
        policy_(policy),
        clock_(clock),
        url_policy_(url_policy),
        gate_(gate),
        defer_ms_(defer_ms),
        send_lease_ms_(send_lease_ms),
        metrics_(metrics) {}

  // Delivers event once. retry_member is the retry-schedule member the event came from ("" for
  // a stream entry); it is replaced by the next retry or removed. Returns the outcome once it is
  // durable. Errors: kUnavailable when the webhook could not be looked up or the outcome could
  // not be stored; the caller must then leave the entry unacknowledged (it will come back).
  Result<Outcome> Handle(const Event& event, std::string_view retry_member, HttpSender& sender);

 private:
  // No webhook, or one switched off: the attempt is logged as skipped (why), the retry it came
  // from dropped.
  Result<Outcome> Skip(const Event& event, std::string_view retry_member, std::string why,
                       DeliveryAttempt& attempt);
  // Makes an attempt's decision durable: the retry it came from dropped, the next one scheduled,
  // or the event dead-lettered (to url).
  Status Settle(const Event& event, const Decision& decision, const std::string& url,
                const DeliveryAttempt& attempt, std::string_view retry_member, int64_t now_ms);

  WebhookLookup lookup_;
  DeliveryStore& store_;
  const RetryPolicy& policy_;
  const Clock& clock_;
  UrlPolicy url_policy_;
  FairGate* gate_;
  int64_t defer_ms_;
  int64_t send_lease_ms_;
  DispatcherMetrics& metrics_;
};

}  // namespace dq::webhook
