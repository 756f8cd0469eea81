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

// Type-7 quantile of unsorted values in linear time: places the lo-th smallest with
// nth_element; the next one up is the minimum of the part above it.
double SelectQuantile(std::span<double> v, double p) {
  const double h = static_cast<double>(v.size() - 1) * p;
  const auto lo = static_cast<size_t>(std::floor(h));
  std::nth_element(v.begin(), v.begin() + static_cast<ptrdiff_t>(lo), v.end());
  const double x_lo = v[lo];
  if (lo + 1 >= v.size()) return x_lo;
  const double x_hi = *std::min_element(v.begin() + static_cast<ptrdiff_t>(lo) + 1, v.end());
  return x_lo + (h - static_cast<double>(lo)) * (x_hi - x_lo);
}

}  // namespace

Fences TukeyFences(std::span<double> values) {
  Fences f;
  f.q1 = SelectQuantile(values, 0.25);
  f.q3 = SelectQuantile(values, 0.75);
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

void PriceOutliers::Find(const std::function<void(const Outlier&)>& emit) const {
  if (samples_.size() < kMinSamples) return;
  // Per-category fences first (count, then gather values category by category).
  std::vector<uint32_t> counts(names_.size(), 0);
  for (const Sample& s : samples_) {
    if (s.category != kNoCategory) ++counts[s.category];
  }
  std::vector<double> values;
  values.reserve(samples_.size());
  for (const Sample& s : samples_) values.push_back(s.price);
  const Fences batch = TukeyFences(values);

  std::vector<Fences> per_category(names_.size());
  std::vector<bool> has_fences(names_.size(), false);
  {
    // Bucket the prices by category with one counting pass (no per-category vectors).
    std::vector<size_t> offset(names_.size() + 1, 0);
    for (size_t c = 0; c < names_.size(); ++c) offset[c + 1] = offset[c] + counts[c];
    std::vector<double> bucketed(offset.back());
    std::vector<size_t> next(offset.begin(), offset.end() - 1);
    for (const Sample& s : samples_) {
      if (s.category != kNoCategory) bucketed[next[s.category]++] = s.price;
    }
    for (size_t c = 0; c < names_.size(); ++c) {
      if (counts[c] < kMinSamples) continue;
      per_category[c] = TukeyFences(std::span<double>(bucketed).subspan(offset[c], counts[c]));
      has_fences[c] = true;
    }
  }
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
