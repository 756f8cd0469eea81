// Phone numbers through libphonenumber, with a per-session cache: parsing costs ~30 µs, and
// customer files repeat numbers (households, shared switchboards, test numbers).
//
// Not thread-safe (one PhoneChecker per Session). libphonenumber's PhoneNumberUtil singleton is
// itself thread-safe for these calls.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

namespace dq::validator {

struct PhoneVerdict {
  bool valid = false;
  bool has_extension = false;  // E.164 cannot carry an extension: never rewrite these
  std::string e164;            // set when valid
};

class PhoneChecker {
 public:
  // At most max_entries results are kept; when full, the cache starts over (bounded memory).
  explicit PhoneChecker(size_t max_entries = 1 << 16) : max_entries_(max_entries) {}

  // `number` as written; `region` an ISO 3166-1 alpha-2 code or "ZZ" (unknown: only numbers
  // written with a leading + or international prefix can then be parsed). The reference is
  // valid until the next call.
  const PhoneVerdict& Check(std::string_view number, std::string_view region);

  size_t cached() const { return cache_.size(); }
  uint64_t misses() const { return misses_; }

 private:
  size_t max_entries_;
  std::string key_;  // reused: region + number
  std::unordered_map<std::string, PhoneVerdict> cache_;
  uint64_t misses_ = 0;
};

// True when `number` is written internationally: a leading '+' followed only by digits and the
// separators space, '-', '.', '(' and ')'. Such a number needs no country to be understood, so
// rewriting it to E.164 would change nothing but its punctuation.
bool IsWrittenInternationally(std::string_view number);

}  // namespace dq::validator
