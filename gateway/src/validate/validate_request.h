// Strict parsing of a POST /v1/validate body into a command, before any work is done.
//
//   {"records": [{...}, ...],            required, array of objects, at most max_records
//    "mapping": {"sku": "Variant SKU"},   required, standard field -> column name (string)
//    "check_types": "product,price",     optional, comma-separated, default "product"
//    "platform": "marketplace2",         optional, one of the platform templates
//    "source": "shopify_products",       optional, the records' source platform: their row kinds,
//                                        conventions and weight unit (ingest/source_profile.h)
//    "weight_unit": "kg"}                optional, the unit of bare weights (g, kg, lb, oz)
//
// The body is read by one call of ingest::JsonBodyReader (dq/ingest/json_body_reader.h): simdjson
// finding the tokens of a body of the usual shape and the parser the JSON uploads use reading
// them, or that parser alone, which words any error. Then its members are checked here. Either
// way a record gets the same cells, and the same verdict, inline and uploaded: numbers keep
// their text ("12.50" stays "12.50", a 20-digit GTIN stays its digits), nested values become
// compact JSON text. No DOM is built: the command holds views into the body (which must outlive
// it) and into its reader's buffers, one entry per record member.
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
#include "dq/ingest/check_plan.h"
#include "dq/ingest/json_body_reader.h"
#include "dq/ingest/source_profile.h"
#include "dq/report/check_options.h"

namespace dq::gateway {

inline constexpr int32_t kSupersededMember = -2;

struct ValidateCommand {
  // (standard field, column) pairs in standard-field order.
  std::vector<std::pair<std::string, std::string>> mapping;
  std::vector<std::string> check_types;
  std::string platform;
  std::string source;       // "" for none: every record is a product
  std::string weight_unit;  // the caller's; "" for none

  size_t records = 0;
  // The distinct mapped columns, and for each mapping entry the index of its column: several
  // fields mapped to one column share one cell.
  std::vector<std::string> columns;
  std::vector<uint32_t> value_index;
  // records x columns, row-major: the cell text the engine sees ("" when the key is absent).
  std::vector<std::string_view> cells;
  // The source's further columns checked as a field's (ingest::AlsoCheckedColumns over the
  // records' keys: Magento's small_image), sent after the mapped columns
  // (BatchSpec.extra_columns), and their cells, records x extra_columns, row-major. Not mapped:
  // member_column is -1 for them, and the cleaned records keep them as sent.
  std::vector<ingest::AlsoCheckedColumn> extra_columns;
  std::vector<std::string_view> extra_cells;
  // Every member of every record, in the caller's order: record r owns
  // members[record_begin[r] .. record_begin[r + 1]). member_column is the member's column, -1
  // when it is not mapped, kSupersededMember for an earlier occurrence of a mapped key the
  // record repeats (the last one wins, as in every JSON library that keeps one).
  std::vector<ingest::internal::JsonField> members;
  std::vector<uint32_t> record_begin;
  std::vector<int32_t> member_column;
  // Records with nested objects (docs/api.md): a non-empty object member is replaced by its
  // members, each a member of its own named by its dotted path ("meta.barcode"), read by the
  // upload reader's rules (ingest::internal::JsonRows: depth, key count, a key that names the
  // same column as a path). Only then (nested) member_path gives each member's path, an index
  // into paths, whose dotted names are path_names (the members' keys view them); the answer
  // writes each value back inside its object. A leaf's value and raw_value view nested_text.
  bool nested = false;
  std::vector<uint32_t> member_path;
  std::vector<std::vector<std::string>> paths;
  std::vector<std::string> path_names;
  std::string nested_text;

  // Per record, from the source's row model (ResolveItems): its kind (empty: every record is a
  // product) and its names (sku, item_id, title) one after another in item_names, ending at
  // item_name_ends (three per record).
  std::vector<uint8_t> kinds;
  std::string item_names;
  std::vector<uint32_t> item_name_ends;
  // The check plan: BatchSpec.weight_unit, conventions, GTIN padding evidence, and the notes
  // the answer carries (core fields with no column, the weight column's unit).
  std::string spec_weight_unit;
  std::vector<ingest::SourceConvention> conventions;
  bool gtin_padding_evidence = false;
  std::vector<std::string> notes;

  ingest::JsonBodyReader reader;  // owns the copies and decoded text the views point into
  ingest::JsonBody json;          // what it read of the body, before the checks

  void Clear();  // keeps the buffers' capacity for the next request
  // Frees the buffers when they hold more than max_bytes (after an unusually large request).
  void ReleaseIfLarge(size_t max_bytes);
};

// Which readers may read the body: kFast tries simdjson first; kHandWritten reads with the upload
// parser alone (the reference the fast path is checked against in tests and fuzzing).
using JsonPath = ingest::JsonBodyReader::Path;
// The largest body the fast path reads (ingest::JsonBodyReader::kFastMaxBytes).
inline constexpr size_t kFastPathMaxBodyBytes = ingest::JsonBodyReader::kFastMaxBytes;

Result<ValidateCommand> ParseValidateRequest(std::string_view body, size_t max_records,
                                             JsonPath path = JsonPath::kFast);
// The same into a command whose buffers are reused (one per serving thread): no allocation per
// request once the buffers have grown to the usual size.
Status ParseValidateRequestInto(std::string_view body, size_t max_records, ValidateCommand& cmd,
                                JsonPath path = JsonPath::kFast);

// The options' checks, shared with uploads and `dq check` (dq/report/check_options.h).
using report::CheckPlatform;
using report::CheckSource;
using report::CheckWeightUnit;
using report::ParseCheckTypes;
using report::ParseMapping;
// The answer's `channels` object from the validator's stats, in the order the templates were
// listed: {"<template>": {"blocked": n, "ready": n, "score": n, "top_blockers": [{"code": c,
// "rows": n}]}} (docs/api.md, "Channel readiness").
std::string ChannelsJson(const validator::v1::Stats& stats);

// The most bytes a validator request built from one call may take (far below the gRPC limit).
inline constexpr size_t kMaxValidatorRequestBytes = 32u << 20;

// The validator request for the command's records: one value per distinct column, so its size
// is bounded by the body's. The size is checked before anything is copied (kPayloadTooLarge).
Result<validator::v1::ValidateRequest> BuildValidatorRequest(const ValidateCommand& command);
// The same into `out` (an empty message, e.g. on a protobuf Arena: no allocation per cell).
Status BuildValidatorRequestInto(const ValidateCommand& command,
                                 validator::v1::ValidateRequest& out);

// The API's validation result, {"cleaned","issues","stats"} (and, with a platform, "channels"
// and each issue's "channels"), written straight from the validator's answer. `cleaned` keeps every record's members in the caller's order, with fixed
// values in place of the originals.
std::string WriteValidateResponse(const ValidateCommand& command,
                                  const validator::v1::ValidateResponse& result);

}  // namespace dq::gateway
