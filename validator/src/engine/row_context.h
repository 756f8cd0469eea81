// What a rule sees of one row: the values by standard field, the batch's spec and state, and
// two ways to speak: Report() a problem, or Fix() a value.
//
// A field's value() is its current value: after a Fix() it is the fixed one, so later rules check
// what the cleaned row will hold. One field gets at most one fix issue per row, carrying the final
// value and the code of the last fix applied; it is emitted after the row's other issues. The
// same (code, field) is reported once per row however many rules find it.
//
// Rules never touch the batch-level state. Duplicate keys go through UseKey() and
// ReportIfUsedBefore(), price samples through AddPriceSample(); both are written to the
// RowsOutput and applied in row order by the Session afterwards (cross_row.h). So a RowContext
// only reads shared, immutable data, and several can evaluate rows of one batch at once.
//
// Not thread-safe: one RowContext per evaluating thread (a Session lane).
#pragma once

#include <array>
#include <bitset>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cross_row.h"
#include "iso_date.h"
#include "types.h"

namespace dq::validator {

class ReferenceData;
class PhoneChecker;

class RowContext {
 public:
  RowContext(const BatchSpec& spec, const ReferenceData& ref, PhoneChecker& phones)
      : spec_(spec), ref_(ref), phones_(phones) {}

  // Starts row `row` (from 1). values[i] belongs to spec.columns[i]; the views must outlive the
  // row.
  void Begin(uint64_t row, std::span<const std::string_view> values);
  // Moves this row's issues to out.issues (reported ones in order, then one per fixed field) and
  // its key uses and price sample to out.keys and out.prices.
  void Finish(RowsOutput& out);

  uint64_t row() const { return row_; }
  const BatchSpec& spec() const { return spec_; }
  const ReferenceData& ref() const { return ref_; }
  bool checks(CheckType c) const { return (spec_.checks & c) != 0; }
  // This lane's libphonenumber cache (results depend only on the number and region).
  PhoneChecker& phones() { return phones_; }
  // Day/month order of the expiry_date column as observed up to the end of the current chunk
  // (Session::Observe); fixed while a chunk is evaluated.
  iso_date::DateOrder date_order() const { return date_order_; }
  void set_date_order(iso_date::DateOrder order) { date_order_ = order; }

  bool mapped(Field f) const { return spec_.mapped.test(Index(f)); }
  std::string_view original(Field f) const { return original_[Index(f)]; }
  std::string_view value(Field f) const { return current_[Index(f)]; }

  void Report(IssueCode code, Field f, std::string message = {});
  // Report() for some platform templates only (Issue::channels; 0 is every channel). A (code,
  // field) reported again in the row by other templates gains their channels, and their
  // message after "; " when it differs; reported again for every channel, it stays so.
  void ReportFor(ChannelMask channels, IssueCode code, Field f, std::string message = {});
  // Sets f's current value to `value`, recorded as a fix with `code` (a fixable code).
  void Fix(Field f, std::string value, IssueCode code);

  // Records that this row uses `key` in `set` (a later row with the same key is a duplicate of
  // the first row that used it).
  void UseKey(KeySet set, std::string_view key);
  // UseKey, and when an earlier row of the batch used the key, reports `code` on `f` with the
  // message `prefix` (a string literal) followed by that row's number. The issue keeps its place
  // among the row's issues (a placeholder until the Session resolves it). A code reported this
  // way must be reported only this way: a placeholder that turns out not to be a duplicate is
  // dropped, yet it has already hidden a Report() of the same (code, field) in this row.
  void ReportIfUsedBefore(KeySet set, std::string_view key, IssueCode code, Field f,
                          const char* prefix);
  // The same, for some platform templates only.
  void ReportIfUsedBeforeFor(ChannelMask channels, KeySet set, std::string_view key,
                             IssueCode code, Field f, const char* prefix);
  // Records the row's price sample for the outlier check; category empty: none.
  // (An optional, though always set: GCC 12 wrongly warns that *price may be uninitialized
  // when the caller unwraps it.)
  void AddPriceSample(std::optional<double> price, uint8_t decimals, std::string_view category);

 private:
  static size_t Index(Field f) { return static_cast<size_t>(f); }

  const BatchSpec& spec_;
  const ReferenceData& ref_;
  PhoneChecker& phones_;
  iso_date::DateOrder date_order_ = iso_date::DateOrder::kUnknown;
  ChannelMask report_channels_ = 0;  // ReportFor's, while it reports
  uint64_t row_ = 0;
  std::array<std::string_view, kFieldCount> original_{};
  std::array<std::string_view, kFieldCount> current_{};
  std::array<std::string, kFieldCount> fixed_storage_;  // capacity reused across rows
  std::array<IssueCode, kFieldCount> fix_code_{};
  std::bitset<kFieldCount> fixed_;
  std::vector<Issue> reported_;
  std::vector<KeyUse> keys_;  // KeyUse::issue indexes reported_ until Finish()
  std::vector<std::pair<PriceUse, std::string_view>> prices_;  // category views live as the row
};

}  // namespace dq::validator
