#include "price_outliers.h"

#include <algorithm>
#include <cmath>

namespace dq::validator {

double QuantileType7(std::span<const double> sorted, double p) {
  const double h = static_cast<double>(sorted.size() - 1) * p;
  const auto lo = static_cast<size_t>(std::floor(h));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

namespace {

// Type-7 quantile p of v, whose values [0, from) are already the smallest ones (none of them
// above any value from `from` on), and whose quantile lies at or past from: places the lo-th
// smallest with nth_element over [from, end) only; the next one up is the minimum of the part
// above it.
double SelectQuantile(std::span<double> v, size_t from, double p) {
  const double h = static_cast<double>(v.size() - 1) * p;
  const auto lo = static_cast<size_t>(std::floor(h));
  std::nth_element(v.begin() + static_cast<ptrdiff_t>(from), v.begin() + static_cast<ptrdiff_t>(lo),
                   v.end());
  const double x_lo = v[lo];
  if (lo + 1 >= v.size()) return x_lo;
  const double x_hi = *std::min_element(v.begin() + static_cast<ptrdiff_t>(lo) + 1, v.end());
  return x_lo + (h - static_cast<double>(lo)) * (x_hi - x_lo);
}

}  // namespace

Fences TukeyFences(std::span<double> values) {
  Fences f;
  f.q1 = SelectQuantile(values, 0, 0.25);
  // Q1's selection left the lower quarter in front, so Q3's searches only the rest.
  const auto q1_at = static_cast<size_t>(std::floor(static_cast<double>(values.size() - 1) * 0.25));
  f.q3 = SelectQuantile(values, q1_at, 0.75);
  const double iqr = f.q3 - f.q1;
  f.low = f.q1 - 1.5 * iqr;
  f.high = f.q3 + 1.5 * iqr;
  return f;
}

void PriceOutliers::Add(uint64_t row, double price, uint8_t decimals, std::string_view category,
                        uint64_t category_hash) {
  uint32_t id = kNoCategory;
  if (!category.empty()) {
    Cached& c = cache_[category_hash % kCacheSize];
    if (c.hash == category_hash && !c.name.empty() && c.name == category) {
      id = c.id;
    } else if (auto it = ids_.find(category); it != ids_.end()) {
      id = it->second;
      c = {category_hash, it->first, id};
    } else if (ids_.size() < kMaxCategories) {
      id = static_cast<uint32_t>(names_.size());
      auto [ins, _] = ids_.emplace(std::string(category), id);
      names_.push_back(ins->first);
      c = {category_hash, ins->first, id};
    }
  }
  samples_.push_back({price, row, id, decimals});
}

void PriceOutliers::Find(const std::function<void(const Outlier&)>& emit, WorkerPool* pool) const {
  if (samples_.size() < kMinSamples) return;
  std::vector<uint32_t> counts(names_.size(), 0);
  for (const Sample& s : samples_) {
    if (s.category != kNoCategory) ++counts[s.category];
  }
  std::vector<double> values;
  values.reserve(samples_.size());
  for (const Sample& s : samples_) values.push_back(s.price);
  // Bucket the prices by category with one counting pass (no per-category vectors).
  std::vector<size_t> offset(names_.size() + 1, 0);
  for (size_t c = 0; c < names_.size(); ++c) offset[c + 1] = offset[c] + counts[c];
  std::vector<double> bucketed(offset.back());
  {
    std::vector<size_t> next(offset.begin(), offset.end() - 1);
    for (const Sample& s : samples_) {
      if (s.category != kNoCategory) bucketed[next[s.category]++] = s.price;
    }
  }
  // The fences: the batch's, and each category's with enough samples of its own. Independent
  // of one another (each reorders only its own values), so they may run at once.
  std::vector<uint32_t> judged;  // categories with fences of their own
  for (uint32_t c = 0; c < names_.size(); ++c) {
    if (counts[c] >= kMinSamples) judged.push_back(c);
  }
  Fences batch;
  std::vector<Fences> per_category(names_.size());
  std::vector<bool> has_fences(names_.size(), false);
  for (uint32_t c : judged) has_fences[c] = true;
  RunTasks(samples_.size() >= kPooledSamples ? pool : nullptr, judged.size() + 1, [&](size_t t) {
    if (t == 0) {
      batch = TukeyFences(values);
      return;
    }
    const uint32_t c = judged[t - 1];
    per_category[c] = TukeyFences(std::span<double>(bucketed).subspan(offset[c], counts[c]));
  });
  for (const Sample& s : samples_) {
    const bool own = s.category != kNoCategory && has_fences[s.category];
    const Fences& f = own ? per_category[s.category] : batch;
    if (s.price > f.high || s.price < f.low) {
      emit({s.row, s.price, s.decimals, s.price > f.high, f,
            own ? names_[s.category] : std::string_view()});
    }
  }
}

}  // namespace dq::validator
