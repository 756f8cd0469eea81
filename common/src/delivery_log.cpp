#include "dq/common/delivery_log.h"

#include <nlohmann/json.hpp>

namespace dq::webhook {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

std::string Dump(const ordered_json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

Status Invalid(std::string message) {
  return Status(ErrorCode::kInvalidRequest, std::move(message));
}

std::string DeliveriesKey(std::string_view account) {
  return AccountKey(account, "webhook:deliveries");
}
std::string DeadKey(std::string_view account) { return AccountKey(account, "webhook:dead"); }
// A delivery's send lease; the hash tag puts it in the retry set's cluster slot.
std::string SendLeaseKey(std::string_view delivery_id) {
  return std::string(kSendLeasePrefix) + std::string(delivery_id);
}

Status FirstError(const Result<std::vector<RedisReply>>& replies) {
  if (!replies.ok()) return replies.status();
  for (const auto& r : *replies) {
    if (r.is_error()) return Status(ErrorCode::kInternal, "redis: " + r.str);
  }
  return Status::Ok();
}

const RedisScript& ClaimScript() {
  // KEYS[1] retry zset; ARGV: now, lease-until, max. Returns the members taken.
  static const RedisScript script(R"lua(
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, m in ipairs(due) do redis.call('ZADD', KEYS[1], ARGV[2], m) end
return due
)lua");
  return script;
}

const RedisScript& FairClaimScript() {
  // KEYS[1] retry zset; ARGV: now, lease-until, max, default room, scan, then pairs of an
  // account and its room. Looks at the first `scan` due members, in due order, and takes at most
  // max of them, and of each account at most its room (the default room for an account not
  // listed; 0: none). A member without an account is taken, for the caller to drop. The account
  // is read from the member's text: EventToJson writes "account_id" before the payload, and
  // inside the payload string every quote is escaped, so the first match is the event's own.
  static const RedisScript script(R"lua(
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[5]))
local room = {}
for i = 6, #ARGV - 1, 2 do room[ARGV[i]] = tonumber(ARGV[i + 1]) end
local max, default_room = tonumber(ARGV[3]), tonumber(ARGV[4])
local out = {}
for _, m in ipairs(due) do
  if #out >= max then break end
  local acct = string.match(m, '"account_id":"([^"\\]*)"') or ''
  local left = room[acct] or default_room
  if acct == '' or left > 0 then
    room[acct] = left - 1
    redis.call('ZADD', KEYS[1], ARGV[2], m)
    out[#out + 1] = m
  end
end
return out
)lua");
  return script;
}

const RedisScript& ReplaceScript() {
  // KEYS[1] retry zset, KEYS[2] its index (delivery id -> member); ARGV: due, member, member to
  // replace ('' for none), delivery id. Returns 1 when scheduled, 0 when the member to replace
  // was gone (superseded by a redeliver, or already done): then nothing changes.
  static const RedisScript script(R"lua(
if ARGV[3] ~= '' then
  if not redis.call('ZSCORE', KEYS[1], ARGV[3]) then return 0 end
  redis.call('ZREM', KEYS[1], ARGV[3])
end
local pending = redis.call('HGET', KEYS[2], ARGV[4])
if pending and pending ~= ARGV[2] then redis.call('ZREM', KEYS[1], pending) end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[4], ARGV[2])
return 1
)lua");
  return script;
}

const RedisScript& RemoveScript() {
  // KEYS[1] retry zset, KEYS[2] its index; ARGV: member. The delivery id is read from the
  // member's text (EventToJson writes it before the payload, whose quotes are escaped); the
  // index entry goes only when it still names this member.
  static const RedisScript script(R"lua(
redis.call('ZREM', KEYS[1], ARGV[1])
local id = string.match(ARGV[1], '"delivery_id":"([^"\\]*)"')
if id and redis.call('HGET', KEYS[2], id) == ARGV[1] then redis.call('HDEL', KEYS[2], id) end
return 1
)lua");
  return script;
}

