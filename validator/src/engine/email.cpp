#include "email.h"

#include <idn2.h>
#include <unictype.h>
#include <unistr.h>

#include <cstdint>
#include <string>

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

// For a part (local part or domain) that has non-ASCII bytes: the sentence saying what is wrong
// with it, or empty. By Unicode general category (libunistring, the library libidn2 is built
// on), as python-email-validator does: letters, marks, numbers, punctuation and symbols are
// allowed; separators (Z*) and other (C*: controls, format, surrogates, private use, unassigned)
// are not; a mark may not come first, where it would combine with what precedes the address.
std::string_view CheckNonAscii(std::string_view part) {
  const auto* s = reinterpret_cast<const uint8_t*>(part.data());
  const uint8_t* const end = s + part.size();
  bool first = true;
  while (s < end) {
    ucs4_t c = 0;
    const int n = u8_mbtoucr(&c, s, static_cast<size_t>(end - s));
    if (n <= 0) return "The e-mail address is not valid UTF-8 text.";
    s += n;
    if (first && uc_is_general_category(c, UC_CATEGORY_M)) {
      return "The e-mail address has a combining mark where a part of it starts.";
    }
    if (uc_is_general_category(c, UC_CATEGORY_Z) || uc_is_general_category(c, UC_CATEGORY_C)) {
      return "The e-mail address contains an invisible, control, private-use or unassigned "
             "character.";
    }
    first = false;
  }
  return {};
}

// An internationalised domain (non-ASCII, or with "xn--" A-labels) converted to its ASCII form
// by libidn2: UTS-46 mapping (non-transitional, which also turns the ideographic full stop and
// its variants into dots and lower-cases), then IDNA 2008 lookup (code point tables, CONTEXTJ,
// bidi, and Punycode that decodes to a valid U-label). Each A-label then passes libidn2's
// registration test as well, which adds the CONTEXTO rules (a middle dot only between two l,
// no mixed Arabic-Indic digit sets, ...) that python-idna applies too. Empty when the name is
// not a valid IDN.
std::string ToAsciiDomain(std::string_view domain) {
  const std::string z(domain);
  char* out = nullptr;
  const int rc = idn2_to_ascii_8z(z.c_str(), &out, IDN2_NFC_INPUT | IDN2_NONTRANSITIONAL);
  std::string ascii = rc == IDN2_OK && out != nullptr ? std::string(out) : std::string();
  idn2_free(out);
  size_t start = 0;
  while (!ascii.empty() && start < ascii.size()) {
    size_t dot = ascii.find('.', start);
    if (dot == std::string::npos) dot = ascii.size();
    const std::string label = ascii.substr(start, dot - start);
    if (label.starts_with("xn--")) {
      uint8_t* registered = nullptr;
      const int r =
          idn2_register_u8(nullptr, reinterpret_cast<const uint8_t*>(label.c_str()), &registered, 0);
      idn2_free(registered);
      if (r != IDN2_OK) return {};
    }
    start = dot + 1;
  }
  return ascii;
}

bool HasALabel(std::string_view domain) {
  for (size_t i = 0; i + 4 <= domain.size(); ++i) {
    if ((i == 0 || domain[i - 1] == '.') && EqualsIgnoreCase(domain.substr(i, 2), "xn") &&
        domain.substr(i + 2, 2) == "--") {
      return true;
    }
  }
  return false;
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
  // An internationalised domain is checked in its ASCII (A-label) form, as it travels in DNS.
  std::string idn;
  std::string_view ascii = domain;
  if (HasNonAscii(domain) || HasALabel(domain)) {
    if (HasNonAscii(domain)) {
      if (auto why = CheckNonAscii(domain); !why.empty()) return Invalid(why);
    }
    idn = ToAsciiDomain(domain);
    if (idn.empty()) {
      return Invalid("The domain is not a valid internationalised domain name (IDNA 2008).");
    }
    ascii = idn;
  }
  if (ascii.size() > 253) return Invalid("The domain is longer than 253 characters.");
  size_t labels = 0;
  size_t start = 0;
  while (true) {
    const size_t dot = ascii.find('.', start);
    const std::string_view label =
        ascii.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (label.empty())
      return Invalid("The domain has an empty label (two periods, or a period at an end).");
    if (label.size() > 63) return Invalid("A label of the domain is longer than 63 characters.");
    if (label.front() == '-' || label.back() == '-') {
      return Invalid("A label of the domain cannot start or end with a hyphen.");
    }
    if (label.size() >= 4 && label[2] == '-' && label[3] == '-' &&
        !EqualsIgnoreCase(label.substr(0, 2), "xn")) {
      return Invalid(
          "A label of the domain cannot have hyphens in its third and fourth positions.");
    }
    for (char c : label) {
      if (!text::IsAsciiAlpha(c) && !text::IsDigit(c) && c != '-') {
        return Invalid("The domain contains a character that is not allowed.");
      }
    }
    ++labels;
    if (dot == std::string_view::npos) {
      // Internationalised top-level domains (рф) end in a letter in their A-label form too.
      if (!text::IsAsciiAlpha(label.back())) {
        return Invalid("The domain does not end in a valid top-level domain.");
      }
      break;
    }
    start = dot + 1;
  }
  if (labels < 2) return Invalid("The domain must have a period, e.g. example.com.");
  // Special-use names (RFC 6761 and friends): the top-level label decides.
  const std::string_view tld = ascii.substr(ascii.rfind('.') + 1);
  for (std::string_view s : {"arpa", "invalid", "local", "localhost", "onion", "test"}) {
    if (EqualsIgnoreCase(tld, s)) return {Verdict::kSpecialUse, {}};
  }
  return {};
}

}  // namespace dq::validator::email
