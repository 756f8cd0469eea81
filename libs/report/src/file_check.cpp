#include "dq/report/file_check.h"

#include <algorithm>

#include "dq/common/date_order.h"
#include "dq/ingest/check_plan.h"
#include "dq/ingest/mapping_inference.h"

#include <nlohmann/json.hpp>

#include "dq/report/check_options.h"

namespace dq::report {
namespace {

Status Invalid(const std::string& field, const std::string& message) {
  return Status(ErrorCode::kInvalidRequest, field + ": " + message, {{field, message}});
}

// The order the expiry_date column's dates show over the whole file; "" when the scan did not
// learn orders (no inventory check) or the column is unmapped.
std::string ExpiryDateOrder(const std::vector<std::pair<std::string, std::string>>& mapping,
                            const ingest::FileSummary& summary) {
  for (const auto& [field, column] : mapping) {
    if (field != "expiry_date") continue;
    for (size_t i = 0; i < summary.header.size() && i < summary.date_orders.size(); ++i) {
      if (summary.header[i] == column) return std::string(dates::Name(summary.date_orders[i]));
    }
  }
  return "";
}

}  // namespace

void ApplyScan(const ingest::SourceScan& scan, std::span<const std::string> check_types,
               const std::string& weight_unit, FileCheck& check) {
  const ingest::SourceDetection& d = scan.detection();
  check.source = d.profile->source;
  check.source_reason = d.reason;
  ingest::CheckPlanInput in;
  in.check_types = check_types;
  in.mapping = &check.mapping;
  in.profile = d.profile;
  in.caller_weight_unit = weight_unit;
  in.empty_columns = &scan.empty_core_columns();
  in.list_separators = &scan.list_separators();
  in.weight_unit_example = scan.weight_unit_example();
  in.zero_rows = scan.zero_rows();
  ingest::CheckPlan plan = ingest::PlanChecks(in);
  check.notes = d.notes;
  for (auto& note : plan.notes) {
    if (note.starts_with("The weight column")) {
      check.unit_note = std::move(note);
    } else {
      check.notes.push_back(std::move(note));
    }
  }
  check.planned = true;
  check.weight_unit = plan.weight_unit;
  check.conventions = ConventionsJson(plan.conventions);
  check.gtin_padding_evidence = scan.gtin_padding_evidence();
}

std::string ConventionsJson(const std::vector<ingest::SourceConvention>& conventions) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& c : conventions) {
    nlohmann::json aliases = nlohmann::json::object();
    for (const auto& [from, to] : c.value_aliases) aliases[from] = to;
    nlohmann::json one = {{"field", c.field},
                          {"list_separator", c.list_separator},
                          {"value_aliases", std::move(aliases)}};
    // Only when set, so that a job stored before these members reads the same.
    if (c.own_number_format) one["own_number_format"] = true;
    if (!c.file_extensions.empty()) one["file_extensions"] = c.file_extensions;
    if (c.html) one["html"] = true;
    if (c.may_be_empty) one["may_be_empty"] = true;
    if (c.zero_is_empty) one["zero_is_empty"] = true;
    if (!c.empty_values.empty()) one["empty_values"] = c.empty_values;
    if (c.renamed_file_names) one["renamed_file_names"] = true;
    out.push_back(std::move(one));
  }
  return out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

Result<FilePlan> PlanFile(const ingest::PreparedFile& file, const CheckRequest& request) {
  const auto& check_types = request.check_types;
  const bool inventory =
      std::find(check_types.begin(), check_types.end(), "inventory") != check_types.end();
  ingest::SourceScan scan({request.source, request.mapping});
  auto summary =
      ingest::ScanFile(file.format, file.data(), {}, /*learn_date_orders=*/inventory, &scan);
  if (!summary.ok()) return summary.status();
  scan.Finish(summary->header);

  FilePlan plan;
  FileCheck& check = plan.check;
  check.mapping_inferred = !request.mapping.has_value();
  if (request.mapping) {
    if (Status s = CheckMappingColumns(*request.mapping, summary->header); !s.ok()) return s;
  }
  check.mapping = scan.mapping();
  if (!request.mapping && check.mapping.empty()) {
    return Invalid("mapping",
                   "none of the file's columns could be matched to a standard field; send a "
                   "mapping");
  }
  plan.misfit = ingest::CheckTypesMisfit(check_types, check.mapping);
  ApplyScan(scan, check_types, request.weight_unit, check);
  std::vector<CheckType> types;
  for (const auto& name : check_types) {
    if (auto t = ParseCheckType(name)) types.push_back(*t);  // checked by ParseCheckTypes
  }
  check.check_types = CheckTypeList(std::move(types));
  check.platform = request.platform;
  check.format = file.format;
  check.encoding = file.encoding;
  check.dialect = summary->dialect;
  check.expiry_date_order = ExpiryDateOrder(check.mapping, *summary);
  check.header = std::move(summary->header);
  plan.data_rows = summary->data_rows;
  return plan;
}

nlohmann::json FileCheckJson(const FileCheck& c) {
  using nlohmann::json;
  json mapping = json::object();
  for (const auto& [field, column] : c.mapping) mapping[field] = column;
  // What inference left unmapped on purpose, and why (ingest::MappingNotes).
  std::vector<std::string> mapping_notes =
      c.mapping_inferred ? ingest::MappingNotes(c.header, c.mapping) : std::vector<std::string>{};
  if (!c.unit_note.empty()) mapping_notes.push_back(c.unit_note);
  return {{"check_types", c.check_types.Text()},
          {"platform", c.platform.empty() ? json(nullptr) : json(c.platform)},
          {"source", c.source.empty() ? json(nullptr) : json(c.source)},
          {"source_reason", c.source_reason.empty() ? json(nullptr) : json(c.source_reason)},
          {"notes", c.notes},
          {"mapping", std::move(mapping)},
          {"mapping_inferred", c.mapping_inferred},
          {"mapping_notes", std::move(mapping_notes)},
          {"format", std::string(ingest::FormatName(c.format))},
          {"encoding", c.encoding}};
}

}  // namespace dq::report
