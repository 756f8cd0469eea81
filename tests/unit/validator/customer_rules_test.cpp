// Table-driven cases for the customer check: e-mail, disposable domains, phone, country.
#include <string>

#include "rule_case.h"

namespace dq::validator {
namespace {

using testing::RuleCase;

const RuleCase kCases[] = {
    // e-mail
    {"email_valid", "customer", "", {{"email", "ana.1@gmail.com"}}, {}},
    {"email_plus_tag_valid", "customer", "", {{"email", "li+shop@example.de"}}, {}},
    {"email_idn_punycode_valid", "customer", "", {{"email", "tom@xn--bcher-kva.de"}}, {}},
    {"email_utf8_local_valid", "customer", "", {{"email", "j\xC3\xBCrgen@example.de"}}, {}},
    {"email_empty", "customer", "", {{"email", ""}}, {"MISSING_EMAIL"}},
    // Shopify keeps a customer by e-mail or phone: a phone-only customer is complete.
    {"email_empty_with_phone_is_fine",
     "customer",
     "",
     {{"email", ""}, {"phone", "+16502530000"}},
     {}},
    {"email_and_phone_empty",
     "customer",
     "",
     {{"email", ""}, {"phone", ""}},
     {"MISSING_EMAIL"}},
    {"email_empty_with_invalid_phone",
     "customer",
     "",
     {{"email", ""}, {"country", "US"}, {"phone", "123"}},
     {"INVALID_PHONE"}},
    {"email_double_at", "customer", "", {{"email", "john@@example.com"}}, {"INVALID_EMAIL"}},
    {"email_no_at", "customer", "", {{"email", "no-at-sign.com"}}, {"INVALID_EMAIL"}},
    {"email_no_dot_in_domain", "customer", "", {{"email", "a@b"}}, {"INVALID_EMAIL"}},
    {"email_double_dot", "customer", "", {{"email", "a..b@example.com"}}, {"INVALID_EMAIL"}},
    {"email_leading_dot", "customer", "", {{"email", ".a@example.com"}}, {"INVALID_EMAIL"}},
    {"email_label_hyphen", "customer", "", {{"email", "a@-example.com"}}, {"INVALID_EMAIL"}},
    {"email_numeric_tld", "customer", "", {{"email", "a@example.123"}}, {"INVALID_EMAIL"}},
    {"email_hyphens_3_4", "customer", "", {{"email", "a@ab--cd.com"}}, {"INVALID_EMAIL"}},
    {"email_quoted_local", "customer", "", {{"email", "\"a b\"@example.com"}}, {"INVALID_EMAIL"}},
    {"email_ip_literal", "customer", "", {{"email", "a@[192.0.2.1]"}}, {"INVALID_EMAIL"}},
    {"email_local_65",
     "customer",
     "",
     {{"email", std::string(65, 'a') + "@example.com"}},
     {"INVALID_EMAIL"}},
    {"email_local_64", "customer", "", {{"email", std::string(64, 'a') + "@example.com"}}, {}},
    {"email_special_use_test",
     "customer",
     "",
     {{"email", "a@shop.test"}},
     {"EMAIL_SPECIAL_USE_DOMAIN"}},
    {"email_special_use_localhost",
     "customer",
     "",
     {{"email", "a@mail.localhost"}},
     {"EMAIL_SPECIAL_USE_DOMAIN"}},
    {"email_disposable", "customer", "", {{"email", "sam@mailinator.com"}}, {"DISPOSABLE_EMAIL"}},
    // Found by the cross-check against python-email-validator (tests/crosscheck).
    {"email_idn_tld_valid",
     "customer",
     "",
     {{"email", "user@\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444"}},
     {}},
    {"email_idn_tld_upper_valid_fixed",
     "customer",
     "",
     {{"email", "user@SHOP.\u0440\u0444"}},
     {"EMAIL_NORMALIZED=user@shop.\u0440\u0444"}},
    {"email_punycode_tld_valid", "customer", "", {{"email", "user@xn--e1afmkfd.xn--p1ai"}}, {}},
    {"email_punycode_label_valid", "customer", "", {{"email", "user@xn--bcher-kva.de"}}, {}},
    {"email_punycode_not_decodable",
     "customer",
     "",
     {{"email", "user@xn--zz.de"}},
     {"INVALID_EMAIL"}},
    {"email_punycode_to_control_char",
     "customer",
     "",
     {{"email", "user@shop.xn--abc"}},
     {"INVALID_EMAIL"}},
    {"email_punycode_trailing_hyphen",
     "customer",
     "",
     {{"email", "user@xn--bcher-kva-.de"}},
     {"INVALID_EMAIL"}},
    {"email_punycode_empty", "customer", "", {{"email", "user@xn--.de"}}, {"INVALID_EMAIL"}},
    // libidn2 (IDNA 2008, UTS-46) and libunistring's categories.
    {"email_idn_uts46_uppercase_valid",
     "customer",
     "",
     {{"email", "tom@B\u00dcCHER.de"}},
     {"EMAIL_NORMALIZED=tom@b\u00dccher.de"}},  // ASCII letters are lower-cased only
    {"email_idn_contextj_zwj", "customer", "", {{"email", "tom@a\u200db.de"}}, {"INVALID_EMAIL"}},
    {"email_idn_contexto_middle_dot",
     "customer",
     "",
     {{"email", "tom@a\u00b7b.de"}},
     {"INVALID_EMAIL"}},
    {"email_idn_contexto_middle_dot_between_l_valid",
     "customer",
     "",
     {{"email", "tom@l\u00b7l.de"}},
     {}},
    {"email_idn_contexto_in_a_label", "customer", "", {{"email", "tom@xn--ab-0ea.de"}}, {"INVALID_EMAIL"}},
    {"email_idn_emoji_disallowed", "customer", "", {{"email", "tom@\U0001f600.de"}}, {"INVALID_EMAIL"}},
    {"email_idn_emoji_a_label", "customer", "", {{"email", "tom@xn--ls8h.la"}}, {"INVALID_EMAIL"}},
    {"email_local_unassigned_code_point",
     "customer",
     "",
     {{"email", "a\u0378b@example.com"}},
     {"INVALID_EMAIL"}},
    {"email_local_no_break_space",
     "customer",
     "",
     {{"email", "a\u00a0b@example.com"}},
     {"INVALID_EMAIL"}},
    {"email_local_zero_width_space",
     "customer",
     "",
     {{"email", "ab\u200b@example.com"}},
     {"INVALID_EMAIL"}},
    {"email_local_bidi_override",
     "customer",
     "",
     {{"email", "a\u202eb@example.com"}},
     {"INVALID_EMAIL"}},
    {"email_local_c1_control",
     "customer",
     "",
     {{"email", "a\u0085b@example.com"}},
     {"INVALID_EMAIL"}},
    {"email_local_private_use",
     "customer",
     "",
     {{"email", "a\ue000b@example.com"}},
     {"INVALID_EMAIL"}},
    {"email_local_starts_with_combining_mark",
     "customer",
     "",
     {{"email", "\u0301ab@example.com"}},
     {"INVALID_EMAIL"}},
    {"email_local_inner_combining_mark_valid",
     "customer",
     "",
     {{"email", "e\u0301ab@example.com"}},
     {}},
    {"email_local_unicode_letters_valid",
     "customer",
     "",
     {{"email", "j\u00fcrgen.\u4e2d@example.com"}},
     {}},
    {"email_domain_ideographic_space",
     "customer",
     "",
     {{"email", "a@exa\u3000mple.com"}},
     {"INVALID_EMAIL"}},
    {"email_domain_soft_hyphen",
     "customer",
     "",
     {{"email", "a@exa\u00admple.com"}},
     {"INVALID_EMAIL"}},
    {"email_disposable_parent_domain",
     "customer",
     "",
     {{"email", "sam@eu.mailinator.com"}},
     {"DISPOSABLE_EMAIL"}},
    {"email_not_disposable_tempmail_com", "customer", "", {{"email", "sam@tempmail.com"}}, {}},
    {"email_trim_and_domain_lowercased",
     "customer",
     "",
     {{"email", "  ANA.1@GMAIL.COM "}},
     {"EMAIL_NORMALIZED=ANA.1@gmail.com"}},
    {"email_trim_only",
     "customer",
     "",
     {{"email", " ana@gmail.com"}},
     {"EMAIL_NORMALIZED=ana@gmail.com"}},
    // A value that starts like a spreadsheet formula is never "fixed" (issue 36): not
    // lower-cased, and not trimmed into one.
    {"email_formula_not_lower_cased",
     "customer",
     "",
     {{"email", "@SUM(1+1)"}},
     {"INVALID_EMAIL"}},
    {"email_not_trimmed_into_a_formula",
     "customer",
     "",
     {{"email", " =1+1@SHOP.DE"}},
     {"INVALID_EMAIL"}},
    // phone (libphonenumber, row country as default region)
    {"phone_international_kept", "customer", "", {{"phone", "+1 650-253-0000"}}, {}},
    {"phone_e164_kept", "customer", "", {{"phone", "+16502530000"}}, {}},
    {"phone_national_us_fixed",
     "customer",
     "",
     {{"country", "US"}, {"phone", "(650) 253-0000"}},
     {"PHONE_NORMALIZED=+16502530000"}},
    {"phone_national_nl_fixed",
     "customer",
     "",
     {{"country", "NL"}, {"phone", "0612345678"}},
     {"PHONE_NORMALIZED=+31612345678"}},
    {"phone_00_prefix_fixed",
     "customer",
     "",
     {{"country", "DE"}, {"phone", "0044 20 8765 4321"}},
     {"PHONE_NORMALIZED=+442087654321"}},
    {"phone_gb_international",
     "customer",
     "",
     {{"country", "GB"}, {"phone", "+44 20 8765 4321"}},
     {}},
    {"phone_too_short", "customer", "", {{"country", "US"}, {"phone", "123"}}, {"INVALID_PHONE"}},
    {"phone_word", "customer", "", {{"phone", "phone"}}, {"INVALID_PHONE"}},
    {"phone_incomplete", "customer", "", {{"phone", "+1 555"}}, {"INVALID_PHONE"}},
    {"phone_invalid_de",
     "customer",
     "",
     {{"country", "DE"}, {"phone", "12345"}},
     {"INVALID_PHONE"}},
    {"phone_national_without_country",
     "customer",
     "",
     {{"phone", "(650) 253-0000"}},
     {"INVALID_PHONE"}},
    {"phone_with_extension_not_rewritten",
     "customer",
     "",
     {{"country", "US"}, {"phone", "(650) 253-0000 ext. 123"}},
     {}},
    {"phone_empty_is_fine", "customer", "", {{"phone", ""}}, {}},
    // Shopify's exports write a ' before phone numbers (a spreadsheet text marker).
    {"phone_apostrophe_international_kept", "customer", "", {{"phone", "'+1 650-253-0000"}}, {}},
    {"phone_apostrophe_e164_kept", "customer", "", {{"phone", "'+16502530000"}}, {}},
    {"phone_apostrophe_alone_is_empty", "customer", "", {{"phone", "'"}}, {}},
    {"phone_apostrophe_national_fixed",
     "customer",
     "",
     {{"country", "NL"}, {"phone", "'0612345678"}},
     {"PHONE_NORMALIZED=+31612345678"}},
    // country
    {"country_valid", "customer", "", {{"country", "TW"}}, {}},
    {"country_lower_fixed", "customer", "", {{"country", "de"}}, {"COUNTRY_CODE_NORMALIZED=DE"}},
    {"country_alpha3_fixed", "customer", "", {{"country", "USA"}}, {"COUNTRY_CODE_NORMALIZED=US"}},
    {"country_alpha3_lower_fixed",
     "customer",
     "",
     {{"country", "deu"}},
     {"COUNTRY_CODE_NORMALIZED=DE"}},
    {"country_uk_fixed", "customer", "", {{"country", "uk"}}, {"COUNTRY_CODE_NORMALIZED=GB"}},
    {"country_user_assigned_zz", "customer", "", {{"country", "ZZ"}}, {"INVALID_COUNTRY_CODE"}},
    {"country_name", "customer", "", {{"country", "Germany"}}, {"INVALID_COUNTRY_CODE"}},
    {"country_empty_is_fine", "customer", "", {{"country", ""}}, {}},  // issue 31
    // A name with a code in parentheses is no code: WooCommerce writes "United States (US)"
    // but also "Virgin Islands (US)" and "United Kingdom (UK)" (review45b).
    {"country_name_with_code_in_parentheses", "customer", "",
     {{"country", "Virgin Islands (US)"}}, {"INVALID_COUNTRY_CODE"}},
    {"country_invalid_and_national_phone",
     "customer",
     "",
     {{"country", "ZZ"}, {"phone", "(650) 253-0000"}},
     {"INVALID_COUNTRY_CODE", "INVALID_PHONE"}},
    {"country_fixed_then_used_for_phone",
     "customer",
     "",
     {{"country", "usa"}, {"phone", "650 253 0000"}},
     {"COUNTRY_CODE_NORMALIZED=US", "PHONE_NORMALIZED=+16502530000"}},
};

DQ_RULE_CASES(CustomerRules, kCases);

TEST(CustomerBatch, DuplicateByEmailIgnoresCase) {
  auto issues = testing::RunRows({"email"}, "customer", "",
                                 {{"ana@gmail.com"}, {"li@gmail.com"}, {"ANA@gmail.com"}});
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].code, IssueCode::DUPLICATE_CUSTOMER);
  EXPECT_EQ(issues[0].row, 3u);
  EXPECT_EQ(issues[0].field, Field::kEmail);
  EXPECT_EQ(issues[0].Message(), "Same e-mail as row 1");
}

