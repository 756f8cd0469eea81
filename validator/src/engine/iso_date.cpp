#include "iso_date.h"
#include <cstdio>
#include <cstdlib>

#include "text.h"

namespace dq::validator::iso_date {
namespace {

bool Num(std::string_view s, size_t pos, size_t len, int* out) {
  if (pos + len > s.size()) return false;
  int v = 0;
  for (size_t i = pos; i < pos + len; ++i) {
    if (!text::IsDigit(s[i])) return false;
    v = v * 10 + (s[i] - '0');
  }
  *out = v;
  return true;
}

// hh:mm[:ss[.f+]][Z|±hh[:]mm|±hh]; false on a bad shape, *valid false on impossible values.
bool ParseTime(std::string_view t, bool* valid) {
  int h = 0, m = 0, sec = 0;
  if (!Num(t, 0, 2, &h) || t.size() < 5 || t[2] != ':' || !Num(t, 3, 2, &m)) return false;
  size_t i = 5;
  if (i < t.size() && t[i] == ':') {
    if (!Num(t, i + 1, 2, &sec)) return false;
    i += 3;
    if (i < t.size() && (t[i] == '.' || t[i] == ',')) {
      ++i;
      const size_t start = i;
      while (i < t.size() && text::IsDigit(t[i])) ++i;
      if (i == start) return false;
    }
  }
  *valid = h <= 24 && m <= 59 && sec <= 60 && (h < 24 || (m == 0 && sec == 0));
  if (i == t.size()) return true;
  if (t[i] == 'Z' && i + 1 == t.size()) return true;
  if (t[i] != '+' && t[i] != '-') return false;
  std::string_view off = t.substr(i + 1);
  int oh = 0, om = 0;
  if (off.size() == 2 && Num(off, 0, 2, &oh)) {
  } else if (off.size() == 4 && Num(off, 0, 2, &oh) && Num(off, 2, 2, &om)) {
  } else if (off.size() == 5 && off[2] == ':' && Num(off, 0, 2, &oh) && Num(off, 3, 2, &om)) {
  } else {
    return false;
  }
  if (oh > 23 || om > 59) *valid = false;
  return true;
}

}  // namespace

bool IsLeap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int DaysInMonth(int y, int m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && IsLeap(y) ? 29 : kDays[m - 1];
}

bool IsValidDate(int y, int m, int d) {
  return m >= 1 && m <= 12 && d >= 1 && d <= DaysInMonth(y, m);
}

int32_t DaysFromCivil(int y, int m, int d) {
  // Howard Hinnant's days_from_civil.
  y -= m <= 2;
  const int era = (y >= 0 ? y : y - 399) / 400;
  const int yoe = y - era * 400;
  const int doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

Parse ParseDate(std::string_view s, int32_t* days) {
  int y = 0, m = 0, d = 0;
  bool time_valid = true;
  if (s.size() == 8 && Num(s, 0, 4, &y) && Num(s, 4, 2, &m) && Num(s, 6, 2, &d)) {
    // YYYYMMDD
  } else if (s.size() == 7 && Num(s, 0, 4, &y) && s[4] == '-' && Num(s, 5, 2, &m)) {
    if (y < 1000 || m < 1 || m > 12) return Parse::kImpossible;
    d = DaysInMonth(y, m);
  } else if (s.size() >= 10 && Num(s, 0, 4, &y) && s[4] == '-' && Num(s, 5, 2, &m) && s[7] == '-' &&
             Num(s, 8, 2, &d)) {
    if (s.size() > 10) {
      if ((s[10] != 'T' && s[10] != ' ') || !ParseTime(s.substr(11), &time_valid)) {
        return Parse::kBadFormat;
      }
    }
  } else {
    return Parse::kBadFormat;
  }
  if (y < 1000 || !IsValidDate(y, m, d) || !time_valid) return Parse::kImpossible;
  *days = DaysFromCivil(y, m, d);
  return Parse::kOk;
}

namespace {

std::string Iso(int y, int m, int d) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", y, m, d);
  return buf;
}

}  // namespace

Reading ReadSpreadsheetDate(std::string_view s, DateOrder column_order) {
  Reading r;
  // Excel serial day numbers (what a date cell becomes when exported without its format).
  if (s.size() == 5 && s.find_first_not_of("0123456789") == std::string_view::npos) {
    const int serial = std::atoi(std::string(s).c_str());
    if (serial >= 25569 && serial <= 73050) {
      int32_t days = serial - 25569;  // days since 1970-01-01
      // Civil date from days (inverse of DaysFromCivil), by stepping years and months.
      int y = 1970;
      while (days >= (IsLeap(y) ? 366 : 365)) days -= IsLeap(y++) ? 366 : 365;
      int m = 1;
      while (days >= DaysInMonth(y, m)) days -= DaysInMonth(y, m++);
      r.form = Reading::kIso;
      r.iso = Iso(y, m, days + 1);
    }
    return r;
  }
  // YYYY/MM/DD, YYYY.MM.DD.
  if (s.size() == 10 && (s[4] == '/' || s[4] == '.') && s[7] == s[4]) {
    int y = 0, m = 0, d = 0;
    if (std::sscanf(std::string(s).c_str(), "%4d%*c%2d%*c%2d", &y, &m, &d) == 3 &&
        s.find_first_not_of("0123456789./") == std::string_view::npos && IsValidDate(y, m, d)) {
      r.form = Reading::kIso;
      r.iso = Iso(y, m, d);
    }
    return r;
  }
  int a = 0, b = 0, y = 0;
  if (!dates::SplitDayMonthYear(s, &a, &b, &y) || y < 1000) return r;
  const bool day_first_ok = IsValidDate(y, b, a);
  const bool month_first_ok = IsValidDate(y, a, b);
  DateOrder order = OrderShownBy(s);
  if (order == DateOrder::kUnknown && a == b) order = DateOrder::kDayFirst;  // same either way
  if (order == DateOrder::kUnknown && (column_order == DateOrder::kDayFirst ||
                                       column_order == DateOrder::kMonthFirst)) {
    order = column_order;
  }
  if (order == DateOrder::kDayFirst && day_first_ok) {
    r.form = Reading::kIso;
    r.iso = Iso(y, b, a);
  } else if (order == DateOrder::kMonthFirst && month_first_ok) {
    r.form = Reading::kIso;
    r.iso = Iso(y, a, b);
  } else if (order == DateOrder::kUnknown && day_first_ok && month_first_ok) {
    r.form = Reading::kAmbiguous;
    r.day_first = Iso(y, b, a);
    r.month_first = Iso(y, a, b);
  }
  return r;
}

}  // namespace dq::validator::iso_date
