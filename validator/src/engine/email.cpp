#include "email.h"

#include <cstdint>

#include "text.h"

namespace dq::validator::email {
namespace {

bool IsAtext(unsigned char c) {
  if (c >= 0x80) return true;  // UTF-8 (validity is checked once for the whole address)
  if (text::IsAsciiAlpha(static_cast<char>(c)) || text::IsDigit(static_cast<char>(c))) {
    return true;
  }
  return std::string_view("!#$%&'*+-/=?^_`{|}~").find(static_cast<char>(c)) !=
         std::string_view::npos;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (text::ToLower(a[i]) != b[i]) return false;
  }
  return true;
}

Result Invalid(std::string_view why) { return {Verdict::kInvalid, why}; }

// The code point of the (valid) UTF-8 sequence starting at s[i]; i moves past it.
char32_t NextCodePoint(std::string_view s, size_t& i) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  const int len = b0 < 0x80 ? 1 : b0 < 0xE0 ? 2 : b0 < 0xF0 ? 3 : 4;
  char32_t cp = len == 1 ? b0 : len == 2 ? (b0 & 0x1F) : len == 3 ? (b0 & 0x0F) : (b0 & 0x07);
  for (int k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  i += static_cast<size_t>(len);
  return cp;
}

// Non-ASCII code points that are never part of a usable address (what python-email-validator
// rejects by Unicode category): C1 controls, spaces and line/paragraph separators (Z*), format
// characters such as zero-width and bidi controls (Cf), private use (Co) and noncharacters.
// Unassigned code points (Cn) would need Unicode's tables and are not recognised.
bool IsUnsafe(char32_t c) {
  if (c < 0xA0) return c >= 0x80;  // C1 controls
  if (c == 0xA0 || c == 0xAD || c == 0x1680 || c == 0x180E || c == 0x061C || c == 0x06DD ||
      c == 0x070F || c == 0x08E2 || c == 0x202F || c == 0x205F || c == 0x3000 || c == 0xFEFF ||
      c == 0x110BD || c == 0x110CD || c == 0xE0001) {
    return true;
  }
  if ((c >= 0x0600 && c <= 0x0605) || (c >= 0x2000 && c <= 0x200F) ||
      (c >= 0x2028 && c <= 0x202E) || (c >= 0x2060 && c <= 0x206F) ||
      (c >= 0xFFF9 && c <= 0xFFFB) || (c >= 0x13430 && c <= 0x13438) ||
      (c >= 0x1BCA0 && c <= 0x1BCA3) || (c >= 0x1D173 && c <= 0x1D17A) ||
      (c >= 0xE0020 && c <= 0xE007F)) {
    return true;
  }
  if ((c >= 0xE000 && c <= 0xF8FF) || c >= 0xF0000) return true;  // private use
  return (c >= 0xFDD0 && c <= 0xFDEF) || (c & 0xFFFE) == 0xFFFE;  // noncharacters
}

// Combining marks (the main Mn/Me blocks): they would attach to whatever precedes the address
// or label, so one may not come first.
bool IsCombiningMark(char32_t c) {
  return (c >= 0x0300 && c <= 0x036F) || (c >= 0x0483 && c <= 0x0489) ||
         (c >= 0x0591 && c <= 0x05BD) || (c >= 0x064B && c <= 0x065F) ||
         (c >= 0x1AB0 && c <= 0x1AFF) || (c >= 0x1DC0 && c <= 0x1DFF) ||
         (c >= 0x20D0 && c <= 0x20FF) || (c >= 0x3099 && c <= 0x309A) ||
         (c >= 0xFE20 && c <= 0xFE2F);
}

// For a part (local part or domain label) that has non-ASCII bytes: the sentence saying what is
// wrong with it, or empty.
std::string_view CheckNonAscii(std::string_view part) {
  size_t i = 0;
  bool first = true;
  while (i < part.size()) {
    const char32_t c = NextCodePoint(part, i);
    if (first && IsCombiningMark(c)) {
      return "The e-mail address has a combining mark where a part of it starts.";
    }
    if (IsUnsafe(c)) {
      return "The e-mail address contains an invisible, control or private-use character.";
    }
    first = false;
  }
  return {};
}

// Decodes the Punycode part of an A-label (RFC 3492; `p` is the label without "xn--") into out,
// which holds at least p.size() code points. Returns the number decoded, or -1 when p is not
// valid Punycode.
int DecodePunycode(std::string_view p, char32_t* out) {
  constexpr uint64_t kBase = 36, kTmin = 1, kTmax = 26, kSkew = 38, kDamp = 700;
  size_t len = 0;
  const size_t delim = p.rfind('-');
  size_t pos = 0;
  if (delim != std::string_view::npos) {
    for (size_t k = 0; k < delim; ++k) out[len++] = static_cast<unsigned char>(p[k]);
    pos = delim + 1;
  }
  uint64_t n = 128, i = 0, bias = 72;
  bool first = true;
  while (pos < p.size()) {
    const uint64_t old_i = i;
    uint64_t w = 1;
    for (uint64_t k = kBase;; k += kBase) {
      if (pos >= p.size()) return -1;
      const char c = text::ToLower(p[pos++]);
      uint64_t digit = kBase;  // invalid
      if (text::IsDigit(c)) digit = static_cast<uint64_t>(c - '0') + 26;
      if (c >= 'a' && c <= 'z') digit = static_cast<uint64_t>(c - 'a');
      if (digit >= kBase) return -1;
      i += digit * w;
      const uint64_t t = k <= bias ? kTmin : k >= bias + kTmax ? kTmax : k - bias;
      if (digit < t) break;
      w *= kBase - t;
      if (i > 0x10FFFF * 64 || w > 0x10FFFF * 64) return -1;  // far past any code point
    }
    uint64_t delta = first ? (i - old_i) / kDamp : (i - old_i) / 2;
    first = false;
    delta += delta / (len + 1);
    uint64_t k = 0;
    while (delta > (kBase - kTmin) * kTmax / 2) delta /= kBase - kTmin, k += kBase;
    bias = k + (kBase - kTmin + 1) * delta / (delta + kSkew);
    n += i / (len + 1);
    i %= len + 1;
    if (n > 0x10FFFF || (n >= 0xD800 && n <= 0xDFFF) || len >= p.size()) return -1;
    for (size_t m = len; m > i; --m) out[m] = out[m - 1];
    out[i++] = static_cast<char32_t>(n);
    ++len;
  }
  return static_cast<int>(len);
}

// An "xn--" label must be Punycode for a name with at least one non-ASCII character, and that
// name must pass the checks Unicode labels get.
std::string_view CheckALabel(std::string_view label) {
  static constexpr std::string_view kBad = "A label of the domain is not valid Punycode (xn--).";
  const std::string_view p = label.substr(4);
  char32_t u[64];
  const int n = p.empty() || p.back() == '-' ? -1 : DecodePunycode(p, u);
  if (n <= 0) return kBad;
  bool non_ascii = false;
  for (int k = 0; k < n; ++k) {
    non_ascii |= u[k] >= 0x80;
    if (IsUnsafe(u[k]) || (k == 0 && IsCombiningMark(u[k]))) return kBad;
  }
  return non_ascii ? std::string_view() : kBad;
}

bool HasNonAscii(std::string_view s) {
  for (char c : s) {
    if (static_cast<unsigned char>(c) >= 0x80) return true;
  }
  return false;
}

}  // namespace

