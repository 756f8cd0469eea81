#include "types.h"

#include <algorithm>

#include "dq/common/platform_list.h"
#include "text.h"

namespace dq::validator {
namespace {

template <typename... F>
std::bitset<kFieldCount> Fields(F... fields) {
  std::bitset<kFieldCount> out;
  (out.set(static_cast<size_t>(fields)), ...);
  return out;
}

const std::bitset<kFieldCount> kProductLevel =
    Fields(Field::kTitle, Field::kDescription, Field::kBrand, Field::kImageUrl, Field::kCategory);
const std::bitset<kFieldCount> kPurchasable =
    Fields(Field::kSku, Field::kPrice, Field::kCompareAtPrice, Field::kCostPrice, Field::kStockQty,
           Field::kWeight, Field::kGtin, Field::kAvailability,
           // The channel attributes of what is bought (issue 32).
           Field::kMpn, Field::kSalePrice, Field::kSalePriceEffectiveDate,
           Field::kAvailabilityDate);

}  // namespace

std::bitset<kFieldCount> FieldsAnsweredBy(RowKind kind) {
  const std::bitset<kFieldCount> all = ~std::bitset<kFieldCount>();
  switch (kind) {
    case RowKind::kProduct: return all;
    case RowKind::kVariant: return all & ~kProductLevel;
    case RowKind::kParent: return all & ~kPurchasable;
    case RowKind::kImage: return {};
  }
  return {};
}

std::bitset<kFieldCount> CoreRequiredFields(uint8_t checks) {
  std::bitset<kFieldCount> out;
  if (checks & kProductCheck) out |= Fields(Field::kSku, Field::kPrice, Field::kTitle);
  if (checks & kCustomerCheck) out |= Fields(Field::kEmail);
  if (checks & kInventoryCheck) out |= Fields(Field::kSku, Field::kStockQty);
  if (checks & kPriceCheck) out |= Fields(Field::kPrice);
  return out;
}

std::optional<Field> ParseField(std::string_view name) {
  if (auto i = IndexOf(kStandardFields, name)) return static_cast<Field>(*i);
  return std::nullopt;
}

Result<BatchSpec> BatchSpec::Make(std::span<const std::string> fields,
                                  std::span<const std::string> check_types,
                                  std::string_view platform) {
  BatchSpec spec;
  for (const auto& name : fields) {
    auto f = ParseField(name);
    if (!f) return Status(ErrorCode::kInvalidRequest, "unknown standard field '" + name + "'");
    if (spec.mapped.test(static_cast<size_t>(*f))) {
      return Status(ErrorCode::kInvalidRequest, "field '" + name + "' is listed twice");
    }
    spec.mapped.set(static_cast<size_t>(*f));
    spec.columns.push_back(*f);
  }
  if (!check_types.empty()) {
    spec.checks = 0;
    for (const auto& name : check_types) {
      auto i = IndexOf(kCheckTypes, name);
      if (!i) return Status(ErrorCode::kInvalidRequest, "unknown check type '" + name + "'");
      spec.checks |= static_cast<uint8_t>(1u << *i);
    }
  }
  auto platforms = ParsePlatformList(platform);
  if (!platforms.ok()) return platforms.status();
  for (size_t i : *platforms) {
    spec.platforms.push_back(static_cast<Platform>(i + 1));
    spec.channels |= ChannelBit(spec.platforms.back());
  }
  if (!spec.platforms.empty()) spec.platform = spec.platforms.front();
  return spec;
}

Status BatchSpec::SetWeightUnit(std::string_view unit) {
  weight_unit_known = true;
  if (unit.empty() || unit == "g") {
    weight_grams_per_unit = 0;
  } else if (unit == "unknown") {
    weight_grams_per_unit = 0;
    weight_unit_known = false;
  } else if (unit == "kg") {
    weight_grams_per_unit = 1000;
  } else if (unit == "lb") {
    weight_grams_per_unit = 453.59237;
  } else if (unit == "oz") {
    weight_grams_per_unit = 28.349523125;
  } else {
    return Status(ErrorCode::kInvalidRequest,
                  "unknown weight unit '" + std::string(unit) + "'; use g, kg, lb, oz or unknown");
  }
  weight_unit = std::string(unit);
  return Status::Ok();
}

namespace {

// Lower-cases the extensions and drops a leading dot. Errors: one that is not 1-10 ASCII letters
// and digits, named after `who` ("conventions: field 'image_url'").
Status NormalizeExtensions(const std::string& who, std::vector<std::string>& extensions) {
  for (std::string& ext : extensions) {
    const std::string given = ext;
    if (!ext.empty() && ext.front() == '.') ext.erase(0, 1);
    for (char& c : ext) c = text::ToLower(c);
    if (ext.empty() || ext.size() > 10 || !std::all_of(ext.begin(), ext.end(), [](char c) {
          return text::IsAsciiAlpha(c) || text::IsDigit(c);
        })) {
      return Status(ErrorCode::kInvalidRequest,
                    who + " gives the file extension '" + given +
                        "'; an extension is 1 to 10 ASCII letters and digits");
    }
  }
  return Status::Ok();
}

}  // namespace

Status BatchSpec::AddConvention(std::string_view field, std::string_view list_separator,
                                std::vector<std::pair<std::string, std::string>> aliases,
                                bool own_number_format, std::vector<std::string> file_extensions) {
  const std::string name(field);
  const auto f = ParseField(field);
  if (!f) {
    return Status(ErrorCode::kInvalidRequest, "conventions: unknown standard field '" + name + "'");
  }
  const size_t i = static_cast<size_t>(*f);
  if (!mapped.test(i)) {
    return Status(ErrorCode::kInvalidRequest,
                  "conventions: field '" + name + "' is not one of the batch's fields");
  }
  if (has_convention.test(i)) {
    return Status(ErrorCode::kInvalidRequest, "conventions: field '" + name + "' is listed twice");
  }
  for (auto& [spelling, meaning] : aliases) {
    std::string key(text::Trim(spelling));
    for (char& c : key) c = text::ToLower(c);
    spelling = std::move(key);
  }
  std::sort(aliases.begin(), aliases.end());
  aliases.erase(std::unique(aliases.begin(), aliases.end()), aliases.end());
  for (size_t k = 1; k < aliases.size(); ++k) {
    if (aliases[k].first == aliases[k - 1].first) {
      return Status(ErrorCode::kInvalidRequest,
                    "conventions: field '" + name + "' gives the alias '" + aliases[k].first +
                        "' two meanings (aliases are compared trimmed and without regard to "
                        "case)");
    }
  }
  if (Status s = NormalizeExtensions("conventions: field '" + name + "'", file_extensions);
      !s.ok()) {
    return s;
  }
  has_convention.set(i);
  listed.set(i, !list_separator.empty());
  aliased.set(i, !aliases.empty());
  conventions[i].list_separator = std::string(list_separator);
  conventions[i].aliases = std::move(aliases);
  conventions[i].own_number_format = own_number_format;
  conventions[i].file_extensions = std::move(file_extensions);
  return Status::Ok();
}

Status BatchSpec::SetEmptyValues(FieldConvention& convention, std::vector<std::string> spellings,
                                 std::optional<Field> field) {
  if (spellings.size() > 16) {
    return Status(ErrorCode::kInvalidRequest, "conventions: more than 16 empty_values");
  }
  for (std::string& s : spellings) {
    std::string key(text::Trim(s));
    if (key.empty()) {
      return Status(ErrorCode::kInvalidRequest, "conventions: an empty_values spelling is empty");
    }
    for (char& c : key) c = text::ToLower(c);
    s = std::move(key);
  }
  convention.empty_values = std::move(spellings);
  if (field) spelled_empty.set(static_cast<size_t>(*field), !convention.empty_values.empty());
  return Status::Ok();
}

Status BatchSpec::AddExtraColumn(std::string_view field, std::string_view column,
                                 std::string_view list_separator,
                                 std::vector<std::string> file_extensions) {
  const std::string name(field);
  const auto f = ParseField(field);
  if (!f) {
    return Status(ErrorCode::kInvalidRequest,
                  "extra_columns: unknown standard field '" + name + "'");
  }
  if (*f != Field::kImageUrl && *f != Field::kAdditionalImageLink && *f != Field::kPhone) {
    return Status(ErrorCode::kInvalidRequest,
                  "extra_columns: field '" + name +
                      "' cannot be checked in a further column; only image_url, "
                      "additional_image_link and phone can");
  }
  if (column.empty()) {
    return Status(ErrorCode::kInvalidRequest,
                  "extra_columns: a column of field '" + name + "' has no name");
  }
  for (const ExtraColumn& e : extras) {
    if (e.column == column) {
      return Status(ErrorCode::kInvalidRequest,
                    "extra_columns: column '" + std::string(column) + "' is listed twice");
    }
  }
  if (extras.size() == kMaxExtraColumns) {
    return Status(ErrorCode::kInvalidRequest, "extra_columns: more than " +
                                                  std::to_string(kMaxExtraColumns) +
                                                  " columns");
  }
  if (Status s = NormalizeExtensions("extra_columns: column '" + std::string(column) + "'",
                                     file_extensions);
      !s.ok()) {
    return s;
  }
  ExtraColumn& e = extras.emplace_back();
  e.field = *f;
  e.column = std::string(column);
  e.convention.list_separator = std::string(list_separator);
  e.convention.file_extensions = std::move(file_extensions);
  return Status::Ok();
}

Status BatchSpec::SetExpiryDateOrder(std::string_view order) {
  if (!dates::Parse(order, &expiry_date_order)) {
    return Status(ErrorCode::kInvalidRequest,
                  "unknown date order '" + std::string(order) +
                      "'; use day_first, month_first, conflicting or leave it empty");
  }
  return Status::Ok();
}

uint32_t HealthScore(uint64_t rows, uint64_t rows_error, uint64_t rows_warning) {
  if (rows == 0) return 100;
  // 100 * (2*rows - 2*rows_error - rows_warning) / (2*rows), rounded half up.
  const uint64_t good2 = 2 * rows - 2 * rows_error - rows_warning;
  return static_cast<uint32_t>((100 * good2 + rows) / (2 * rows));
}

}  // namespace dq::validator
