#include "session.h"

#include "rules/rules.h"

namespace dq::validator {
namespace {

constexpr uint8_t kRowError = 1;
constexpr uint8_t kRowWarning = 2;
constexpr uint8_t kRowFixed = 4;

}  // namespace

Session::Session(const ReferenceData& ref, BatchSpec spec)
    : spec_(std::move(spec)), ctx_(spec_, ref, batch_) {
  // The product check always looks at sku and price; unmapped counts as empty.
  if (spec_.checks & kProductCheck) {
    spec_.mapped.set(static_cast<size_t>(Field::kSku));
    spec_.mapped.set(static_cast<size_t>(Field::kPrice));
  }
}

void Session::AddRow(std::span<const std::string_view> values, std::vector<Issue>& out) {
  ++rows_;
  row_flags_.push_back(0);
  const size_t first = out.size();
  ctx_.Begin(rows_, values);
  rules::NormalizeWhitespace(ctx_);
  if (spec_.checks & kProductCheck) rules::CheckProduct(ctx_);
  ctx_.Finish(out);
  for (size_t i = first; i < out.size(); ++i) Count(out[i]);
}

void Session::Finish(std::vector<Issue>& out) {
  const size_t first = out.size();
  // Batch-level checks append here.
  for (size_t i = first; i < out.size(); ++i) Count(out[i]);
}

void Session::Count(const Issue& issue) {
  uint8_t& flags = row_flags_[issue.row - 1];
  if (issue.severity() == Severity::kError) {
    ++errors_;
    flags |= kRowError;
  } else {
    ++warnings_;
    flags |= kRowWarning;
  }
  if (issue.fixed) {
    ++fixes_;
    flags |= kRowFixed;
  }
}

Stats Session::stats() const {
  Stats s;
  s.rows = rows_;
  s.errors = errors_;
  s.warnings = warnings_;
  s.fixes = fixes_;
  for (uint8_t f : row_flags_) {
    if (f & kRowError) {
      ++s.rows_error;
    } else if (f & kRowWarning) {
      ++s.rows_warning;
    }
    if (f & kRowFixed) ++s.rows_fixed;
  }
  s.score = HealthScore(s.rows, s.rows_error, s.rows_warning);
  return s;
}

}  // namespace dq::validator
