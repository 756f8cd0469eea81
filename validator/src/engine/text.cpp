#include "text.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace dq::validator::text {

bool NeedsWhitespaceFix(std::string_view s, bool collapse_inner) {
  if (s.empty()) return false;
  if (IsSpace(s.front()) || IsSpace(s.back())) return true;
  if (!collapse_inner) return false;
  // Every whitespace character is <= ' ', so one comparison clears almost every byte.
  const size_t n = s.size();
  for (size_t i = 0; i < n; ++i) {
    const char c = s[i];
    if (static_cast<unsigned char>(c) > ' ') continue;
    if (c != ' ') {
      if (IsSpace(c)) return true;
    } else if (i + 1 < n && IsSpace(s[i + 1])) {
      return true;
    }
  }
  return false;
}

std::string NormalizeWhitespace(std::string_view s, bool collapse_inner) {
  s = Trim(s);
  if (!collapse_inner) return std::string(s);
  std::string out;
  out.reserve(s.size());
  bool in_space = false;
  for (char c : s) {
    if (IsSpace(c)) {
      if (!in_space) out.push_back(' ');
      in_space = true;
    } else {
      out.push_back(c);
      in_space = false;
    }
  }
  return out;
}

bool IsAllDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!IsDigit(c)) return false;
  }
  return true;
}

size_t Utf8Length(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

bool IsValidUtf8(std::string_view s) {
  size_t i = 0;
  const size_t n = s.size();
  while (i < n) {
    // ASCII runs, most of any catalogue, a word (8 bytes) at a time.
    while (i + 8 <= n) {
      uint64_t word;
      std::memcpy(&word, s.data() + i, 8);
      if (word & 0x8080808080808080ull) break;
      i += 8;
    }
    if (i >= n) break;
    const auto c = static_cast<unsigned char>(s[i]);
    size_t len = 0;
    uint32_t cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      len = 2;
      cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      len = 3;
      cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      len = 4;
      cp = c & 0x07;
    } else {
      return false;
    }
    if (i + len > n) return false;
    for (size_t k = 1; k < len; ++k) {
      const auto cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3F);
    }
    // Overlong forms, surrogates and values past U+10FFFF are invalid.
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
        cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
      return false;
    }
    i += len;
  }
  return true;
}

bool IsPlainDecimal(std::string_view s) {
  size_t i = 0;
  size_t int_digits = 0;
  while (i < s.size() && IsDigit(s[i])) ++i, ++int_digits;
  if (i == s.size()) return int_digits > 0;
  if (s[i] != '.') return false;
  ++i;
  size_t frac_digits = 0;
  while (i < s.size() && IsDigit(s[i])) ++i, ++frac_digits;
  return i == s.size() && frac_digits > 0 && (int_digits > 0 || frac_digits > 0);
}

std::optional<double> ParsePlainDecimal(std::string_view s) {
  // One pass: the digits as one integer, and how many of them follow the point. When that
  // integer is at most 2^53 and the power of ten at most 10^22, both are exact doubles and one
  // IEEE division rounds their quotient correctly, which is from_chars's result too (prices,
  // weights: nearly every value). Longer numbers go to from_chars.
  static constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                      1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                      1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  constexpr uint64_t kExactLimit = ((uint64_t{1} << 53) - 9) / 10;  // m * 10 + 9 <= 2^53
  uint64_t m = 0;
  bool exact = true;
  size_t i = 0;
  auto digits = [&] {
    const size_t from = i;
    for (; i < s.size() && IsDigit(s[i]); ++i) {
      exact = exact && m <= kExactLimit;
      m = m * 10 + static_cast<uint64_t>(s[i] - '0');
    }
    return i - from;
  };
  const size_t int_digits = digits();
  size_t frac_digits = 0;
  if (i < s.size()) {
    if (s[i] != '.') return std::nullopt;
    ++i;
    frac_digits = digits();
    if (frac_digits == 0 || i != s.size()) return std::nullopt;
  } else if (int_digits == 0) {
    return std::nullopt;
  }
  if (exact && frac_digits < std::size(kPow10)) {
    return static_cast<double>(m) / kPow10[frac_digits];
  }
  double v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v, std::chars_format::fixed);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

