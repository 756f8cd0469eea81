#include "dq/common/date_order.h"

namespace dq::dates {

bool SplitDayMonthYear(std::string_view s, int* a, int* b, int* y) {
  if (s.size() < 8 || s.size() > 10) return false;
  const char sep = s.find('/') != std::string_view::npos   ? '/'
                   : s.find('.') != std::string_view::npos ? '.'
                                                           : '-';
  const size_t p1 = s.find(sep);
  const size_t p2 = p1 == std::string_view::npos ? p1 : s.find(sep, p1 + 1);
  if (p2 == std::string_view::npos || s.find(sep, p2 + 1) != std::string_view::npos) return false;
  auto num = [](std::string_view t, size_t min, size_t max, int* out) {
    if (t.size() < min || t.size() > max) return false;
    int v = 0;
    for (char c : t) {
      if (c < '0' || c > '9') return false;
      v = v * 10 + (c - '0');
    }
    *out = v;
    return true;
  };
  return num(s.substr(0, p1), 1, 2, a) && num(s.substr(p1 + 1, p2 - p1 - 1), 1, 2, b) &&
         num(s.substr(p2 + 1), 4, 4, y);
}

DateOrder OrderShownBy(std::string_view s) {
  int a = 0, b = 0, y = 0;
  if (!SplitDayMonthYear(s, &a, &b, &y)) return DateOrder::kUnknown;
  if (a > 12 && b >= 1 && b <= 12) return DateOrder::kDayFirst;
  if (b > 12 && a >= 1 && a <= 12) return DateOrder::kMonthFirst;
  return DateOrder::kUnknown;
}

DateOrder Combine(DateOrder column, DateOrder shown) {
  if (shown == DateOrder::kUnknown || column == shown) return column;
  if (column == DateOrder::kUnknown) return shown;
  return DateOrder::kConflicting;
}

std::string_view Name(DateOrder order) {
  switch (order) {
    case DateOrder::kUnknown: return "";
    case DateOrder::kDayFirst: return "day_first";
    case DateOrder::kMonthFirst: return "month_first";
    case DateOrder::kConflicting: return "conflicting";
  }
  return "";
}

bool Parse(std::string_view name, DateOrder* out) {
  for (DateOrder o : {DateOrder::kUnknown, DateOrder::kDayFirst, DateOrder::kMonthFirst,
                      DateOrder::kConflicting}) {
    if (Name(o) == name) {
      *out = o;
      return true;
    }
  }
  return false;
}

}  // namespace dq::dates
