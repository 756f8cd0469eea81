// Source profiles: what dq knows about each platform's export format, written as data. One JSON
// file per source in libs/ingest/sources/ (embedded at build time), read once into these
// structs. A profile says how to recognise the source's files (signatures), how its rows group
// into products (the row model), which of its columns hold which standard field, which cells are
// lists, which unit its bare weights are in, and which of its spellings mean a standard value.
// Nothing else in dq names a platform's columns: detection (source_detect.h), the row model
// (row_model.h) and mapping inference (mapping_inference.h) read these. docs/adding-a-source.md
// says how to add one.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dq/common/status.h"

namespace dq::ingest {

// What a row is (the numbering is validator.proto's RowKind).
enum class RowKind : uint8_t { kProduct = 0, kVariant = 1, kParent = 2, kImage = 3 };

// "product", "variant", "parent", "image".
std::string_view RowKindName(RowKind kind);

// One way a file of the source looks: every group must have one of its columns in the header,
// and no column of `none` may be there; with xml_namespaces, the file is XML and its items use
// elements of one of these namespaces (a URI, or the start of one: WordPress's export
// namespace carries its version).
struct SourceSignature {
  std::string what;  // "a Shopify products export"
  std::vector<std::vector<std::string>> groups;
  std::vector<std::string> none;
  std::vector<std::string> xml_namespaces;
  // What a match weighs against another profile's: its column groups, and one for the namespace.
  size_t weight() const { return groups.size() + (xml_namespaces.empty() ? 0 : 1); }
};

enum class RowModelKind {
  kFlat,    // every row is `kind` (or a kind_if_columns kind when the header has its column)
  kGroups,  // consecutive rows with one key are one product: the first row is the product (or
            // a parent, see parent_if_columns), later rows are variants when a variant column
            // is non-empty, else image rows
  kType,    // a type column names each row's kind (WooCommerce Type, Magento product_type)
};

struct RowRules {
  RowModelKind model = RowModelKind::kFlat;
  RowKind kind = RowKind::kProduct;  // kFlat
  std::vector<std::pair<std::vector<std::string>, RowKind>> kind_if_columns;  // kFlat
  // The cell naming the product a row belongs to (its item_id): the first of these columns
  // that the header has and the row fills.
  std::vector<std::string> item_id;
  std::vector<std::string> key;              // kGroups: the grouping column
  std::vector<std::string> variant_columns;  // kGroups
  // kGroups: the first row of a group is a parent (not purchasable) when it fills one of these
  // columns and none of variant_columns: Shopify's product row that names its options (Option1
  // Name) but holds no option value, SKU or price; its variants follow with the same key.
  std::vector<std::string> parent_if_columns;
  // kGroups: the rows are grouped only when the header has one of these columns (when given);
  // otherwise every row is `kind`, as in kFlat. Shopify's Transporter customers format (its
  // Metafield columns) writes a customer over several rows; Shopify's own customer export, one.
  std::vector<std::string> groups_if_columns;
  // kGroups: a later row of the current key that fills one of these columns is a new item (a
  // product row, the key repeated), not a variant or image row of the group: Transporter's
  // further rows of a customer never hold the customer's own fields (Accepts Marketing, Tags,
  // Note, Tax Exempt), so a row that does is a second customer with the same e-mail.
  std::vector<std::string> new_item_if_columns;
  // kGroups: a row whose key cell is empty takes its key from the first of these columns the
  // header has, when it fills it; rows keyed so group only with each other, never with a row of
  // the same text in the key column. Transporter keys a customer by its e-mail, else its phone
  // (shopify_transporter's Customer.keys), and repeats the key on the customer's further rows:
  // a customer without an e-mail repeats its phone.
  std::vector<std::string> key_if_empty;
  std::vector<std::string> type_column;      // kType
  // kType: a word of the type cell (lower case) and its kind; the cell's first word that is
  // listed decides ("simple, downloadable, virtual" is simple).
  std::vector<std::pair<std::string, RowKind>> types;
  RowKind default_kind = RowKind::kProduct;  // kType: an unlisted type (and an empty one)
  // kType: the kind of a row whose type cell is empty, when it differs from default_kind:
  // commercetools' further variants leave productType empty below their product's row.
  bool has_empty_kind = false;
  RowKind empty_kind = RowKind::kProduct;
  // kType: a product row whose variant_if column holds one of the values is a variant (Magento's
  // "Not Visible Individually" children of a configurable product).
  std::vector<std::string> variant_if_columns;
  std::vector<std::string> variant_if_values;
  // kType: a row that fills one of these columns is a scope row of the item its item_id names,
  // kind image (never in error, not an item of its own): Magento's store-view rows
  // (store_view_code), which repeat the sku and fill only the values that store view overrides.
  std::vector<std::string> scope_columns;
  // kType: a variant's item_id is its parent column's cell, without strip_prefix ("id:44").
  std::vector<std::string> parent_column;
  std::string strip_prefix;
  // kType: variant and image rows belong to the product or parent row before them
  // (BigCommerce): they take its item_id and title.
  bool variants_follow = false;
};

// How the source writes one field, when the field is mapped to one of `columns` (any column when
// empty): sent to the validator as a FieldConvention.
struct SourceConvention {
  std::string field;
  std::vector<std::string> columns;
  std::string list_separator;
  std::vector<std::pair<std::string, std::string>> value_aliases;  // spelling -> standard value
  // The field's numbers are in the platform's own format, which its import takes back as they
  // are (Magento's qty "99999.0000"): no fix rewrites them.
  bool own_number_format = false;
  // A value may be a file name relative to the platform's import folder with one of these
  // extensions (lower case, no dot), instead of a URL (Magento's base_image "magento_image.jpg").
  std::vector<std::string> file_extensions;
  // The column holds HTML that the platform renders as HTML (Shopify's Body (HTML)): whitespace at
  // a value's ends shows as nothing, so it is neither reported nor trimmed.
  bool html = false;
  // An empty value is the platform's own meaning, not a missing one (WooCommerce's Stock: stock
  // not managed): it is no issue, even where a check type's core requires the field. A platform
  // template that requires the field still reports it.
  bool may_be_empty = false;
  // A value that is a number equal to zero ("0", "0.0") is the platform's way of writing no
  // value (Shopify's Variant Grams: 0 when no weight was entered): it is read as an empty value
  // and never rewritten. SourceScan counts such rows for the mapping note.
  bool zero_is_empty = false;
  // Spellings the platform writes for no value (Magento's no_selection in an image role that was
  // cleared): read as an empty value, compared trimmed and without regard to case, and never
  // rewritten.
  std::vector<std::string> empty_values;
  // With file_extensions: the platform's import renames a file name instead of refusing it
  // (Magento's swatch_image, which its import does not validate; its uploader replaces the
  // characters it does not store): any characters are valid in such a name.
  bool renamed_file_names = false;
};

// Further columns of the source whose values are values of `field`, checked as such
// (Magento's small_image, thumbnail_image and swatch_image beside base_image, which image_url
// maps to): a field maps to one column, so without this they go unchecked. Only a field whose
// checks make no fix (image_url, additional_image_link): a fix is written back to the field's own
// column. AlsoCheckedColumns (check_plan.h) lists the ones a header has; docs/adding-a-source.md
// says what is still to be built for the validator to check them.
struct SourceAlsoChecked {
  std::string field;
  std::vector<std::string> columns;
  std::string why;
};

// The unit of the source's bare weights in `columns` (every weight column when empty): "g",
// "kg", "lb", "oz" or "unknown", and why, for the mapping note.
struct SourceWeightRule {
  std::vector<std::string> columns;
  std::string unit;
  std::string why;
};

struct SourceProfile {
  std::string source;  // "shopify_products"
  std::string name;    // "Shopify products export"
  std::string doc;     // where the platform documents the format
  std::vector<SourceSignature> signatures;
  std::vector<std::string> evidence;  // columns that make a match more certain
  // Values one of the first rows' cell in one of `first_row_columns` must start with (a word
  // of), for the source to be detected: WooCommerce's Type is simple, variable, ...
  std::vector<std::string> first_row_columns;
  std::vector<std::string> first_row_values;
  RowRules rows;
  // Per standard field, the source's own column names for it, best first.
  std::vector<std::pair<std::string, std::vector<std::string>>> columns;
  // Standard fields a file of this source can hold (empty: any). A customers export maps no
  // product field even when a column's name looks like one.
  std::vector<std::string> fields;
  // Columns never mapped, though their names look like a field's ("Unit price" is PrestaShop's
  // price per unit of measure, not the price).
  std::vector<std::string> ignore_columns;
  // Core fields the platform itself does not require (Shopify's Variant SKU): an inferred
  // column for one that is empty in every row is left out, with a note, instead of blaming
  // every row (SourceScan::Finish).
  std::vector<std::string> optional_fields;
  std::vector<SourceConvention> conventions;
  std::vector<SourceWeightRule> weight;
  std::vector<SourceAlsoChecked> also_checked;
  // Columns the platform leaves out at the end of a record when it has no value for them
  // (PrestaShop's product list export writes Position only when the list is filtered by a
  // category): a CSV record that lacks only such last columns of the header is complete, not
  // ROW_FIELDS_MISSING. trailing_why says the platform's rule.
  std::vector<std::string> trailing_columns;
  std::string trailing_why;
};

// Every profile, generic last, parsed once from the embedded files (thread-safe).
std::span<const SourceProfile> SourceProfiles();
// The profile named `source`, or nullptr.
const SourceProfile* FindSourceProfile(std::string_view source);
// The generic profile (every row a product, no columns of its own).
const SourceProfile& GenericProfile();
// "bigcommerce, generic, google_merchant, ...": the valid names, sorted, for error messages.
std::string SourceNamesList();

// Parses one profile file; kInvalidRequest naming the file and the problem. For the embedded
// files (checked by a test) and for tests of the format.
Result<SourceProfile> ParseSourceProfile(std::string_view name, std::string_view json_text);

// The index in `header` of the first of `names` it has (compared as NormalizeColumnName does),
// or SIZE_MAX.
size_t FindColumn(std::span<const std::string> header, std::span<const std::string> names);

// The fewest fields a record of a file with `header` has when complete: the header's size less
// its last columns that the profile's trailing_columns name (compared as FindColumn does).
size_t FieldsRequired(const SourceProfile& profile, std::span<const std::string> header);

}  // namespace dq::ingest
