// JSON output that never throws: invalid UTF-8 in user data is replaced with U+FFFD rather than
// turning a response into a 500.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "dq/ingest/json_body_reader.h"

namespace dq::http {

inline std::string DumpJson(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}
// The same, members in the order they were set (error bodies).
inline std::string DumpJson(const nlohmann::ordered_json& j) {
  return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

// The nesting bound for untrusted JSON, shared with the JSON readers (dq/ingest/json_body_reader.h).
using ingest::JsonNestingWithin;
using ingest::kMaxJsonDepth;

}  // namespace dq::http
