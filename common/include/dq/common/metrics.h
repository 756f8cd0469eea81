// Prometheus metrics: counters and histograms, rendered in the text exposition format 0.0.4.
//
//   static auto& requests = Metrics::Global().Counter("dq_http_requests_total", "HTTP requests");
//   Metrics::Global().Counter("dq_http_requests_total", "...", "code=\"200\"").Inc();
//
// Thread-safe. Looking a metric up takes a mutex; updating one is lock-free.
//
// A component declares its series once, as members of a struct built from a registry and handed
// to its logic (JobRunnerMetrics, webhook::DispatcherMetrics): the logic never builds a name.
// Members are LazyCounter / LazyHistogram, so that a series appears on /metrics at its first use,
// as it did when each was looked up where it was counted.
#pragma once

#include <atomic>
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

}  // namespace dq
