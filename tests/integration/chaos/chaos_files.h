// The chaos tests' files (chaos_test.cpp, artifact_chaos_test.cpp): the same 30 deterministic
// CSV files, so that every run compares like with like.
#pragma once

#include <cstdint>
#include <random>
#include <string>

namespace dq::testing {

// File i: deterministic, with errors, warnings and fixes (padded text, bad prices, a bad GTIN,
// missing SKUs, lower-case currencies). Sizes from 1 row to 60000 (several upload chunks,
// validator chunks and cleaned pieces).
inline std::string MakeFile(int i, int64_t* rows) {
  static const int kSizes[] = {1, 7, 40, 150, 600, 20000, 60000, 90, 3, 5000};
  const int n = kSizes[i % 10] + i;
  std::mt19937 rng(static_cast<uint32_t>(1000 + i));
  std::string csv = "sku,title,price,currency,gtin\n";
  for (int r = 0; r < n; ++r) {
    const uint32_t k = rng() % 10;
    const uint32_t price = 1 + rng() % 400;
    if (k != 0) csv.append("F").append(std::to_string(i)).append("-").append(std::to_string(r));
    if (k == 1) {
      csv.append(",  Mug  ");
    } else {
      csv.append(",Mug ").append(std::to_string(r % 13));
    }
    if (k == 2) {
      csv.append(",abc");
    } else {
      csv.append(",").append(std::to_string(price)).append(".99");
    }
    csv.append(k == 3 ? ",eur" : ",EUR");
    csv.append(k == 4 ? ",4006381333932\n" : ",4006381333931\n");
  }
  *rows = n;
  return csv;
}

}  // namespace dq::testing