namespace {

// Strips one currency marker from the front or back: a symbol ($ € £ ¥ ₹, optionally with a
// prefix like US$ or R$), the rupee's "Rs." / "Rs" (Indian public datasets: "Rs. 999", "₹1,099"),
// or a three-letter code separated by a space.
std::string_view StripCurrencyMarker(std::string_view s, std::string_view* marker) {
  static constexpr std::string_view kSymbols[] = {
      "US$",  "CA$", "AU$", "NZ$", "HK$", "R$", "S$", "$", "\xE2\x82\xAC" /* € */,
      "\xC2\xA3" /* £ */, "\xC2\xA5" /* ¥ */, "\xE2\x82\xB9" /* ₹ */, "Rs.", "Rs"};
  for (std::string_view sym : kSymbols) {
    if (s.size() > sym.size() && s.substr(0, sym.size()) == sym) {
      *marker = sym;
      return Trim(s.substr(sym.size()));
    }
    if (s.size() > sym.size() && s.substr(s.size() - sym.size()) == sym) {
      *marker = sym;
      return Trim(s.substr(0, s.size() - sym.size()));
    }
  }
  if (s.size() > 4 && IsAsciiAlpha(s[0]) && IsAsciiAlpha(s[1]) && IsAsciiAlpha(s[2]) &&
      s[3] == ' ') {
    *marker = s.substr(0, 3);
    return Trim(s.substr(4));
  }
  if (s.size() > 4 && s[s.size() - 4] == ' ' && IsAsciiAlpha(s[s.size() - 3]) &&
      IsAsciiAlpha(s[s.size() - 2]) && IsAsciiAlpha(s[s.size() - 1])) {
    *marker = s.substr(s.size() - 3);
    return Trim(s.substr(0, s.size() - 4));
  }
  return s;
}

// The rupee's markers: India writes commas only to group digits, in threes or in its own way
// (1,39,900), never as a decimal comma.
bool IsRupeeMarker(std::string_view m) {
  if (m == "\xE2\x82\xB9" || m == "Rs." || m == "Rs") return true;
  return m.size() == 3 && ToLower(m[0]) == 'i' && ToLower(m[1]) == 'n' && ToLower(m[2]) == 'r';
}

// "1,099" / "1,39,900.50" / "12,345,678" -> the digits without commas, when the last group of
// the whole part has three digits, the first one to three and any between two or three; nullopt
// otherwise.
std::optional<std::string> DropRupeeGrouping(std::string_view s) {
  const size_t dot = s.find('.');
  const std::string_view whole = s.substr(0, dot);
  const std::string_view frac = dot == std::string_view::npos ? std::string_view() : s.substr(dot);
  std::string out;
  size_t group = 0, groups = 0;
  for (char c : whole) {
    if (c == ',') {
      if (group == 0 || group > 3 || (groups > 0 && group < 2)) return std::nullopt;
      ++groups;
      group = 0;
      continue;
    }
    if (!IsDigit(c)) return std::nullopt;
    out.push_back(c);
    ++group;
  }
  if (groups == 0 || group != 3) return std::nullopt;
  out.append(frac);
  if (!IsPlainDecimal(out)) return std::nullopt;
  return out;
}

// "1,299.00" -> "1299.00" when every comma separates a group of exactly three digits and the
// first group has one to three; anything else (e.g. "12,5") is not a thousands grouping.
std::optional<std::string> DropThousandsCommas(std::string_view s) {
  const size_t dot = s.find('.');
  std::string_view int_part = s.substr(0, dot);
  std::string_view frac = dot == std::string_view::npos ? std::string_view() : s.substr(dot);
  if (int_part.find(',') == std::string_view::npos) return std::string(s);
  std::string out;
  size_t group = 0;
  bool first = true;
  for (char c : int_part) {
    if (c == ',') {
      if ((first && (group == 0 || group > 3)) || (!first && group != 3)) return std::nullopt;
      first = false;
      group = 0;
      continue;
    }
    if (!IsDigit(c)) return std::nullopt;
    out.push_back(c);
    ++group;
  }
  if (group != 3) return std::nullopt;
  out.append(frac);
  return out;
}

}  // namespace

namespace {

bool AllDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!IsDigit(c)) return false;
  }
  return true;
}

// "1.234.567" / "1,234,567" -> "1234567" when every separator starts a group of three digits
// and the first group has one to three; nullopt otherwise.
std::optional<std::string> DropGrouping(std::string_view s, char sep) {
  std::string out;
  size_t group = 0;
  bool first = true;
  for (char c : s) {
    if (c == sep) {
      if ((first && (group == 0 || group > 3)) || (!first && group != 3)) return std::nullopt;
      first = false;
      group = 0;
      continue;
    }
    if (!IsDigit(c)) return std::nullopt;
    out.push_back(c);
    ++group;
  }
  if (first || group != 3) return std::nullopt;
  return out;
}

}  // namespace

