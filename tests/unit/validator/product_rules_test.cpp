// Table-driven cases for the product check: one row per case (valid, invalid, fixed).
#include <string>

#include "rule_case.h"

namespace dq::validator {
namespace {

using testing::RuleCase;

const std::string kLong151(151, 'a');
const std::string kLong150(150, 'a');
// 150 and 151 CJK characters: 450 and 453 bytes, judged in code points.
std::string Repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

const RuleCase kCases[] = {
    // sku and price (the spec's two codes)
    {"sku_and_price_valid", "product", "", {{"sku", "A-1"}, {"price", "19.99"}}, {}},
    {"sku_empty", "product", "", {{"sku", ""}}, {"MISSING_SKU"}},
    {"price_zero", "product", "", {{"price", "0"}}, {"INVALID_PRICE"}},
    {"price_negative", "product", "", {{"price", "-5"}}, {"INVALID_PRICE"}},
    {"price_text", "product", "", {{"price", "abc"}}, {"INVALID_PRICE"}},
    {"price_empty", "product", "", {{"price", ""}}, {"INVALID_PRICE"}},
    {"price_bad_grouping", "product", "", {{"price", "12,5.3"}}, {"INVALID_PRICE"}},
    {"price_european_ambiguous", "product", "", {{"price", "1.299,00"}}, {"INVALID_PRICE"}},
    {"price_symbol_and_commas_fixed", "product", "", {{"price", "$1,299.00"}},
     {"PRICE_REFORMATTED=1299.00"}},
    {"price_code_prefix_fixed", "product", "", {{"price", "EUR 12.50"}},
     {"PRICE_REFORMATTED=12.50"}},
    // title
    {"title_valid", "product", "", {{"title", "Acme Classic Mug"}}, {}},
    {"title_empty", "product", "", {{"title", ""}}, {"MISSING_TITLE"}},
    {"title_150_ascii", "product", "", {{"title", kLong150}}, {}},
    {"title_151_ascii", "product", "", {{"title", kLong151}}, {"TITLE_TOO_LONG"}},
    {"title_150_cjk_counts_code_points", "product", "", {{"title", Repeat("\xE6\x9D\xAF", 150)}},
     {}},
    {"title_151_cjk", "product", "", {{"title", Repeat("\xE6\x9D\xAF", 151)}},
     {"TITLE_TOO_LONG"}},
    {"title_whitespace_fixed", "product", "", {{"title", "  Acme   Mug\t"}},
     {"WHITESPACE_TRIMMED=Acme Mug"}},
    // image_url
    {"image_https_valid", "product", "", {{"image_url", "https://cdn.example.com/img/1.jpg"}}, {}},
    {"image_with_port_and_query", "product", "",
     {{"image_url", "https://cdn.example.com:8443/a.jpg?w=500&h=500"}}, {}},
    {"image_empty", "product", "", {{"image_url", ""}}, {"MISSING_IMAGE_URL"}},
    {"image_not_a_url", "product", "", {{"image_url", "not a url"}}, {"INVALID_IMAGE_URL"}},
    {"image_ftp_scheme", "product", "", {{"image_url", "ftp://x/y.jpg"}}, {"INVALID_IMAGE_URL"}},
    {"image_relative", "product", "", {{"image_url", "/img/1.jpg"}}, {"INVALID_IMAGE_URL"}},
    {"image_space_in_path", "product", "", {{"image_url", "https://cdn.example.com/a b.jpg"}},
     {"INVALID_IMAGE_URL"}},
    {"image_bad_escape", "product", "", {{"image_url", "https://cdn.example.com/%zz.jpg"}},
     {"INVALID_IMAGE_URL"}},
    {"image_host_without_dot", "product", "", {{"image_url", "https://localhost/a.jpg"}},
     {"INVALID_IMAGE_URL"}},
    {"image_plain_http_warned", "product", "", {{"image_url", "http://cdn.example.com/a.jpg"}},
     {"IMAGE_URL_NOT_HTTPS"}},
    // brand
    {"brand_valid", "product", "", {{"brand", "Nordwind"}}, {}},
    {"brand_empty", "product", "", {{"brand", ""}}, {"MISSING_BRAND"}},
    {"brand_71_chars", "product", "", {{"brand", std::string(71, 'b')}}, {"BRAND_TOO_LONG"}},
    // availability
    {"availability_in_stock", "product", "", {{"availability", "in_stock"}}, {}},
    {"availability_preorder", "product", "", {{"availability", "preorder"}}, {}},
    {"availability_title_case_fixed", "product", "", {{"availability", "In Stock"}},
     {"AVAILABILITY_NORMALIZED=in_stock"}},
    {"availability_lower_spaces_fixed", "product", "", {{"availability", "in stock"}},
     {"AVAILABILITY_NORMALIZED=in_stock"}},
    {"availability_upper_fixed", "product", "", {{"availability", "OUT OF STOCK"}},
     {"AVAILABILITY_NORMALIZED=out_of_stock"}},
    {"availability_pre_hyphen_order_fixed", "product", "", {{"availability", "pre-order"}},
     {"AVAILABILITY_NORMALIZED=preorder"}},
    {"availability_unknown", "product", "", {{"availability", "maybe"}},
     {"INVALID_AVAILABILITY"}},
    {"availability_backorder_not_allowed", "product", "", {{"availability", "backorder"}},
     {"INVALID_AVAILABILITY"}},
    {"availability_empty", "product", "", {{"availability", ""}}, {"INVALID_AVAILABILITY"}},
    // GTIN: known vectors (rules-reference.md §1.2-1.5)
    {"gtin13_valid", "product", "", {{"gtin", "4006381333931"}}, {}},
    {"gtin13_wrong_check_digit", "product", "", {{"gtin", "4006381333932"}},
     {"INVALID_GTIN_CHECKSUM"}},
    {"gtin12_upca_valid", "product", "", {{"gtin", "036000291452"}}, {}},
    {"gtin8_valid", "product", "", {{"gtin", "73513537"}}, {}},
    {"gtin14_valid", "product", "", {{"gtin", "10614141000415"}}, {}},
    {"isbn13_valid", "product", "", {{"gtin", "9780306406157"}}, {}},
    {"issn_977_valid", "product", "", {{"gtin", "9771234567003"}}, {}},
    {"isbn13_wrong_check_digit", "product", "", {{"gtin", "9780306406158"}}, {"INVALID_ISBN"}},
    {"gtin_prefix_2_restricted", "product", "", {{"gtin", "2001234567893"}},
     {"GTIN_RESTRICTED_PREFIX"}},
    {"gtin12_prefix_2_is_02_restricted", "product", "", {{"gtin", "212345678909"}},
     {"GTIN_RESTRICTED_PREFIX"}},
    {"gtin8_prefix_2_restricted", "product", "", {{"gtin", "20000004"}},
     {"GTIN_RESTRICTED_PREFIX"}},
    {"gtin_prefix_98_coupon", "product", "", {{"gtin", "9812345678902"}},
     {"GTIN_COUPON_PREFIX"}},
    {"gtin_prefix_99_coupon", "product", "", {{"gtin", "9912345678909"}},
     {"GTIN_COUPON_PREFIX"}},
    {"gtin_prefix_05_coupon", "product", "", {{"gtin", "0512345678900"}},
     {"GTIN_COUPON_PREFIX"}},
    {"gtin_wrong_length", "product", "", {{"gtin", "12345"}}, {"INVALID_GTIN"}},
    {"gtin_letters", "product", "", {{"gtin", "ABC123"}}, {"INVALID_GTIN"}},
    {"gtin_all_zeros", "product", "", {{"gtin", "00000000"}}, {"INVALID_GTIN"}},
    {"gtin_scientific_notation", "product", "", {{"gtin", "4.00638E+12"}},
     {"GTIN_SCIENTIFIC_NOTATION"}},
    {"gtin_scientific_lower_e", "product", "", {{"gtin", "4.006381333931e12"}},
     {"GTIN_SCIENTIFIC_NOTATION"}},
    {"gtin_separators_fixed", "product", "", {{"gtin", "4-006381-333931"}},
     {"GTIN_REFORMATTED=4006381333931"}},
    {"gtin_spaces_fixed", "product", "", {{"gtin", "4006381 333931"}},
     {"GTIN_REFORMATTED=4006381333931"}},
    {"gtin_separators_bad_check_still_fixed", "product", "", {{"gtin", "4-006381-333932"}},
     {"GTIN_REFORMATTED=4006381333932", "INVALID_GTIN_CHECKSUM"}},
    {"gtin_lost_leading_zero_fixed", "product", "", {{"gtin", "36000291452"}},
     {"GTIN_LEADING_ZEROS_RESTORED=036000291452"}},
    {"gtin_lost_two_zeros_fixed", "product", "", {{"gtin", "0360002911"}},
     {"GTIN_LEADING_ZEROS_RESTORED=000360002911"}},
    {"gtin_11_digits_bad_check_not_padded", "product", "", {{"gtin", "36000291453"}},
     {"INVALID_GTIN"}},
    {"isbn10_valid_warned", "product", "", {{"gtin", "0306406152"}}, {"GTIN_IS_ISBN10"}},
    {"isbn10_with_x_valid_warned", "product", "", {{"gtin", "080442957X"}}, {"GTIN_IS_ISBN10"}},
    {"isbn10_hyphenated", "product", "", {{"gtin", "1-85798-218-5"}},
     {"GTIN_IS_ISBN10", "GTIN_REFORMATTED=1857982185"}},
    {"isbn10_bad_x_check", "product", "", {{"gtin", "080442958X"}}, {"INVALID_ISBN"}},
    {"upce_not_expanded", "product", "", {{"gtin", "04252614"}}, {"GTIN_UPCE_NOT_EXPANDED"}},
    {"upce_also_rcn8_not_expanded", "product", "", {{"gtin", "01234565"}},
     {"GTIN_UPCE_NOT_EXPANDED"}},
    {"gtin_empty_is_fine", "product", "", {{"gtin", ""}}, {}},
    // currency
    {"currency_valid", "product", "", {{"currency", "TWD"}}, {}},
    {"currency_lower_fixed", "product", "", {{"currency", "usd"}}, {"CURRENCY_UPPERCASED=USD"}},
    {"currency_unknown", "product", "", {{"currency", "XYZ"}}, {"INVALID_CURRENCY"}},
    {"currency_word", "product", "", {{"currency", "euro"}}, {"INVALID_CURRENCY"}},
    {"currency_symbol", "product", "", {{"currency", "US$"}}, {"INVALID_CURRENCY"}},
    {"currency_empty", "product", "", {{"currency", ""}}, {"INVALID_CURRENCY"}},
};

DQ_RULE_CASES(ProductRules, kCases);

}  // namespace
}  // namespace dq::validator
