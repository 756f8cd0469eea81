// ReleaseOrReport counts a release that failed in its QuotaMetrics, under the name and help of
// /metrics; a release that succeeded counts nothing.
#include <gtest/gtest.h>

#include "limits/quota.h"

namespace dq::gateway {
namespace {

class ReleaseFails final : public QuotaService {
 public:
  Result<QuotaReservation> Reserve(const Account&, int64_t, std::string) override {
    return Status(ErrorCode::kInternal, "not used");
  }
  Status Release(const QuotaReservation&) override {
    ++releases;
    return fail ? Status(ErrorCode::kUnavailable, "redis down") : Status::Ok();
  }
  Result<QuotaUsage> Usage(const Account&) override {
    return Status(ErrorCode::kInternal, "not used");
  }
  bool fail = true;
  int releases = 0;
};

TEST(QuotaMetricsTest, AFailedReleaseIsCounted) {
  Metrics registry;
  QuotaMetrics metrics(registry);
  ReleaseFails quota;
  const QuotaReservation reservation{"job-1", "acct_1", "202611", 40};
  quota.fail = false;
  ReleaseOrReport(quota, reservation, {"job_id", "job-1"}, metrics);
  EXPECT_EQ(registry.Render(), "");  // nothing failed: the series is not shown yet
  quota.fail = true;
  ReleaseOrReport(quota, reservation, {"job_id", "job-1"}, metrics);
  EXPECT_EQ(quota.releases, 2);
  EXPECT_EQ(registry.Render(),
            "# HELP dq_quota_release_errors_total Quota reservations of failed work that could "
            "not be given back\n"
            "# TYPE dq_quota_release_errors_total counter\n"
            "dq_quota_release_errors_total 1\n");
}

}  // namespace
}  // namespace dq::gateway
