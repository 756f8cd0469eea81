#include "validate_records.h"

#include <algorithm>
#include <span>
#include <unordered_map>

#include "dq/ingest/check_plan.h"
#include "dq/ingest/row_model.h"
#include "dq/ingest/source_profile.h"
#include "dq/ingest/source_scan.h"
#include "dq/ingest/value_evidence.h"
#include "dq/common/ascii.h"

namespace dq::gateway::records {
namespace {

// The source's further columns checked as a field's, among the records' keys (in first-seen
// order, as an upload's header): Magento's small_image beside base_image.
void ResolveExtraColumns(ValidateCommand& cmd) {
  const ingest::SourceProfile* profile =
      cmd.source.empty() ? nullptr : ingest::FindSourceProfile(cmd.source);
  if (profile == nullptr || profile->also_checked.empty()) return;
  std::vector<std::string> header;
  std::unordered_map<std::string_view, size_t> seen;
  for (const auto& member : cmd.members) {
    if (seen.emplace(member.key, header.size()).second) header.emplace_back(member.key);
  }
  cmd.extra_columns = ingest::AlsoCheckedColumns(*profile, header, cmd.mapping);
}

void AddName(ValidateCommand& cmd, std::string_view name) {
  cmd.item_names.append(name);
  cmd.item_name_ends.push_back(static_cast<uint32_t>(cmd.item_names.size()));
}

// The records whose value is a zero that the source's profile reads as no value (its
// zero_is_empty convention: Shopify's Variant Grams 0), counted per mapped column, for the same
// note the job gives (SourceScan::zero_rows counts an upload's rows so).
std::vector<ingest::ZeroRows> ZeroRowsOf(const ValidateCommand& cmd,
                                         const ingest::SourceProfile* profile) {
  std::vector<ingest::ZeroRows> zeros;
  if (profile == nullptr) return zeros;
  const size_t width = cmd.columns.size();
  for (size_t m = 0; m < cmd.mapping.size(); ++m) {
    const auto& [field, column] = cmd.mapping[m];
    const ingest::SourceConvention* c = ingest::ConventionFor(*profile, field, column);
    if (c == nullptr || !c->zero_is_empty) continue;
    ingest::ZeroRows z{field, column, 0};
    for (size_t r = 0; r < cmd.records; ++r) {
      if (ascii::IsZeroNumber(cmd.cells[r * width + cmd.value_index[m]])) ++z.rows;
    }
    zeros.push_back(std::move(z));
  }
  return zeros;
}

}  // namespace

// Resolves the mapped columns of every record: distinct columns, cells, and which member of a
// record feeds each column (the last occurrence of a repeated key); and the extra columns' cells.
void ResolveColumns(ValidateCommand& cmd) {
  ResolveExtraColumns(cmd);
  const size_t extras = cmd.extra_columns.size();
  cmd.extra_cells.assign(cmd.records * extras, std::string_view());
  for (const auto& [field, column] : cmd.mapping) {
    auto it = std::find(cmd.columns.begin(), cmd.columns.end(), column);
    cmd.value_index.push_back(static_cast<uint32_t>(it - cmd.columns.begin()));
    if (it == cmd.columns.end()) cmd.columns.push_back(column);
  }
  const size_t width = cmd.columns.size();
  cmd.cells.assign(cmd.records * width, std::string_view());
  cmd.member_column.assign(cmd.members.size(), -1);
  std::vector<int64_t> last(width);
  // Records usually list their keys in the same order, so the k-th member of the previous record
  // predicts the k-th member's column: one key comparison per member instead of a search over
  // the columns.
  struct Seen {
    std::string_view key;
    int32_t column;
  };
  std::vector<Seen> at_position;
  for (size_t r = 0; r < cmd.records; ++r) {
    std::fill(last.begin(), last.end(), -1);
    const uint32_t begin = cmd.record_begin[r];
    for (uint32_t m = begin; m < cmd.record_begin[r + 1]; ++m) {
      const std::string_view key = cmd.members[m].key;
      const size_t k = m - begin;
      if (k >= at_position.size()) at_position.push_back({std::string_view(), -2});
      Seen& seen = at_position[k];
      if (seen.column == -2 || seen.key != key) {
        seen = {key, -1};
        for (size_t c = 0; c < width; ++c) {
          if (cmd.columns[c] == key) {
            seen.column = static_cast<int32_t>(c);
            break;
          }
        }
        for (size_t e = 0; seen.column < 0 && e < extras; ++e) {  // width + e: extra column e
          if (cmd.extra_columns[e].column == key) seen.column = static_cast<int32_t>(width + e);
        }
      }
      if (seen.column < 0) continue;
      const auto c = static_cast<size_t>(seen.column);
      if (c >= width) {  // the last occurrence counts, as for a mapped column
        cmd.extra_cells[r * extras + (c - width)] = cmd.members[m].value;
        continue;
      }
      if (last[c] >= 0) cmd.member_column[static_cast<size_t>(last[c])] = kSupersededMember;
      last[c] = m;
      cmd.member_column[m] = seen.column;
      cmd.cells[r * width + c] = cmd.members[m].value;
    }
  }
}

// The check plan (ingest/check_plan.h) and each record's kind and names, from the source's
// profile. Without a source every record is a product, named by its mapped sku and title.
void ResolveItems(ValidateCommand& cmd) {
  const ingest::SourceProfile* profile =
      cmd.source.empty() ? nullptr : ingest::FindSourceProfile(cmd.source);
  ingest::CheckPlanInput in;
  in.check_types = cmd.check_types;
  in.mapping = &cmd.mapping;
  in.profile = profile;
  in.caller_weight_unit = cmd.weight_unit;
  in.grams_when_unsaid = profile == nullptr;  // the specification's records: weight in grams
  // The first records' values, as an upload's first rows (SourceScan): list cells, weight units.
  ingest::ColumnEvidence evidence(cmd.mapping, cmd.columns);
  const size_t columns = cmd.columns.size();
  const std::span<const std::string_view> cells(cmd.cells);
  for (size_t r = 0; r < std::min(cmd.records, ingest::SourceScan::kSampleRows); ++r) {
    evidence.Row(cells.subspan(r * columns, columns));
  }
  const ingest::Mapping lists = evidence.list_separators();
  in.list_separators = &lists;
  in.weight_unit_example = evidence.weight_unit_example();
  const std::vector<ingest::ZeroRows> zeros = ZeroRowsOf(cmd, profile);
  in.zero_rows = zeros;
  ingest::CheckPlan plan = ingest::PlanChecks(in);
  cmd.spec_weight_unit = std::move(plan.weight_unit);
  cmd.conventions = std::move(plan.conventions);
  cmd.notes = std::move(plan.notes);

  const size_t width = cmd.columns.size();
  size_t sku = SIZE_MAX, title = SIZE_MAX, gtin = SIZE_MAX;
  for (size_t m = 0; m < cmd.mapping.size(); ++m) {
    if (cmd.mapping[m].first == "sku") sku = cmd.value_index[m];
    if (cmd.mapping[m].first == "title") title = cmd.value_index[m];
    if (cmd.mapping[m].first == "gtin") gtin = cmd.value_index[m];
  }
  if (gtin != SIZE_MAX) {
    ingest::GtinPaddingEvidence evidence;
    for (size_t r = 0; r < cmd.records; ++r) evidence.Add(cmd.cells[r * width + gtin]);
    cmd.gtin_padding_evidence = evidence.evidence();
  }
  auto cell = [&](size_t r, size_t c) {
    return c == SIZE_MAX ? std::string_view() : cmd.cells[r * width + c];
  };
  if (profile == nullptr || profile == &ingest::GenericProfile()) {
    for (size_t r = 0; r < cmd.records; ++r) {
      AddName(cmd, cell(r, sku));
      AddName(cmd, {});
      AddName(cmd, cell(r, title));
    }
    return;
  }
  // The row model reads columns the mapping may not name (Handle, Type, Parent): every key of
  // the records is a column, in first-seen order.
  std::vector<std::string> header;
  std::unordered_map<std::string_view, size_t> column_of;
  for (const auto& member : cmd.members) {
    if (column_of.emplace(member.key, header.size()).second) header.emplace_back(member.key);
  }
  auto column = [&](size_t value_column) {
    if (value_column == SIZE_MAX) return SIZE_MAX;
    auto it = column_of.find(cmd.columns[value_column]);
    return it == column_of.end() ? SIZE_MAX : it->second;
  };
  ingest::RowModel model(*profile, header, column(sku), column(title));
  std::vector<std::string_view> row(header.size());
  for (size_t r = 0; r < cmd.records; ++r) {
    std::fill(row.begin(), row.end(), std::string_view());
    for (uint32_t m = cmd.record_begin[r]; m < cmd.record_begin[r + 1]; ++m) {
      row[column_of[cmd.members[m].key]] = cmd.members[m].value;  // the last occurrence wins
    }
    const ingest::RowKind kind = model.Next(row);
    if (!model.all_products()) cmd.kinds.push_back(static_cast<uint8_t>(kind));
    AddName(cmd, model.sku());
    AddName(cmd, model.item_id());
    AddName(cmd, model.title());
    // A parent no variant followed is the product (row_model.h, pending()), as on the job path.
    if (const auto back = model.revised(); back && *back < cmd.kinds.size()) {
      cmd.kinds[cmd.kinds.size() - 1 - *back] = static_cast<uint8_t>(ingest::RowKind::kProduct);
    }
  }
  if (const auto back = model.End(); back && *back < cmd.kinds.size()) {
    cmd.kinds[cmd.kinds.size() - 1 - *back] = static_cast<uint8_t>(ingest::RowKind::kProduct);
  }
}

}  // namespace dq::gateway::records
