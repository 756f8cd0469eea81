// What an upload's one pass over its rows learns before the job runs (the pre-pass): the source
// platform (from the header and the first rows), the inferred mapping when the caller sent none
// (from the header and the first rows' values), and the GTIN padding evidence over the whole
// gtin column. Fed by ScanFile (row_reader.h) as a RowObserver; the preview feeds it the rows it
// reads. Memory: the first kSampleRows rows, copied, until the source and mapping are decided.
//
//   SourceScan scan({.claimed_source = up.source, .mapping = up.mapping});
//   auto summary = ScanFile(format, bytes, {}, learn_dates, &scan);
//   scan.Finish(summary->header);
//   scan.detection().profile->source, scan.mapping(), scan.gtin_padding_evidence()
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dq/ingest/check_plan.h"
#include "dq/ingest/mapping_inference.h"
#include "dq/ingest/row_reader.h"
#include "dq/ingest/source_detect.h"

namespace dq::ingest {

class SourceScan : public RowObserver {
 public:
  // Rows the source and the inferred mapping are decided from.
  static constexpr size_t kSampleRows = 200;

  struct Options {
    std::string claimed_source;      // the caller's `source` ("" for none); a valid name
    std::optional<Mapping> mapping;  // the caller's mapping; nullopt: infer it
  };
  explicit SourceScan(Options options) : options_(std::move(options)) {}

  void Row(const std::vector<std::string>& header,
           std::span<const std::string_view> row) override;
  // The reader the rows come from (XML: its items' namespaces take part in detection). A
  // caller that feeds Row itself calls it before the first row.
  void Reading(const RowReader& reader) override { reader_ = &reader; }
  // After the last row, with the final header. An inferred mapping then drops a core field that
  // the source's platform does not require (SourceProfile::optional_fields) when its column is
  // empty in every row: checking it would blame every row for a value the platform never asked
  // for (Shopify exports without SKUs); the plan says so once instead (empty_core_columns()).
  void Finish(const std::vector<std::string>& header);

  const SourceDetection& detection() const { return detection_; }
  const Mapping& mapping() const { return mapping_; }
  // The inferred columns with their confidence (empty when the caller sent the mapping).
  const std::vector<InferredColumn>& inferred() const { return inferred_; }
  bool gtin_padding_evidence() const { return gtin_.evidence(); }
  // The (field, column) pairs Finish dropped from an inferred mapping.
  const Mapping& empty_core_columns() const { return empty_core_; }
  // What the mapped columns' first kSampleRows values say (value_evidence.h): the list
  // separators of URL fields, a weight that names its unit (CheckPlanInput).
  const Mapping& list_separators() const { return list_separators_; }
  const std::string& weight_unit_example() const { return weight_unit_example_; }
  // The mapped columns whose source convention reads a zero as no value
  // (SourceConvention::zero_is_empty), with the number of rows that hold one: for the plan's
  // note (CheckPlanInput::zero_rows).
  const std::vector<ZeroRows>& zero_rows() const { return zero_rows_; }
  // The first rows read (at most kSampleRows), cells in header order.
  const std::vector<std::vector<std::string>>& sample() const { return sample_; }

 private:
  void Decide(const std::vector<std::string>& header);
  void Count(std::span<const std::string_view> row);

  Options options_;
  const RowReader* reader_ = nullptr;  // until decided
  std::vector<std::string> xml_namespaces_;
  bool decided_ = false;
  std::vector<std::vector<std::string>> sample_;
  SourceDetection detection_;
  Mapping mapping_;
  std::vector<InferredColumn> inferred_;
  size_t gtin_column_ = SIZE_MAX;
  GtinPaddingEvidence gtin_;
  // The inferred core fields' columns and whether a row has filled them yet.
  std::vector<std::pair<size_t, bool>> core_filled_;
  size_t rows_ = 0;
  Mapping empty_core_;
  Mapping list_separators_;
  std::string weight_unit_example_;
  std::vector<ZeroRows> zero_rows_;
  std::vector<size_t> zero_columns_;  // the header index of each zero_rows_ entry's column
};

}  // namespace dq::ingest
