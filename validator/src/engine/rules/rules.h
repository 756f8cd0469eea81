// The rules, one function per check type, each in its own file (rules/<type>.cpp). Each reads a
// RowContext and Report()s or Fix()es. A rule is pure: no I/O, no allocation on a clean value,
// no state of its own; batch-level checks record key uses and price samples through the
// RowContext (cross_row.h), which the Session applies in row order. Rules may run on several
// threads at once (one RowContext each). Session calls them in a fixed order: whitespace,
// product, customer, shipping, inventory, price, platform.
// See docs/adding-a-rule.md.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "../row_context.h"

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
// INVALID_PRICE. Run by product, else shipping (declared value), else price.
void CheckPriceFormat(RowContext& ctx);
// True when this row's price format is checked by some selected check type.
bool PriceFormatChecked(const RowContext& ctx);
// True when the shipping check runs and judges the price as the declared value (declared_value
// not mapped).
bool ShippingChecksPrice(const RowContext& ctx);
// ISO 4217 currency, upper-casing as a fix. Run by product, else price.
void CheckCurrency(RowContext& ctx);
void CheckGtin(RowContext& ctx);  // rules/gtin_rule.cpp
// ISO 3166-1 alpha-2 country in field f (country or country_of_origin), with fixes. Returns the
// valid (possibly fixed) code, or an empty view.
std::string_view CheckCountryCode(RowContext& ctx, Field f);

// Rewrites a money amount in f as a plain decimal when that is safe (PRICE_REFORMATTED,
// DECIMAL_COMMA_FIXED) and returns its value; nullopt when it is not a plain decimal afterwards.
// An ambiguous comma ("12,500") is reported (AMBIGUOUS_DECIMAL_SEPARATOR), *ambiguous is set and
// the caller reports nothing more about the value.
std::optional<double> NormalizedAmount(RowContext& ctx, Field f, bool* ambiguous = nullptr);

// An absolute http(s) URL with a proper host and no characters that need escaping.
bool IsWellFormedHttpUrl(std::string_view url);

// Platform templates (rules/platform.cpp).
bool PlatformRequires(Platform p, Field f);
// Some selected template requires f (its PLATFORM_MISSING_FIELD replaces the general issue).
bool AnyPlatformRequires(const BatchSpec& spec, Field f);
size_t PlatformTitleLimit(Platform p);
// value is an availability value of some selected template (e.g. social_catalog's "available
// for order"): the product check leaves it to the templates.
bool AvailabilityAcceptedByAPlatform(const BatchSpec& spec, std::string_view value);

}  // namespace dq::validator::rules
