#include "dq/report/check_options.h"

#include <algorithm>

#include "dq/common/ascii.h"
#include "dq/common/vocabulary.h"
#include "dq/ingest/source_profile.h"

namespace dq::report {
namespace {

using nlohmann::json;

std::string_view JsonTypeName(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return "null";
    case json::value_t::object: return "an object";
    case json::value_t::array: return "an array";
    case json::value_t::string: return "a string";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::discarded: return "invalid";
    default: return "a number";
  }
}

Status Invalid(std::vector<ErrorDetail> details) {
  std::string message = details.size() == 1
                            ? details[0].field + ": " + details[0].message
                            : "The request has " + std::to_string(details.size()) +
                                  " problems; see details.";
  return Status(ErrorCode::kInvalidRequest, std::move(message), std::move(details));
}

}  // namespace

Result<std::vector<std::string>> ParseCheckTypes(std::string_view text) {
  std::vector<std::string> out;
  std::vector<ErrorDetail> problems;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = text.find(',', start);
    const std::string_view item =
        ascii::Trim(text.substr(start, comma == std::string_view::npos ? std::string_view::npos
                                                                : comma - start));
    if (item.empty()) {
      problems.push_back({"check_types", "has an empty item; use e.g. \"product,price\""});
    } else if (!IndexOf(kCheckTypes, item)) {
      problems.push_back({"check_types", "unknown check type '" + std::string(item) +
                                             "'; use product, customer, shipping, inventory "
                                             "or price"});
    } else {
      out.emplace_back(item);
    }
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  if (!problems.empty()) return Invalid(std::move(problems));
  return out;
}

Result<std::vector<std::pair<std::string, std::string>>> ParseMapping(const json& m) {
  if (!m.is_object()) {
    return Invalid({{"mapping", "must be an object from standard field name to column name, "
                                "not " + std::string(JsonTypeName(m))}});
  }
  std::vector<ErrorDetail> problems;
  for (const auto& [key, value] : m.items()) {
    if (!IndexOf(kStandardFields, key)) {
      problems.push_back({"mapping." + key, "is not a standard field name"});
    } else if (!value.is_string() || value.get<std::string>().empty()) {
      problems.push_back({"mapping." + key, "must be a non-empty column name string"});
    }
  }
  if (!problems.empty()) return Invalid(std::move(problems));
  std::vector<std::pair<std::string, std::string>> out;
  for (std::string_view field : kStandardFields) {
    auto it = m.find(std::string(field));
    if (it != m.end()) out.emplace_back(field, it->get<std::string>());
  }
  return out;
}

Status CheckPlatform(std::string_view platform) {
  if (IndexOf(kPlatforms, platform)) return Status::Ok();
  return Invalid({{"platform", "unknown platform '" + std::string(platform) +
                                   "'; see docs/api.md for the eight template names"}});
}

Status CheckSource(std::string_view source) {
  if (ingest::FindSourceProfile(source) != nullptr) return Status::Ok();
  return Invalid({{"source", "unknown source '" + std::string(source) + "'; use one of " +
                                 ingest::SourceNamesList()}});
}

Status CheckWeightUnit(std::string_view unit) {
  if (unit == "g" || unit == "kg" || unit == "lb" || unit == "oz") return Status::Ok();
  return Invalid(
      {{"weight_unit", "unknown unit '" + std::string(unit) + "'; use g, kg, lb or oz"}});
}


Status CheckMappingColumns(const std::vector<std::pair<std::string, std::string>>& mapping,
                           const std::vector<std::string>& header) {
  std::vector<ErrorDetail> missing;
  for (const auto& [field, column] : mapping) {
    if (std::find(header.begin(), header.end(), column) == header.end()) {
      missing.push_back({"mapping." + field, "column '" + column + "' is not in the file"});
    }
  }
  if (missing.empty()) return Status::Ok();
  std::string message = missing[0].field + ": " + missing[0].message;
  return Status(ErrorCode::kInvalidRequest, message, std::move(missing));
}

}  // namespace dq::report
