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
// - A nested JSON member's column ("meta.barcode": keys of letters, digits, '_' or '-' joined
//   by dots) also answers to its last key ("barcode" is an alias of gtin), ranked after every
//   whole-name match (confidence 0.8 in InferMappingFrom).
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

struct SourceProfile;

// One inferred (field, column) pair and how sure inference is of it.
struct InferredColumn {
  std::string field;
  std::string column;
  double confidence = 0;  // 0..1
  // "source": the source profile names the column; "header": the column's name is the field's
  // or one of its aliases; "values": the column's name says nothing, its values do.
  std::string how;
};

struct InferredMapping {
  std::vector<std::pair<std::string, std::string>> mapping;  // kStandardFields order
  std::vector<InferredColumn> columns;                       // the same pairs, same order
};

// Inference for a file of a known source, in three passes, each taking only columns and fields
// left by the ones before:
//   1. the profile's own columns for each field it allows (confidence 0.99);
//   2. the alias table above, in any of the supported languages, skipping the profile's
//      ignored columns and the fields it does not allow (1.0 for the standard name, 0.9 for an
//      alias);
//   3. values: among the sample rows' non-empty cells of a column still unmapped, at least 80%
//      valid GTINs (8, 12, 13 or 14 digits with a right check digit) makes it gtin, e-mail
//      addresses email, http(s) URLs of images image_url, and at least 90% prices written
//      with two decimals (19.99, 19,99, "15.00 USD") price; the share is the confidence.
InferredMapping InferMappingFrom(std::span<const std::string> header,
                                 std::span<const std::vector<std::string>> sample_rows,
                                 const SourceProfile& profile);

// True when `digits` (8 to 14 ASCII digits) ends with its GS1 check digit.
bool HasGs1CheckDigit(std::string_view digits);

// What inference refused to guess and why, for a person to act on: a column the mapping leaves
// out although its header names a weight in a unit dq cannot convert to grams ("Weight (t)",
// "Weight mg"). Mapping it to `weight` would read 2 t as 2 g, so it is left unmapped and this
// says so. One sentence per column, in header order; empty when there is nothing to say.
std::vector<std::string> MappingNotes(std::span<const std::string> header,
                                      std::span<const std::pair<std::string, std::string>> mapping);

}  // namespace dq::ingest
