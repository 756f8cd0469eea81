// Random phone numbers across every region and non-geographic calling code libphonenumber
// supports, written the ways customer files write them (E.164, international, national with
// and without the national prefix, 00/011 prefixes, the calling code without '+', random
// punctuation) plus invalid and odd shapes (changed digits, wrong lengths, the wrong default
// region, extensions, letters), and a comparison of the engine's phone fast path with
// libphonenumber on them. Used by the CI agreement test (tests/unit/validator/
// phone_fast_path_test.cpp) and the benchmark-size run (bench/phone_agreement.cpp).
//
// Deterministic for a given seed (std::mt19937_64, libphonenumber's example numbers).
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace dq::validator::tools {

struct PhoneSample {
  std::string number;  // as written in the file
  std::string region;  // the row's country (default region), possibly wrong, "ZZ" or empty
};

class PhoneSampler {
 public:
  explicit PhoneSampler(uint64_t seed);

  // Cycles through the targets (each region, then each non-geographic calling code) so that
  // any n >= target_count() samples cover every one of them.
  PhoneSample Next();

  size_t target_count() const { return targets_.size(); }
  size_t region_count() const;   // geographic regions among the targets
  size_t non_geo_count() const;  // non-geographic calling codes among the targets

 private:
  struct Target {
    std::string region;  // "001" for a non-geographic calling code
    int country_code = 0;
    std::vector<std::string> examples;  // national significant numbers
  };
  std::string Digits(size_t n);
  std::string Punctuate(const std::string& digits);
  std::string Nsn(const Target& t);

  std::mt19937_64 rng_;
  std::vector<Target> targets_;
  std::vector<std::string> regions_;
  size_t next_ = 0;
};

struct AgreementResult {
  uint64_t samples = 0;
  uint64_t fast = 0;        // answered by the fast path
  uint64_t fast_valid = 0;  // of which valid
  uint64_t ref_valid = 0;   // valid according to libphonenumber
  uint64_t disagreements = 0;
  std::vector<std::string> examples;  // the first disagreements, described
};

// Draws `count` samples and compares phone_fast_path::Check with CheckWithLibphonenumber on
// each one the fast path answers: validity and E.164 must both match.
AgreementResult CompareWithLibphonenumber(uint64_t count, uint64_t seed);

}  // namespace dq::validator::tools
