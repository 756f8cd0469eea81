// E-mail address syntax: a practical RFC 5321 subset (docs/rules.md §4). Pure (no I/O);
// internationalised domains go through libidn2 (IDNA 2008 / UTS-46), Unicode categories come
// from libunistring.
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
// leading, trailing or double dot. Non-ASCII text must be letters, marks, numbers, punctuation
// or symbols (no separators, controls, format, private-use or unassigned code points), and a
// part may not start with a mark. A domain with non-ASCII text or "xn--" labels must be a valid
// IDNA 2008 name after UTS-46 mapping (libidn2), and is then checked in its ASCII form: 2+
// labels, each 1-63 letters, digits and inner hyphens, no "--" in positions 3-4 except "xn--",
// ending in a letter, at most 253 characters; 254 bytes in all. Domains under arpa, invalid,
// local, localhost, onion and test are kSpecialUse.
Result Check(std::string_view addr);

}  // namespace dq::validator::email
