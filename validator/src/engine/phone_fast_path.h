// libphonenumber's Parse + IsValidNumber + Format(E164), re-run on RE2 for the shapes customer
// files hold, so that a phone number costs ~1 µs instead of ~30 µs (ICU regexps).
//
// Exactness, not coverage, is the contract: the fast path answers only for inputs whose every
// parsing step it replays exactly (same metadata bytes, same order of steps, same regular
// expressions compiled for RE2), and says kUnsure for everything else, which the caller hands
// to libphonenumber. It answers for:
//   - characters: ASCII digits, space, '-', '.', '(', ')', and one '+' before the first digit;
//     at least 3 digits (then libphonenumber's "viable number" test always passes and no
//     extension, RFC 3966 or vanity-letter rule can apply);
//   - every region and non-geographic calling code in the compiled-in metadata, with
//     international prefixes, national prefixes, carrier codes and transform rules, the default
//     region's calling code written without '+', and calling codes shared by several regions.
// It does not answer (kUnsure) for: letters, extensions, '/', tabs or non-ASCII characters, a
// '+' followed by no known calling code (libphonenumber's retry without the '+'), and any
// metadata entry that RE2 could not compile or whose transform rule it does not understand.
// docs/architecture.md ("Phone numbers") has the design;
// tests/unit/validator/phone_fast_path_test.cpp and bench/phone_agreement.cpp compare it with
// libphonenumber.
//
// Thread-safe: the tables are built once per process (function-local static) and each
// region's expressions are compiled on first use (std::call_once); RE2 matching is const.
#pragma once

#include <string>
#include <string_view>

namespace dq::validator::phone_fast_path {

enum class Outcome {
  kValid,    // libphonenumber parses it and IsValidNumber is true; *e164 is set
  kInvalid,  // libphonenumber fails to parse it or IsValidNumber is false
  kUnsure,   // not decided here: ask libphonenumber
};

// `number` as written; `region` the default region as libphonenumber's Parse takes it (an
// ISO 3166-1 alpha-2 code, or "ZZ"/anything unknown when there is none). Never throws.
Outcome Check(std::string_view number, std::string_view region, std::string* e164);

}  // namespace dq::validator::phone_fast_path
