// The check types as a type: CheckType is one of the specification's five (kCheckTypes), and
// CheckTypeList the ones a request or a job asked for, in the order asked. The API's text form,
// "product,price", is made and read here only; what a job stores and answers is that text,
// unchanged.
//
//   auto list = CheckTypeList::FromNames({"price", "product"});   // nullopt: an unknown name
//   list->Has(CheckType::kPrice);                                  // true
//   list->Text();                                                  // "price,product"
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dq/common/vocabulary.h"

namespace dq {

// In kCheckTypes order: static_cast<size_t>(type) is the index there.
enum class CheckType { kProduct, kCustomer, kShipping, kInventory, kPrice };

inline std::string_view CheckTypeName(CheckType type) {
  return kCheckTypes[static_cast<size_t>(type)];
}

// nullopt for a name that is not one of kCheckTypes.
inline std::optional<CheckType> ParseCheckType(std::string_view name) {
  auto i = IndexOf(kCheckTypes, name);
  if (!i) return std::nullopt;
  return static_cast<CheckType>(*i);
}

class CheckTypeList {
 public:
  CheckTypeList() = default;
  explicit CheckTypeList(std::vector<CheckType> types) : types_(std::move(types)) {}

  // Names already checked (ParseCheckTypes in dq/report/check_options.h); nullopt if one is
  // unknown.
  static std::optional<CheckTypeList> FromNames(std::span<const std::string> names) {
    std::vector<CheckType> types;
    for (const auto& n : names) {
      auto t = ParseCheckType(n);
      if (!t) return std::nullopt;
      types.push_back(*t);
    }
    return CheckTypeList(std::move(types));
  }

  // From the stored text, "product,price". An empty or unknown item is skipped: stored jobs
  // hold only names that were checked when they were uploaded.
  static CheckTypeList FromText(std::string_view text) {
    std::vector<CheckType> types;
    size_t at = 0;
    while (at <= text.size()) {
      size_t comma = text.find(',', at);
      if (comma == std::string_view::npos) comma = text.size();
      if (auto t = ParseCheckType(text.substr(at, comma - at))) types.push_back(*t);
      at = comma + 1;
    }
    return CheckTypeList(std::move(types));
  }

  // "product,price": the names in the order asked, joined by commas.
  std::string Text() const {
    std::string out;
    for (size_t i = 0; i < types_.size(); ++i) {
      if (i) out += ',';
      out += CheckTypeName(types_[i]);
    }
    return out;
  }
  std::vector<std::string> Names() const {
    std::vector<std::string> out;
    for (CheckType t : types_) out.emplace_back(CheckTypeName(t));
    return out;
  }
  bool Has(CheckType type) const {
    for (CheckType t : types_) {
      if (t == type) return true;
    }
    return false;
  }
  const std::vector<CheckType>& types() const { return types_; }
  bool empty() const { return types_.empty(); }

  bool operator==(const CheckTypeList&) const = default;

 private:
  std::vector<CheckType> types_;
};

}  // namespace dq
