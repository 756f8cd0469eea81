// The product check: SKU, price, title, image URL, brand, availability, GTIN, currency.
#include "../reference_data.h"
#include "../text.h"
#include "rules.h"

namespace dq::validator::rules {
namespace {

constexpr size_t kTitleLimit = 150;  // without a platform template (search-engine merchant)
constexpr size_t kBrandLimit = 70;

bool PlatformOwns(const RowContext& ctx, Field f) { return AnyPlatformRequires(ctx.spec(), f); }

void CheckSku(RowContext& ctx) {
  const std::string_view sku = ctx.value(Field::kSku);
  if (sku.empty()) {
    ctx.Report(IssueCode::MISSING_SKU, Field::kSku);
    return;
  }
  ctx.ReportIfUsedBefore(KeySet::kSku, sku, IssueCode::DUPLICATE_SKU, Field::kSku,
                         "SKU is already used by row ");
}

void CheckTitle(RowContext& ctx) {
  const std::string_view title = ctx.value(Field::kTitle);
  if (title.empty()) {
    if (!PlatformOwns(ctx, Field::kTitle)) ctx.Report(IssueCode::MISSING_TITLE, Field::kTitle);
    return;
  }
  // A template applies its own limit (PLATFORM_TITLE_TOO_LONG) instead of the general one.
  if (ctx.spec().platform != Platform::kNone || title.size() <= kTitleLimit) return;
  const size_t n = text::Utf8Length(title);
  if (n > kTitleLimit) {
    ctx.Report(IssueCode::TITLE_TOO_LONG, Field::kTitle,
               "Title has " + std::to_string(n) + " characters; the limit is 150");
  }
}

bool StartsWithNoCase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (text::ToLower(s[i]) != prefix[i]) return false;
  }
  return true;
}

bool IsHex(char c) { return text::IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

}  // namespace

// scheme "http" or "https" (any case) "://", a host of dot-separated LDH labels (at least two) or
// a bracketed IPv6 literal, an optional :port, then an optional path/query/fragment of printable
// ASCII without spaces, quotes or angle brackets, and with well-formed %XX escapes.
bool IsWellFormedHttpUrl(std::string_view url) {
  size_t i;
  if (StartsWithNoCase(url, "https://")) {
    i = 8;
  } else if (StartsWithNoCase(url, "http://")) {
    i = 7;
  } else {
    return false;
  }
  const size_t host_start = i;
  if (i < url.size() && url[i] == '[') {
    const size_t close = url.find(']', i);
    if (close == std::string_view::npos || close == i + 1) return false;
    for (size_t k = i + 1; k < close; ++k) {
      if (!IsHex(url[k]) && url[k] != ':' && url[k] != '.') return false;
    }
    i = close + 1;
  } else {
    size_t label = 0, labels = 0;
    char prev = '.';
    for (; i < url.size() && url[i] != '/' && url[i] != ':' && url[i] != '?' && url[i] != '#';
         ++i) {
      const char c = url[i];
      if (c == '.') {
        if (label == 0 || prev == '-') return false;
        label = 0;
        ++labels;
      } else if (text::IsAsciiAlpha(c) || text::IsDigit(c) || c == '-') {
        if (label == 0 && c == '-') return false;
        ++label;
      } else {
        return false;
      }
      prev = c;
    }
    if (label == 0 || prev == '-' || labels == 0 || i == host_start) return false;
  }
  if (i < url.size() && url[i] == ':') {
    ++i;
    size_t digits = 0;
    unsigned port = 0;
    while (i < url.size() && text::IsDigit(url[i])) {
      port = port * 10 + static_cast<unsigned>(url[i] - '0');
      if (++digits > 5) return false;
      ++i;
    }
    if (digits == 0 || port == 0 || port > 65535) return false;
  }
  if (i < url.size() && url[i] != '/' && url[i] != '?' && url[i] != '#') return false;
  for (; i < url.size(); ++i) {
    const auto c = static_cast<unsigned char>(url[i]);
    if (c <= 0x20 || c >= 0x7F || c == '"' || c == '<' || c == '>' || c == '\\' || c == '^' ||
        c == '`' || c == '{' || c == '|' || c == '}') {
      return false;
    }
    if (c == '%' && (i + 2 >= url.size() || !IsHex(url[i + 1]) || !IsHex(url[i + 2]))) {
      return false;
    }
  }
  return true;
}

