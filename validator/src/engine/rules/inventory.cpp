// The inventory check: stock quantity, reorder point, expiry date and warehouse id. Its core
// requires sku and stock_qty (an empty stock_qty is fine where the source says so: may_be_empty);
// any other empty value is fine.
#include <charconv>

#include "iso_date.h"
#include "text.h"
#include "rules.h"

namespace dq::validator::rules {
namespace {

constexpr size_t kMaxWarehouseIdLength = 64;

// A whole number: optional '-', 1-18 digits.
std::optional<int64_t> ParseInteger(std::string_view s) {
  const bool negative = !s.empty() && s[0] == '-';
  const std::string_view digits = negative ? s.substr(1) : s;
  if (digits.empty() || digits.size() > 18 || !text::IsAllDigits(digits)) return std::nullopt;
  int64_t v = 0;
  std::from_chars(digits.data(), digits.data() + digits.size(), v);
  return negative ? -v : v;
}

// "10.0" / "10.00" (a spreadsheet's whole number) -> "10", as a fix; other values unchanged.
// When the source writes f's numbers in its own format (FieldConvention::own_number_format:
// Magento's qty "99999.0000", which its import takes back as it is), the whole part is read
// and nothing is rewritten.
std::string_view WholeNumber(RowContext& ctx, Field f) {
  const std::string_view v = ctx.value(f);
  const size_t dot = v.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == v.size()) return v;
  const std::string_view whole = v.substr(0, dot);
  const std::string_view frac = v.substr(dot + 1);
  if (frac.find_first_not_of('0') != std::string_view::npos) return v;
  if (!ParseInteger(whole) || whole == "-") return v;
  if (ctx.spec().conventions[static_cast<size_t>(f)].own_number_format) return whole;
  ctx.Fix(f, std::string(whole), IssueCode::QUANTITY_REFORMATTED);
  return ctx.value(f);
}

// An empty stock quantity is an issue where a check type's core or a template requires one (for
// the templates' channels alone when only they require it), except that a source whose platform
// leaves it empty on purpose (FieldConvention::may_be_empty: WooCommerce's Stock, empty when
// stock is not managed) is held only to the templates.
void ReportEmptyStock(RowContext& ctx) {
  if (!ctx.Required(Field::kStockQty)) return;
  constexpr const char* kEmpty = "Stock quantity is empty";
  if (!ctx.spec().conventions[static_cast<size_t>(Field::kStockQty)].may_be_empty) {
    ctx.ReportEmpty(IssueCode::INVALID_STOCK_QTY, Field::kStockQty, kEmpty);
  } else if (const ChannelMask templates = ctx.PlatformRequiring(Field::kStockQty)) {
    ctx.ReportFor(templates, IssueCode::INVALID_STOCK_QTY, Field::kStockQty, kEmpty);
  }
}

std::optional<int64_t> CheckStock(RowContext& ctx) {
  if (ctx.value(Field::kStockQty).empty()) {
    ReportEmptyStock(ctx);
    return std::nullopt;
  }
  const std::string_view v = WholeNumber(ctx, Field::kStockQty);
  const auto qty = ParseInteger(v);
  if (!qty) {
    ctx.Report(IssueCode::INVALID_STOCK_QTY, Field::kStockQty);
    return std::nullopt;
  }
  if (*qty < 0) {
    ctx.Report(IssueCode::NEGATIVE_STOCK, Field::kStockQty);
    return std::nullopt;
  }
  return qty;
}

std::optional<int64_t> CheckReorderPoint(RowContext& ctx) {
  if (ctx.value(Field::kReorderPoint).empty()) return std::nullopt;
  const std::string_view v = WholeNumber(ctx, Field::kReorderPoint);
  const auto point = ParseInteger(v);
  if (!point || *point < 0) {
    ctx.Report(IssueCode::INVALID_REORDER_POINT, Field::kReorderPoint);
    return std::nullopt;
  }
  return point;
}

void CheckExpiry(RowContext& ctx) {
  std::string_view v = ctx.value(Field::kExpiryDate);
  if (v.empty()) return;
  int32_t days = 0;
  if (iso_date::ParseDate(v, &days) == iso_date::Parse::kBadFormat) {
    const iso_date::Reading r = iso_date::ReadSpreadsheetDate(v, ctx.date_order());
    if (r.form == iso_date::Reading::kAmbiguous) {
      ctx.Report(IssueCode::AMBIGUOUS_DATE, Field::kExpiryDate,
                 std::string(v) + " could be " + r.day_first + " (day first) or " +
                     r.month_first + " (month first); write it as YYYY-MM-DD");
      return;
    }
    if (r.form == iso_date::Reading::kIso) {
      ctx.Fix(Field::kExpiryDate, r.iso, IssueCode::DATE_REFORMATTED);
      v = ctx.value(Field::kExpiryDate);
    }
  }
  switch (iso_date::ParseDate(v, &days)) {
    case iso_date::Parse::kBadFormat:
      ctx.Report(IssueCode::INVALID_EXPIRY_DATE, Field::kExpiryDate,
                 "Expiry date is not an ISO 8601 date such as 2027-03-31");
      return;
    case iso_date::Parse::kImpossible:
      ctx.Report(IssueCode::INVALID_EXPIRY_DATE, Field::kExpiryDate,
                 "Expiry date does not exist in the calendar");
      return;
    case iso_date::Parse::kOk:
      break;
  }
  if (ctx.spec().today && days < *ctx.spec().today) {
    ctx.Report(IssueCode::EXPIRED, Field::kExpiryDate);
  }
}

// Letters of any script (non-ASCII UTF-8), ASCII letters and digits, space and - _ . / : #.
bool IsSaneWarehouseId(std::string_view v) {
  if (text::Utf8Length(v) > kMaxWarehouseIdLength || !text::IsValidUtf8(v)) return false;
  for (char c : v) {
    if (static_cast<unsigned char>(c) >= 0x80 || text::IsAsciiAlpha(c) || text::IsDigit(c)) {
      continue;
    }
    if (std::string_view(" -_./:#").find(c) == std::string_view::npos) return false;
  }
  return true;
}

void CheckWarehouse(RowContext& ctx) {
  const std::string_view v = ctx.value(Field::kWarehouseId);
  if (v.empty()) return;  // never required
  if (!IsSaneWarehouseId(v)) {
    ctx.Report(IssueCode::INVALID_WAREHOUSE_ID, Field::kWarehouseId);
  }
}

}  // namespace

void CheckInventory(RowContext& ctx) {
  // The inventory core requires a SKU; the product check reports it when it runs. A core issue,
  // it blocks every selected channel (a template that requires a SKU too leaves it to this one).
  if (!ctx.checks(kProductCheck) && ctx.mapped(Field::kSku) && ctx.value(Field::kSku).empty() &&
      ctx.CoreRequired(Field::kSku)) {
    ctx.Report(IssueCode::MISSING_SKU, Field::kSku);
  }
  std::optional<int64_t> stock, point;
  if (ctx.mapped(Field::kStockQty)) stock = CheckStock(ctx);
  if (ctx.mapped(Field::kReorderPoint)) point = CheckReorderPoint(ctx);
  if (stock && point && *stock <= *point) {
    ctx.Report(IssueCode::STOCK_AT_REORDER_POINT, Field::kStockQty,
               "Stock " + std::to_string(*stock) + " is at or below the reorder point " +
                   std::to_string(*point));
  }
  if (ctx.mapped(Field::kExpiryDate)) CheckExpiry(ctx);
  if (ctx.mapped(Field::kWarehouseId)) CheckWarehouse(ctx);
}

}  // namespace dq::validator::rules