TEST(CustomerBatch, DuplicateByPhoneOnlyWithoutEmail) {
  auto issues = testing::RunRows(
      {"email", "phone", "country"}, "customer", "",
      {{"ana@gmail.com", "+1 650-253-0000", "US"},
       {"li@gmail.com", "+16502530000", "US"},  // same phone, own e-mail: another customer
       {"", "(650) 253-0000", "US"}});          // no e-mail: same phone is the same customer
  std::vector<std::string> got;
  for (const Issue& i : issues) got.push_back(std::to_string(i.row) + ":" + testing::Describe(i));
  EXPECT_EQ(got, (std::vector<std::string>{"3:DUPLICATE_CUSTOMER",
                                           "3:PHONE_NORMALIZED=+16502530000"}));
  EXPECT_EQ(issues[0].Message(), "Same phone number as row 1");
}

// A variant row is a further row of the customer above it (Shopify Transporter's second address
// or metafield, the same e-mail; ingest's row model decides it): not a duplicate, by e-mail or by
// phone, while its own values are checked (a bad country code, a phone to normalise). A product
// row with that e-mail later is a second customer and still a duplicate of the first row.
TEST(CustomerBatch, VariantRowsContinueTheirCustomerAndAreNoDuplicate) {
  const std::vector<RowKind> kinds = {RowKind::kProduct, RowKind::kVariant, RowKind::kVariant,
                                      RowKind::kProduct, RowKind::kProduct};
  auto issues = testing::RunRows({"email", "phone", "country"}, "customer", "",
                                 {{"john@gmail.com", "+1 519-555-5555", "CA"},
                                  {"john@gmail.com", "", "XX"},
                                  {"john@gmail.com", "(519) 555-5555", "CA"},
                                  {"jane@gmail.com", "+16135556666", "CA"},
                                  {"john@gmail.com", "", "CA"}},
                                 nullptr, testing::CaseOptions(), kinds);
  std::vector<std::string> got;
  for (const Issue& i : issues) got.push_back(std::to_string(i.row) + ":" + testing::Describe(i));
  EXPECT_EQ(got, (std::vector<std::string>{"2:INVALID_COUNTRY_CODE",
                                           "3:PHONE_NORMALIZED=+15195555555",
                                           "5:DUPLICATE_CUSTOMER"}));
  EXPECT_EQ(issues.back().Message(), "Same e-mail as row 1");
  // The same rows as products (a file without a row model): every repeat is a duplicate.
  got.clear();
  for (const Issue& i : testing::RunRows({"email", "phone", "country"}, "customer", "",
                                         {{"john@gmail.com", "", "CA"},
                                          {"john@gmail.com", "", "CA"},
                                          {"", "+1 519-555-5555", "CA"},
                                          {"", "+1 519-555-5555", "CA"}})) {
    got.push_back(std::to_string(i.row) + ":" + testing::Describe(i));
  }
  EXPECT_EQ(got, (std::vector<std::string>{"2:DUPLICATE_CUSTOMER", "4:DUPLICATE_CUSTOMER"}));
}

