// What changed between two jobs of one feed (docs/api.md, "Feeds"): the issues that are new since
// the previous job, those resolved, and those still open, counted by code. An issue is the same
// in both jobs when its code, its field and its item are: the item is the row's SKU, or its row
// number when the row has none. Pure: the gateway's worker feeds it the stored issue records of both jobs.
//
//   IssueKeys previous, current;
//   for (const auto& record : previous_records) previous.Add(record);
//   for (const auto& record : current_records) current.Add(record);
//   nlohmann::json changes = CompareIssues(previous, current, {...});
//
// Memory: one entry (about 50 bytes) per distinct issue of each job, so at most the per-job cap
// of stored issues (100,000 by default: about 5 MB each); time: a sort of each.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace dq::report {

// The members of a stored issue record (dq/report/issue_json.h) that name it, as they are written
// in the record (strings still JSON-escaped, without their quotes; "" for null).
struct IssueRecordKey {
  std::string_view code;
  std::string_view severity;
  std::string_view field;
  std::string_view sku;
  std::string_view issue_row;  // the number's text
};

// Reads a record's key members without parsing the whole object. nullopt when the record is not
// a JSON object with a code.
std::optional<IssueRecordKey> ReadIssueRecordKey(std::string_view record);

struct CompareOptions {
  std::string previous_job_id;
  // False when either job's stored issues were capped: the counts then cover the stored ones.
  bool complete = true;
  size_t items_per_code = 5;  // SKUs listed per code for new and resolved issues (sorted)
  // True when either job checked only its first rows (max_rows): issues of rows one job did not
  // check show as new or resolved.
  bool partial_rows = false;
};

// The distinct issues of one job.
class IssueKeys {
 public:
  // Adds one stored issue record; false (nothing added) when it cannot be read.
  bool Add(std::string_view record);
  size_t size() const { return entries_.size(); }
  // True when some item was named by its row (a row without a SKU).
  bool by_row() const { return by_row_; }
  bool by_sku() const { return by_sku_; }

 private:
  friend nlohmann::json CompareIssues(IssueKeys& previous, IssueKeys& current,
                                      const CompareOptions& options);
  struct Entry {
    uint64_t hash;    // of code, field and item
    uint32_t code;    // index in codes_
    std::string item;  // the SKU (decoded) or "row N", at most kMaxItemBytes
  };
  uint32_t CodeIndex(std::string_view code, std::string_view severity);

  std::vector<Entry> entries_;
  std::vector<std::pair<std::string, std::string>> codes_;  // code, severity
  bool by_row_ = false;
  bool by_sku_ = false;
};

// {previous_job_id, keyed_by: "sku"|"row"|"sku_or_row", complete, partial_rows, new, resolved, open,
//  by_code: [{code, severity, new, resolved, open, new_items: [...], resolved_items: [...]}]}.
// by_code lists errors before warnings, then the codes with the most changes first. Sorts both
// key sets in place.
nlohmann::json CompareIssues(IssueKeys& previous, IssueKeys& current,
                             const CompareOptions& options);

}  // namespace dq::report
