// Test helper for table-driven rule tests: one row per case with a readable name, the row's
// values by standard field, and the issues expected ("CODE" or "CODE=fixed value").
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "iso_date.h"
#include "reference_data.h"
#include "session.h"

namespace dq::validator::testing {

// Google's product taxonomy is not in the repository (validator/data/README.md), so the rule
// tests bring an excerpt of their own: the categories they name, with their ancestors, written
// as Google's file writes them. The embedded data otherwise.
inline constexpr std::string_view kTaxonomyExcerpt =
    "# Google_Product_Taxonomy_Version: excerpt for dq's tests\n"
    "166 - Apparel & Accessories\n"
    "1604 - Apparel & Accessories > Clothing\n"
    "212 - Apparel & Accessories > Clothing > Shirts & Tops\n"
    "187 - Apparel & Accessories > Shoes\n"
    "536 - Home & Garden\n"
    "638 - Home & Garden > Kitchen & Dining\n"
    "672 - Home & Garden > Kitchen & Dining > Tableware\n"
    "674 - Home & Garden > Kitchen & Dining > Tableware > Drinkware\n"
    "2169 - Home & Garden > Kitchen & Dining > Tableware > Drinkware > Mugs\n";

inline const ReferenceData& TestReferenceData() {
  static const auto* data = ReferenceData::WithTaxonomy(kTaxonomyExcerpt).release();
  return *data;
}

// The fixed "today" of every rule test: 2026-06-15.
inline int32_t TestToday() { return iso_date::DaysFromCivil(2026, 6, 15); }

// A field's convention in a case: {field, list separator, {{spelling, meaning}, ...}}.
struct CaseConvention {
  std::string field;
  std::string list_separator;
  std::vector<std::pair<std::string, std::string>> aliases;
  bool own_number_format = false;
  std::vector<std::string> file_extensions;
  bool html = false;
  bool may_be_empty = false;
  bool zero_is_empty = false;
};

// What a case sets beyond fields, check types and platform, written in a table as
// Options().Kind(RowKind::kVariant).List("image_url", ",").
struct CaseOptions {
  RowKind kind = RowKind::kProduct;
  std::string weight_unit;
  bool gtin_padding_evidence = false;
  std::vector<CaseConvention> conventions;

