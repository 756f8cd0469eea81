// The options of a check, checked before any work is done: the check types, the target platform
// and the mapping, as an upload, POST /v1/validate and `dq check` take them. Errors are
// kInvalidRequest with one detail per problem, worded as the API answers them.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dq/common/status.h"

namespace dq::report {

// Parses "product, price" into names, checking each.
Result<std::vector<std::string>> ParseCheckTypes(std::string_view text);
// Checks a mapping object: keys are standard fields, values non-empty strings. The result is in
// standard-field order.
Result<std::vector<std::pair<std::string, std::string>>> ParseMapping(const nlohmann::json& m);
Status CheckPlatform(std::string_view platform);
// A source platform's name (ingest/source_profile.h); invalid_request naming it and listing the
// valid ones.
Status CheckSource(std::string_view source);
// The unit of bare weights: g, kg, lb or oz.
Status CheckWeightUnit(std::string_view unit);

// The mapping's columns that are not in `header`, as a 400 invalid_request; Ok when all are.
Status CheckMappingColumns(const std::vector<std::pair<std::string, std::string>>& mapping,
                           const std::vector<std::string>& header);

}  // namespace dq::report
