// The rule engine's vocabulary: fields, check types, platforms, issues and batch specs.
// Pure data; no I/O.
#pragma once

#include <array>
#include <bitset>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dq/common/date_order.h"
#include "dq/common/status.h"
#include "dq/common/vocabulary.h"
#include "issue_catalogue.h"

namespace dq::validator {

// Standard fields; the numeric value is the index in dq::kStandardFields.
enum class Field : uint8_t {
  kSku,
  kTitle,
  kDescription,
  kPrice,
  kCompareAtPrice,
  kCostPrice,
  kCurrency,
  kAvailability,
  kImageUrl,
  kBrand,
  kCategory,
  kGtin,
  kWeight,
  kHsCode,
  kCountryOfOrigin,
  kVatNumber,
  kEmail,
  kPhone,
  kCountry,
  kStockQty,
  kReorderPoint,
  kExpiryDate,
  kWarehouseId,
  kDeclaredValue,  // our addition to the specification's list
  // Channel attributes, named as Google's product data specification names them (our additions).
  kLink,
  kCondition,
  kIdentifierExists,
  kMpn,
  kGoogleProductCategory,
  kProductType,
  kItemGroupId,
  kColor,
  kSize,
  kGender,
  kAgeGroup,
  kSalePrice,
  kSalePriceEffectiveDate,
  kAvailabilityDate,
  kAdditionalImageLink,
  // The unit of the row's weight when the source gives it in a column of its own (our addition).
  kWeightUnit,
};
inline constexpr size_t kFieldCount = kStandardFields.size();
static_assert(static_cast<size_t>(Field::kWeightUnit) + 1 == kFieldCount);

inline std::string_view FieldName(Field f) { return kStandardFields[static_cast<size_t>(f)]; }
std::optional<Field> ParseField(std::string_view name);

// Check types as bits, in dq::kCheckTypes order.
enum CheckType : uint8_t {
  kProductCheck = 1 << 0,
  kCustomerCheck = 1 << 1,
  kShippingCheck = 1 << 2,
  kInventoryCheck = 1 << 3,
  kPriceCheck = 1 << 4,
};

// Platform templates, in dq::kPlatforms order after kNone.
enum class Platform : uint8_t {
  kNone,
  kMarketplace1Tw,
  kMarketplace2,
  kMarketplace3,
  kSearchMerchant,
  kSocialCatalog,
  kMarketplace1Cross,
  kMarketplace4,
  kMarketplace5,
};

// A set of platforms as bits: bit (p - 1) for Platform p (kNone has no bit).
using ChannelMask = uint16_t;
inline constexpr ChannelMask ChannelBit(Platform p) {
  return p == Platform::kNone ? 0 : static_cast<ChannelMask>(1u << (static_cast<unsigned>(p) - 1));
}
// A rule's report that concerns none of the selected platforms, whatever its severity: a
// further column of a field that no channel receives (Magento's small_image beside base_image,
// RowContext::ForEachExtra). ChannelTally::Count makes it 0 with no channel's bit: it blocks none.
inline constexpr ChannelMask kNoChannel = 0x8000;
inline std::string_view PlatformName(Platform p) {
  return p == Platform::kNone ? std::string_view() : kPlatforms[static_cast<size_t>(p) - 1];
}

// What a row is in a source whose products span several rows (proto RowKind, same numbers).
// Product-level fields (title, description, brand, image_url, category) are answered for by
// products and parents; purchasable fields (sku, price, compare_at_price, cost_price, stock_qty,
// weight, gtin, availability) by products and variants; every other field by all three. Image
// rows get no issue at all.
enum class RowKind : uint8_t { kProduct = 0, kVariant = 1, kParent = 2, kImage = 3 };
inline constexpr size_t kRowKindCount = 4;

// The fields a row of `kind` answers for: an empty value in any other field is never its fault.
std::bitset<kFieldCount> FieldsAnsweredBy(RowKind kind);
// The core fields the selected check types require (product: sku, price, title; customer:
// email; inventory: sku, stock_qty; price: price; shipping: none).
std::bitset<kFieldCount> CoreRequiredFields(uint8_t checks);

// How the source writes one field (proto FieldConvention).
struct FieldConvention {
  // Non-empty: a cell is a list of items separated by this string, each checked on its own.
  std::string list_separator;
  // Source spellings (trimmed, ASCII lower-cased, sorted) and their standard meaning. A value
  // that is one of them is valid as it is and never rewritten.
  std::vector<std::pair<std::string, std::string>> aliases;
  // The source's own number format (Magento's qty "99999.0000"): a whole number written with
  // zero decimals is valid as it is and never rewritten.
  bool own_number_format = false;
  // Non-empty: a value may be a file name relative to the platform's import folder ending in one
  // of these extensions (lower case, no dot), instead of a URL (proto FieldConvention).
  std::vector<std::string> file_extensions;
  // The source's column holds HTML (Shopify's Body (HTML)): whitespace at a value's ends is kept
  // (rules/whitespace.cpp). Set after AddConvention (proto FieldConvention.html).
  bool html = false;
  // An empty value is the source's own meaning (WooCommerce's Stock: stock not managed): no issue
  // where only a check type's core requires the field (rules/inventory.cpp). Set after
  // AddConvention (proto FieldConvention.may_be_empty).
  bool may_be_empty = false;
  // Spellings (trimmed, ASCII lower-cased) the source writes for no value (Magento's
  // no_selection): such a value reads as empty (proto FieldConvention.empty_values).
  std::vector<std::string> empty_values;
  // With file_extensions: the platform's import renames a file name instead of refusing it
  // (Magento's swatch_image): any characters are valid in it (proto renamed_file_names).
  bool renamed_file_names = false;
};

// A further column of one field (proto ExtraColumn: Magento 2's small_image beside base_image,
// which image_url maps to). Its non-empty values are checked as the field's, report-only, each
// issue naming the column (RowContext::ForEachExtra).
struct ExtraColumn {
  Field field{};
  std::string column;  // the column's name, for messages
  // Only list_separator, file_extensions, empty_values and renamed_file_names are read.
  FieldConvention convention;
};

// What a batch checks and how its row values are laid out.
struct BatchSpec {
  std::vector<Field> columns;  // row value i is the value of columns[i]
  uint8_t checks = kProductCheck;
  // The platform templates, in the order the caller listed them (`platform` takes one, a
  // comma-separated list or `all`); `platform` is the first of them, kNone for none.
  Platform platform = Platform::kNone;
  std::vector<Platform> platforms;
  ChannelMask channels = 0;  // the bits of `platforms`
  std::bitset<kFieldCount> mapped;
  // "Today" for date rules (expiry in the past), as days since 1970-01-01. Unset: the Session
  // takes the current UTC date once, when it is constructed. Tests set it.
  std::optional<int32_t> today;
  // Grams per unit of a bare weight value, when the weight column's header names a unit
  // ("Weight (kg)": 1000). 0: the values are grams (or carry their own unit), or their unit is
  // unknown (weight_unit_known false).
  double weight_grams_per_unit = 0;
  std::string weight_unit;  // "kg", "lb", "oz", "g", "unknown" or "" (for messages)
  // False for weight_unit "unknown": a bare number is not assumed to be grams; it is only checked
  // as a non-negative number (no conversion, no plausibility verdict).
  bool weight_unit_known = true;
  // True when the caller saw, over the whole gtin column, that bare GTINs lost their leading
  // zeros: only then is zero-padding a fix (GTIN_LEADING_ZEROS_RESTORED).
  bool gtin_padding_evidence = false;
  // The source platform the caller detected (for messages only; the rules never read it).
  std::string source;
  // Per field, how the source writes it; `listed` and `aliased` say which fields have a list
  // separator or aliases (tested on the hot path instead of the strings).
  std::array<FieldConvention, kFieldCount> conventions;
  std::bitset<kFieldCount> listed;
  std::bitset<kFieldCount> aliased;
  std::bitset<kFieldCount> has_convention;
  // The fields whose zero ("0", "0.0") is the source's way of writing no value (proto
  // FieldConvention.zero_is_empty, Shopify's Variant Grams): RowContext reads it as empty.
  std::bitset<kFieldCount> zero_is_empty;
  // The fields whose convention lists empty_values (Magento's no_selection): RowContext reads
  // such a value as empty. Set by SetEmptyValues.
  std::bitset<kFieldCount> spelled_empty;
  // The day/month order of the expiry_date column as the caller saw it in the whole file (jobs:
  // the gateway reads the file before any row is sent). kUnknown: the session learns it from the
  // rows it is given, as they come.
  dates::DateOrder expiry_date_order = dates::DateOrder::kUnknown;
  // Further columns checked as a field's: a row carries their values after the columns' values,
  // extras[j]'s at columns.size() + j (RowContext::Begin). At most kMaxExtraColumns.
  std::vector<ExtraColumn> extras;
  static constexpr size_t kMaxExtraColumns = 64;

