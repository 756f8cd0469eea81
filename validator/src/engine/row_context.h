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
// Row kinds (types.h RowKind): a row answers only for the fields its kind owns. Report() drops
// an issue on an empty value of a field the row does not answer for (a variant's empty title, a
// parent's empty price), so no rule, platform template included, blames a row for what its
// product or its variants hold. Required() says when an empty value is wrong at all: the field
// is mapped, the row answers for it, and a selected check type's core or the platform template
// requires it.
//
// Source conventions (BatchSpec::conventions): a value that is one of its field's aliases reads
// as the alias's meaning (value()), is never reported and never rewritten. A list cell is
// checked item by item with ForEachItem(). A zero in a field whose source writes no value so
// (BatchSpec::zero_is_empty, Shopify's Variant Grams 0) reads as empty (value()), while
// original() keeps it: no rule judges it, and an issue for an empty value shows the 0. So does a
// value the source spells as no value (BatchSpec::spelled_empty: Magento's no_selection).
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
struct BatchState;

class RowContext {
 public:
  RowContext(const BatchSpec& spec, const ReferenceData& ref, PhoneChecker& phones);

  // Starts row `row` (from 1), of kind `kind`. values[i] belongs to spec.columns[i], and
  // values[columns + j] to spec.extras[j] (missing trailing values are empty); the views must
  // outlive the row.
  void Begin(uint64_t row, std::span<const std::string_view> values,
             RowKind kind = RowKind::kProduct);
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
  RowKind kind() const { return kind_; }
  // Products and variants: what can be bought. Cross-row checks (duplicate SKUs and GTINs,
  // price samples) count only these rows.
  bool purchasable() const { return kind_ == RowKind::kProduct || kind_ == RowKind::kVariant; }
  // True when an empty value of f is wrong in this row: f is mapped, this row's kind answers for
  // it, and a selected check type's core or the platform template requires it.
  bool Required(Field f) const { return required_[static_cast<size_t>(kind_)].test(Index(f)); }
  // The fields the selected templates require, each once, in the order CheckPlatform reports
  // them (the templates as listed, each one's fields in its own order), with the mask of the
  // templates that require it. Worked out once, not for every row.
  std::span<const std::pair<Field, ChannelMask>> platform_required() const {
    return platform_required_;
  }
  // ChannelNames(spec(), mask)'s text ("search_merchant and social_catalog"), written once per
  // mask and kept: a channel's messages name the same few sets on every row.
  std::string_view channel_names(ChannelMask mask);
  // The same, counting the check types' core requirements only (not the platform template's).
  bool CoreRequired(Field f) const {
    return core_required_[static_cast<size_t>(kind_)].test(Index(f));
  }
  // The templates that require f (0: none). An empty f that only templates require blocks only
  // their channels.
  ChannelMask PlatformRequiring(Field f) const;
  // True when f's cells are lists (a list separator in the source's conventions).
  bool IsList(Field f) const { return spec_.listed.test(Index(f)); }
  // The batch state whose key slots UseKey() and ReportIfCarriedByAnother() start loading as
  // soon as a key is known, so the rest of the row's rules overlap the memory access the merge
  // will make (Session::AddRow, whose merge follows the row at once on the same thread). Only
  // prefetch hints: nothing is read. nullptr (the default) whenever another thread may be
  // merging into that state meanwhile.
  void set_prefetch(const BatchState* state) { prefetch_ = state; }
  std::string_view original(Field f) const { return original_[Index(f)]; }
  // How the source writes f: its convention, or while ForEachExtra checks a further column of
  // f, that column's (list_separator, file_extensions).
  const FieldConvention& convention(Field f) const {
    return extra_ != nullptr && extra_->field == f ? extra_->convention
                                                   : spec_.conventions[Index(f)];
  }
  std::string_view value(Field f) const { return current_[Index(f)]; }

  // Reports code on f, once per (code, field) in a row (once per item of a list cell). Dropped
  // when f's value is empty and this row's kind does not answer for f, or when f's value is one
  // of its aliases.
  void Report(IssueCode code, Field f, std::string message = {});
  // Report() for some platform templates only (Issue::channels; 0 is every channel). A (code,
  // field) reported again in the row by other templates gains their channels, and their
  // message after "; " when it differs; reported again for every channel, it stays so.
  void ReportFor(ChannelMask channels, IssueCode code, Field f, std::string message = {});
  // Reports an empty f that Required() says is wrong: for every channel when a check type's core
  // requires it (CoreRequired), else for the templates that require it only (ReportFor).
  void ReportEmpty(IssueCode code, Field f, std::string message = {});
  // Sets f's current value to `value`, recorded as a fix with `code` (a fixable code). Ignored
  // when f's value is one of its aliases (kept as the source wrote it).
  void Fix(Field f, std::string value, IssueCode code);