const RedisScript& BeginSendScript() {
  // KEYS[1] retry zset, KEYS[2] the delivery's send lease; ARGV: member ('' for none), token,
  // lease ms. Returns 'superseded', 'busy' or 'go'.
  static const RedisScript script(R"lua(
if ARGV[1] ~= '' and not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 'superseded' end
local holder = redis.call('GET', KEYS[2])
if holder and holder ~= ARGV[2] then return 'busy' end
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
return 'go'
)lua");
  return script;
}

const RedisScript& EndSendScript() {
  // KEYS[1] the send lease, KEYS[2] retry zset, KEYS[3] its index; ARGV: token, delivered (1/0),
  // delivery id.
  static const RedisScript script(R"lua(
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
if ARGV[2] == '1' then
  local pending = redis.call('HGET', KEYS[3], ARGV[3])
  if pending then
    redis.call('ZREM', KEYS[2], pending)
    redis.call('HDEL', KEYS[3], ARGV[3])
  end
end
return 1
)lua");
  return script;
}

}  // namespace

std::string AttemptToJson(const DeliveryAttempt& a) {
  ordered_json j;
  j["time"] = a.time;
  j["delivery_id"] = a.delivery_id;
  j["url"] = a.url;
  j["http_status"] = a.http_status;
  j["latency_ms"] = a.latency_ms;
  j["error"] = a.error;
  j["outcome"] = a.outcome;
  j["attempt"] = a.attempt;
  j["event"] = a.event;
  j["payload"] = a.payload;
  if (a.next_attempt_ms > 0) j["next_attempt_ms"] = a.next_attempt_ms;
  if (a.test) j["test"] = true;
  if (!a.response.empty()) j["response"] = a.response;
  if (a.response_truncated) j["response_truncated"] = true;
  return Dump(j);
}

Result<DeliveryAttempt> AttemptFromJson(std::string_view text) {
  const auto j = json::parse(text, nullptr, false);
  if (!j.is_object()) return Invalid("delivery log entry is not a JSON object");
  DeliveryAttempt a;
  try {
    a.time = j.value("time", "");
    a.delivery_id = j.at("delivery_id").get<std::string>();
    a.url = j.value("url", "");
    a.http_status = j.value("http_status", 0);
    a.latency_ms = j.value("latency_ms", int64_t{0});
    a.error = j.value("error", "");
    a.outcome = j.value("outcome", "");
    a.attempt = j.value("attempt", 1);
    a.event = j.value("event", "");
    a.payload = j.value("payload", "");
    a.next_attempt_ms = j.value("next_attempt_ms", int64_t{0});
    a.test = j.value("test", false);
    a.response = j.value("response", "");
    a.response_truncated = j.value("response_truncated", false);
  } catch (const json::exception&) {
    return Invalid("delivery log entry has a field of the wrong type");
  }
  return a;
}

std::string DeadLetterToJson(const DeadLetter& d) {
  ordered_json j;
  j["time"] = d.time;
  j["url"] = d.url;
  j["last_error"] = d.last_error;
  j["event"] = ordered_json::parse(EventToJson(d.event));
  return Dump(j);
}

Result<DeadLetter> DeadLetterFromJson(std::string_view text) {
  const auto j = json::parse(text, nullptr, false);
  if (!j.is_object() || !j.contains("event")) return Invalid("dead letter is not a JSON object");
  DeadLetter d;
  try {
    d.time = j.value("time", "");
    d.url = j.value("url", "");
    d.last_error = j.value("last_error", "");
  } catch (const json::exception&) {
    return Invalid("dead letter has a field of the wrong type");
  }
  auto e = EventFromJson(j["event"].dump());
  if (!e.ok()) return e.status();
  d.event = std::move(*e);
  return d;
}

