#include "types.h"

#include "dq/common/platform_list.h"

namespace dq::validator {

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
  if (unit.empty() || unit == "g") {
    weight_grams_per_unit = 0;
  } else if (unit == "kg") {
    weight_grams_per_unit = 1000;
  } else if (unit == "lb") {
    weight_grams_per_unit = 453.59237;
  } else if (unit == "oz") {
    weight_grams_per_unit = 28.349523125;
  } else {
    return Status(ErrorCode::kInvalidRequest,
                  "unknown weight unit '" + std::string(unit) + "'; use g, kg, lb or oz");
  }
  weight_unit = std::string(unit);
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
