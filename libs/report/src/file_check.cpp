#include "dq/report/file_check.h"

#include <algorithm>

#include "dq/common/date_order.h"
#include "dq/ingest/mapping_inference.h"
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

Result<FilePlan> PlanFile(const ingest::PreparedFile& file, const CheckRequest& request) {
  const auto& check_types = request.check_types;
  const bool inventory =
      std::find(check_types.begin(), check_types.end(), "inventory") != check_types.end();
  auto summary = ingest::ScanFile(file.format, file.data(), {}, /*learn_date_orders=*/inventory);
  if (!summary.ok()) return summary.status();

  FilePlan plan;
  FileCheck& check = plan.check;
  check.mapping_inferred = !request.mapping.has_value();
  if (request.mapping) {
    if (Status s = CheckMappingColumns(*request.mapping, summary->header); !s.ok()) return s;
    check.mapping = *request.mapping;
  } else {
    check.mapping = ingest::InferMapping(summary->header);
    if (check.mapping.empty()) {
      return Invalid("mapping",
                     "none of the file's columns could be matched to a standard field; send a "
                     "mapping");
    }
  }
  for (size_t i = 0; i < check_types.size(); ++i) {
    check.check_types += (i ? "," : "") + check_types[i];
  }
  check.platform = request.platform;
  check.format = file.format;
  check.encoding = file.encoding;
  check.dialect = summary->dialect;
  check.expiry_date_order = ExpiryDateOrder(check.mapping, *summary);
  check.header = std::move(summary->header);
  plan.data_rows = summary->data_rows;
  return plan;
}

}  // namespace dq::report