  // Runs check once for each non-empty item of f's list cell (IsList(f)). While it runs, value(f)
  // is the item without surrounding whitespace, Report() adds to its message which item it is
  // ("item 2 of 3, 'http:/x.jpg'"), and Fix() rewrites that item only: the cell's fix keeps the
  // separators, the whitespace around the items and the other items as they were.
  void ForEachItem(Field f, void (*check)(RowContext&));
  // Runs check once for each non-empty value of f's further columns (BatchSpec::extras, in their
  // order; a value the column's convention spells as no value is empty), each item of it on its
  // own when the column has a list separator. While it runs, value(f) is that value without
  // surrounding whitespace, original(f) the column's cell (the issue's original value),
  // convention(f) the column's; Report() adds the column to its message ("...: column
  // small_image, 'x y.jpg'", or "...: column c, item 2 of 3, 'y'") and keeps its reports apart
  // from the field's own and another column's (one per code and column); Fix() is ignored
  // (report-only: the cleaned file's fix goes to the field's own column). With skip_own_value,
  // a value equal to the field's own cell (both trimmed) is skipped: the field's own issue
  // speaks for it (Shopify's Default Address Phone repeating Phone).
  void ForEachExtra(Field f, void (*check)(RowContext&), bool skip_own_value = false);
  // True when a further column of f (BatchSpec::extras) has a value in this row (one its
  // convention spells as no value is none).
  bool HasExtraValue(Field f) const;
  // The further column ForEachExtra is checking, or nullptr.
  const ExtraColumn* extra() const { return extra_; }

  // Records that this row uses `key` in `set` (a later row with the same key is a duplicate of
  // the first row that used it). Returns the key's hash (KeyHash).
  uint64_t UseKey(KeySet set, std::string_view key);
  // UseKey, and when an earlier row of the batch used the key, reports `code` on `f` with the
  // message `prefix` (a string literal) followed by that row's number. The issue keeps its place
  // among the row's issues: the Session puts it there when it merges the row. At most one per
  // (code, field) in a row, dropped as Report() would drop it; a code reported this way must be
  // reported only this way (Report() does not see it).
  uint64_t ReportIfUsedBefore(KeySet set, std::string_view key, IssueCode code, Field f,
                              const char* prefix);
  // Records that this row carries `key` (KeySet::kGtin: a GTIN as a number) for `owner` (the
  // hash of its SKU); when an earlier row carried it for another owner, reports `code` on f with
  // the message `prefix` followed by that row's number, in its place (as ReportIfUsedBefore).
  void ReportIfCarriedByAnother(uint64_t key, uint64_t owner, IssueCode code, Field f,
                                const char* prefix);
  // ReportIfUsedBefore for some platform templates only.
  void ReportIfUsedBeforeFor(ChannelMask channels, KeySet set, std::string_view key,
                             IssueCode code, Field f, const char* prefix);
  // Records the row's price sample for the outlier check; category empty: none.
  // (An optional, though always set: GCC 12 wrongly warns that *price may be uninitialized
  // when the caller unwraps it.)
  void AddPriceSample(std::optional<double> price, uint8_t decimals, std::string_view category);

 private:
  static size_t Index(Field f) { return static_cast<size_t>(f); }
  // Reads the aliased fields' values as their meanings (BatchSpec::aliased).
  void ResolveAliases();
  // Reads the zero_is_empty fields' zeros as empty values.
  void ClearZeros();
  // Reads the values the source spells as no value (BatchSpec::spelled_empty) as empty values.
  void ClearSpelledEmpty();
  // True when v, trimmed, is one of c's empty_values (Magento's no_selection).
  static bool IsSpelledEmpty(const FieldConvention& c, std::string_view v);
  // Makes the key use keys_.back() report (code, f) if it turns out to be a duplicate, unless
  // Report() would drop it or this row already has a key use reporting (code, f).
  void AddPending(IssueCode code, Field f, const char* prefix);
  // ForEachItem with the list separator `sep` ("" for a cell of one value).
  void ForEachItemOf(Field f, std::string_view sep, void (*check)(RowContext&));

  const BatchSpec& spec_;
  const ReferenceData& ref_;
  PhoneChecker& phones_;
  iso_date::DateOrder date_order_ = iso_date::DateOrder::kUnknown;
  ChannelMask report_channels_ = 0;  // ReportFor's, while it reports
  // Per RowKind: the fields its rows answer for, and those of them that are required.
  std::array<std::bitset<kFieldCount>, kRowKindCount> answers_{};
  std::array<std::bitset<kFieldCount>, kRowKindCount> required_{};
  std::array<std::bitset<kFieldCount>, kRowKindCount> core_required_{};
  std::vector<std::pair<Field, ChannelMask>> platform_required_;
  // channel_names' texts by mask, and which of them are written.
  std::array<std::string, size_t{1} << kPlatforms.size()> channel_names_;
  std::bitset<size_t{1} << kPlatforms.size()> channel_named_;
  bool has_aliases_ = false;
  bool has_zero_is_empty_ = false;
  bool has_spelled_empty_ = false;
  const BatchState* prefetch_ = nullptr;
  RowKind kind_ = RowKind::kProduct;
  std::bitset<kFieldCount> alias_hit_;  // this row's value of f is one of f's aliases
  // ForEachItem's state: the item being checked (1-based; 0: none), how many there are, where
  // this item's reports start in reported_, its text, and its fix.
  size_t item_ = 0;
  size_t item_count_ = 0;
  Field item_field_{};
  size_t item_reports_from_ = 0;
  std::string_view item_text_;
  bool item_fixed_ = false;
  IssueCode item_fix_code_{};
  std::string item_storage_;
  std::string list_storage_;
  // ForEachExtra's state: this row's extra values (views as Begin got them), the column being
  // checked (nullptr: none) and where its reports start in reported_.
  std::span<const std::string_view> extra_values_;
  const ExtraColumn* extra_ = nullptr;
  size_t extra_reports_from_ = 0;
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
