// Metric families and lazy series: what a component's metrics struct is built from.
#include "dq/common/metrics.h"

#include <gtest/gtest.h>

namespace dq {
namespace {

TEST(FormatLabelsTest, PairsNamesWithValuesInOrder) {
  EXPECT_EQ(FormatLabels({"method", "route"}, {"GET", "/v1/jobs/{id}"}),
            "method=\"GET\",route=\"/v1/jobs/{id}\"");
  EXPECT_EQ(FormatLabels({"code"}, {"200"}), "code=\"200\"");
  EXPECT_EQ(FormatLabels({}, {}), "");
  EXPECT_EQ(FormatLabels({"a", "b"}, {"1"}), "a=\"1\",b=\"\"");  // a missing value is empty
}

TEST(FormatLabelsTest, EscapesAsTheExpositionFormatAsks) {
  EXPECT_EQ(FormatLabels({"v"}, {"a\\b\"c\nd"}), "v=\"a\\\\b\\\"c\\nd\"");
}

TEST(MetricFamilyTest, EachValueSetIsOneSeriesRegisteredAtItsFirstUse) {
  Metrics registry;
  CounterFamily requests(registry, "x_total", "Things", {"kind"});
  EXPECT_EQ(registry.Render(), "");
  requests.With({"b"}).Inc();
  requests.With({"a"}).Inc(2);
  requests.With({"b"}).Inc();
  EXPECT_EQ(&requests.With({"a"}), &registry.Counter("x_total", "Things", "kind=\"a\""));
  EXPECT_EQ(registry.Render(),
            "# HELP x_total Things\n"
            "# TYPE x_total counter\n"
            "x_total{kind=\"a\"} 2\n"
            "x_total{kind=\"b\"} 2\n");
}

TEST(LazyGaugeTest, RegisteredAtItsFirstUse) {
  Metrics registry;
  LazyGauge open(registry, "open", "Open things");
  EXPECT_EQ(registry.Render(), "");
  open.Add(2);
  open.Add(-1);
  EXPECT_EQ(registry.Render(), "# HELP open Open things\n# TYPE open gauge\nopen 1\n");
  open.Set(7);
  EXPECT_EQ(open.Get().value(), 7);
}

}  // namespace
}  // namespace dq
