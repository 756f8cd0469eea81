// Phone numbers with libphonenumber's verdicts at engine speed. Each number goes first to
// phone_fast_path (libphonenumber's parsing and validity rules replayed on RE2, ~1 µs), which
// answers only when it is certain to agree with libphonenumber; everything else (extensions,
// letters, unusual punctuation, ...) goes to libphonenumber itself (~30 µs, ICU regexps), whose
// results are cached per session because such inputs repeat in customer files.
//
// Not thread-safe (one PhoneChecker per Session). The fast path's tables and libphonenumber's
// PhoneNumberUtil singleton are themselves thread-safe for these calls.
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

  bool operator==(const PhoneVerdict&) const = default;
};

// libphonenumber alone: Parse(number, region), IsValidNumber, Format(E164). The reference the
// fast path is held to (tests, bench/phone_agreement).
PhoneVerdict CheckWithLibphonenumber(std::string_view number, std::string_view region);

class PhoneChecker {
 public:
  // At most max_entries libphonenumber results are kept; when full, the cache starts over
  // (bounded memory). Fast-path answers are not cached: recomputing one costs about what a
  // lookup does.
  explicit PhoneChecker(size_t max_entries = 1 << 16) : max_entries_(max_entries) {}

  // `number` as written; `region` an ISO 3166-1 alpha-2 code or "ZZ" (unknown: only numbers
  // written with a leading + or international prefix can then be parsed). Same verdict as
  // CheckWithLibphonenumber. The reference is valid until the next call.
  const PhoneVerdict& Check(std::string_view number, std::string_view region);

  size_t cached() const { return cache_.size(); }
  uint64_t fast_checks() const { return fast_; }  // answered by the fast path
  uint64_t slow_checks() const { return slow_; }  // libphonenumber called (cache misses)

 private:
  size_t max_entries_;
  PhoneVerdict last_;  // the fast path's answer
  std::string key_;    // reused: region + number
  std::unordered_map<std::string, PhoneVerdict> cache_;
  uint64_t fast_ = 0;
  uint64_t slow_ = 0;
};

// True when `number` is written internationally: a leading '+' followed only by digits and the
// separators space, '-', '.', '(' and ')'. Such a number needs no country to be understood, so
// rewriting it to E.164 would change nothing but its punctuation.
bool IsWrittenInternationally(std::string_view number);

}  // namespace dq::validator
