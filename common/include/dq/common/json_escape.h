// JSON string literals without a JSON library, for hot paths (issue records, log lines, cleaned
// JSON output) where building a document object per value would cost more than the work.
#pragma once

#include <string>
#include <string_view>

namespace dq {

// Appends s as a JSON string literal, quotes included. Control characters, quotes and
// backslashes are escaped; other bytes are copied as they are (the caller passes UTF-8).
void AppendJsonString(std::string& out, std::string_view s);

}  // namespace dq
