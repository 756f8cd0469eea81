#include "dq/webhook/dispatcher.h"

#include "dq/common/crypto.h"
#include "dq/common/log.h"
#include "dq/common/time_format.h"

namespace dq::webhook {

DispatcherMetrics::DispatcherMetrics(Metrics& registry)
    : breaker_refusals(registry, "dq_notifier_breaker_refusals_total",
                       "Attempts failed at once because their destination's breaker was open"),
      http_seconds(registry, "dq_notifier_http_seconds", "Webhook POST latency"),
      event_to_delivery_seconds(registry, "dq_notifier_event_to_delivery_seconds",
                                "From the event's creation to its successful delivery") {
  for (auto o : {Outcome::kDelivered, Outcome::kRetry, Outcome::kDeadLetter, Outcome::kSkipped,
                 Outcome::kFailed, Outcome::kDeferred, Outcome::kSuperseded}) {
    deliveries[static_cast<size_t>(o)] = std::make_unique<LazyCounter>(
        registry, "dq_notifier_deliveries_total", "Webhook delivery attempts by outcome",
        "outcome=\"" + std::string(OutcomeName(o)) + "\"");
  }
}

DispatcherMetrics& DispatcherMetrics::Global() {
  static DispatcherMetrics* metrics = new DispatcherMetrics(Metrics::Global());  // never destroyed
  return *metrics;
}

namespace {

// Holds a delivery's send lease and gives it back when the attempt's handling ends, however it
// ends (an error storing the outcome included). Best effort: a lease not given back runs out
// after its PX (a later attempt of the delivery waits until then); a redeliver not cancelled is
// one more delivery, as without the lease.
class SendLease {
 public:
  SendLease(DeliveryStore& store, std::string_view account_id, std::string_view delivery_id)
      : store_(store), account_id_(account_id), delivery_id_(delivery_id) {}
  SendLease(const SendLease&) = delete;
  SendLease& operator=(const SendLease&) = delete;
  ~SendLease() { Release(); }
  void Hold(std::string token) { token_ = std::move(token); }
  void SetDelivered(bool delivered) { delivered_ = delivered; }
  // Gives the lease back now (once); the destructor does it for the paths that return early.
  void Release() {
    if (token_.empty()) return;
    if (Status s = store_.EndSend(account_id_, delivery_id_, token_, delivered_); !s.ok()) {
      log::Warn("send lease not given back", {{"delivery_id", delivery_id_},
                                              {"error", s.message()}});
    }
    token_.clear();
  }