Result Check(std::string_view a) {
  if (a.empty()) return Invalid("The e-mail address is empty.");
  const size_t at = a.find('@');
  if (at == std::string_view::npos) return Invalid("The e-mail address must have an @-sign.");
  if (a.find('@', at + 1) != std::string_view::npos) {
    return Invalid("The e-mail address must have exactly one @-sign.");
  }
  if (!text::IsValidUtf8(a)) return Invalid("The e-mail address is not valid UTF-8 text.");
  if (a.size() > 254) return Invalid("The e-mail address is longer than 254 characters.");
  const std::string_view local = a.substr(0, at);
  const std::string_view domain = a.substr(at + 1);
  if (local.empty()) return Invalid("There must be something before the @-sign.");
  if (local.size() > 64) return Invalid("The part before the @-sign is longer than 64 characters.");
  if (local.front() == '.' || local.back() == '.') {
    return Invalid("The part before the @-sign cannot start or end with a period.");
  }
  for (size_t i = 0; i < local.size(); ++i) {
    const char c = local[i];
    if (c == '.') {
      if (local[i + 1] == '.')
        return Invalid("An e-mail address cannot have two periods in a row.");
      continue;
    }
    if (!IsAtext(static_cast<unsigned char>(c))) {
      return Invalid("The part before the @-sign contains a character that is not allowed.");
    }
  }
  if (HasNonAscii(local)) {
    if (auto why = CheckNonAscii(local); !why.empty()) return Invalid(why);
  }
  if (domain.empty()) return Invalid("There must be a domain after the @-sign.");
  if (domain.size() > 253) return Invalid("The domain is longer than 253 characters.");
  size_t labels = 0;
  size_t start = 0;
  while (true) {
    const size_t dot = domain.find('.', start);
    const std::string_view label =
        domain.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (label.empty())
      return Invalid("The domain has an empty label (two periods, or a period at an end).");
    if (label.size() > 63) return Invalid("A label of the domain is longer than 63 characters.");
    if (label.front() == '-' || label.back() == '-') {
      return Invalid("A label of the domain cannot start or end with a hyphen.");
    }
    if (label.size() >= 4 && label[2] == '-' && label[3] == '-') {
      if (!EqualsIgnoreCase(label.substr(0, 2), "xn")) {
        return Invalid(
            "A label of the domain cannot have hyphens in its third and fourth positions.");
      }
      if (auto why = CheckALabel(label); !why.empty()) return Invalid(why);
    }
    bool non_ascii = false;
    for (char c : label) {
      const auto u = static_cast<unsigned char>(c);
      non_ascii |= u >= 0x80;
      if (u < 0x80 && !text::IsAsciiAlpha(c) && !text::IsDigit(c) && c != '-') {
        return Invalid("The domain contains a character that is not allowed.");
      }
    }
    if (non_ascii) {
      if (auto why = CheckNonAscii(label); !why.empty()) return Invalid(why);
    }
    ++labels;
    if (dot == std::string_view::npos) {
      // An internationalised top-level domain (e.g. рф, xn--p1ai) is a letter-only name too.
      if (!non_ascii && !text::IsAsciiAlpha(label.back())) {
        return Invalid("The domain does not end in a valid top-level domain.");
      }
      break;
    }
    start = dot + 1;
  }
  if (labels < 2) return Invalid("The domain must have a period, e.g. example.com.");
  // Special-use names (RFC 6761 and friends): the top-level label decides.
  const size_t last_dot = domain.rfind('.');
  const std::string_view tld = domain.substr(last_dot + 1);
  for (std::string_view s : {"arpa", "invalid", "local", "localhost", "onion", "test"}) {
    if (EqualsIgnoreCase(tld, s)) return {Verdict::kSpecialUse, {}};
  }
  return {};
}

}  // namespace dq::validator::email