// An e-mail-less variant (Transporter's further rows of a customer without an e-mail, which the
// row model groups by phone) is not a duplicate of its customer by phone either, and its empty
// e-mail is the customer's (keyed by its phone, so no MISSING_EMAIL). A later product row with
// that phone and no e-mail is a second customer and a duplicate.
TEST(CustomerBatch, VariantWithoutEmailIsNoPhoneDuplicate) {
  auto issues = testing::RunRows(
      {"email", "phone", "country"}, "customer", "",
      {{"", "+15195555555", "CA"}, {"", "+15195555555", "CA"}, {"", "+15195555555", "CA"}},
      nullptr, testing::CaseOptions(), {RowKind::kProduct, RowKind::kVariant, RowKind::kProduct});
  std::vector<std::string> got;
  for (const Issue& i : issues) got.push_back(std::to_string(i.row) + ":" + testing::Describe(i));
  EXPECT_EQ(got, (std::vector<std::string>{"3:DUPLICATE_CUSTOMER"}));
}

// A spreadsheet that opened the export saved the phone as 9.19961E+11 (seen in a real Shopify
// customers export): the message says so, since the digits cannot be recovered.
TEST(CustomerBatch, PhoneInScientificNotationSaysSo) {
  auto issues = testing::RunRows({"phone", "country"}, "customer", "",
                                 {{"9.19961E+11", "US"}, {"1E+10", ""}, {"12345", "US"}});
  ASSERT_EQ(issues.size(), 3u);
  for (const Issue& i : issues) EXPECT_EQ(i.code, IssueCode::INVALID_PHONE);
  EXPECT_EQ(issues[0].Message(),
            "Phone number was saved in scientific notation by a spreadsheet: its last digits are "
            "lost");
  EXPECT_EQ(issues[1].Message(), issues[0].Message());
  EXPECT_EQ(issues[2].Message(), "Phone number is not valid");
}

