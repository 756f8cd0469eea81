// ISO 8601 calendar dates for the inventory rules: parsing and day arithmetic. Pure.
#pragma once

#include <cstdint>
#include <string_view>

namespace dq::validator::iso_date {

bool IsLeap(int y);
int DaysInMonth(int y, int m);
bool IsValidDate(int y, int m, int d);
// Days since 1970-01-01 of a valid proleptic Gregorian date.
int32_t DaysFromCivil(int y, int m, int d);

enum class Parse { kOk, kBadFormat, kImpossible };
// Accepts YYYY-MM-DD, YYYYMMDD, YYYY-MM (taken as the last day of that month), and
// YYYY-MM-DD followed by 'T' or ' ' and hh:mm[:ss[.fraction]] with an optional Z or +hh:mm /
// -hh:mm / +hhmm offset (the date part is what counts). Years 1000-9999. kImpossible: the shape
// is right but the date (or time) does not exist, e.g. 2024-02-30 or 2024-13-01.
Parse ParseDate(std::string_view s, int32_t* days);

}  // namespace dq::validator::iso_date
