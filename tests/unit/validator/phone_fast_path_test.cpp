// The phone fast path (phone_fast_path.h) against libphonenumber: hand-picked cases for each
// parsing step it replays, the shapes it must leave to libphonenumber, hostile input, and a
// fixed-seed sample across every supported region where both must agree on validity and E.164.
#include "phone_fast_path.h"

#include <gtest/gtest.h>

#include <string>

#include "phone.h"
#include "phone_samples.h"

namespace dq::validator {
namespace {

using phone_fast_path::Outcome;

struct FastCase {
  const char* name;
  std::string_view number;
  const char* region;
  Outcome outcome;
  const char* e164;  // when kValid
};

const FastCase kCases[] = {
    // written internationally
    {"plus_us", "+1 650-253-0000", "ZZ", Outcome::kValid, "+16502530000"},
    {"plus_e164", "+442087654321", "US", Outcome::kValid, "+442087654321"},
    {"plus_in_parens", "(+44) 20 8765 4321", "ZZ", Outcome::kValid, "+442087654321"},
    {"plus_dots", "+33.6.12.34.56.78", "", Outcome::kValid, "+33612345678"},
    {"plus_national_prefix_kept_in", "+44 (0)20 8765 4321", "ZZ", Outcome::kValid, "+442087654321"},
    {"plus_too_short", "+1 555", "ZZ", Outcome::kInvalid, ""},
    {"plus_unassigned_range", "+1 555 555 5555", "US", Outcome::kInvalid, ""},
    // national, read with the row's country
    {"national_us", "(650) 253-0000", "US", Outcome::kValid, "+16502530000"},
    {"national_nl_prefix", "0612345678", "NL", Outcome::kValid, "+31612345678"},
    {"national_gb_prefix", "020 8765 4321", "GB", Outcome::kValid, "+442087654321"},
    {"national_de_too_short", "12345", "DE", Outcome::kInvalid, ""},
    {"national_three_digits", "123", "US", Outcome::kInvalid, ""},
    {"national_without_region", "(650) 253-0000", "ZZ", Outcome::kInvalid, ""},
    {"national_unknown_region", "(650) 253-0000", "us", Outcome::kInvalid, ""},
    // the default region's calling code written without '+'
    {"calling_code_without_plus", "1 650 253 0000", "US", Outcome::kValid, "+16502530000"},
    {"calling_code_without_plus_fr", "33 6 12 34 56 78", "FR", Outcome::kValid, "+33612345678"},
    // international prefixes of the default region
    {"idd_00", "0044 20 8765 4321", "DE", Outcome::kValid, "+442087654321"},
    {"idd_011", "011 44 20 8765 4321", "US", Outcome::kValid, "+442087654321"},
    {"idd_then_zero_is_national", "00612345678", "NL", Outcome::kInvalid, ""},
    {"idd_unknown_calling_code", "00 999 1234 5678", "DE", Outcome::kInvalid, ""},
    // national prefix transform rules and carrier codes
    {"ar_mobile_transform", "011 15 2345-6789", "AR", Outcome::kValid, "+5491123456789"},
    {"br_carrier_code", "0 15 11 98765 4321", "BR", Outcome::kValid, "+5511987654321"},
    {"ag_seven_digits_transform", "464 1234", "AG", Outcome::kValid, "+12684641234"},
    // calling codes shared by several regions, non-geographic codes
    {"shared_code_ag", "+1 268 464 1234", "ZZ", Outcome::kValid, "+12684641234"},
    {"shared_code_kz", "+7 701 123 4567", "ZZ", Outcome::kValid, "+77011234567"},
    {"shared_code_gg", "+44 7781 123456", "ZZ", Outcome::kValid, "+447781123456"},
    {"non_geographic_800", "+800 1234 5678", "ZZ", Outcome::kValid, "+80012345678"},
    // left to libphonenumber
    {"extension", "(650) 253-0000 ext. 123", "US", Outcome::kUnsure, ""},
    {"vanity_letters", "1-800-FLOWERS", "US", Outcome::kUnsure, ""},
    {"rfc3966", "tel:+16502530000", "ZZ", Outcome::kUnsure, ""},
    {"tab", "650\t253 0000", "US", Outcome::kUnsure, ""},
    {"slash", "650/253 0000", "US", Outcome::kUnsure, ""},
    {"two_pluses", "++1 650 253 0000", "ZZ", Outcome::kUnsure, ""},
    {"plus_after_digits", "1+650 253 0000", "US", Outcome::kUnsure, ""},
    {"plus_zero_retry", "+0044 20 8765 4321", "DE", Outcome::kUnsure, ""},
    {"plus_unknown_code_retry", "+999 1234 5678", "DE", Outcome::kUnsure, ""},
    {"two_digits", "12", "US", Outcome::kUnsure, ""},
    {"empty", "", "US", Outcome::kUnsure, ""},
    {"no_break_space",
     "+44\xC2\xA0"
     "20 8765 4321",
     "ZZ", Outcome::kUnsure, ""},
    {"nul_byte", std::string_view("+1 650\0 253 0000", 16), "US", Outcome::kUnsure, ""},
};

class PhoneFastPathCase : public ::testing::TestWithParam<FastCase> {};

TEST_P(PhoneFastPathCase, AnswersLikeLibphonenumber) {
  const FastCase& c = GetParam();
  std::string e164;
  const Outcome got = phone_fast_path::Check(c.number, c.region, &e164);
  EXPECT_EQ(static_cast<int>(got), static_cast<int>(c.outcome));
  if (c.outcome == Outcome::kValid) {
    EXPECT_EQ(e164, c.e164);
  }
  // The expectation itself is libphonenumber's, checked here rather than trusted.
  const PhoneVerdict ref = CheckWithLibphonenumber(c.number, c.region);
  if (c.outcome != Outcome::kUnsure) {
    EXPECT_EQ(ref.valid, c.outcome == Outcome::kValid);
    EXPECT_EQ(ref.e164, c.e164);
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, PhoneFastPathCase, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(PhoneFastPath, HostileInputIsLeftAloneOrJudged) {
  std::string e164;
  const std::string long_digits(5000, '7');
  EXPECT_EQ(phone_fast_path::Check(long_digits, "US", &e164), Outcome::kUnsure);
  const std::string digits_25(25, '1');
  EXPECT_EQ(phone_fast_path::Check(digits_25, "US", &e164), Outcome::kUnsure);
  const std::string separators(60, '-');
  EXPECT_EQ(phone_fast_path::Check(separators, "US", &e164), Outcome::kUnsure);
  for (int b = 0; b < 256; ++b) {  // every byte after a valid number
    const std::string s = std::string("+16502530000") + static_cast<char>(b);
    const Outcome o = phone_fast_path::Check(s, "US", &e164);
    if (o == Outcome::kUnsure) continue;
    const PhoneVerdict ref = CheckWithLibphonenumber(s, "US");
    EXPECT_EQ(ref.valid, o == Outcome::kValid) << "byte " << b;
  }
  // 17 digits after a calling code: the longest national number libphonenumber accepts.
  EXPECT_EQ(phone_fast_path::Check("+49 12345678901234567", "DE", &e164), Outcome::kInvalid);
}

// The CI-size agreement run (bench/phone_agreement does 1,000,000): every supported region and
// non-geographic calling code, valid and invalid numbers, many ways of writing them.
TEST(PhoneFastPath, AgreesWithLibphonenumberOnAFixedSample) {
  tools::PhoneSampler sampler(20261123);
  const uint64_t n = 40 * sampler.target_count();  // ~10,000 numbers
  const tools::AgreementResult r = tools::CompareWithLibphonenumber(n, 20261123);
  for (const std::string& e : r.examples) ADD_FAILURE() << e;
  EXPECT_EQ(r.disagreements, 0u);
  EXPECT_EQ(r.samples, n);
  EXPECT_GT(sampler.region_count(), 240u);  // 245 in libphonenumber 8.12.57
  EXPECT_GT(sampler.non_geo_count(), 5u);
  // The sample is not all fallbacks: the fast path answered most of it, valid and invalid.
  EXPECT_GT(r.fast, n * 3 / 4);
  EXPECT_GT(r.fast_valid, n / 4);
  EXPECT_GT(r.fast - r.fast_valid, n / 10);
}

TEST(PhoneCheckerTest, FastPathAnswersAreNotCached) {
  PhoneChecker checker;
  EXPECT_EQ(checker.Check("+1 650-253-0000", "ZZ").e164, "+16502530000");
  EXPECT_FALSE(checker.Check("+1 555", "ZZ").valid);
  EXPECT_EQ(checker.fast_checks(), 2u);
  EXPECT_EQ(checker.slow_checks(), 0u);
  EXPECT_EQ(checker.cached(), 0u);
}

TEST(PhoneCheckerTest, LibphonenumberAnswersAreCachedAndBounded) {
  PhoneChecker checker(/*max_entries=*/2);
  const PhoneVerdict& v = checker.Check("(650) 253-0000 ext. 123", "US");
  EXPECT_TRUE(v.valid);
  EXPECT_TRUE(v.has_extension);
  EXPECT_EQ(v.e164, "+16502530000");
  checker.Check("(650) 253-0000 ext. 123", "US");
  EXPECT_EQ(checker.slow_checks(), 1u);
  checker.Check("+44 20 8765 4321 x 1", "ZZ");
  checker.Check("tel:+31612345678", "ZZ");  // full: starts over
  EXPECT_LE(checker.cached(), 2u);
  EXPECT_EQ(checker.Check("tel:+31612345678", "ZZ").e164, "+31612345678");
  EXPECT_EQ(checker.slow_checks(), 3u);
}

}  // namespace
}  // namespace dq::validator
