#include "dq/testing/gateway_fakes.h"

#include "dq/common/time_format.h"

namespace dq::testing {

std::vector<validator::v1::Row> RowsOf(const validator::v1::PackedRows& packed) {
  std::vector<validator::v1::Row> rows(packed.rows());
  const size_t width = packed.width();
  size_t at = 0;
  for (int k = 0; k < packed.lengths_size(); ++k) {
    rows[static_cast<size_t>(k) / width].add_values(packed.data().substr(at, packed.lengths(k)));
    at += packed.lengths(k);
  }
  return rows;
}

Result<gateway::RateDecision> InMemoryRateLimiter::Acquire(std::string_view s,
                                                           gateway::RateClass c) {
  return Run(s, c, true);
}

Result<gateway::RateDecision> InMemoryRateLimiter::Peek(std::string_view s, gateway::RateClass c) {
  return Run(s, c, false);
}

gateway::RateDecision InMemoryRateLimiter::Unknown(gateway::RateClass c) const {
  const int64_t now =
      std::chrono::duration_cast<std::chrono::seconds>(clock_.Now().time_since_epoch()).count();
  const int64_t limit = policy_.Limit(c);
  return gateway::FixedWindow::Decide(true, limit, limit,
                                      gateway::FixedWindow::Start(now, policy_.window_seconds),
                                      policy_.window_seconds, now);
}

Result<gateway::RateDecision> InMemoryRateLimiter::Run(std::string_view subject,
                                                       gateway::RateClass c, bool consume) {
  std::lock_guard lock(mu_);
  if (down_) return Status(ErrorCode::kUnavailable, "limiter down");
  const int64_t now =
      std::chrono::duration_cast<std::chrono::seconds>(clock_.Now().time_since_epoch()).count();
  const int64_t limit = policy_.Limit(c);
  const int64_t start = gateway::FixedWindow::Start(now, policy_.window_seconds);
  auto& [w, n] = windows_[std::string(subject) + ":" + std::string(gateway::RateClassName(c))];
  if (w != start) {
    w = start;
    n = 0;
  }
  bool allowed = true;
  if (consume) {
    if (n >= limit) {
      allowed = false;
    } else {
      ++n;
    }
  }
  return gateway::FixedWindow::Decide(allowed, n, limit, start, policy_.window_seconds, now);
}

Result<gateway::QuotaReservation> InMemoryQuotaService::Reserve(const Account& a, int64_t n,
                                                                std::string id) {
  std::lock_guard lock(mu_);
  const int64_t quota = policy_.For(a);
  if (used_[a.id] + n > quota) return Status(ErrorCode::kQuotaExceeded, "quota exceeded");
  used_[a.id] += n;
  return gateway::QuotaReservation{std::move(id), a.id, "202611", n};
}

Status InMemoryQuotaService::Release(const gateway::QuotaReservation& r) {
  std::lock_guard lock(mu_);
  used_[r.account_id] -= r.records;
  return Status::Ok();
}

Result<gateway::QuotaUsage> InMemoryQuotaService::Usage(const Account& a) {
  std::lock_guard lock(mu_);
  return gateway::QuotaUsage{"202611", used_[a.id], policy_.For(a)};
}

}  // namespace dq::testing
