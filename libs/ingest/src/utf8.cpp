#include "dq/ingest/utf8.h"

#include <simdjson.h>

#include <algorithm>

namespace dq::ingest {
namespace {

bool IsContinuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// Where the walk of FindInvalidUtf8 stops: one sequence at a time from `from`, which starts a
// sequence (or is a bad byte).
size_t WalkFrom(std::string_view text, size_t from) {
  size_t i = from;
  while (i < text.size()) {
    if (static_cast<unsigned char>(text[i]) < 0x80) {
      ++i;
      continue;
    }
    const size_t len = Utf8SequenceLength(text, i);
    if (len == 0) return i;
    i += len;
  }
  return std::string_view::npos;
}

// The position of the first bad byte, in text already known to be invalid. simdjson checks a
// block at a time (32-64 bytes a step, whatever the script); only the first block it refuses is
// walked a sequence at a time. A block ends where a sequence starts, so a valid block leaves
// the walk exactly at the next block's first byte.
size_t FirstInvalidByte(std::string_view text) {
  constexpr size_t kBlock = 4096;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = std::min(at + kBlock, text.size());
    // Back over at most 3 continuation bytes to the start of the sequence the block would cut.
    for (int k = 0; k < 3 && end < text.size() && end > at + 1 && IsContinuation(text[end]); ++k) {
      --end;
    }
    if (!simdjson::validate_utf8(text.data() + at, end - at)) return WalkFrom(text, at);
    at = end;
  }
  return std::string_view::npos;
}

}  // namespace

size_t Utf8SequenceLength(std::string_view s, size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  size_t len;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    if (c == 0xE0) lo = 0xA0;  // no overlongs
    if (c == 0xED) hi = 0x9F;  // no surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    if (c == 0xF0) lo = 0x90;  // no overlongs
    if (c == 0xF4) hi = 0x8F;  // nothing above U+10FFFF
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  const auto second = static_cast<unsigned char>(s[i + 1]);
  if (second < lo || second > hi) return 0;
  for (size_t k = 2; k < len; ++k) {
    if (!IsContinuation(s[i + k])) return 0;
  }
  return len;
}

size_t FindInvalidUtf8(std::string_view text) {
  // simdjson's validator checks the same rules (RFC 3629) 32-64 bytes a step; nearly every text
  // is valid, so the search for where a bad one goes wrong runs only on a text that is.
  if (simdjson::validate_utf8(text.data(), text.size())) return std::string_view::npos;
  return FirstInvalidByte(text);
}

std::string InvalidUtf8Words(std::string_view text, size_t i) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  const auto c = static_cast<unsigned char>(text[i]);
  return std::string("invalid UTF-8 byte 0x") + kDigits[c >> 4] + kDigits[c & 15];
}

}  // namespace dq::ingest
