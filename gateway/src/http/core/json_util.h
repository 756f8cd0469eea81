// JSON output that never throws: invalid UTF-8 in user data is replaced with U+FFFD rather than
// turning a response into a 500.
#pragma once

#include <nlohmann/json.hpp>
#include <cstring>
#include <string>
#include <string_view>

namespace dq::gateway {

inline std::string DumpJson(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}
// The same, members in the order they were set (error bodies).
inline std::string DumpJson(const nlohmann::ordered_json& j) {
  return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

// How deep untrusted JSON may nest. nlohmann's parser is iterative, but serialising and
// destroying a value recurse once per level: a body of 100,000 '[' would overflow the stack.
inline constexpr size_t kMaxJsonDepth = 64;

// True when no array or object in text nests deeper than max_depth. Brackets inside strings
// do not count. Cheap (one pass, no allocation); run it before handing text to nlohmann.
inline bool JsonNestingWithin(std::string_view text, size_t max_depth = kMaxJsonDepth) {
  size_t depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      // Jump to the string's closing quote: the next quote after an even number of
      // backslashes. memchr runs a word at a time, and strings are most of a body.
      size_t from = i + 1;
      while (true) {
        const void* q = std::memchr(text.data() + from, '"', text.size() - from);
        if (q == nullptr) return true;  // not closed: the parser says so
        const size_t at = static_cast<size_t>(static_cast<const char*>(q) - text.data());
        size_t k = at;
        while (k > i + 1 && text[k - 1] == '\\') --k;
        if ((at - k) % 2 == 0) {
          i = at;
          break;
        }
        from = at + 1;
      }
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) return false;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return true;
}

}  // namespace dq::gateway
