// Strict parsing of a POST /v1/validate body into a command, before any work is done.
//
//   {"records": [{...}, ...],            required, array of objects, at most max_records
//    "mapping": {"sku": "Variant SKU"},   required, standard field -> column name (string)
//    "check_types": "product,price",     optional, comma-separated, default "product"
//    "platform": "marketplace2"}          optional, one of the platform templates
//
// Errors name the offending member: kInvalidJson (not JSON), kInvalidRequest (missing or wrongly
// typed member, unknown mapping key, check type or platform; details list each problem),
// kTooManyRecords.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "dq/common/status.h"
#include "dq/validator/v1/validator.pb.h"

namespace dq::gateway {

struct ValidateCommand {
  nlohmann::json records;  // the submitted array, kept to build `cleaned`
  // (standard field, column) pairs in standard-field order.
  std::vector<std::pair<std::string, std::string>> mapping;
  std::vector<std::string> check_types;
  std::string platform;
};

Result<ValidateCommand> ParseValidateRequest(std::string_view body, size_t max_records);

// Parses "product, price" into names, checking each; used for uploads too.
Result<std::vector<std::string>> ParseCheckTypes(std::string_view text);
// Checks a mapping object: keys are standard fields, values non-empty strings.
Result<std::vector<std::pair<std::string, std::string>>> ParseMapping(const nlohmann::json& m);
Status CheckPlatform(std::string_view platform);

// A cell as the engine sees it: strings as they are, numbers and booleans as their JSON text,
// null and absent as "", objects and arrays as compact JSON.
std::string CellText(const nlohmann::json& value);

// The validator request for the command's records.
validator::v1::ValidateRequest BuildValidatorRequest(const ValidateCommand& command);

// The API's validation result: {stats, issues, cleaned}.
nlohmann::json BuildValidateResponse(const ValidateCommand& command,
                                     const validator::v1::ValidateResponse& result);

}  // namespace dq::gateway
