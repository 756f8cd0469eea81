// Prometheus metrics: counters, gauges and histograms, rendered in the text exposition format
// 0.0.4.
//
//   struct ThingMetrics {  // thing_metrics.h: the component's series, declared once
//     explicit ThingMetrics(Metrics& registry)
//         : done(registry, "dq_things_total", "Things done"),
//           refusals(registry, "dq_thing_refusals_total", "Things refused by code", {"code"}) {}
//     LazyCounter done;
//     CounterFamily refusals;
//   };
//   metrics.done.Inc();                        // in the logic, handed a ThingMetrics&
//   metrics.refusals.With({"404"}).Inc();
//
// Thread-safe. Looking a metric up takes a mutex; updating one is lock-free.
//
// A component declares its series once, as members of a struct built from a registry and handed
// to its logic (JobRunnerMetrics, webhook::DispatcherMetrics, AccessLogMetrics, ...), with a
// Global() over Metrics::Global() as the default: the logic never builds a name. A test builds
// the struct over its own Metrics and reads only its own counts.
// Members are LazyCounter / LazyGauge / LazyHistogram, so that a series appears on /metrics at its
// first use, as it did when each was looked up where it was counted. A family whose label values
// are known only where it is counted (a route, a status code) is a CounterFamily /
// HistogramFamily member: its name, help and label names are declared once, and With(values)
// names the series.
#pragma once

#include <atomic>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <string_view>
#include <string>
#include <vector>

namespace dq {

class CounterMetric {
 public:
  void Inc(uint64_t n = 1) { value_.fetch_add(n, std::memory_order_relaxed); }
  uint64_t value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<uint64_t> value_{0};
};

class GaugeMetric {
 public:
  void Set(int64_t v) { value_.store(v, std::memory_order_relaxed); }
  void Add(int64_t d) { value_.fetch_add(d, std::memory_order_relaxed); }
  int64_t value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<int64_t> value_{0};
};

class HistogramMetric {
 public:
  explicit HistogramMetric(std::vector<double> bounds);
  void Observe(double v);
  // Appends the _bucket, _sum and _count lines.
  void Render(const std::string& name, const std::string& labels, std::string& out) const;

 private:
  std::vector<double> bounds_;
  std::unique_ptr<std::atomic<uint64_t>[]> buckets_;  // one per bound, plus +Inf
  std::atomic<uint64_t> count_{0};
  std::atomic<uint64_t> sum_micros_{0};  // sum kept in millionths to stay integral
};

class Metrics {
 public:
  static Metrics& Global();

  // labels is the inside of the braces, e.g. `route="validate",code="200"`; "" for none.
  CounterMetric& Counter(const std::string& name, const std::string& help,
                         const std::string& labels = "");
  GaugeMetric& Gauge(const std::string& name, const std::string& help,
                     const std::string& labels = "");
  // Latency histogram in seconds with buckets from 0.5 ms to 10 s.
  HistogramMetric& Histogram(const std::string& name, const std::string& help,
                             const std::string& labels = "");

  std::string Render() const;

 private:
  struct Family {
    std::string help;
    std::string type;
    std::map<std::string, std::unique_ptr<CounterMetric>> counters;
    std::map<std::string, std::unique_ptr<GaugeMetric>> gauges;
    std::map<std::string, std::unique_ptr<HistogramMetric>> histograms;
  };
  mutable std::mutex mu_;
  std::map<std::string, Family> families_;
};

// A series of `registry`, registered at its first update (once; then lock-free).
template <typename M, M& (Metrics::*kLookup)(const std::string&, const std::string&,
                                            const std::string&)>
class LazyMetric {
 public:
  LazyMetric(Metrics& registry, std::string name, std::string help, std::string labels = "")
      : registry_(registry),
        name_(std::move(name)),
        help_(std::move(help)),
        labels_(std::move(labels)) {}
  LazyMetric(const LazyMetric&) = delete;
  LazyMetric& operator=(const LazyMetric&) = delete;

  M& Get() {
    std::call_once(once_, [this] { metric_ = &(registry_.*kLookup)(name_, help_, labels_); });
    return *metric_;
  }

 private:
  Metrics& registry_;
  const std::string name_;
  const std::string help_;
  const std::string labels_;
  std::once_flag once_;
  M* metric_ = nullptr;
};

class LazyCounter : public LazyMetric<CounterMetric, &Metrics::Counter> {
 public:
  using LazyMetric::LazyMetric;
  void Inc(uint64_t n = 1) { Get().Inc(n); }
};

class LazyHistogram : public LazyMetric<HistogramMetric, &Metrics::Histogram> {
 public:
  using LazyMetric::LazyMetric;
  void Observe(double v) { Get().Observe(v); }
};

class LazyGauge : public LazyMetric<GaugeMetric, &Metrics::Gauge> {
 public:
  using LazyMetric::LazyMetric;
  void Set(int64_t v) { Get().Set(v); }
  void Add(int64_t d) { Get().Add(d); }
};

// The inside of a series' braces: `name1="value1",name2="value2"`, each value escaped as the
// exposition format asks (backslash, double quote, line feed). names and values pair in order;
// a missing value is empty.
std::string FormatLabels(const std::vector<std::string>& names,
                         std::initializer_list<std::string_view> values);

// A family of `registry` whose label values are given where it is counted. With(values) is the
// series of those values (one per label name, in order), registered at its first use. Looking a
// series up takes the registry's mutex, as Metrics::Counter does.
template <typename M, M& (Metrics::*kLookup)(const std::string&, const std::string&,
                                            const std::string&)>
class MetricFamily {
 public:
  MetricFamily(Metrics& registry, std::string name, std::string help,
               std::vector<std::string> label_names)
      : registry_(registry),
        name_(std::move(name)),
        help_(std::move(help)),
        label_names_(std::move(label_names)) {}
  MetricFamily(const MetricFamily&) = delete;
  MetricFamily& operator=(const MetricFamily&) = delete;

  M& With(std::initializer_list<std::string_view> values) {
    return (registry_.*kLookup)(name_, help_, FormatLabels(label_names_, values));
  }

 private:
  Metrics& registry_;
  const std::string name_;
  const std::string help_;
  const std::vector<std::string> label_names_;
};

using CounterFamily = MetricFamily<CounterMetric, &Metrics::Counter>;
using HistogramFamily = MetricFamily<HistogramMetric, &Metrics::Histogram>;

}  // namespace dq