 private:
  DeliveryStore& store_;
  std::string account_id_;
  std::string delivery_id_;
  std::string token_;
  bool delivered_ = false;
};

}  // namespace

Result<Outcome> Dispatcher::Skip(const Event& event, std::string_view retry_member,
                                 std::string why, DeliveryAttempt& attempt) {
  attempt.time = FormatIso8601Millis(clock_.Now());
  attempt.outcome = std::string(OutcomeName(Outcome::kSkipped));
  attempt.error = std::move(why);
  log::Info("webhook skipped: " + attempt.error,
            {{"account_id", event.account_id}, {"delivery_id", event.delivery_id}});
  if (Status s = store_.Record(event.account_id, attempt); !s.ok()) {
    log::Warn("delivery log write failed", {{"error", s.message()}});
  }
  if (!retry_member.empty()) {
    if (Status s = store_.RemoveRetry(retry_member); !s.ok()) return s;
  }
  metrics_.Delivery(Outcome::kSkipped).Inc();
  return Outcome::kSkipped;
}

Status Dispatcher::Settle(const Event& event, const Decision& decision, const std::string& url,
                          const DeliveryAttempt& attempt, std::string_view retry_member,
                          int64_t now_ms) {
  switch (decision.outcome) {
    case Outcome::kDelivered:
    case Outcome::kSkipped:
    case Outcome::kFailed:
    case Outcome::kDeferred:
    case Outcome::kSuperseded:  // not a decision: kept for the compiler's exhaustiveness check
      if (!retry_member.empty()) {
        if (Status s = store_.RemoveRetry(retry_member); !s.ok()) return s;
      }
      if (event.created_ms > 0 && decision.outcome == Outcome::kDelivered) {
        metrics_.event_to_delivery_seconds.Observe(
            static_cast<double>(now_ms - event.created_ms) / 1000.0);
      }
      break;
    case Outcome::kRetry: {
      Event next = event;
      next.attempts = event.attempts + 1;
      if (next.first_attempt_ms <= 0) next.first_attempt_ms = now_ms;
      if (Status s = store_.ScheduleRetry(next, decision.next_attempt_ms, retry_member); !s.ok()) {
        return s;
      }
      break;
    }
    case Outcome::kDeadLetter: {
      Event dead = event;
      dead.attempts = event.attempts + 1;
      if (Status s = store_.AddDeadLetter({dead, url, attempt.error, attempt.time}); !s.ok()) {
        return s;
      }
      if (!retry_member.empty()) {
        if (Status s = store_.RemoveRetry(retry_member); !s.ok()) return s;
      }
      log::Warn("webhook dead-lettered", {{"account_id", event.account_id},
                                          {"delivery_id", event.delivery_id},
                                          {"error", attempt.error}});
      break;
    }
  }
  return Status::Ok();
}

Result<Outcome> Dispatcher::Handle(const Event& event, std::string_view retry_member,
                                   HttpSender& sender) {
  auto webhook = lookup_(event.account_id);
  if (!webhook.ok()) return webhook.status();

  DeliveryAttempt attempt;
  attempt.delivery_id = event.delivery_id;
  attempt.attempt = event.attempts + 1;
  attempt.event = event.type;
  attempt.payload = event.payload;
  attempt.test = event.test;

  const bool configured = webhook->has_value() && !(*webhook)->url.empty();
  if (!configured || !(*webhook)->enabled) {
    return Skip(event, retry_member, configured ? "webhook disabled" : "no webhook configured",
                attempt);
  }
  const Webhook& hook = **webhook;
  attempt.url = hook.url;

  HttpResult result;
  SendLease lease(store_, event.account_id, event.delivery_id);
  if (auto url = ValidateWebhookUrl(hook.url, url_policy_); !url.ok()) {
    result.error = url.status().message();
  } else {
    const std::string destination = url->host + ":" + std::to_string(url->port);
    const int64_t start_ms = UnixMillis(clock_.Now());
    const Admission admission =
        gate_ != nullptr ? gate_->Admit(event.account_id, destination, start_ms) : Admission::kGo;
    if (admission == Admission::kAccountBusy || admission == Admission::kHostBusy) {
      // Not now: back on the schedule, unchanged, so this thread serves someone else.
      if (Status s = store_.ScheduleRetry(event, start_ms + defer_ms_, retry_member); !s.ok()) {
        return s;
      }
      metrics_.Delivery(Outcome::kDeferred).Inc();
      return Outcome::kDeferred;
    }
    if (admission == Admission::kGo) {
      // One sender per delivery (see the header): taken after the gate, given back below.
      const std::string token = NewUuidV4();
      auto claim = store_.BeginSend(event.account_id, event.delivery_id, retry_member, token,
                                   send_lease_ms_);
      if (!claim.ok() || *claim != SendClaim::kGo) {
        if (gate_ != nullptr) gate_->Release(event.account_id, destination);
        if (!claim.ok()) return claim.status();
      }
      if (*claim == SendClaim::kSuperseded) {
        log::Info("retry superseded by a redeliver; not sent",
                  {{"account_id", event.account_id}, {"delivery_id", event.delivery_id}});
        metrics_.Delivery(Outcome::kSuperseded).Inc();
        return Outcome::kSuperseded;
      }
      if (*claim == SendClaim::kBusy) {
        if (Status s = store_.ScheduleRetry(event, start_ms + defer_ms_, retry_member); !s.ok()) {
          return s;
        }
        metrics_.Delivery(Outcome::kDeferred).Inc();
        return Outcome::kDeferred;
      }
      lease.Hold(token);
    }
    if (admission == Admission::kHostOpen) {
      result.error = destination + " is not answering; attempts to it are paused until " +
                     FormatIso8601Millis(std::chrono::system_clock::time_point(
                         std::chrono::milliseconds(gate_->OpenUntil(destination))));
      metrics_.breaker_refusals.Inc();
    } else {
      result = sender.Post(
          BuildDelivery(event, hook.url, SigningSecrets(hook, start_ms), start_ms / 1000));
      metrics_.http_seconds.Observe(static_cast<double>(result.latency_ms) / 1000.0);
      if (gate_ != nullptr) {
        // A refused address was never tried: it says nothing about the destination.
        const bool answered = result.status > 0 || result.error.starts_with("refused address");
        gate_->Done(event.account_id, destination, answered ? Reach::kAnswered : Reach::kNoAnswer,
                    UnixMillis(clock_.Now()));
      }
    }
  }
  const auto now = clock_.Now();
  const int64_t now_ms = UnixMillis(now);
  const Decision decision = Decide(event, result, policy_, now_ms);
  lease.SetDelivered(decision.outcome == Outcome::kDelivered);

  attempt.time = FormatIso8601Millis(now);
  attempt.http_status = result.status;
  attempt.latency_ms = result.latency_ms;
  attempt.error = DescribeFailure(result);
  attempt.response = result.body.substr(0, kResponseBodyKept);
  attempt.response_truncated = result.body_truncated || result.body.size() > kResponseBodyKept;
  attempt.outcome = std::string(OutcomeName(decision.outcome));
  if (decision.outcome == Outcome::kRetry) attempt.next_attempt_ms = decision.next_attempt_ms;

  // The attempt is over: its lease goes back (a delivered one cancels a redeliver made while it
  // was in flight), then what follows it is stored, and only then is it logged. A redeliver is
  // found through the log, so one made once the attempt shows there comes after all of that:
  // it is neither cancelled by the attempt's lease nor replaced by its retry. (Logged first, a
  // redeliver made in the milliseconds before the lease's end was silently dropped, and one
  // made before the retry was stored was replaced by it.)
  lease.Release();
  const Status settled = Settle(event, decision, hook.url, attempt, retry_member, now_ms);
  // The log is for people; losing one line must not hold the event back. An attempt whose
  // outcome could not be stored is logged all the same: it was made.
  if (Status s = store_.Record(event.account_id, attempt); !s.ok()) {
    log::Warn("delivery log write failed", {{"error", s.message()}});
  }
  if (!settled.ok()) return settled;
  metrics_.Delivery(decision.outcome).Inc();
  return decision.outcome;
}

}  // namespace dq::webhook
