// Monthly record quotas: per account, per UTC month. Records are reserved atomically before the
// work, all or nothing; a reservation whose work fails is released.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "dq/common/account_store.h"
#include "dq/common/clock.h"
#include "dq/common/redis_client.h"
#include "dq/common/status.h"

namespace dq::gateway {

struct QuotaPolicy {
  int64_t free = 1000;  // console only: the free plan has no API access
  int64_t pro = 100000;
  int64_t business = 1000000;
  int64_t agency = 10000000;
  // The account's override if set, else its plan's default.
  int64_t For(const Account& account) const;
};

// Records taken from one month's budget; Release() gives them back.
struct QuotaReservation {
  std::string account_id;
  std::string month;  // "202611"
  int64_t records = 0;
};

// Seconds from now until the first instant of next month, UTC: when a refused quota renews.
int64_t SecondsUntilNextMonth(std::chrono::system_clock::time_point now);

struct QuotaUsage {
  std::string month;
  int64_t used = 0;
  int64_t quota = 0;
};

class QuotaService {
 public:
  virtual ~QuotaService() = default;
  // Reserves records for account in the current month, or refuses the whole request with
  // kQuotaExceeded (using nothing). Errors: kUnavailable.
  virtual Result<QuotaReservation> Reserve(const Account& account, int64_t records) = 0;
  // Gives a reservation back (the work failed). Errors: kUnavailable.
  virtual Status Release(const QuotaReservation& reservation) = 0;
  virtual Result<QuotaUsage> Usage(const Account& account) = 0;
};

// Gives a reservation back for work that failed. A release that fails leaves the records used
// for the month (the account pays for work it did not get), so it is never dropped silently: it
// is logged with `context` (e.g. {"job_id", id}) and counted in dq_quota_release_errors_total.
void ReleaseOrReport(QuotaService& quota, const QuotaReservation& reservation,
                     std::pair<std::string_view, std::string_view> context);

class RedisQuotaService final : public QuotaService {
 public:
  RedisQuotaService(RedisClient& redis, const Clock& clock, QuotaPolicy policy)
      : redis_(redis), clock_(clock), policy_(policy) {}
  Result<QuotaReservation> Reserve(const Account& account, int64_t records) override;
  Status Release(const QuotaReservation& reservation) override;
  Result<QuotaUsage> Usage(const Account& account) override;

 private:
  RedisClient& redis_;
  const Clock& clock_;
  QuotaPolicy policy_;
};

}  // namespace dq::gateway
