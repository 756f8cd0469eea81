// The day/month order of a column of A/B/YYYY dates (31/12/2026 or 12/31/2026), learnt from its
// values. Shared by the rule engine, which reads such dates, and the gateway, which learns a
// job's order from the whole file before any row is checked (docs/issue-codes.md,
// DATE_REFORMATTED / DATE_AMBIGUOUS). Pure.
#pragma once

#include <cstdint>
#include <string_view>

namespace dq::dates {

enum class DateOrder : uint8_t { kUnknown, kDayFirst, kMonthFirst, kConflicting };

// "A/B/YYYY" with one separator kind out of / . -, A and B of 1-2 digits; false for any other
// shape. No range checks.
bool SplitDayMonthYear(std::string_view s, int* a, int* b, int* y);
// What one value shows: kDayFirst when its first number is above 12 (31/12/2026), kMonthFirst
// when its second is (12/31/2026), else kUnknown.
DateOrder OrderShownBy(std::string_view s);
// The column's order after adding what one value shows.
DateOrder Combine(DateOrder column, DateOrder shown);

// The wire and storage names: "day_first", "month_first", "conflicting", "" for kUnknown.
std::string_view Name(DateOrder order);
// The inverse of Name(); false for an unknown name.
bool Parse(std::string_view name, DateOrder* out);

}  // namespace dq::dates
