// Monthly record quotas: per account, per UTC month. Records are reserved atomically before the
// work, all or nothing; a reservation whose work fails is released.
//
// A failover can keep a write whose WAIT timed out (the replica had it in its socket buffer) or
// drop one that ran: a reservation answered with an error or unconfirmed may or may not exist
// on the next master. So every reservation has an id and a record beside the counter
// (dq:{acct}:quota:res:<id> = records, kept kReservationTtlSeconds), and a release gives back
// what that record holds and sets it to 0, in one script: it is idempotent, it gives back only a
// reservation that survived, and a reservation whose script runs after its release (it timed
// out on the way, and its caller answered an error and released it) takes nothing. A release not confirmed by the replicas is retried in the
// background until it is, on whichever master is current, for kReleaseRetryFor.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "dq/common/account_store.h"
#include "dq/common/clock.h"
#include "dq/common/redis_client.h"
#include "dq/common/status.h"
#include "limits/quota_metrics.h"

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
  std::string id;  // unique (an upload's job id, or random)
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
  // kQuotaExceeded (using nothing). `id` names the reservation (empty: a random one). Errors:
  // kUnavailable (whatever may have been reserved is being given back).
  virtual Result<QuotaReservation> Reserve(const Account& account, int64_t records,
                                           std::string id = "") = 0;
  // Gives a reservation back (the work failed); idempotent. Errors: kUnavailable (the release is
  // retried in the background until the replicas have it).
  virtual Status Release(const QuotaReservation& reservation) = 0;
  virtual Result<QuotaUsage> Usage(const Account& account) = 0;
};

// How long a reservation's record lives, and how long an unconfirmed release is retried.
inline constexpr int64_t kReservationTtlSeconds = 900;
inline constexpr std::chrono::seconds kReleaseRetryFor{600};
inline constexpr size_t kMaxPendingReleases = 100000;

// The key of a reservation's record (hash-tagged with its account, so it shares the counter's
// slot): "dq:{acct}:quota:res:<id>".
std::string QuotaReservationKey(std::string_view account_id, std::string_view id);

// Gives a reservation back for work that failed. A release that fails leaves the records used
// for the month (the account pays for work it did not get), so it is never dropped silently: it
// is logged with `context` (e.g. {"job_id", id}) and counted in dq_quota_release_errors_total.
void ReleaseOrReport(QuotaService& quota, const QuotaReservation& reservation,
                     std::pair<std::string_view, std::string_view> context,
                     QuotaMetrics& metrics = QuotaMetrics::Global());

class RedisQuotaService final : public QuotaService {
 public:
  RedisQuotaService(RedisClient& redis, const Clock& clock, QuotaPolicy policy,
                    std::chrono::milliseconds retry_pause = std::chrono::milliseconds(200));
  ~RedisQuotaService() override;
  Result<QuotaReservation> Reserve(const Account& account, int64_t records,
                                   std::string id = "") override;
  Status Release(const QuotaReservation& reservation) override;
  Result<QuotaUsage> Usage(const Account& account) override;

  // Releases still waiting for their replicas (for tests and the log).
  size_t PendingReleases();
  // Waits until no release is pending, at most `limit`; true when none is.
  bool WaitReleased(std::chrono::milliseconds limit);

 private:
  struct Pending {
    QuotaReservation reservation;
    std::chrono::steady_clock::time_point give_up;
  };
  // One try: OK only when the replicas confirmed it.
  Status ReleaseOnce(const QuotaReservation& reservation);
  void RetryLater(const QuotaReservation& reservation);
  void RetryLoop();

  RedisClient& redis_;
  const Clock& clock_;
  QuotaPolicy policy_;
  std::chrono::milliseconds retry_pause_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Pending> pending_;
  size_t in_flight_ = 0;  // taken from pending_ by the retry thread, being tried
  bool stop_ = false;
  std::thread retry_thread_;
};

}  // namespace dq::gateway
