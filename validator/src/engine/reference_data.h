// Immutable lookup data the rules consult: ISO 3166-1 countries and ISO 4217 currencies (from
// Debian's iso-codes, embedded at build time), disposable e-mail domains (vendored CC0 list) and
// Google's product taxonomy (embedded when the build found the file; empty otherwise:
// validator/data/README.md). Loaded once per process; thread-safe to read.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "taxonomy.h"

namespace dq::validator {

class ReferenceData {
 public:
  // The process-wide instance, built from the embedded data on first use.
  static const ReferenceData& Default();
  // The embedded data with another taxonomy (a file's text; tests use an excerpt of their own).
  static std::unique_ptr<const ReferenceData> WithTaxonomy(std::string_view taxonomy_text);

  // Exact, upper-case codes.
  bool IsCountryAlpha2(std::string_view code) const;
  // "DEU" -> "DE"; nullopt if unknown.
  std::optional<std::string_view> Alpha3ToAlpha2(std::string_view code) const;
  // A current ISO 4217 currency: iso-codes' list minus the codes NotMoney() names.
  bool IsCurrency(std::string_view code) const;
  // Why an ISO 4217 code is no money for a price ("withdrawn (replaced by EUR on 2023-01-01)",
  // "a fund code", "a precious metal", ...), or nullptr for any other code.
  static const char* NotMoney(std::string_view code);
  // True when domain (lower-case) or one of its parent domains, never the bare top-level
  // domain, is on the disposable list.
  bool IsDisposableDomain(std::string_view domain) const;

  // Google's product taxonomy; empty() when none was shipped with this build.
  const GoogleTaxonomy& taxonomy() const { return taxonomy_; }

  size_t country_count() const { return alpha2_.size(); }
  size_t currency_count() const { return currencies_.size(); }
  size_t disposable_count() const { return disposable_.size(); }

 private:
  explicit ReferenceData(std::string_view taxonomy_text);

  std::vector<std::string> storage_;  // owns the strings the sets view
  std::unordered_set<std::string_view> alpha2_;
  std::vector<std::pair<std::string_view, std::string_view>> alpha3_;  // sorted by alpha-3
  std::unordered_set<std::string_view> currencies_;
  std::unordered_set<std::string_view> disposable_;
  GoogleTaxonomy taxonomy_;
};

}  // namespace dq::validator
