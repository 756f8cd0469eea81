// JSON output that never throws: invalid UTF-8 in user data is replaced with U+FFFD rather than
// turning a response into a 500.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace dq::gateway {

inline std::string DumpJson(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace dq::gateway
