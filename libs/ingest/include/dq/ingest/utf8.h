// UTF-8 for ingested files: the one rule of a well-formed sequence, the search for the first byte
// that breaks it, and the words for that byte. Uploads must be UTF-8; anything else is reported
// with the position of the first bad byte rather than silently re-encoded (which would change the
// data the merchant gets back). The JSON parser's string scan checks each sequence it meets with
// the same rule (json_text.cpp).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace dq::ingest {

// The length (2 to 4) of the well-formed UTF-8 sequence that starts at s[i], a byte at or above
// 0x80; 0 when none starts there (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF,
// and a sequence cut off by the end of s is not well-formed).
size_t Utf8SequenceLength(std::string_view s, size_t i);

// Offset of the first byte of `text` that does not start or continue a well-formed UTF-8
// sequence (the rule above), or npos when the whole text is valid. A sequence cut off by the end
// of `text` counts as invalid at its first byte.
size_t FindInvalidUtf8(std::string_view text);

// The words for the invalid byte at text[i], an offset that FindInvalidUtf8 or
// Utf8SequenceLength refused (so a byte at or above 0x80): "invalid UTF-8 byte 0xE9".
std::string InvalidUtf8Words(std::string_view text, size_t i);

}  // namespace dq::ingest
