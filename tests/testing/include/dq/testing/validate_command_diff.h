// Compares two readings of one POST /v1/validate body, by value: the route's reader (simdjson
// tokens, then the upload parser) against the upload parser alone. Used by the unit tests and by
// fuzz_validate_body, which abort on the first difference. Header-only so the fuzz target, which
// links no test library, can use it.
#pragma once

#include <string>
#include <string_view>

#include "validate/validate_request.h"

namespace dq::testing {

// "" when both readings are the same: the same error (code, message and details), or commands
// with the same members (keys, values, kinds and raw text), cells (the extra columns' too),
// mapping and options.
inline std::string DescribeCommandDifference(const Result<gateway::ValidateCommand>& a,
                                             const Result<gateway::ValidateCommand>& b) {
  if (a.ok() != b.ok()) return a.ok() ? "only the first was accepted" : "only the second was accepted";
  if (!a.ok()) {
    const Status& x = a.status();
    const Status& y = b.status();
    if (x.code() != y.code()) return "error codes differ";
    if (x.message() != y.message()) return "messages differ: " + x.message() + " | " + y.message();
    if (x.details().size() != y.details().size()) return "detail counts differ";
    for (size_t k = 0; k < x.details().size(); ++k) {
      if (x.details()[k].field != y.details()[k].field ||
          x.details()[k].message != y.details()[k].message) {
        return "detail " + std::to_string(k) + " differs";
      }
    }
    return "";
  }
  const gateway::ValidateCommand& x = *a;
  const gateway::ValidateCommand& y = *b;
  if (x.mapping != y.mapping) return "mappings differ";
  if (x.check_types != y.check_types) return "check types differ";
  if (x.platform != y.platform) return "platforms differ";
  if (x.records != y.records) return "record counts differ";
  if (x.columns != y.columns || x.value_index != y.value_index) return "columns differ";
  if (x.record_begin != y.record_begin) return "record bounds differ";
  if (x.member_column != y.member_column) return "member columns differ";
  if (x.cells.size() != y.cells.size()) return "cell counts differ";
  for (size_t k = 0; k < x.cells.size(); ++k) {
    if (x.cells[k] != y.cells[k]) return "cell " + std::to_string(k) + " differs";
  }
  if (x.extra_columns.size() != y.extra_columns.size()) return "extra column counts differ";
  for (size_t k = 0; k < x.extra_columns.size(); ++k) {
    if (x.extra_columns[k].field != y.extra_columns[k].field ||
        x.extra_columns[k].column != y.extra_columns[k].column ||
        x.extra_columns[k].convention != y.extra_columns[k].convention) {
      return "extra column " + std::to_string(k) + " differs";
    }
  }
  if (x.extra_cells != y.extra_cells) return "extra cells differ";
  if (x.nested != y.nested || x.member_path != y.member_path || x.paths != y.paths ||
      x.path_names != y.path_names) {
    return "nested paths differ";
  }
  if (x.members.size() != y.members.size()) return "member counts differ";
  for (size_t k = 0; k < x.members.size(); ++k) {
    const auto& m = x.members[k];
    const auto& n = y.members[k];
    if (m.key != n.key || m.raw_key != n.raw_key) return "member " + std::to_string(k) + "'s key differs";
    if (m.kind != n.kind || m.value != n.value || m.raw_value != n.raw_value) {
      return "member " + std::to_string(k) + "'s value differs";
    }
  }
  return "";
}

}  // namespace dq::testing
