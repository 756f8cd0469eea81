// The API's fixed vocabularies, from the specification: standard field names, check types and
// platform templates. The gateway checks requests against them; the validator's rule engine is
// built on the same lists, so the two cannot drift.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace dq {

// Standard field names, in the specification's order, then our additions: declared_value (the
// customs value the shipping check names), and the channel attributes named as Google's product
// data specification names them, and weight_unit: the unit of one row's weight, from a column of
// its own (Shopify Transporter's Variant Weight Unit; docs/api.md, "Standard fields"). The index
// is the field's id.
inline constexpr std::array<std::string_view, 40> kStandardFields = {
    "sku",          "title",         "description",   "price",      "compare_at_price",
    "cost_price",   "currency",      "availability",  "image_url",  "brand",
    "category",     "gtin",          "weight",        "hs_code",    "country_of_origin",
    "vat_number",   "email",         "phone",         "country",    "stock_qty",
    "reorder_point", "expiry_date",  "warehouse_id",  "declared_value",
    // Channel attributes (issue 32): not in the specification's 23.
    "link", "condition", "identifier_exists", "mpn", "google_product_category", "product_type",
    "item_group_id", "color", "size", "gender", "age_group", "sale_price",
    "sale_price_effective_date", "availability_date", "additional_image_link",
    // Issue 31: a row's weight unit in a column of its own.
    "weight_unit"};

inline constexpr std::array<std::string_view, 5> kCheckTypes = {"product", "customer", "shipping",
                                                                "inventory", "price"};

inline constexpr std::array<std::string_view, 8> kPlatforms = {
    "marketplace1_tw", "marketplace2",       "marketplace3", "search_merchant",
    "social_catalog",  "marketplace1_cross", "marketplace4", "marketplace5"};

// Index of name in list, or nullopt.
template <size_t N>
constexpr std::optional<size_t> IndexOf(const std::array<std::string_view, N>& list,
                                        std::string_view name) {
  for (size_t i = 0; i < N; ++i) {
    if (list[i] == name) return i;
  }
  return std::nullopt;
}

}  // namespace dq
