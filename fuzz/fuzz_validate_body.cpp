// The POST /v1/validate body reader: no crash, no leak, bounded. The route's reader (simdjson
// finding the tokens, the upload parser reading them) gives exactly what the upload parser alone
// gives: the same command or the same error, to the byte. An accepted body gives one row of cells
// per record, the validator request carries each mapped column once (and each further column
// checked as a field's, after them), and the answer written from
// a response that fixes every mapped field of every record is valid JSON with one cleaned object
// per record.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "dq/testing/validate_command_diff.h"
#include "fuzz_util.h"
#include "validate/validate_request.h"

using namespace dq::gateway;
using dq::ingest::fuzz::Check;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  const std::string_view body(reinterpret_cast<const char*>(bytes), size);
  auto cmd = ParseValidateRequest(body, 50, JsonPath::kFast);
  const std::string difference = dq::testing::DescribeCommandDifference(
      cmd, ParseValidateRequest(body, 50, JsonPath::kHandWritten));
  if (!difference.empty()) std::fprintf(stderr, "the readers differ: %s\n", difference.c_str());
  Check(difference.empty(), "the fast reader and the upload parser alone differ");
  if (!cmd.ok()) return 0;
  Check(cmd->cells.size() == cmd->records * cmd->columns.size(), "cells are not records x columns");
  Check(cmd->value_index.size() == cmd->mapping.size(), "value_index is not one per field");
  // The further columns checked as a field's (Magento's small_image) travel after the columns.
  const size_t width = cmd->columns.size() + cmd->extra_columns.size();
  Check(cmd->extra_cells.size() == cmd->records * cmd->extra_columns.size(),
        "extra cells are not records x extra columns");
  auto request = BuildValidatorRequest(*cmd);
  Check(request.ok(), "a small body made a too-large validator request");
  const auto& packed = request->packed();
  Check(packed.width() == width, "packed width is not the column count");
  Check(packed.rows() == cmd->records, "packed row count is not the record count");
  Check(static_cast<size_t>(packed.lengths_size()) == cmd->records * width, "row count differs");
  size_t text = 0;
  for (uint32_t n : packed.lengths()) text += n;
  Check(text == packed.data().size(), "packed lengths do not add up to the data");
  Check(request->ByteSizeLong() <= 64 + 16 * size + 64 * cmd->records * width,
        "the validator request is not bounded by the body");

  dq::validator::v1::ValidateResponse response;
  response.mutable_stats()->set_rows(cmd->records);
  for (size_t r = 1; r <= cmd->records; ++r) {
    for (const auto& [field, column] : cmd->mapping) {
      auto* issue = response.add_issues();
      issue->set_row(r);
      issue->set_field(field);
      issue->set_code("X");
      issue->set_original_value(std::string(body.substr(0, r % 7)));  // may cut UTF-8
      issue->set_fixed_value("fixed\x01\"\xC3");
    }
  }
  const std::string out = WriteValidateResponse(*cmd, response);
  auto json = nlohmann::json::parse(out, nullptr, /*allow_exceptions=*/false);
  Check(!json.is_discarded(), "the answer is not valid JSON");
  Check(json["cleaned"].size() == cmd->records, "cleaned has not one object per record");
  return 0;
}