namespace {

void CheckImageUrl(RowContext& ctx) {
  const std::string_view url = ctx.value(Field::kImageUrl);
  if (url.empty()) {
    if (!PlatformOwns(ctx, Field::kImageUrl)) {
      ctx.Report(IssueCode::MISSING_IMAGE_URL, Field::kImageUrl);
    }
    return;
  }
  if (!IsWellFormedHttpUrl(url)) {
    ctx.Report(IssueCode::INVALID_IMAGE_URL, Field::kImageUrl);
    return;
  }
  // Templates make plain http an error (PLATFORM_IMAGE_NOT_HTTPS).
  if (ctx.spec().platform == Platform::kNone && !StartsWithNoCase(url, "https://")) {
    ctx.Report(IssueCode::IMAGE_URL_NOT_HTTPS, Field::kImageUrl);
  }
}

void CheckBrand(RowContext& ctx) {
  const std::string_view brand = ctx.value(Field::kBrand);
  if (brand.empty()) {
    if (!PlatformOwns(ctx, Field::kBrand)) ctx.Report(IssueCode::MISSING_BRAND, Field::kBrand);
    return;
  }
  if (brand.size() > kBrandLimit && text::Utf8Length(brand) > kBrandLimit) {
    ctx.Report(IssueCode::BRAND_TOO_LONG, Field::kBrand);
  }
}

// The standard availability value for v, written with any case and with spaces, hyphens or
// underscores between its words (or none); empty when v is no spelling of one.
std::string_view AvailabilitySynonym(std::string_view v) {
  char buf[16];
  size_t n = 0;
  for (char c : v) {
    if (c == ' ' || c == '-' || c == '_') continue;
    if (n == sizeof(buf)) return {};
    buf[n++] = text::ToLower(c);
  }
  const std::string_view key(buf, n);
  if (key == "instock") return "in_stock";
  if (key == "outofstock") return "out_of_stock";
  if (key == "preorder") return "preorder";
  if (key == "backorder") return "backorder";
  return {};
}

void CheckAvailability(RowContext& ctx) {
  const std::string_view v = ctx.value(Field::kAvailability);
  if (v == "in_stock" || v == "out_of_stock" || v == "preorder" || v == "backorder") return;
  if (AvailabilityAcceptedByAPlatform(ctx.spec(), v)) return;  // the template judges it
  if (v.empty()) {
    if (!PlatformOwns(ctx, Field::kAvailability)) {
      ctx.Report(IssueCode::INVALID_AVAILABILITY, Field::kAvailability, "Availability is empty");
    }
    return;
  }
  const std::string_view fixed = AvailabilitySynonym(v);
  if (fixed.empty()) {
    ctx.Report(IssueCode::INVALID_AVAILABILITY, Field::kAvailability);
  } else {
    ctx.Fix(Field::kAvailability, std::string(fixed), IssueCode::AVAILABILITY_NORMALIZED);
  }
}

}  // namespace

void CheckCurrency(RowContext& ctx) {
  const std::string_view v = ctx.value(Field::kCurrency);
  if (ctx.ref().IsCurrency(v)) return;
  if (v.size() == 3) {
    const char up[3] = {text::ToUpper(v[0]), text::ToUpper(v[1]), text::ToUpper(v[2])};
    if (const char* why = ReferenceData::NotMoney(std::string_view(up, 3))) {
      ctx.Report(IssueCode::INVALID_CURRENCY, Field::kCurrency,
                 std::string(up, 3) + " is " + why + ", not a current currency for a price");
      return;
    }
  }
  if (v.empty()) {
    ctx.Report(IssueCode::INVALID_CURRENCY, Field::kCurrency, "Currency is empty");
    return;
  }
  if (v.size() == 3) {
    const char up[3] = {text::ToUpper(v[0]), text::ToUpper(v[1]), text::ToUpper(v[2])};
    if (ctx.ref().IsCurrency(std::string_view(up, 3))) {
      ctx.Fix(Field::kCurrency, std::string(up, 3), IssueCode::CURRENCY_UPPERCASED);
      return;
    }
  }
  ctx.Report(IssueCode::INVALID_CURRENCY, Field::kCurrency);
}

std::optional<double> NormalizedAmount(RowContext& ctx, Field f, bool* ambiguous) {
  std::string_view v = ctx.value(f);
  if (ambiguous) *ambiguous = false;
  if (auto plain = text::ParsePlainDecimal(v)) return plain;  // the usual case: one pass
  text::Amount a = text::ReadAmount(v);
  switch (a.form) {
    case text::AmountForm::kPlain:
    case text::AmountForm::kUnreadable: break;
    case text::AmountForm::kReformatted:
      ctx.Fix(f, std::move(a.value), IssueCode::PRICE_REFORMATTED);
      break;
    case text::AmountForm::kDecimalComma:
      ctx.Fix(f, std::move(a.value), IssueCode::DECIMAL_COMMA_FIXED);
      break;
    case text::AmountForm::kAmbiguous:
      ctx.Report(IssueCode::AMBIGUOUS_DECIMAL_SEPARATOR, f,
                 std::string(v) + " is " + std::string(v.substr(0, v.find(','))) + "." +
                     std::string(v.substr(v.find(',') + 1)) + " with a decimal comma and " +
                     std::string(v.substr(0, v.find(','))) + std::string(v.substr(v.find(',') + 1)) +
                     " with a thousands comma; write it without the comma ambiguity");
      if (ambiguous) *ambiguous = true;
      return std::nullopt;
  }
  return text::ParsePlainDecimal(ctx.value(f));
}

void CheckPriceFormat(RowContext& ctx) {
  bool ambiguous = false;
  auto v = NormalizedAmount(ctx, Field::kPrice, &ambiguous);
  if (!ambiguous && (!v || *v <= 0)) ctx.Report(IssueCode::INVALID_PRICE, Field::kPrice);
}

bool PriceFormatChecked(const RowContext& ctx) {
  return ctx.checks(kProductCheck) || (ShippingChecksPrice(ctx) && ctx.mapped(Field::kPrice)) ||
         (ctx.checks(kPriceCheck) && ctx.mapped(Field::kPrice));
}

bool ShippingChecksPrice(const RowContext& ctx) {
  return ctx.checks(kShippingCheck) && !ctx.mapped(Field::kDeclaredValue);
}

void CheckProduct(RowContext& ctx) {
  CheckSku(ctx);
  CheckPriceFormat(ctx);
  if (ctx.mapped(Field::kTitle)) CheckTitle(ctx);
  if (ctx.mapped(Field::kImageUrl)) CheckImageUrl(ctx);
  if (ctx.mapped(Field::kBrand)) CheckBrand(ctx);
  if (ctx.mapped(Field::kAvailability)) CheckAvailability(ctx);
  if (ctx.mapped(Field::kGtin)) CheckGtin(ctx);
  if (ctx.mapped(Field::kCurrency)) CheckCurrency(ctx);
}

}  // namespace dq::validator::rules
