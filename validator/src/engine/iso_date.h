// ISO 8601 calendar dates for the inventory rules: parsing and day arithmetic. Pure.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "dq/common/date_order.h"

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

// The day/month order of a column of A/B/YYYY dates (dq/common/date_order.h, shared with the
// gateway, which learns a job's order from the whole file).
using dates::Combine;
using dates::DateOrder;
using dates::OrderShownBy;

struct Reading {
  enum Form { kNone, kIso, kAmbiguous } form = kNone;
  std::string iso;                       // kIso: YYYY-MM-DD
  std::string day_first, month_first;    // kAmbiguous: both readings
};
// A date as spreadsheets and regional exports write it, for a value ParseDate refuses:
// YYYY/MM/DD and YYYY.MM.DD; A/B/YYYY (separator / . or -) read day-first or month-first when
// the value or the column's order decides (A == B needs no order), else kAmbiguous; an Excel
// serial day number 25569..73050 (1970-01-01..2099-12-31). kNone when it is none of these or
// the date does not exist.
Reading ReadSpreadsheetDate(std::string_view s, DateOrder column_order);

}  // namespace dq::validator::iso_date
