#include "dq/common/json_escape.h"

#include <cstdint>
#include <cstring>

namespace dq {
namespace {

// Length of the well-formed UTF-8 sequence at s[i] (RFC 3629), or 0 when it is not one.
size_t Utf8SequenceLength(const unsigned char* s, size_t i, size_t n) {
  const unsigned char c = s[i];
  size_t len;
  unsigned char lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (i + len > n) return 0;
  if (s[i + 1] < lo || s[i + 1] > hi) return 0;
  for (size_t k = 2; k < len; ++k) {
    if ((s[i + k] & 0xC0) != 0x80) return 0;
  }
  return len;
}

bool NeedsWork(unsigned char c) { return c < 0x20 || c == '"' || c == '\\' || c >= 0x80; }

// Whether any of the 8 bytes at s may need work: a control character, '"', '\\' or a byte of
// 0x80 and above. Never false when one does (it may be true when none does: the caller then
// looks at each byte), so runs of plain text are skipped 8 bytes at a time.
bool BlockMayNeedWork(const unsigned char* s) {
  uint64_t v;
  std::memcpy(&v, s, 8);
  constexpr uint64_t kOnes = 0x0101010101010101ULL, kHigh = 0x8080808080808080ULL;
  auto has_zero = [](uint64_t x) { return (x - kOnes) & ~x & kHigh; };
  const uint64_t below_space = (v - 0x20 * kOnes) & ~v & kHigh;
  return ((v & kHigh) | below_space | has_zero(v ^ ('"' * kOnes)) |
          has_zero(v ^ ('\\' * kOnes))) != 0;
}

}  // namespace

void AppendJsonString(std::string& out, std::string_view text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  out.push_back('"');
  size_t i = 0;
  while (i < n) {
    // Copy the run of characters that need nothing.
    size_t j = i;
    while (j + 8 <= n && !BlockMayNeedWork(s + j)) j += 8;
    while (j < n && !NeedsWork(s[j])) ++j;
    out.append(text.data() + i, j - i);
    i = j;
    if (i >= n) break;
    const unsigned char c = s[i];
    if (c >= 0x80) {
      const size_t len = Utf8SequenceLength(s, i, n);
      if (len == 0) {
        out.append("\xEF\xBF\xBD");  // U+FFFD for a byte that starts no valid sequence
        ++i;
      } else {
        out.append(text.data() + i, len);
        i += len;
      }
      continue;
    }
    switch (c) {
      case '"': out.append("\\\""); break;
      case '\\': out.append("\\\\"); break;
      case '\b': out.append("\\b"); break;
      case '\f': out.append("\\f"); break;
      case '\n': out.append("\\n"); break;
      case '\r': out.append("\\r"); break;
      case '\t': out.append("\\t"); break;
      default: {
        static constexpr char kHex[] = "0123456789abcdef";
        const char esc[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
        out.append(esc, 6);
      }
    }
    ++i;
  }
  out.push_back('"');
}

char* WriteJsonString(char* p, std::string_view text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  *p++ = '"';
  size_t i = 0;
  while (i < n) {
    // Plain text eight bytes at a time, copied whole.
    while (i + 8 <= n && !BlockMayNeedWork(s + i)) {
      std::memcpy(p, s + i, 8);
      p += 8;
      i += 8;
    }
    if (i >= n) break;
    const unsigned char c = s[i];
    if (!NeedsWork(c)) {
      *p++ = static_cast<char>(c);
      ++i;
      continue;
    }
    if (c >= 0x80) {
      const size_t len = Utf8SequenceLength(s, i, n);
      if (len == 0) {
        std::memcpy(p, "\xEF\xBF\xBD", 3);  // U+FFFD for a byte that starts no valid sequence
        p += 3;
        ++i;
      } else {
        std::memcpy(p, s + i, len);
        p += len;
        i += len;
      }
      continue;
    }
    *p++ = '\\';
    switch (c) {
      case '"': *p++ = '"'; break;
      case '\\': *p++ = '\\'; break;
      case '\b': *p++ = 'b'; break;
      case '\f': *p++ = 'f'; break;
      case '\n': *p++ = 'n'; break;
      case '\r': *p++ = 'r'; break;
      case '\t': *p++ = 't'; break;
      default: {
        static constexpr char kHex[] = "0123456789abcdef";
        const char esc[5] = {'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
        std::memcpy(p, esc, 5);
        p += 5;
      }
    }
    ++i;
  }
  *p++ = '"';
  return p;
}

}  // namespace dq
