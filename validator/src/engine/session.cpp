#include "session.h"

#include <charconv>
#include <chrono>
#include <cstdio>

#include "rules/rules.h"
#include "text.h"

namespace dq::validator {
namespace {

constexpr uint8_t kRowError = 1;
constexpr uint8_t kRowWarning = 2;
constexpr uint8_t kRowFixed = 4;

int32_t TodayUtc() {
  using namespace std::chrono;
  return static_cast<int32_t>(floor<days>(system_clock::now()).time_since_epoch().count());
}

// A price as it was written (plain decimal with `decimals` digits after the point).
std::string FormatPrice(double v, uint8_t decimals) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::fixed, decimals);
  return r.ec == std::errc() ? std::string(buf, r.ptr) : std::to_string(v);
}

std::string FormatNumber(double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.2f", v);
  return buf;
}

}  // namespace

Session::Session(const ReferenceData& ref, BatchSpec spec)
    : spec_(std::move(spec)), ctx_(spec_, ref, batch_) {
  // The product check always looks at sku and price; unmapped counts as empty.
  if (spec_.checks & kProductCheck) {
    spec_.mapped.set(static_cast<size_t>(Field::kSku));
    spec_.mapped.set(static_cast<size_t>(Field::kPrice));
  }
  if (!spec_.today) spec_.today = TodayUtc();
  batch_.date_order = spec_.expiry_date_order;
}

void Session::Observe(std::span<const std::string_view> values) {
  if (!(spec_.checks & kInventoryCheck) || !spec_.mapped.test(static_cast<size_t>(Field::kExpiryDate))) {
    return;
  }
  for (size_t i = 0; i < spec_.columns.size() && i < values.size(); ++i) {
    if (spec_.columns[i] == Field::kExpiryDate) {
      batch_.date_order =
          iso_date::Combine(batch_.date_order, iso_date::OrderShownBy(text::Trim(values[i])));
    }
  }
}

void Session::AddRow(std::span<const std::string_view> values, std::vector<Issue>& out) {
  Observe(values);
  ++rows_;
  row_flags_.push_back(0);
  const size_t first = out.size();
  ctx_.Begin(rows_, values);
  rules::NormalizeWhitespace(ctx_);
  if (spec_.checks & kProductCheck) rules::CheckProduct(ctx_);
  if (spec_.checks & kCustomerCheck) rules::CheckCustomer(ctx_);
  if (spec_.checks & kShippingCheck) rules::CheckShipping(ctx_);
  if (spec_.checks & kInventoryCheck) rules::CheckInventory(ctx_);
  if (spec_.checks & kPriceCheck) rules::CheckPrice(ctx_);
  if (spec_.platform != Platform::kNone) rules::CheckPlatform(ctx_);
  ctx_.Finish(out);
  for (size_t i = first; i < out.size(); ++i) Count(out[i]);
}

void Session::Finish(std::vector<Issue>& out) {
  const size_t first = out.size();
  // Price outliers (price check): Tukey fences per category or over the batch.
  batch_.prices.Find([&](const PriceOutliers::Outlier& o) {
    Issue issue;
    issue.row = o.row;
    issue.code = o.high ? IssueCode::PRICE_OUTLIER_HIGH : IssueCode::PRICE_OUTLIER_LOW;
    issue.field = Field::kPrice;
    issue.original = FormatPrice(o.price, o.decimals);
    std::string scope = o.category.empty() ? std::string("the batch")
                                           : "category '" + std::string(o.category) + "'";
    issue.message = "Price " + issue.original + " is " + (o.high ? "above" : "below") + " the " +
                    (o.high ? "upper" : "lower") + " fence " +
                    FormatNumber(o.high ? o.fences.high : o.fences.low) + " of " + scope + " (Q1 " +
                    FormatNumber(o.fences.q1) + ", Q3 " + FormatNumber(o.fences.q3) +
                    ", fences at 1.5 x IQR)";
    out.push_back(std::move(issue));
  });
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
