// Small ASCII helpers for header text (Debian's Abseil has its own string_view, not std's).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace dq::gateway::edge {

inline std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

inline std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

inline bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && Lower(a) == Lower(b);
}

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

}  // namespace dq::gateway::edge
