#include "dq/ingest/source_scan.h"

#include "dq/common/ascii.h"

#include <algorithm>

#include "dq/ingest/value_evidence.h"

namespace dq::ingest {

void SourceScan::Row(const std::vector<std::string>& header,
                     std::span<const std::string_view> row) {
  if (decided_) {
    Count(row);
    return;
  }
  sample_.emplace_back(row.begin(), row.end());
  if (reader_ != nullptr) {
    const auto ns = reader_->xml_namespaces();
    if (ns.size() != xml_namespaces_.size()) xml_namespaces_.assign(ns.begin(), ns.end());
  }
  if (sample_.size() >= kSampleRows) Decide(header);
}

void SourceScan::Finish(const std::vector<std::string>& header) {
  if (!decided_) Decide(header);
  if (options_.mapping || rows_ == 0) return;
  for (const auto& [column, filled] : core_filled_) {
    if (filled) continue;
    for (auto it = mapping_.begin(); it != mapping_.end();) {
      if (it->second == header[column]) {
        empty_core_.push_back(*it);
        inferred_.erase(std::remove_if(inferred_.begin(), inferred_.end(),
                                       [&](const InferredColumn& c) { return c.field == it->first; }),
                        inferred_.end());
        it = mapping_.erase(it);
      } else {
        ++it;
      }
    }
  }
}

void SourceScan::Decide(const std::vector<std::string>& header) {
  decided_ = true;
  reader_ = nullptr;  // the reader may be gone by Finish()
  for (auto& row : sample_) row.resize(header.size());  // JSON: the header grew meanwhile
  detection_ = DetectSource(header, sample_, options_.claimed_source, xml_namespaces_);
  if (options_.mapping) {
    mapping_ = *options_.mapping;
  } else {
    InferredMapping inferred = InferMappingFrom(header, sample_, *detection_.profile);
    mapping_ = std::move(inferred.mapping);
    inferred_ = std::move(inferred.columns);
  }
  for (const auto& [field, column] : mapping_) {
    for (size_t i = 0; i < header.size(); ++i) {
      if (header[i] != column) continue;
      if (field == "gtin") gtin_column_ = i;
      const SourceConvention* c = ConventionFor(*detection_.profile, field, column);
      if (c != nullptr && c->zero_is_empty) {
        // A column named twice: the last one holds the field's values (JobOutput).
        if (zero_rows_.empty() || zero_rows_.back().field != field) {
          zero_rows_.push_back({field, column, 0});
          zero_columns_.push_back(i);
        }
        zero_columns_.back() = i;
      }
      const auto& optional = detection_.profile->optional_fields;
      if (IsCoreField(field) &&
          std::find(optional.begin(), optional.end(), field) != optional.end()) {
        core_filled_.emplace_back(i, false);
      }
    }
  }
  ColumnEvidence evidence(mapping_, header);
  for (const auto& row : sample_) {
    std::vector<std::string_view> views(row.begin(), row.end());
    Count(views);
    evidence.Row(views);
  }
  list_separators_ = evidence.list_separators();
  weight_unit_example_ = evidence.weight_unit_example();
}

void SourceScan::Count(std::span<const std::string_view> row) {
  ++rows_;
  if (gtin_column_ < row.size()) gtin_.Add(row[gtin_column_]);
  for (size_t z = 0; z < zero_columns_.size(); ++z) {
    if (zero_columns_[z] < row.size() && ascii::IsZeroNumber(row[zero_columns_[z]])) ++zero_rows_[z].rows;
  }
  for (auto& [column, filled] : core_filled_) {
    if (!filled && column < row.size()) {
      const std::string_view v = row[column];
      filled = v.find_first_not_of(" \t") != std::string_view::npos;
    }
  }
}

}  // namespace dq::ingest
