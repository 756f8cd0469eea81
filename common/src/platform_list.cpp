#include "dq/common/platform_list.h"

#include <algorithm>
#include <string>

#include "dq/common/vocabulary.h"

namespace dq {
namespace {

std::string_view TrimSpaces(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

Status Invalid(std::string message) {
  return Status(ErrorCode::kInvalidRequest, std::move(message));
}

}  // namespace

Result<std::vector<size_t>> ParsePlatformList(std::string_view text) {
  std::vector<size_t> out;
  if (TrimSpaces(text).empty()) return out;
  if (TrimSpaces(text) == "all") {
    for (size_t i = 0; i < kPlatforms.size(); ++i) out.push_back(i);
    return out;
  }
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    const std::string_view item =
        TrimSpaces(text.substr(start, comma == std::string_view::npos ? text.npos : comma - start));
    if (item.empty()) return Invalid("platform list has an empty item");
    if (item == "all") return Invalid("'all' cannot be combined with other platforms");
    const auto i = IndexOf(kPlatforms, item);
    if (!i) return Invalid("unknown platform '" + std::string(item) + "'");
    if (std::find(out.begin(), out.end(), *i) != out.end()) {
      return Invalid("platform '" + std::string(item) + "' is listed twice");
    }
    out.push_back(*i);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace dq
