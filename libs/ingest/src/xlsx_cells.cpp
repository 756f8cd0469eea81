// How an XLSX sheet writes its cells, apart from the reader that walks the sheet
// (xlsx_reader.cpp): column references, the number formats that show a date or a time, Excel's
// _xHHHH_ escapes (xlsx_cells.h), and the text of a cell as Excel shows it: a number in its
// "General" form (ExcelNumberText) and a serial day as a date (ExcelSerialDate), declared in
// dq/ingest/xlsx_reader.h.
#include "xlsx_cells.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "dq/ingest/xlsx_reader.h"

namespace dq::ingest {
namespace {

// Days since 1970-01-01 -> (year, month, day), proleptic Gregorian.
void CivilFromDays(int64_t z, int64_t& y, unsigned& m, unsigned& d) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  y = static_cast<int64_t>(yoe) + era * 400 + (m <= 2 ? 1 : 0);
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// True when `s` is already the text FormatExcelNumber gives for it, which is what most number
// cells hold: an optional '-', an integer part without leading zeros, and an optional fraction
// that does not end in 0; at most 15 significant digits (DBL_DIG: printed back with %.15g or
// %lld, such a number gives its own digits), and a number below 1 no smaller than 0.0001 (%g
// writes smaller ones with an exponent). "-0" is written "0", so it is not.
bool IsFormattedExcelNumber(std::string_view s) {
  size_t i = s.starts_with('-') ? 1 : 0;
  const size_t int_begin = i;
  while (i < s.size() && IsDigit(s[i])) ++i;
  const size_t int_digits = i - int_begin;
  if (int_digits == 0 || (int_digits > 1 && s[int_begin] == '0')) return false;
  const bool below_one = s[int_begin] == '0';
  if (i == s.size()) return int_digits <= 15 && !(below_one && int_begin == 1);
  if (s[i] != '.') return false;
  const size_t frac_begin = ++i;
  while (i < s.size() && IsDigit(s[i])) ++i;
  if (i != s.size() || i == frac_begin || s[i - 1] == '0') return false;
  if (!below_one) return int_digits + (i - frac_begin) <= 15;
  size_t first = frac_begin;  // the first significant digit (the last one is not a 0)
  while (s[first] == '0') ++first;
  return first - frac_begin <= 3 && i - first <= 15;
}

}  // namespace

namespace internal {

// "B" -> 1; 0 when `ref` does not start with column letters.
uint64_t ColumnOfRef(std::string_view ref) {
  uint64_t col = 0;
  size_t i = 0;
  for (; i < ref.size() && ref[i] >= 'A' && ref[i] <= 'Z'; ++i) {
    col = col * 26 + static_cast<uint64_t>(ref[i] - 'A' + 1);
    if (col > kMaxColumns) return kMaxColumns + 1;
  }
  return i == 0 ? 0 : col;
}

std::string ColumnLetters(uint64_t index) {  // 0 -> "A"
  std::string out;
  uint64_t n = index + 1;
  while (n > 0) {
    out.insert(out.begin(), static_cast<char>('A' + (n - 1) % 26));
    n = (n - 1) / 26;
  }
  return out;
}

DateKind KindOfFormatCode(std::string_view code) {
  DateKind k;
  // Only the first section (positive numbers) matters.
  bool quoted = false;
  for (size_t i = 0; i < code.size(); ++i) {
    const char c = code[i];
    if (quoted) {
      if (c == '"') quoted = false;
      continue;
    }
    if (c == '"') {
      quoted = true;
    } else if (c == '\\' || c == '_' || c == '*') {
      ++i;  // the next character is literal (or a fill/padding)
    } else if (c == '[') {
      const size_t close = code.find(']', i);
      if (close == std::string_view::npos) break;
      const std::string_view inside = code.substr(i + 1, close - i - 1);
      if (!inside.empty() && (inside[0] == 'h' || inside[0] == 'H' || inside[0] == 'm' ||
                              inside[0] == 'M' || inside[0] == 's' || inside[0] == 'S')) {
        k.time = true;  // [h]:mm elapsed time
      }
      i = close;
    } else if (c == ';') {
      break;
    } else if (c == 'd' || c == 'D' || c == 'y' || c == 'Y') {
      k.date = true;
    } else if (c == 'h' || c == 'H' || c == 's' || c == 'S') {
      k.time = true;
    }
  }
  return k;
}

DateKind KindOfBuiltinFormat(int id) {
  if ((id >= 14 && id <= 17) || (id >= 27 && id <= 31) || (id >= 34 && id <= 36) ||
      (id >= 50 && id <= 58)) {
    return {true, false};
  }
  if (id == 22) return {true, true};
  if ((id >= 18 && id <= 21) || id == 32 || id == 33 || (id >= 45 && id <= 47)) {
    return {false, true};
  }
  return {};
}

bool IsBlank(std::string_view s) {
  for (char c : s) {
    if (c != ' ' && c != '\t' && c != '\r' && c != '\n') return false;
  }
  return true;
}

// Excel writes characters XML cannot hold as _xHHHH_ (and a literal "_x" as _x005F_x): decode.
void DecodeExcelEscapes(std::string& s) {
  if (s.find("_x") == std::string::npos) return;
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '_' && i + 6 < s.size() && s[i + 1] == 'x' && s[i + 6] == '_') {
      int v = 0;
      bool ok = true;
      for (size_t k = 2; k < 6; ++k) {
        const int d = HexDigit(s[i + k]);
        ok = ok && d >= 0;
        v = v * 16 + d;
      }
      if (ok && !(v >= 0xD800 && v <= 0xDFFF)) {
        if (v < 0x80) {
          out.push_back(static_cast<char>(v));
        } else if (v < 0x800) {
          out.push_back(static_cast<char>(0xC0 | (v >> 6)));
          out.push_back(static_cast<char>(0x80 | (v & 0x3F)));
        } else {
          out.push_back(static_cast<char>(0xE0 | (v >> 12)));
          out.push_back(static_cast<char>(0x80 | ((v >> 6) & 0x3F)));
          out.push_back(static_cast<char>(0x80 | (v & 0x3F)));
        }
        i += 6;
        continue;
      }
    }
    out.push_back(s[i]);
  }
  s = std::move(out);
}

}  // namespace internal