  CaseOptions Kind(RowKind k) const {
    CaseOptions o = *this;
    o.kind = k;
    return o;
  }
  CaseOptions WeightUnit(std::string unit) const {
    CaseOptions o = *this;
    o.weight_unit = std::move(unit);
    return o;
  }
  CaseOptions PaddingEvidence() const {
    CaseOptions o = *this;
    o.gtin_padding_evidence = true;
    return o;
  }
  CaseOptions List(std::string field, std::string separator) const {
    CaseOptions o = *this;
    CaseConvention& c = o.conventions.emplace_back();
    c.field = std::move(field);
    c.list_separator = std::move(separator);
    return o;
  }
  CaseOptions Aliases(std::string field,
                      std::vector<std::pair<std::string, std::string>> aliases) const {
    CaseOptions o = *this;
    CaseConvention& c = o.conventions.emplace_back();
    c.field = std::move(field);
    c.aliases = std::move(aliases);
    return o;
  }
  // The source's own number format for field (Magento's qty "99999.0000").
  CaseOptions OwnNumbers(std::string field) const {
    CaseOptions o = *this;
    o.conventions.push_back({std::move(field), "", {}, true, {}});
    return o;
  }
  // Image file names from the import folder with these extensions (and a list separator).
  CaseOptions FileNames(std::string field, std::vector<std::string> extensions,
                        std::string separator = "") const {
    CaseOptions o = *this;
    o.conventions.push_back(
        {std::move(field), std::move(separator), {}, false, std::move(extensions)});
    return o;
  }
  // The source's column for field holds HTML (Shopify's Body (HTML)).
  CaseOptions Html(std::string field) const {
    CaseOptions o = *this;
    o.conventions.push_back({std::move(field), "", {}, false, {}, true});
    return o;
  }
  // An empty value in the source's column for field is the platform's own meaning
  // (WooCommerce's Stock: stock not managed).
  CaseOptions MayBeEmpty(std::string field) const {
    CaseOptions o = *this;
    o.conventions.push_back({std::move(field), "", {}, false, {}, false, true});
    return o;
  }
  // A zero in the source's column for field means no value (Shopify's Variant Grams 0).
  CaseOptions ZeroIsEmpty(std::string field) const {
    CaseOptions o = *this;
    o.conventions.push_back({std::move(field), "", {}, false, {}, false, false, true});
    return o;
  }
};
inline CaseOptions Options() { return CaseOptions(); }

struct RuleCase {
  std::string name;                                      // test name: letters, digits, underscores
  std::string checks;                                    // comma-separated check types
  std::string platform;                                  // "" for none
  std::vector<std::pair<std::string, std::string>> row;  // field, value
  std::vector<std::string> expect;                       // "CODE" or "CODE=fixed"
  CaseOptions options = {};
};

inline std::vector<std::string> Split(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size() && !s.empty()) {
    const size_t comma = s.find(',', start);
    out.push_back(s.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

inline BatchSpec MakeSpec(const std::vector<std::string>& fields, const std::string& checks,
                          const std::string& platform, const CaseOptions& options = {}) {
  auto spec = BatchSpec::Make(fields, Split(checks), platform);
  EXPECT_TRUE(spec.ok()) << spec.status().message();
  BatchSpec s = spec.ok() ? *spec : BatchSpec{};
  s.today = TestToday();
  EXPECT_TRUE(s.SetWeightUnit(options.weight_unit).ok());
  s.gtin_padding_evidence = options.gtin_padding_evidence;
  for (const CaseConvention& c : options.conventions) {
    const Status st = s.AddConvention(c.field, c.list_separator, c.aliases, c.own_number_format,
                                      c.file_extensions);
    EXPECT_TRUE(st.ok()) << st.message();
    if (c.html) s.conventions[static_cast<size_t>(*ParseField(c.field))].html = true;
    if (c.may_be_empty) s.conventions[static_cast<size_t>(*ParseField(c.field))].may_be_empty = true;
    if (c.zero_is_empty) s.zero_is_empty.set(static_cast<size_t>(*ParseField(c.field)));
  }
  return s;
}

inline std::string Describe(const Issue& i) {
  std::string s(Def(i.code).code);
  if (i.fixed) s += "=" + *i.fixed;
  return s;
}

// Runs rows through one session and returns all issues (row-level, then batch-level). kinds:
// one per row, or empty for all products.
inline std::vector<Issue> RunRows(const std::vector<std::string>& fields, const std::string& checks,
                                  const std::string& platform,
                                  const std::vector<std::vector<std::string>>& rows,
                                  Stats* stats = nullptr, const CaseOptions& options = {},
                                  const std::vector<RowKind>& kinds = {}) {
  Session s(TestReferenceData(), MakeSpec(fields, checks, platform, options));
  std::vector<Issue> issues;
  for (size_t r = 0; r < rows.size(); ++r) {
    std::vector<std::string_view> values(rows[r].begin(), rows[r].end());
    s.AddRow(values, issues, kinds.empty() ? options.kind : kinds[r]);
  }
  s.Finish(issues);
  if (stats) *stats = s.stats();
  return issues;
}

// Cases of the product check that do not name sku or price get valid ones (a realistic row:
// the product check's core requires both).
inline std::vector<std::string> RunCase(const RuleCase& c) {
  std::vector<std::string> fields, values;
  for (const auto& [f, v] : c.row) fields.push_back(f), values.push_back(v);
  const bool product = c.checks.empty() || c.checks.find("product") != std::string::npos;
  if (product && std::find(fields.begin(), fields.end(), "sku") == fields.end()) {
    fields.push_back("sku"), values.push_back("SKU-1");
  }
  if (product && std::find(fields.begin(), fields.end(), "price") == fields.end()) {
    fields.push_back("price"), values.push_back("10.00");
  }
  std::vector<std::string> got;
  for (const Issue& i : RunRows(fields, c.checks, c.platform, {values}, nullptr, c.options)) {
    got.push_back(Describe(i));
  }
  std::sort(got.begin(), got.end());
  return got;
}

inline std::string CaseName(const ::testing::TestParamInfo<RuleCase>& info) {
  return info.param.name;
}

#define DQ_RULE_CASES(Suite, cases)                                                     \
  class Suite : public ::testing::TestWithParam<::dq::validator::testing::RuleCase> {}; \
  TEST_P(Suite, Case) {                                                                 \
    std::vector<std::string> want = GetParam().expect;                                  \
    std::sort(want.begin(), want.end());                                                \
    EXPECT_EQ(::dq::validator::testing::RunCase(GetParam()), want);                     \
  }                                                                                     \
  INSTANTIATE_TEST_SUITE_P(Rules, Suite, ::testing::ValuesIn(cases),                    \
                           ::dq::validator::testing::CaseName)

// A row Merchant Center's pack (search_merchant) has nothing else to say about, with `extra`'s
// fields set over it (replaced when the row has them, added when not).
inline std::vector<std::pair<std::string, std::string>> MerchantRow(
    std::vector<std::pair<std::string, std::string>> extra) {
  std::vector<std::pair<std::string, std::string>> row = {
      {"sku", "A1"},
      {"title", "Acme Mug"},
      {"description", "A mug."},
      {"price", "15.00 USD"},
      {"image_url", "https://cdn.acme-mugs.com/1.jpg"},
      {"availability", "in stock"},
      {"brand", "Acme"},
      {"link", "https://acme-mugs.com/p/a1"}};  // required by the Merchant Center pack
  for (auto& [field, value] : extra) {
    auto at = std::find_if(row.begin(), row.end(), [&](const auto& e) { return e.first == field; });
    if (at != row.end()) {
      at->second = std::move(value);
    } else {
      row.emplace_back(std::move(field), std::move(value));
    }
  }
  return row;
}

}  // namespace dq::validator::testing
