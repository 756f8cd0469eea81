// rule_probe: the rule engine's verdict on single values, one JSON object per input line.
//
//   echo '{"kind":"vat","value":"EL039868210"}' | rule_probe
//   {"codes":["..."],"fixed":null,"valid":true}
//
// Input: JSON lines {"kind": K, "value": V, "country": C?} with K one of gtin, vat, phone, email,
// country, currency; C (phone only) fills the row's country column. Every value runs through a
// fresh Session as the one row of a batch, with the check type and mapping that owns its field:
//   gtin     product,  gtin + sku/price set to valid dummies
//   currency product,  currency + sku/price set to valid dummies
//   vat      shipping, vat_number only
//   phone    customer, phone (+ country when given)
//   email    customer, email only
//   country  customer, country only
// Output, per line: "valid" (no error-severity issue on the field under test), "codes" (every
// issue on that field, in engine order; the catalogue gives their severities) and "fixed" (the
// cleaned value when the engine fixed the field, else null). A line that is not understood
// gives {"error": "..."}; the exit status is 0 unless stdin fails.
//
// Used by tests/crosscheck/crosscheck.py; see docs/crosscheck.md.
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "reference_data.h"
#include "session.h"
#include "types.h"

namespace {

using dq::validator::BatchSpec;
using dq::validator::Field;
using dq::validator::Issue;
using dq::validator::ReferenceData;
using dq::validator::Session;
using dq::validator::Severity;

struct Probe {
  std::string_view kind;
  Field field;
  const char* check;
};

constexpr Probe kProbes[] = {
    {"gtin", Field::kGtin, "product"},      {"currency", Field::kCurrency, "product"},
    {"vat", Field::kVatNumber, "shipping"}, {"phone", Field::kPhone, "customer"},
    {"email", Field::kEmail, "customer"},   {"country", Field::kCountry, "customer"},
};

nlohmann::json Run(const Probe& p, const std::string& value, const std::string* country) {
  std::vector<std::string> fields{std::string(dq::validator::FieldName(p.field))};
  std::vector<std::string_view> values{value};
  if (p.check == std::string_view("product")) {
    fields.insert(fields.end(), {"sku", "price"});
    values.insert(values.end(), {"SKU-1", "10.00"});
  }
  if (country) {
    fields.push_back("country");
    values.push_back(*country);
  }
  const std::vector<std::string> checks{p.check};
  auto spec = BatchSpec::Make(fields, checks, "");
  if (!spec.ok()) return {{"error", std::string(spec.status().message())}};
  spec->today = 20000;  // no date rule is involved; fixed for determinism
  Session session(ReferenceData::Default(), *spec);
  std::vector<Issue> issues;
  session.AddRow(values, issues);
  session.Finish(issues);
  nlohmann::json codes = nlohmann::json::array();
  nlohmann::json fixed = nullptr;
  bool valid = true;
  for (const Issue& i : issues) {
    if (i.field != p.field) continue;
    codes.push_back(std::string(dq::validator::Def(i.code).code));
    if (i.severity() == Severity::kError) valid = false;
    if (i.fixed) fixed = *i.fixed;
  }
  return {{"valid", valid}, {"codes", std::move(codes)}, {"fixed", std::move(fixed)}};
}

nlohmann::json Handle(const std::string& line) {
  const auto in = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (!in.is_object() || !in.contains("kind") || !in["kind"].is_string() || !in.contains("value") ||
      !in["value"].is_string()) {
    return {{"error", "want {\"kind\": string, \"value\": string, \"country\": string?}"}};
  }
  const std::string kind = in["kind"].get<std::string>();
  const std::string value = in["value"].get<std::string>();
  std::string country;
  const bool has_country = in.contains("country") && in["country"].is_string();
  if (has_country) country = in["country"].get<std::string>();
  for (const Probe& p : kProbes) {
    if (p.kind == kind) return Run(p, value, has_country ? &country : nullptr);
  }
  return {{"error", "unknown kind " + kind}};
}

}  // namespace

int main() {
  std::ios::sync_with_stdio(false);
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    // Invalid UTF-8 in a value would make dump() throw; replace it rather than stop.
    std::cout << Handle(line).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
              << '\n';
  }
  std::cout.flush();
  return std::cin.bad() ? 1 : 0;
}
