#include "dq/ingest/source_scan.h"

namespace dq::ingest {

void SourceScan::Row(const std::vector<std::string>& header,
                     std::span<const std::string_view> row) {
  if (decided_) {
    Count(row);
    return;
  }
  sample_.emplace_back(row.begin(), row.end());
  if (sample_.size() >= kSampleRows) Decide(header);
}

void SourceScan::Finish(const std::vector<std::string>& header) {
  if (!decided_) Decide(header);
}

void SourceScan::Decide(const std::vector<std::string>& header) {
  decided_ = true;
  for (auto& row : sample_) row.resize(header.size());  // JSON: the header grew meanwhile
  detection_ = DetectSource(header, sample_, options_.claimed_source);
  if (options_.mapping) {
    mapping_ = *options_.mapping;
  } else {
    InferredMapping inferred = InferMappingFrom(header, sample_, *detection_.profile);
    mapping_ = std::move(inferred.mapping);
    inferred_ = std::move(inferred.columns);
  }
  for (const auto& [field, column] : mapping_) {
    if (field != "gtin") continue;
    for (size_t i = 0; i < header.size(); ++i) {
      if (header[i] == column) gtin_column_ = i;
    }
  }
  for (const auto& row : sample_) {
    std::vector<std::string_view> views(row.begin(), row.end());
    Count(views);
  }
}

void SourceScan::Count(std::span<const std::string_view> row) {
  if (gtin_column_ < row.size()) gtin_.Add(row[gtin_column_]);
}

}  // namespace dq::ingest
