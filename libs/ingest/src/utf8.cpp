#include "dq/ingest/utf8.h"

#include <simdjson.h>

#include "dq/ingest/byte_scan.h"

namespace dq::ingest {
namespace {

// The position of the first bad byte, one sequence at a time (ASCII eight bytes at a time). Only
// called on text already known to be invalid, to say where.
size_t FirstInvalidByte(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    // ASCII fast path, eight bytes at a time: product files are mostly ASCII.
    while (i + 8 <= text.size() && bytes::NonAscii(bytes::Load8(text.data() + i)) == 0) i += 8;
    if (i >= text.size()) break;
    if (static_cast<unsigned char>(text[i]) < 0x80) {
      ++i;
      continue;
    }
    const size_t len = bytes::Utf8SequenceLength(text, i);
    if (len == 0) return i;
    i += len;
  }
  return std::string_view::npos;
}

}  // namespace

size_t FindInvalidUtf8(std::string_view text) {
  // simdjson's validator checks the same rules (RFC 3629) 32-64 bytes a step; nearly every text
  // is valid, so the byte-wise walk runs only to find where a bad one goes wrong.
  if (simdjson::validate_utf8(text.data(), text.size())) return std::string_view::npos;
  return FirstInvalidByte(text);
}

}  // namespace dq::ingest