  // Errors: kInvalidRequest naming the unknown field, check type or platform, or a field or
  // platform listed twice. No check types means product. platform: one template, a
  // comma-separated list, `all` or "" (dq/common/platform_list.h).
  static Result<BatchSpec> Make(std::span<const std::string> fields,
                                std::span<const std::string> check_types,
                                std::string_view platform);
  // "g", "kg", "lb", "oz", "unknown" or "" (grams). Errors: kInvalidRequest for another unit.
  Status SetWeightUnit(std::string_view unit);
  // Adds the convention of one field. Errors (kInvalidRequest): an unknown field name, a field
  // that is not among the batch's fields, a field given a convention twice, two aliases that are
  // the same spelling once trimmed and lower-cased, a file extension that is not 1-10 ASCII
  // letters and digits (a leading dot is dropped, case ignored).
  Status AddConvention(std::string_view field, std::string_view list_separator,
                       std::vector<std::pair<std::string, std::string>> aliases,
                       bool own_number_format = false,
                       std::vector<std::string> file_extensions = {});
  // Adds a further column of `field` (extras). Errors (kInvalidRequest): an unknown field name, a
  // field other than image_url and additional_image_link (their checks make no fix; a fix could
  // not be written to a further column), an empty or repeated column name, a bad file extension
  // (as AddConvention), more than kMaxExtraColumns.
  Status AddExtraColumn(std::string_view field, std::string_view column,
                        std::string_view list_separator, std::vector<std::string> file_extensions);
  // Sets the empty_values of `convention` (a field's, or an extra column's), trimmed and
  // lower-cased; for a field's, marks it in spelled_empty. Errors (kInvalidRequest): an empty
  // spelling, more than 16.
  Status SetEmptyValues(FieldConvention& convention, std::vector<std::string> spellings,
                        std::optional<Field> field);
  // "day_first", "month_first", "conflicting" or "" (unknown). Errors: kInvalidRequest.
  Status SetExpiryDateOrder(std::string_view order);
};

// One problem found in one value, or one fix applied to it.
struct Issue {
  uint64_t row = 0;  // from 1
  IssueCode code{};
  Field field{};
  std::string original;              // the value as submitted
  std::optional<std::string> fixed;  // set for fixes: the cleaned value
  std::string message;               // empty: the catalogue's message
  // The selected platforms the issue concerns (ChannelBit). A rule of a platform template sets
  // its own; 0 from a rule means every selected platform, and the Session makes that explicit
  // when it passes the issue on. An error blocks these channels; a warning blocks none.
  ChannelMask channels = 0;

