// GTIN / EAN / UPC / ISBN arithmetic (docs/rules.md §1). Pure functions on digit strings;
// no allocation except where a string is returned.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace dq::validator::gtin {

// GS1 mod-10 check digit of `body` (all digits, any length): weights 3,1,3,... from the right.
int Gs1CheckDigit(std::string_view body);
// True when `digits` (all digits, length >= 2) ends in its GS1 check digit.
bool Gs1Valid(std::string_view digits);

// UPC-E (8 digits, number system 0 or 1) expanded to UPC-A (12 digits), keeping the check
// digit; nullopt when `upce` is not 8 digits with number system 0 or 1. The caller checks the
// result's check digit.
std::optional<std::string> ExpandUpcE(std::string_view upce);

// ISBN-10: 9 digits then a digit or 'X' (upper case); true when the mod-11 sum is 0.
bool Isbn10Valid(std::string_view s);
// The ISBN-13 of a valid ISBN-10 (978 + first nine digits + new GS1 check digit).
std::string Isbn10To13(std::string_view isbn10);

// Classification of a GTIN (8, 12, 13 or 14 digits, check digit already valid) by its prefix,
// judged on the 13-digit form (GTIN-14 drops its indicator digit, GTIN-12 gains a leading 0);
// GTIN-8 has its own prefix space (0 and 2: restricted-circulation RCN-8).
enum class Prefix { kNormal, kRestricted, kCoupon, kIsbn };
Prefix ClassifyPrefix(std::string_view digits);

// True for values such as "4.00638E+12" or "4.006381333931e12": a spreadsheet's scientific
// notation of a number.
bool LooksScientific(std::string_view s);

}  // namespace dq::validator::gtin
