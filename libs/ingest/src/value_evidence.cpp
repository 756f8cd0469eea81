#include "dq/ingest/value_evidence.h"

#include "dq/common/ascii.h"
#include "dq/ingest/mapping_inference.h"

namespace dq::ingest {
namespace {

bool IsHttpUrlStart(std::string_view item) {
  auto starts = [&](std::string_view scheme) {
    return item.size() > scheme.size() &&
           ascii::Lower(item.substr(0, scheme.size())) == scheme;
  };
  return starts("http://") || starts("https://");
}

// 0: the cell does not hold the separator; 1: it is a list by it (two or more items, two or
// more of them URLs: one bad item does not unmake a list); -1: it holds it and is not one.
int ListBy(std::string_view cell, std::string_view sep) {
  if (cell.find(sep) == std::string_view::npos) return 0;
  size_t items = 0, urls = 0;
  for (size_t pos = 0;;) {
    const size_t end = std::min(cell.find(sep, pos), cell.size());
    const std::string_view item = ascii::Trim(cell.substr(pos, end - pos));
    if (!item.empty()) {
      ++items;
      if (IsHttpUrlStart(item)) ++urls;
    }
    if (end == cell.size()) break;
    pos = end + sep.size();
  }
  return items >= 2 && urls >= 2 ? 1 : -1;
}

}  // namespace

void ListSeparatorEvidence::Add(std::string_view cell) {
  cell = ascii::Trim(cell);
  if (cell.empty() || cell.front() == '[') return;  // a JSON array: a list by its own syntax
  for (size_t k = 0; k < kCandidates.size(); ++k) {
    const int by = ListBy(cell, kCandidates[k]);
    if (by > 0) ++lists_[k];
    if (by < 0) ++others_[k];
  }
}

std::string_view ListSeparatorEvidence::separator() const {
  for (size_t k = 0; k < kCandidates.size(); ++k) {
    if (lists_[k] > 0 && others_[k] * 10 <= lists_[k]) return kCandidates[k];
  }
  return {};
}

bool NamesWeightUnit(std::string_view value) {
  value = ascii::Trim(value);
  size_t i = 0, digits = 0;
  while (i < value.size() &&
         ((value[i] >= '0' && value[i] <= '9') || value[i] == '.' || value[i] == ',')) {
    if (value[i] >= '0' && value[i] <= '9') ++digits;
    ++i;
  }
  if (digits == 0) return false;
  std::string_view unit = ascii::Trim(value.substr(i));
  if (!unit.empty() && unit.back() == '.') unit.remove_suffix(1);  // "lbs."
  if (unit.empty()) return false;
  for (char c : unit) {
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) return false;
  }
  return !WeightUnitOfColumn(unit).empty();
}

ColumnEvidence::ColumnEvidence(const Mapping& mapping, std::span<const std::string> header) {
  for (const auto& [field, column] : mapping) {
    const bool urls = field == "image_url" || field == "additional_image_link";
    if (!urls && field != "weight") continue;
    // A column named twice: the last one holds the field's values (JobOutput checks it).
    size_t at = SIZE_MAX;
    for (size_t c = 0; c < header.size(); ++c) {
      if (header[c] == column) at = c;
    }
    if (at == SIZE_MAX) continue;
    if (urls) {
      urls_.push_back({field, at, {}});
    } else {
      weight_column_ = at;
    }
  }
}

void ColumnEvidence::Row(std::span<const std::string_view> row) {
  for (Urls& u : urls_) {
    if (u.column < row.size()) u.evidence.Add(row[u.column]);
  }
  if (weight_column_ >= row.size()) return;
  const std::string_view w = ascii::Trim(row[weight_column_]);
  if (w.empty()) return;
  ++weights_filled_;
  if (!NamesWeightUnit(w)) return;
  ++weights_named_;
  if (weight_example_.empty()) weight_example_ = std::string(w);
}

Mapping ColumnEvidence::list_separators() const {
  Mapping out;
  for (const Urls& u : urls_) {
    if (const std::string_view sep = u.evidence.separator(); !sep.empty()) {
      out.emplace_back(u.field, std::string(sep));
    }
  }
  return out;
}

std::string ColumnEvidence::weight_unit_example() const {
  return weights_named_ * 2 > weights_filled_ ? weight_example_ : std::string();
}

}  // namespace dq::ingest
