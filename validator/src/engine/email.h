// E-mail address syntax: a practical RFC 5321 subset (rules-reference.md §4). Pure, no
// allocation.
#pragma once

#include <string_view>

namespace dq::validator::email {

enum class Verdict { kValid, kInvalid, kSpecialUse };

struct Result {
  Verdict verdict = Verdict::kValid;
  std::string_view reason;  // for kInvalid: one sentence saying what is wrong
};

// `addr` is already trimmed. Rules: exactly one '@'; local part a dot-atom (ASCII letters,
// digits and ! # $ % & ' * + - / = ? ^ _ ` { | } ~, or non-ASCII UTF-8) of 1-64 bytes, no
// leading, trailing or double dot; domain of 2+ labels, each 1-63 bytes of letters, digits
// (or non-ASCII UTF-8) and inner hyphens, no "--" in positions 3-4 unless the label starts
// "xn--"; the domain ends in an ASCII letter or in a non-ASCII top-level domain (e.g. рф); at
// most 253 bytes of domain and 254 in all. Non-ASCII text must not hold C1 controls, Unicode
// spaces, format (zero-width, bidi) or private-use characters, nor start a part with a
// combining mark. Domains under arpa, invalid, local, localhost, onion and test are
// kSpecialUse. IDNA 2008 code point tables and Punycode are not checked (docs/crosscheck.md).
Result Check(std::string_view addr);

}  // namespace dq::validator::email
