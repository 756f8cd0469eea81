// Writing JSON text directly (no DOM) for the hot answers. Strings are escaped as nlohmann's
// dump() does (", \, and control characters; everything else as UTF-8), and invalid UTF-8 in
// user data becomes U+FFFD rather than an error, as DumpJson does.
#pragma once

#include <string>
#include <string_view>

namespace dq::gateway {

// Appends s as a JSON string literal, quotes included.
void AppendJsonString(std::string& out, std::string_view s);

}  // namespace dq::gateway
