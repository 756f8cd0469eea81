#include "quota.h"

#include "dq/common/crypto.h"
#include "dq/common/log.h"
#include "dq/common/time_format.h"

namespace dq::gateway {
namespace {

// KEYS[1]: the month's counter, KEYS[2]: the reservation's record. ARGV: records, quota, ttl
// seconds, the record's ttl seconds. Returns {1, used after} when reserved, {0, used} when the
// request would cross the quota. A reservation already recorded is not taken twice, and one
// already released (its record is then "0") is not taken at all: that is this script running
// late, after a timeout its caller answered with an error and a release.
const RedisScript kReserveScript(R"lua(
local n = tonumber(ARGV[1])
local quota = tonumber(ARGV[2])
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local recorded = redis.call('GET', KEYS[2])
if recorded == '0' then return {2, used} end
if recorded then return {1, used} end
if used + n > quota then
  return {0, used}
end
used = redis.call('INCRBY', KEYS[1], n)
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[3]))
redis.call('SET', KEYS[2], n, 'EX', tonumber(ARGV[4]))
return {1, used}
)lua");

// KEYS[1]: the month's counter, KEYS[2]: the reservation's record. ARGV[1]: the record's ttl
// seconds. Gives back what the record holds (nothing when it is "0" or gone: released already,
// not run yet, or lost in a failover with its reservation) and leaves the record at "0", so
// that the reservation, should its script still run (it timed out on the way), takes nothing.
// Returns the records given back. The write Redis may refuse when full (DECRBY) comes first, so
// a refused release changes nothing and is tried again.
const RedisScript kReleaseScript(R"lua(
local n = tonumber(redis.call('GET', KEYS[2]) or '0')
if n > 0 and redis.call('EXISTS', KEYS[1]) == 1 then redis.call('DECRBY', KEYS[1], n) end
if n ~= 0 or redis.call('EXISTS', KEYS[2]) == 0 then
  redis.call('SET', KEYS[2], '0', 'EX', tonumber(ARGV[1]))
end
return n
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

std::string QuotaReservationKey(std::string_view account_id, std::string_view id) {
  return AccountKey(account_id, "quota:res:" + std::string(id));
}

RedisQuotaService::RedisQuotaService(RedisClient& redis, const Clock& clock, QuotaPolicy policy,
                                     std::chrono::milliseconds retry_pause)
    : redis_(redis), clock_(clock), policy_(policy), retry_pause_(retry_pause) {
  retry_thread_ = std::thread([this] { RetryLoop(); });
}

RedisQuotaService::~RedisQuotaService() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
    if (!pending_.empty()) {
      log::Warn("quota releases not confirmed at exit",
                {{"pending", std::to_string(pending_.size())}});
    }
  }
  cv_.notify_all();
  if (retry_thread_.joinable()) retry_thread_.join();
}

Result<QuotaReservation> RedisQuotaService::Reserve(const Account& account, int64_t records,
                                                    std::string id) {
  if (id.empty()) id = RandomBase62(20);
  QuotaReservation r{std::move(id), account.id, FormatYearMonth(clock_.Now()), records};
  const int64_t quota = policy_.For(account);
  // Durable: a reservation lost in a failover would let the account use its records twice.
  auto durable = redis_.EvalDurable(
      kReserveScript,
      {AccountKey(r.account_id, "quota:" + r.month), QuotaReservationKey(r.account_id, r.id)},
      {std::to_string(records), std::to_string(quota), std::to_string(kCounterTtlSeconds),
       std::to_string(kReservationTtlSeconds)});
  if (!durable.ok()) {
    // The script may have run (a lost connection, a timeout): whatever it reserved goes back.
    if (records > 0) RetryLater(r);
    return durable.status();
  }
  const RedisReply* reply = &durable->reply;
  if (reply->elements.size() != 2) return Status(ErrorCode::kInternal, "unexpected quota reply");
  if (reply->elements[0].integer == 2) {
    // Only a script that ran after its own release gets here, and its caller has gone.
    return Status(ErrorCode::kInternal, "quota reservation " + r.id + " was already released");
  }
  if (reply->elements[0].integer == 1 && !durable->confirmed) {
    // Reserved on the master, not known to survive it (nor known to be lost: a replica may
    // have it unacknowledged): given back, until the replicas confirm it, before the 503.
    IgnoreError(Release(r), "retried in the background when not confirmed: the answer is a 503");
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

Status RedisQuotaService::ReleaseOnce(const QuotaReservation& r) {
  auto reply = redis_.EvalDurable(
      kReleaseScript,
      {AccountKey(r.account_id, "quota:" + r.month), QuotaReservationKey(r.account_id, r.id)},
      {std::to_string(kReservationTtlSeconds)});
  if (!reply.ok()) return reply.status();
  return reply->confirmed ? Status::Ok() : redis_.NotReplicated(*reply);
}

Status RedisQuotaService::Release(const QuotaReservation& r) {
  if (r.records == 0) return Status::Ok();
  Status s = ReleaseOnce(r);
  if (!s.ok()) RetryLater(r);
  return s;
}

void RedisQuotaService::RetryLater(const QuotaReservation& r) {
  {
    std::lock_guard lock(mu_);
    if (stop_) return;
    if (pending_.size() >= kMaxPendingReleases) {
      log::Error("quota release dropped: too many waiting",
                 {{"account_id", r.account_id}, {"reservation", r.id},
                  {"records", std::to_string(r.records)}});
      return;
    }
    pending_.push_back({r, std::chrono::steady_clock::now() + kReleaseRetryFor});
  }
  cv_.notify_all();
}

void RedisQuotaService::RetryLoop() {
  std::unique_lock lock(mu_);
  while (!stop_) {
    if (pending_.empty()) {
      cv_.wait(lock, [this] { return stop_ || !pending_.empty(); });
      continue;
    }
    // One pass over what is pending, then a pause (the master may be changing).
    std::deque<Pending> batch;
    batch.swap(pending_);
    in_flight_ = batch.size();
    lock.unlock();
    std::deque<Pending> again;
    bool failing = false;  // after one failure in a pass, the rest wait for the next pass
    for (Pending& p : batch) {
      Status s = failing ? Status(ErrorCode::kUnavailable, "not tried")
                         : ReleaseOnce(p.reservation);
      if (s.ok()) continue;
      failing = true;
      if (std::chrono::steady_clock::now() >= p.give_up) {
        log::Error("quota release given up", {{"account_id", p.reservation.account_id},
                                              {"reservation", p.reservation.id},
                                              {"records", std::to_string(p.reservation.records)},
                                              {"error", s.message()}});
        continue;
      }
      again.push_back(std::move(p));
    }
    lock.lock();
    in_flight_ = 0;
    for (Pending& p : again) pending_.push_back(std::move(p));
    if (!pending_.empty()) cv_.wait_for(lock, retry_pause_, [this] { return stop_; });
  }
}

size_t RedisQuotaService::PendingReleases() {
  std::lock_guard lock(mu_);
  return pending_.size() + in_flight_;
}

bool RedisQuotaService::WaitReleased(std::chrono::milliseconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < until) {
    if (PendingReleases() == 0) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return PendingReleases() == 0;
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
                     std::pair<std::string_view, std::string_view> context,
                     QuotaMetrics& metrics) {
  if (Status s = quota.Release(reservation); !s.ok()) {
    log::Warn("quota release failed; the records stay used this month",
              {context,
               {"account_id", reservation.account_id},
               {"records", std::to_string(reservation.records)},
               {"error", s.message()}});
    metrics.release_errors.Inc();
  }
}

}  // namespace dq::gateway
