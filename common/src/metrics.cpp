#include "dq/common/metrics.h"

#include <cstdio>

namespace dq {

HistogramMetric::HistogramMetric(std::vector<double> bounds)
    : bounds_(std::move(bounds)),
      buckets_(std::make_unique<std::atomic<uint64_t>[]>(bounds_.size() + 1)) {}

void HistogramMetric::Observe(double v) {
  size_t i = 0;
  while (i < bounds_.size() && v > bounds_[i]) ++i;
  buckets_[i].fetch_add(1, std::memory_order_relaxed);
  count_.fetch_add(1, std::memory_order_relaxed);
  sum_micros_.fetch_add(static_cast<uint64_t>(v * 1e6), std::memory_order_relaxed);
}

void HistogramMetric::Render(const std::string& name, const std::string& labels,
                             std::string& out) const {
  const std::string sep = labels.empty() ? "" : ",";
  uint64_t cumulative = 0;
  char buf[64];
  for (size_t i = 0; i <= bounds_.size(); ++i) {
    cumulative += buckets_[i].load(std::memory_order_relaxed);
    if (i < bounds_.size()) {
      std::snprintf(buf, sizeof buf, "%g", bounds_[i]);
    } else {
      std::snprintf(buf, sizeof buf, "+Inf");
    }
    out += name + "_bucket{" + labels + sep + "le=\"" + buf + "\"} " +
           std::to_string(cumulative) + "\n";
  }
  std::snprintf(buf, sizeof buf, "%.6f",
                static_cast<double>(sum_micros_.load(std::memory_order_relaxed)) / 1e6);
  const std::string braces = labels.empty() ? "" : "{" + labels + "}";
  out += name + "_sum" + braces + " " + buf + "\n";
  out += name + "_count" + braces + " " + std::to_string(count_.load()) + "\n";
}

Metrics& Metrics::Global() {
  static Metrics* metrics = new Metrics();  // never destroyed: used until the process exits
  return *metrics;
}

CounterMetric& Metrics::Counter(const std::string& name, const std::string& help,
                                const std::string& labels) {
  std::lock_guard lock(mu_);
  Family& f = families_[name];
  f.help = help;
  f.type = "counter";
  auto& slot = f.counters[labels];
  if (!slot) slot = std::make_unique<CounterMetric>();
  return *slot;
}

GaugeMetric& Metrics::Gauge(const std::string& name, const std::string& help,
                            const std::string& labels) {
  std::lock_guard lock(mu_);
  Family& f = families_[name];
  f.help = help;
  f.type = "gauge";
  auto& slot = f.gauges[labels];
  if (!slot) slot = std::make_unique<GaugeMetric>();
  return *slot;
}

HistogramMetric& Metrics::Histogram(const std::string& name, const std::string& help,
                                    const std::string& labels) {
  std::lock_guard lock(mu_);
  Family& f = families_[name];
  f.help = help;
  f.type = "histogram";
  auto& slot = f.histograms[labels];
  if (!slot) {
    slot = std::make_unique<HistogramMetric>(
        std::vector<double>{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1,
                            2.5, 5, 10});
  }
  return *slot;
}

std::string FormatLabels(const std::vector<std::string>& names,
                         std::initializer_list<std::string_view> values) {
  std::string out;
  auto value = values.begin();
  for (const std::string& name : names) {
    if (!out.empty()) out += ',';
    out += name;
    out += "=\"";
    if (value != values.end()) {
      for (char c : *value) {
        if (c == '\\') {
          out += "\\\\";
        } else if (c == '"') {
          out += "\\\"";
        } else if (c == '\n') {
          out += "\\n";
        } else {
          out += c;
        }
      }
      ++value;
    }
    out += '"';
  }
  return out;
}

std::string Metrics::Render() const {
  std::lock_guard lock(mu_);
  std::string out;
  for (const auto& [name, f] : families_) {
    out += "# HELP " + name + " " + f.help + "\n# TYPE " + name + " " + f.type + "\n";
    for (const auto& [labels, c] : f.counters) {
      out += name + (labels.empty() ? "" : "{" + labels + "}") + " " +
             std::to_string(c->value()) + "\n";
    }
    for (const auto& [labels, g] : f.gauges) {
      out += name + (labels.empty() ? "" : "{" + labels + "}") + " " +
             std::to_string(g->value()) + "\n";
    }
    for (const auto& [labels, h] : f.histograms) h->Render(name, labels, out);
  }
  return out;
}

}  // namespace dq
