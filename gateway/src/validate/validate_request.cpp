#include "validate_request.h"

#include "../http/json_util.h"
#include "dq/common/vocabulary.h"
#include "ingest/mapping_inference.h"

namespace dq::gateway {
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

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
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
        Trim(text.substr(start, comma == std::string_view::npos ? std::string_view::npos
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

Result<ValidateCommand> ParseValidateRequest(std::string_view body, size_t max_records) {
  if (!JsonNestingWithin(body)) {
    return Invalid({{"body", "nests arrays or objects more than " +
                                 std::to_string(kMaxJsonDepth) + " levels deep"}});
  }
  json doc = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) {
    return Status(ErrorCode::kInvalidJson, "The request body is not valid JSON.");
  }
  if (!doc.is_object()) {
    return Invalid({{"body", "must be a JSON object, not " + std::string(JsonTypeName(doc))}});
  }
  ValidateCommand cmd;
  std::vector<ErrorDetail> problems;

  auto records = doc.find("records");
  if (records == doc.end()) {
    problems.push_back({"records", "is required"});
  } else if (!records->is_array()) {
    problems.push_back({"records", "must be an array of objects, not " +
                                       std::string(JsonTypeName(*records))});
  } else {
    if (records->size() > max_records) {
      return Status(ErrorCode::kTooManyRecords,
                    "A call may validate at most " + std::to_string(max_records) +
                        " records; this one has " + std::to_string(records->size()) +
                        ". Split it, or upload a file to /v1/jobs.");
    }
    for (size_t i = 0; i < records->size(); ++i) {
      if (!(*records)[i].is_object()) {
        problems.push_back({"records[" + std::to_string(i) + "]",
                            "must be an object, not " + std::string(JsonTypeName((*records)[i]))});
      }
    }
  }

  auto mapping = doc.find("mapping");
  if (mapping == doc.end()) {
    problems.push_back({"mapping", "is required"});
  } else {
    auto parsed = ParseMapping(*mapping);
    if (parsed.ok()) {
      cmd.mapping = std::move(*parsed);
    } else {
      for (const auto& d : parsed.status().details()) problems.push_back(d);
    }
  }

  if (auto ct = doc.find("check_types"); ct != doc.end() && !ct->is_null()) {
    if (!ct->is_string()) {
      problems.push_back({"check_types", "must be a comma-separated string, not " +
                                             std::string(JsonTypeName(*ct))});
    } else {
      auto parsed = ParseCheckTypes(ct->get<std::string>());
      if (parsed.ok()) {
        cmd.check_types = std::move(*parsed);
      } else {
        for (const auto& d : parsed.status().details()) problems.push_back(d);
      }
    }
  } else {
    cmd.check_types = {"product"};
  }

  if (auto pf = doc.find("platform"); pf != doc.end() && !pf->is_null()) {
    if (!pf->is_string()) {
      problems.push_back({"platform", "must be a string, not " + std::string(JsonTypeName(*pf))});
    } else if (Status s = CheckPlatform(pf->get<std::string>()); !s.ok()) {
      problems.push_back(s.details()[0]);
    } else {
      cmd.platform = pf->get<std::string>();
    }
  }

  for (const auto& [key, value] : doc.items()) {
    if (key != "records" && key != "mapping" && key != "check_types" && key != "platform") {
      problems.push_back({key, "is not a member of a validate request"});
    }
  }
  if (!problems.empty()) return Invalid(std::move(problems));
  cmd.records = std::move(*records);
  return cmd;
}

std::string CellText(const json& value) {
  switch (value.type()) {
    case json::value_t::null:
    case json::value_t::discarded: return "";
    case json::value_t::string: return value.get<std::string>();
    default: return value.dump(-1, ' ', false, json::error_handler_t::replace);
  }
}

validator::v1::ValidateRequest BuildValidatorRequest(const ValidateCommand& command) {
  validator::v1::ValidateRequest req;
  auto* spec = req.mutable_spec();
  for (const auto& [field, column] : command.mapping) spec->add_fields(field);
  for (const auto& c : command.check_types) spec->add_check_types(c);
  spec->set_platform(command.platform);
  for (const auto& [field, column] : command.mapping) {
    if (field == "weight") spec->set_weight_unit(ingest::WeightUnitOfColumn(column));
  }
  for (const auto& record : command.records) {
    auto* row = req.add_rows();
    for (const auto& [field, column] : command.mapping) {
      auto it = record.find(column);
      row->add_values(it == record.end() ? std::string() : CellText(*it));
    }
  }
  return req;
}

json BuildValidateResponse(const ValidateCommand& command,
                           const validator::v1::ValidateResponse& result) {
  const auto& st = result.stats();
  json out;
  out["stats"] = {{"rows", st.rows()},         {"errors", st.errors()},
                  {"warnings", st.warnings()}, {"fixes", st.fixes()},
                  {"score", st.score()}};
  json issues = json::array();
  json cleaned = command.records;
  for (const auto& i : result.issues()) {
    json item = {{"row", i.row()},
                 {"severity", i.severity() == validator::v1::SEVERITY_ERROR ? "error" : "warning"},
                 {"field", i.field()},
                 {"code", i.code()},
                 {"message", i.message()},
                 {"original_value", i.original_value()},
                 {"fixed_value", i.has_fixed_value() ? json(i.fixed_value()) : json(nullptr)}};
    issues.push_back(std::move(item));
    if (i.has_fixed_value() && i.row() >= 1 && i.row() <= cleaned.size()) {
      for (const auto& [field, column] : command.mapping) {
        if (field == i.field()) cleaned[i.row() - 1][column] = i.fixed_value();
      }
    }
  }
  out["issues"] = std::move(issues);
  out["cleaned"] = std::move(cleaned);
  return out;
}

}  // namespace dq::gateway
