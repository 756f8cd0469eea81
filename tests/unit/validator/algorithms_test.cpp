// Known-answer vectors for the pure algorithms: GS1 check digits, UPC-E, ISBN, dates, e-mail
// syntax and the type-7 quartiles behind the price outliers.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include <vector>

#include "batch_state.h"
#include "email.h"
#include "gtin.h"
#include "iso_date.h"
#include "price_outliers.h"
#include "text.h"

namespace dq::validator {
namespace {

TEST(Gs1, KnownVectors) {
  EXPECT_TRUE(gtin::Gs1Valid("4006381333931"));
  EXPECT_FALSE(gtin::Gs1Valid("4006381333932"));
  EXPECT_TRUE(gtin::Gs1Valid("036000291452"));
  EXPECT_TRUE(gtin::Gs1Valid("73513537"));
  EXPECT_TRUE(gtin::Gs1Valid("10614141000415"));
  EXPECT_TRUE(gtin::Gs1Valid("9780306406157"));
  EXPECT_TRUE(gtin::Gs1Valid("2001234567893"));
  EXPECT_EQ(gtin::Gs1CheckDigit("400638133393"), 1);
}

TEST(UpcE, ExpandsPerTheLastDigitRule) {
  EXPECT_EQ(gtin::ExpandUpcE("01234565"), "012345000065");
  EXPECT_EQ(gtin::ExpandUpcE("04252614"), "042100005264");
  EXPECT_EQ(gtin::ExpandUpcE("01801624"), "018200000164");
  EXPECT_TRUE(gtin::Gs1Valid(*gtin::ExpandUpcE("04252614")));
  EXPECT_FALSE(gtin::ExpandUpcE("24252614").has_value());  // number system 2
  EXPECT_FALSE(gtin::ExpandUpcE("0425261").has_value());
}

TEST(Isbn, TenAndThirteen) {
  EXPECT_TRUE(gtin::Isbn10Valid("0306406152"));
  EXPECT_TRUE(gtin::Isbn10Valid("080442957X"));
  EXPECT_TRUE(gtin::Isbn10Valid("1857982185"));
  EXPECT_FALSE(gtin::Isbn10Valid("0306406153"));
  EXPECT_EQ(gtin::Isbn10To13("0306406152"), "9780306406157");
  EXPECT_EQ(gtin::Isbn10To13("1857982185"), "9781857982183");
}

TEST(GtinPrefix, JudgedOnTheThirteenDigitForm) {
  using P = gtin::Prefix;
  EXPECT_EQ(gtin::ClassifyPrefix("2001234567893"), P::kRestricted);
  EXPECT_EQ(gtin::ClassifyPrefix("0212345678901"), P::kRestricted);
  EXPECT_EQ(gtin::ClassifyPrefix("0412345678901"), P::kRestricted);
  EXPECT_EQ(gtin::ClassifyPrefix("212345678909"), P::kRestricted);    // 12 digits: 0212...
  EXPECT_EQ(gtin::ClassifyPrefix("12001234567893"), P::kRestricted);  // indicator dropped
  EXPECT_EQ(gtin::ClassifyPrefix("0512345678900"), P::kCoupon);
  EXPECT_EQ(gtin::ClassifyPrefix("9812345678902"), P::kCoupon);
  EXPECT_EQ(gtin::ClassifyPrefix("9912345678909"), P::kCoupon);
  EXPECT_EQ(gtin::ClassifyPrefix("9780306406157"), P::kIsbn);
  EXPECT_EQ(gtin::ClassifyPrefix("036000291452"), P::kNormal);
  EXPECT_EQ(gtin::ClassifyPrefix("10614141000415"), P::kNormal);
  EXPECT_EQ(gtin::ClassifyPrefix("73513537"), P::kNormal);
  EXPECT_EQ(gtin::ClassifyPrefix("20000004"), P::kRestricted);
}

TEST(GtinScientific, SpreadsheetForms) {
  EXPECT_TRUE(gtin::LooksScientific("4.00638E+12"));
  EXPECT_TRUE(gtin::LooksScientific("4,00638E+12"));
  EXPECT_TRUE(gtin::LooksScientific("4E12"));
  EXPECT_FALSE(gtin::LooksScientific("4006381333931"));
  EXPECT_FALSE(gtin::LooksScientific("E12"));
  EXPECT_FALSE(gtin::LooksScientific("4.0E"));
}

// The duplicate-key table through many doublings, into a huge-page block (past 2 MiB of slots):
// every key keeps the row that used it first, whatever the growth moved.
TEST(FirstSeen, KeepsTheFirstRowOfEveryKeyThroughGrowth) {
  FirstSeen seen;
  constexpr uint64_t kKeys = 300'000;  // 2^20 slots of 16 bytes at the end: 16 MiB
  for (uint64_t k = 0; k < kKeys; ++k) {
    ASSERT_FALSE(seen.InsertHash(k * 0x9E3779B97F4A7C15ull, k + 1).has_value()) << k;
  }
  EXPECT_EQ(seen.size(), kKeys);
  for (uint64_t k = 0; k < kKeys; k += 997) {
    auto first = seen.InsertHash(k * 0x9E3779B97F4A7C15ull, kKeys + 1 + k);
    ASSERT_TRUE(first.has_value()) << k;
    EXPECT_EQ(*first, k + 1);
  }
  EXPECT_EQ(seen.size(), kKeys);
  EXPECT_EQ(seen.Insert("SKU-1", 7), std::nullopt);
  EXPECT_EQ(seen.Insert("SKU-1", 9), std::optional<uint64_t>(7));
}

TEST(IsoDate, CalendarArithmetic) {
  EXPECT_EQ(iso_date::DaysFromCivil(1970, 1, 1), 0);
  EXPECT_EQ(iso_date::DaysFromCivil(2000, 3, 1), 11017);
  EXPECT_TRUE(iso_date::IsValidDate(2000, 2, 29));
  EXPECT_FALSE(iso_date::IsValidDate(1900, 2, 29));
  EXPECT_FALSE(iso_date::IsValidDate(2023, 4, 31));
  int32_t d = 0;
  EXPECT_EQ(iso_date::ParseDate("2027-05", &d), iso_date::Parse::kOk);
  EXPECT_EQ(d, iso_date::DaysFromCivil(2027, 5, 31));
  EXPECT_EQ(iso_date::ParseDate("2027-5-1", &d), iso_date::Parse::kBadFormat);
  EXPECT_EQ(iso_date::ParseDate("0999-01-01", &d), iso_date::Parse::kImpossible);
}

TEST(Email, Verdicts) {
  EXPECT_EQ(email::Check("a@example.com").verdict, email::Verdict::kValid);
  EXPECT_EQ(email::Check("a@example.com.").verdict, email::Verdict::kInvalid);
  EXPECT_EQ(email::Check("a@sub.onion").verdict, email::Verdict::kSpecialUse);
  EXPECT_EQ(email::Check("a b@example.com").verdict, email::Verdict::kInvalid);
  EXPECT_EQ(email::Check("a@exa_mple.com").verdict, email::Verdict::kInvalid);
  EXPECT_EQ(email::Check(std::string(250, 'a') + "@b.co").verdict, email::Verdict::kInvalid);
  EXPECT_EQ(email::Check("john@@example.com").reason,
            "The e-mail address must have exactly one @-sign.");
}

// docs/rules.md §8 worked example: [1..10, 100], type 7 -> Q1 3.5, Q3 8.5, fences -4 / 16.
TEST(Quartiles, WorkedExample) {
  std::vector<double> v = {100, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  const Fences f = TukeyFences(v);
  EXPECT_DOUBLE_EQ(f.q1, 3.5);
  EXPECT_DOUBLE_EQ(f.q3, 8.5);
  EXPECT_DOUBLE_EQ(f.low, -4);
  EXPECT_DOUBLE_EQ(f.high, 16);
}

// TukeyFences selects (Q3 only above Q1's position) instead of sorting: the quartiles must be
// those of the sorted values, for every size and with many ties.
TEST(Quartiles, SelectionGivesTheQuartilesOfTheSortedValues) {
  std::mt19937_64 rng(42);
  std::vector<size_t> sizes;
  for (size_t n = 1; n <= 300; ++n) sizes.push_back(n);
  sizes.insert(sizes.end(), {1000, 4097, 100000});
  for (size_t n : sizes) {
    for (uint64_t spread : {3u, 1000u}) {  // few distinct values (ties), and many
      std::vector<double> v(n);
      for (double& x : v) x = static_cast<double>(rng() % spread) / 4;
      std::vector<double> sorted = v;
      std::sort(sorted.begin(), sorted.end());
      const Fences f = TukeyFences(v);
      ASSERT_EQ(f.q1, QuantileType7(sorted, 0.25)) << n;
      ASSERT_EQ(f.q3, QuantileType7(sorted, 0.75)) << n;
      std::sort(v.begin(), v.end());
      ASSERT_EQ(v, sorted) << n;  // reordered, nothing lost
    }
  }
}

TEST(Quartiles, LinearInterpolation) {
  const std::vector<double> v = {1, 2, 3, 4};
  EXPECT_DOUBLE_EQ(QuantileType7(v, 0.25), 1.75);
  EXPECT_DOUBLE_EQ(QuantileType7(v, 0.5), 2.5);
  EXPECT_DOUBLE_EQ(QuantileType7(v, 0.75), 3.25);
  const std::vector<double> one = {7};
  EXPECT_DOUBLE_EQ(QuantileType7(one, 0.75), 7);
}

// IsValidUtf8 reads ASCII a word at a time: a bad or multi-byte sequence anywhere in or across
// the 8-byte windows must be judged as a byte-at-a-time reader would.
TEST(Utf8, ValidityDoesNotDependOnWhereASequenceFalls) {
  const std::string ascii = "abcdefghijklmnopqrstuvwxyz0123456789";
  const std::pair<std::string, bool> pieces[] = {
      {"\xC3\xA9", true},           {"\xE2\x82\xAC", true},     {"\xF0\x9F\x98\x80", true},
      {"\xC3", false},               {"\xE9", false},              {"\xC0\xAF", false},
      {"\xED\xA0\x80", false},      {"\xF4\x90\x80\x80", false}, {"\x80", false}};
  for (const auto& [piece, valid] : pieces) {
    for (size_t at = 0; at <= 17; ++at) {
      const std::string s = ascii.substr(0, at) + piece + ascii.substr(at);
      EXPECT_EQ(text::IsValidUtf8(s), valid) << "at " << at;
      EXPECT_EQ(text::IsValidUtf8(s.substr(0, at + piece.size())), valid) << "at the end, " << at;
    }
  }
  EXPECT_TRUE(text::IsValidUtf8(""));
  EXPECT_TRUE(text::IsValidUtf8(ascii));
}

}  // namespace
}  // namespace dq::validator
