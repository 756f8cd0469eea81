// Batch-level price outliers by Tukey fences (docs/rules.md §8): a price is an outlier when
// it lies outside [Q1 - 1.5·IQR, Q3 + 1.5·IQR], with quartiles by linear interpolation
// (Hyndman & Fan type 7, numpy's and R's default). Fences are computed per category when the
// category has at least kMinSamples priced rows, else over the whole batch (which needs
// kMinSamples too; below that nothing is judged: quartiles of a handful of values are noise).
//
// Memory: 24 bytes per priced row plus one entry per distinct category (at most
// kMaxCategories; rows of later categories are judged against the batch). No row text is kept.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "worker_pool.h"

namespace dq::validator {

struct Fences {
  double q1 = 0, q3 = 0, low = 0, high = 0;
};

// Type-7 quantile p (0..1) of sorted values (non-empty).
double QuantileType7(std::span<const double> sorted, double p);
// Tukey fences (k = 1.5) of the values (non-empty; reordered in place). Linear time.
Fences TukeyFences(std::span<double> values);

class PriceOutliers {
 public:
  // With fewer values, quartiles are too unstable: on clean, uniformly spread prices Tukey
  // fences flag at least one value in 13% of 8-row samples, 2.6% at 20 rows, 0.7% at 30 and
  // 0.05% at 50 (simulated, 4,000 samples each).
  static constexpr size_t kMinSamples = 30;
  static constexpr size_t kMaxCategories = 10000;

  // category empty: none (judged against the batch).
  void Add(uint64_t row, double price, uint8_t decimals, std::string_view category) {
    Add(row, price, decimals, category, CategoryHash(category));
  }
  // The same with category_hash = CategoryHash(category), computed beforehand (on the thread
  // that evaluated the row): a file has few categories, so most calls then find the category
  // in a small cache by hash and one comparison, without hashing or probing the map.
  void Add(uint64_t row, double price, uint8_t decimals, std::string_view category,
           uint64_t category_hash);
  static uint64_t CategoryHash(std::string_view category) {
    return std::hash<std::string_view>{}(category);
  }

  struct Outlier {
    uint64_t row;
    double price;
    uint8_t decimals;  // of the price as written, to print it back
    bool high;
    Fences fences;
    std::string_view category;  // empty: judged against the whole batch
  };
  // Calls emit for each outlier, in row order. Valid until the object changes. With a pool and
  // at least kPooledSamples samples, the fences of the batch and of each category are worked out
  // on the pool's threads at once (the same fences, so the same outliers).
  static constexpr size_t kPooledSamples = 100'000;
  void Find(const std::function<void(const Outlier&)>& emit, WorkerPool* pool = nullptr) const;

  size_t size() const { return samples_.size(); }

 private:
  struct Sample {
    double price;
    uint64_t row;
    uint32_t category;  // kNoCategory or an index into names_
    uint8_t decimals;
  };
  static constexpr uint32_t kNoCategory = UINT32_MAX;
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::vector<Sample> samples_;
  std::unordered_map<std::string, uint32_t, Hash, std::equal_to<>> ids_;
  std::vector<std::string_view> names_;  // views into ids_' keys (node-based: stable)
  struct Cached {
    uint64_t hash = 0;
    std::string_view name;  // a view into ids_' keys; empty: unused
    uint32_t id = kNoCategory;
  };
  static constexpr size_t kCacheSize = 64;  // direct-mapped by hash
  Cached cache_[kCacheSize];
};

}  // namespace dq::validator
