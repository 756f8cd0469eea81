// Mapping inference: when an upload brings no mapping, guess which column holds each standard
// field from the header names, using the standard names and the column names of common exports
// (Shopify, WooCommerce, Google Merchant / Meta catalog feeds, marketplace templates, our own
// gen_catalog tool). The table is data: kFieldAliases, one row per standard field.
//
// Rules (deterministic):
// - Names are compared normalised: ASCII letters lower-cased, everything that is not a letter or
//   digit dropped ("Variant SKU" = "variant_sku" = "VARIANT-SKU"), a leading "g:" ignored.
// - Each field takes the column whose name is its best-ranked alias (the standard name itself
//   first); among equal ranks the leftmost column wins.
// - A column maps to at most one field (aliases are unique across fields), and a field to at
//   most one column. Unrecognised columns stay unmapped.
#pragma once

#include <array>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dq::ingest {

struct FieldAliases {
  std::string_view field;                     // a dq::kStandardFields name
  std::initializer_list<std::string_view> aliases;  // best first, after the standard name
};

// The alias table, in kStandardFields order.
std::span<const FieldAliases> AliasTable();

// "Variant SKU" -> "variantsku".
std::string NormalizeColumnName(std::string_view name);

// (standard field, column name) pairs in kStandardFields order: the shape of an explicit mapping
// after validation (gateway ParseMapping).
// The unit a weight column's header names: "kg" for "Weight (kg)" or "weight_kgs", "lb" for
// "Weight (lbs)", "oz", "g" for "Weight (g)" / "Grams"; "" when it names none. The validator
// converts bare numbers in that column to grams with it (BatchSpec.weight_unit).
std::string WeightUnitOfColumn(std::string_view column);

std::vector<std::pair<std::string, std::string>> InferMapping(
    std::span<const std::string> header);

// What inference refused to guess and why, for a person to act on: a column the mapping leaves
// out although its header names a weight in a unit dq cannot convert to grams ("Weight (t)",
// "Weight mg"). Mapping it to `weight` would read 2 t as 2 g, so it is left unmapped and this
// says so. One sentence per column, in header order; empty when there is nothing to say.
std::vector<std::string> MappingNotes(std::span<const std::string> header,
                                      std::span<const std::pair<std::string, std::string>> mapping);

}  // namespace dq::ingest
