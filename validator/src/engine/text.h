// Small, allocation-free text helpers the rules share. ASCII-aware where noted; UTF-8 safe
// everywhere (they never split a multi-byte sequence).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "dq/common/ascii.h"

namespace dq::validator::text {

inline bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }
inline bool IsAsciiAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
inline char ToUpper(char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 32) : c; }
inline char ToLower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; }

// Without leading and trailing ASCII whitespace (Abseil's, through dq/common/ascii.h).
using ascii::Trim;
// True when s has leading/trailing whitespace, or (if collapse_inner) a run of 2+ whitespace
// characters or a whitespace character other than ' ' inside.
bool NeedsWhitespaceFix(std::string_view s, bool collapse_inner);
// Trimmed and, if collapse_inner, with every inner run of whitespace made one space.
std::string NormalizeWhitespace(std::string_view s, bool collapse_inner);

bool IsAllDigits(std::string_view s);

// Unicode code points in UTF-8 text (continuation bytes are not counted).
size_t Utf8Length(std::string_view s);
// At most the first n bytes of s, cut where a character starts (never inside a UTF-8 sequence):
// a value quoted in a message ("Description contains the link '...'") stays well-formed.
inline std::string_view Utf8Prefix(std::string_view s, size_t n) {
  if (s.size() <= n) return s;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;  // s[n] continues
  return s.substr(0, n);
}
// True when s is valid UTF-8.
bool IsValidUtf8(std::string_view s);

// A plain decimal: digits, optionally one '.' followed by digits ("12", "12.50", "0.5").
// No sign, exponent, separators or spaces.
bool IsPlainDecimal(std::string_view s);
// The value of a plain decimal, or nullopt.
std::optional<double> ParsePlainDecimal(std::string_view s);

// Rewrites a price written with a currency symbol or code and/or thousands separators as a plain
// decimal ("$1,299.00" -> "1299.00", "EUR 12.50" -> "12.50"), when that reading is the only one.
// nullopt when s is already plain, or when it is ambiguous (e.g. "1.299,00" or "12,5").
std::optional<std::string> NormalizePrice(std::string_view s);

// A number as spreadsheets and European exports write it, read as a plain decimal:
//   kPlain         already a plain decimal (value = s);
//   kReformatted   currency marker and/or thousands separators dropped ("$1,299.00",
//                  "1,234,567", "1.234.567");
//   kDecimalComma  the comma can only be a decimal comma ("19,99", "1234,5", "1.234,56");
//   kAmbiguous     "12,500": a decimal or a thousands comma; value is empty;
//   kUnreadable    anything else.
enum class AmountForm { kPlain, kReformatted, kDecimalComma, kAmbiguous, kUnreadable };
struct Amount {
  AmountForm form = AmountForm::kUnreadable;
  std::string value;  // the plain decimal for kPlain, kReformatted and kDecimalComma
};
Amount ReadAmount(std::string_view s);

// A weight with a unit: "1.2 kg", "2lbs", "3,5 oz", "500 g" (case-insensitive; the number as
// ReadAmount reads it, ambiguous commas refused). Grams, or nullopt when s has no known unit.
std::optional<double> WeightWithUnitInGrams(std::string_view s);
// The same reading, in parts: the number as a plain decimal ("3,5" -> "3.5"), the unit as
// written ("lbs") and its symbol, one of "g", "kg", "lb" and "oz" (the units Merchant Center
// and Meta take). nullopt when WeightWithUnitInGrams is.
struct UnitWeight {
  std::string number;
  std::string_view unit;
  std::string_view symbol;
  double grams = 0;
};
std::optional<UnitWeight> ReadUnitWeight(std::string_view s);
// A weight unit written on its own ("kg", "LBS", " grams "): its symbol (g, kg, lb or oz) and
// grams per unit, for the spellings ReadUnitWeight knows. nullopt for anything else.
struct WeightUnitSpelling {
  std::string_view symbol;
  double grams = 0;
};
std::optional<WeightUnitSpelling> ReadWeightUnit(std::string_view unit);
// Grams with at most 2 decimals, trailing zeros dropped: 1200 -> "1200", 453.59237 -> "453.59".
std::string FormatGrams(double grams);
// A weight in kilograms, pounds or ounces with at most 4 decimals, trailing zeros dropped:
// 0.5 -> "0.5", 1.10231131 -> "1.1023" (a gram is 0.0022 lb).
std::string FormatWeight(double value);

}  // namespace dq::validator::text
