#include "quota.h"

#include "dq/common/log.h"
#include "dq/common/metrics.h"
#include "dq/common/time_format.h"

namespace dq::gateway {
namespace {

// KEYS[1]: the month's counter. ARGV: records, quota, ttl seconds.
// Returns {1, used after} when reserved, {0, used} when the request would cross the quota.
const RedisScript kReserveScript(R"lua(
local n = tonumber(ARGV[1])
local quota = tonumber(ARGV[2])
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
if used + n > quota then
  return {0, used}
end
used = redis.call('INCRBY', KEYS[1], n)
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[3]))
return {1, used}
)lua");

// Counters are kept a while after their month for support and billing questions.
constexpr int64_t kCounterTtlSeconds = 100LL * 24 * 3600;

}  // namespace

int64_t SecondsUntilNextMonth(std::chrono::system_clock::time_point now) {
  using namespace std::chrono;
  const auto today = year_month_day(floor<days>(now));
  const auto next = year_month_day((today.year() / today.month() / 1) + months(1));
  return duration_cast<seconds>(sys_days(next) - now).count();
}

int64_t QuotaPolicy::For(const Account& account) const {
  if (account.quota_override) return *account.quota_override;
  switch (account.plan) {
    case Plan::kFree: return free;
    case Plan::kPro: return pro;
    case Plan::kBusiness: return business;
    case Plan::kAgency: return agency;
  }
  return 0;
}

Result<QuotaReservation> RedisQuotaService::Reserve(const Account& account, int64_t records) {
  QuotaReservation r{account.id, FormatYearMonth(clock_.Now()), records};
  const int64_t quota = policy_.For(account);
  // Durable: a reservation lost in a failover would let the account use its records twice.
  auto durable = redis_.EvalDurable(kReserveScript, {AccountKey(account.id, "quota:" + r.month)},
                                    {std::to_string(records), std::to_string(quota),
                                     std::to_string(kCounterTtlSeconds)});
  if (!durable.ok()) return durable.status();
  const RedisReply* reply = &durable->reply;
  if (reply->elements.size() != 2) return Status(ErrorCode::kInternal, "unexpected quota reply");
  if (reply->elements[0].integer == 1 && !durable->confirmed) {
    // Reserved on the master, not known to survive it: given back before the 503, so a retry
    // is charged once (if the master dies, the reservation and its refund are lost together).
    (void)Release(r);  // best effort: the answer is a 503 either way
    return redis_.NotReplicated(*durable);
  }
  if (reply->elements[0].integer != 1) {
    const int64_t used = reply->elements[1].integer;
    return Status(ErrorCode::kQuotaExceeded,
                  "This request needs " + std::to_string(records) +
                      " records but only " + std::to_string(std::max<int64_t>(0, quota - used)) +
                      " of the monthly quota of " + std::to_string(quota) +
                      " are left; the quota renews on the first day of next month (UTC).");
  }
  return r;
}

Status RedisQuotaService::Release(const QuotaReservation& r) {
  if (r.records == 0) return Status::Ok();
  auto reply = redis_.CommandDurable(
      {"DECRBY", AccountKey(r.account_id, "quota:" + r.month), std::to_string(r.records)});
  if (!reply.ok()) return reply.status();
  return reply->confirmed ? Status::Ok() : redis_.NotReplicated(*reply);
}

Result<QuotaUsage> RedisQuotaService::Usage(const Account& account) {
  QuotaUsage u;
  u.month = FormatYearMonth(clock_.Now());
  u.quota = policy_.For(account);
  auto reply = redis_.Command({"GET", AccountKey(account.id, "quota:" + u.month)});
  if (!reply.ok()) return reply.status();
  u.used = reply->is_nil() ? 0 : std::stoll(reply->str);
  return u;
}

void ReleaseOrReport(QuotaService& quota, const QuotaReservation& reservation,
                     std::pair<std::string_view, std::string_view> context) {
  static LazyCounter errors(Metrics::Global(), "dq_quota_release_errors_total",
                            "Quota reservations of failed work that could not be given back");
  if (Status s = quota.Release(reservation); !s.ok()) {
    log::Warn("quota release failed; the records stay used this month",
              {context,
               {"account_id", reservation.account_id},
               {"records", std::to_string(reservation.records)},
               {"error", s.message()}});
    errors.Inc();
  }
}

}  // namespace dq::gateway