  Severity severity() const { return Def(code).severity; }
  ChannelMask blocks() const { return severity() == Severity::kError ? channels : 0; }
  std::string_view Message() const { return message.empty() ? Def(code).message : message; }
};

// Readiness of one platform template in a batch (docs/api.md, "Channel readiness").
struct ChannelStats {
  Platform platform = Platform::kNone;
  uint64_t ready = 0;         // rows with no error that concerns this channel
  uint64_t blocked = 0;       // rows with at least one
  uint64_t rows_warning = 0;  // ready rows with a warning that concerns this channel
  uint32_t score = 100;       // HealthScore(rows, blocked, rows_warning)
  struct Blocker {
    IssueCode code{};
    uint64_t rows = 0;  // rows this code blocks for the channel
  };
  std::vector<Blocker> top_blockers;  // at most 5, most rows first (then catalogue order)
};

struct Stats {
  uint64_t rows = 0;
  uint64_t errors = 0;    // issues of severity error
  uint64_t warnings = 0;  // issues of severity warning
  uint64_t fixes = 0;     // issues carrying a fixed value
  uint64_t rows_error = 0;
  uint64_t rows_warning = 0;  // warnings and no error
  uint64_t rows_fixed = 0;
  // With one platform template, the health score as the specification defines it (equal to
  // that channel's score); with several, the first listed template's score.
  uint32_t score = 100;
  std::vector<ChannelStats> channels;  // one per selected template, in the order listed
};

// round(100 * (rows - rows_error - 0.5 * rows_warning) / rows), halves rounded up; 100 when
// rows is 0. Computed in integers, so it is exact.
uint32_t HealthScore(uint64_t rows, uint64_t rows_error, uint64_t rows_warning);

}  // namespace dq::validator
