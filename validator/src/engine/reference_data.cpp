#include "reference_data.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "embedded_data.h"

namespace dq::validator {

const ReferenceData& ReferenceData::Default() {
  // immutable, lives until exit
  static const ReferenceData* data = new ReferenceData(embedded::kGoogleTaxonomy);
  return *data;
}

std::unique_ptr<const ReferenceData> ReferenceData::WithTaxonomy(std::string_view taxonomy_text) {
  return std::unique_ptr<const ReferenceData>(new ReferenceData(taxonomy_text));
}

ReferenceData::ReferenceData(std::string_view taxonomy_text) : taxonomy_(taxonomy_text) {
  const auto countries = nlohmann::json::parse(embedded::kIso3166Json);
  const auto currencies = nlohmann::json::parse(embedded::kIso4217Json);
  const auto& country_list = countries.at("3166-1");
  const auto& currency_list = currencies.at("4217");
  // Reserve first: the sets hold views into storage_, which must never reallocate.
  storage_.reserve(2 * country_list.size() + currency_list.size());
  for (const auto& c : country_list) {
    storage_.push_back(c.at("alpha_2").get<std::string>());
    std::string_view a2 = storage_.back();
    storage_.push_back(c.at("alpha_3").get<std::string>());
    std::string_view a3 = storage_.back();
    alpha2_.insert(a2);
    alpha3_.emplace_back(a3, a2);
  }
  std::sort(alpha3_.begin(), alpha3_.end());
  for (const auto& c : currency_list) {
    storage_.push_back(c.at("alpha_3").get<std::string>());
    if (NotMoney(storage_.back()) == nullptr) currencies_.insert(storage_.back());
  }
  // XK: Kosovo. User-assigned in ISO 3166-1, but the code the EU, IMF, SWIFT and CLDR use.
  alpha2_.insert("XK");
  // The blocklist is a static string: views into it are valid for the whole process.
  std::string_view list = embedded::kDisposableDomains;
  while (!list.empty()) {
    const size_t nl = list.find('\n');
    std::string_view line = list.substr(0, nl);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!line.empty() && line.front() != '#') disposable_.insert(line);
    if (nl == std::string_view::npos) break;
    list.remove_prefix(nl + 1);
  }
}

bool ReferenceData::IsCountryAlpha2(std::string_view code) const {
  return alpha2_.count(code) != 0;
}

std::optional<std::string_view> ReferenceData::Alpha3ToAlpha2(std::string_view code) const {
  auto it = std::lower_bound(alpha3_.begin(), alpha3_.end(), code,
                             [](const auto& p, std::string_view c) { return p.first < c; });
  if (it == alpha3_.end() || it->first != code) return std::nullopt;
  return it->second;
}

const char* ReferenceData::NotMoney(std::string_view code) {
  struct Entry {
    std::string_view code;
    const char* why;
  };
  static constexpr Entry kNotMoney[] = {
      {"HRK", "withdrawn (Croatia uses EUR since 2023-01-01)"},
      {"BOV", "a fund code (Bolivian Mvdol)"},
      {"CHE", "a fund code (WIR euro)"},
      {"CHW", "a fund code (WIR franc)"},
      {"CLF", "a fund code (Chilean Unidad de Fomento)"},
      {"COU", "a fund code (Colombian Unidad de Valor Real)"},
      {"MXV", "a fund code (Mexican Unidad de Inversion)"},
      {"USN", "a fund code (US dollar next day)"},
      {"UYI", "a fund code (Uruguay peso en unidades indexadas)"},
      {"UYW", "a fund code (Uruguay unidad previsional)"},
      {"XAU", "a precious metal (gold)"},
      {"XAG", "a precious metal (silver)"},
      {"XPD", "a precious metal (palladium)"},
      {"XPT", "a precious metal (platinum)"},
      {"XDR", "a supranational unit (IMF special drawing right)"},
      {"XSU", "a supranational unit (Sucre)"},
      {"XUA", "a supranational unit (ADB unit of account)"},
      {"XBA", "a bond-market unit"},
      {"XBB", "a bond-market unit"},
      {"XBC", "a bond-market unit"},
      {"XBD", "a bond-market unit"},
      {"XTS", "the code reserved for testing"},
      {"XXX", "the code for no currency"},
  };
  for (const Entry& e : kNotMoney) {
    if (e.code == code) return e.why;
  }
  return nullptr;
}

bool ReferenceData::IsCurrency(std::string_view code) const { return currencies_.count(code) != 0; }

bool ReferenceData::IsDisposableDomain(std::string_view domain) const {
  // Try the domain, then each parent, stopping before the bare top-level domain.
  while (domain.find('.') != std::string_view::npos) {
    if (disposable_.count(domain) != 0) return true;
    domain.remove_prefix(domain.find('.') + 1);
  }
  return false;
}

}  // namespace dq::validator
