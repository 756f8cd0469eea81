// The rules, one function per check type, each in its own file (rules/<type>.cpp). Each reads a
// RowContext and Report()s or Fix()es. Only mapped fields are checked; an empty value is reported
// only when ctx.Required() (or ctx.CoreRequired(), where the platform template reports its own
// required fields) says so, with ctx.ReportEmpty() (an empty field only templates require blocks
// only their channels). A rule for a field whose cells may be lists checks them with
// ctx.ForEachItem(). A rule is pure: no I/O, no allocation on a clean value,
// no state of its own; batch-level checks record key uses and price samples through the
// RowContext (cross_row.h), which the Session applies in row order. Rules may run on several
// threads at once (one RowContext each). Session calls them in a fixed order: whitespace,
// product, customer, shipping, inventory, price, platform.
// See docs/adding-a-rule.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "row_context.h"

namespace dq::validator::rules {

// Runs first, for every mapped field: trims whitespace (and collapses inner runs in free-text
// fields), reported as WHITESPACE_TRIMMED.
void NormalizeWhitespace(RowContext& ctx);

void CheckProduct(RowContext& ctx);    // rules/product.cpp (+ rules/gtin_rule.cpp)
void CheckCustomer(RowContext& ctx);   // rules/customer.cpp
void CheckShipping(RowContext& ctx);   // rules/shipping.cpp
void CheckInventory(RowContext& ctx);  // rules/inventory.cpp
void CheckPrice(RowContext& ctx);      // rules/price.cpp
void CheckPlatform(RowContext& ctx);   // rules/platform.cpp

// Shared sub-rules. Each runs at most once per row: the first selected check type that owns
// the field calls it (see PriceFormatOwner and the callers).
//
// Price must be a positive plain decimal; safe rewrites are fixes (PRICE_REFORMATTED), the rest
// INVALID_PRICE; empty is INVALID_PRICE when required. Run by product, else shipping (declared
// value), else price.
void CheckPriceFormat(RowContext& ctx);
// True when some selected check type owns the price: the product check (mapped or not), or the
// shipping or price check when the price is mapped.
bool PriceFormatChecked(const RowContext& ctx);
// True when the shipping check runs and judges the price as the declared value (declared_value
// not mapped).
bool ShippingChecksPrice(const RowContext& ctx);
// ISO 4217 currency, upper-casing as a fix. Run by product, else price.
void CheckCurrency(RowContext& ctx);
// The strings of a JSON array of strings, as a JSON source writes a list of URLs
// (["https://a/1.jpg","https://a/2.jpg"]; a JSON reader gives a nested array as its compact
// text), in *items; false when `cell` is anything else, which is then checked as one value.
// The image URL rules (product and platform) check each URL of such a cell on its own.
bool JsonStringArray(std::string_view cell, std::vector<std::string>* items);
void CheckGtin(RowContext& ctx);  // rules/gtin_rule.cpp
// DUPLICATE_GTIN: the row's GTIN (after CheckGtin) on an earlier purchasable row with another
// SKU (sku_hash: the row's, from ReportIfUsedBefore). rules/gtin_rule.cpp.
void CheckGtinOwner(RowContext& ctx, uint64_t sku_hash);
// ISO 3166-1 alpha-2 country in field f (country or country_of_origin), with fixes. Returns the
// valid (possibly fixed) code, or an empty view.
std::string_view CheckCountryCode(RowContext& ctx, Field f);

// Rewrites a money amount in f as a plain decimal when that is safe (PRICE_REFORMATTED,
// DECIMAL_COMMA_FIXED) and returns its value; nullopt when it is not a plain decimal afterwards.
// With CodedAmounts (search_merchant, social_catalog) the amount is kept in the channel's form
// instead (MerchantAmount). When the value was reported here (an ambiguous comma, "12,500":
// AMBIGUOUS_DECIMAL_SEPARATOR; a currency that is not certain), *reported is set and the caller
// reports nothing more about it.
std::optional<double> NormalizedAmount(RowContext& ctx, Field f, bool* reported = nullptr);

// Target-channel formats (rules/target_format.cpp).
//
// True when the cleaned file follows a channel whose amounts carry their ISO 4217 code: some
// selected template's pack has price_currency, wherever it is listed (a fix never takes away
// what a selected channel needs; weights keep their unit the same way). Merchant Center (search_merchant, Google's
// product data specification, price: "15.00 USD") and Meta (social_catalog, the catalog
// fields reference, price: "9.99 USD") both write "<number> <CODE>"; the rules below then
// apply to both, naming the channel in their messages.
bool CodedAmounts(const BatchSpec& spec);
//
// Merchant Center (search_merchant) writes an amount as a number and its ISO 4217 code,
// "15.00 USD" (Google's product data specification, price). Such a value is valid as it is; a
// decimal comma or thousands separators in its number are fixed keeping the code; a currency
// symbol becomes the code ("$15" -> "15.00 USD", number with at least two decimals) only when
// the currency is certain: a symbol that names one currency (US$, CA$, AU$, NZ$, HK$, S$, EUR's
// and GBP's signs), or a $ or yen sign that agrees with the row's valid currency field. Otherwise
// the value is reported with f's invalid-amount code and *reported is set. Returns the number.
// True when it judged the value (a code or a currency symbol), with its number in *value
// (nullopt when unreadable); false for any other form, which the general rules judge.
bool MerchantAmount(RowContext& ctx, Field f, std::optional<double>* value, bool* reported);
// Without such a template: true when f's source writes amounts with their code itself
// (FieldConvention::own_number_format on an amount field: a Merchant Center or Meta feed) and f
// holds "<number> <CODE>" with a valid ISO 4217 code: judged as MerchantAmount judges it
// ("15.00 USD" valid as it is; "15,00 USD" fixed to "15.00 USD"), its number in *value (nullopt
// when unreadable). The code is never stripped: that would break the feed (issue 31, point 6).
// Any other form (no code, a symbol) is left to the general rules.
bool SourceCodedAmount(RowContext& ctx, Field f, std::optional<double>* value, bool* reported);
// Reports AMBIGUOUS_DECIMAL_SEPARATOR on f for the number v ("12,500"), naming both readings.
void ReportAmbiguousAmount(RowContext& ctx, Field f, std::string_view v);
// The number of a price as the rules read it: v itself, or with CodedAmounts (or a source that
// codes its prices itself, SourceCodedAmount) the number of "<number> <CODE>" (v when it has no
// code).
std::string_view AmountNumber(const RowContext& ctx, std::string_view v);

// An absolute http(s) URL with a proper host and no characters that need escaping.
bool IsWellFormedHttpUrl(std::string_view url);
// One image value of field f (image_url or additional_image_link: a cell, an item of a list
// cell, or a further column's value). When the source's import also takes file names from its
// import folder (FieldConvention::file_extensions, renamed_file_names), such a name is valid and
// is not a URL to judge for https. rules/product_images.cpp.
void CheckImageValue(RowContext& ctx, Field f);

// Platform templates (rules/platform.cpp).
bool PlatformRequires(Platform p, Field f);
// Some selected template requires f (its PLATFORM_MISSING_FIELD replaces the general issue).
bool AnyPlatformRequires(const BatchSpec& spec, Field f);
size_t PlatformTitleLimit(Platform p);
// value is an availability value of some selected template (e.g. social_catalog's "available
// for order"): the product check leaves it to the templates.
bool AvailabilityAcceptedByAPlatform(const BatchSpec& spec, std::string_view value);

}  // namespace dq::validator::rules
