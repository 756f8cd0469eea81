// Header-text helpers of the edge: Abseil's ASCII helpers (dq/common/ascii.h) and a list splitter.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "dq/common/ascii.h"

namespace dq::http::edge {

using ascii::EqualsIgnoreCase;
using ascii::Lower;
using ascii::Trim;

// The non-empty, trimmed items of a comma-separated list.
inline std::vector<std::string_view> SplitList(std::string_view s) {
  std::vector<std::string_view> out;
  while (!s.empty()) {
    const size_t comma = s.find(',');
    const std::string_view item = Trim(s.substr(0, comma));
    if (!item.empty()) out.push_back(item);
    if (comma == std::string_view::npos) break;
    s.remove_prefix(comma + 1);
  }
  return out;
}

}  // namespace dq::http::edge