// An international number behind Shopify's ' marker is not "in national form", whatever the
// row's country (review45b: the message looked at the marker, not the number).
TEST(CustomerBatch, AnInternationalNumberBehindTheMarkerIsNotCalledNational) {
  auto issues = testing::RunRows({"phone", "country"}, "customer", "",
                                 {{"'+1 650 253 000", ""}, {"'0049 30 123", ""}, {"'0612", ""}});
  ASSERT_EQ(issues.size(), 3u);
  for (const Issue& i : issues) EXPECT_EQ(i.code, IssueCode::INVALID_PHONE);
  EXPECT_EQ(issues[0].Message(), "Phone number is not valid");
  EXPECT_EQ(issues[1].Message(), "Phone number is not valid");
  EXPECT_EQ(issues[2].Message(),
            "Phone number is in national form and the row has no valid country to read it with");
}

TEST(CustomerBatch, LibphonenumberResultsAreCachedPerSession) {
  // Fifty customers with their own e-mail sharing a switchboard number with an extension (a
  // shape the fast path leaves to libphonenumber): no issue, one libphonenumber parse.
  Session s(ReferenceData::Default(),
            testing::MakeSpec({"email", "phone", "country"}, "customer", ""));
  std::vector<Issue> issues;
  for (int i = 0; i < 50; ++i) {
    const std::string email = "staff" + std::to_string(i) + "@example.com";
    std::vector<std::string_view> row = {email, "+1 650-253-0000 ext. 12", "US"};
    s.AddRow(row, issues);
  }
  EXPECT_TRUE(issues.empty());
  EXPECT_EQ(s.phone_checker().slow_checks(), 1u);
  EXPECT_EQ(s.phone_checker().fast_checks(), 0u);
}

TEST(CustomerBatch, DistinctPhonesTakeTheFastPath) {
  Session s(ReferenceData::Default(),
            testing::MakeSpec({"email", "phone", "country"}, "customer", ""));
  std::vector<Issue> issues;
  for (int i = 0; i < 50; ++i) {
    const std::string email = "customer" + std::to_string(i) + "@example.com";
    const std::string phone = "(212) 555-01" + std::to_string(10 + i);  // national form
    std::vector<std::string_view> row = {email, phone, "US"};
    s.AddRow(row, issues);
  }
  ASSERT_EQ(issues.size(), 50u);  // each rewritten to E.164
  EXPECT_EQ(testing::Describe(issues[0]), "PHONE_NORMALIZED=+12125550110");
  EXPECT_EQ(s.phone_checker().fast_checks(), 50u);
  EXPECT_EQ(s.phone_checker().slow_checks(), 0u);
}

}  // namespace
}  // namespace dq::validator
