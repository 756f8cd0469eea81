#include "dq/common/json_escape.h"

#include <cstdint>
#include <cstring>
#include <string_view>

#include "dq/common/utf8_sequence.h"

namespace dq {
namespace {

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

// The escaping, written once for both writers. Out is a sink with Copy(bytes, n) and Put(c).
// Runs of plain text are found eight bytes at a time and copied whole; a byte of 0x80 and above
// starts a well-formed UTF-8 sequence, copied as it is, or is replaced by U+FFFD.
template <class Out>
void Escape(Out& out, const unsigned char* s, size_t n) {
  size_t i = 0;
  while (i < n) {
    size_t j = i;
    while (j + 8 <= n && !BlockMayNeedWork(s + j)) j += 8;
    while (j < n && !NeedsWork(s[j])) ++j;
    out.Copy(s + i, j - i);
    i = j;
    if (i >= n) break;
    const unsigned char c = s[i];
    if (c >= 0x80) {
      const size_t len = Utf8SequenceLength(std::string_view(reinterpret_cast<const char*>(s), n), i);
      if (len == 0) {
        out.Copy(reinterpret_cast<const unsigned char*>("\xEF\xBF\xBD"), 3);  // U+FFFD
        ++i;
      } else {
        out.Copy(s + i, len);
        i += len;
      }
      continue;
    }
    out.Put('\\');
    switch (c) {
      case '"': out.Put('"'); break;
      case '\\': out.Put('\\'); break;
      case '\b': out.Put('b'); break;
      case '\f': out.Put('f'); break;
      case '\n': out.Put('n'); break;
      case '\r': out.Put('r'); break;
      case '\t': out.Put('t'); break;
      default: {
        static constexpr char kHex[] = "0123456789abcdef";
        const unsigned char esc[5] = {'u', '0', '0', static_cast<unsigned char>(kHex[c >> 4]),
                                      static_cast<unsigned char>(kHex[c & 15])};
        out.Copy(esc, 5);
      }
    }
    ++i;
  }
}

struct StringOut {
  std::string& out;
  void Copy(const unsigned char* p, size_t n) { out.append(reinterpret_cast<const char*>(p), n); }
  void Put(char c) { out.push_back(c); }
};

struct PointerOut {
  char* p;
  void Copy(const unsigned char* from, size_t n) {
    std::memcpy(p, from, n);
    p += n;
  }
  void Put(char c) { *p++ = c; }
};

}  // namespace

void AppendJsonString(std::string& out, std::string_view text) {
  out.push_back('"');
  StringOut sink{out};
  Escape(sink, reinterpret_cast<const unsigned char*>(text.data()), text.size());
  out.push_back('"');
}

char* WriteJsonString(char* p, std::string_view text) {
  *p++ = '"';
  PointerOut sink{p};
  Escape(sink, reinterpret_cast<const unsigned char*>(text.data()), text.size());
  *sink.p++ = '"';
  return sink.p;
}

}  // namespace dq
