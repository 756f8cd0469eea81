// ASCII case and whitespace helpers: Abseil's (absl/strings), which gRPC already links, behind
// std::string_view. Debian's Abseil is built with its own absl::string_view (not an alias of
// std::string_view, see ABSL_OPTION_USE_STD_STRING_VIEW), so these wrappers only convert the
// view type; the work is Abseil's. Use these instead of private lower/trim copies.
#pragma once

#include <string>
#include <string_view>

#include <absl/strings/ascii.h>
#include <absl/strings/match.h>
#include <absl/strings/string_view.h>

namespace dq::ascii {

inline absl::string_view ToAbsl(std::string_view s) { return {s.data(), s.size()}; }
inline std::string_view FromAbsl(absl::string_view s) { return {s.data(), s.size()}; }

// Without leading and trailing ASCII whitespace (space, \t, \n, \v, \f, \r).
inline std::string_view Trim(std::string_view s) {
  return FromAbsl(absl::StripAsciiWhitespace(ToAbsl(s)));
}

// A copy with A-Z made a-z; other bytes (UTF-8 included) unchanged.
inline std::string Lower(std::string_view s) { return absl::AsciiStrToLower(ToAbsl(s)); }
// A copy with a-z made A-Z; other bytes unchanged.
inline std::string Upper(std::string_view s) { return absl::AsciiStrToUpper(ToAbsl(s)); }
// Lower-cased and trimmed.
inline std::string LowerTrim(std::string_view s) { return Lower(Trim(s)); }

inline bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return absl::EqualsIgnoreCase(ToAbsl(a), ToAbsl(b));
}
inline bool StartsWithIgnoreCase(std::string_view s, std::string_view prefix) {
  return absl::StartsWithIgnoreCase(ToAbsl(s), ToAbsl(prefix));
}

// A number equal to zero as a source writes it, surrounding whitespace aside: one or more 0s,
// then optionally a decimal point or comma and more 0s ("0", "00", "0.0", "0,00"; not "-0",
// "0 kg" or "."). A profile's zero_is_empty convention reads such a value as no value.
inline bool IsZeroNumber(std::string_view v) {
  v = Trim(v);
  size_t i = 0;
  while (i < v.size() && v[i] == '0') ++i;
  if (i == 0) return false;
  if (i < v.size() && (v[i] == '.' || v[i] == ',')) {
    for (++i; i < v.size() && v[i] == '0';) ++i;
  }
  return i == v.size();
}

}  // namespace dq::ascii
