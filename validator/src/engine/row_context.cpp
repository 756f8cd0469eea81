#include "row_context.h"

#include "dq/common/ascii.h"

#include "batch_state.h"
#include "price_outliers.h"
#include "rules/channel_pack.h"
#include "rules/message_text.h"
#include "rules/rules.h"
#include "text.h"

namespace dq::validator {
namespace {

// True when v equals key (ASCII lower case) without regard to ASCII case.
bool EqualsLowered(std::string_view v, std::string_view key) {
  if (v.size() != key.size()) return false;
  for (size_t i = 0; i < v.size(); ++i) {
    if (text::ToLower(v[i]) != key[i]) return false;
  }
  return true;
}

}  // namespace

RowContext::RowContext(const BatchSpec& spec, const ReferenceData& ref, PhoneChecker& phones)
    : spec_(spec),
      ref_(ref),
      phones_(phones),
      has_aliases_(spec.aliased.any()),
      has_zero_is_empty_(spec.zero_is_empty.any()),
      has_spelled_empty_(spec.spelled_empty.any()) {
  const std::bitset<kFieldCount> core = CoreRequiredFields(spec.checks) & spec.mapped;
  // The templates list a product listing's fields: with the customer check alone the rows are
  // customers, which no template requires anything of (issue 31: a customers file with
  // platform=search_merchant is not missing a title, a price and a SKU on every row).
  const bool customers_only = spec.checks == kCustomerCheck;
  for (Platform p : customers_only ? std::span<const Platform>() : spec.platforms) {
    for (Field f : rules::PackOf(p).required_fields()) {
      bool listed = false;
      for (auto& [field, mask] : platform_required_) {
        if (field == f) {
          mask |= ChannelBit(p);
          listed = true;
        }
      }
      if (!listed) platform_required_.emplace_back(f, ChannelBit(p));
    }
  }
  // What every selected template requires, not only the first listed.
  std::bitset<kFieldCount> platform;
  for (const auto& [f, mask] : platform_required_) platform.set(Index(f));
  platform &= spec.mapped;
  for (size_t k = 0; k < kRowKindCount; ++k) {
    answers_[k] = FieldsAnsweredBy(static_cast<RowKind>(k));
    core_required_[k] = core & answers_[k];
    required_[k] = (core | platform) & answers_[k];
  }
}

std::string_view RowContext::channel_names(ChannelMask mask) {
  const size_t i = mask & (channel_names_.size() - 1);
  if (!channel_named_.test(i)) {
    channel_names_[i] = std::string_view(rules::ChannelNamesText(spec_, mask));
    channel_named_.set(i);
  }
  return channel_names_[i];
}

void RowContext::Begin(uint64_t row, std::span<const std::string_view> values, RowKind kind) {
  row_ = row;
  kind_ = kind;
  original_.fill(std::string_view());
  const size_t columns = spec_.columns.size();
  for (size_t i = 0; i < values.size() && i < columns; ++i) {
    original_[Index(spec_.columns[i])] = values[i];
  }
  extra_values_ = values.size() > columns ? values.subspan(columns) : values.subspan(0, 0);
  current_ = original_;
  fixed_.reset();
  alias_hit_.reset();
  reported_.clear();
  keys_.clear();
  prices_.clear();
  if (has_aliases_) ResolveAliases();
  if (has_zero_is_empty_) ClearZeros();
  if (has_spelled_empty_) ClearSpelledEmpty();
}

bool RowContext::IsSpelledEmpty(const FieldConvention& c, std::string_view v) {
  v = text::Trim(v);
  for (const std::string& s : c.empty_values) {
    if (EqualsLowered(v, s)) return true;
  }
  return false;
}

void RowContext::ClearSpelledEmpty() {
  for (size_t i = 0; i < kFieldCount; ++i) {
    if (spec_.spelled_empty.test(i) && IsSpelledEmpty(spec_.conventions[i], original_[i])) {
      current_[i] = std::string_view();
    }
  }
}

void RowContext::ClearZeros() {
  for (size_t i = 0; i < kFieldCount; ++i) {
    if (spec_.zero_is_empty.test(i) && ascii::IsZeroNumber(original_[i])) {
      current_[i] = std::string_view();
    }
  }
}

void RowContext::ResolveAliases() {
  for (size_t i = 0; i < kFieldCount; ++i) {
    if (!spec_.aliased.test(i)) continue;
    const std::string_view v = text::Trim(original_[i]);
    for (const auto& [spelling, meaning] : spec_.conventions[i].aliases) {
      if (EqualsLowered(v, spelling)) {
        current_[i] = meaning;
        alias_hit_.set(i);
        break;
      }
    }
  }
}

namespace {

// message is one of the "; "-joined parts of joined: a template that reports what another one
// already did (the same URL of an additional_image_link, split by each channel) adds nothing.
bool HasPart(std::string_view joined, std::string_view part) {
  for (size_t at = joined.find(part); at != std::string_view::npos;
       at = joined.find(part, at + 1)) {
    const size_t end = at + part.size();
    const bool starts = at == 0 || (at >= 2 && joined.substr(at - 2, 2) == "; ");
    const bool ends = end == joined.size() || joined.substr(end, 2) == "; ";
    if (starts && ends) return true;
  }
  return false;
}

}  // namespace

void RowContext::Report(IssueCode code, Field f, std::string message) {
  const size_t fi = Index(f);
  if (alias_hit_.test(fi)) return;  // the source's own spelling: valid as it is
  if (current_[fi].empty() && !answers_[static_cast<size_t>(kind_)].test(fi)) return;
  const bool in_item = item_ != 0 && f == item_field_;
  const bool in_extra = extra_ != nullptr && f == extra_->field;
  for (size_t k = in_item ? item_reports_from_ : in_extra ? extra_reports_from_ : 0;
       k < reported_.size(); ++k) {
    Issue& i = reported_[k];
    if (i.code != code || i.field != f) continue;
    if (!in_extra && i.channels == kNoChannel) continue;  // a further column's own issue
    if (i.channels != 0 && i.channels != kNoChannel) {  // some templates': the new one's join
      i.channels = report_channels_ == 0 ? 0 : (i.channels | report_channels_);
      if (report_channels_ != 0 && !message.empty() && !HasPart(i.message, message)) {
        i.message += "; ";
        i.message += message;
      }
    }
    return;
  }
  Issue& issue = reported_.emplace_back();  // built in place: a channel pack reports several a row
  issue.row = row_;
  issue.code = code;
  issue.field = f;
  issue.original.assign(original_[fi]);
  issue.message = std::move(message);
  // A further column's value reaches no channel: its issue blocks none.
  issue.channels = in_extra && report_channels_ == 0 ? kNoChannel : report_channels_;
  if (in_item || in_extra) {
    if (issue.message.empty()) issue.message = std::string(Def(code).message);
    if (in_extra) issue.message += ": column " + extra_->column;
    if (in_item) {
      issue.message += std::string(in_extra ? ", item " : ": item ") + std::to_string(item_) +
                       " of " + std::to_string(item_count_) + ", '" +
                       std::string(text::Utf8Prefix(item_text_, 80)) + "'";
    } else {
      issue.message += ", '" + std::string(text::Utf8Prefix(current_[fi], 80)) + "'";
    }
  }
}

void RowContext::ReportFor(ChannelMask channels, IssueCode code, Field f, std::string message) {
  report_channels_ = channels;
  Report(code, f, std::move(message));
  report_channels_ = 0;
}

ChannelMask RowContext::PlatformRequiring(Field f) const {
  for (const auto& [field, mask] : platform_required_) {
    if (field == f) return mask;
  }
  return 0;
}

void RowContext::ReportEmpty(IssueCode code, Field f, std::string message) {
  ReportFor(CoreRequired(f) ? 0 : PlatformRequiring(f), code, f, std::move(message));
}

void RowContext::ReportIfUsedBeforeFor(ChannelMask channels, KeySet set, std::string_view key,
                                       IssueCode code, Field f, const char* prefix) {
  report_channels_ = channels;
  ReportIfUsedBefore(set, key, code, f, prefix);
  report_channels_ = 0;
}

void RowContext::Fix(Field f, std::string value, IssueCode code) {
  const size_t i = Index(f);
  if (alias_hit_.test(i)) return;
  if (extra_ != nullptr && f == extra_->field) return;  // report-only
  if (item_ != 0 && f == item_field_) {
    item_storage_ = std::move(value);
    current_[i] = item_storage_;
    item_fixed_ = true;
    item_fix_code_ = code;
    return;
  }
  fixed_storage_[i] = std::move(value);
  current_[i] = fixed_storage_[i];
  fix_code_[i] = code;
  fixed_.set(i);
}

void RowContext::ForEachItem(Field f, void (*check)(RowContext&)) {
  const size_t i = Index(f);
  ForEachItemOf(f, alias_hit_.test(i) ? std::string_view() : spec_.conventions[i].list_separator,
                check);
}

bool RowContext::HasExtraValue(Field f) const {
  for (size_t j = 0; j < spec_.extras.size() && j < extra_values_.size(); ++j) {
    const ExtraColumn& e = spec_.extras[j];
    const std::string_view cell = extra_values_[j];
    if (e.field == f && !text::Trim(cell).empty() && !IsSpelledEmpty(e.convention, cell)) {
      return true;
    }
  }
  return false;
}

void RowContext::ForEachExtra(Field f, void (*check)(RowContext&), bool skip_own_value) {
  const size_t i = Index(f);
  const std::string_view original = original_[i];
  const std::string_view current = current_[i];
  const bool alias = alias_hit_.test(i);
  alias_hit_.reset(i);  // the field's own cell's spelling: a further column has no aliases
  for (size_t j = 0; j < spec_.extras.size() && j < extra_values_.size(); ++j) {
    const ExtraColumn& e = spec_.extras[j];
    const std::string_view cell = extra_values_[j];
    if (e.field != f || text::Trim(cell).empty() || IsSpelledEmpty(e.convention, cell)) continue;
    if (skip_own_value && text::Trim(cell) == text::Trim(original)) continue;
    extra_ = &e;
    extra_reports_from_ = reported_.size();
    original_[i] = cell;
    current_[i] = text::Trim(cell);
    ForEachItemOf(f, e.convention.list_separator, check);
  }
  extra_ = nullptr;
  original_[i] = original;
  current_[i] = current;
  alias_hit_.set(i, alias);
}

void RowContext::ForEachItemOf(Field f, std::string_view sep, void (*check)(RowContext&)) {
  const size_t i = Index(f);
  if (sep.empty()) {
    check(*this);
    return;
  }
  const std::string_view cell = current_[i];
  // Where the item after `pos` ends: at the next separator or the cell's end.
  auto end_of = [&](size_t pos) {
    const size_t end = cell.find(sep, pos);
    return end == std::string_view::npos ? cell.size() : end;
  };
  size_t count = 0;
  for (size_t pos = 0;; pos = end_of(pos) + sep.size()) {
    if (!text::Trim(cell.substr(pos, end_of(pos) - pos)).empty()) ++count;
    if (end_of(pos) == cell.size()) break;
  }
  // The rewritten cell, built only from the first item that changes.
  bool changed = false;
  std::string& out = list_storage_;
  size_t n = 0;
  item_field_ = f;
  for (size_t pos = 0;;) {
    const size_t end = end_of(pos);
    const std::string_view raw = cell.substr(pos, end - pos);
    const std::string_view item = text::Trim(raw);
    bool fixed = false;
    if (!item.empty()) {
      item_ = ++n;
      item_count_ = count;
      item_text_ = item;
      item_fixed_ = false;
      item_reports_from_ = reported_.size();
      current_[i] = item;
      check(*this);
      fixed = item_fixed_ && current_[i] != item;
      if (fixed && !changed) {
        out.assign(cell.substr(0, pos));
        changed = true;
      }
    }
    if (fixed) {
      const size_t lead = static_cast<size_t>(item.data() - raw.data());
      out.append(raw.substr(0, lead));
      out.append(current_[i]);
      out.append(raw.substr(lead + item.size()));
    } else if (changed) {
      out.append(raw);
    }
    if (end == cell.size()) break;
    if (changed) out.append(sep);
    pos = end + sep.size();
  }
  item_ = 0;
  current_[i] = cell;
  if (changed) Fix(f, out, item_fix_code_);
}

uint64_t RowContext::UseKey(KeySet set, std::string_view key) {
  KeyUse use;
  use.hash = KeyHash(key);
  use.row = row_;
  use.set = set;
  keys_.push_back(use);
  if (prefetch_ != nullptr) prefetch_->keys[static_cast<size_t>(set)].Prefetch(use.hash);
  return use.hash;
}

void RowContext::AddPending(IssueCode code, Field f, const char* prefix) {
  const size_t fi = Index(f);
  // As Report(): not for an alias, nor for an empty value of a field the row does not answer for.
  if (alias_hit_.test(fi)) return;
  if (current_[fi].empty() && !answers_[static_cast<size_t>(kind_)].test(fi)) return;
  for (const KeyUse& k : keys_) {
    if (k.issue != KeyUse::kNoIssue && k.code == code && k.field == f) return;  // once a row
  }
  KeyUse& use = keys_.back();
  use.issue = static_cast<uint32_t>(reported_.size());  // before the issues reported after it
  use.prefix = prefix;
  use.original = original_[fi];
  use.code = code;
  use.field = f;
}

uint64_t RowContext::ReportIfUsedBefore(KeySet set, std::string_view key, IssueCode code, Field f,
                                        const char* prefix) {
  const uint64_t hash = UseKey(set, key);
  AddPending(code, f, prefix);
  return hash;
}

void RowContext::ReportIfCarriedByAnother(uint64_t key, uint64_t owner, IssueCode code, Field f,
                                          const char* prefix) {
  KeyUse use;
  use.hash = key;
  use.row = row_;
  use.set = KeySet::kGtin;
  use.owner = static_cast<uint32_t>(owner);
  keys_.push_back(use);
  if (prefetch_ != nullptr) prefetch_->gtins.Prefetch(key);
  AddPending(code, f, prefix);
}

void RowContext::AddPriceSample(std::optional<double> price, uint8_t decimals,
                                std::string_view category) {
  if (!price) return;
  PriceUse use;
  use.row = row_;
  use.price = *price;
  use.decimals = decimals;
  prices_.emplace_back(use, category);
}

void RowContext::Finish(RowsOutput& out) {
  const size_t first = out.issues.size();
  for (KeyUse& k : keys_) {
    if (k.issue != KeyUse::kNoIssue) k.issue += static_cast<uint32_t>(first);
    out.keys.push_back(k);
  }
  for (auto& [use, category] : prices_) {
    use.category_begin = static_cast<uint32_t>(out.text.size());
    use.category_size = static_cast<uint32_t>(category.size());
    use.category_hash = PriceOutliers::CategoryHash(category);
    out.text.append(category);
    out.prices.push_back(use);
  }
  for (Issue& i : reported_) out.issues.push_back(std::move(i));
  reported_.clear();
  if (fixed_.none()) return;
  for (size_t i = 0; i < kFieldCount; ++i) {
    if (!fixed_.test(i) || fixed_storage_[i] == original_[i]) continue;
    Issue issue;
    issue.row = row_;
    issue.code = fix_code_[i];
    issue.field = static_cast<Field>(i);
    issue.original = std::string(original_[i]);
    issue.fixed = fixed_storage_[i];
    out.issues.push_back(std::move(issue));
  }
}

}  // namespace dq::validator