Status RedisDeliveryLog::Record(std::string_view account_id, const DeliveryAttempt& attempt) {
  const std::string key = DeliveriesKey(account_id);
  return FirstError(redis_.Pipeline({{"LPUSH", key, AttemptToJson(attempt)},
                                     {"LTRIM", key, "0", std::to_string(kDeliveryLogSize - 1)}}));
}

Status RedisDeliveryLog::ScheduleRetry(const Event& event, int64_t due_ms,
                                       std::string_view replace_member) {
  auto r = redis_.Eval(ReplaceScript(), {std::string(kRetryKey), std::string(kRetryIndexKey)},
                       {std::to_string(due_ms), EventToJson(event), std::string(replace_member),
                        event.delivery_id});
  if (!r.ok()) return r.status();
  if (r->is_error()) return Status(ErrorCode::kUnavailable, "redis: " + r->str);
  return Status::Ok();
}

Status RedisDeliveryLog::RemoveRetry(std::string_view member) {
  auto r = redis_.Eval(RemoveScript(), {std::string(kRetryKey), std::string(kRetryIndexKey)},
                       {std::string(member)});
  if (!r.ok()) return r.status();
  if (r->is_error()) return Status(ErrorCode::kUnavailable, "redis: " + r->str);
  return Status::Ok();
}

Result<SendClaim> RedisDeliveryLog::BeginSend(std::string_view delivery_id,
                                              std::string_view retry_member,
                                              std::string_view token, int64_t lease_ms) {
  auto r = redis_.Eval(BeginSendScript(),
                       {std::string(kRetryKey), SendLeaseKey(delivery_id)},
                       {std::string(retry_member), std::string(token), std::to_string(lease_ms)});
  if (!r.ok()) return r.status();
  if (r->is_error()) return Status(ErrorCode::kUnavailable, "redis: " + r->str);
  if (r->str == "superseded") return SendClaim::kSuperseded;
  if (r->str == "busy") return SendClaim::kBusy;
  return SendClaim::kGo;
}

Status RedisDeliveryLog::EndSend(std::string_view delivery_id, std::string_view token,
                                 bool delivered) {
  auto r = redis_.Eval(EndSendScript(),
                       {SendLeaseKey(delivery_id), std::string(kRetryKey),
                        std::string(kRetryIndexKey)},
                       {std::string(token), delivered ? "1" : "0", std::string(delivery_id)});
  if (!r.ok()) return r.status();
  if (r->is_error()) return Status(ErrorCode::kUnavailable, "redis: " + r->str);
  return Status::Ok();
}

Result<std::string> RedisDeliveryLog::ScheduledMember(std::string_view delivery_id) {
  auto r = redis_.Command({"HGET", std::string(kRetryIndexKey), std::string(delivery_id)});
  if (!r.ok()) return r.status();
  return r->str;
}

Status RedisDeliveryLog::AddDeadLetter(const DeadLetter& dead) {
  const std::string key = DeadKey(dead.event.account_id);
  return FirstError(redis_.Pipeline({{"LPUSH", key, DeadLetterToJson(dead)},
                                     {"LTRIM", key, "0", std::to_string(kDeadLetterCap - 1)}}));
}

Result<std::vector<ClaimedRetry>> RedisDeliveryLog::ClaimDueRetries(int64_t now_ms,
                                                                    int64_t lease_ms, int max) {
  auto r = redis_.Eval(ClaimScript(), {std::string(kRetryKey)},
                       {std::to_string(now_ms), std::to_string(now_ms + lease_ms),
                        std::to_string(max)});
  if (!r.ok()) return r.status();
  std::vector<ClaimedRetry> out;
  for (const auto& m : r->elements) {
    auto e = EventFromJson(m.str);
    if (!e.ok()) {
      RemoveRetry(m.str);  // poison: nothing could ever deliver it
      continue;
    }
    out.push_back({m.str, std::move(*e)});
  }
  return out;
}

