// The notifier app's own series: declared once, with the names and help of /metrics.
#include "notifier_metrics.h"

#include <gtest/gtest.h>

namespace dq::notifier {
namespace {

TEST(NotifierMetricsTest, DeclaresTheAppsSeries) {
  Metrics registry;
  NotifierMetrics metrics(registry);
  EXPECT_EQ(registry.Render(), "");  // each appears at its first use
  metrics.reclaimed.Inc();
  metrics.set_aside.Inc(2);
  metrics.malformed_events.Inc(3);
  EXPECT_EQ(registry.Render(),
            "# HELP dq_notifier_malformed_events_total Stream entries that were not valid events\n"
            "# TYPE dq_notifier_malformed_events_total counter\n"
            "dq_notifier_malformed_events_total 3\n"
            "# HELP dq_notifier_reclaimed_total Events reclaimed from consumers that died\n"
            "# TYPE dq_notifier_reclaimed_total counter\n"
            "dq_notifier_reclaimed_total 1\n"
            "# HELP dq_notifier_set_aside_total Stream events put on the retry schedule because "
            "their account had a backlog in hand\n"
            "# TYPE dq_notifier_set_aside_total counter\n"
            "dq_notifier_set_aside_total 2\n");
}

}  // namespace
}  // namespace dq::notifier
