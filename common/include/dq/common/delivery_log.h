// The notifier's durable state in Redis, and the API dqctl uses to read and redeliver.
//
// Redis layout:
//   dq:{acct}:webhook:deliveries  LIST  the last 100 attempts, newest first (JSON, see
//                                       DeliveryAttempt)
//   dq:{acct}:webhook:dead        LIST  dead letters, newest first, capped at 10,000 (JSON, see
//                                       DeadLetter)
//   dq:webhooks:retry             ZSET  scheduled retries: member = the event as JSON
//                                       (EventToJson), score = due time in Unix ms
//   {dq:webhooks:retry}:ids       HASH  delivery id -> its one scheduled member (the hash tag
//                                       puts it in the retry set's cluster slot)
//   {dq:webhooks:retry}:sending:<delivery id>
//                                 STRING the send lease: the token of the one attempt of the
//                                       delivery that may be sending now (PX: the lease)
// At most one attempt of a delivery is ever scheduled: every write to the schedule is one Lua
// step that keeps the set and its index together. A fresh schedule (a test event, a redeliver)
// replaces the delivery's pending member; a reschedule that names the member it replaces
// (the dispatcher, after an attempt) is dropped when that member is gone, i.e. when a redeliver
// superseded it while the attempt was in flight.
// At most one attempt of a delivery is ever sending: before its POST an attempt takes the
// delivery's send lease (BeginSend), which is refused while another attempt of the delivery holds
// it (that one is then put back on the schedule, unchanged) and refused for good when the retry
// it came from is no longer on the schedule (a redeliver replaced it). EndSend gives the lease
// back; after a delivered attempt it also cancels what a redeliver scheduled meanwhile, so an
// attempt in flight and a redeliver never both reach the receiver.
// A retry is taken by a replica with one Lua step that moves its score to now + lease, so two
// replicas never take the same retry at once; if the replica dies, the lease runs out and another
// one takes it.
//
// dqctl:
//   RedisClient redis(options);
//   RedisDeliveryLog log(redis);
//   auto attempts = log.Deliveries("acct_1");            // `dqctl webhook deliveries`
//   auto dead = log.DeadLetters("acct_1");
//   Status s = log.Redeliver("acct_1", delivery_id, UnixMillis(clock.Now()));  // `... redeliver`
//
// Thread-safety: every method may be called from any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dq/common/redis_client.h"
#include "dq/common/status.h"
#include "dq/common/event.h"

