// Issue 31: a weight's unit in a column of its own (Shopify Transporter's "Variant Weight Unit",
// generic exports' weight + weight_unit) is the row's unit. It comes before the column's
// (BatchSpec::weight_unit), a row's weight is then never converted to grams (the unit column
// stays as it is, so grams would be read back in it), a channel that wants the unit in the cell
// still gets it, and a unit dq cannot read is reported with the value, not guessed.
#include <string>
#include <vector>

#include "rule_case.h"

namespace dq::validator {
namespace {

using testing::Options;
using testing::RuleCase;
using Row = std::vector<std::pair<std::string, std::string>>;

Row Merchant(Row extra) { return testing::MerchantRow(std::move(extra)); }

const RuleCase kRowUnits[] = {
    // The row's unit is evidence: the weight is judged in it, and not rewritten.
    {"row_lb_judged_not_converted", "shipping", "", {{"weight", "2"}, {"weight_unit", "lb"}}, {}},
    {"row_kg_tiny_is_implausible", "shipping", "", {{"weight", "0.0001"}, {"weight_unit", "kg"}},
     {"IMPLAUSIBLE_WEIGHT"}},
    {"row_g_tiny_is_implausible", "shipping", "", {{"weight", "0.5"}, {"weight_unit", "g"}},
     {"IMPLAUSIBLE_WEIGHT"}},
    {"row_kg_tonnes_is_implausible", "shipping", "", {{"weight", "5000"}, {"weight_unit", "kg"}},
     {"IMPLAUSIBLE_WEIGHT"}},
    {"row_spelling_and_case_read", "shipping", "", {{"weight", "2"}, {"weight_unit", "LBS"}},
     {}},
    // Spaces around it are trimmed as in any field; the unit itself is never rewritten.
    {"row_unit_spaces_trimmed_only", "shipping", "", {{"weight", "2"}, {"weight_unit", " lbs "}},
     {"WHITESPACE_TRIMMED=lbs"}},
    // It comes before the column's unit: unknown (Magento, a generic Weight) or a header's.
    {"row_unit_over_unknown_column", "shipping", "", {{"weight", "5000"}, {"weight_unit", "kg"}},
     {"IMPLAUSIBLE_WEIGHT"}, Options().WeightUnit("unknown")},
    {"row_unit_over_header_unit_not_converted", "shipping", "",
     {{"weight", "2"}, {"weight_unit", "oz"}}, {}, Options().WeightUnit("kg")},
    // An empty unit cell leaves the column's unit in charge, as without the column.
    {"empty_row_unit_uses_column_unit", "shipping", "", {{"weight", "1500"}, {"weight_unit", ""}},
     {"IMPLAUSIBLE_WEIGHT"}, Options().WeightUnit("kg")},
    {"empty_row_unit_unknown_column", "shipping", "", {{"weight", "0.001"}, {"weight_unit", ""}},
     {}, Options().WeightUnit("unknown")},
    // A value with its own unit keeps it (the unit column names the file's unit).
    {"own_unit_kept_beside_a_unit_column", "shipping", "",
     {{"weight", "1.2 kg"}, {"weight_unit", "kg"}}, {}},
    // A unit dq cannot read: reported with the value; the weight is then of unknown unit.
    {"unreadable_unit_reported", "shipping", "", {{"weight", "2"}, {"weight_unit", "stone"}},
     {"INVALID_WEIGHT_UNIT"}},
    {"unreadable_unit_weight_still_non_negative", "shipping", "",
     {{"weight", "-1"}, {"weight_unit", "stone"}}, {"INVALID_WEIGHT", "INVALID_WEIGHT_UNIT"}},
    {"unreadable_unit_without_weight_reported", "shipping", "",
     {{"weight", ""}, {"weight_unit", "tons"}}, {"INVALID_WEIGHT_UNIT"}},
    {"readable_unit_without_weight_column_fine", "shipping", "", {{"weight_unit", "kilo"}}, {}},
    // Not read by a check that does not read weights.
    {"product_check_reads_no_unit", "product", "",
     {{"sku", "A"}, {"title", "T"}, {"price", "1.00"}, {"weight_unit", "stone"}}, {}},
    // A channel that wants "Number plus unit" (support.google.com/merchants/answer/6324503)
    // gets the row's unit in the cell, as it gets a header's: only there.
    {"merchant_gets_row_unit", "product,shipping", "search_merchant",
     Merchant({{"weight", "2"}, {"weight_unit", "lb"}}), {"WEIGHT_UNIT_ADDED=2 lb"}},
    {"merchant_row_unit_spelling_gets_symbol", "product,shipping", "search_merchant",
     Merchant({{"weight", "0,3"}, {"weight_unit", "Kilograms"}}), {"WEIGHT_UNIT_ADDED=0.3 kg"}},
    {"merchant_unreadable_row_unit_reported", "product,shipping", "search_merchant",
     Merchant({{"weight", "2"}, {"weight_unit", "stone"}}),
     {"INVALID_WEIGHT_UNIT", "PLATFORM_INVALID_WEIGHT"}},
    {"merchant_without_shipping_check_reports", "product", "search_merchant",
     Merchant({{"weight", "2"}, {"weight_unit", "lb"}}), {"PLATFORM_INVALID_WEIGHT"}},
};
DQ_RULE_CASES(WeightUnitColumnRules, kRowUnits);

std::vector<Issue> RunOne(const Row& row, const std::string& checks, const std::string& platform,
                          const testing::CaseOptions& options = {}) {
  std::vector<std::string> fields, values;
  for (const auto& [f, v] : row) fields.push_back(f), values.push_back(v);
  return testing::RunRows(fields, checks, platform, {values}, nullptr, options);
}

TEST(WeightUnitColumn, AnUnreadableUnitIsNamed) {
  const auto issues = RunOne({{"weight", "2"}, {"weight_unit", "stone"}}, "shipping", "");
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].field, Field::kWeightUnit);
  EXPECT_EQ(issues[0].original, "stone");
  EXPECT_EQ(issues[0].message,
            "Weight unit 'stone' is not g, kg, lb or oz (nor lbs, grams, ounces, ...); the row's "
            "weight was checked only as a non-negative number");
}

TEST(WeightUnitColumn, TheChannelHintNamesTheRowsUnit) {
  const auto issues = RunOne(Merchant({{"weight", "2"}, {"weight_unit", "lbs"}}), "product",
                             "search_merchant");
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].message,
            "shipping weight 2 has no unit; search_merchant wants a number and its unit (lb, oz, "
            "g or kg), such as 0.3 kg; the row's unit is lb: the shipping check adds the unit");
}

}  // namespace
}  // namespace dq::validator
