// The product check: SKU, price, title, image URL, brand, availability, GTIN, currency.
//
// Only mapped fields are checked, and an empty value is wrong only when it is required
// (RowContext::Required: the core's sku, price and title, or the platform template's fields, for
// the row kinds that answer for them). With platform search_merchant, values are judged and fixed
// in Merchant Center's formats: a price keeps its ISO 4217 code ("15.00 USD") and Google's
// availability spellings are valid. With social_catalog a price keeps its code too, Meta's
// format. Either applies wherever the template is listed among several.
#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "reference_data.h"
#include "text.h"
#include "rules.h"

namespace dq::validator::rules {
namespace {

constexpr size_t kTitleLimit = 150;  // without a platform template (search-engine merchant)
constexpr size_t kBrandLimit = 70;

bool PlatformOwns(const RowContext& ctx, Field f) { return AnyPlatformRequires(ctx.spec(), f); }

// search_merchant is among the selected templates, wherever listed.
bool IsSearchMerchant(const RowContext& ctx) {
  const auto& platforms = ctx.spec().platforms;
  return std::find(platforms.begin(), platforms.end(), Platform::kSearchMerchant) !=
         platforms.end();
}

// Returns the hash of the row's SKU when it counts among the batch's SKUs (a purchasable row
// with a SKU), else 0.
uint64_t CheckSku(RowContext& ctx) {
  const std::string_view sku = ctx.value(Field::kSku);
  if (sku.empty()) {
    if (ctx.Required(Field::kSku)) ctx.ReportEmpty(IssueCode::MISSING_SKU, Field::kSku);
    return 0;
  }
  // Duplicates only among what can be bought: a parent shares nothing with its variants' SKUs.
  if (!ctx.purchasable()) return 0;
  return ctx.ReportIfUsedBefore(KeySet::kSku, sku, IssueCode::DUPLICATE_SKU, Field::kSku,
                                "SKU is already used by row ");
}

void CheckTitle(RowContext& ctx) {
  const std::string_view title = ctx.value(Field::kTitle);
  if (title.empty()) {
    // A template that requires the title reports it (PLATFORM_MISSING_FIELD).
    if (ctx.CoreRequired(Field::kTitle) && !PlatformOwns(ctx, Field::kTitle)) {
      ctx.Report(IssueCode::MISSING_TITLE, Field::kTitle);
    }
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

// The bytes a URL's path, query and fragment may hold: printable ASCII but for space, quotes,
// angle brackets, backslash, ^, `, {, | and } (a table: the loop below runs on every URL).
constexpr std::array<bool, 256> PathBytes() {
  std::array<bool, 256> ok{};
  for (int c = 0x21; c < 0x7F; ++c) ok[c] = true;
  for (char c : std::string_view("\"<>\\^`{|}")) ok[static_cast<unsigned char>(c)] = false;
  return ok;
}
constexpr std::array<bool, 256> kPathBytes = PathBytes();

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
    if (!kPathBytes[c]) return false;
    if (c == '%' && (i + 2 >= url.size() || !IsHex(url[i + 1]) || !IsHex(url[i + 2]))) {
      return false;
    }
  }
  return true;
}

namespace {

void CheckOneImageUrl(RowContext& ctx) { CheckImageValue(ctx, Field::kImageUrl); }
void CheckOneAdditionalImage(RowContext& ctx) {
  CheckImageValue(ctx, Field::kAdditionalImageLink);
}

}  // namespace

bool JsonStringArray(std::string_view cell, std::vector<std::string>* items) {
  size_t i = 0;
  auto skip_space = [&] {
    while (i < cell.size() && (cell[i] == ' ' || cell[i] == '\t' || cell[i] == '\n' ||
                               cell[i] == '\r')) {
      ++i;
    }
  };
  skip_space();
  if (i >= cell.size() || cell[i] != '[') return false;
  ++i;
  skip_space();
  const bool empty_list = i < cell.size() && cell[i] == ']';
  while (!empty_list && i < cell.size()) {
    if (cell[i] != '"') return false;
    std::string item;
    for (++i; i < cell.size() && cell[i] != '"'; ++i) {
      if (cell[i] != '\\') {
        item.push_back(cell[i]);
        continue;
      }
      if (++i == cell.size()) return false;
      switch (cell[i]) {  // PHP's json_encode writes https:\/\/...; another escape: not a list
        case '"': case '\\': case '/': item.push_back(cell[i]); break;
        default: return false;
      }
    }
    if (i == cell.size()) return false;
    items->push_back(std::move(item));
    ++i;
    skip_space();
    if (i < cell.size() && cell[i] == ',') {
      ++i;
      skip_space();
      continue;
    }
    if (i < cell.size() && cell[i] == ']') {
      ++i;
      skip_space();
      return i == cell.size();
    }
    return false;
  }
  if (!empty_list) return false;
  ++i;
  skip_space();
  return i == cell.size();
}

namespace {

// An empty image URL is never wrong here: a template that requires one reports it. A JSON array
// of URLs is a list cell by its own syntax: each URL is checked on its own, and the message
// names the first bad one (nothing in it is fixed).
void CheckImageUrl(RowContext& ctx) {
  const std::string_view cell = ctx.value(Field::kImageUrl);
  if (cell.empty()) return;
  std::vector<std::string> urls;
  if (JsonStringArray(cell, &urls)) {
    const size_t n = urls.size();
    for (size_t k = 0; k < n; ++k) {
      if (IsWellFormedHttpUrl(urls[k])) continue;
      ctx.Report(IssueCode::INVALID_IMAGE_URL, Field::kImageUrl,
                 "item " + std::to_string(k + 1) + " of " + std::to_string(n) + ", '" +
                     urls[k] + "', is not an absolute http or https URL");
      return;
    }
    if (ctx.spec().platform != Platform::kNone) return;
    for (size_t k = 0; k < n; ++k) {
      if (StartsWithNoCase(urls[k], "https://")) continue;
      ctx.Report(IssueCode::IMAGE_URL_NOT_HTTPS, Field::kImageUrl,
                 "item " + std::to_string(k + 1) + " of " + std::to_string(n) + ", '" +
                     urls[k] + "', uses http");
      return;
    }
    return;
  }
  ctx.ForEachItem(Field::kImageUrl, CheckOneImageUrl);
}

// More images (Magento's additional_images), checked as image_url is when the source says how it
// writes them (a convention: its list separator, its import folder's file names). Without one,
// only a platform template judges them (channel_rules.cpp), in its channel's own list format.
void CheckAdditionalImages(RowContext& ctx) {
  if (!ctx.spec().has_convention.test(static_cast<size_t>(Field::kAdditionalImageLink))) return;
  if (ctx.value(Field::kAdditionalImageLink).empty()) return;
  ctx.ForEachItem(Field::kAdditionalImageLink, CheckOneAdditionalImage);
}

// The further columns of image_url and additional_image_link (BatchSpec::extras: Magento's
// small_image, thumbnail_image, swatch_image): each non-empty value checked as the field's
// image, report-only, its issues naming the column. Whether or not the field itself is mapped.
void CheckExtraImages(RowContext& ctx) {
  ctx.ForEachExtra(Field::kImageUrl, CheckOneImageUrl);
  ctx.ForEachExtra(Field::kAdditionalImageLink, CheckOneAdditionalImage);
}

// An empty brand is never wrong here: a template that requires one reports it.
void CheckBrand(RowContext& ctx) {
  const std::string_view brand = ctx.value(Field::kBrand);
  if (brand.empty()) return;
  if (brand.size() > kBrandLimit && text::Utf8Length(brand) > kBrandLimit) {
    ctx.Report(IssueCode::BRAND_TOO_LONG, Field::kBrand);
  }
}

// The standard availability value for v, written with any case and with spaces, hyphens or
// underscores between its words (or none); empty when v is no spelling of one. backorder counts
// only for Merchant Center (search_merchant), whose values include it. "Low stock" (a shop's
// display label, DummyJSON's availabilityStatus) is in stock with few left: no channel takes the
// label, and every channel sells the item as in stock.
std::string_view AvailabilitySynonym(std::string_view v, bool merchant) {
  char buf[16];
  size_t n = 0;
  for (char c : v) {
    if (c == ' ' || c == '-' || c == '_') continue;
    if (n == sizeof(buf)) return {};
    buf[n++] = text::ToLower(c);
  }
  const std::string_view key(buf, n);
  if (key == "instock" || key == "lowstock") return "in_stock";
  if (key == "outofstock") return "out_of_stock";
  if (key == "preorder") return "preorder";
  if (merchant && key == "backorder") return "backorder";
  return {};
}

// An empty availability is never wrong here: a template that requires one reports it.
void CheckAvailability(RowContext& ctx) {
  const std::string_view v = ctx.value(Field::kAvailability);
  if (v == "in_stock" || v == "out_of_stock" || v == "preorder" || v.empty()) return;
  // A value a selected template takes (Merchant Center's backorder and "in stock", Meta's
  // "available for order") is that template's to judge, and stays as the source wrote it.
  if (AvailabilityAcceptedByAPlatform(ctx.spec(), v)) return;
  const bool merchant = IsSearchMerchant(ctx);
  const std::string_view fixed = AvailabilitySynonym(v, merchant);
  if (fixed.empty()) {
    ctx.Report(IssueCode::INVALID_AVAILABILITY, Field::kAvailability,
               merchant ? "Availability must be in_stock, out_of_stock, preorder or backorder "
                          "(in stock and out of stock are accepted too)"
                        : std::string());
  } else {
    ctx.Fix(Field::kAvailability, std::string(fixed), IssueCode::AVAILABILITY_NORMALIZED);
  }
}

}  // namespace

void CheckCurrency(RowContext& ctx) {
  const std::string_view v = ctx.value(Field::kCurrency);
  if (ctx.ref().IsCurrency(v)) return;
  if (v.empty()) {
    if (ctx.Required(Field::kCurrency)) {
      ctx.ReportEmpty(IssueCode::INVALID_CURRENCY, Field::kCurrency, "Currency is empty");
    }
    return;
  }
  if (v.size() == 3) {
    const char up[3] = {text::ToUpper(v[0]), text::ToUpper(v[1]), text::ToUpper(v[2])};
    if (const char* why = ReferenceData::NotMoney(std::string_view(up, 3))) {
      ctx.Report(IssueCode::INVALID_CURRENCY, Field::kCurrency,
                 std::string(up, 3) + " is " + why + ", not a current currency for a price");
      return;
    }
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

void ReportAmbiguousAmount(RowContext& ctx, Field f, std::string_view v) {
  const std::string_view before = v.substr(0, v.find(','));
  const std::string_view after = v.substr(v.find(',') + 1);
  ctx.Report(IssueCode::AMBIGUOUS_DECIMAL_SEPARATOR, f,
             std::string(v) + " is " + std::string(before) + "." + std::string(after) +
                 " with a decimal comma and " + std::string(before) + std::string(after) +
                 " with a thousands comma; write it without the comma ambiguity");
}

std::optional<double> NormalizedAmount(RowContext& ctx, Field f, bool* ambiguous) {
  std::string_view v = ctx.value(f);
  if (ambiguous) *ambiguous = false;
  if (auto plain = text::ParsePlainDecimal(v)) return plain;  // the usual case: one pass
  if (CodedAmounts(ctx.spec())) {
    std::optional<double> value;
    if (MerchantAmount(ctx, f, &value, ambiguous)) return value;
  } else if (std::optional<double> value; SourceCodedAmount(ctx, f, &value, ambiguous)) {
    return value;
  }
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
      ReportAmbiguousAmount(ctx, f, v);
      if (ambiguous) *ambiguous = true;
      return std::nullopt;
  }
  return text::ParsePlainDecimal(ctx.value(f));
}

void CheckPriceFormat(RowContext& ctx) {
  if (ctx.value(Field::kPrice).empty()) {
    // Rule 2 of the specification, for the rows that have a price of their own.
    if (ctx.Required(Field::kPrice)) ctx.ReportEmpty(IssueCode::INVALID_PRICE, Field::kPrice);
    return;
  }
  bool reported = false;
  auto v = NormalizedAmount(ctx, Field::kPrice, &reported);
  if (!reported && (!v || *v <= 0)) ctx.Report(IssueCode::INVALID_PRICE, Field::kPrice);
}

// A selected check type owns the price (its emptiness is that check's concern, even when the
// price has no column: the caller notes a missing core column once, not on every row).
bool PriceFormatChecked(const RowContext& ctx) {
  return ctx.checks(kProductCheck) || (ShippingChecksPrice(ctx) && ctx.mapped(Field::kPrice)) ||
         (ctx.checks(kPriceCheck) && ctx.mapped(Field::kPrice));
}

bool ShippingChecksPrice(const RowContext& ctx) {
  return ctx.checks(kShippingCheck) && !ctx.mapped(Field::kDeclaredValue);
}

void CheckProduct(RowContext& ctx) {
  uint64_t sku_hash = 0;
  if (ctx.mapped(Field::kSku)) sku_hash = CheckSku(ctx);
  if (ctx.mapped(Field::kPrice)) CheckPriceFormat(ctx);
  if (ctx.mapped(Field::kTitle)) CheckTitle(ctx);
  if (ctx.mapped(Field::kImageUrl)) CheckImageUrl(ctx);
  if (ctx.mapped(Field::kAdditionalImageLink)) CheckAdditionalImages(ctx);
  if (!ctx.spec().extras.empty()) CheckExtraImages(ctx);
  if (ctx.mapped(Field::kBrand)) CheckBrand(ctx);
  if (ctx.mapped(Field::kAvailability)) CheckAvailability(ctx);
  if (ctx.mapped(Field::kGtin)) {
    CheckGtin(ctx);
    if (sku_hash != 0) CheckGtinOwner(ctx, sku_hash);
  }
  if (ctx.mapped(Field::kCurrency)) CheckCurrency(ctx);
}

}  // namespace dq::validator::rules
