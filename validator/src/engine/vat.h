// VAT number validation for the 27 EU member states (EL for Greece, also accepted as GR, its
// ISO 3166 code, as python-stdnum and many invoices do), GB and XI: format and checksum per
// docs/rules.md §2. Algorithms re-implemented from their published
// descriptions. Pure; no allocation.
#pragma once

#include <string_view>

namespace dq::validator::vat {

enum class Verdict { kValid, kUnknownCountry, kBadFormat, kBadChecksum };

// `compact` is the number upper-cased with spaces, dots, hyphens and slashes removed, starting
// with its two-letter prefix (e.g. "DE136695976").
Verdict Check(std::string_view compact);

// Helpers, exposed for tests.
bool LuhnValid(std::string_view digits);
bool Mod11_10Valid(std::string_view digits);  // ISO 7064 Mod 11,10
bool Mod97_10Valid(std::string_view alnum);   // ISO 7064 Mod 97,10 (letters A=10..Z=35)

}  // namespace dq::validator::vat