namespace dq::webhook {

inline constexpr std::string_view kRetryKey = "dq:webhooks:retry";
inline constexpr std::string_view kRetryIndexKey = "{dq:webhooks:retry}:ids";
inline constexpr std::string_view kSendLeasePrefix = "{dq:webhooks:retry}:sending:";
// The first bytes of a receiver's answer that the delivery log keeps.
inline constexpr size_t kResponseBodyKept = 1024;
inline constexpr int kDeliveryLogSize = 100;
inline constexpr int kDeadLetterCap = 10'000;

struct DeliveryAttempt {
  std::string time;         // ISO 8601 UTC with milliseconds
  std::string delivery_id;
  std::string url;
  int http_status = 0;      // 0: no response
  int64_t latency_ms = 0;
  std::string error;        // empty on success
  std::string outcome;      // "delivered", "retry", "dead_letter", "skipped", "failed"
  int attempt = 1;          // 1 for the first attempt
  std::string event;        // "job.complete"
  std::string payload;      // the bytes sent (kept so a delivered event can be redelivered)
  int64_t next_attempt_ms = 0;  // outcome "retry": when the next attempt is due (Unix ms)
  bool test = false;        // a test event (POST …/webhook/test)
  std::string response;     // the first kResponseBodyKept bytes of the receiver's answer
  bool response_truncated = false;  // the answer was longer than what is kept
  bool operator==(const DeliveryAttempt&) const = default;
};
std::string AttemptToJson(const DeliveryAttempt& a);
Result<DeliveryAttempt> AttemptFromJson(std::string_view json);

struct DeadLetter {
  Event event;
  std::string url;
  std::string last_error;
  std::string time;  // when it was dead-lettered
  bool operator==(const DeadLetter&) const = default;
};
std::string DeadLetterToJson(const DeadLetter& d);
Result<DeadLetter> DeadLetterFromJson(std::string_view json);

// A retry taken from the schedule: the member as stored (to remove or replace it) and its event.
struct ClaimedRetry {
  std::string member;
  Event event;
};

// BeginSend's answer.
enum class SendClaim {
  kGo,          // the lease is this attempt's: send
  kBusy,        // another attempt of the delivery holds it: put this one back, unchanged
  kSuperseded,  // the retry it came from is no longer scheduled (a redeliver replaced it)
};

// What the dispatcher writes. Errors: kUnavailable when Redis cannot be reached.
class DeliveryStore {
 public:
  virtual ~DeliveryStore() = default;
  // Takes the delivery's send lease for lease_ms under token, in one step with checking that
  // retry_member ("" for a stream entry) is still scheduled. The default (stores with one
  // sender) always answers kGo.
  virtual Result<SendClaim> BeginSend(std::string_view delivery_id, std::string_view retry_member,
                                      std::string_view token, int64_t lease_ms) {
    (void)delivery_id, (void)retry_member, (void)token, (void)lease_ms;
    return SendClaim::kGo;
  }
  // Gives the lease back when token still holds it. delivered: the attempt reached the
  // receiver, so whatever is scheduled for the delivery now (a redeliver made while it was in
  // flight) is cancelled in the same step.
  virtual Status EndSend(std::string_view delivery_id, std::string_view token, bool delivered) {
    (void)delivery_id, (void)token, (void)delivered;
    return Status::Ok();
  }
  // Appends to the account's delivery log (trimmed to the last 100).
  virtual Status Record(std::string_view account_id, const DeliveryAttempt& attempt) = 0;
  // Schedules event at due_ms, as the delivery's one scheduled attempt. With replace_member
  // empty, any pending member of the same delivery is cancelled. Otherwise replace_member is
  // replaced atomically, and nothing is scheduled when it is no longer on the schedule (a
  // redeliver cancelled it meanwhile).
  virtual Status ScheduleRetry(const Event& event, int64_t due_ms,
                               std::string_view replace_member) = 0;
  // Removes a retry that was delivered, skipped or dead-lettered.
  virtual Status RemoveRetry(std::string_view member) = 0;
  virtual Status AddDeadLetter(const DeadLetter& dead) = 0;
};

class RedisDeliveryLog final : public DeliveryStore {
 public:
  explicit RedisDeliveryLog(RedisClient& redis) : redis_(redis) {}

  Status Record(std::string_view account_id, const DeliveryAttempt& attempt) override;
  Status ScheduleRetry(const Event& event, int64_t due_ms, std::string_view replace_member) override;
  Status RemoveRetry(std::string_view member) override;
  Status AddDeadLetter(const DeadLetter& dead) override;
  Result<SendClaim> BeginSend(std::string_view delivery_id, std::string_view retry_member,
                              std::string_view token, int64_t lease_ms) override;
  Status EndSend(std::string_view delivery_id, std::string_view token, bool delivered) override;

  // Takes up to max retries due at now_ms and leases them until now_ms + lease_ms. Unparseable
  // members are removed and skipped.
  Result<std::vector<ClaimedRetry>> ClaimDueRetries(int64_t now_ms, int64_t lease_ms, int max);
  // The same, fairly: among the first `scan` due retries (in due order), of each account at most
  // its room in `rooms` (default_room for an account not listed; 0: none), so one account's
  // backlog does not fill the claim and accounts that cannot start an attempt are left alone.
  Result<std::vector<ClaimedRetry>> ClaimDueRetriesFairly(
      int64_t now_ms, int64_t lease_ms, int max, int default_room,
      const std::vector<std::pair<std::string, int>>& rooms, int scan);

  // The account's last attempts, newest first (at most limit, at most 100).
  Result<std::vector<DeliveryAttempt>> Deliveries(std::string_view account_id, int limit = 100);
  // The account's dead letters, newest first.
  Result<std::vector<DeadLetter>> DeadLetters(std::string_view account_id, int limit = 1000);
  // Delivers the event again with the same delivery id and a fresh retry schedule, due now_ms
  // (a replica picks it up within its poll interval). The delivery's pending retry, if any, is
  // cancelled in the same step, so the receiver gets one more attempt, not two. Looks in the dead letters first (and
  // removes the event from them), then in the delivery log. Errors: kNotFound when the account
  // has no such delivery; kUnavailable.
  Status Redeliver(std::string_view account_id, std::string_view delivery_id, int64_t now_ms);
  // The member scheduled for delivery_id, "" when none is.
  Result<std::string> ScheduledMember(std::string_view delivery_id);

 private:
  RedisClient& redis_;
};

}  // namespace dq::webhook
