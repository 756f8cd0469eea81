#include "row_context.h"

#include "price_outliers.h"

namespace dq::validator {

void RowContext::Begin(uint64_t row, std::span<const std::string_view> values) {
  row_ = row;
  original_.fill(std::string_view());
  for (size_t i = 0; i < values.size() && i < spec_.columns.size(); ++i) {
    original_[Index(spec_.columns[i])] = values[i];
  }
  current_ = original_;
  fixed_.reset();
  reported_.clear();
  keys_.clear();
  prices_.clear();
}

void RowContext::Report(IssueCode code, Field f, std::string message) {
  for (Issue& i : reported_) {
    if (i.code != code || i.field != f) continue;
    if (i.channels != 0) {  // reported for some templates: the new report's join them
      i.channels = report_channels_ == 0 ? 0 : (i.channels | report_channels_);
      if (report_channels_ != 0 && !message.empty() && message != i.message) {
        i.message += "; ";
        i.message += message;
      }
    }
    return;
  }
  Issue issue;
  issue.row = row_;
  issue.code = code;
  issue.field = f;
  issue.original = std::string(original_[Index(f)]);
  issue.message = std::move(message);
  issue.channels = report_channels_;
  reported_.push_back(std::move(issue));
}

void RowContext::ReportFor(ChannelMask channels, IssueCode code, Field f, std::string message) {
  report_channels_ = channels;
  Report(code, f, std::move(message));
  report_channels_ = 0;
}

void RowContext::ReportIfUsedBeforeFor(ChannelMask channels, KeySet set, std::string_view key,
                                       IssueCode code, Field f, const char* prefix) {
  report_channels_ = channels;
  ReportIfUsedBefore(set, key, code, f, prefix);
  report_channels_ = 0;
}

void RowContext::Fix(Field f, std::string value, IssueCode code) {
  const size_t i = Index(f);
  fixed_storage_[i] = std::move(value);
  current_[i] = fixed_storage_[i];
  fix_code_[i] = code;
  fixed_.set(i);
}

void RowContext::UseKey(KeySet set, std::string_view key) {
  KeyUse use;
  use.hash = KeyHash(key);
  use.row = row_;
  use.set = set;
  keys_.push_back(use);
}

void RowContext::ReportIfUsedBefore(KeySet set, std::string_view key, IssueCode code, Field f,
                                    const char* prefix) {
  UseKey(set, key);
  for (const Issue& i : reported_) {
    if (i.code == code && i.field == f) return;  // as Report(): once per (code, field)
  }
  keys_.back().issue = static_cast<uint32_t>(reported_.size());
  keys_.back().prefix = prefix;
  Report(code, f);  // the placeholder; Session::Merge writes its message or drops it
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
