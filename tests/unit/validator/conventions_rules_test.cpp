// The cell conventions of real exports (issue 17): decimal commas, weights with units, dates in
// regional orders and Excel serials, spreadsheet whole numbers, declared_value, XK, currencies
// that are no money, and the HS leading zero.
#include <string>

#include "rule_case.h"

namespace dq::validator {
namespace {

using testing::Options;
using testing::RuleCase;

const RuleCase kConventions[] = {
    // Decimal commas: fixed only when the comma can be nothing else.
    {"price_decimal_comma", "product", "", {{"price", "19,99"}}, {"DECIMAL_COMMA_FIXED=19.99"}},
    {"price_dot_grouping_decimal_comma",
     "product",
     "",
     {{"price", "1.234,56"}},
     {"DECIMAL_COMMA_FIXED=1234.56"}},
    {"price_decimal_comma_symbol", "product", "", {{"price", "\xE2\x82\xAC 4,5"}},
     {"DECIMAL_COMMA_FIXED=4.5"}},
    {"price_long_fraction_comma", "product", "", {{"price", "1234,567"}},
     {"DECIMAL_COMMA_FIXED=1234.567"}},
    {"price_ambiguous_comma", "product", "", {{"price", "12,500"}},
     {"AMBIGUOUS_DECIMAL_SEPARATOR"}},
    {"price_ambiguous_comma_small", "product", "", {{"price", "1,299"}},
     {"AMBIGUOUS_DECIMAL_SEPARATOR"}},
    {"price_zero_comma_is_decimal", "product", "", {{"price", "0,500"}},
     {"DECIMAL_COMMA_FIXED=0.500"}},
    {"price_two_comma_groups", "product", "", {{"price", "1,234,567"}},
     {"PRICE_REFORMATTED=1234567"}},
    {"price_two_dot_groups", "product", "", {{"price", "1.234.567"}},
     {"PRICE_REFORMATTED=1234567"}},
    {"price_bad_dot_groups", "product", "", {{"price", "1.23.4"}}, {"INVALID_PRICE"}},
    {"compare_at_decimal_comma",
     "price",
     "",
     {{"price", "10"}, {"compare_at_price", "12,99"}},
     {"DECIMAL_COMMA_FIXED=12.99"}},
    {"cost_ambiguous",
     "price",
     "",
     {{"price", "10"}, {"cost_price", "1,250"}},
     {"AMBIGUOUS_DECIMAL_SEPARATOR"}},
    // Weights with units.
    {"weight_kg", "shipping", "", {{"weight", "1.2 kg"}}, {"WEIGHT_CONVERTED_TO_GRAMS=1200"}},
    {"weight_kg_no_space_comma", "shipping", "", {{"weight", "1,5kg"}},
     {"WEIGHT_CONVERTED_TO_GRAMS=1500"}},
    {"weight_lb", "shipping", "", {{"weight", "2 lbs"}}, {"WEIGHT_CONVERTED_TO_GRAMS=907.18"}},
    {"weight_oz", "shipping", "", {{"weight", "3.5 OZ"}}, {"WEIGHT_CONVERTED_TO_GRAMS=99.22"}},
    {"weight_g", "shipping", "", {{"weight", "500 g"}}, {"WEIGHT_CONVERTED_TO_GRAMS=500"}},
    {"weight_unknown_unit", "shipping", "", {{"weight", "3 stone"}}, {"INVALID_WEIGHT"}},
    {"weight_decimal_comma", "shipping", "", {{"weight", "250,5"}}, {"DECIMAL_COMMA_FIXED=250.5"}},
    {"weight_ambiguous", "shipping", "", {{"weight", "1,500"}}, {"AMBIGUOUS_DECIMAL_SEPARATOR"}},
    // A zero weight where the source writes 0 for "no weight entered" (Shopify's Variant Grams):
    // read as an empty weight, which the shipping check does not require. Elsewhere 0 is no
    // weight at all, and a negative or non-number weight stays wrong with the convention.
    {"weight_zero", "shipping", "", {{"weight", "0"}}, {"INVALID_WEIGHT"}},
    {"weight_zero_no_weight_entered", "shipping", "", {{"weight", "0"}}, {},
     Options().ZeroIsEmpty("weight")},
    {"weight_zero_decimal_no_weight_entered", "shipping", "", {{"weight", "0.0"}}, {},
     Options().ZeroIsEmpty("weight")},
    {"weight_zero_comma_no_weight_entered", "shipping", "", {{"weight", " 0,00 "}}, {},
     Options().ZeroIsEmpty("weight")},
    {"weight_zero_with_unit_still_judged", "shipping", "", {{"weight", "0 kg"}},
     {"INVALID_WEIGHT", "WEIGHT_CONVERTED_TO_GRAMS=0"}, Options().ZeroIsEmpty("weight")},
    {"weight_negative_zero_is_judged", "shipping", "", {{"weight", "-0"}}, {"INVALID_WEIGHT"},
     Options().ZeroIsEmpty("weight")},
    {"weight_negative_still_invalid", "shipping", "", {{"weight", "-5"}}, {"INVALID_WEIGHT"},
     Options().ZeroIsEmpty("weight")},
    {"weight_word_still_invalid", "shipping", "", {{"weight", "none"}}, {"INVALID_WEIGHT"},
     Options().ZeroIsEmpty("weight")},
    {"weight_positive_still_checked", "shipping", "", {{"weight", "0.5"}},
     {"IMPLAUSIBLE_WEIGHT"}, Options().ZeroIsEmpty("weight")},
    // Whole numbers from spreadsheets.
    {"stock_10_0", "inventory", "", {{"stock_qty", "10.0"}}, {"QUANTITY_REFORMATTED=10"}},
    {"stock_10_00", "inventory", "", {{"stock_qty", "10.00"}}, {"QUANTITY_REFORMATTED=10"}},
    {"stock_real_fraction", "inventory", "", {{"stock_qty", "10.5"}}, {"INVALID_STOCK_QTY"}},
    {"stock_negative_whole", "inventory", "", {{"stock_qty", "-2.0"}},
     {"QUANTITY_REFORMATTED=-2", "NEGATIVE_STOCK"}},
    {"reorder_point_whole", "inventory", "", {{"reorder_point", "5.0"}},
     {"QUANTITY_REFORMATTED=5"}},
    // A feed whose source writes amounts with their code (Merchant Center, Meta: own_number_format
    // on an amount field) keeps the code with no template selected; its number is still judged.
    {"price_coded_stripped_without_source", "product", "", {{"price", "15.00 USD"}},
     {"PRICE_REFORMATTED=15.00"}},
    {"price_coded_source_kept", "product", "", {{"price", "15.00 USD"}}, {},
     Options().OwnNumbers("price")},
    {"price_coded_source_comma_keeps_code", "product", "", {{"price", "15,00 USD"}},
     {"DECIMAL_COMMA_FIXED=15.00 USD"}, Options().OwnNumbers("price")},
    {"price_coded_source_zero", "product", "", {{"price", "0.00 USD"}}, {"INVALID_PRICE"},
     Options().OwnNumbers("price")},
    {"cost_coded_source_negative_margin", "price", "",
     {{"price", "10.00 USD"}, {"cost_price", "12.00 USD"}}, {"NEGATIVE_MARGIN"},
     Options().OwnNumbers("price").OwnNumbers("cost_price")},
    {"price_symbol_source_still_general", "product", "", {{"price", "$15.00"}},
     {"PRICE_REFORMATTED=15.00"}, Options().OwnNumbers("price")},
    // An empty stock quantity where the source leaves it empty on purpose (WooCommerce's Stock:
    // stock not managed) is no issue for the inventory check's core; a template that requires a
    // stock quantity still reports it, and a value is still checked.
    {"stock_empty", "inventory", "", {{"stock_qty", ""}}, {"INVALID_STOCK_QTY"}},
    {"stock_empty_unmanaged", "inventory", "", {{"stock_qty", ""}}, {},
     Options().MayBeEmpty("stock_qty")},
    {"stock_word_unmanaged", "inventory", "", {{"stock_qty", "many"}}, {"INVALID_STOCK_QTY"},
     Options().MayBeEmpty("stock_qty")},
    // Dates.
    {"date_day_first_certain", "inventory", "", {{"expiry_date", "31/12/2027"}},
     {"DATE_REFORMATTED=2027-12-31"}},
    {"date_month_first_certain", "inventory", "", {{"expiry_date", "12/31/2027"}},
     {"DATE_REFORMATTED=2027-12-31"}},
    {"date_dots", "inventory", "", {{"expiry_date", "31.12.2027"}},
     {"DATE_REFORMATTED=2027-12-31"}},
    {"date_ambiguous", "inventory", "", {{"expiry_date", "03/04/2027"}}, {"AMBIGUOUS_DATE"}},
    {"date_same_either_way", "inventory", "", {{"expiry_date", "05/05/2027"}},
     {"DATE_REFORMATTED=2027-05-05"}},
    {"date_year_first_slashes", "inventory", "", {{"expiry_date", "2027/01/15"}},
     {"DATE_REFORMATTED=2027-01-15"}},
    {"date_excel_serial", "inventory", "", {{"expiry_date", "46387"}},
     {"DATE_REFORMATTED=2026-12-31"}},
    {"date_impossible", "inventory", "", {{"expiry_date", "31/02/2027"}},
     {"INVALID_EXPIRY_DATE"}},
    {"date_both_over_12", "inventory", "", {{"expiry_date", "13/13/2027"}},
     {"INVALID_EXPIRY_DATE"}},
    // declared_value.
    {"declared_value_valid", "shipping", "", {{"declared_value", "25.00"}, {"price", "abc"}}, {}},
    {"declared_value_invalid",
     "shipping",
     "",
     {{"declared_value", "-3"}},
     {"INVALID_DECLARED_VALUE"}},
    {"declared_value_empty_is_fine", "shipping", "", {{"declared_value", ""}}, {}},  // issue 31
    {"declared_value_comma", "shipping", "", {{"declared_value", "19,99"}},
     {"DECIMAL_COMMA_FIXED=19.99"}},
    {"price_is_declared_value_when_unmapped", "shipping", "", {{"price", "abc"}},
     {"INVALID_PRICE"}},
    {"price_still_checked_by_price_check",
     "shipping,price",
     "",
     {{"declared_value", "5"}, {"price", "abc"}},
     {"INVALID_PRICE"}},
    // Countries and currencies.
    {"country_xk", "customer", "", {{"country", "XK"}}, {}},
    {"country_xk_lower", "customer", "", {{"country", "xk"}}, {"COUNTRY_CODE_NORMALIZED=XK"}},
    {"origin_xk", "shipping", "", {{"country_of_origin", "XK"}}, {}},
    {"currency_withdrawn_hrk", "product", "", {{"currency", "HRK"}}, {"INVALID_CURRENCY"}},
    {"currency_testing_xts", "product", "", {{"currency", "XTS"}}, {"INVALID_CURRENCY"}},
    {"currency_none_xxx", "product", "", {{"currency", "xxx"}}, {"INVALID_CURRENCY"}},
    {"currency_gold", "product", "", {{"currency", "XAU"}}, {"INVALID_CURRENCY"}},
    {"currency_fund", "product", "", {{"currency", "CLF"}}, {"INVALID_CURRENCY"}},
    {"currency_cfa_franc_ok", "product", "", {{"currency", "XOF"}}, {}},
    {"currency_eur_ok", "product", "", {{"currency", "EUR"}}, {}},
    // HS leading zero.
    {"hs_leading_zero", "shipping", "", {{"hs_code", "90111"}},
     {"HS_LEADING_ZERO_RESTORED=090111"}},
    {"hs_leading_zero_8", "shipping", "", {{"hs_code", "8471300"}},
     {"HS_LEADING_ZERO_RESTORED=08471300"}},
    {"hs_leading_zero_after_dots", "shipping", "", {{"hs_code", "9.01.11"}},
     {"HS_LEADING_ZERO_RESTORED=090111"}},
};
DQ_RULE_CASES(ConventionRules, kConventions);

std::vector<std::string> Described(const std::vector<Issue>& issues) {
  std::vector<std::string> out;
  for (const Issue& i : issues) out.push_back(std::to_string(i.row) + ":" + testing::Describe(i));
  return out;
}

TEST(DateColumnOrder, ALaterDayAbove12DecidesWhenTheBatchIsObservedFirst) {
  Session s(ReferenceData::Default(), testing::MakeSpec({"expiry_date"}, "inventory", ""));
  const std::vector<std::string> column = {"03/04/2027", "25/04/2027", "05/06/2027"};
  for (const auto& v : column) {
    std::vector<std::string_view> row = {v};
    s.Observe(row);
  }
  std::vector<Issue> issues;
  for (const auto& v : column) {
    std::vector<std::string_view> row = {v};
    s.AddRow(row, issues);
  }
  EXPECT_EQ(Described(issues),
            (std::vector<std::string>{"1:DATE_REFORMATTED=2027-04-03",
                                      "2:DATE_REFORMATTED=2027-04-25",
                                      "3:DATE_REFORMATTED=2027-06-05"}));
}

TEST(DateColumnOrder, TheCallersWholeFileOrderDecidesTheFirstRows) {
  // A job's first chunk: no value in it decides, but the gateway saw the whole file.
  BatchSpec spec = testing::MakeSpec({"expiry_date"}, "inventory", "");
  ASSERT_TRUE(spec.SetExpiryDateOrder("month_first").ok());
  Session s(ReferenceData::Default(), spec);
  std::vector<Issue> issues;
  for (std::string_view v : {"03/04/2027", "05/06/2027"}) {
    std::vector<std::string_view> row = {v};
    s.AddRow(row, issues);
  }
  EXPECT_EQ(Described(issues), (std::vector<std::string>{"1:DATE_REFORMATTED=2027-03-04",
                                                         "2:DATE_REFORMATTED=2027-05-06"}));
  EXPECT_EQ(spec.SetExpiryDateOrder("sideways").code(), ErrorCode::kInvalidRequest);
  EXPECT_TRUE(spec.SetExpiryDateOrder("").ok());
  EXPECT_EQ(spec.expiry_date_order, dates::DateOrder::kUnknown);
}

TEST(DateColumnOrder, ConflictingColumnLeavesAmbiguousValues) {
  auto issues = testing::RunRows({"expiry_date"}, "inventory", "",
                                 {{"25/04/2027"}, {"04/25/2027"}, {"03/04/2027"}});
  EXPECT_EQ(Described(issues),
            (std::vector<std::string>{"1:DATE_REFORMATTED=2027-04-25",
                                      "2:DATE_REFORMATTED=2027-04-25", "3:AMBIGUOUS_DATE"}));
}

TEST(WeightHeaderUnit, BareNumbersStayValuesWithAUnitTakeTheColumns) {
  for (const auto& [unit, value, want] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"kg", "2,5", "1:DECIMAL_COMMA_FIXED=2.5"},
           {"kg", "300 g", "1:WEIGHT_CONVERTED_TO_COLUMN_UNIT=0.3"},
           {"oz", "1 lb", "1:WEIGHT_CONVERTED_TO_COLUMN_UNIT=16"},
           {"g", "0.3 kg", "1:WEIGHT_CONVERTED_TO_GRAMS=300"}}) {
    BatchSpec spec = testing::MakeSpec({"weight"}, "shipping", "");
    ASSERT_TRUE(spec.SetWeightUnit(unit).ok());
    Session s(ReferenceData::Default(), spec);
    std::vector<Issue> issues;
    std::vector<std::string_view> row = {value};
    s.AddRow(row, issues);
    EXPECT_EQ(Described(issues), (std::vector<std::string>{want})) << unit << " " << value;
  }
  BatchSpec spec = testing::MakeSpec({"weight"}, "shipping", "");
  EXPECT_EQ(spec.SetWeightUnit("stone").code(), ErrorCode::kInvalidRequest);
  EXPECT_TRUE(spec.SetWeightUnit("").ok());
}

}  // namespace
}  // namespace dq::validator
