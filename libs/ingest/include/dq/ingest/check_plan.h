// What a job (or a /v1/validate call) will check, decided before any row is checked, from the
// check types, the mapping and the source profile: the unit of the weight column, the source's
// conventions for the mapped fields (list cells, value spellings), the notes a person reads
// beside the results, and whether the check types fit the file at all. Pure; no I/O.
//
// Core fields (docs/api.md, "Empty values and core fields"): product sku, title, price;
// customer email; inventory sku, stock_qty; price price; shipping none. A core field with no
// column is not checked row by row: it gets one note ("No column looks like a price; prices were
// not checked.").
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dq/ingest/source_profile.h"

namespace dq::ingest {

using Mapping = std::vector<std::pair<std::string, std::string>>;

// Rows whose cell in `column` (mapped to `field`) is a zero that the source's convention reads as
// no value (SourceConvention::zero_is_empty): counted by SourceScan over the whole file, named
// in the plan's notes.
struct ZeroRows {
  std::string field;
  std::string column;
  uint64_t rows = 0;
};

struct CheckPlanInput {
  std::span<const std::string> check_types;
  const Mapping* mapping = nullptr;
  const SourceProfile* profile = nullptr;  // nullptr: generic
  // The unit the caller gave for bare weights ("g", "kg", "lb", "oz"; "" for none).
  std::string caller_weight_unit;
  // With no unit from the caller, the header or the profile, bare weights are grams (the
  // specification's weight field) rather than of unknown unit. For POST /v1/validate without a
  // source, whose records the specification defines.
  bool grams_when_unsaid = false;
  // Core fields left out of the mapping because their column is empty in every row
  // (SourceScan::empty_core_columns): their note names the column.
  const Mapping* empty_columns = nullptr;
  // Inferred from the mapped columns' first values (value_evidence.h): (field, separator) for
  // each URL field whose cells list several URLs, used where the profile has no list separator
  // for the column; and a weight value that names its unit, when most of them do ("" for none).
  const Mapping* list_separators = nullptr;
  std::string weight_unit_example;
  // Zeros read as no value (SourceScan::zero_rows): a note names the column and the count.
  std::span<const ZeroRows> zero_rows;
};

struct CheckPlan {
  std::string weight_unit;  // BatchSpec.weight_unit: "", "g", "kg", "lb", "oz" or "unknown"
  std::vector<SourceConvention> conventions;  // one per mapped field that has one
  std::vector<std::string> notes;             // core fields without a column; the weight unit
};

CheckPlan PlanChecks(const CheckPlanInput& in);

// The profile's convention for `field` mapped to `column`: the first of the field's conventions
// whose columns cover the column (all columns when it lists none), or nullptr.
const SourceConvention* ConventionFor(const SourceProfile& profile, std::string_view field,
                                      std::string_view column);
// A further column of the header whose values are to be checked as `field`'s
// (SourceProfile::also_checked), with the source's convention for it (Magento's import-folder
// file names), or none.
struct AlsoCheckedColumn {
  std::string field;
  std::string column;
  const SourceConvention* convention = nullptr;
};
// The header's also_checked columns, in header order, each spelling once: small_image and
// "Small Image" are two columns, each checked; a name the header repeats exactly is one (the
// senders send the cell of its last copy, as for a mapped column named twice). A column the
// mapping maps to a field (by its exact name) is checked as that field and is left out.
std::vector<AlsoCheckedColumn> AlsoCheckedColumns(const SourceProfile& profile,
                                                  std::span<const std::string> header,
                                                  const Mapping& mapping);

// The standard fields a check type reads (the specification's table, plus declared_value for
// shipping), and its core fields.
std::span<const std::string_view> CheckTypeFields(std::string_view check_type);
std::span<const std::string_view> CoreFields(std::string_view check_type);
// True for a core field of any check type: sku, title, price, email, stock_qty.
bool IsCoreField(std::string_view field);

// The check types whose fields have at least one column in `mapping`, in kCheckTypes order.
std::vector<std::string> FittingCheckTypes(const Mapping& mapping);
// The check types worth suggesting for the file: product with a sku, title or price column;
// customer with email or phone; inventory with stock_qty; price with a price and a
// compare-at or cost price; shipping with hs_code, country_of_origin, vat_number or
// declared_value.
std::vector<std::string> SuggestCheckTypes(const Mapping& mapping);
// nullopt when every requested check type has a column; else the message of the 400
// check_types_do_not_fit: "No column fits the product check (no sku, title or price column).
// The columns fit: customer."
std::optional<std::string> CheckTypesMisfit(std::span<const std::string> check_types,
                                            const Mapping& mapping);

// Evidence, over a whole gtin column, that its GTINs lost their leading zeros (a spreadsheet
// read them as numbers): BatchSpec.gtin_padding_evidence. Zero-padding a short value is offered
// as a fix only with it, since about 1 in 10 random 9- to 11-digit numbers passes a check digit
// once padded. Evidence: more than half of the non-empty values are valid GTINs once zero-padded
// to the next of 8, 12, 13 or 14 digits, and among the values that need padding there are at
// least 3, at least 80% of them valid once padded.
class GtinPaddingEvidence {
 public:
  void Add(std::string_view value);
  bool evidence() const {
    return short_ >= 3 && short_valid_ * 10 >= short_ * 8 && valid_ * 2 > filled_;
  }

 private:
  uint64_t filled_ = 0;       // non-empty values
  uint64_t valid_ = 0;        // valid as they are or once padded
  uint64_t short_ = 0;        // all digits, shorter than 14 and not 8, 12 or 13 long
  uint64_t short_valid_ = 0;  // of those, valid once padded
};

}  // namespace dq::ingest
