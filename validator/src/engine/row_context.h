// What a rule sees of one row: the values by standard field, the batch's spec and state, and
// two ways to speak: Report() a problem, or Fix() a value.
//
// A field's value() is its current value: after a Fix() it is the fixed one, so later rules check
// what the cleaned row will hold. One field gets at most one fix issue per row, carrying the final
// value and the code of the last fix applied; it is emitted after the row's other issues. The
// same (code, field) is reported once per row however many rules find it.
//
// Not thread-safe: one RowContext per Session.
#pragma once

#include <array>
#include <bitset>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "types.h"

namespace dq::validator {

class ReferenceData;
struct BatchState;

class RowContext {
 public:
  RowContext(const BatchSpec& spec, const ReferenceData& ref, BatchState& batch)
      : spec_(spec), ref_(ref), batch_(batch) {}

  // Starts row `row` (from 1). values[i] belongs to spec.columns[i]; the views must outlive the
  // row.
  void Begin(uint64_t row, std::span<const std::string_view> values);
  // Moves this row's issues to out: reported ones in order, then one per fixed field.
  void Finish(std::vector<Issue>& out);

  uint64_t row() const { return row_; }
  const BatchSpec& spec() const { return spec_; }
  const ReferenceData& ref() const { return ref_; }
  BatchState& batch() { return batch_; }
  bool checks(CheckType c) const { return (spec_.checks & c) != 0; }

  bool mapped(Field f) const { return spec_.mapped.test(Index(f)); }
  std::string_view original(Field f) const { return original_[Index(f)]; }
  std::string_view value(Field f) const { return current_[Index(f)]; }

  void Report(IssueCode code, Field f, std::string message = {});
  // Sets f's current value to `value`, recorded as a fix with `code` (a fixable code).
  void Fix(Field f, std::string value, IssueCode code);

 private:
  static size_t Index(Field f) { return static_cast<size_t>(f); }

  const BatchSpec& spec_;
  const ReferenceData& ref_;
  BatchState& batch_;
  uint64_t row_ = 0;
  std::array<std::string_view, kFieldCount> original_{};
  std::array<std::string_view, kFieldCount> current_{};
  std::array<std::string, kFieldCount> fixed_storage_;  // capacity reused across rows
  std::array<IssueCode, kFieldCount> fix_code_{};
  std::bitset<kFieldCount> fixed_;
  std::vector<Issue> reported_;
};

}  // namespace dq::validator
