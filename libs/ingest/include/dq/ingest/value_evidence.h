// What a mapped column's first values say about how it is written, where neither its header nor
// the source's profile says: URL columns whose cells list several URLs (a public dataset's
// "https://a.jpg|https://b.jpg"), and weight columns whose values name their unit ("10.7 pounds").
// Fed the same first rows on both paths (SourceScan's sample for an upload, the first records of
// POST /v1/validate), so that both give the same verdicts. Pure; no I/O.
//
//   ColumnEvidence evidence(mapping, header);
//   for (const auto& row : first_rows) evidence.Row(row);
//   in.list_separators = &evidence.list_separators();   // CheckPlanInput
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dq::ingest {

using Mapping = std::vector<std::pair<std::string, std::string>>;

// The separator of a URL column's list cells. A cell is a list by a separator when it splits
// into two or more non-empty items of which at least two start with http:// or https:// (one
// malformed item does not unmake a list). A separator counts when some cells are lists by it and
// at most one in ten of the cells that hold it are not (a single URL with a comma in its query
// string, beside one list, refutes the comma). Candidates in this order, the first that counts
// wins: '|', ';', ',', a space. A JSON array of URLs is a list by its own syntax (the validator
// reads it so) and counts for none.
class ListSeparatorEvidence {
 public:
  void Add(std::string_view cell);
  std::string_view separator() const;  // "" when the cells are not lists

 private:
  static constexpr std::array<std::string_view, 4> kCandidates = {"|", ";", ",", " "};
  std::array<uint32_t, kCandidates.size()> lists_{};
  std::array<uint32_t, kCandidates.size()> others_{};  // cells holding it, not lists
};

// True when the value is a number followed by a weight unit in words or symbols ("10.7 pounds",
// "12.8 ounces", "2 kg", "500g"): the units WeightUnitOfColumn knows.
bool NamesWeightUnit(std::string_view value);

// The evidence for the mapped fields a check plan reads it for: image_url and
// additional_image_link (list cells), weight (units in the values). Columns are matched by
// their exact name in `header`; of a name the header has twice, the last (the one a job checks).
class ColumnEvidence {
 public:
  ColumnEvidence(const Mapping& mapping, std::span<const std::string> header);
  void Row(std::span<const std::string_view> row);

  // (field, separator) for each URL field whose cells are lists.
  Mapping list_separators() const;
  // The first weight value that names its unit, when most non-empty weight values do; else "".
  std::string weight_unit_example() const;

 private:
  struct Urls {
    std::string field;
    size_t column;
    ListSeparatorEvidence evidence;
  };
  std::vector<Urls> urls_;
  size_t weight_column_ = SIZE_MAX;
  uint64_t weights_filled_ = 0;
  uint64_t weights_named_ = 0;
  std::string weight_example_;
};

}  // namespace dq::ingest