Amount ReadAmount(std::string_view s) {
  s = Trim(s);
  if (IsPlainDecimal(s)) return {AmountForm::kPlain, std::string(s)};
  if (s.empty()) return {};
  std::string_view marker;
  const std::string_view core = StripCurrencyMarker(s, &marker);
  if (IsPlainDecimal(core)) return {AmountForm::kReformatted, std::string(core)};
  const size_t commas = static_cast<size_t>(std::count(core.begin(), core.end(), ','));
  if (commas > 0 && IsRupeeMarker(marker)) {  // "₹1,099" is 1099, never ambiguous
    if (auto g = DropRupeeGrouping(core)) return {AmountForm::kReformatted, std::move(*g)};
    return {};
  }
  const size_t dots = static_cast<size_t>(std::count(core.begin(), core.end(), '.'));
  const size_t last_comma = core.rfind(',');
  const size_t last_dot = core.rfind('.');
  if (commas == 0 && dots >= 2) {
    if (auto g = DropGrouping(core, '.')) return {AmountForm::kReformatted, std::move(*g)};
    return {};
  }
  if (commas >= 1 && dots == 0) {
    if (commas >= 2) {
      if (auto g = DropGrouping(core, ',')) return {AmountForm::kReformatted, std::move(*g)};
      return {};
    }
    const std::string_view before = core.substr(0, last_comma);
    const std::string_view after = core.substr(last_comma + 1);
    if (!AllDigits(before) || !AllDigits(after)) return {};
    if (after.size() == 3 && before.size() <= 3 && before != "0") return {AmountForm::kAmbiguous, {}};
    return {AmountForm::kDecimalComma, std::string(before) + "." + std::string(after)};
  }
  if (commas >= 1 && dots >= 1) {
    if (last_dot > last_comma && dots == 1) {  // 1,299.00: thousands commas, decimal point
      auto plain = DropThousandsCommas(core);
      if (plain && IsPlainDecimal(*plain)) return {AmountForm::kReformatted, std::move(*plain)};
      return {};
    }
    if (last_comma > last_dot && commas == 1) {  // 1.234,56: thousands dots, decimal comma
      const std::string_view after = core.substr(last_comma + 1);
      auto whole = DropGrouping(core.substr(0, last_comma), '.');
      if (whole && AllDigits(after)) {
        return {AmountForm::kDecimalComma, *whole + "." + std::string(after)};
      }
    }
    return {};
  }
  return {};
}

std::optional<WeightUnitSpelling> ReadWeightUnit(std::string_view written) {
  written = Trim(written);
  char lower[16];
  if (written.empty() || written.size() > sizeof lower) return std::nullopt;
  for (size_t i = 0; i < written.size(); ++i) lower[i] = ToLower(written[i]);
  const std::string_view unit(lower, written.size());
  struct Spelling {
    std::string_view symbol;
    double grams;
    std::string_view names[6];
  };
  static constexpr Spelling kUnits[] = {
      {"g", 1, {"g", "gr", "gram", "grams"}},
      {"kg", 1000, {"kg", "kgs", "kilo", "kilos", "kilogram", "kilograms"}},
      {"lb", 453.59237, {"lb", "lbs", "pound", "pounds"}},
      {"oz", 28.349523125, {"oz", "ounce", "ounces"}},
  };
  for (const Spelling& u : kUnits) {
    for (std::string_view name : u.names) {
      if (!name.empty() && name == unit) return WeightUnitSpelling{u.symbol, u.grams};
    }
  }
  return std::nullopt;
}

std::optional<UnitWeight> ReadUnitWeight(std::string_view s) {
  s = Trim(s);
  size_t split = s.size();
  while (split > 0 && IsAsciiAlpha(s[split - 1])) --split;
  if (split == s.size() || split == 0) return std::nullopt;
  const std::string_view written = s.substr(split);
  const std::optional<WeightUnitSpelling> found = ReadWeightUnit(written);
  if (!found) return std::nullopt;
  const Amount a = ReadAmount(Trim(s.substr(0, split)));
  if (a.form != AmountForm::kPlain && a.form != AmountForm::kDecimalComma &&
      a.form != AmountForm::kReformatted) {
    return std::nullopt;
  }
  const auto v = ParsePlainDecimal(a.value);
  if (!v) return std::nullopt;
  return UnitWeight{a.value, written, found->symbol, *v * found->grams};
}

std::optional<double> WeightWithUnitInGrams(std::string_view s) {
  const auto w = ReadUnitWeight(s);
  if (!w) return std::nullopt;
  return w->grams;
}

namespace {
std::string FormatDecimals(double value, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  std::string out = buf;
  while (!out.empty() && out.back() == '0') out.pop_back();
  if (!out.empty() && out.back() == '.') out.pop_back();
  return out;
}
}  // namespace

std::string FormatGrams(double grams) { return FormatDecimals(grams, 2); }

std::string FormatWeight(double value) { return FormatDecimals(value, 4); }

std::optional<std::string> NormalizePrice(std::string_view s) {
  s = Trim(s);
  if (s.empty() || IsPlainDecimal(s)) return std::nullopt;
  std::string_view marker;
  std::string_view core = StripCurrencyMarker(s, &marker);
  auto plain = DropThousandsCommas(core);
  if (!plain || !IsPlainDecimal(*plain)) return std::nullopt;
  return plain;
}

}  // namespace dq::validator::text
