#include "row_context.h"

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
}

void RowContext::Report(IssueCode code, Field f, std::string message) {
  for (const Issue& i : reported_) {
    if (i.code == code && i.field == f) return;
  }
  Issue issue;
  issue.row = row_;
  issue.code = code;
  issue.field = f;
  issue.original = std::string(original_[Index(f)]);
  issue.message = std::move(message);
  reported_.push_back(std::move(issue));
}

void RowContext::Fix(Field f, std::string value, IssueCode code) {
  const size_t i = Index(f);
  fixed_storage_[i] = std::move(value);
  current_[i] = fixed_storage_[i];
  fix_code_[i] = code;
  fixed_.set(i);
}

void RowContext::Finish(std::vector<Issue>& out) {
  for (Issue& i : reported_) out.push_back(std::move(i));
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
    out.push_back(std::move(issue));
  }
}

}  // namespace dq::validator
