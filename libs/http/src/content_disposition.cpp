#include "dq/http/content_disposition.h"

#include <cstdint>

namespace dq::http {
namespace {

// The next UTF-8 character at s[i]: its code point, or -1 for a byte that starts no valid
// sequence; *len is how many bytes it took.
int32_t Next(std::string_view s, size_t i, size_t* len) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char c = b(0);
  *len = 1;
  if (c < 0x80) return c;
  size_t n = c >= 0xF0 && c < 0xF5 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
  if (n == 0 || i + n > s.size()) return -1;
  int32_t cp = c & (n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07);
  for (size_t k = 1; k < n; ++k) {
    if ((b(k) & 0xC0) != 0x80) return -1;
    cp = (cp << 6) | (b(k) & 0x3F);
  }
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
      (cp >= 0xD800 && cp <= 0xDFFF)) {
    return -1;
  }
  *len = n;
  return cp;
}

bool Removed(int32_t cp) {
  return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) || cp == 0x061C ||
         cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069);
}

bool AttrChar(unsigned char c) {  // RFC 8187 attr-char
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
         std::string_view("!#$&+-.^_`|~").find(static_cast<char>(c)) != std::string_view::npos;
}

}  // namespace

std::string AttachmentDisposition(std::string_view filename) {
  std::string ascii;
  std::string encoded;
  static const char* hex = "0123456789ABCDEF";
  for (size_t i = 0; i < filename.size();) {
    size_t len = 1;
    const int32_t cp = Next(filename, i, &len);
    const std::string_view bytes = filename.substr(i, len);
    i += len;
    if (cp < 0 || Removed(cp)) continue;
    ascii += cp < 0x80 && cp != '"' && cp != '\\' ? static_cast<char>(cp) : '_';
    for (unsigned char c : bytes) {
      if (AttrChar(c)) {
        encoded += static_cast<char>(c);
      } else {
        encoded += '%';
        encoded += hex[c >> 4];
        encoded += hex[c & 0xF];
      }
    }
  }
  if (ascii.empty()) {
    ascii = "download";
    encoded = "download";
  }
  return "attachment; filename=\"" + ascii + "\"; filename*=UTF-8''" + encoded;
}

}  // namespace dq::http