std::string ExcelNumberText(std::string_view stored) {
  if (IsFormattedExcelNumber(stored)) return std::string(stored);
  return internal::FormatExcelNumber(stored);
}

std::string internal::FormatExcelNumber(std::string_view stored) {
  std::string text(stored);
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v)) return text;
  char buf[64];
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
    return buf;
  }
  std::snprintf(buf, sizeof buf, "%.15g", v);
  std::string out = buf;
  const size_t e = out.find('e');
  if (e != std::string::npos) {
    out[e] = 'E';
    // Excel writes 1E+20 and 1E-05: at least two exponent digits, no extra zeros.
  }
  return out;
}

std::string ExcelSerialDate(double serial, bool date1904, bool with_time) {
  if (!std::isfinite(serial) || serial < 0 || serial >= 2958466) return "";
  int64_t days = static_cast<int64_t>(std::floor(serial));
  int64_t seconds = std::llround((serial - static_cast<double>(days)) * 86400.0);
  if (seconds >= 86400) {
    ++days;
    seconds -= 86400;
  }
  int64_t unix_days;  // days since 1970-01-01
  if (date1904) {
    unix_days = days - 24107;  // 1904-01-01 is serial 0
  } else {
    if (days < 1 || days == 60) return "";  // 1900-01-00 and Lotus's fictitious 1900-02-29
    unix_days = days < 60 ? days - 25568 : days - 25569;
  }
  int64_t y;
  unsigned m, d;
  CivilFromDays(unix_days, y, m, d);
  char buf[96];
  if (with_time) {
    std::snprintf(buf, sizeof buf, "%04lld-%02u-%02u %02lld:%02lld:%02lld",
                  static_cast<long long>(y), m, d, static_cast<long long>(seconds / 3600),
                  static_cast<long long>(seconds / 60 % 60), static_cast<long long>(seconds % 60));
  } else {
    std::snprintf(buf, sizeof buf, "%04lld-%02u-%02u", static_cast<long long>(y), m, d);
  }
  return buf;
}

}  // namespace dq::ingest
