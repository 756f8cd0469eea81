#include "dq/common/time_format.h"

#include <cstdio>
#include <ctime>

namespace dq {

std::string FormatIso8601Millis(std::chrono::system_clock::time_point t) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch());
  const std::time_t secs = static_cast<std::time_t>(ms.count() / 1000);
  const int millis = static_cast<int>(ms.count() % 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, millis);
  return buf;
}

std::string FormatYearMonth(std::chrono::system_clock::time_point t) {
  const std::time_t secs = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04d%02d", tm.tm_year + 1900, tm.tm_mon + 1);
  return buf;
}

std::optional<int64_t> ParseIso8601Millis(std::string_view t) {
  // 0123456789012345678901234
  // 2026-11-22T09:05:01.042Z
  if (t.size() != 24 || t[4] != '-' || t[7] != '-' || t[10] != 'T' || t[13] != ':' ||
      t[16] != ':' || t[19] != '.' || t[23] != 'Z') {
    return std::nullopt;
  }
  auto num = [&](size_t at, size_t n, int* out) {
    int v = 0;
    for (size_t i = at; i < at + n; ++i) {
      if (t[i] < '0' || t[i] > '9') return false;
      v = v * 10 + (t[i] - '0');
    }
    *out = v;
    return true;
  };
  int y, mo, d, h, mi, s, ms;
  if (!num(0, 4, &y) || !num(5, 2, &mo) || !num(8, 2, &d) || !num(11, 2, &h) ||
      !num(14, 2, &mi) || !num(17, 2, &s) || !num(20, 3, &ms)) {
    return std::nullopt;
  }
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) return std::nullopt;
  const std::chrono::year_month_day ymd{std::chrono::year(y), std::chrono::month(mo),
                                        std::chrono::day(d)};
  if (!ymd.ok()) return std::nullopt;
  const auto days = std::chrono::sys_days(ymd).time_since_epoch();
  return std::chrono::duration_cast<std::chrono::milliseconds>(days).count() +
         ((h * 60LL + mi) * 60LL + s) * 1000LL + ms;
}

}  // namespace dq
