#include "vat.h"

#include <array>
#include <cstdint>
#include <initializer_list>

#include "iso_date.h"
#include "text.h"

namespace dq::validator::vat {
namespace {

using text::IsAllDigits;
using text::IsDigit;

int D(char c) { return c - '0'; }

// Σ w[i]·d[i] over the first weights.size() digits.
int Weighted(std::string_view d, std::initializer_list<int> weights) {
  int sum = 0;
  size_t i = 0;
  for (int w : weights) sum += w * D(d[i++]);
  return sum;
}

uint64_t ToInt(std::string_view d) {
  uint64_t v = 0;
  for (char c : d) v = v * 10 + static_cast<uint64_t>(D(c));
  return v;
}

int LuhnSum(std::string_view d) {
  int sum = 0;
  bool dbl = false;
  for (size_t i = d.size(); i-- > 0;) {
    int v = D(d[i]);
    if (dbl) v = v * 2 > 9 ? v * 2 - 9 : v * 2;
    sum += v;
    dbl = !dbl;
  }
  return sum % 10;
}

bool ValidDate(int y, int m, int d) { return iso_date::IsValidDate(y, m, d); }

Verdict Ok(bool ok) { return ok ? Verdict::kValid : Verdict::kBadChecksum; }

// --- per country: b is the body after the prefix ---

Verdict At(std::string_view b) {
  if (b.size() != 9 || b[0] != 'U' || !IsAllDigits(b.substr(1))) return Verdict::kBadFormat;
  const int check = (6 - LuhnSum(b.substr(1, 7)) + 10) % 10;
  return Ok(check == D(b[8]));
}

Verdict Be(std::string_view b) {
  // 9-digit legacy numbers are the 10-digit form without its leading 0.
  if (!IsAllDigits(b) || (b.size() != 10 && b.size() != 9)) return Verdict::kBadFormat;
  if (b.size() == 10 && b[0] != '0' && b[0] != '1') return Verdict::kBadFormat;
  const std::string_view head = b.substr(0, b.size() - 2);
  return Ok((ToInt(head) + ToInt(b.substr(b.size() - 2))) % 97 == 0);
}

bool BgEgn(std::string_view b) {
  int y = D(b[0]) * 10 + D(b[1]), m = D(b[2]) * 10 + D(b[3]);
  const int d = D(b[4]) * 10 + D(b[5]);
  if (m > 40) {
    y += 2000, m -= 40;
  } else if (m > 20) {
    y += 1800, m -= 20;
  } else {
    y += 1900;
  }
  if (!ValidDate(y, m, d)) return false;
  return Weighted(b, {2, 4, 8, 5, 10, 9, 7, 3, 6}) % 11 % 10 == D(b[9]);
}

Verdict Bg(std::string_view b) {
  if (!IsAllDigits(b)) return Verdict::kBadFormat;
  if (b.size() == 9) {
    int c = Weighted(b, {1, 2, 3, 4, 5, 6, 7, 8}) % 11;
    if (c == 10) c = Weighted(b, {3, 4, 5, 6, 7, 8, 9, 10}) % 11;
    return Ok(c % 10 == D(b[8]));
  }
  if (b.size() != 10) return Verdict::kBadFormat;
  if (BgEgn(b)) return Verdict::kValid;
  if (Weighted(b, {21, 19, 17, 13, 11, 9, 7, 3, 1}) % 10 == D(b[9])) return Verdict::kValid;
  // Others (foreigners, ...): a check value of 10 has no digit, so no number ends with it.
  return Ok((11 - Weighted(b, {4, 3, 2, 7, 6, 5, 4, 3, 2}) % 11) % 11 == D(b[9]));
}

Verdict Cy(std::string_view b) {
  if (b.size() != 9 || !IsAllDigits(b.substr(0, 8)) || !text::IsAsciiAlpha(b[8])) {
    return Verdict::kBadFormat;
  }
  if (b[0] == '1' && b[1] == '2') return Verdict::kBadFormat;
  static constexpr int kOdd[] = {1, 0, 5, 7, 9, 13, 15, 17, 19, 21};
  int sum = 0;
  for (size_t i = 0; i < 8; ++i) sum += (i % 2 == 0) ? kOdd[D(b[i])] : D(b[i]);
  return Ok(b[8] == static_cast<char>('A' + sum % 26));
}

// Czech/Slovak birth number (rodné číslo).
bool BirthNumberValid(std::string_view b) {
  if (b.size() != 9 && b.size() != 10) return false;
  int year = 1900 + D(b[0]) * 10 + D(b[1]);
  const int month = (D(b[2]) * 10 + D(b[3])) % 50 % 20;
  const int day = D(b[4]) * 10 + D(b[5]);
  if (b.size() == 9) {
    if (year >= 1980) year -= 100;
    if (year > 1953) return false;
  } else if (year < 1954) {
    year += 100;
  }
  if (!ValidDate(year, month, day)) return false;
  if (b.size() == 10) {
    uint64_t check = ToInt(b.substr(0, 9)) % 11;
    if (year < 1985) check %= 10;
    if (static_cast<uint64_t>(D(b[9])) != check) return false;
  }
  return true;
}

Verdict Cz(std::string_view b) {
  if (!IsAllDigits(b)) return Verdict::kBadFormat;
  if (b.size() == 8) {
    if (b[0] == '9') return Verdict::kBadFormat;
    int c = (11 - Weighted(b, {8, 7, 6, 5, 4, 3, 2}) % 11) % 11;
    if (c == 0) c = 1;
    return Ok(c % 10 == D(b[7]));
  }
  if (b.size() == 9 && b[0] == '6') {
    const int c = Weighted(b.substr(1), {8, 7, 6, 5, 4, 3, 2}) % 11;
    return Ok(((8 - (10 - c) % 11) % 10 + 10) % 10 == D(b[8]));
  }
  if (b.size() == 9 || b.size() == 10) return Ok(BirthNumberValid(b));
  return Verdict::kBadFormat;
}

Verdict De(std::string_view b) {
  if (b.size() != 9 || !IsAllDigits(b) || b[0] == '0') return Verdict::kBadFormat;
  return Ok(Mod11_10Valid(b));
}

Verdict Dk(std::string_view b) {
  if (b.size() != 8 || !IsAllDigits(b) || b[0] == '0') return Verdict::kBadFormat;
  return Ok(Weighted(b, {2, 7, 6, 5, 4, 3, 2, 1}) % 11 == 0);
}

Verdict Ee(std::string_view b) {
  if (b.size() != 9 || !IsAllDigits(b)) return Verdict::kBadFormat;
  return Ok(Weighted(b, {3, 7, 1, 3, 7, 1, 3, 7, 1}) % 10 == 0);
}

Verdict El(std::string_view b) {
  // Numbers issued before 1999 have 8 digits: the 9-digit form with a leading 0 (which adds
  // nothing to the checksum below).
  if ((b.size() != 9 && b.size() != 8) || !IsAllDigits(b)) return Verdict::kBadFormat;
  int c = 0;
  for (size_t i = 0; i + 1 < b.size(); ++i) c = c * 2 + D(b[i]);
  return Ok(c * 2 % 11 % 10 == D(b.back()));
}

char DniLetter(uint64_t n) { return "TRWAGMYFPDXBNJZSQVHLCKE"[n % 23]; }

Verdict Es(std::string_view b) {
  if (b.size() != 9 || !IsAllDigits(b.substr(1, 7))) return Verdict::kBadFormat;
  const char first = b[0], last = b[8];
  if (IsDigit(first)) {  // DNI: 8 digits + letter
    if (!IsDigit(last) && !text::IsAsciiAlpha(last)) return Verdict::kBadFormat;
    return Ok(DniLetter(ToInt(b.substr(0, 8))) == last);
  }
  if (first == 'K' || first == 'L' || first == 'M') {
    return Ok(DniLetter(ToInt(b.substr(1, 7))) == last);
  }
  if (first == 'X' || first == 'Y' || first == 'Z') {  // NIE: X, Y, Z stand for 0, 1, 2
    const uint64_t n = static_cast<uint64_t>(first - 'X') * 10000000 + ToInt(b.substr(1, 7));
    return Ok(DniLetter(n) == last);
  }
  if (std::string_view("ABCDEFGHJNPQRSUVW").find(first) == std::string_view::npos) {
    return Verdict::kBadFormat;
  }
  // CIF: Luhn check digit of the 7 digits, written as a digit or as a letter J,A..I.
  char digits[8] = {b[1], b[2], b[3], b[4], b[5], b[6], b[7], '0'};
  const int check = (10 - LuhnSum(std::string_view(digits, 8))) % 10;
  return Ok(last == static_cast<char>('0' + check) || last == "JABCDEFGHI"[check]);
}

Verdict Fi(std::string_view b) {
  if (b.size() != 8 || !IsAllDigits(b)) return Verdict::kBadFormat;
  return Ok(Weighted(b, {7, 9, 10, 5, 8, 4, 2, 1}) % 11 == 0);
}

Verdict Fr(std::string_view b) {
  static constexpr std::string_view kAlphabet = "0123456789ABCDEFGHJKLMNPQRSTUVWXYZ";
  if (b.size() != 11 || !IsAllDigits(b.substr(2))) return Verdict::kBadFormat;
  const size_t k0 = kAlphabet.find(b[0]), k1 = kAlphabet.find(b[1]);
  if (k0 == std::string_view::npos || k1 == std::string_view::npos) return Verdict::kBadFormat;
  const std::string_view siren = b.substr(2);
  // SIRENs starting 000 belong to Monaco and carry no Luhn digit.
  if (siren.substr(0, 3) != "000" && !LuhnValid(siren)) return Verdict::kBadChecksum;
  if (IsDigit(b[0]) && IsDigit(b[1])) {
    return Ok(ToInt(b.substr(0, 2)) == (ToInt(siren) * 100 + 12) % 97);
  }
  const uint64_t check = IsDigit(b[0]) ? k0 * 24 + k1 - 10 : k0 * 34 + k1 - 100;
  return Ok((ToInt(siren) + 1 + check / 11) % 11 == check % 11);
}

Verdict Hr(std::string_view b) {
  if (b.size() != 11 || !IsAllDigits(b)) return Verdict::kBadFormat;
  return Ok(Mod11_10Valid(b));
}

Verdict Hu(std::string_view b) {
  if (b.size() != 8 || !IsAllDigits(b)) return Verdict::kBadFormat;
  return Ok(Weighted(b, {9, 7, 3, 1, 9, 7, 3, 1}) % 10 == 0);
}

Verdict Ie(std::string_view b) {
  static constexpr std::string_view kAlphabet = "WABCDEFGHIJKLMNOPQRSTUV";
  if ((b.size() != 8 && b.size() != 9) || !IsDigit(b[0]) || !IsAllDigits(b.substr(2, 5))) {
    return Verdict::kBadFormat;
  }
  for (char c : b.substr(7)) {
    if (kAlphabet.find(c) == std::string_view::npos) return Verdict::kBadFormat;
  }
  auto letter = [&](std::string_view seven, char extra) {
    int sum = 0;
    for (size_t i = 0; i < 7; ++i) sum += static_cast<int>(8 - i) * D(seven[i]);
    sum += 9 * static_cast<int>(extra ? kAlphabet.find(extra) : 0);
    return kAlphabet[sum % 23];
  };
  if (IsDigit(b[1])) {  // 7 digits + check letter (+ optional second letter)
    return Ok(b[7] == letter(b.substr(0, 7), b.size() == 9 ? b[8] : 0));
  }
  if (b.size() != 8 ||
      std::string_view("ABCDEFGHIJKLMNOPQRSTUVWXYZ+*").find(b[1]) == std::string_view::npos) {
    return Verdict::kBadFormat;
  }
  // Old form: digit, letter, 5 digits, check letter; the check covers 0 + digits 3-7 + digit 1.
  const char seven[7] = {'0', b[2], b[3], b[4], b[5], b[6], b[0]};
  return Ok(b[7] == letter(std::string_view(seven, 7), 0));
}

Verdict It(std::string_view b) {
  if (b.size() != 11 || !IsAllDigits(b)) return Verdict::kBadFormat;
  if (ToInt(b.substr(0, 7)) == 0) return Verdict::kBadFormat;
  const uint64_t office = ToInt(b.substr(7, 3));
  if (!((office >= 1 && office <= 100) || office == 120 || office == 121 || office == 888 ||
        office == 999)) {
    return Verdict::kBadFormat;
  }
  return Ok(LuhnValid(b));
}

Verdict Lt(std::string_view b) {
  if (!IsAllDigits(b) || (b.size() != 9 && b.size() != 12)) return Verdict::kBadFormat;
  if (b[b.size() - 2] != '1') return Verdict::kBadFormat;
  const size_t n = b.size() - 1;
  int c = 0;
  for (size_t i = 0; i < n; ++i) c += static_cast<int>(1 + i % 9) * D(b[i]);
  c %= 11;
  if (c == 10) {
    c = 0;
    for (size_t i = 0; i < n; ++i) c += static_cast<int>(1 + (i + 2) % 9) * D(b[i]);
  }
  return Ok(c % 11 % 10 == D(b[n]));
}

Verdict Lu(std::string_view b) {
  if (b.size() != 8 || !IsAllDigits(b)) return Verdict::kBadFormat;
  return Ok(ToInt(b.substr(0, 6)) % 89 == ToInt(b.substr(6)));
}

Verdict Lv(std::string_view b) {
  if (b.size() != 11 || !IsAllDigits(b)) return Verdict::kBadFormat;
  if (b[0] > '3') return Ok(Weighted(b, {9, 1, 4, 8, 3, 10, 2, 5, 7, 6, 1}) % 11 == 3);
  if (b[0] != '3' || b[1] != '2') {
    static constexpr int kCentury[] = {1800, 1900, 2000};
    if (D(b[6]) > 2) return Verdict::kBadFormat;
    const int y = kCentury[D(b[6])] + D(b[4]) * 10 + D(b[5]);
    if (!ValidDate(y, D(b[2]) * 10 + D(b[3]), D(b[0]) * 10 + D(b[1]))) {
      return Verdict::kBadFormat;
    }
  }
  return Ok((1 + Weighted(b, {10, 5, 8, 4, 2, 1, 6, 3, 7, 9})) % 11 % 10 == D(b[10]));
}

Verdict Mt(std::string_view b) {
  if (b.size() != 8 || !IsAllDigits(b) || b[0] == '0') return Verdict::kBadFormat;
  return Ok(Weighted(b, {3, 4, 6, 7, 8, 9, 10, 1}) % 37 == 0);
}

Verdict Nl(std::string_view b) {
  // The number before B is a BSN/RSIN, whose leading zeros spreadsheets drop: pad it to nine.
  if (b.size() >= 4 && b.size() < 12 && b[b.size() - 3] == 'B') {
    char padded[12];
    const size_t pad = 12 - b.size();
    for (size_t i = 0; i < 12; ++i) padded[i] = i < pad ? '0' : b[i - pad];
    return Nl(std::string_view(padded, 12));
  }
  if (b.size() != 12 || !IsAllDigits(b.substr(0, 9)) || b[9] != 'B' || !IsAllDigits(b.substr(10)) ||
      ToInt(b.substr(0, 9)) == 0 || ToInt(b.substr(10)) == 0) {
    return Verdict::kBadFormat;
  }
  // Either the first nine digits are a BSN (11-proof), or the whole NL number passes
  // ISO 7064 Mod 97,10 (identifiers issued since 2020).
  const int bsn = Weighted(b, {9, 8, 7, 6, 5, 4, 3, 2}) - D(b[8]);
  if (bsn % 11 == 0) return Verdict::kValid;
  char buf[14] = {'N', 'L'};
  for (size_t i = 0; i < 12; ++i) buf[2 + i] = b[i];
  return Ok(Mod97_10Valid(std::string_view(buf, 14)));
}

Verdict Pl(std::string_view b) {
  if (b.size() != 10 || !IsAllDigits(b)) return Verdict::kBadFormat;
  return Ok(Weighted(b, {6, 5, 7, 2, 3, 4, 5, 6, 7, -1}) % 11 == 0);
}

Verdict Pt(std::string_view b) {
  if (b.size() != 9 || !IsAllDigits(b) || b[0] == '0') return Verdict::kBadFormat;
  return Ok((11 - Weighted(b, {9, 8, 7, 6, 5, 4, 3, 2}) % 11) % 11 % 10 == D(b[8]));
}

Verdict Ro(std::string_view b) {
  if (!IsAllDigits(b) || b.empty() || b[0] == '0') return Verdict::kBadFormat;
  if (b.size() == 13) {  // CNP (personal numeric code)
    static constexpr int kCentury[] = {0, 1900, 1900, 1800, 1800, 2000, 2000, 1900, 1900, 1900};
    const int y = kCentury[D(b[0])] + D(b[1]) * 10 + D(b[2]);
    if (!ValidDate(y, D(b[3]) * 10 + D(b[4]), D(b[5]) * 10 + D(b[6]))) {
      return Verdict::kBadFormat;
    }
    const int c = Weighted(b, {2, 7, 9, 1, 4, 6, 3, 5, 8, 2, 7, 9}) % 11;
    return Ok((c == 10 ? 1 : c) == D(b[12]));
  }
  if (b.size() < 2 || b.size() > 10) return Verdict::kBadFormat;
  // CUI: zero-padded to 10 digits; weights 7,5,3,2,1,7,5,3,2 over the first 9.
  char padded[10];
  const size_t pad = 10 - b.size();
  for (size_t i = 0; i < 10; ++i) padded[i] = i < pad ? '0' : b[i - pad];
  const int c = 10 * Weighted(std::string_view(padded, 10), {7, 5, 3, 2, 1, 7, 5, 3, 2}) % 11 % 10;
  return Ok(c == D(padded[9]));
}

Verdict Se(std::string_view b) {
  if (b.size() != 12 || !IsAllDigits(b) || b.substr(10) != "01") return Verdict::kBadFormat;
  return Ok(LuhnValid(b.substr(0, 10)));
}

Verdict Si(std::string_view b) {
  if (b.size() != 8 || !IsAllDigits(b) || b[0] == '0') return Verdict::kBadFormat;
  int c = 11 - Weighted(b, {8, 7, 6, 5, 4, 3, 2}) % 11;
  if (c == 10) c = 0;
  return Ok(c == D(b[7]));
}

Verdict Sk(std::string_view b) {
  if (b.size() != 10 || !IsAllDigits(b)) return Verdict::kBadFormat;
  if (BirthNumberValid(b)) return Verdict::kValid;
  if (b[0] == '0' || std::string_view("234789").find(b[2]) == std::string_view::npos) {
    return Verdict::kBadFormat;
  }
  return Ok(ToInt(b) % 11 == 0);
}

Verdict Gb(std::string_view b) {
  auto digits_value = [](std::string_view d) { return static_cast<int>(ToInt(d)); };
  if (b.size() == 5 && (b.substr(0, 2) == "GD" || b.substr(0, 2) == "HA")) {
    if (!IsAllDigits(b.substr(2))) return Verdict::kBadFormat;
    const int v = digits_value(b.substr(2));
    return (b[0] == 'G') == (v < 500) ? Verdict::kValid : Verdict::kBadFormat;
  }
  if (b.size() == 11 && (b.substr(0, 6) == "GD8888" || b.substr(0, 6) == "HA8888")) {
    if (!IsAllDigits(b.substr(6))) return Verdict::kBadFormat;
    const int v = digits_value(b.substr(6, 3));
    if ((b[0] == 'G') != (v < 500)) return Verdict::kBadFormat;
    return Ok(v % 97 == digits_value(b.substr(9, 2)));
  }
  if ((b.size() != 9 && b.size() != 12) || !IsAllDigits(b)) return Verdict::kBadFormat;
  const int c = Weighted(b, {8, 7, 6, 5, 4, 3, 2, 10, 1}) % 97;
  if (digits_value(b.substr(0, 3)) >= 100) return Ok(c == 0 || c == 42 || c == 55);
  return Ok(c == 0);
}

}  // namespace

bool LuhnValid(std::string_view digits) {
  return !digits.empty() && IsAllDigits(digits) && LuhnSum(digits) == 0;
}

bool Mod11_10Valid(std::string_view d) {
  int p = 5;
  for (char c : d) {
    if (!IsDigit(c)) return false;
    p = ((p == 0 ? 10 : p) * 2 % 11 + D(c)) % 10;
  }
  return p == 1;
}

bool Mod97_10Valid(std::string_view s) {
  int r = 0;
  for (char c : s) {
    if (IsDigit(c)) {
      r = (r * 10 + D(c)) % 97;
    } else if (c >= 'A' && c <= 'Z') {
      r = (r * 100 + (c - 'A' + 10)) % 97;
    } else {
      return false;
    }
  }
  return r == 1;
}

Verdict Check(std::string_view v) {
  if (v.size() < 2) return Verdict::kUnknownCountry;
  const std::string_view cc = v.substr(0, 2);
  const std::string_view b = v.substr(2);
  if (b.empty()) return Verdict::kBadFormat;
  struct Entry {
    std::string_view prefix;
    Verdict (*check)(std::string_view);
  };
  static constexpr Entry kTable[] = {
      {"AT", At}, {"BE", Be}, {"BG", Bg}, {"CY", Cy}, {"CZ", Cz}, {"DE", De},
      {"DK", Dk}, {"EE", Ee}, {"EL", El}, {"GR", El}, {"ES", Es}, {"FI", Fi},
      {"FR", Fr}, {"HR", Hr}, {"HU", Hu}, {"IE", Ie}, {"IT", It}, {"LT", Lt},
      {"LU", Lu}, {"LV", Lv}, {"MT", Mt}, {"NL", Nl}, {"PL", Pl}, {"PT", Pt},
      {"RO", Ro}, {"SE", Se}, {"SI", Si}, {"SK", Sk}, {"GB", Gb}, {"XI", Gb},
  };
  for (const Entry& e : kTable) {
    if (e.prefix == cc) return e.check(b);
  }
  return Verdict::kUnknownCountry;
}

}  // namespace dq::validator::vat
