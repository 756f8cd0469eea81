// JSON string literals without a JSON library, for hot paths (issue records, the validate answer,
// log lines, cleaned JSON output) where building a document object per value would cost more
// than the work. The one escaper of the code base: strings are escaped as nlohmann's dump() does
// (", \, and control characters; everything else as UTF-8), and invalid UTF-8 becomes U+FFFD
// rather than an error (as DumpJson's does, though not always with as many U+FFFD), so the text
// written is always valid JSON.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace dq {

// Appends s as a JSON string literal, quotes included. A byte that starts no well-formed UTF-8
// sequence (RFC 3629) is written as U+FFFD.
void AppendJsonString(std::string& out, std::string_view s);

// The most bytes WriteJsonString writes for n bytes of text: a control character takes six
// ("\u0001"), a byte that starts no sequence three (U+FFFD), quotes two.
constexpr size_t JsonStringBound(size_t n) { return 2 + 6 * n; }

// AppendJsonString's bytes, written at p (room for JsonStringBound(s.size()) bytes); returns the
// end of what was written. For encoders that write a record into a buffer of known bound (the
// issue records of a validate answer: thousands a call) without a string's bookkeeping for
// every piece.
char* WriteJsonString(char* p, std::string_view s);

}  // namespace dq