Result<std::vector<ClaimedRetry>> RedisDeliveryLog::ClaimDueRetriesFairly(
    int64_t now_ms, int64_t lease_ms, int max, int default_room,
    const std::vector<std::pair<std::string, int>>& rooms, int scan) {
  std::vector<std::string> args = {std::to_string(now_ms), std::to_string(now_ms + lease_ms),
                                   std::to_string(max), std::to_string(default_room),
                                   std::to_string(std::max(scan, max))};
  for (const auto& [account, room] : rooms) {
    args.push_back(account);
    args.push_back(std::to_string(room));
  }
  auto r = redis_.Eval(FairClaimScript(), {std::string(kRetryKey)}, args);
  if (!r.ok()) return r.status();
  if (r->is_error()) return Status(ErrorCode::kUnavailable, "redis: " + r->str);
  std::vector<ClaimedRetry> out;
  for (const auto& m : r->elements) {
    auto e = EventFromJson(m.str);
    if (!e.ok()) {
      RemoveRetry(m.str);  // poison: nothing could ever deliver it
      continue;
    }
    out.push_back({m.str, std::move(*e)});
  }
  return out;
}

Result<std::vector<DeliveryAttempt>> RedisDeliveryLog::Deliveries(std::string_view account_id,
                                                                  int limit) {
  limit = std::clamp(limit, 1, kDeliveryLogSize);
  auto r = redis_.Command({"LRANGE", DeliveriesKey(account_id), "0", std::to_string(limit - 1)});
  if (!r.ok()) return r.status();
  std::vector<DeliveryAttempt> out;
  for (const auto& e : r->elements) {
    if (auto a = AttemptFromJson(e.str); a.ok()) out.push_back(std::move(*a));
  }
  return out;
}

Result<std::vector<DeadLetter>> RedisDeliveryLog::DeadLetters(std::string_view account_id,
                                                             int limit) {
  limit = std::clamp(limit, 1, kDeadLetterCap);
  auto r = redis_.Command({"LRANGE", DeadKey(account_id), "0", std::to_string(limit - 1)});
  if (!r.ok()) return r.status();
  std::vector<DeadLetter> out;
  for (const auto& e : r->elements) {
    if (auto d = DeadLetterFromJson(e.str); d.ok()) out.push_back(std::move(*d));
  }
  return out;
}

Status RedisDeliveryLog::Redeliver(std::string_view account_id, std::string_view delivery_id,
                                   int64_t now_ms) {
  auto dead = redis_.Command({"LRANGE", DeadKey(account_id), "0", "-1"});
  if (!dead.ok()) return dead.status();
  for (const auto& entry : dead->elements) {
    auto d = DeadLetterFromJson(entry.str);
    if (!d.ok() || d->event.delivery_id != delivery_id) continue;
    Event e = d->event;
    e.attempts = 0;
    e.first_attempt_ms = now_ms;
    if (Status s = ScheduleRetry(e, now_ms, ""); !s.ok()) return s;
    auto rem = redis_.Command({"LREM", DeadKey(account_id), "1", entry.str});
    return rem.ok() ? Status::Ok() : rem.status();
  }
  auto log = redis_.Command({"LRANGE", DeliveriesKey(account_id), "0", "-1"});
  if (!log.ok()) return log.status();
  for (const auto& entry : log->elements) {
    auto a = AttemptFromJson(entry.str);
    if (!a.ok() || a->delivery_id != delivery_id || a->payload.empty()) continue;
    Event e;
    e.test = a->test;
    e.type = a->event.empty() ? std::string(kJobCompleteType) : a->event;
    e.account_id = std::string(account_id);
    e.delivery_id = a->delivery_id;
    e.payload = a->payload;
    e.created_ms = now_ms;
    e.first_attempt_ms = now_ms;
    return ScheduleRetry(e, now_ms, "");
  }
  return Status(ErrorCode::kNotFound, "account " + std::string(account_id) +
                                          " has no delivery " + std::string(delivery_id) +
                                          " in its delivery log or dead letters");
}

}  // namespace dq::webhook
