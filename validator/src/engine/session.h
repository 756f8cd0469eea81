// A validation session: one batch of rows, evaluated row by row with bounded memory.
//
//   Session s(ReferenceData::Default(), spec);
//   for (each row) s.AddRow(values, issues);   // issues of that row, appended in order
//   s.Finish(issues);                          // batch-level issues (price outliers)
//
// Rules run in a fixed order for each row: whitespace, product, customer, shipping, inventory,
// price, platform. Price outlier issues carry the cleaned price as their original value (the
// session keeps numbers, not text).
//   Stats st = s.stats();
//
// Rows are numbered from 1 in the order they are added, across any number of chunks. Row-level
// issues, including duplicates of earlier rows, come out as each row is added; only the checks
// that need the whole batch (outliers) wait for Finish(). Memory per row is one byte of flags
// plus what BatchState keeps (hashes and price samples), never the row's text.
//
// Not thread-safe; sessions are independent, so use one per thread or stream.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "batch_state.h"
#include "reference_data.h"
#include "row_context.h"
#include "types.h"

namespace dq::validator {

class Session {
 public:
  Session(const ReferenceData& ref, BatchSpec spec);
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // values[i] is the value of spec.columns[i]; missing trailing values count as empty.
  void AddRow(std::span<const std::string_view> values, std::vector<Issue>& out);
  // Learns from a row what column-wide conventions it shows (the day/month order of
  // expiry_date), without checking it. Callers that hold several rows at once observe them all
  // before adding them, so an early row benefits from a later one (docs/issue-codes.md,
  // DATE_REFORMATTED). Optional; AddRow observes too.
  void Observe(std::span<const std::string_view> values);
  // Appends the batch-level issues. Call once, after the last row.
  void Finish(std::vector<Issue>& out);

  // Counters so far (complete after Finish).
  Stats stats() const;
  uint64_t rows() const { return rows_; }
  const BatchSpec& spec() const { return spec_; }
  // How the customer check's phone numbers were judged (fast path or libphonenumber).
  const PhoneChecker& phone_checker() const { return batch_.phone_checker; }

 private:
  void Count(const Issue& issue);

  BatchSpec spec_;
  BatchState batch_;
  RowContext ctx_;
  uint64_t rows_ = 0;
  uint64_t errors_ = 0;
  uint64_t warnings_ = 0;
  uint64_t fixes_ = 0;
  std::vector<uint8_t> row_flags_;  // per row: kRowError | kRowWarning | kRowFixed
};

}  // namespace dq::validator
